"""Arithmetic of the kernel-smoothed multinomial (KERNEL, Brito et al. 2006, eq. 2.2).

With c_j categories for variable j, the Aitchison-Aitken kernel between states x and t is

    K_lambda(x, t) = prod_j  lambda               if x_j = t_j,
                             (1 - lambda)/(c_j - 1) otherwise,

which for binary variables is eq. 2.2's lambda^(d - ||x - t||) (1 - lambda)^||x - t||. It sums to
one over x, so f(x | lambda) = (1/n) sum_i K_lambda(x, x_i) is a distribution over the states;
lambda = 1 gives the observed frequencies (FMM, eq. 2.1).

The smoothed counts S(x) = sum_t N(t) K_lambda(x, t) over the *distinct* training states t are
computed one of two ways, chosen by cost:

- dense: a (K, s) table of counts smoothed one variable at a time (the kernel is a product over
  variables), O(K s d) per lambda, for state spaces that fit in memory (d up to ~20 binary);
- pairwise: for each query state q, the histogram M[q, k, h] of the kernel weight
  sum_t N(t, k) prod_{j: q_j != t_j} 1/(c_j - 1) by Hamming distance h, after which
  S(q) = sum_h M[q, k, h] lambda^(d - h) (1 - lambda)^h for any lambda at O(d) cost. Distances
  come from one matrix product of one-hot codes between the query and distinct training states.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize_scalar

# Dense tables up to this many entries (K * s) are kept by the fitted model / built on demand.
KEEP_TABLE = 2**21
MAX_TABLE = 2**24
# Entries of one block of the pairwise distance matrix.
BLOCK = 2**20


def kernel_profile(lam: float, n_active: int) -> np.ndarray:
    """p_h = lambda^(d - h) (1 - lambda)^h for h = 0..d (0^0 = 1, so lambda = 1 is exact)."""
    h = np.arange(n_active + 1)
    return lam ** (n_active - h) * (1.0 - lam) ** h


def dense_table(states, counts, n_states) -> np.ndarray:
    """(K, s) table of counts from distinct states and their (u, K) class counts."""
    table = np.zeros((counts.shape[1], n_states))
    table[:, states] = counts.T
    return table


def dense_smooth(table, radices, lam: float) -> np.ndarray:
    """S(x) for every state x: the table smoothed along each variable in turn."""
    K = table.shape[0]
    T = table.reshape((K,) + tuple(int(c) for c in radices))
    for axis, c in enumerate(radices, start=1):
        if lam == 1.0:
            break
        off = (1.0 - lam) / (c - 1)
        total = T.sum(axis=axis, keepdims=True)
        # lam * T + off * (others), with others = total - T >= 0 (no cancellation below 0).
        T = lam * T + off * (total - T)
    return T.reshape(K, -1)


def _one_hot(codes, radices):
    offsets = np.concatenate([[0], np.cumsum(radices)[:-1]]).astype(np.intp)
    out = np.zeros((codes.shape[0], int(np.sum(radices))))
    if codes.shape[1]:
        rows = np.repeat(np.arange(codes.shape[0]), codes.shape[1])
        out[rows, (codes + offsets).ravel()] = 1.0
    return out


def distance_histograms(query_codes, train_codes, train_counts, radices) -> np.ndarray:
    """M of shape (u_q, K, d + 1): kernel weight of the training states by Hamming distance."""
    radices = np.asarray(radices, dtype=np.int64)
    d = len(radices)
    u_q, K = query_codes.shape[0], train_counts.shape[1]
    out = np.zeros((u_q, K, d + 1))
    if train_codes.shape[0] == 0 or u_q == 0:
        return out
    OT = _one_hot(train_codes, radices)
    non_binary = radices > 2
    if non_binary.any():
        col_w = np.repeat(np.log(radices - 1.0), radices)
        total_pen = float(np.sum(np.log(radices - 1.0)))
    block = max(1, BLOCK // max(1, train_codes.shape[0]))
    for start in range(0, u_q, block):
        OQ = _one_hot(query_codes[start:start + block], radices)
        m = OQ.shape[0]
        matches = OQ @ OT.T
        h = d - np.rint(matches).astype(np.intp)
        if non_binary.any():
            # log prod_{mismatched j} 1/(c_j - 1) = -(total - sum_{matched j} log(c_j - 1)).
            weight = np.exp((OQ * col_w) @ OT.T - total_pen)
        else:
            weight = None
        index = (np.arange(m)[:, None] * (d + 1) + h).ravel()
        for k in range(K):
            w = np.broadcast_to(train_counts[:, k], h.shape)
            if weight is not None:
                w = w * weight
            out[start:start + m, k, :] = np.bincount(
                index, weights=np.ravel(w), minlength=m * (d + 1)
            ).reshape(m, d + 1)
    return out


def loo_log_likelihood(lam, smoothed, counts, class_count, n_active):
    """Leave-one-out pseudo-log-likelihood sum_i log f_{k_i, -i}(x_i | lambda).

    ``smoothed(lam)`` gives S at the distinct training states (u, K); ``counts`` (u, K) their
    class weights, read as frequencies: leaving one unit out removes weight min(N, 1) of its
    state (all of it when a state carries less than one unit), and its self-kernel lambda^d.
    Units alone in their class have no leave-one-out density and are left out.
    """
    S = smoothed(lam)
    removed = np.minimum(counts, 1.0)
    numerator = np.maximum(S - removed * lam ** n_active, 0.0)
    denominator = class_count[None, :] - removed
    use = (counts > 0) & (denominator > 1e-12)
    with np.errstate(divide="ignore"):
        terms = counts[use] * (np.log(numerator[use]) - np.log(denominator[use]))
    return float(np.sum(terms)), bool(use.any())


def choose_lambda(objective, lam_min: float, n_grid: int = 41):
    """Maximise ``objective`` on [lam_min, 1]: a grid, then bounded Brent around the best point."""
    grid = np.linspace(lam_min, 1.0, n_grid)
    values = np.array([objective(g) for g in grid])
    best = int(np.argmax(values))
    lo, hi = grid[max(best - 1, 0)], grid[min(best + 1, n_grid - 1)]

    def negative(lam):
        v = objective(lam)
        return -v if np.isfinite(v) else 1e300

    res = minimize_scalar(negative, bounds=(lo, hi), method="bounded",
                          options={"xatol": 1e-7})
    if res.success and np.isfinite(res.fun) and -res.fun > values[best]:
        return float(res.x), float(-res.fun)
    return float(grid[best]), float(values[best])
