"""Serial combining (Brito, Celeux & Sousa Ferreira 2006, section 3): constructed cases, hand
computations, the paper's iris numbers, and bad input."""

import warnings
from decimal import Decimal, getcontext

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression

from ordstat._core.labels import OrderGuessWarning
from ordstat.combine import SerialCombiner, committee_weights, serial_loo_error
from ordstat.combine.serial import _loo_one, _posteriors, error_matrix
from ordstat.gaussian import EDDA


class Lookup(ClassifierMixin, BaseEstimator):
    """Posteriors read from a table: X[:, 0] is the row of ``table`` (constructed cases)."""

    def __init__(self, table=None, loglik=0.0, nu=1, classes=None):
        self.table = table
        self.loglik = loglik
        self.nu = nu
        self.classes = classes

    def fit(self, X, y):
        self.classes_ = np.asarray(self.classes if self.classes is not None else np.unique(y))
        self.n_parameters_ = self.nu
        return self

    def predict_proba(self, X):
        return np.asarray(self.table)[np.asarray(X)[:, 0].astype(int)]

    def log_likelihood(self, X, y):
        return self.loglik


def _onehot(codes, K):
    return np.eye(K)[codes]


def _iris():
    return load_iris(return_X_y=True)


# --- committee weights: hand computations -----------------------------------------------------

def test_committee_weights_closed_form_eq_3_5():
    # C = diag(1, 4): beta proportional to the row sums of C^-1 = (1, 1/4).
    np.testing.assert_allclose(committee_weights(np.diag([1.0, 4.0])), [0.8, 0.2])
    C = np.array([[2.0, 1.0], [1.0, 3.0]])  # two models: beta_1 = (C22 - C12)/(C11+C22-2C12)
    np.testing.assert_allclose(committee_weights(C), [2 / 3, 1 / 3])


def test_committee_weights_constrained_when_eq_3_5_is_negative():
    # C12 > C11: eq. 3.5 gives model 2 a negative weight; the simplex minimiser is (1, 0).
    C = np.array([[1.0, 1.5], [1.5, 4.0]])
    raw = np.linalg.solve(C, np.ones(2))
    assert (raw / raw.sum())[1] < 0
    np.testing.assert_allclose(committee_weights(C), [1.0, 0.0], atol=1e-12)


def test_committee_weights_singular_identical_models_split():
    C = np.array([[2.0, 2.0, 1.0], [2.0, 2.0, 1.0], [1.0, 1.0, 3.0]])
    b = committee_weights(C)
    assert b[0] == pytest.approx(b[1])
    # Same optimum as the two-model problem with the duplicate removed.
    b2 = committee_weights(C[np.ix_([0, 2], [0, 2])])
    assert b[0] + b[1] == pytest.approx(b2[0])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-3, 3), min_size=12, max_size=12), st.integers(2, 4))
def test_committee_weights_no_simplex_point_is_better(entries, M):
    A = np.array(entries[: 3 * M]).reshape(M, 3)
    C = A @ A.T  # positive semi-definite, often singular (rank <= 3)
    b = committee_weights(C)
    assert b.min() >= 0 and b.sum() == pytest.approx(1.0)
    rng = np.random.default_rng(0)
    others = rng.dirichlet(np.ones(M), size=2000)
    others = np.vstack([others, np.eye(M)])
    best = np.einsum("ij,jk,ik->i", others, C, others).min()
    assert b @ C @ b <= best + 1e-9 * max(1.0, np.abs(C).max())


def test_error_matrix_is_eq_3_6_by_hand():
    P = np.array([[[0.9, 0.1], [0.2, 0.8]], [[0.6, 0.4], [0.5, 0.5]]])  # (M=2, n=2, K=2)
    codes = np.array([0, 1])
    e1 = np.array([[0.1, -0.1], [-0.2, 0.2]])
    e2 = np.array([[0.4, -0.4], [-0.5, 0.5]])
    expected = np.array([[np.sum(e1 * e1), np.sum(e1 * e2)],
                         [np.sum(e2 * e1), np.sum(e2 * e2)]]) / 2
    np.testing.assert_allclose(error_matrix(P, codes), expected)


# --- constructed combinations ------------------------------------------------------------------

def _lookup_data(n=30, K=3, seed=0):
    rng = np.random.default_rng(seed)
    codes = np.arange(n) % K
    X = np.arange(n)[:, None].astype(float)
    noisy = rng.dirichlet(np.ones(K), size=n)
    return X, codes, noisy


def test_perfect_model_gets_weight_one():
    X, y, noisy = _lookup_data()
    comb = SerialCombiner([Lookup(noisy), Lookup(_onehot(y, 3))]).fit(X, y)
    np.testing.assert_allclose(comb.weights_, [0.0, 1.0], atol=1e-12)
    np.testing.assert_array_equal(comb.predict(X), y)


def test_useless_model_gets_weight_zero():
    X, y, _ = _lookup_data()
    good = 0.8 * _onehot(y, 3) + 0.1
    wrong = _onehot((y + 1) % 3, 3)  # all mass on a wrong class
    comb = SerialCombiner([Lookup(good), Lookup(wrong)]).fit(X, y)
    np.testing.assert_allclose(comb.weights_, [1.0, 0.0], atol=1e-12)
    assert comb.describe(names="short") == "Lookup"
    assert "All the weight is on Lookup: no convex combination" in str(comb.summary())


def test_identical_models_split_the_weight_and_predict_the_same():
    X, y = _iris()
    one = EDDA(model="EEI").fit(X, y)
    comb = SerialCombiner([EDDA(model="EEI"), EDDA(model="EEI")]).fit(X, y)
    np.testing.assert_allclose(comb.weights_, [0.5, 0.5])
    np.testing.assert_allclose(comb.predict_proba(X), one.predict_proba(X), rtol=1e-12)
    for method in ("likelihood", "aic", "bic", "integrated"):
        c = SerialCombiner([EDDA(model="EII"), EDDA(model="EII")], method=method).fit(X, y)
        np.testing.assert_allclose(c.weights_, [0.5, 0.5])


def _decimal_weights(logliks, penalties):
    getcontext().prec = 60
    terms = [Decimal(ll).exp() * p for ll, p in zip(logliks, penalties)]
    total = sum(terms)
    return [float(t / total) for t in terms]


@pytest.mark.parametrize("method", ["likelihood", "aic", "bic"])
def test_likelihood_weights_equal_direct_small_number_computation(method):
    # L_m about 1e-5000: exp() of these log-likelihoods underflows doubles, not Decimals.
    logliks = [-11513.0, -11511.5, -11515.2]
    nus = [3, 5, 2]
    X, y, noisy = _lookup_data(n=40)
    n = len(y)
    getcontext().prec = 60
    pen = {"likelihood": [Decimal(1)] * 3,
           "aic": [Decimal(-v).exp() for v in nus],
           "bic": [Decimal(n) ** Decimal(-v / 2) for v in nus]}[method]
    expected = _decimal_weights(logliks, pen)
    comb = SerialCombiner([Lookup(noisy, ll, nu) for ll, nu in zip(logliks, nus)],
                          method=method).fit(X, y)
    np.testing.assert_allclose(comb.weights_, expected, rtol=1e-12)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(-1e4, 0), min_size=3, max_size=3), st.floats(-1e6, 1e6))
def test_likelihood_weights_invariant_to_a_common_constant(logliks, shift):
    X, y, noisy = _lookup_data(n=12)
    a = SerialCombiner([Lookup(noisy, ll) for ll in logliks], method="bic").fit(X, y)
    b = SerialCombiner([Lookup(noisy, ll + shift) for ll in logliks], method="bic").fit(X, y)
    np.testing.assert_allclose(a.weights_, b.weights_, rtol=1e-6, atol=1e-12)
    assert a.weights_.sum() == pytest.approx(1.0)


def test_predict_proba_is_the_weighted_sum():
    X, y = _iris()
    comb = SerialCombiner([EDDA(model="EEI"), EDDA(model="EII"), EDDA(model="VVV")]).fit(X, y)
    direct = sum(w * e.predict_proba(X) for w, e in zip(comb.weights_, comb.estimators_))
    np.testing.assert_allclose(comb.predict_proba(X), direct)
    assert comb.predict_proba(X).sum(axis=1) == pytest.approx(np.ones(len(y)))


# --- posteriors and the leave-one-out error ------------------------------------------------------

def test_edda_loo_posteriors_equal_refits():
    X, y = _iris()
    X, y = X[::3], y[::3]
    est = EDDA(model="VVI").fit(X, y)
    P_fast = _posteriors([EDDA(model="VVI")], [est], X, y, y, "loo", 5, 0, None)
    as_list = EDDA(model=["VVI"]).fit(X, y)  # a list of models takes the refit path
    P_refit = _posteriors([EDDA(model=["VVI"])], [as_list], X, y, y, "loo", 5, 0, None)
    np.testing.assert_allclose(P_fast, P_refit, rtol=1e-8, atol=1e-12)


def test_cv_posteriors_same_seed_same_weights_for_any_n_jobs():
    X, y = _iris()
    models = [EDDA(model="EEI"), EDDA(model="EII")]
    a = SerialCombiner(models, posteriors="cv", random_state=3).fit(X, y)
    b = SerialCombiner(models, posteriors="cv", random_state=3, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(a.weights_, b.weights_)


@pytest.mark.parametrize("method", ["committee", "bic"])
def test_loo_error_shortcut_equals_loop_of_refits(method):
    X, y = _iris()
    X, y = X[1::3], y[1::3]
    comb = SerialCombiner([EDDA(model="EEI"), EDDA(model="VEI"), EDDA(model="VVV")],
                          method=method).fit(X, y)
    from ordstat.combine.serial import _loo_predictions

    codes = comb._encoding.encode(y)
    fast = _loo_predictions(comb, X, codes)
    slow = np.array([_loo_one(comb, X, y, i) for i in range(len(y))])
    np.testing.assert_array_equal(comb.classes_[fast], slow)
    assert serial_loo_error(comb, X, y) == pytest.approx(np.mean(slow != y))


def test_iris_tables_4_and_5():
    """Brito et al. (2006), Tables 4-5, iris: .82 [lambda B] + .18 [lambda I], ME .04."""
    X, y = _iris()
    models = [EDDA(model="EEI"), EDDA(model="EII")]
    comb = SerialCombiner(models).fit(X, y)
    loo = comb.loo_error(X, y)
    pen = SerialCombiner(models, method="bic").fit(X, y)
    pen_aic = SerialCombiner(models, method="aic").fit(X, y)
    print(f"\nTable 4 committee: paper .82 [lambda B] + .18 [lambda I], ME .0400; "
          f"ours {comb.describe()}, ME {loo:.4f}")
    print(f"Table 5 penalised: paper [lambda B], ME .0400; ours BIC {pen.describe()}, "
          f"AIC {pen_aic.describe()}, ME {pen.loo_error(X, y):.4f}")
    assert comb.weights_[0] == pytest.approx(0.82, abs=0.05)
    assert loo == pytest.approx(0.04)  # 6 of 150
    assert pen.describe() == "[lambda B]" and pen_aic.describe() == "[lambda B]"
    assert comb.loo_error_ == loo


# --- naming, labels, summary -------------------------------------------------------------------

def test_describe_and_summary_read_like_the_paper():
    X, y = _iris()
    comb = SerialCombiner([EDDA(model="EEI"), EDDA(model="EII")]).fit(X, y)
    w = comb.weights_
    assert comb.describe() == f"{w[0]:.2f} [lambda B] + {w[1]:.2f} [lambda I]"
    assert comb.describe(names="mclust") == f"{w[0]:.2f} EEI + {w[1]:.2f} EII"
    assert "EDDA(EEI)" in comb.describe(names="short")
    assert repr(comb) == f"SerialCombiner(committee: {comb.describe()})"
    summary = comb.summary()
    text = str(summary)
    assert "committee" in text and "[lambda I]" in text and comb.describe() in text
    assert dict(summary.info)["combination"] == comb.describe()
    table = summary["models"]
    assert list(table.index) == ["[lambda B]", "[lambda I]"]  # rows named by model
    np.testing.assert_array_equal(table["weight"], comb.weights_)
    np.testing.assert_array_equal(table["brier"], np.diag(comb.error_matrix_))
    assert "brier: the mean squared distance" in text and "misclassification: " in text
    assert list(comb.summary(names="mclust")["models"].index) == ["EEI", "EII"]
    integ = SerialCombiner([EDDA(model="EEI"), EDDA(model="EII")], method="integrated").fit(X, y)
    assert "BIC approximation" in str(integ.summary())
    with pytest.raises(ValueError, match="names"):
        comb.describe(names="latex")


def test_committee_summary_columns_by_hand():
    """misclassification and brier of each model from its resubstitution posteriors."""
    X, y = _iris()
    models = [EDDA(model="EEI"), EDDA(model="EII")]
    comb = SerialCombiner(models).fit(X, y)
    table = comb.summary(names="mclust")["models"]
    for name, model in zip(["EEI", "EII"], models):
        proba = clone(model).fit(X, y).predict_proba(X)
        indicator = np.eye(3)[y]
        assert table.loc[name, "misclassification"] == pytest.approx(
            np.mean(proba.argmax(axis=1) != y))
        assert table.loc[name, "brier"] == pytest.approx(
            np.mean(np.sum((indicator - proba) ** 2, axis=1)))
    likelihood = SerialCombiner(models, method="bic").fit(X, y).summary()
    assert list(likelihood["models"].columns) == ["weight", "log_score", "nu"]
    assert "log_score: the log of each model's unnormalised bic weight" in str(likelihood)
    assert "All the weight" not in str(comb.summary())


def test_nominal_labels_without_warning():
    X, y = _iris()
    names = np.array(["setosa", "versicolor", "virginica"], dtype=object)[y]
    with warnings.catch_warnings():
        warnings.simplefilter("error", OrderGuessWarning)
        comb = SerialCombiner([EDDA(model="EEI"), EDDA(model="EII")]).fit(X, names)
    assert set(comb.predict(X)) <= set(names)
    assert list(comb.classes_) == ["setosa", "versicolor", "virginica"]


def test_prefit_estimators_are_used_as_fitted():
    X, y = _iris()
    fitted = [EDDA(model="EEI").fit(X, y), EDDA(model="EII").fit(X, y)]
    comb = SerialCombiner(fitted, prefit=True).fit(X, y)
    assert comb.estimators_[0] is fitted[0]
    ref = SerialCombiner([EDDA(model="EEI"), EDDA(model="EII")]).fit(X, y)
    np.testing.assert_allclose(comb.weights_, ref.weights_)


# --- bad input ----------------------------------------------------------------------------------

def test_empty_list_is_an_error():
    X, y = _iris()
    with pytest.raises(ValueError, match="estimators must be a non-empty list"):
        SerialCombiner([]).fit(X, y)


def test_estimators_listing_classes_in_another_order_are_matched_by_label():
    X, y = _iris()
    a = EDDA(model="EEI").fit(X, y)
    b = EDDA(model="EII", classes=[2, 1, 0]).fit(X, y)
    combo = SerialCombiner([a, b], prefit=True).fit(X, y)
    expected = (combo.weights_[0] * a.predict_proba(X)
                + combo.weights_[1] * b.predict_proba(X)[:, ::-1])
    np.testing.assert_allclose(combo.predict_proba(X), expected)
    # the same weights as with b fitted in the combination's order
    same = SerialCombiner([a, EDDA(model="EII").fit(X, y)], prefit=True).fit(X, y)
    np.testing.assert_allclose(combo.weights_, same.weights_)
    c = EDDA(model="EII").fit(X[y != 2], y[y != 2])
    with pytest.raises(ValueError, match=r"estimators\[1\] \(EDDA\(EII\)\) lacks the class"):
        SerialCombiner([a, c], prefit=True).fit(X, y)


def test_likelihood_method_needs_log_likelihood():
    X, y = _iris()
    with pytest.raises(TypeError, match=r"estimators\[1\] \(LogisticRegression\).*log_lik"):
        SerialCombiner([EDDA(model="EEI"), LogisticRegression()], method="aic").fit(X, y)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_log_likelihood_is_an_error(bad):
    X, y, noisy = _lookup_data()
    with pytest.raises(ValueError, match=r"estimators\[1\] \(Lookup\).*non-finite"):
        SerialCombiner([Lookup(noisy, -3.0), Lookup(noisy, bad)], method="likelihood").fit(X, y)


@pytest.mark.parametrize("kwargs, match", [
    ({"method": "vote"}, "'method' parameter of SerialCombiner must be a str among"),
    ({"posteriors": "oob"}, "'posteriors' parameter of SerialCombiner must be a str among"),
    ({"posteriors": "cv", "cv": 1}, r"'cv' parameter of SerialCombiner must be an int in the "
                                    r"range \[2, inf\)"),
    ({"n_models": 1}, r"'n_models' parameter of SerialCombiner must be an int in the range "
                      r"\[2, inf\) or None"),
    ({"estimators": "all"}, "estimators must be a non-empty list of classifiers to combine or "
                            "'edda'"),
    ({"estimators": 3}, "'estimators' parameter of SerialCombiner must be an instance of "
                        "'list', an instance of 'tuple' or an instance of 'str'"),
])
def test_bad_parameters(kwargs, match):
    X, y = _iris()
    with pytest.raises(ValueError, match=match):
        SerialCombiner(**{"estimators": [EDDA(model="EEI")], **kwargs}).fit(X, y)


def test_non_classifier_is_a_type_error():
    X, y = _iris()
    with pytest.raises(TypeError, match=r"estimators\[0\] \(str\)"):
        SerialCombiner(["EEI"]).fit(X, y)
    with pytest.raises(TypeError, match="combiner must be a SerialCombiner"):
        serial_loo_error(EDDA(), X, y)


@pytest.mark.r
@pytest.mark.slow
def test_thyroid_table_4_with_leave_one_out_posteriors():
    """Thyroid (mclust): paper .73 [lambda B] + .27 [lambda I], ME .0930 (Table 4)."""
    ro = pytest.importorskip("rpy2.robjects")
    from rpy2.robjects import default_converter, pandas2ri
    from rpy2.robjects.conversion import localconverter

    with localconverter(default_converter + pandas2ri.converter):
        ro.r('data(thyroid, package = "mclust")')
        frame = ro.conversion.get_conversion().rpy2py(ro.r["thyroid"])
    X = frame.drop(columns="Diagnosis").to_numpy(float)
    y = frame["Diagnosis"].astype(str).to_numpy(object)
    models = [EDDA(model="EEI"), EDDA(model="EII")]
    resub = SerialCombiner(models).fit(X, y)
    loo = SerialCombiner(models, posteriors="loo").fit(X, y)
    err = loo.loo_error(X, y)
    print(f"\nthyroid Table 4: paper .73 [lambda B] + .27 [lambda I] ME .0930; ours "
          f"resubstitution {resub.describe()} ME {resub.loo_error(X, y):.4f}, "
          f"leave-one-out posteriors {loo.describe()} ME {err:.4f}")
    assert loo.weights_[0] == pytest.approx(0.73, abs=0.005)
    assert err == pytest.approx(20 / 215)  # .0930


@pytest.mark.parametrize("model, kwargs", [
    # iterative models: a tight tol, since the parameters are known to about sqrt(tol) only
    ("EVE", {"tol": 1e-13}), ("VEV", {"tol": 1e-13}), ("VVV", {"reg_covar": 0.05}),
    ("VVI", {"priors": [0.2, 0.3, 0.5]}),
])
def test_downdated_fits_equal_refits_at_every_unit(model, kwargs):
    X, y = _iris()
    X, y = X[::2], y[::2]
    est = EDDA(model=model, **kwargs).fit(X, y)
    J = est.loo_log_joint_pairs(X, y)
    for i in (0, 30, 74):
        ref = EDDA(model=model, **kwargs).fit(np.delete(X, i, 0), np.delete(y, i))
        np.testing.assert_allclose(J[i], ref._joint_log_density(X), rtol=1e-6, atol=1e-6)
