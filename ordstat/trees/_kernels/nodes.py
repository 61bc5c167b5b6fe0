"""Pieces shared by the compiled levels: a level's frame (segment starts, node totals and
weights), rpart's noise rule, a split's children in the node arrays, the threshold between two
values and the node risk's sign."""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

__all__ = ["level_frame", "node_weights", "passes_noise_rule", "add_children", "midpoint",
           "node_risk"]


@register_jitable
def level_frame(sizes, nodes, value):
    """Each node's first position in the level's rows (segments of ``sizes``) and its class
    totals (rows of ``value``), for the level kernels."""
    S = nodes.shape[0]
    starts = np.empty(S, dtype=np.int64)
    a = 0
    for s in range(S):
        starts[s] = a
        a += sizes[s]
    totals = np.empty((S, value.shape[1]))
    for s in range(S):
        totals[s] = value[nodes[s]]
    return starts, totals


@register_jitable
def node_weights(totals):
    """Each node's total weight (its class totals summed in class order), for its scans."""
    weights = np.zeros(totals.shape[0])
    for s in range(totals.shape[0]):
        for g in range(totals.shape[1]):
            weights[s] += totals[s, g]
    return weights


@register_jitable
def passes_noise_rule(best, iscale):
    """Whether a node's best goodness makes a split: finite, and not rounding noise relative
    to the largest goodness seen so far (rpart's rule; ``iscale[0]``, updated here)."""
    if not np.isfinite(best):
        return False
    iscale[0] = max(iscale[0], best)
    return best > max(iscale[0] * 1e-10, 0.0)


@register_jitable
def add_children(v, j, cut, best, lc, u_left, count, value, n_units, left, right, feature,
                  threshold, goodness, depth, number):
    """Split node v on ``x_j < cut`` (goodness ``best``): append its two children to the node
    arrays, the left one with class weights ``lc`` and ``u_left`` units; returns the left
    child's index (the right one follows)."""
    kid = count[0]
    count[0] = kid + 2
    left[v], right[v] = kid, kid + 1
    feature[v], threshold[v], goodness[v] = j, cut, best
    for g in range(value.shape[1]):
        value[kid, g] = lc[g]
        value[kid + 1, g] = max(value[v, g] - lc[g], 0.0)
    n_units[kid], n_units[kid + 1] = u_left, n_units[v] - u_left
    depth[kid] = depth[kid + 1] = depth[v] + 1
    number[kid], number[kid + 1] = 2 * number[v], 2 * number[v] + 1
    return kid


@register_jitable
def midpoint(a, b):
    """The split threshold between consecutive sorted values a < b (as the splitter's)."""
    mid = (a + b) / 2.0
    return mid if a < mid else b




@register_jitable
def node_risk(counts, loss):
    """The node's risk: the smallest over h of sum_g loss[h, g] counts[g]. Only compared with
    alpha <= 0: a sum of non-negative terms is positive in any order of summation."""
    best = np.inf
    for h in range(loss.shape[0]):
        r = 0.0
        for g in range(counts.shape[0]):
            r += counts[g] * loss[h, g]
        best = min(best, r)
    return best
