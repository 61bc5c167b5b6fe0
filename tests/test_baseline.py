import numpy as np
import pandas as pd
import pytest

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


@pytest.mark.r
def test_matches_mass_polr():
    """Coefficients and thresholds equal R's MASS::polr (same parametrisation:
    logit P(Y <= k) = zeta_k - x'beta)."""
    from rpy2 import robjects as ro
    from rpy2.robjects import default_converter, pandas2ri
    from rpy2.robjects.conversion import localconverter

    X, y = _data(400, seed=2)
    frame = pd.DataFrame({"x1": X[:, 0], "x2": X[:, 1],
                          "y": pd.Categorical.from_codes(y, ["c0", "c1", "c2", "c3"],
                                                         ordered=True)})
    with localconverter(default_converter + pandas2ri.converter):
        ro.globalenv["d"] = frame
    fit = ro.r("MASS::polr(y ~ x1 + x2, data = d, Hess = FALSE)")
    coef = np.array(fit.rx2("coefficients"))
    zeta = np.array(fit.rx2("zeta"))
    ours = ProportionalOddsClassifier(max_iter=1000).fit(X, y)
    np.testing.assert_allclose(ours.coef_, coef, rtol=1e-3)
    np.testing.assert_allclose(ours.thresholds_, zeta, rtol=1e-3, atol=1e-3)
