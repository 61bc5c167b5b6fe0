"""Per-replica threshold search (oDT, dissertation section 4.3).

One function, vectorised over candidate cuts, replicas *and* attributes: the K-1 replicas see
the same attribute values but have their own binary labels and their own weights (a replica's
units in a node, or its boosting weights). The goodness comes from any criterion of the tree
package's registry (``ordstat.trees.criteria``), called on the stacked binary counts.
"""

from __future__ import annotations

import numpy as np

from ..trees.criteria import get_criterion

# at most this many (unit x attribute x replica) cells per block of attributes (memory bound)
_BLOCK_CELLS = 2_000_000


def replica_threshold_search(x, codes, weights, criterion="entropy", min_leaf=1.0):
    """Best threshold of each attribute for each of the K-1 binary replicas.

    Parameters
    ----------
    x : ndarray of shape (n,) or (n, p)
        Values of one attribute, or of p attributes (one search per column).
    codes : ndarray of shape (n,)
        Class codes 0..K-1; replica k's label is ``codes > k``.
    weights : ndarray of shape (n, K-1)
        Weight of each unit in each replica (0 = not in this replica's node). Units of weight 0
        in every replica are ignored (they create no cut points).
    criterion : str or callable
        A registered split criterion (count-scale goodness of a split, larger is better).
    min_leaf : float
        Both children of a replica's cut must hold at least this weight.

    Returns
    -------
    thresholds : ndarray of shape (K-1,) or (p, K-1)
        Cut points (midpoints between consecutive distinct values; ``x <= t`` goes left);
        ``+inf`` where the replica has no admissible cut with positive goodness.
    goodness : ndarray of the same shape
        The goodness of each chosen cut (0 where the threshold is infinite).
    """
    crit = get_criterion(criterion)
    x = np.asarray(x, dtype=np.float64)
    one = x.ndim == 1
    X = x[:, None] if one else x
    weights = np.asarray(weights, dtype=np.float64)
    used = weights.any(axis=1)
    if not used.all():
        X, codes, weights = X[used], np.asarray(codes)[used], weights[used]
    n, p = X.shape
    m = weights.shape[1]
    thresholds = np.full((p, m), np.inf)
    goodness = np.zeros((p, m))
    if n >= 2:
        step = max(1, _BLOCK_CELLS // max(1, n * m))
        for start in range(0, p, step):
            cols = slice(start, min(p, start + step))
            thresholds[cols], goodness[cols] = _search_block(X[:, cols], codes, weights, crit,
                                                             min_leaf)
    return (thresholds[0], goodness[0]) if one else (thresholds, goodness)


def _search_block(X, codes, weights, crit, min_leaf):
    n, p = X.shape
    m = weights.shape[1]
    order = np.argsort(X, axis=0, kind="stable")
    xs = np.take_along_axis(X, order, axis=0)  # (n, p)
    ws = weights[order]  # (n, p, m)
    pos = codes[order][..., None] > np.arange(m)  # (n, p, m)
    cum_pos = np.cumsum(np.where(pos, ws, 0.0), axis=0)
    cum_all = np.cumsum(ws, axis=0)
    # a cut between sorted positions i and i+1 exists only where the value changes
    valid = xs[1:] > xs[:-1]  # (n-1, p)
    left_pos, left_all = cum_pos[:-1], cum_all[:-1]
    tot_pos, tot_all = cum_pos[-1], cum_all[-1]  # (p, m)
    left = np.stack([left_all - left_pos, left_pos], axis=-1).reshape(-1, 2)
    right = np.stack([(tot_all - tot_pos) - (left_all - left_pos), tot_pos - left_pos],
                     axis=-1).reshape(-1, 2)
    good = np.asarray(crit(left, right), dtype=np.float64).reshape(n - 1, p, m)
    ok = valid[..., None] & (left_all >= min_leaf) & (tot_all - left_all >= min_leaf) \
        & (good > 1e-12)
    good = np.where(ok, good, -np.inf)
    best = np.argmax(good, axis=0)  # (p, m), first best position
    best_good = np.take_along_axis(good, best[None], axis=0)[0]
    found = np.isfinite(best_good)
    mids = 0.5 * (xs[:-1] + xs[1:])  # (n-1, p)
    thr = np.where(found, mids[best, np.arange(p)[:, None]], np.inf)
    return thr, np.where(found, best_good, 0.0)
