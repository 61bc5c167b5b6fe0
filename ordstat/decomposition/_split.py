"""Per-replica threshold search on one attribute (oDT, dissertation section 4.3).

One function, vectorised over candidates *and* replicas: the K-1 replicas see the same attribute
values but have their own binary labels and their own weights (a replica's units in a node, or
its boosting weights). The goodness comes from any criterion of the tree package's registry
(``ordstat.trees.criteria``), called once on the stacked (candidates x replicas) binary counts.
"""

from __future__ import annotations

import numpy as np

from ..trees.criteria import get_criterion


def replica_threshold_search(x, codes, weights, criterion="entropy", min_leaf=1.0):
    """Best threshold of one attribute for each of the K-1 binary replicas.

    Parameters
    ----------
    x : ndarray of shape (n,)
        Attribute values.
    codes : ndarray of shape (n,)
        Class codes 0..K-1; replica k's label is ``codes > k``.
    weights : ndarray of shape (n, K-1)
        Weight of each unit in each replica (0 = not in this replica's node).
    criterion : str or callable
        A registered split criterion (count-scale goodness of a split, larger is better).
    min_leaf : float
        Both children of a replica's cut must hold at least this weight.

    Returns
    -------
    thresholds : ndarray of shape (K-1,)
        Cut points (midpoints between consecutive distinct values; ``x <= t`` goes left);
        ``+inf`` where the replica has no admissible cut with positive goodness.
    goodness : ndarray of shape (K-1,)
        The goodness of each chosen cut (0 where the threshold is infinite).
    """
    crit = get_criterion(criterion)
    m = weights.shape[1]
    used = weights.any(axis=1)  # units of weight 0 everywhere must not create cut points
    if not used.all():
        x, codes, weights = x[used], codes[used], weights[used]
    order = np.argsort(x, kind="stable")
    xs = x[order]
    ws = weights[order]
    pos = codes[order][:, None] > np.arange(m)[None, :]
    # cumulative weighted counts of the negative / positive class per replica, (n, m)
    cum_pos = np.cumsum(np.where(pos, ws, 0.0), axis=0)
    cum_all = np.cumsum(ws, axis=0)
    # a cut between positions i and i+1 exists only where the value changes
    cut = np.flatnonzero(xs[1:] > xs[:-1])
    thresholds = np.full(m, np.inf)
    goodness = np.zeros(m)
    if cut.size == 0:
        return thresholds, goodness
    left_pos = cum_pos[cut]
    left_all = cum_all[cut]
    tot_pos = cum_pos[-1]
    tot_all = cum_all[-1]
    left = np.stack([left_all - left_pos, left_pos], axis=-1)  # (c, m, 2)
    right = np.stack([(tot_all - tot_pos) - (left_all - left_pos), tot_pos - left_pos], axis=-1)
    c = cut.size
    good = np.asarray(crit(left.reshape(c * m, 2), right.reshape(c * m, 2)),
                      dtype=np.float64).reshape(c, m)
    ok = (left_all >= min_leaf) & (tot_all - left_all >= min_leaf) & (good > 1e-12)
    good = np.where(ok, good, -np.inf)
    best = np.argmax(good, axis=0)
    best_good = good[best, np.arange(m)]
    found = np.isfinite(best_good)
    mids = 0.5 * (xs[cut] + xs[cut + 1])
    thresholds[found] = mids[best[found]]
    goodness[found] = best_good[found]
    return thresholds, goodness
