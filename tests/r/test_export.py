"""to_rpart: a fitted OrdinalTreeClassifier as an R rpart object that R's tools accept."""

import numpy as np
import pandas as pd
import pytest
import rpy2.robjects as ro

import ordstat.r
from ordstat.r import to_py, to_r
from ordstat.trees import OrdinalTreeClassifier

from tests.r.test_rpart import LEVELS, ordered_data

pytestmark = pytest.mark.r


@pytest.fixture(scope="module")
def fitted():
    df = ordered_data()
    X = df.drop(columns="y")
    tree = OrdinalTreeClassifier(min_split=20, cp=0.01, random_state=0).fit(X, df["y"])
    return tree, X, df["y"]


def test_r_predict_equals_python_predict(fitted):
    tree, X, _ = fitted
    fit = ordstat.r.to_rpart(tree, X)
    assert list(fit.rclass) == ["rpart"]
    rX = to_r(X)
    pred = to_py(ro.r("function(f, d) predict(f, d, type = 'class')")(fit, rX))
    assert list(pred.categories) == LEVELS
    np.testing.assert_array_equal(np.asarray(pred.astype(str)), tree.predict(X).astype(str))
    prob = to_py(ro.r("function(f, d) predict(f, d, type = 'prob')")(fit, rX))
    np.testing.assert_allclose(prob, tree.predict_proba(X), atol=1e-12)
    # without newdata, R uses `where`, filled from X
    fitted_prob = to_py(ro.r("function(f) predict(f, type = 'prob')")(fit))
    np.testing.assert_allclose(fitted_prob, tree.predict_proba(X), atol=1e-12)


def test_frame_matches_the_python_tree(fitted):
    tree, X, _ = fitted
    fit = ordstat.r.to_rpart(tree, X)
    frame = to_py(ro.r("function(f) f$frame[, c('var', 'n', 'dev', 'yval')]")(fit))
    t = tree.tree_
    names = list(X.columns)
    assert list(frame["var"]) == ["<leaf>" if f < 0 else names[f] for f in t.feature]
    np.testing.assert_array_equal(frame["n"], t.n_node_samples)
    np.testing.assert_allclose(frame["dev"], t.risk)
    np.testing.assert_array_equal(frame["yval"], t.yval + 1)
    rownames = list(ro.r("function(f) as.integer(rownames(f$frame))")(fit))
    assert rownames == list(t.node_number)
    cp = to_py(ro.r("function(f) as.data.frame(f$cptable)")(fit))
    np.testing.assert_allclose(cp["CP"], tree.cp_table_["CP"])
    np.testing.assert_allclose(cp["xerror"], tree.cp_table_["xerror"])


def test_print_summary_plot_text_work(fitted, tmp_path):
    tree, X, _ = fitted
    fit = ordstat.r.to_rpart(tree, X)
    printed = "\n".join(ro.r("function(f) capture.output(print(f))")(fit))
    assert "1) root 240" in printed and "g=" in printed and "x 2< " in printed
    summary = "\n".join(ro.r("function(f) capture.output(summary(f))")(fit))
    assert "Variable importance" in summary and "predicted class=" in summary
    png = tmp_path / "tree.png"
    ro.r("""function(f, path) {
        grDevices::png(path, 600, 400)
        on.exit(grDevices::dev.off())
        plot(f, uniform = TRUE, margin = 0.1)
        text(f, use.n = TRUE)
    }""")(fit, str(png))
    assert png.stat().st_size > 1000


def test_numpy_input_and_single_node_tree():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    tree = OrdinalTreeClassifier(min_split=10, xval=0).fit(X, y)
    fit = ordstat.r.to_rpart(tree)
    new = to_r(pd.DataFrame(X, columns=["x0", "x1"]))
    pred = to_py(ro.r("function(f, d) predict(f, d, type = 'class')")(fit, new))
    np.testing.assert_array_equal(np.asarray(pred.astype(int)), tree.predict(X))
    stump = OrdinalTreeClassifier(min_split=1000, xval=0).fit(X, y)
    out = "\n".join(ro.r("function(f) capture.output(print(f))")(ordstat.r.to_rpart(stump)))
    assert "root 60" in out


def test_to_rpart_bad_input(fitted):
    with pytest.raises(TypeError, match="OrdinalTreeClassifier"):
        ordstat.r.to_rpart(object())
    with pytest.raises(ValueError, match="not fitted"):
        ordstat.r.to_rpart(OrdinalTreeClassifier())


def test_awkward_r_levels_survive_a_python_model_and_return():
    """An R ordered factor with awkward levels -> pandas -> a model -> back to R unchanged."""
    rdf = ro.r("""local({
        set.seed(3)
        lev <- c("very low", "l\\u00f3w", "Mid dle", "ZZ top", "a (unused)")
        x <- stats::rnorm(120)
        y <- factor(lev[findInterval(x, c(-0.7, 0, 0.7)) + 1L], levels = lev, ordered = TRUE)
        data.frame(x = x, y = y)
    })""")
    df = to_py(rdf)
    assert list(df["y"].cat.categories) == ["very low", "lów", "Mid dle", "ZZ top", "a (unused)"]
    tree = OrdinalTreeClassifier(min_split=10, xval=0).fit(df[["x"]], df["y"])
    pred = pd.Categorical(tree.predict(df[["x"]]), categories=tree.classes_, ordered=True)
    back = to_r(pd.DataFrame({"pred": pred}))
    same = ro.r("function(orig, new) identical(levels(orig$y), levels(new$pred)) && "
                "is.ordered(new$pred)")
    assert same(rdf, back)[0]
    agree = ro.r("function(orig, new) mean(as.character(orig$y) == as.character(new$pred))")
    assert agree(rdf, back)[0] > 0.9


def test_ordered_categorical_splits_are_rpart_factor_splits():
    """An ordered Categorical is split as a scale; rpart keeps that split as a factor split
    sending the lower levels left: R's predict and print agree with the Python tree."""
    rng = np.random.default_rng(5)
    n = 300
    levels = ["25-34", "35-44", "45-54", "55-64", "65-74"]
    codes = rng.integers(0, 5, n)
    x = rng.normal(size=n)
    y = pd.Categorical(np.array(LEVELS)[np.digitize(codes + x, [1.5, 3.0])],
                       categories=LEVELS, ordered=True)
    X = pd.DataFrame({"agegp": pd.Categorical.from_codes(codes, levels, ordered=True), "x": x})
    tree = OrdinalTreeClassifier(min_split=20, cp=0.01, random_state=0).fit(X, y)
    assert "agegp" in {X.columns[f] for f in tree.tree_.feature if f >= 0}
    fit = ordstat.r.to_rpart(tree, X)
    assert bool(fit.rx2("ordered").rx2("agegp")[0])
    pred = to_py(ro.r("function(f, d) predict(f, d, type = 'class')")(fit, to_r(X)))
    np.testing.assert_array_equal(np.asarray(pred.astype(str)), tree.predict(X).astype(str))
    printed = "\n".join(ro.r("function(f) capture.output(print(f))")(fit))
    assert "agegp=25-34" in printed and "agegp= " not in printed


@pytest.mark.parametrize("name", ["airquality_temp", "breast_cancer", "synthetic"])
def test_surrogate_tree_exports_rpart_s_surrogates(name):
    """A tree grown with missing="surrogate": rpart's own predict on the export follows the
    surrogates as the tree does (rows with missing values included), and its splits matrix,
    nsurrogate and importance are those of rpart's fit of the same data."""
    from tests.trees.test_surrogates_rpart import STORED, frame_of

    X, y = frame_of(STORED[name]["data"])
    ref = STORED[name]["fits"]["max5_use2_style0"]
    tree = OrdinalTreeClassifier(criterion="gini", xval=0, missing="surrogate").fit(X, y)
    fit = ordstat.r.to_rpart(tree, X)
    prob = to_py(ro.r("function(f, d) predict(f, d, type = 'prob')")(fit, to_r(X)))
    np.testing.assert_allclose(prob, tree.predict_proba(X), atol=1e-12)
    np.testing.assert_allclose(prob, np.array(ref["prob"]), atol=1e-12)
    splits = ro.r("function(f) f$splits")(fit)
    rows = sorted(zip(ro.r("rownames")(splits), np.asarray(splits)[:, 0],
                      np.round(np.asarray(splits)[:, 2], 9), np.round(np.asarray(splits)[:, 4], 9)))
    sp = ref["splits"]
    want = sorted(zip(sp["var"], sp["count"], np.round(sp["improve"], 9), np.round(sp["adj"], 9)))
    assert [r[0] for r in rows] == [w[0] for w in want]
    np.testing.assert_allclose([r[1:] for r in rows], [w[1:] for w in want], atol=1e-9)
    nsur = list(ro.r("function(f) f$frame$nsurrogate")(fit))
    assert sorted(nsur) == sorted(ref["frame"]["nsurrogate"])
    imp = ro.r("function(f) f$variable.importance")(fit)
    got = dict(zip(ro.r("names")(imp), np.asarray(imp)))
    assert got.keys() == ref["importance"].keys()
    for k, v in ref["importance"].items():
        assert got[k] == pytest.approx(v, rel=1e-9)
    assert ro.r("function(f) f$control$usesurrogate")(fit)[0] == 2
    summary = "\n".join(ro.r("function(f) capture.output(summary(f))")(fit))
    assert "Surrogate splits" in summary
