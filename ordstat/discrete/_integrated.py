"""Exact integrated (marginal) likelihoods of the discrete models under Jeffreys priors.

Brito et al. (2006), section 3.2: with Jeffreys priors the integral (3.12) of the likelihood of
the predictors given the classes is available in closed form,

    (3.14)  L_I = prod_k prod_j B(x_k^j + 1/2, n_k - x_k^j + 1/2) / B(1/2, 1/2)^(K d)   (FOIM)
    (3.15)  L_M = Gamma(s/2)^K prod_k prod_h Gamma(1/2 + c_k^h)
                  / (Gamma(1/2)^(K s) prod_k Gamma(s/2 + n_k))                     (FMM)

(x_k^j: units of class k with x_j = 1; c_k^h: units of class k in state h; s states). For a
variable with c_j > 2 categories the FOIM factor is the Dirichlet(1/2, ..., 1/2) analogue
Gamma(c_j/2) prod_c Gamma(N_kjc + 1/2) / (Gamma(1/2)^c_j Gamma(n_k + c_j/2)), which is the beta
form for c_j = 2. Everything is computed in log space with ``gammaln``/``betaln``, so counts in
the millions are fine, and (3.15) only visits observed states: a state with c_k^h = 0 contributes
Gamma(1/2)/Gamma(1/2) = 1, so s may be astronomically large. Like the paper, the class labels are
conditioned on (no factor for the class proportions, common to every discrete model).
"""

from __future__ import annotations

import numpy as np
from scipy.special import betaln, gammaln

_LOG_GAMMA_HALF = float(gammaln(0.5))
_STIRLING_FROM = 1e5


def log_rising(a, n):
    """log Gamma(a + n) - log Gamma(a), accurate also when a is huge (s/2 for d = 60 binary).

    The plain difference of two gammaln values of size a log a loses every digit once a is
    about 1e15; for a >= 1e5 Stirling's series is differenced analytically instead (the first
    omitted term, 1/(360 a^3), is below 1e-17 there).
    """
    a = np.asarray(a, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    a, n = np.broadcast_arrays(a, n)
    out = np.empty(a.shape)
    small = a < _STIRLING_FROM
    out[small] = gammaln(a[small] + n[small]) - gammaln(a[small])
    A, N = a[~small], n[~small]
    out[~small] = ((A - 0.5) * np.log1p(N / A) + N * np.log(A + N) - N
                   + (1.0 / (12.0 * (A + N)) - 1.0 / (12.0 * A)))
    return out


def log_il_independence(category_counts) -> float:
    """log L_I of eq. 3.14: ``category_counts`` is a list of (K, c_j) count arrays."""
    total = 0.0
    for counts in category_counts:
        counts = np.asarray(counts, dtype=np.float64)
        c = counts.shape[1]
        if c == 1:
            continue  # a constant variable: the factor is exactly 1
        if c == 2:
            total += float(np.sum(betaln(counts[:, 1] + 0.5, counts[:, 0] + 0.5))
                           - counts.shape[0] * betaln(0.5, 0.5))
        else:
            n_k = counts.sum(axis=1)
            total += float(np.sum(gammaln(counts + 0.5).sum(axis=1) - c * _LOG_GAMMA_HALF
                                  - log_rising(c / 2.0, n_k)))
    return total


def log_il_multinomial(state_counts, n_states) -> float:
    """log L_M of eq. 3.15 from the (u, K) class counts of the observed (or all) states.

    Zero entries contribute nothing, so passing only the observed states is exact, and the
    same function takes the dense (s, K) table of smoothed pseudo-counts.
    """
    counts = np.asarray(state_counts, dtype=np.float64)
    n_k = counts.sum(axis=0)
    half_s = float(n_states) / 2.0
    positive = counts[counts > 0]
    return float(-np.sum(log_rising(half_s, n_k))
                 + np.sum(gammaln(positive + 0.5) - _LOG_GAMMA_HALF))
