"""Tests of ordstat.gaussian (EDDA): hand computations, references written from the formulas,
exact leave-one-out against brute-force refits, properties, degenerate data and bad input.
"""


import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.stats import multivariate_normal
from sklearn.base import clone
from sklearn.datasets import load_iris

import ordstat
from ordstat.gaussian import EDDA, MODELS, PAPER_NAMES, ConvergenceWarning, n_covariance_parameters
from ordstat.gaussian._core import class_scatter
from ordstat.gaussian._models import COVARIANCE_MODELS

ITERATIVE = sorted(m for m, model in COVARIANCE_MODELS.items() if model.iterative)

ALL = list(MODELS)


def _blobs(n_per=(12, 15, 10), d=3, seed=0, spread=(1.0, 1.5, 0.7)):
    rng = np.random.default_rng(seed)
    Xs, ys = [], []
    for k, (nk, s) in enumerate(zip(n_per, spread)):
        A = rng.normal(size=(d, d)) * 0.4 + np.eye(d)
        Xs.append(rng.normal(size=(nk, d)) @ A * s + 2.0 * k)
        ys.append(np.full(nk, k))
    return np.vstack(Xs), np.concatenate(ys)


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


# --- hand-checked tiny examples --------------------------------------------------------------

# Two classes in 2-D; class 0 = (0,0),(2,0),(0,2),(2,2) (mean (1,1), W0 = diag(4, 4)),
# class 1 = (5,5),(7,5),(5,9),(7,9) (mean (6,7), W1 = diag(4, 16)); cross-products are zero.
X_TINY = np.array([[0, 0], [2, 0], [0, 2], [2, 2], [5, 5], [7, 5], [5, 9], [7, 9]], float)
Y_TINY = np.array([0, 0, 0, 0, 1, 1, 1, 1])
# A tilted class for the full-covariance models: class 1 shifted so W1 has off-diagonal terms.
X_TILT = np.array([[0, 0], [2, 0], [0, 2], [2, 2], [5, 5], [6, 6], [7, 6], [8, 9]], float)


@pytest.mark.parametrize("model, expected", [
    # EII: tr(W0 + W1) / (n d) = (8 + 20) / 16
    ("EII", [np.eye(2) * 28 / 16] * 2),
    # VII: tr(W_k) / (n_k d) = 8/8, 20/8
    ("VII", [np.eye(2) * 1.0, np.eye(2) * 2.5]),
    # EEI: diag(W0 + W1) / n = (8, 20) / 8
    ("EEI", [np.diag([1.0, 2.5])] * 2),
    # VVI: diag(W_k) / n_k
    ("VVI", [np.diag([1.0, 1.0]), np.diag([1.0, 4.0])]),
    # EVI: g_k = |diag W_k|^(1/2) = 4, 8; lambda = 12/8; B_k = diag(W_k)/g_k
    ("EVI", [1.5 * np.diag([1.0, 1.0]), 1.5 * np.diag([0.5, 2.0])]),
    # EEE: (W0 + W1) / n
    ("EEE", [np.diag([1.0, 2.5])] * 2),
    # VVV: W_k / n_k
    ("VVV", [np.diag([1.0, 1.0]), np.diag([1.0, 4.0])]),
])
def test_tiny_hand_computed_covariances(model, expected):
    clf = EDDA(model=model).fit(X_TINY, Y_TINY)
    np.testing.assert_allclose(clf.covariances_, np.array(expected), atol=1e-12)
    np.testing.assert_allclose(clf.means_, [[1, 1], [6, 7]])
    np.testing.assert_allclose(clf.priors_, [0.5, 0.5])


def test_tiny_full_models_by_hand():
    # Class 1 of X_TILT: mean (6.5, 6.5); deviations (-1.5,-1.5), (-.5,-.5), (.5,-.5), (1.5,2.5)
    dev = np.array([[-1.5, -1.5], [-0.5, -0.5], [0.5, -0.5], [1.5, 2.5]])
    W1 = dev.T @ dev                      # [[5, 6], [6, 9]]
    np.testing.assert_allclose(W1, [[5, 6], [6, 9]])
    W0 = np.diag([4.0, 4.0])
    clf = EDDA(model="EEE").fit(X_TILT, Y_TINY)
    np.testing.assert_allclose(clf.covariances_[0], (W0 + W1) / 8)
    clf = EDDA(model="VVV").fit(X_TILT, Y_TINY)
    np.testing.assert_allclose(clf.covariances_[1], W1 / 4)
    # EVV: Sigma_k = lambda W_k / |W_k|^(1/2), lambda = (|W0|^(1/2) + |W1|^(1/2)) / n = (4 + 3)/8
    clf = EDDA(model="EVV").fit(X_TILT, Y_TINY)
    np.testing.assert_allclose(clf.covariances_[1], 7 / 8 * W1 / 3)
    np.testing.assert_allclose(clf.covariances_[0], 7 / 8 * W0 / 4)
    # Densities equal scipy's multivariate normal with those parameters.
    logf = clf.class_log_density(X_TILT)
    for k in range(2):
        ref = multivariate_normal(clf.means_[k], clf.covariances_[k]).logpdf(X_TILT)
        np.testing.assert_allclose(logf[:, k], ref, rtol=1e-12)


def test_tiny_loglik_aic_bic_by_hand():
    clf = EDDA(model="VVI").fit(X_TINY, Y_TINY)
    # Complete-data log-likelihood: sum over units of log(1/2) + log N(x; m_k, diag(W_k / n_k)).
    ll = 0.0
    for x, k in zip(X_TINY, Y_TINY):
        ll += np.log(0.5) + multivariate_normal(clf.means_[k], clf.covariances_[k]).logpdf(x)
    assert clf.loglik_ == pytest.approx(ll, rel=1e-12)
    assert clf.log_likelihood(X_TINY, Y_TINY) == pytest.approx(ll, rel=1e-12)
    # nu = K d means + K d variances + (K - 1) proportions = 4 + 4 + 1
    assert clf.n_parameters_ == 9 and clf.df_mclust_ == 8
    assert clf.aic(X_TINY, Y_TINY) == pytest.approx(-2 * ll + 18)
    assert clf.bic(X_TINY, Y_TINY) == pytest.approx(-2 * ll + 9 * np.log(8))
    mix = 0.0
    for x in X_TINY:
        mix += np.log(sum(0.5 * multivariate_normal(clf.means_[k], clf.covariances_[k]).pdf(x)
                          for k in range(2)))
    assert clf.mixture_loglik_ == pytest.approx(mix, rel=1e-12)
    assert clf.bic_mclust(X_TINY) == pytest.approx(2 * mix - 8 * np.log(8))


def test_parameter_counts_table():
    # Celeux & Govaert (1995), Table 1, with alpha = K d means, beta = d(d+1)/2, d = 4, K = 3.
    K, d = 3, 4
    expected = {"EII": 1, "VII": 3, "EEI": 4, "VEI": 6, "EVI": 10, "VVI": 12, "EEE": 10,
                "VEE": 12, "EVE": 16, "VVE": 18, "EEV": 22, "VEV": 24, "EVV": 28, "VVV": 30}
    for m, v in expected.items():
        assert n_covariance_parameters(m, K, d) == v, m
    assert set(PAPER_NAMES) == set(MODELS)


# --- every model: the ML estimate is a (local) maximum within the model ------------------------

def _profile(S, n, W):
    return -0.5 * sum(n[k] * np.linalg.slogdet(S[k])[1] + np.trace(np.linalg.solve(S[k], W[k]))
                      for k in range(len(n)))


def _rot(d, rng, eps):
    Q, _ = np.linalg.qr(np.eye(d) + eps * rng.normal(size=(d, d)))
    return Q * np.sign(np.diag(Q))


def _perturb(model, clf, rng, eps=1e-2):
    """A nearby covariance set that still satisfies the model's constraints."""
    K, d = clf.covariances_.shape[:2]
    vol, shape, orient = clf.volumes_.copy(), clf.shapes_.copy(), clf.orientations_.copy()
    v, a, o = model
    if v == "E":
        vol = vol * np.exp(eps * rng.normal())
    else:
        vol = vol * np.exp(eps * rng.normal(size=K))
    if a != "I":
        z = eps * rng.normal(size=d if a == "E" else (K, d))
        z = z - z.mean(axis=-1, keepdims=True)
        shape = shape * np.exp(z)
    if o != "I":
        if o == "E":
            orient = np.broadcast_to(orient[0] @ _rot(d, rng, eps), orient.shape)
        else:
            orient = np.stack([orient[k] @ _rot(d, rng, eps) for k in range(K)])
    return np.einsum("k,kij,kj,klj->kil", vol, orient, shape, orient)


@pytest.mark.parametrize("model", ALL)
def test_estimate_is_a_maximum_within_the_model(model):
    X, y = _blobs(seed=1)
    clf = EDDA(model=model).fit(X, y)
    n, _, W = class_scatter(X, y, np.ones(len(y)), 3)
    best = _profile(clf.covariances_, n, W)
    # The decomposition reproduces the covariances, with |A_k| = 1.
    rebuilt = np.einsum("k,kij,kj,klj->kil", clf.volumes_, clf.orientations_, clf.shapes_,
                        clf.orientations_)
    np.testing.assert_allclose(rebuilt, clf.covariances_, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(np.prod(clf.shapes_, axis=1), 1.0, rtol=1e-8)
    rng = np.random.default_rng(0)
    for _ in range(30):
        assert _profile(_perturb(model, clf, rng), n, W) <= best + 1e-9 * abs(best)


# --- exact leave-one-out -----------------------------------------------------------------------

def _brute_force_loo_joint(model, X, y, w=None, reg_covar=0.0, priors=None):
    K = len(np.unique(y))
    out = []
    w = np.ones(len(y)) if w is None else w
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        clf = EDDA(model=model, reg_covar=reg_covar, priors=priors, tol=1e-12,
                   max_iter=20000, classes=list(range(K)))
        clf.fit(X[keep], y[keep], sample_weight=w[keep])
        out.append(clf._joint_log_density(X[i:i + 1])[0])
    return np.array(out)


def _fast_loo_joint(model, X, y, w=None, reg_covar=0.0, priors=None):
    clf = EDDA(model=model, reg_covar=reg_covar, priors=priors, tol=1e-12, max_iter=20000)
    return clf.fit(X, y, sample_weight=w).loo_log_joint(X, y, sample_weight=w)


@pytest.mark.parametrize("model", ALL)
def test_loo_matches_brute_force_refits(model):
    X, y = _blobs(n_per=(8, 9, 7), d=3, seed=2)
    fast = _fast_loo_joint(model, X, y)
    slow = _brute_force_loo_joint(model, X, y)
    # Iterative models stop on the relative change of the likelihood (tol=1e-12 here); where the
    # likelihood is flat in the orientation the parameters are then known to ~1e-5 only.
    tol = 1e-4 if model in ITERATIVE else 1e-9
    np.testing.assert_allclose(fast, slow, rtol=tol, atol=tol)
    assert np.array_equal(fast.argmax(1), slow.argmax(1))


@pytest.mark.parametrize("model", ["EVE", "VVE"])
def test_common_orientation_takes_the_best_of_several_starts(model):
    # On these data the VVE likelihood has two maxima, and the default start (pooled scatter)
    # reaches the lower one: the estimator must keep the better, and the LOO must still equal
    # brute-force refits.
    from ordstat.gaussian._models import _common_orientation, _sym_eig_desc

    X, y = _blobs(n_per=(6, 8, 7), d=2, seed=8, spread=(1.5, 0.6, 1.0))
    n, _, W = class_scatter(X, y, np.ones(len(y)), 3)
    _, pooled = _sym_eig_desc(W.sum(axis=0))
    _, per_class = _sym_eig_desc(W)
    single = [_common_orientation(W, n, tol=1e-12, max_iter=5000, init=D0,
                                  equal_volume=model == "EVE").cov
              for D0 in [pooled, *per_class]]
    best = max(_profile(S, n, W) for S in single)
    clf = EDDA(model=model, tol=1e-12).fit(X, y)
    assert _profile(clf.covariances_, n, W) == pytest.approx(best, rel=1e-9)
    if model == "VVE":
        assert _profile(single[0], n, W) < best - 1.0  # one start alone is not enough here
    fast = _fast_loo_joint(model, X, y)
    slow = _brute_force_loo_joint(model, X, y)
    np.testing.assert_allclose(fast, slow, rtol=1e-4, atol=1e-4)


def _cold_loo_joint(model, X, y, **kwargs):
    from ordstat.gaussian._loo import cold_refits

    clf = EDDA(model=model, **kwargs).fit(X, y)
    with cold_refits():
        return clf.loo_log_joint(X, y)


@pytest.mark.parametrize("model", sorted(ITERATIVE))
@pytest.mark.parametrize("data", [
    dict(n_per=(8, 9, 7), d=3, seed=2),
    dict(n_per=(6, 8, 7), d=2, seed=8, spread=(1.5, 0.6, 1.0)),  # VVE: two maxima
    dict(n_per=(15, 12, 10), d=3, seed=11, spread=(1.0, 1.5, 0.8)),
])
def test_warm_started_loo_equals_refits_from_scratch(model, data):
    # The leave-one-out fits start from the full-data solution (EVE, VVE: its distinct end
    # points) instead of the default starts; with the default tol they must reach the refits'
    # maxima: the same predictions and, to the optimiser's tolerance, the same densities.
    X, y = _blobs(**data)
    warm = EDDA(model=model).fit(X, y).loo_log_joint(X, y)
    cold = _cold_loo_joint(model, X, y)
    np.testing.assert_allclose(warm, cold, rtol=1e-3, atol=1e-3)
    assert np.array_equal(warm.argmax(1), cold.argmax(1))


@pytest.mark.parametrize("model", sorted(ITERATIVE))
def test_cold_refits_are_the_brute_force_refits_and_equal_warm_on_iris(model, iris):
    X, y = _blobs(n_per=(8, 9, 7), d=3, seed=2)
    cold = _cold_loo_joint(model, X, y, tol=1e-12, max_iter=20000)
    slow = _brute_force_loo_joint(model, X, y)
    np.testing.assert_allclose(cold, slow, rtol=1e-5, atol=1e-5)
    X, y = iris
    warm = EDDA(model=model, tol=1e-12, max_iter=20000).fit(X, y).loo_log_joint(X, y)
    cold = _cold_loo_joint(model, X, y, tol=1e-12, max_iter=20000)
    np.testing.assert_allclose(warm, cold, rtol=1e-5, atol=1e-5)
    assert np.array_equal(warm.argmax(1), cold.argmax(1))


def test_warm_start_needs_fewer_iterations():
    # What the warm start is for: a refit started from the full-data solution converges in a
    # fraction of the iterations of a refit from the default starts.
    import ordstat.gaussian._models as models

    X, y = _blobs(n_per=(20, 25, 15), d=4, seed=3)
    clf = EDDA(model="VVE").fit(X, y)
    sweeps = []
    real = models._rotation_sweep

    def counted(D, B, a):
        sweeps.append(D.shape[0])  # batch members rotated in this sweep
        return real(D, B, a)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(models, "_rotation_sweep", counted)
        clf.loo_log_joint(X, y)
        warm = sum(sweeps)
        sweeps.clear()
        _cold_loo_joint("VVE", X, y)
        cold = sum(sweeps)
    assert 0 < 3 * warm < cold


def test_shared_parts_couple_the_classes():
    # A unit of class 0 left out changes the parameters of every class for the iterative
    # models (a common shape, matrix, orientation or volume), so no unit can skip its refit.
    from ordstat.gaussian._core import FitOptions, fit_model

    X, y = _blobs(n_per=(8, 9, 7), d=3, seed=2)
    n, _, W = class_scatter(X, y, np.ones(len(y)), 3)
    keep = np.arange(len(y)) != 0
    n2, _, W2 = class_scatter(X[keep], y[keep], np.ones(len(y) - 1), 3)
    for model in ITERATIVE:
        options = FitOptions(reg_covar=0.0, tol=1e-12, max_iter=20000)
        full = fit_model(COVARIANCE_MODELS[model], W, n, options)
        without = fit_model(COVARIANCE_MODELS[model], W2, n2, options)
        changed = np.abs(without.cov - full.cov).reshape(3, -1).max(axis=1)
        assert np.all(changed > 1e-6), model


@pytest.mark.parametrize("model", ["EEE", "VVV", "EVV", "VEV"])
def test_loo_with_weights_reg_covar_and_priors(model):
    X, y = _blobs(n_per=(8, 9, 7), d=3, seed=3)
    w = np.random.default_rng(0).uniform(0.5, 2.0, size=len(y))
    for kwargs in ({}, {"reg_covar": 0.05}, {"priors": np.array([0.2, 0.3, 0.5])}):
        fast = _fast_loo_joint(model, X, y, w=w, **kwargs)
        slow = _brute_force_loo_joint(model, X, y, w=w, **kwargs)
        np.testing.assert_allclose(fast, slow, rtol=1e-6, atol=1e-6)


def test_loo_log_joint_pairs_holds_every_refit_at_every_unit():
    X, y = _blobs(n_per=(8, 9, 7), d=3, seed=2)
    for model in ("EEI", "VVV", "VEI"):
        clf = EDDA(model=model, tol=1e-12, max_iter=20000).fit(X, y)
        pairs = clf.loo_log_joint_pairs(X, y)
        assert pairs.shape == (24, 24, 3)
        np.testing.assert_allclose(np.diagonal(pairs, axis1=0, axis2=1).T,
                                   clf.loo_log_joint(X, y), rtol=1e-7)
        for i in (0, 13):
            keep = np.arange(len(y)) != i
            ref = EDDA(model=model, tol=1e-12, max_iter=20000).fit(X[keep], y[keep])
            tol = 1e-5 if model in ITERATIVE else 1e-9
            np.testing.assert_allclose(pairs[i], ref._joint_log_density(X), rtol=tol, atol=tol)


def test_loo_log_joint_only_for_one_named_model():
    # With several models the estimator's refit would select again: no down-date shortcut.
    assert hasattr(EDDA(model="EEE"), "loo_log_joint")
    assert hasattr(EDDA(model="eee"), "loo_log_joint_pairs")
    for model in ("all", ["EEE"], ["EEE", "VVV"]):
        assert not hasattr(EDDA(model=model), "loo_log_joint")
        assert not hasattr(EDDA(model=model), "loo_log_joint_pairs")
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        EDDA(model="EEE").loo_log_joint(*_blobs(seed=1))


def test_loo_log_joint_zero_weight_and_absent_class():
    X, y = _blobs(n_per=(8, 9, 7), d=2, seed=6)
    w = np.ones(len(y))
    w[[0, 10]] = 0.0
    clf = EDDA(model="VVI", classes=[0, 1, 2, 3])
    with pytest.warns(UserWarning, match="no units"):
        clf.fit(X, y, sample_weight=w)
    joint = clf.loo_log_joint(X, y, sample_weight=w)
    assert joint.shape == (24, 4) and np.all(joint[:, 3] == -np.inf)
    # leaving out a unit of weight zero leaves the fit as it is
    np.testing.assert_allclose(joint[[0, 10]], clf._joint_log_density(X[[0, 10]]), rtol=1e-12)
    keep = np.arange(len(y)) != 5
    ref = EDDA(model="VVI", classes=[0, 1, 2, 3])
    with pytest.warns(UserWarning, match="no units"):
        ref.fit(X[keep], y[keep], sample_weight=w[keep])
    np.testing.assert_allclose(joint[5], ref._joint_log_density(X[5:6])[0], rtol=1e-9)


def test_loo_error_is_the_mean_of_refit_mistakes():
    X, y = _blobs(n_per=(10, 10, 10), d=2, seed=4, spread=(2.0, 2.0, 2.0))
    clf = EDDA(model="VVI").fit(X, y)
    slow = _brute_force_loo_joint("VVI", X, y)
    assert clf.loo_error(X, y) == pytest.approx(np.mean(slow.argmax(1) != y))
    assert 0 < clf.loo_error(X, y) < 1  # an informative case, not trivially 0


def test_iris_table8_loo_error_of_lda_model(iris):
    # Brito et al. (2006), Table 8: EDDA on iris, model [lambda D A D'] (EEE), ME = .02.
    X, y = iris
    clf = EDDA(model="EEE").fit(X, y)
    assert clf.loo_error(X, y) == pytest.approx(3 / 150)
    clf = EDDA(model="all").fit(X, y)
    table = clf.summary()["models"]
    assert table.loc["EEE", "loo_error"] == pytest.approx(0.02)
    assert round(table["loo_error"].min(), 2) == 0.02
    # the EDDA strategy (smallest LOO error, ties to the simpler model) selects it, as in Table 8
    assert clf.model_ == "EEE" and clf.loo_error_ == pytest.approx(0.02)


# --- selection, summary, contract 3 ------------------------------------------------------------

def test_all_models_summary_and_selection(iris):
    X, y = iris
    clf = EDDA(model="all", select="loo").fit(X, y)
    s = clf.summary()
    t = s["models"]
    assert list(t.index) == ALL
    assert dict(s.info) == {"selected": clf.model_, "criterion": "loo"}
    assert clf.loo_error_ == t["loo_error"].min()
    # ties go to the first (most parsimonious) model listed
    assert clf.model_ == t.index[np.argmax(t["loo_error"].to_numpy() == t["loo_error"].min())]
    np.testing.assert_allclose(t["AIC"], -2 * t["loglik"] + 2 * t["nu"])
    np.testing.assert_allclose(t["BIC"], -2 * t["loglik"] + t["nu"] * np.log(150))
    np.testing.assert_allclose(t["BIC_mclust"],
                               2 * t["mixture_loglik"] - t["df_mclust"] * np.log(150))
    assert "VVV" in str(s) and "<table" in s._repr_html_()
    bic = EDDA(model="all", select="bic").fit(X, y)
    assert bic.model_ == t["BIC"].idxmin()
    assert bic.summary()["models"]["loo_error"].isna().all()
    # the selected model's attributes are those of a direct fit of that model
    direct = EDDA(model=clf.model_).fit(X, y)
    np.testing.assert_allclose(clf.covariances_, direct.covariances_)
    assert clf.loglik_ == pytest.approx(direct.log_likelihood(X, y))


def test_unfitted_and_weighted_mixture_loglik(iris):
    from sklearn.exceptions import NotFittedError

    X, y = iris
    with pytest.raises(NotFittedError):
        EDDA().summary()
    with pytest.raises(NotFittedError):
        EDDA().class_log_density(X)
    clf = EDDA(model="VVI").fit(X, y)
    w = np.r_[np.full(75, 2.0), np.zeros(75)]
    assert clf.mixture_log_likelihood(X, sample_weight=w) == pytest.approx(
        2 * clf.mixture_log_likelihood(X[:75]))


def test_model_list_and_lower_case(iris):
    X, y = iris
    clf = EDDA(model=["eii", "VVI", "EII"], select="bic").fit(X, y)
    assert list(clf.summary()["models"].index) == ["EII", "VVI"]


@pytest.mark.parametrize("model", ALL)
def test_predict_proba_stable_and_consistent(model, iris):
    X, y = iris
    clf = EDDA(model=model).fit(X, y)
    far = X[:5] * 1e3  # densities underflow; posteriors must not become NaN
    for Z in (X, far):
        P = clf.predict_proba(Z)
        assert np.all(np.isfinite(P))
        np.testing.assert_allclose(P.sum(axis=1), 1.0)
    assert clf.score(X, y) > 0.9


@pytest.mark.parametrize("model", ["EEE", "VVV", "VVI", "VII"])
def test_translation_invariance_far_from_zero(model, iris):
    # Features around 1e6 with unit spread: densities must not lose digits to cancellation.
    X, y = iris
    a = EDDA(model=model).fit(X, y)
    b = EDDA(model=model).fit(X + 1e6, y)
    np.testing.assert_allclose(b.class_log_density(X + 1e6), a.class_log_density(X),
                               rtol=1e-7, atol=1e-8)
    assert b.loglik_ == pytest.approx(a.loglik_, rel=1e-9)


def test_given_priors_are_used(iris):
    X, y = iris
    clf = EDDA(model="EEE", priors=[0.1, 0.1, 0.8]).fit(X, y)
    np.testing.assert_allclose(clf.priors_, [0.1, 0.1, 0.8])
    assert clf.n_parameters_ == clf.df_mclust_  # proportions not estimated
    logp = clf.predict_log_proba(X[:3])
    joint = clf.class_log_density(X[:3]) + np.log([0.1, 0.1, 0.8])
    np.testing.assert_allclose(logp, joint - np.log(np.exp(joint).sum(1, keepdims=True)))


def test_ordered_categorical_labels_and_classes(iris):
    X, y = iris
    labels = np.array(["low", "mid", "high"])[y]
    cat = pd.Categorical(labels, categories=["low", "mid", "high"], ordered=True)
    clf = EDDA(model="VVI").fit(X, cat)
    assert list(clf.classes_) == ["low", "mid", "high"]
    assert set(clf.predict(X)) <= {"low", "mid", "high"}
    clf2 = EDDA(model="VVI", classes=["low", "mid", "high"]).fit(X, labels)
    np.testing.assert_allclose(clf.predict_proba(X), clf2.predict_proba(X))


def test_absent_class_gets_zero_probability(iris):
    X, y = iris
    with pytest.warns(UserWarning, match=r"\[3\] have no units"):
        clf = EDDA(model="VVV", classes=[0, 1, 2, 3]).fit(X, y)
    P = clf.predict_proba(X)
    assert P.shape == (150, 4) and np.all(P[:, 3] == 0)
    assert np.all(np.isnan(clf.means_[3])) and clf.priors_[3] == 0
    assert clf.loo_error(X, y) == pytest.approx(EDDA(model="VVV").fit(X, y).loo_error(X, y))


def test_sample_weight_integer_equals_repetition():
    X, y = _blobs(seed=5)
    w = np.random.default_rng(1).integers(1, 4, size=len(y))
    rep = np.repeat(np.arange(len(y)), w)
    for model in ("VEV", "EVE", "EEE"):
        a = EDDA(model=model).fit(X, y, sample_weight=w)
        b = EDDA(model=model).fit(X[rep], y[rep])
        np.testing.assert_allclose(a.covariances_, b.covariances_, rtol=1e-6)
        assert a.loglik_ == pytest.approx(b.loglik_, rel=1e-8)


def test_clone_and_exports():
    clf = EDDA(model="EEV", reg_covar=1e-3)
    assert clone(clf).get_params() == clf.get_params()
    assert ordstat.EDDA is EDDA
    from ordstat.cli._methods import make_method
    assert isinstance(make_method("edda"), EDDA)


# --- iterative models --------------------------------------------------------------------------

@pytest.mark.parametrize("model", sorted(ITERATIVE))
def test_max_iter_warns_naming_the_model(model):
    X, y = _blobs(seed=6)
    with pytest.warns(ConvergenceWarning, match=f"'{model}'.*max_iter=1"):
        clf = EDDA(model=model, max_iter=1).fit(X, y)
    assert clf.converged_ is False and clf.n_iter_ == 1
    clf = EDDA(model=model).fit(X, y)
    assert clf.converged_ is True and clf.n_iter_ > 1


# --- properties ----------------------------------------------------------------------------------

# Nested pairs (smaller, larger); the complete-data likelihood of the larger is never smaller.
# EVE and VVE are left out as the larger model: even from several starts their orientation
# step may stop at a local maximum.
NESTED = [("EII", "VII"), ("EII", "EEI"), ("VII", "VEI"), ("EEI", "VEI"), ("EEI", "EVI"),
          ("VEI", "VVI"), ("EVI", "VVI"), ("EEI", "EEE"), ("EEE", "VEE"), ("EEE", "EEV"),
          ("VEE", "VEV"), ("EEV", "VEV"), ("EEV", "EVV"), ("EVE", "EVV"), ("VEV", "VVV"),
          ("EVV", "VVV"), ("VVE", "VVV"), ("VVI", "VVV"), ("EVI", "EVV")]

_SETTINGS = settings(max_examples=15, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])


@st.composite
def _data(draw):
    seed = draw(st.integers(0, 10_000))
    d = draw(st.integers(1, 3))
    sizes = tuple(draw(st.lists(st.integers(d + 3, 12), min_size=2, max_size=3)))
    spread = tuple(draw(st.floats(0.3, 3.0)) for _ in sizes)
    return _blobs(n_per=sizes, d=d, seed=seed, spread=spread)


@_SETTINGS
@given(_data())
def test_nested_models_likelihood_order(data):
    X, y = data
    ll = {m: EDDA(model=m).fit(X, y).loglik_ for m in ALL}
    for small, large in NESTED:
        assert ll[small] <= ll[large] + 1e-7 * abs(ll[large]), (small, large)


@_SETTINGS
@given(_data(), st.sampled_from(ALL))
def test_posteriors_sum_to_one_and_permutation_invariance(data, model):
    X, y = data
    clf = EDDA(model=model).fit(X, y)
    P = clf.predict_proba(X)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=1e-12)
    perm = np.random.default_rng(0).permutation(len(y))
    clf2 = EDDA(model=model).fit(X[perm], y[perm])
    np.testing.assert_allclose(clf2.covariances_, clf.covariances_, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(clf2.predict_proba(X), P, rtol=1e-6, atol=1e-9)
    assert clf2.loglik_ == pytest.approx(clf.loglik_, rel=1e-8)


# --- degenerate data -----------------------------------------------------------------------------

def test_too_few_units_for_class_specific_covariance(iris):
    X, y = iris
    keep = np.r_[0:4, 50:150]  # class 0 keeps 4 units, d = 4
    with pytest.raises(ValueError, match=r"'VVV'.*class 0 has 4 unit.*d \+ 1 = 5.*parsimonious"):
        EDDA(model="VVV").fit(X[keep], y[keep])
    EDDA(model="EEE").fit(X[keep], y[keep])  # pooled models are fine
    one = np.r_[0:1, 50:150]
    with pytest.raises(ValueError, match=r"'VVI'.*class 0 has 1 unit.*needs 2"):
        EDDA(model="VVI").fit(X[one], y[one])
    with pytest.warns(UserWarning, match="skipped"):
        clf = EDDA(model=["VVV", "EEE"]).fit(X[keep], y[keep])
    assert clf.model_ == "EEE"


def test_singular_scatter_suggests_reg_covar():
    X, y = _blobs(seed=7)
    X = np.column_stack([X, X[:, 0] + 2 * X[:, 1]])  # exactly collinear feature
    with pytest.raises(ValueError, match=r"'EEE'.*common covariance.*singular.*reg_covar"):
        EDDA(model="EEE").fit(X, y)
    clf = EDDA(model="EEE", reg_covar=1e-3).fit(X, y)
    assert np.all(np.isfinite(clf.predict_proba(X)))


@pytest.mark.parametrize("model, match", [
    ("VVI", r"'VVI': within class 1 these features are constant: feature 0;.*common shape"),
    ("EVI", r"'EVI': within class 1 these features are constant: feature 0;.*common shape"),
    ("EVE", r"'EVE': the scatter matrix of class 1 is singular.*common shape"),
    ("VVE", r"'VVE': the scatter matrix of class 1 is singular.*reg_covar"),
    ("EVV", r"'EVV': the scatter matrix of class 1 is singular"),
])
def test_class_with_constant_feature_names_the_class(model, match):
    X, y = _blobs(seed=8)
    X[y == 1, 0] = 3.0
    with pytest.raises(ValueError, match=match):
        EDDA(model=model).fit(X, y)
    # models with a common shape still fit, and reg_covar rescues the others
    EDDA(model="VEV").fit(X, y)
    assert np.isfinite(EDDA(model=model, reg_covar=1e-3).fit(X, y).loglik_)


def test_near_singular_warns():
    X, y = _blobs(seed=9)
    X = np.column_stack([X, X[:, 0] + 1e-5 * np.random.default_rng(0).normal(size=len(y))])
    with pytest.warns(UserWarning, match=r"'EEE'.*nearly singular"):
        EDDA(model="EEE").fit(X, y)


def test_constant_feature_error():
    X, y = _blobs(seed=10)
    X[:, 1] = 5.0
    with pytest.raises(ValueError, match=r"constant feature\(s\): feature 1;.*reg_covar"):
        EDDA(model="EII").fit(X, y)
    EDDA(model="EII", reg_covar=1e-4).fit(X, y)


def test_errors_name_the_columns_of_a_data_frame():
    import pandas as pd

    X, y = _blobs(seed=10)
    frame = pd.DataFrame(X, columns=[f"c{j}" for j in range(X.shape[1])])
    frame["c1"] = 5.0
    # before: "at column(s) [1]"
    with pytest.raises(ValueError, match=r"constant feature\(s\): feature 1 \('c1'\)"):
        EDDA(model="EII").fit(frame, y)
    X, y = _blobs(seed=8)
    frame = pd.DataFrame(X, columns=[f"c{j}" for j in range(X.shape[1])])
    frame.loc[y == 1, "c0"] = 3.0
    with pytest.raises(ValueError, match=r"within class 1 these features are constant: "
                                         r"feature 0 \('c0'\)"):
        EDDA(model="VVI").fit(frame, y)
    with pytest.raises(ValueError, match=r"class 1 is singular \(no spread within the class "
                                         r"along a combination of feature 0 \('c0'\)\)"):
        EDDA(model="VVV").fit(frame, y)


def test_loo_impossible_for_small_class_is_reported():
    X, y = _blobs(n_per=(4, 10, 10), d=3, seed=11)  # class 0 has d + 1 units
    clf = EDDA(model="VVV").fit(X, y)
    with pytest.raises(ValueError, match=r"'VVV'.*leave-one-out.*class 0.*4 unit"):
        clf.loo_error(X, y)
    with pytest.warns(UserWarning, match="'VVV' dropped from the leave-one-out"):
        EDDA(model=["EEE", "VVV"]).fit(X, y)


def test_no_model_fits_and_no_loo_possible(iris):
    X, y = iris
    keep = np.r_[0:3, 50:150]  # class 0 keeps 3 units, d = 4
    with pytest.raises(ValueError, match=r"(?s)no model could be fitted.*'VVV'.*'EVV'"):
        EDDA(model=["VVV", "EVV"]).fit(X[keep], y[keep])
    single = np.r_[0:1, 50:150]  # a class with one unit cannot be left out
    with pytest.warns(UserWarning, match="dropped from the leave-one-out"), \
            pytest.raises(ValueError, match="could not be computed for any model"):
        EDDA(model=["EEE", "EII"]).fit(X[single], y[single])
    assert EDDA(model=["EEE", "EII"], select="bic").fit(X[single], y[single]).model_ in ("EEE",
                                                                                        "EII")


# --- bad input ---------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, exc, match", [
    ({"model": "XYZ"}, ValueError, "model must be one of"),
    ({"model": ["EEE", "ABC"]}, ValueError, "model must be one of.*ABC"),
    ({"model": 3}, TypeError, "'model' parameter of EDDA must be an instance of 'str'"),
    ({"model": []}, TypeError, "model must be a model name"),
    ({"select": "aic"}, ValueError, "'select' parameter of EDDA must be a str among"),
    ({"reg_covar": -1.0}, ValueError, r"'reg_covar' parameter .* range \[0(\.0)?, inf\)"),
    ({"reg_covar": "a"}, TypeError, "'reg_covar' parameter of EDDA must be"),
    ({"tol": 0.0}, ValueError, r"'tol' parameter .* range \(0(\.0)?, inf\)"),
    ({"max_iter": 0}, ValueError, r"'max_iter' parameter .* int in the range \[1, inf\)"),
    ({"max_iter": 1.5}, TypeError, "'max_iter' parameter of EDDA must be an int"),
    ({"priors": [0.5, 0.5]}, ValueError, r"priors must give one probability per class \(3"),
    ({"priors": [0.5, 0.6, -0.1]}, ValueError, "priors must be finite and non-negative"),
    ({"priors": [0.5, 0.2, 0.2]}, ValueError, "priors must sum to one; they sum to 0.9"),
    ({"priors": ["a", "b", "c"]}, TypeError, "priors must be a sequence of 3 numbers"),
])
def test_bad_parameters(kwargs, exc, match, iris):
    X, y = iris
    with pytest.raises(exc, match=match):
        EDDA(**kwargs).fit(X, y)


def test_bad_data(iris):
    X, y = iris
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        EDDA().fit(Xn, y)
    with pytest.raises(ValueError, match="inconsistent numbers"):
        EDDA().fit(X, y[:-1])
    clf = EDDA(model="EEE").fit(X, y)
    with pytest.raises(ValueError, match="features"):
        clf.predict(X[:, :3])
    with pytest.raises(ValueError, match="sample_weight"):
        EDDA().fit(X, y, sample_weight=-np.ones(150))


def test_loo_log_joints_of_all_models_match_each_model_alone():
    from ordstat.datasets import make_archer_simulation

    X, y = make_archer_simulation(n_per_class=12, random_state=4)
    X = X[:, :3]
    several = EDDA(model=["EII", "VVI", "EEE", "VEE"]).fit(X, y)
    joints = several.loo_log_joints(X, y)
    assert list(joints) == ["EII", "VVI", "EEE", "VEE"]
    for m, joint in joints.items():
        alone = EDDA(model=m).fit(X, y)
        np.testing.assert_allclose(joint, alone.loo_log_joint(X, y), rtol=1e-10, atol=1e-12)
        # the selection in fit compares the same leave-one-out errors
        err = np.mean(np.argmax(joint, axis=1) != np.searchsorted(several.classes_, y))
        assert several.summary()["models"].loc[m, "loo_error"] == pytest.approx(err)
    assert not hasattr(several, "loo_log_joint")  # one model's method needs one model


def _doubled_vvv(W, n, *, tol, max_iter, init=None):
    """A toy covariance model for the test below: twice VVV's class covariances."""
    from ordstat.gaussian._models import MStep

    return MStep("full", 2.0 * W / n[..., None, None])


def test_a_covariance_model_is_one_record(monkeypatch):
    # Adding a model is adding its record to the registry: a toy 15th model fits, predicts and
    # gives its exact leave-one-out (the batched route) with nothing else changed.
    from ordstat.gaussian._models import CovarianceModel

    before = dict(COVARIANCE_MODELS)
    toy = CovarianceModel("TOY", "[2 lambda_k D_k A_k D_k']", _doubled_vvv, letters="VVV")
    X, y = _blobs(n_per=(8, 9, 7), d=2, seed=1)
    with monkeypatch.context() as mp:
        mp.setitem(COVARIANCE_MODELS, "TOY", toy)
        assert list(MODELS)[-1] == "TOY" and PAPER_NAMES["TOY"] == toy.paper_name
        assert n_covariance_parameters("TOY", 3, 2) == 3 * 3
        clf = EDDA(model="toy").fit(X, y)
        assert clf.model_ == "TOY" and clf.n_parameters_ == 3 * 2 + 9 + 2
        by_hand = np.column_stack([
            np.log(np.mean(y == k)) + multivariate_normal(
                X[y == k].mean(axis=0), 2 * np.cov(X[y == k].T, bias=True)).logpdf(X)
            for k in range(3)])
        np.testing.assert_allclose(clf.predict_log_proba(X),
                                   by_hand - np.logaddexp.reduce(by_hand, axis=1)[:, None])
        np.testing.assert_allclose(_fast_loo_joint("TOY", X, y),
                                   _brute_force_loo_joint("TOY", X, y), rtol=1e-9, atol=1e-9)
        table = EDDA(model=["VVV", "TOY"]).fit(X, y).summary()["models"]
        assert table.loc["TOY", "paper"] == toy.paper_name
    assert COVARIANCE_MODELS == before and "TOY" not in MODELS and len(PAPER_NAMES) == 14


def test_covariance_model_records_are_checked():
    from ordstat.gaussian._models import CovarianceModel

    with pytest.raises(ValueError, match="letters"):
        CovarianceModel("TOY", "toy", _doubled_vvv)
    with pytest.raises(ValueError, match="rank-one"):
        CovarianceModel("VVI", "toy", _doubled_vvv, rank_one=True)
    with pytest.raises(ValueError, match="followed"):
        CovarianceModel("EVE", "toy", _doubled_vvv, multistart=True)
