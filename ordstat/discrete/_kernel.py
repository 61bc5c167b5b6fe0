"""Arithmetic of the kernel-smoothed multinomial (KERNEL, Brito et al. 2006, eq. 2.2; the
Aitchison-Aitken kernel).

The module structure is the following:

- :func:`kernel_profile`: the kernel's weight by Hamming distance;
- dense smoothing of a table of counts one variable at a time: :func:`dense_table`,
  :func:`dense_smooth`, :func:`dense_histograms`;
- pairwise: :func:`distance_histograms` (kernel weight by Hamming distance, for any lambda),
  :func:`training_histograms` (at the training states, in blocks of bounded memory);
- the leave-one-out choice of lambda: :func:`loo_strategy`, :func:`loo_objective`,
  :func:`choose_lambda`.

The two ways of computing the smoothed counts and when each is chosen are explained in the
documentation, "How the other methods are computed" (docs/algorithms.md).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize_scalar

from ._states import state_ids, states_to_codes

# Smoothed tables up to KEEP_TABLE entries (K * s) are kept by a fitted model; larger ones up to
# MAX_TABLE are built when predicting if that is cheaper than pairwise distances.
KEEP_TABLE = 2**21
MAX_TABLE = 2**24
# Largest (K, s_tail, d_tail + 1) block of distance histograms of the leave-one-out search.
MAX_HIST_TABLE = 2**23
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
    T = table.reshape((K,) + tuple(int(c) for c in radices)).copy()
    if lam == 1.0:
        return T.reshape(K, -1)
    full = [slice(None)] * T.ndim
    for axis, c in enumerate(radices, start=1):
        off = (1.0 - lam) / (c - 1)
        if c == 2:
            # In place on the two halves: a, b <- lam a + off b, off a + lam b.
            first, second = list(full), list(full)
            first[axis], second[axis] = 0, 1
            a, b = T[tuple(first)], T[tuple(second)]
            old_a = a.copy()
            a *= lam
            a += off * b
            b *= lam
            b += off * old_a
        else:
            # lam * T + off * (others), others = total - T >= 0 (no cancellation below 0).
            others = T.sum(axis=axis, keepdims=True) - T
            T *= lam
            T += off * others
    return T.reshape(K, -1)


def dense_histograms(table, radices) -> np.ndarray:
    """(K, s, d + 1): for every state x, the kernel weight of the training states by distance.

    The polynomial form of :func:`dense_smooth`: smoothing along variable j keeps the weight of a
    match at distance h and moves 1/(c_j - 1) of every mismatching category to distance h + 1.
    One pass gives S(x) = sum_h M[x, h] lambda^(d - h) (1 - lambda)^h for *every* lambda, which
    is what the leave-one-out search needs.
    """
    K = table.shape[0]
    d = len(radices)
    shape = (K,) + tuple(int(c) for c in radices)
    # Distance first, so that the bins 0..i touched after i variables are one contiguous block.
    M = np.zeros((d + 1,) + shape)
    M[0] = table.reshape(shape)
    full = [slice(None)] * M.ndim
    for i, c in enumerate(radices):
        axis = i + 2

        def cells(h, cat=None):
            index = list(full)
            index[0] = h
            if cat is not None:
                index[axis] = cat
            return tuple(index)

        low, high = slice(0, i + 1), slice(1, i + 2)
        if c == 2:
            # The other category of a binary variable is the mismatch: swap the two halves.
            first = M[cells(low, 0)].copy()
            M[cells(high, 0)] += M[cells(low, 1)]
            M[cells(high, 1)] += first
        else:
            block = M[low]
            M[high] += (block.sum(axis=axis, keepdims=True) - block) / (c - 1)
    return np.moveaxis(M.reshape(d + 1, K, -1), 0, -1)


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


def _split_point(K, radices, max_entries=None) -> int:
    """Fewest leading variables m whose blocks leave a tail histogram table within memory."""
    max_entries = MAX_HIST_TABLE if max_entries is None else max_entries
    d = len(radices)
    for m in range(d + 1):
        tail = radices[m:]
        if K * int(np.prod(tail, dtype=np.float64)) * (len(tail) + 1) <= max_entries:
            return m
    return d


def training_histograms(states, counts, radices, max_entries=None) -> np.ndarray:
    """(u, K, d + 1) distance histograms at the distinct training states, in blocks.

    The variables are split into a head of m variables and a tail; the training states of one
    head value (a block) give, by :func:`dense_histograms` over the tail only, the histograms of
    every tail state, which are then shifted by the head distance to each training state and
    weighted by its head mismatch weights. Memory is bounded by ``max_entries`` whatever s; with
    m = 0 this is :func:`dense_histograms` itself.
    """
    radices = np.asarray(radices, dtype=np.int64)
    K, d = counts.shape[1], len(radices)
    m = _split_point(K, radices, max_entries)
    head, tail = radices[:m], radices[m:]
    codes = states_to_codes(states, radices)
    head_ids = state_ids(codes[:, :m], head)
    tail_ids = state_ids(codes[:, m:], tail)
    s_tail = int(np.prod(tail, dtype=np.int64)) if len(tail) else 1
    r = len(tail)
    log_w = np.log(head - 1.0) if m else np.zeros(0)
    out = np.zeros((len(states), K, d + 1))
    for block in np.unique(head_ids):
        members = head_ids == block
        hist = dense_histograms(dense_table(tail_ids[members], counts[members], s_tail), tail)
        gathered = hist[:, tail_ids, :].transpose(1, 0, 2)  # (u, K, r + 1)
        mismatch = codes[:, :m] != codes[np.flatnonzero(members)[0], :m]
        distance = mismatch.sum(axis=1)
        weight = np.exp(-(mismatch * log_w).sum(axis=1)) if m else np.ones(len(states))
        for D in np.unique(distance):
            rows = distance == D
            out[rows, :, D:D + r + 1] += weight[rows, None, None] * gathered[rows]
    return out


def loo_strategy(K, s, u, radices) -> str:
    """How the leave-one-out search gets the distance histograms at the u distinct training
    states, by rough operation counts: "histograms" (dense passes over all states, in blocks
    when the table would be large) or "pairwise" (distances between the training states).
    """
    d = len(radices)
    radices = np.asarray(radices, dtype=np.int64)
    m = _split_point(K, radices)
    n_blocks = min(float(np.prod(radices[:m], dtype=np.float64)), u)
    dense_cost = K * float(s) * (d + 1) * d / 2 + n_blocks * u * K * (d + 1)
    pair_cost = float(u) * u * (int(np.sum(radices)) + K)
    return "histograms" if dense_cost <= pair_cost else "pairwise"


def loo_objective(make_smoothed, counts, class_count, n_active):
    """The leave-one-out pseudo-log-likelihood sum_i log f_{k_i, -i}(x_i | lambda) as a function.

    ``make_smoothed(use)`` returns a function lambda -> S at the (distinct training state, class)
    cells selected by the boolean (u, K) mask ``use``, in ``counts[use]`` order. ``counts``
    (u, K) are the class weights of the distinct training states, read as frequencies: leaving
    one unit out removes weight min(N, 1) of its state (all of it when a state carries less
    than one unit) together with its self-kernel lambda^d. Units alone in their class have
    no leave-one-out density and are left out.

    Returns
    -------
    objective : callable lambda -> float (-inf where some held-out unit has density zero)
    defined : bool, False when no unit has a leave-one-out density
    """
    removed = np.minimum(counts, 1.0)
    denominator = class_count[None, :] - removed
    use = (counts > 0) & (denominator > 1e-12)
    weight, removed, log_den = counts[use], removed[use], np.log(denominator[use])
    smoothed = make_smoothed(use)

    def objective(lam):
        numerator = np.maximum(smoothed(lam) - removed * lam ** n_active, 0.0)
        with np.errstate(divide="ignore"):
            return float(np.sum(weight * (np.log(numerator) - log_den)))

    return objective, bool(use.any())


def choose_lambda(objective, lam_min: float, n_grid: int = 21):
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
