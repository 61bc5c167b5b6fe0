import numpy as np
import pandas as pd
import pytest
from tests._reference import load, read_input

from ordstat.baseline import ProportionalOddsClassifier


def _data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2)) * [1.0, 3.0] + [5.0, -2.0]
    eta = 1.2 * X[:, 0] - 0.4 * X[:, 1]
    y = np.digitize(eta + rng.logistic(size=n), np.quantile(eta, [0.3, 0.6, 0.8]))
    return X, y


def test_probabilities_match_statsmodels_directly():
    from statsmodels.miscmodels.ordinal_model import OrderedModel

    X, y = _data()
    ours = ProportionalOddsClassifier().fit(X, y)
    res = OrderedModel(y, X, distr="logit").fit(method="bfgs", maxiter=500, disp=False)
    direct = res.model.predict(res.params, exog=X)
    np.testing.assert_allclose(ours.predict_proba(X), direct, atol=2e-4)
    np.testing.assert_allclose(ours.coef_, res.params[:2], rtol=1e-3)


def test_recovers_true_direction_and_order():
    X, y = _data(3000, seed=1)
    est = ProportionalOddsClassifier().fit(X, y)
    assert est.coef_[0] == pytest.approx(1.2, rel=0.1)
    assert est.coef_[1] == pytest.approx(-0.4, rel=0.1)
    assert np.all(np.diff(est.thresholds_) > 0)
    proba = est.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_absent_class_gets_zero_probability_and_constant_feature_is_dropped():
    X, y = _data()
    X = np.column_stack([X, np.ones(len(X))])
    labels = np.array(["g1", "g2", "g3", "g4"], dtype=object)[y]
    est = ProportionalOddsClassifier(classes=["g0", "g1", "g2", "g3", "g4"]).fit(X, labels)
    proba = est.predict_proba(X)
    assert proba.shape == (len(X), 5)
    assert np.all(proba[:, 0] == 0)
    assert est.coef_[2] == 0
    assert set(est.predict(X)) <= {"g1", "g2", "g3", "g4"}


def test_probit_and_bad_link():
    X, y = _data()
    assert ProportionalOddsClassifier(link="probit").fit(X, y).score(X, y) > 0.4
    with pytest.raises(ValueError, match="'link' parameter of ProportionalOddsClassifier must be"):
        ProportionalOddsClassifier(link="cauchit").fit(X, y)


@pytest.mark.parametrize("link", ["logit", "probit"])
def test_matches_stored_mass_polr(link):
    """Coefficients and thresholds equal R's MASS::polr (same parametrisation:
    F^{-1} P(Y <= k) = zeta_k - x'beta), stored by tests/reference/make_reference.R."""
    ref = load("polr")[link]
    X, y, _ = read_input("polr")
    ours = ProportionalOddsClassifier(link=link, max_iter=1000).fit(X, y)
    print(f"{link}: ours {ours.coef_} {ours.thresholds_}; polr {ref['coefficients']} "
          f"{ref['zeta']}")
    np.testing.assert_allclose(ours.coef_, ref["coefficients"], rtol=1e-4)
    np.testing.assert_allclose(ours.thresholds_, ref["zeta"], rtol=1e-4)
    proba = ours.predict_proba(X)[np.arange(len(y)), np.searchsorted(ours.classes_, y)]
    assert np.sum(np.log(proba)) == pytest.approx(ref["loglik"], rel=1e-8)


@pytest.mark.r
@pytest.mark.parametrize("link, method", [("logit", "logistic"), ("probit", "probit")])
def test_matches_mass_polr(link, method):
    """The same comparison, live against R."""
    pytest.importorskip("rpy2")
    from rpy2 import robjects as ro
    from rpy2.robjects import default_converter, pandas2ri
    from rpy2.robjects.conversion import localconverter

    X, y = _data(400, seed=2)
    frame = pd.DataFrame({"x1": X[:, 0], "x2": X[:, 1],
                          "y": pd.Categorical.from_codes(y, ["c0", "c1", "c2", "c3"],
                                                         ordered=True)})
    with localconverter(default_converter + pandas2ri.converter):
        ro.globalenv["d"] = frame
    fit = ro.r(f"MASS::polr(y ~ x1 + x2, data = d, method = '{method}', Hess = FALSE)")
    coef = np.array(fit.rx2("coefficients"))
    zeta = np.array(fit.rx2("zeta"))
    ours = ProportionalOddsClassifier(link=link, max_iter=1000).fit(X, y)
    np.testing.assert_allclose(ours.coef_, coef, rtol=1e-3)
    np.testing.assert_allclose(ours.thresholds_, zeta, rtol=1e-3, atol=1e-3)


# --- frequency weights --------------------------------------------------------------------------

@pytest.mark.parametrize("link", ["logit", "probit"])
def test_integer_weights_equal_replicated_rows(link):
    X, y = _data(120, seed=3)
    w = np.random.default_rng(4).integers(1, 4, size=len(y))
    weighted = ProportionalOddsClassifier(link=link).fit(X, y, sample_weight=w)
    replicated = ProportionalOddsClassifier(link=link).fit(np.repeat(X, w, axis=0),
                                                           np.repeat(y, w))
    np.testing.assert_allclose(weighted.coef_, replicated.coef_, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(weighted.thresholds_, replicated.thresholds_, rtol=1e-4, atol=1e-6)
    unweighted = ProportionalOddsClassifier(link=link).fit(X, y)
    assert not np.allclose(weighted.coef_, unweighted.coef_, rtol=1e-3)


def test_zero_weights_equal_dropping_rows():
    X, y = _data(150, seed=5)
    w = np.ones(len(y))
    w[::3] = 0
    # a class seen only in zero-weight rows is absent: probability zero, like a missing class
    y = y.copy()
    y[0] = 9
    dropped = ProportionalOddsClassifier(classes=[0, 1, 2, 3, 9]).fit(X[w > 0], y[w > 0])
    weighted = ProportionalOddsClassifier().fit(X, y, sample_weight=w)
    np.testing.assert_allclose(weighted.coef_, dropped.coef_, rtol=1e-6)
    np.testing.assert_allclose(weighted.predict_proba(X), dropped.predict_proba(X), atol=1e-9)
    assert np.all(weighted.predict_proba(X)[:, -1] == 0)


def test_threshold_only_model_weighted():
    y = np.array([0, 1, 2, 2])
    w = np.array([1.0, 1.0, 1.0, 3.0])
    est = ProportionalOddsClassifier().fit(np.ones((4, 1)), y, sample_weight=w)
    # the MLE is the weighted empirical distribution: P = (1/6, 1/6, 4/6)
    np.testing.assert_allclose(est.predict_proba([[1.0]])[0], [1 / 6, 1 / 6, 4 / 6])


def test_bad_sample_weight():
    X, y = _data(30)
    with pytest.raises(ValueError, match="sample_weight .* negative"):
        ProportionalOddsClassifier().fit(X, y, sample_weight=-np.ones(30))


def test_probit_recovers_the_generating_model():
    """Data from a cumulative probit model: the probit fit recovers beta and the thresholds."""
    rng = np.random.default_rng(6)
    n = 4000
    X = rng.normal(size=(n, 2))
    beta, theta = np.array([1.0, -0.5]), np.array([-0.8, 0.3, 1.1])
    y = np.digitize(X @ beta + rng.normal(size=n), theta)
    probit = ProportionalOddsClassifier(link="probit").fit(X, y)
    np.testing.assert_allclose(probit.coef_, beta, atol=0.07)
    np.testing.assert_allclose(probit.thresholds_, theta, atol=0.07)
    # the logistic distribution has sd pi / sqrt(3): logit coefficients are about 1.6-1.8 times
    # larger on the same data (Amemiya 1981)
    logit = ProportionalOddsClassifier().fit(X, y)
    ratio = logit.coef_ / probit.coef_
    assert np.all((ratio > 1.55) & (ratio < 1.85)), ratio


def test_one_class_with_positive_weight_is_refused():
    X, y = _data(30)
    w = (y == y[0]).astype(float)
    with pytest.raises(ValueError, match=r"Only one class \(\[\w+\]\) has units with positive"):
        ProportionalOddsClassifier().fit(X, y, sample_weight=w)


def test_every_parameter_is_declared_and_checked():
    """scikit-learn's own check: a constraint for every constructor parameter, and fit refuses
    a value of the wrong type or out of range naming the parameter."""
    from sklearn.utils.estimator_checks import check_param_validation

    check_param_validation("ProportionalOddsClassifier", ProportionalOddsClassifier())


def test_collinear_columns_are_named_and_dropped():
    # a full set of dummies is collinear with the thresholds (the intercept); before, the fit
    # reported converged_ True with every standard error NaN
    import warnings as _w

    import pandas as pd

    from ordstat import NearSingularWarning

    rng = np.random.default_rng(0)
    n = 120
    g = rng.integers(0, 3, n)
    x = rng.normal(size=n)
    X = pd.DataFrame({"x": x, "g_a": (g == 0) * 1.0, "g_b": (g == 1) * 1.0,
                      "g_c": (g == 2) * 1.0})
    y = np.digitize(x + 0.8 * g + rng.normal(size=n), [0.5, 1.5])
    with pytest.warns(NearSingularWarning,
                      match="'g_c' = a combination of 'g_a', 'g_b'.*Dropped 'g_c'") as record:
        model = ProportionalOddsClassifier().fit(X, y)
    assert record[0].filename == __file__
    reduced = ProportionalOddsClassifier().fit(X.drop(columns="g_c"), y)
    np.testing.assert_allclose(model.coef_[:3], reduced.coef_, rtol=1e-5, atol=1e-7)
    assert model.coef_[3] == 0
    se = np.sqrt(np.diag(model.covariance_))
    assert np.isfinite(se[[0, 1, 2, 4, 5]]).all() and np.isnan(se[3])
    # a column equal to twice another, without dummies
    X2 = np.column_stack([x, 2 * x, rng.normal(size=n)])
    with pytest.warns(NearSingularWarning, match="'x1' = a combination of 'x0'"):
        ProportionalOddsClassifier().fit(X2, y)
    with _w.catch_warnings():
        _w.simplefilter("error", NearSingularWarning)
        ProportionalOddsClassifier().fit(X2[:, [0, 2]], y)   # full rank: no warning
