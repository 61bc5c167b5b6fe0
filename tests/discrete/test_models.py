"""Tests of ordstat.discrete: FMM, FOIM, KERNEL, integrated likelihoods and affinity.

Reference values are hand computations on a 3-variable toy set, brute-force implementations of
the paper's formulas (Brito, Celeux & Sousa Ferreira 2006, eq. 2.1-2.3, 3.14-3.15, section 4),
numerical integration of the integrals behind 3.14-3.15, and scikit-learn's BernoulliNB.
"""

import itertools
import math
import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import integrate, sparse
from sklearn.base import clone
from sklearn.model_selection import cross_val_score
from sklearn.naive_bayes import BernoulliNB

import ordstat
from ordstat._core.summary import Summary
from ordstat.discrete import (FullMultinomial, IndependenceModel, KernelMultinomial,
                              ZeroDensityWarning, affinity, class_union_affinity)
from ordstat.discrete import _integrated, _kernel, _states

MODELS = [FullMultinomial, IndependenceModel, KernelMultinomial]

# --------------------------------------------------------------------------- toy data
# Class 0 (n = 4): 000, 000, 010, 111.   Class 1 (n = 3): 111, 101, 011.
TOY_X = np.array([[0, 0, 0], [0, 0, 0], [0, 1, 0], [1, 1, 1], [1, 1, 1], [1, 0, 1], [0, 1, 1]])
TOY_Y = np.array([0, 0, 0, 0, 1, 1, 1])


def _all_states(categories):
    return np.array(list(itertools.product(*categories)))


def _brute_kernel_density(x, X_class, lam, n_cats):
    """Aitchison-Aitken kernel estimate, eq. 2.2, written out unit by unit."""
    total = 0.0
    for xi in X_class:
        k = 1.0
        for j, c in enumerate(n_cats):
            k *= lam if x[j] == xi[j] else (1 - lam) / (c - 1)
        total += k
    return total / len(X_class)


def _brute_fmm(x, X_class):
    return np.mean(np.all(X_class == x, axis=1))


def _brute_foim(x, X_class):
    return np.prod([np.mean(X_class[:, j] == x[j]) for j in range(len(x))])


# --------------------------------------------------------------------------- hand computations

def test_fmm_toy_hand_computed():
    m = FullMultinomial(categories="binary").fit(TOY_X, TOY_Y)
    dens = np.exp(m.class_log_density(np.array([[0, 0, 0], [0, 1, 0], [1, 1, 1], [1, 0, 1]])))
    np.testing.assert_allclose(dens, [[2 / 4, 0], [1 / 4, 0], [1 / 4, 1 / 3], [0, 1 / 3]])
    np.testing.assert_allclose(m.priors_, [4 / 7, 3 / 7])
    # 111: 4/7 * 1/4 = 3/7 * 1/3, a tie.
    np.testing.assert_allclose(m.predict_proba([[1, 1, 1], [0, 0, 0]]), [[0.5, 0.5], [1, 0]])
    assert m.n_parameters_ == 2 * (2**3 - 1) == 14
    assert m.n_states_ == 8


def test_fmm_unseen_state_falls_back_to_priors_once():
    m = FullMultinomial(categories="binary").fit(TOY_X, TOY_Y)
    with pytest.warns(ZeroDensityWarning, match="2 of 3 unit") as rec:
        proba = m.predict_proba([[0, 0, 1], [1, 0, 0], [0, 0, 0]])
    assert len(rec) == 1
    np.testing.assert_allclose(proba, [[4 / 7, 3 / 7], [4 / 7, 3 / 7], [1, 0]])
    assert np.isneginf(m.class_log_density([[0, 0, 1]])).all()


def test_foim_toy_hand_computed():
    m = IndependenceModel(categories="binary").fit(TOY_X, TOY_Y)
    # P(x_j = 1 | 0) = 1/4, 2/4, 1/4; P(x_j = 1 | 1) = 2/3, 2/3, 1.
    dens = np.exp(m.class_log_density([[0, 0, 1], [0, 0, 0]]))
    np.testing.assert_allclose(dens, [[3 / 4 * 1 / 2 * 1 / 4, 1 / 3 * 1 / 3 * 1],
                                      [3 / 4 * 1 / 2 * 3 / 4, 0]])
    # 001: joint 4/7 * 3/32 = 9/168 and 3/7 * 1/9 = 8/168.
    np.testing.assert_allclose(m.predict_proba([[0, 0, 1], [0, 0, 0]]),
                               [[9 / 17, 8 / 17], [1, 0]])
    assert m.n_parameters_ == 2 * 3
    np.testing.assert_allclose(m.category_count_[2], [[3, 1], [0, 3]])


def test_kernel_toy_hand_computed():
    m = KernelMultinomial(smoothing=0.8, categories="binary").fit(TOY_X, TOY_Y)
    # From 001: class 0 at distances 1, 1, 2, 2; class 1 at 2, 1, 1.
    f0 = (2 * 0.8**2 * 0.2 + 2 * 0.8 * 0.2**2) / 4
    f1 = (0.8 * 0.2**2 + 2 * 0.8**2 * 0.2) / 3
    np.testing.assert_allclose(np.exp(m.class_log_density([[0, 0, 1]])), [[f0, f1]])
    np.testing.assert_allclose(f0, 0.08)
    np.testing.assert_allclose(m.predict_proba([[0, 0, 1]]), [[10 / 19, 9 / 19]])
    assert m.n_parameters_ == 14
    assert m.smoothing_ == 0.8 and m.loo_log_likelihood_ is None
    assert KernelMultinomial(categories="binary").fit(TOY_X, TOY_Y).n_parameters_ == 15


def test_categorical_aitchison_aitken_hand_computed():
    X = np.array([["a", "x"], ["b", "x"], ["c", "y"], ["a", "y"]], dtype=object)
    y = [0, 0, 1, 1]
    m = KernelMultinomial(smoothing=0.6).fit(X, y)
    np.testing.assert_array_equal(m.n_categories_, [3, 2])
    # Class 0 from (a, y): (a,x): 0.6 * 0.4; (b,x): 0.2 * 0.4. Class 1: (c,y): 0.2 * 0.6;
    # (a,y): 0.6 * 0.6.
    dens = np.exp(m.class_log_density(np.array([["a", "y"]], dtype=object)))
    np.testing.assert_allclose(dens, [[(0.24 + 0.08) / 2, (0.12 + 0.36) / 2]])
    assert m.n_parameters_ == 2 * (6 - 1)  # lambda fixed, not estimated
    foim = IndependenceModel().fit(X, y)
    assert foim.n_parameters_ == 2 * ((3 - 1) + (2 - 1))
    assert FullMultinomial().fit(X, y).n_parameters_ == 2 * 5


def test_integrated_likelihood_toy_from_formula():
    lg = math.lgamma
    # eq. 3.14 with B(a, b) = Gamma(a) Gamma(b) / Gamma(a + b).
    def lbeta(a, b):
        return lg(a) + lg(b) - lg(a + b)
    ones = {0: [1, 2, 1], 1: [2, 2, 3]}
    n = {0: 4, 1: 3}
    expected_i = sum(lbeta(ones[k][j] + 0.5, n[k] - ones[k][j] + 0.5) for k in (0, 1)
                     for j in range(3)) - 6 * lbeta(0.5, 0.5)
    m = IndependenceModel(categories="binary").fit(TOY_X, TOY_Y)
    assert m.log_integrated_likelihood(TOY_X, TOY_Y) == pytest.approx(expected_i, rel=1e-12)
    # eq. 3.15 with the product over all s = 8 states of each class.
    s, K = 8, 2
    counts = {0: {(0, 0, 0): 2, (0, 1, 0): 1, (1, 1, 1): 1},
              1: {(1, 1, 1): 1, (1, 0, 1): 1, (0, 1, 1): 1}}
    num = K * lg(s / 2) + sum(lg(0.5 + counts[k].get(h, 0)) for k in (0, 1)
                              for h in itertools.product((0, 1), repeat=3))
    den = K * s * lg(0.5) + sum(lg(s / 2 + n[k]) for k in (0, 1))
    fmm = FullMultinomial(categories="binary").fit(TOY_X, TOY_Y)
    assert fmm.log_integrated_likelihood(TOY_X, TOY_Y) == pytest.approx(num - den, rel=1e-12)
    # KERNEL at lambda = 1 is FMM (its extension reduces to eq. 3.15).
    kern = KernelMultinomial(smoothing=1.0, categories="binary").fit(TOY_X, TOY_Y)
    assert kern.log_integrated_likelihood(TOY_X, TOY_Y) == pytest.approx(num - den, rel=1e-12)
    kern95 = KernelMultinomial(smoothing=0.95, categories="binary").fit(TOY_X, TOY_Y)
    assert np.isfinite(kern95.log_integrated_likelihood(TOY_X, TOY_Y))


# --------------------------------------------------------------------------- integrals

def _jeffreys_beta_integral(a, b):
    """int theta^a (1 - theta)^b Beta(theta; 1/2, 1/2) d theta by quadrature."""
    # Substituting theta = sin(u)^2 removes the endpoint singularities of the Jeffreys density.
    def f(u):
        th = np.sin(u) ** 2
        return th**a * (1 - th) ** b * 2 / np.pi
    return integrate.quad(f, 0, np.pi / 2, epsabs=0, epsrel=1e-12, limit=200)[0]


def _stick_integral(c):
    """int prod_h theta_h^(c_h) Dirichlet(theta; 1/2, ..., 1/2): stick-breaking, 1-D quadratures.

    theta_1 = v_1, theta_h = v_h prod_{l<h}(1 - v_l) with v_h ~ Beta(1/2, (s - h)/2) independent,
    so the integral factorises into one-dimensional integrals.
    """
    s = len(c)
    total = 1.0
    for h in range(s - 1):
        a, b = 0.5, (s - h - 1) / 2.0
        rest = sum(c[h + 1:])

        def f(u, h=h, a=a, b=b, rest=rest):
            v = np.sin(u) ** 2
            # Beta(a, b) density times the Jacobian 2 sin(u) cos(u) of v = sin(u)^2.
            dens = v ** (a - 1) * (1 - v) ** (b - 1) / math.exp(math.lgamma(a) + math.lgamma(b)
                                                                - math.lgamma(a + b))
            return v ** c[h] * (1 - v) ** rest * dens * 2 * np.sin(u) * np.cos(u)
        total *= integrate.quad(f, 0, np.pi / 2, epsabs=0, epsrel=1e-12, limit=200)[0]
    return total


def test_integrated_likelihood_d1_quadrature():
    X = np.array([[0], [1], [1], [0], [1], [1], [1], [0]])
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    expected = math.log(_jeffreys_beta_integral(2, 2)) + math.log(_jeffreys_beta_integral(3, 1))
    for model in (FullMultinomial, IndependenceModel):
        m = model(categories="binary").fit(X, y)
        assert m.log_integrated_likelihood(X, y) == pytest.approx(expected, rel=1e-9)


def test_integrated_likelihood_d2_quadrature_and_monte_carlo():
    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, size=(14, 2))
    y = np.array([0] * 8 + [1] * 6)
    # FOIM: independent beta integrals per class and variable.
    expected_i = sum(math.log(_jeffreys_beta_integral(int(X[y == k, j].sum()),
                                                      int((1 - X[y == k, j]).sum())))
                     for k in (0, 1) for j in (0, 1))
    foim = IndependenceModel(categories="binary").fit(X, y)
    assert foim.log_integrated_likelihood(X, y) == pytest.approx(expected_i, rel=1e-9)
    # FMM: Dirichlet(1/2, 1/2, 1/2, 1/2) over the 4 states of each class.
    states = X[:, 0] * 2 + X[:, 1]
    cells = [np.bincount(states[y == k], minlength=4) for k in (0, 1)]
    expected_m = sum(math.log(_stick_integral(list(c))) for c in cells)
    fmm = FullMultinomial(categories="binary").fit(X, y)
    got = fmm.log_integrated_likelihood(X, y)
    assert got == pytest.approx(expected_m, rel=1e-9)
    # An independent Monte Carlo estimate of the same integrals.
    draws = rng.dirichlet(np.full(4, 0.5), size=400_000)
    mc = sum(math.log(np.mean(np.prod(draws ** c, axis=1))) for c in cells)
    assert got == pytest.approx(mc, abs=0.05)


def test_integrated_likelihood_three_categories_is_dirichlet():
    X = np.array([[0], [2], [2], [1], [0], [0], [2]])
    y = np.array([0, 0, 0, 1, 1, 1, 1])
    expected = sum(math.log(_stick_integral(list(np.bincount(X[y == k, 0], minlength=3))))
                   for k in (0, 1))
    for model in (FullMultinomial, IndependenceModel):
        m = model().fit(X, y)
        assert m.log_integrated_likelihood(X, y) == pytest.approx(expected, rel=1e-9)


def test_integrated_likelihood_large_counts_laplace():
    """For n in the millions: log IL = log L_max - nu/2 log n + nu/2 log(2 pi) - log C + O(1/n).

    C is the Jeffreys normalising constant, Gamma(1/2)^s / Gamma(s/2) for s cells, and
    sqrt(det I(theta_hat)) cancels between the prior and the Laplace determinant.
    """
    rng = np.random.default_rng(0)
    X = _all_states([[0, 1]] * 2)
    X = np.vstack([X, X])
    y = np.repeat([0, 1], 4)
    w = rng.integers(200_000, 800_000, size=8).astype(float)
    fmm = FullMultinomial(categories="binary").fit(X, y, sample_weight=w)
    got = fmm.log_integrated_likelihood(X, y, sample_weight=w)
    s = 4
    expected = 0.0
    for k in (0, 1):
        c = w[y == k]
        n = c.sum()
        log_c = s * math.lgamma(0.5) - math.lgamma(s / 2)
        expected += (np.sum(c * np.log(c / n)) - (s - 1) / 2 * np.log(n)
                     + (s - 1) / 2 * np.log(2 * np.pi) - log_c)
    assert np.isfinite(got)
    assert got == pytest.approx(expected, abs=1e-4)
    foim = IndependenceModel(categories="binary").fit(X, y, sample_weight=w)
    got_i = foim.log_integrated_likelihood(X, y, sample_weight=w)
    expected_i = 0.0
    for k in (0, 1):
        for j in (0, 1):
            n1 = w[(y == k) & (X[:, j] == 1)].sum()
            n0 = w[(y == k) & (X[:, j] == 0)].sum()
            n = n0 + n1
            expected_i += (n1 * np.log(n1 / n) + n0 * np.log(n0 / n) - 0.5 * np.log(n)
                           + 0.5 * np.log(2 * np.pi) - np.log(np.pi))
    assert got_i == pytest.approx(expected_i, abs=1e-4)


def test_log_rising_huge_arguments():
    # s/2 for 60 binary variables: the naive gammaln difference would have no correct digit.
    a = 2.0**59
    for n in (1, 7, 1000):
        exact = math.fsum(math.log(a) + math.log1p(i / a) for i in range(n))
        assert _integrated.log_rising(a, n) == pytest.approx(exact, rel=1e-13)
    # Around the switch to Stirling's series (a = 1e5) the plain difference is still exact
    # to ~1e-10; far beyond it only the sum of logs (integer n) is a reference.
    for a in (3.0, 1e4, 99_999.0, 100_001.0, 3e5):
        for n in (0.5, 12.0, 3e5):
            ref = math.lgamma(a + n) - math.lgamma(a)
            assert _integrated.log_rising(a, n) == pytest.approx(ref, rel=1e-10, abs=1e-9)
    for a in (1e9, 1e15):
        exact = math.fsum(math.log(a) + math.log1p(i / a) for i in range(12))
        assert _integrated.log_rising(a, 12) == pytest.approx(exact, rel=1e-13)


def test_integrated_likelihood_many_variables_is_finite():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 2, size=(200, 60))
    y = rng.integers(0, 2, size=200)
    fmm = FullMultinomial(categories="binary").fit(X, y)
    v = fmm.log_integrated_likelihood(X, y)
    # All 200 units are in distinct states: each contributes log Gamma(1.5)/Gamma(0.5) = log 1/2,
    # and each class -log(Gamma(s/2 + n_k)/Gamma(s/2)) ~ -n_k log(s/2).
    n_k = np.bincount(y)
    approx = 200 * math.log(0.5) - sum(nk * math.log(2.0**59) for nk in n_k)
    assert v == pytest.approx(approx, rel=1e-6)


# --------------------------------------------------------------------------- BernoulliNB

def test_foim_equals_bernoulli_nb_without_smoothing():
    rng = np.random.default_rng(5)
    n, d = 400, 7
    y = rng.integers(0, 3, size=n)
    p = rng.uniform(0.15, 0.85, size=(3, d))
    X = (rng.random((n, d)) < p[y]).astype(int)
    ours = IndependenceModel(categories="binary").fit(X, y)
    nb = BernoulliNB(alpha=1e-10, force_alpha=True).fit(X, y)
    Xt = _all_states([[0, 1]] * d)
    np.testing.assert_allclose(ours.predict_proba(Xt), nb.predict_proba(Xt), rtol=1e-7,
                               atol=1e-12)
    np.testing.assert_array_equal(ours.predict(X), nb.predict(X))


# --------------------------------------------------------------------------- properties

@st.composite
def _discrete_problem(draw):
    d = draw(st.integers(1, 4))
    n_cats = draw(st.lists(st.integers(2, 3), min_size=d, max_size=d))
    n = draw(st.integers(4, 25))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.integers(0, c, size=n) for c in n_cats])
    y = np.concatenate([[0, 1], rng.integers(0, 2, size=n - 2)])
    lam = draw(st.floats(0.01, 1.0))
    return X, y, n_cats, lam


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_discrete_problem())
def test_kernel_densities_sum_to_one_and_match_formula(problem):
    X, y, n_cats, lam = problem
    cats = [list(range(c)) for c in n_cats]
    m = KernelMultinomial(smoothing=lam, categories=cats).fit(X, y)
    states = _all_states(cats)
    dens = np.exp(m.class_log_density(states))
    np.testing.assert_allclose(dens.sum(axis=0), 1.0, rtol=1e-10)
    brute = np.array([[_brute_kernel_density(x, X[y == k], lam, n_cats) for k in (0, 1)]
                      for x in states[:8]])
    np.testing.assert_allclose(dens[:8], brute, rtol=1e-10, atol=1e-300)


@settings(max_examples=40, deadline=None)
@given(_discrete_problem())
def test_kernel_lambda_one_is_fmm_and_posteriors_sum_to_one(problem):
    X, y, n_cats, lam = problem
    cats = [list(range(c)) for c in n_cats]
    states = _all_states(cats)
    kern = KernelMultinomial(smoothing=1.0, categories=cats).fit(X, y)
    fmm = FullMultinomial(categories=cats).fit(X, y)
    np.testing.assert_array_equal(kern.class_log_density(states) == -np.inf,
                                  fmm.class_log_density(states) == -np.inf)
    np.testing.assert_allclose(np.exp(kern.class_log_density(states)),
                               np.exp(fmm.class_log_density(states)), rtol=1e-12)
    fmm_brute = np.array([[_brute_fmm(x, X[y == k]) for k in (0, 1)] for x in states])
    np.testing.assert_allclose(np.exp(fmm.class_log_density(states)), fmm_brute, rtol=1e-12)
    foim = IndependenceModel(categories=cats).fit(X, y)
    foim_brute = np.array([[_brute_foim(x, X[y == k]) for k in (0, 1)] for x in states])
    np.testing.assert_allclose(np.exp(foim.class_log_density(states)), foim_brute, rtol=1e-10)
    for model in (fmm, foim, KernelMultinomial(smoothing=lam, categories=cats).fit(X, y)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ZeroDensityWarning)
            proba = model.predict_proba(states)
        assert not np.isnan(proba).any()
        np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-12)


def _distinct_state_counts(problem):
    """Distinct states of a generated problem with their per-class counts."""
    X, y, n_cats, lam = problem
    radices = np.array(n_cats)
    states, inv = np.unique(_states.state_ids(X, radices), return_inverse=True)
    counts = np.zeros((len(states), 2))
    np.add.at(counts, (inv, y), 1.0)
    return radices, states, counts, int(np.prod(radices)), lam


@settings(max_examples=25, deadline=None)
@given(_discrete_problem())
def test_dense_and_pairwise_smoothing_agree(problem):
    radices, states, counts, s, lam = _distinct_state_counts(problem)
    dense = _kernel.dense_smooth(_kernel.dense_table(states, counts, s), radices, lam)
    all_codes = _states.states_to_codes(np.arange(s), radices)
    hist = _kernel.distance_histograms(all_codes, _states.states_to_codes(states, radices),
                                       counts, radices)
    pair = hist @ _kernel.kernel_profile(lam, len(radices))
    np.testing.assert_allclose(pair, dense.T, rtol=1e-10, atol=1e-300)


def test_states_round_trip():
    radices = np.array([3, 2, 4])
    codes = _all_states([range(3), range(2), range(4)])
    ids = _states.state_ids(codes, radices)
    np.testing.assert_array_equal(ids, np.arange(24))
    np.testing.assert_array_equal(_states.states_to_codes(ids, radices), codes)


# --------------------------------------------------------------------------- leave-one-out

def _brute_loo(X, y, lam, n_cats):
    total = 0.0
    for i in range(len(y)):
        mask = (y == y[i])
        mask[i] = False
        if mask.sum() == 0:
            continue
        f = _brute_kernel_density(X[i], X[mask], lam, n_cats)
        total += math.log(f) if f > 0 else -math.inf
    return total


@pytest.mark.parametrize("strategy, max_hist", [("histograms", 2**23), ("histograms", 20),
                                                ("histograms", 0), ("pairwise", 2**23)])
def test_loo_criterion_matches_brute_force(strategy, max_hist, monkeypatch):
    # Histograms in one dense pass, in blocks (a small memory bound), or from pair distances.
    monkeypatch.setattr(_kernel, "loo_strategy", lambda *args, **kw: strategy)
    monkeypatch.setattr(_kernel, "MAX_HIST_TABLE", max_hist)
    if strategy == "pairwise":
        monkeypatch.setattr(_kernel, "MAX_TABLE", 0)
        monkeypatch.setattr(_kernel, "KEEP_TABLE", 0)
    rng = np.random.default_rng(11)
    X = np.column_stack([rng.integers(0, 2, 30), rng.integers(0, 3, 30), rng.integers(0, 2, 30)])
    y = rng.integers(0, 2, 30)
    y[:3] = [0, 1, 1]
    m = KernelMultinomial(smoothing="loo").fit(X, y)
    n_cats = [2, 3, 2]
    grid = np.linspace(0.5, 1.0, 201)
    brute = np.array([_brute_loo(X, y, g, n_cats) for g in grid])
    assert m.loo_log_likelihood_ == pytest.approx(_brute_loo(X, y, m.smoothing_, n_cats),
                                                  rel=1e-9)
    assert m.loo_log_likelihood_ >= brute.max() - 1e-9
    assert 0.5 <= m.smoothing_ <= 1.0
    # Predictions from either path equal the formula at the chosen lambda.
    states = _all_states([range(c) for c in n_cats])
    dens = np.exp(m.class_log_density(states))
    ref = [[_brute_kernel_density(x, X[y == k], m.smoothing_, n_cats) for k in (0, 1)]
           for x in states]
    np.testing.assert_allclose(dens, ref, rtol=1e-10)


def test_loo_singletons_only_warns_and_uses_lambda_one():
    X = np.array([[0, 1], [1, 0]])
    with pytest.warns(UserWarning, match="leave-one-out criterion is undefined"):
        m = KernelMultinomial().fit(X, [0, 1])
    assert m.smoothing_ == 1.0


@pytest.mark.parametrize("model", [FullMultinomial, IndependenceModel,
                                   lambda **kw: KernelMultinomial(smoothing="loo", **kw)])
def test_integer_weights_equal_repeated_rows(model):
    rng = np.random.default_rng(2)
    X = rng.integers(0, 2, size=(25, 3))
    y = rng.integers(0, 2, size=25)
    y[:2] = [0, 1]
    w = rng.integers(0, 4, size=25)
    w[:2] = 1
    keep = np.repeat(np.arange(25), w)
    a = model(categories="binary").fit(X, y, sample_weight=w)
    b = model(categories="binary").fit(X[keep], y[keep])
    states = _all_states([[0, 1]] * 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ZeroDensityWarning)
        np.testing.assert_allclose(a.predict_proba(states), b.predict_proba(states), rtol=1e-6)
    assert a.log_integrated_likelihood(X, y, sample_weight=w) == pytest.approx(
        b.log_integrated_likelihood(X[keep], y[keep]), rel=1e-12)


# --------------------------------------------------------------------------- contract 3

def test_contract_three_quantities():
    m = IndependenceModel(categories="binary").fit(TOY_X, TOY_Y)
    dens = np.exp(m.class_log_density(TOY_X))
    ll = float(np.sum(np.log(dens[np.arange(7), TOY_Y] * m.priors_[TOY_Y])))
    assert m.log_likelihood(TOY_X, TOY_Y) == pytest.approx(ll)
    assert m.aic(TOY_X, TOY_Y) == pytest.approx(-2 * ll + 2 * 6)
    assert m.bic(TOY_X, TOY_Y) == pytest.approx(-2 * ll + 6 * math.log(7))


def test_log_likelihood_zero_weight_on_zero_density_is_not_nan():
    m = FullMultinomial(categories="binary").fit(TOY_X, TOY_Y)
    X = np.vstack([TOY_X, [[0, 0, 1]]])
    y = np.append(TOY_Y, 0)
    assert m.log_likelihood(X, y) == -np.inf
    w = np.append(np.ones(7), 0.0)
    assert np.isfinite(m.log_likelihood(X, y, sample_weight=w))


def test_given_priors_and_class_order():
    y = np.array(["low", "low", "low", "low", "high", "high", "high"])
    m = FullMultinomial(categories="binary", priors=[0.5, 0.5],
                        classes=["low", "high"]).fit(TOY_X, y)
    np.testing.assert_array_equal(m.classes_, ["low", "high"])
    # 111 with equal priors: 1/4 vs 1/3.
    np.testing.assert_allclose(m.predict_proba([[1, 1, 1]]), [[3 / 7, 4 / 7]])
    assert m.predict([[0, 0, 0]])[0] == "low"


@pytest.mark.parametrize("model, nu", [(FullMultinomial, 14), (IndependenceModel, 6),
                                       (KernelMultinomial, 15)])
def test_class_absent_from_training_gets_zero_probability(model, nu):
    m = model(categories="binary", classes=[0, 1, 2]).fit(TOY_X, TOY_Y)
    proba = m.predict_proba(TOY_X)
    assert proba.shape == (7, 3) and np.all(proba[:, 2] == 0)
    assert m.n_parameters_ == nu  # the absent class has no parameters
    dens = m.class_log_density(_all_states([[0, 1]] * 3))
    assert not np.isnan(dens).any() and np.all(dens[:, 2] == -np.inf)
    assert np.isfinite(m.log_integrated_likelihood(TOY_X, TOY_Y))


def test_foim_unseen_combination_falls_back_not_nan():
    # Class 0 never has x_2 = 1, class 1 never has x_1 = 0: state (0, 1) is impossible in both.
    X = np.array([[0, 0], [1, 0], [1, 1], [1, 0]])
    y = [0, 0, 1, 1]
    m = IndependenceModel(categories="binary").fit(X, y)
    with pytest.warns(ZeroDensityWarning):
        proba = m.predict_proba([[0, 1]])
    np.testing.assert_allclose(proba, [[0.5, 0.5]])


def test_pandas_categorical_strings_and_feature_names():
    df = pd.DataFrame({
        "smoker": pd.Categorical(["no", "yes", "no", "yes", "no", "no"],
                                 categories=["no", "yes", "former"]),
        "sex": ["f", "m", "m", "f", "f", "m"],
        "count": [0, 1, 2, 0, 1, 2],
    })
    y = pd.Categorical(["a", "a", "a", "b", "b", "b"], categories=["a", "b"], ordered=True)
    m = KernelMultinomial(smoothing=0.9).fit(df, y)
    np.testing.assert_array_equal(m.n_categories_, [3, 2, 3])
    np.testing.assert_array_equal(m.feature_names_in_, ["smoker", "sex", "count"])
    assert m.n_states_ == 18
    states = pd.DataFrame(_all_states(m.categories_), columns=df.columns)
    states["count"] = states["count"].astype(int)
    np.testing.assert_allclose(np.exp(m.class_log_density(states)).sum(axis=0), 1.0)
    # Same answers from a plain object array with the categories declared.
    m2 = KernelMultinomial(smoothing=0.9, categories=m.categories_, classes=["a", "b"]).fit(
        df.to_numpy(dtype=object), np.asarray(y))
    np.testing.assert_allclose(m2.predict_proba(states.to_numpy(dtype=object)),
                               m.predict_proba(states))


def test_constant_column_auto_categories():
    X = np.array([[0, 5], [1, 5], [1, 5], [0, 5]])
    y = [0, 0, 1, 1]
    m = KernelMultinomial(smoothing=0.7).fit(X, y)
    np.testing.assert_array_equal(m.n_categories_, [2, 1])
    dens = np.exp(m.class_log_density([[0, 5], [1, 5]]))
    np.testing.assert_allclose(dens.sum(axis=0), 1.0)
    assert m.n_parameters_ == 2 * 1  # (c_1 - 1) per class; the constant column adds none
    assert IndependenceModel().fit(X, y).n_parameters_ == 2


def test_many_binary_variables_pairwise_path():
    # d = 30: 2^30 states, far too many for a table; distances to distinct training states.
    rng = np.random.default_rng(4)
    X = rng.integers(0, 2, size=(300, 30))
    y = rng.integers(0, 2, size=300)
    m = KernelMultinomial(categories="binary").fit(X, y)
    assert m._table is None and 0.5 <= m.smoothing_ <= 1
    Xt = rng.integers(0, 2, size=(5, 30))
    dens = np.exp(m.class_log_density(Xt))
    ref = [[_brute_kernel_density(x, X[y == k], m.smoothing_, [2] * 30) for k in (0, 1)]
           for x in Xt]
    np.testing.assert_allclose(dens, ref, rtol=1e-9)
    fmm = FullMultinomial(categories="binary").fit(X, y)
    assert fmm.n_parameters_ == 2 * (2**30 - 1)


def test_twenty_binary_variables_dense_path_quick():
    rng = np.random.default_rng(6)
    X = rng.integers(0, 2, size=(3000, 20))
    y = rng.integers(0, 2, size=3000)
    m = KernelMultinomial(smoothing=0.9, categories="binary").fit(X, y)
    assert m._table is not None
    ref = [[_brute_kernel_density(x, X[y == k], 0.9, [2] * 20) for k in (0, 1)] for x in X[:3]]
    np.testing.assert_allclose(np.exp(m.class_log_density(X[:3])), ref, rtol=1e-9)


def test_clone_pickle_cross_val_and_registry():
    from ordstat.cli._methods import make_method

    rng = np.random.default_rng(8)
    X = rng.integers(0, 2, size=(60, 4))
    y = (X[:, 0] + X[:, 1] + rng.integers(0, 2, 60) > 1).astype(int)
    for name in ("fmm", "foim", "kernel"):
        est = make_method(name, categories="binary")
        scores = cross_val_score(est, X, y, cv=3)
        assert scores.shape == (3,)
        fitted = clone(est).fit(X, y)
        again = pickle.loads(pickle.dumps(fitted))
        np.testing.assert_array_equal(again.predict_proba(X), fitted.predict_proba(X))
    assert ordstat.FullMultinomial is FullMultinomial and ordstat.affinity is affinity


# --------------------------------------------------------------------------- affinity

def test_affinity_basic():
    assert affinity([0.5, 0.5, 0.0], [0.5, 0.0, 0.5]) == pytest.approx(0.5)
    assert affinity([0.2, 0.8], [0.2, 0.8]) == pytest.approx(1.0)
    assert affinity([1.0, 0.0], [0.0, 1.0]) == 0.0
    assert affinity([0.1, 0.9], [0.6, 0.4]) == pytest.approx(math.sqrt(0.06) + math.sqrt(0.36))


def test_class_union_affinity_fmm_hand_computed():
    X = np.array([[0], [0], [1], [1], [1], [0], [2], [2]])
    y = np.array([0, 0, 0, 1, 1, 1, 2, 2])
    m = FullMultinomial().fit(X, y)
    # f_0 = (2/3, 1/3, 0), f_1 = (1/3, 2/3, 0), f_2 = (0, 0, 1); f_{0,1} = (1/2, 1/2, 0).
    assert class_union_affinity(m, [0], [1]) == pytest.approx(2 * math.sqrt(2 / 9))
    assert class_union_affinity(m, [0, 1], 2) == 0.0
    assert class_union_affinity(m, [2], [0, 1]) == 0.0
    assert class_union_affinity(m, [1, 2], [0]) == pytest.approx(
        affinity([2 / 3, 1 / 3, 0], [1 / 5, 2 / 5, 2 / 5]))


@pytest.mark.parametrize("keep_table", [2**21, 0])
@pytest.mark.parametrize("model", [IndependenceModel, lambda **kw: KernelMultinomial(
    smoothing=0.85, **kw)])
def test_class_union_affinity_enumerated_models(model, keep_table, monkeypatch):
    monkeypatch.setattr(_kernel, "KEEP_TABLE", keep_table)
    rng = np.random.default_rng(9)
    X = rng.integers(0, 2, size=(80, 4))
    y = rng.integers(0, 3, size=80)
    m = model(categories="binary").fit(X, y)
    states = _all_states([[0, 1]] * 4)
    dens = np.exp(m.class_log_density(states))
    n = m.class_count_
    fa = dens[:, [0, 2]] @ (n[[0, 2]] / n[[0, 2]].sum())
    fb = dens[:, 1]
    assert class_union_affinity(m, [0, 2], [1]) == pytest.approx(affinity(fa, fb), rel=1e-12)
    assert class_union_affinity(m, [1], [0, 2]) == pytest.approx(affinity(fa, fb), rel=1e-12)


# --------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("model", MODELS)
def test_non_binary_value_for_binary_variable(model):
    with pytest.raises(ValueError, match=r"declared binary \(categories='binary'\); "
                                         r"feature 1 has the value 2 in row 1"):
        model(categories="binary").fit([[0, 1], [1, 2], [0, 0]], [0, 1, 1])
    fitted = model(categories="binary").fit([[0, 1], [1, 0], [0, 0], [1, 1]], [0, 1, 1, 0])
    with pytest.raises(ValueError, match="only the values 0 and 1"):
        fitted.predict([[0, 0.5]])
    with pytest.raises(ValueError, match="non-numeric"):
        fitted.predict(np.array([["a", "b"]], dtype=object))


@pytest.mark.parametrize("model", MODELS)
def test_nan_is_an_error(model):
    with pytest.raises(ValueError, match=r"NaN.*row 1, feature 0"):
        model().fit([[0.0, 1.0], [np.nan, 0.0], [1.0, 1.0]], [0, 1, 1])
    with pytest.raises(ValueError, match=r"NaN/missing value\(s\) in feature 1"):
        model().fit(np.array([["a", None], ["b", "c"]], dtype=object), [0, 1])
    df = pd.DataFrame({"v": pd.Categorical(["y", None, "n"])})
    with pytest.raises(ValueError, match=r"feature 0 \('v'\)"):
        model().fit(df, [0, 1, 1])
    fitted = model().fit([[0, 1], [1, 0], [1, 1]], [0, 1, 1])
    with pytest.raises(ValueError, match="NaN"):
        fitted.predict([[np.nan, 1]])
    with pytest.raises(ValueError, match="infinite"):
        fitted.predict([[np.inf, 1]])


@pytest.mark.parametrize("model", MODELS)
def test_unseen_category_at_predict_is_an_error(model):
    fitted = model().fit(np.array([["a", "x"], ["b", "y"], ["a", "y"]], dtype=object), [0, 1, 1])
    with pytest.raises(ValueError, match=r"feature 0 has value\(s\) \['c'\] not seen when "
                                         r"fitting.*categories="):
        fitted.predict(np.array([["c", "x"]], dtype=object))
    declared = model(categories=[["a", "b", "c"], ["x", "y"]]).fit(
        np.array([["a", "x"], ["b", "y"], ["a", "y"]], dtype=object), [0, 1, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ZeroDensityWarning)
        proba = declared.predict_proba(np.array([["c", "x"]], dtype=object))
    assert np.isfinite(proba).all()
    with pytest.raises(ValueError, match=r"feature 1 has value\(s\) \['z'\]"):
        model(categories=[["a", "b"], ["x", "y"]]).fit(
            np.array([["a", "x"], ["b", "z"]], dtype=object), [0, 1])


@pytest.mark.parametrize("bad", [0, 0.0, 1.5, -0.2])
def test_smoothing_out_of_range(bad):
    with pytest.raises(ValueError, match=r"'smoothing' parameter of KernelMultinomial must be .*"
                                         r"in the range \(0.0, 1.0\]"):
        KernelMultinomial(smoothing=bad).fit(TOY_X, TOY_Y)


@pytest.mark.parametrize("bad", ["cv", None, np.nan])
def test_smoothing_wrong_type(bad):
    with pytest.raises((TypeError, ValueError), match="'smoothing' parameter .* must be"):
        KernelMultinomial(smoothing=bad).fit(TOY_X, TOY_Y)


@pytest.mark.parametrize("bad, match", [
    ("binry", "'categories' parameter of FullMultinomial must be a str among"),
    (None, "'categories' parameter of FullMultinomial must be"),
    ([[0, 1]], "each of the 3 features"),
    ([[0, 1], [0, 0], [0, 1]], r"categories\[1\] must not repeat"),
    ([[0, 1], [], [0, 1]], r"categories\[1\] must be a non-empty"),
    ([[0, 1], [0, np.nan], [0, 1]], r"categories\[1\] must not contain missing"),
])
def test_bad_categories_parameter(bad, match):
    with pytest.raises(ValueError, match=match):
        FullMultinomial(categories=bad).fit(TOY_X, TOY_Y)


@pytest.mark.parametrize("bad, err, match", [
    ([0.5], ValueError, "one probability per class"),
    ([0.7, 0.7], ValueError, "sum to one"),
    ([-0.5, 1.5], ValueError, "non-negative"),
    (["a", "b"], TypeError, "priors must be a sequence"),
])
def test_bad_priors(bad, err, match):
    with pytest.raises(err, match=match):
        IndependenceModel(priors=bad).fit(TOY_X, TOY_Y)


def test_bad_shapes_and_types():
    m = FullMultinomial()
    with pytest.raises(ValueError, match="Reshape your data"):
        m.fit([0, 1, 1], [0, 1, 1])
    with pytest.raises(TypeError, match="sparse"):
        m.fit(sparse.csr_matrix(TOY_X), TOY_Y)
    with pytest.raises(ValueError, match="Complex data not supported"):
        m.fit(TOY_X + 1j, TOY_Y)
    with pytest.raises(TypeError, match="mixes value types"):
        m.fit(np.array([[1], ["a"], [2]], dtype=object), [0, 1, 1])
    with pytest.raises(ValueError, match="inconsistent numbers of units"):
        m.fit(TOY_X, TOY_Y[:5])
    with pytest.raises(ValueError, match="requires y"):
        m.fit(TOY_X, None)
    with pytest.raises(ValueError, match="Only one class"):
        m.fit(TOY_X, TOY_Y, sample_weight=(TOY_Y == 0).astype(float))
    fitted = m.fit(TOY_X, TOY_Y)
    with pytest.raises(ValueError, match="X has 2 features"):
        fitted.predict(TOY_X[:, :2])
    with pytest.raises(ValueError, match="inconsistent numbers of units"):
        fitted.log_integrated_likelihood(TOY_X, TOY_Y[:3])
    with pytest.raises(ValueError, match="not among the known ordered classes"):
        fitted.log_likelihood(TOY_X, TOY_Y + 5)


def test_state_space_too_large():
    X = np.random.default_rng(0).integers(0, 2, size=(10, 63))
    y = np.arange(10) % 2
    with pytest.raises(ValueError, match="at most 2\\^62.*IndependenceModel"):
        FullMultinomial(categories="binary").fit(X, y)
    assert IndependenceModel(categories="binary").fit(X, y).n_parameters_ == 2 * 63
    with pytest.raises(ValueError, match="sums over all s"):
        KernelMultinomial(smoothing=0.9, categories="binary").fit(X[:, :30], y) \
            .log_integrated_likelihood(X[:, :30], y)


@pytest.mark.parametrize("p, q, err, match", [
    ([0.5, 0.5], [1.0], ValueError, "same states"),
    ([0.5, 0.6], [0.5, 0.5], ValueError, "p must sum to one"),
    ([0.5, 0.5], [1.5, -0.5], ValueError, "q contains negative"),
    ([np.nan, 1.0], [0.5, 0.5], ValueError, "NaN"),
    ([[0.5, 0.5]], [0.5, 0.5], ValueError, "1-D"),
    (["a", "b"], [0.5, 0.5], TypeError, "p must be a 1-D array"),
])
def test_affinity_bad_input(p, q, err, match):
    with pytest.raises(err, match=match):
        affinity(p, q)


def test_class_union_affinity_bad_input():
    m = FullMultinomial().fit(TOY_X, TOY_Y)
    with pytest.raises(ValueError, match="disjoint"):
        class_union_affinity(m, [0], [0, 1])
    with pytest.raises(ValueError, match="group_b contains label"):
        class_union_affinity(m, [0], [7])
    with pytest.raises(ValueError, match="at least one class"):
        class_union_affinity(m, [], [1])
    with pytest.raises(TypeError, match="model must be a fitted"):
        class_union_affinity(BernoulliNB().fit(TOY_X, TOY_Y), [0], [1])
    absent = FullMultinomial(classes=[0, 1, 2]).fit(TOY_X, TOY_Y)
    with pytest.raises(ValueError, match="no training units"):
        class_union_affinity(absent, [2], [0])


@settings(max_examples=25, deadline=None)
@given(_discrete_problem())
def test_dense_histograms_agree_with_pairwise(problem):
    radices, states, counts, s, lam = _distinct_state_counts(problem)
    table = _kernel.dense_table(states, counts, s)
    dense = _kernel.dense_histograms(table, radices).transpose(1, 0, 2)
    all_codes = _states.states_to_codes(np.arange(s), radices)
    pair = _kernel.distance_histograms(all_codes, _states.states_to_codes(states, radices),
                                       counts, radices)
    np.testing.assert_allclose(dense, pair, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("keep_table, max_table", [(0, 2**24), (0, 0)])
def test_prediction_paths_without_kept_table(keep_table, max_table, monkeypatch):
    # A dense table built on demand (state space too large to keep) and the pairwise path.
    monkeypatch.setattr(_kernel, "KEEP_TABLE", keep_table)
    monkeypatch.setattr(_kernel, "MAX_TABLE", max_table)
    rng = np.random.default_rng(12)
    X = np.column_stack([rng.integers(0, 3, 40), rng.integers(0, 2, 40), rng.integers(0, 4, 40)])
    y = rng.integers(0, 2, 40)
    y[:2] = [0, 1]
    m = KernelMultinomial(smoothing=0.7).fit(X, y)
    assert m._table is None
    states = _all_states([range(3), range(2), range(4)])
    ref = [[_brute_kernel_density(x, X[y == k], 0.7, [3, 2, 4]) for k in (0, 1)]
           for x in states]
    np.testing.assert_allclose(np.exp(m.class_log_density(states)), ref, rtol=1e-10)


@settings(max_examples=25, deadline=None)
@given(_discrete_problem(), st.integers(0, 64))
def test_blocked_training_histograms_agree_with_pairwise(problem, max_entries):
    X, y, n_cats, _ = problem
    radices = np.array(n_cats)
    states, inv = np.unique(_states.state_ids(X, radices), return_inverse=True)
    counts = np.zeros((len(states), 2))
    np.add.at(counts, (inv, y), 1.0)
    blocked = _kernel.training_histograms(states, counts, radices, max_entries=max_entries)
    codes = _states.states_to_codes(states, radices)
    pair = _kernel.distance_histograms(codes, codes, counts, radices)
    np.testing.assert_allclose(blocked, pair, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("chunk", [2**16, 6, 4, 1])
def test_foim_affinity_by_grids_equals_the_sum_over_decoded_states(chunk, monkeypatch):
    """FOIM's affinity from products of per-variable grids, split into head and tail
    variables and blocks (small ``_CHUNK``), against the sum over every decoded state."""
    from ordstat.discrete import _affinity

    monkeypatch.setattr(_affinity, "_CHUNK", chunk)
    rng = np.random.default_rng(4)
    levels = [3, 2, 4, 2]
    X = np.column_stack([rng.integers(0, c, size=90) for c in levels])
    y = rng.integers(0, 4, size=90)
    m = IndependenceModel().fit(X, y)
    dens = np.exp(m.class_log_density(_all_states([list(range(c)) for c in levels])))
    n = m.class_count_
    fa = dens[:, [0, 3]] @ (n[[0, 3]] / n[[0, 3]].sum())
    fb = dens[:, [1, 2]] @ (n[[1, 2]] / n[[1, 2]].sum())
    assert class_union_affinity(m, [0, 3], [1, 2]) == pytest.approx(affinity(fa, fb), rel=1e-12)


# --------------------------------------------------------------------------- parameters, summary
@pytest.mark.parametrize("model", MODELS)
def test_every_parameter_is_declared_and_checked(model):
    """scikit-learn's own check: a constraint for every constructor parameter, and fit refuses
    a value of the wrong type or out of range naming the parameter."""
    from sklearn.utils.estimator_checks import check_param_validation

    check_param_validation(model.__name__, model())


def _mixed_data(n=120, seed=0):
    """Three-category, binary and constant variables, classes depending on the first two."""
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.integers(0, 3, n), rng.integers(0, 2, n), np.full(n, 7)])
    y = np.where(X[:, 0] + X[:, 1] + rng.integers(0, 2, n) >= 2, "b", "a")
    return X, y


@pytest.mark.parametrize("model", MODELS)
def test_summary_likelihood_criteria_match_the_methods(model):
    X, y = _mixed_data()
    est = model().fit(X, y)
    summary = est.summary()
    assert isinstance(summary, Summary)
    assert str(summary).startswith(est._title) and "<table" in summary._repr_html_()
    row = summary["likelihood"].iloc[0]
    np.testing.assert_allclose(row["loglik"], est.log_likelihood(X, y), rtol=1e-12)
    np.testing.assert_allclose(row["AIC"], est.aic(X, y), rtol=1e-12)
    np.testing.assert_allclose(row["BIC"], est.bic(X, y), rtol=1e-12)
    assert row["nu"] == est.n_parameters_
    classes = summary["classes"]
    np.testing.assert_array_equal(classes["units"], [np.sum(y == "a"), np.sum(y == "b")])
    np.testing.assert_array_equal(classes["prior"], est.priors_)
    np.testing.assert_array_equal(summary["variables"]["categories"], [3, 2, 1])
    assert summary["variables"]["values"].tolist() == ["0, 1, 2", "0, 1", "7"]
    assert dict(summary.info)["classes"] == "a, b"  # nominal: no order claimed


@pytest.mark.parametrize("model", MODELS)
def test_summary_with_weights_and_priors(model):
    X, y = TOY_X, TOY_Y
    w = np.array([1.0, 2.0, 0.5, 1.0, 3.0, 1.0, 0.0])
    est = model(priors=[0.3, 0.7], categories="binary").fit(X, y, sample_weight=w)
    summary = est.summary()
    classes = summary["classes"]
    np.testing.assert_array_equal(classes["units"], np.bincount(y))
    np.testing.assert_allclose(classes["weight"], np.bincount(y, weights=w))
    np.testing.assert_allclose(classes["prior"], [0.3, 0.7])
    ll = est.log_likelihood(X, y, sample_weight=w)
    row = summary["likelihood"].iloc[0]
    np.testing.assert_allclose(row["loglik"], ll, rtol=1e-12)
    np.testing.assert_allclose(row["BIC"], -2 * ll + est.n_parameters_ * np.log(w.sum()),
                               rtol=1e-12)


def test_kernel_summary_says_how_lambda_was_chosen():
    X, y = _mixed_data()
    loo = KernelMultinomial().fit(X, y)
    line = dict(loo.summary(digits=6).info)["smoothing"]
    assert line.startswith(f"lambda = {loo.smoothing_:.6g}, chosen by leave-one-out")
    assert f"{loo.loo_log_likelihood_:.8g}" in line
    given = dict(KernelMultinomial(smoothing=0.9).fit(X, y).summary().info)["smoothing"]
    assert given == "lambda = 0.9, given"
