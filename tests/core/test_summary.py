"""summary() of the proportional-odds model and of the ordinal tree, the Summary renderer, the
rows the summaries share, and the contract that every summary() returns a Summary."""

import numpy as np
import pandas as pd
import pytest
from tests._reference import load, read_input
from scipy import stats
from sklearn.base import BaseEstimator

from ordstat._core.summary import Summary, class_info, class_table, cut_names, cut_table
from ordstat._core.validation import validate_fit
from ordstat.baseline import ProportionalOddsClassifier, _information

CLASSES = ["c0", "c1", "c2", "c3"]


def _polr_data(n=200, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.digitize(X[:, 0] - 0.5 * X[:, 1] + rng.logistic(size=n), [-1.0, 0.0, 1.0])
    return X, y


# --- proportional odds ---------------------------------------------------------------------------

@pytest.mark.parametrize("link", ["logit", "probit"])
def test_polr_standard_errors_match_stored_mass_polr(link):
    """Standard errors equal summary.polr's (R uses a finite-difference Hessian, hence rtol)."""
    ref = load("polr")[link]
    X, y, _ = read_input("polr")
    fit = ProportionalOddsClassifier(link=link, max_iter=1000, classes=CLASSES).fit(X, y)
    table = fit.summary()
    ours = np.concatenate([table["coefficients"]["std_error"], table["thresholds"]["std_error"]])
    print(f"{link}: ours {ours}; polr {ref['se']}")
    np.testing.assert_allclose(ours, ref["se"], rtol=1e-4)
    assert list(table["thresholds"].index) == ["c0|c1", "c1|c2", "c2|c3"]
    np.testing.assert_allclose(table["coefficients"]["estimate"], ref["coefficients"], rtol=1e-4)


def _loglik(theta, X, endog, link):
    p = X.shape[1]
    dist = stats.logistic if link == "logit" else stats.norm
    cuts = np.concatenate([[-np.inf], theta[p:], [np.inf]])
    eta = X @ theta[:p]
    return np.sum(np.log(dist.cdf(cuts[endog + 1] - eta) - dist.cdf(cuts[endog] - eta)))


@pytest.mark.parametrize("link", ["logit", "probit"])
def test_information_is_minus_the_numerical_hessian(link):
    X, y = _polr_data(60, seed=1)
    theta = np.array([0.8, -0.3, -1.2, 0.1, 1.4])
    info = _information(X, y, np.ones(len(y)), theta[:2], theta[2:], link)
    h = 1e-4
    num = np.empty((5, 5))
    for i in range(5):
        for j in range(5):
            e_i, e_j = np.eye(5)[i] * h, np.eye(5)[j] * h
            num[i, j] = (_loglik(theta + e_i + e_j, X, y, link)
                         - _loglik(theta + e_i - e_j, X, y, link)
                         - _loglik(theta - e_i + e_j, X, y, link)
                         + _loglik(theta - e_i - e_j, X, y, link)) / (4 * h * h)
    np.testing.assert_allclose(info, -num, rtol=1e-5, atol=1e-5)


def test_polr_z_and_p_values_are_wald():
    X, y = _polr_data()
    table = ProportionalOddsClassifier().fit(X, y).summary()["coefficients"]
    z = table["estimate"] / table["std_error"]
    np.testing.assert_allclose(table["z"], z)
    np.testing.assert_allclose(table["p_value"], 2 * stats.norm.sf(np.abs(z)))
    assert table["p_value"].iloc[0] < 1e-6


def test_polr_names_from_dataframe_weights_and_constant_feature():
    X, y = _polr_data(120, seed=2)
    frame = pd.DataFrame({"age": X[:, 0], "dose": X[:, 1], "const": 1.0})
    labels = pd.Categorical.from_codes(y, ["low", "mid", "high", "top"], ordered=True)
    w = np.random.default_rng(3).integers(1, 4, size=len(y))
    fit = ProportionalOddsClassifier().fit(frame, labels, sample_weight=w)
    summary = fit.summary()
    coefs = summary["coefficients"]
    assert list(coefs.index) == ["age", "dose", "const"]
    assert np.isnan(coefs.loc["const", "std_error"]) and coefs.loc["const", "estimate"] == 0
    assert list(summary["thresholds"].index) == ["low|mid", "mid|high", "high|top"]
    # frequency weights: the same standard errors as the data with rows repeated
    rep = ProportionalOddsClassifier().fit(frame.loc[frame.index.repeat(w)],
                                           labels[np.repeat(np.arange(len(y)), w)])
    np.testing.assert_allclose(coefs["std_error"].iloc[:2],
                               rep.summary()["coefficients"]["std_error"].iloc[:2], rtol=1e-3)
    text = str(summary)
    assert "low|mid" in text and "age" in text and "logit" in text
    assert "<table" in summary._repr_html_() and "high|top" in summary._repr_html_()
    assert f"{2 * 5 - 2 * fit.log_likelihood_:.6g}" in text  # AIC with 2 + 3 parameters


def test_polr_summary_needs_a_fit():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        ProportionalOddsClassifier().summary()


def test_summary_renderer():
    s = Summary("Title", [("a", "1"), ("longer", "x")],
                {"t": pd.DataFrame({"v": [0.123456789]}, index=["r"])}, "a note", digits=3)
    text = str(s)
    assert text.splitlines()[0] == "Title"
    assert "a:      1" in text and "0.123" in text and "0.1235" not in text
    assert text.rstrip().endswith("a note")
    with pytest.raises(KeyError, match="tables: \\['t'\\]"):
        s["missing"]


# --- rows shared by the summaries -----------------------------------------------------------------

class _Fitted(BaseEstimator):
    def __init__(self, classes=None):
        self.classes = classes

    def fit(self, X, y, sample_weight=None):
        validate_fit(self, X, y, sample_weight, classes=self.classes)
        return self


class _Nominal(_Fitted):
    _uses_class_order = False


def test_class_and_cut_tables_from_the_training_sizes():
    y = ["lo", "hi", "mid", "lo", "lo", "hi"]
    order = ["lo", "mid", "hi", "top"]  # "top" has no units
    X = np.zeros((6, 1))
    fitted = _Fitted(classes=order).fit(X, y)
    assert class_info(fitted) == [("classes", "lo < mid < hi < top"), ("units", "6")]
    table = class_table(fitted, share=[0.5, 1 / 6, 1 / 3, 0.0])
    assert list(table.index) == order and list(table.columns) == ["units", "share"]
    assert table["units"].tolist() == [3, 1, 2, 0]
    cuts = cut_table(fitted, extra=[1, 2, 3])
    assert list(cuts.index) == ["lo|mid", "mid|hi", "hi|top"] == cut_names(fitted)
    assert cuts["below"].tolist() == [3, 4, 6] and cuts["above"].tolist() == [3, 2, 0]
    assert cuts["extra"].tolist() == [1, 2, 3]

    w = np.array([1.0, 2.0, 0.5, 1.0, 1.0, 0.25])
    weighted = _Fitted(classes=order).fit(X, y, sample_weight=w)
    assert dict(class_info(weighted))["units"] == "6 (total weight 5.75)"
    assert class_table(weighted)["weight"].tolist() == [3.0, 0.5, 2.25, 0.0]
    cuts = cut_table(weighted)
    assert list(cuts.columns) == ["below", "above", "below weight", "above weight"]
    assert cuts["below weight"].tolist() == [3.0, 3.5, 5.75]
    assert cuts["above weight"].tolist() == [2.75, 2.25, 0.0]


def test_class_info_claims_an_order_only_for_estimators_that_use_it():
    fitted = _Nominal().fit(np.zeros((3, 1)), ["b", "a", "b"])
    assert dict(class_info(fitted))["classes"] == "a, b"


def _owned_estimators():
    from ordstat.decomposition import (AdaBoostOR, DataReplicationClassifier,
                                       FrankHallClassifier, OrdinalStumpBoost,
                                       ReplicatedTreeClassifier, WeightedSVMEnsemble)
    from ordstat.discrete import FullMultinomial, IndependenceModel, KernelMultinomial
    from ordstat.ensemble import (FixedSplitBaggingClassifier, OrdinalBaggingClassifier,
                                  OrdinalBoostingClassifier, OrdinalRandomForestClassifier)

    return [OrdinalBaggingClassifier(n_estimators=2, oob_score=False, random_state=0),
            OrdinalRandomForestClassifier(n_estimators=2, oob_score=False, random_state=0),
            OrdinalBoostingClassifier(n_estimators=2, random_state=0),
            FixedSplitBaggingClassifier(n_estimators=2, random_state=0),
            FrankHallClassifier(), DataReplicationClassifier(), ReplicatedTreeClassifier(),
            OrdinalStumpBoost(n_estimators=2), AdaBoostOR(n_estimators=2),
            WeightedSVMEnsemble(), FullMultinomial(), IndependenceModel(),
            KernelMultinomial(smoothing=0.9)]


@pytest.mark.parametrize("estimator", _owned_estimators(), ids=lambda e: type(e).__name__)
def test_every_summary_is_a_summary_needs_a_fit_and_checks_digits(estimator):
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        estimator.summary()
    X, y = _polr_data(80)
    X = np.round(X) if hasattr(estimator, "categories") else X  # few categories
    summary = estimator.fit(X, y).summary(digits=3)
    assert isinstance(summary, Summary) and summary.digits == 3
    assert summary["classes"]["units"].tolist() == np.bincount(y).tolist()
    with pytest.raises(ValueError, match="digits must be an integer >= 1"):
        estimator.summary(digits=0)


# --- ordinal tree ---------------------------------------------------------------------------------

def test_tree_summary_on_a_hand_computed_split():
    """Ten units, two classes split perfectly at x = 4.5: root counts (5, 5), expected loss
    1/2, ordinal impurity F(1)(1 - F(1)) = 1/4, so the improvement is 10 * 1/4 = 2.5."""
    from ordstat.trees import OrdinalTreeClassifier

    X = np.arange(10.0)[:, None]
    y = np.repeat(["lo", "hi"], 5)
    tree = OrdinalTreeClassifier(min_split=2, min_bucket=1, xval=0,
                                 classes=["lo", "hi"]).fit(X, y)
    summary = tree.summary()
    nodes = summary["nodes"]
    assert list(nodes.index) == [1, 2, 3]
    assert list(nodes["n"]) == [10, 5, 5]
    assert nodes.loc[1, "expected_loss"] == pytest.approx(0.5)
    assert nodes.loc[1, "improvement"] == pytest.approx(2.5)
    assert nodes.loc[1, "split"] == "x0< 4.5"
    assert list(nodes.loc[[2, 3], "predicted"]) == ["lo", "hi"]
    assert list(nodes.loc[1, ["left", "right"]]) == [2, 3]
    assert list(nodes.loc[[2, 3], "expected_loss"]) == [0, 0]
    assert list(nodes["prob_node"]) == [1.0, 0.5, 0.5]
    imp = summary["variable importance"]
    assert list(imp.index) == ["x0"] and imp["percent"].iloc[0] == pytest.approx(100.0)
    text = str(summary)
    assert "Node 1 (split): 10 units" in text and "x0< 4.5" in text
    assert "Node 3 (leaf): 5 units" in text
    assert "<table" in summary._repr_html_()


def test_tree_summary_says_where_missing_values_go():
    """Two NaN units of class lo make the perfect split x < 3.5 with missing values left
    (learned); without NaN at fitting, 5 lo | 6 hi sends them to the heavier right child."""
    from ordstat.trees import OrdinalTreeClassifier

    def text(x, y):
        tree = OrdinalTreeClassifier(min_split=2, min_bucket=1, xval=0, classes=["lo", "hi"])
        return str(tree.fit(np.asarray(x)[:, None], y).summary())

    learned = text([0, 1, 2, 3, 4, 5, 6, 7, np.nan, np.nan], ["lo"] * 4 + ["hi"] * 4 + ["lo"] * 2)
    assert "x0< 3.5" in learned
    assert "missing values go left (learned from the training units missing" in learned
    majority = text(np.arange(11.0), ["lo"] * 5 + ["hi"] * 6)
    assert "missing values go right (the heavier child" in majority


def test_tree_summary_nodes_equal_tree_arrays():
    from ordstat.trees import OrdinalTreeClassifier

    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(200, 3)), columns=["a", "b", "c"])
    X["colour"] = pd.Categorical(rng.choice(["red", "green", "blue"], size=200))
    y = np.digitize(X["a"] + (X["colour"] == "red") + 0.3 * rng.normal(size=200), [-0.5, 0.5])
    w = rng.uniform(0.5, 2.0, size=200)
    tree = OrdinalTreeClassifier(cp=0.001, random_state=0, leaf_rule="median").fit(
        X, y, sample_weight=w)
    t = tree.tree_
    summary = tree.summary()
    nodes = summary["nodes"]
    np.testing.assert_array_equal(nodes.index, t.node_number)
    np.testing.assert_array_equal(nodes["n"], t.n_node_samples)
    np.testing.assert_allclose(nodes["expected_loss"] * nodes["weight"], t.risk)
    np.testing.assert_allclose(nodes["cp"][t.children_left >= 0],
                               (t.complexity / t.risk[0])[t.children_left >= 0])
    assert nodes["cp"][t.children_left < 0].isna().all()
    np.testing.assert_array_equal(nodes["predicted"], tree.classes_[t.yval])
    internal = t.children_left >= 0
    np.testing.assert_array_equal(nodes["left"][internal], 2 * nodes.index[internal])
    np.testing.assert_array_equal(nodes["right"][internal], 2 * nodes.index[internal] + 1)
    assert (nodes["left"][~internal] == -1).all() and (nodes["split"][~internal] == "").all()
    imp = summary["variable importance"]
    assert imp["percent"].sum() == pytest.approx(100.0)
    np.testing.assert_allclose(imp["importance"].sum(), tree.variable_importance_.sum())
    pd.testing.assert_frame_equal(summary["cp table"], tree.cp_table_)
    assert nodes["split"].str.startswith("colour=").any()
    assert "weight" in str(summary)


def test_tree_summary_needs_a_fit():
    from sklearn.exceptions import NotFittedError

    from ordstat.trees import OrdinalTreeClassifier

    with pytest.raises(NotFittedError):
        OrdinalTreeClassifier().summary()


def test_summary_digits_are_checked():
    from ordstat.trees import OrdinalTreeClassifier

    X, y = _polr_data(60)
    with pytest.raises(ValueError, match="digits must be an integer >= 1"):
        ProportionalOddsClassifier().fit(X, y).summary(digits=0)
    with pytest.raises(TypeError, match="digits must be an integer"):
        OrdinalTreeClassifier(xval=0).fit(X, y).summary(digits=2.5)


@pytest.mark.r
@pytest.mark.parametrize("method, link", [("logistic", "logit"), ("probit", "probit")])
def test_polr_weighted_standard_errors_match_live_mass_polr(method, link):
    """Three features and case weights, live against summary(MASS::polr(..., Hess = TRUE))."""
    pytest.importorskip("rpy2")
    from rpy2 import robjects as ro
    from rpy2.robjects import default_converter, numpy2ri, pandas2ri
    from rpy2.robjects.conversion import localconverter

    rng = np.random.default_rng(5)
    X = rng.normal(size=(150, 3)) * [1.0, 2.0, 0.5]
    codes = np.digitize(X @ [1.0, -0.4, 0.8] + rng.logistic(size=150), [-1.5, 0.0, 1.5])
    w = rng.integers(1, 4, size=150).astype(float)
    frame = pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "c": X[:, 2], "w": w,
                          "y": pd.Categorical.from_codes(codes, CLASSES, ordered=True)})
    with localconverter(default_converter + pandas2ri.converter):
        ro.globalenv["d"] = frame
    with localconverter(default_converter + numpy2ri.converter):
        coef = ro.r(f"coef(summary(MASS::polr(y ~ a + b + c, data = d, weights = w, "
                    f"method = '{method}', Hess = TRUE, "
                    f"control = list(reltol = 1e-12, maxit = 1000))))")
    ref = np.asarray(coef)
    summary = ProportionalOddsClassifier(link=link, max_iter=1000).fit(
        frame[["a", "b", "c"]], frame["y"], sample_weight=w).summary()
    ours = pd.concat([summary["coefficients"], summary["thresholds"]])
    print(ours[["estimate", "std_error"]].assign(polr_value=ref[:, 0], polr_se=ref[:, 1]))
    np.testing.assert_allclose(ours["estimate"], ref[:, 0], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(ours["std_error"], ref[:, 1], rtol=1e-3)


@pytest.mark.r
@pytest.mark.parametrize("case", ["iris", "five3_m20"])
def test_tree_summary_agrees_with_rpart_frame(case):
    """Node sizes, expected losses (dev / wt), complexities of the splits and the variable
    importance percentages equal those of rpart's own summary (Gini, no surrogates). rpart may
    put the x >= c child first, so nodes are compared as sets."""
    pytest.importorskip("rpy2")
    from tests._reference import RPART_CASES
    from rpy2 import robjects as ro
    from rpy2.robjects import default_converter, numpy2ri, pandas2ri
    from rpy2.robjects.conversion import localconverter

    from ordstat.trees import OrdinalTreeClassifier

    data, minsplit, cp = RPART_CASES[case]
    X, y, folds = read_input(data)
    frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])])
    frame["y"] = pd.Categorical(np.asarray(y).astype(str))
    with localconverter(default_converter + pandas2ri.converter):
        ro.globalenv["d"] = frame
    ro.globalenv["folds"] = ro.IntVector((folds + 1).tolist())
    ro.r(f"f <- rpart::rpart(y ~ ., data = d, method = 'class', control = "
         f"rpart::rpart.control(minsplit = {minsplit}, minbucket = round({minsplit} / 3), "
         f"cp = {cp}, xval = folds, maxcompete = 0, maxsurrogate = 0))")
    with localconverter(default_converter + numpy2ri.converter):
        n = np.asarray(ro.r("f$frame$n"))
        loss = np.asarray(ro.r("f$frame$dev / f$frame$wt"))
        cx = np.asarray(ro.r("f$frame$complexity"))
        leaf = np.asarray(ro.r("f$frame$var == '<leaf>'")).astype(bool)
        importance = np.asarray(ro.r("round(100 * f$variable.importance / "
                                     "sum(f$variable.importance))"))
        imp_names = list(ro.r("names(f$variable.importance)"))
    tree = OrdinalTreeClassifier(criterion="gini", min_split=minsplit, cp=cp, xval=folds).fit(
        frame.drop(columns="y"), np.asarray(y).astype(str))
    summary = tree.summary()
    nodes = summary["nodes"]
    ours = sorted(zip(nodes["n"], np.round(nodes["expected_loss"], 10)))
    assert ours == sorted(zip(n.astype(int), np.round(loss, 10)))
    split = nodes["left"] > 0
    ours = sorted(zip(nodes["n"][split], np.round(nodes["cp"][split], 10)))
    assert ours == sorted(zip(n[~leaf].astype(int), np.round(cx[~leaf], 10)))
    imp = summary["variable importance"]
    assert list(imp.index) == imp_names
    np.testing.assert_array_equal(np.round(imp["percent"]), importance)
