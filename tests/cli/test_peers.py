"""MASS::polr as a peer: the same model as our proportional-odds baseline, fitted by R."""

import numpy as np
import pytest

pytest.importorskip("rpy2")
pytestmark = pytest.mark.r


def _data(seed=0, n=300):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    latent = X @ np.array([1.0, -0.5, 0.0]) + rng.logistic(size=n)
    return X, np.digitize(latent, [-1.0, 0.0, 1.5])


def test_mass_polr_agrees_with_our_baseline():
    from ordstat import ProportionalOddsClassifier
    from ordstat.cli._peer_estimators import MassPolr

    X, y = _data()
    peer = MassPolr().fit(X, y)
    ours = ProportionalOddsClassifier().fit(X, y)
    np.testing.assert_allclose(peer.coef_, ours.coef_, atol=2e-3)
    np.testing.assert_allclose(peer.thresholds_, ours.thresholds_, atol=2e-3)
    np.testing.assert_allclose(peer.predict_proba(X), ours.predict_proba(X), atol=1e-3)
    # the true coefficients are recovered roughly (n = 300)
    np.testing.assert_allclose(peer.coef_, [1.0, -0.5, 0.0], atol=0.35)


def test_mass_polr_keeps_all_classes_and_labels():
    from ordstat.cli._peer_estimators import MassPolr

    X, y = _data(1)
    labels = np.array(["a", "b", "c", "d", "e"])[y]
    fit = MassPolr(classes=["a", "b", "c", "d", "e"]).fit(X, labels)
    proba = fit.predict_proba(X)
    assert proba.shape == (300, 5) and np.allclose(proba[:, 4], 0.0)  # "e" never observed
    assert set(fit.predict(X)) <= set("abcd")


def test_mass_polr_needs_three_classes():
    from ordstat.cli._peer_estimators import MassPolr

    X, y = _data(2)
    with pytest.raises(ValueError, match="at least 3 observed classes"):
        MassPolr().fit(X, np.minimum(y, 1))
