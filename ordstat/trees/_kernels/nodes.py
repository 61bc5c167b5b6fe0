"""Pieces shared by the compiled levels: a level's frame (segment starts, node totals and
weights), which nodes are searched, rpart's noise rule, a split's children in the node arrays,
which children may be split, and the threshold between two values.

The helpers called once per split are inlined (``forceinline``): a call would count a reference
to every array of the records it takes, in and out, which made the presorted levels slower."""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

__all__ = ["draw_keys", "level_frame", "node_weights", "passes_noise_rule", "worth_searching",
           "add_children", "may_split", "risk_above", "midpoint"]


@register_jitable
def draw_keys(rng, n_nodes, p, k):
    """The random keys (n_nodes, p) of the features of a level's nodes and the ``k``-th
    smallest of each node's (k = max_features - 1; the node draws the features whose keys are
    at most that), drawn from the numpy Generator ``rng`` as
    :meth:`ordstat.trees._splitter.Splitter.feature_keys` draws them (``rng.random((n_nodes,
    p))`` takes the doubles of the stream in this order), so that the compiled trees draw the
    level loop's features and leave ``rng`` in the same state. The k-th smallest is selected
    in the node's k + 1 smallest keys so far, kept sorted (most keys are above them: one
    comparison), not by sorting the node's keys (a fifth of a forest's time at p = 30)."""
    keys = np.empty((n_nodes, p))
    kth = np.empty(n_nodes)
    low = np.empty(k + 1)
    for s in range(n_nodes):
        n_low = 0
        for j in range(p):
            x = rng.random()
            keys[s, j] = x
            if n_low <= k:
                i = n_low
                n_low += 1
            elif x < low[k]:
                i = k
            else:
                continue
            while i > 0 and low[i - 1] > x:  # insert x, the largest dropped when full
                low[i] = low[i - 1]
                i -= 1
            low[i] = x
        kth[s] = low[k]
    return keys, kth


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
def worth_searching(size, total, min_bucket):
    """Whether a node of ``size`` rows and class totals ``total`` can have a cut of positive
    goodness: at least two ``min_bucket`` rows and two classes (every built-in criterion's
    goodness is 0 or -inf otherwise, which the node rule rejects)."""
    if size < max(2, 2 * min_bucket):
        return False
    n_classes = 0
    for g in range(total.shape[0]):
        if total[g] > 0.0:
            n_classes += 1
    return n_classes >= 2


@register_jitable(forceinline=True)
def add_children(tree, v, j, cut, best, missing, lc, u_left):
    """Split node v on ``x_j < cut`` (goodness ``best``; missing values: -1 none met, 0 right,
    1 left): append its two children to the node arrays ``tree`` (a
    :class:`ordstat.trees._node_arrays.NodeArrays`), the left one with class weights ``lc`` and
    ``u_left`` units; returns the left child's index (the right one follows)."""
    value, n_units, depth, number = tree.value, tree.n_units, tree.depth, tree.number
    kid = tree.count[0]
    tree.count[0] = kid + 2
    tree.left[v], tree.right[v] = kid, kid + 1
    tree.feature[v], tree.threshold[v], tree.goodness[v] = j, cut, best
    tree.missing[v] = missing
    for g in range(value.shape[1]):
        value[kid, g] = lc[g]
        value[kid + 1, g] = max(value[v, g] - lc[g], 0.0)
    n_units[kid], n_units[kid + 1] = u_left, n_units[v] - u_left
    depth[kid] = depth[kid + 1] = depth[v] + 1
    number[kid], number[kid + 1] = 2 * number[v], 2 * number[v] + 1
    return kid


@register_jitable(forceinline=True)
def may_split(n_units, depth, counts, rules):
    """Whether a node of ``n_units`` units at ``depth`` with class weights ``counts`` may be
    split under ``rules`` (a :class:`ordstat.trees._node_arrays.Rules`), as the builder's
    ``_searchable``: ``min_split`` units, below ``max_depth``, two ``min_bucket`` and a risk
    above alpha."""
    return (n_units >= rules.min_split and depth < rules.max_depth
            and n_units >= 2 * rules.min_bucket and risk_above(counts, rules.loss, rules.alpha))


@register_jitable(forceinline=True)
def risk_above(counts, loss, alpha):
    """Whether the risk of a node of class weights ``counts`` (the smallest over h of sum_g
    loss[h, g] counts[g], computed by :func:`ordstat.trees._tree._risks`) is above ``alpha <=
    0`` (the compiled levels' case), without summing it: with non-negative weights and losses
    the risk is >= 0, and it is 0 only when some h has a zero term for every class."""
    if alpha < 0.0:
        return True
    for h in range(loss.shape[0]):
        zero = True
        for g in range(counts.shape[0]):
            if counts[g] * loss[h, g] > 0.0:
                zero = False
        if zero:
            return False
    return True


@register_jitable
def midpoint(a, b):
    """The split threshold between consecutive sorted values a < b (as the splitter's)."""
    mid = (a + b) / 2.0
    return mid if a < mid else b

