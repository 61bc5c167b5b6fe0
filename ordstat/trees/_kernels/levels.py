"""Compiled levels of trees that sort each node's drawn features (forests): one call per tree,
level after level (see "Compiled levels" in docs/trees_engine.md)."""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from .._records import Level
from .cache import jit, per_criterion
from .categorical import make_category_cut
from .nodes import (add_children, draw_keys, level_frame, may_split, midpoint, node_weights,
                    passes_noise_rule, worth_searching)
from .scan import criterion_version, level_search_function, make_scan, sorted_values
from .sort import node_sort, sort_segment

__all__ = ["make_level_grow", "SMALL_NODE"]

# Nodes of fewer units than this (and no missing values) are searched node by node: their
# units' class codes and weights are read once into small buffers that every drawn feature's
# sort reuses, instead of once per feature from the whole sample's arrays (a cache miss per
# unit and feature in the deep levels of a tree of 10^6 rows, where the units of a node lie
# far apart). Larger nodes are sorted one drawn feature at a time across the level.
SMALL_NODE = 8192
# A node's feature whose units' keys span at most this many ranks (item scores, counts) is
# searched by its per-value class counts, without sorting, when the criterion's sums are exact
# (``Criterion.exact_sums``) on the node's whole weights and parameter: O(units + values x
# classes) instead of a sort and a gain after every unit. Small and large nodes alike.
FEW_VALUES = 64
# ... where the node has at least one unit per this many (value, class) cells of the counts;
# below (many classes, few units), and from COUNT_MIN_UNITS units, its units are sorted by
# counting their values instead (O(units + values)), any order of tied units giving the same
# exact sums ...
VALUE_CELLS_PER_UNIT = 8
COUNT_MIN_UNITS = 16
# ... and at most this node weight (and parameter values up to 2^10): the scans' states (sums
# of squares of the children's weights times the parameter) then stay whole numbers below 2^53
EXACT_WEIGHT = 2.0 ** 16


def make_level_grow(start, add, gain, exact_sums=False, categorical=False):
    """Compile the forests' tree growth around a criterion's level search
    (:func:`ordstat.trees._kernels.scan.level_search_function`; see "compiled levels" in
    :mod:`ordstat.trees._grow`): the returned ``tree_grow`` grows a tree level after level
    in one call, without the GIL, each level grown by ``level_grow``.

    ``level_grow(sample, rules, tree, level, keys, kth, out)`` does for the nodes
    of a level what the level loop of the builder does with
    :class:`ordstat.trees._splitter.Splitter`. Its arguments are records (named tuples) of
    :mod:`ordstat.trees._node_arrays`: ``sample``
    (:class:`~ordstat.trees._node_arrays.SortedSample`) the features ``X`` (n, p: as given,
    no transposed copy), what the units are sorted by
    (``sort_by``, (p, n): the features' ranks, which order the units as their values do,
    :func:`ordstat.trees._prepared.rank_keys`), ``neg_by`` (the ranks of -x, or no rows
    without missing values), the class codes, weights ``w`` and
    repeat counts ``rep`` of the units; ``rules`` (:class:`~ordstat.trees._node_arrays.Rules`) the
    controls; ``tree`` (:class:`~ordstat.trees._node_arrays.NodeArrays`) the node arrays; ``level``
    (:class:`~ordstat.trees._records.Level`) the level's units (``rows``), node after node (node
    ``nodes[s]`` in a segment of ``sizes[s]`` rows, each row ``rep`` units).

    For each node it takes the ``rules.n_drawn`` features whose random ``keys`` are at most
    the node's ``kth``, sorts the node's units by each of them and searches them with the
    level search (and, where a node has missing values on a drawn feature, sorts and searches
    ``-x`` for "missing left", kept when strictly better; with ``categorical``, an unordered
    categorical feature, ``sample.cat_sizes`` > 0, unsorted, by
    :func:`~ordstat.trees._kernels.categorical.make_category_cut`, its categories sent left
    written in ``tree.categories``), keeps the first best feature if its
    goodness passes rpart's noise rule, sends the units left or right and appends the two
    children to the node arrays. It writes the next level into ``out`` (a ``Level`` of
    buffers): the units of the children that may be split, their segment sizes and node ids,
    in child order (left, right, ...), and returns their numbers of nodes and units. (It
    returns no array: a cached kernel that returns one fails when the cache was written under
    another numpy, as when the R package's Python shares the source tree.)

    ``categorical``: the kernel of trees with unordered categorical features, a kernel of its
    own. Without it every use of the categorical search sits in a branch on this constant,
    which numba removes before typing: the kernel of numeric features compiles none of it
    (the categorical search doubled the compile time of a criterion's numeric kernels).
    """
    level_search = level_search_function(start, add, gain)
    version = criterion_version(start, add, gain)
    scan_tied = make_scan(start, add, gain, sorted_values, True, version)
    scan_free = make_scan(start, add, gain, sorted_values, False, version)
    category_cut = make_category_cut(start, add, gain, version)
    goes_left = _goes_left_categorical if categorical else _goes_left
    # other kernels: their names say so (per_criterion keeps 16 characters)
    if exact_sums:
        version = "x" + version
    if categorical:
        version = "c" + version

    @register_jitable
    @per_criterion(version)
    def _value_scan(xs, ys, ws, a, m, lo, n_values, vw, vn, vu, total, n, min_bucket, param,
                    work):
        """The scan of a node's feature by its values: the units' keys ``xs[a:a + m]`` (ranks
        ``lo .. lo + n_values - 1``), class codes ``ys`` and whole weights ``ws`` counted per
        value, then the values joining the left child one after another (each its classes'
        weights at once). The cuts and states are those of the scan over the sorted units
        (exact sums: see ``Criterion.exact_sums``), so the same goodness; returns it with the
        values left and right of the best cut (-inf, -1, -1 without an admissible cut); ``vu``
        then holds each value's first unit (its position from ``a``)."""
        vw[:n_values] = 0.0
        vn[:n_values] = 0
        vu[:n_values] = -1
        for i in range(m):
            v = xs[a + i] - lo
            vw[v, ys[a + i]] += ws[a + i]
            vn[v] += 1
            if vu[v] < 0:
                vu[v] = i
        state = start(total, param, work)
        nl = 0.0
        rows = 0
        best, best_v, last = -np.inf, -1, -1
        for v in range(n_values):
            if vn[v] == 0:
                continue
            if last >= 0 and rows >= min_bucket and m - rows >= min_bucket:
                g = gain(state, total, param, nl, n)  # the cut between value last and v
                if g > best:
                    best, best_v = g, last
            for c in range(vw.shape[1]):
                if vw[v, c] != 0.0:
                    state = add(state, total, param, c, vw[v, c])
                    nl += vw[v, c]
            rows += vn[v]
            last = v
        if best_v < 0:
            return best, -1, -1
        nxt = best_v + 1
        while vn[nxt] == 0:
            nxt += 1
        return best, best_v, nxt

    @register_jitable
    @per_criterion(version)
    def categories(sample, units, a, size, j, total, n, rules, work, cats):
        """The best cut (:func:`~ordstat.trees._kernels.categorical.make_category_cut`) of
        the categorical feature j in the node of the units at ``a .. a + size`` (in any
        order: each category's class weights summed over them), its categories sent left in
        ``cats[-1]``."""
        counts, n_units, buf, seq, sent = cats
        n_cat = sample.cat_sizes[j]
        counts[:n_cat] = 0.0
        n_units[:n_cat] = 0
        for i in range(a, a + size):
            u = units[i]
            c = np.int64(sample.X[u, j])
            counts[c, sample.codes[u]] += sample.w[u]
            n_units[c] += 1
        return category_cut(counts, n_units, n_cat, total, n, size, rules.min_bucket,
                            rules.param, rules.subsets, work, buf, seq, sent)

    @register_jitable
    @per_criterion(version)
    def small_search(SK, X, codes, w, units, starts, sizes, totals, feats, small, cat_sizes,
                     min_bucket, param, good, thr, cutkey):
        """The search of the small nodes of a level (no missing values), node by node: each
        drawn feature's keys sorted as :func:`~ordstat.trees._kernels.sort.node_sort` sorts
        them (the same permutation, so the same trees), the codes and weights taken from the
        node's buffers; a feature of few values counted by value where that pays, and on
        mostly tied keys the scan that evaluates the gain only where a cut may follow (the
        same best cut)."""
        R, S = feats.shape
        lys = np.empty(SMALL_NODE, dtype=np.int64)  # the node's codes and weights, in its order
        lws = np.empty(SMALL_NODE)
        xs = np.empty(SMALL_NODE, dtype=SK.dtype)  # one feature's sorted keys, codes, weights
        ys = np.empty(SMALL_NODE, dtype=np.int64)
        ws = np.empty(SMALL_NODE)
        at = np.empty(SMALL_NODE, dtype=np.int64)  # their positions in the node's order
        work = np.empty((4, totals.shape[1]))  # the scans' state arrays
        weights = node_weights(totals)
        K = totals.shape[1]
        # the per-value class weights, unit counts and first unit of a feature (few values)
        vw = np.empty((FEW_VALUES, K) if exact_sums else (0, K))
        vn = np.empty(FEW_VALUES if exact_sums else 0, dtype=np.int64)
        vu = np.empty(FEW_VALUES if exact_sums else 0, dtype=np.int64)
        exact_param = exact_sums and _whole(param.ravel(), 1024.0)
        for s in range(S):
            if not small[s] or feats[0, s] < 0:
                continue
            a, m = starts[s], sizes[s]
            for i in range(m):
                u = units[a + i]
                lys[i] = codes[u]
                lws[i] = w[u]
            by_value = exact_param and m >= COUNT_MIN_UNITS and weights[s] <= EXACT_WEIGHT \
                and _whole(lws[:m], EXACT_WEIGHT)
            for r in range(R):
                j = feats[r, s]
                good[r, s] = -np.inf
                if j < 0 or (categorical and cat_sizes[j] > 0):  # (searched after)
                    continue
                lo, hi = SK[j, units[a]], SK[j, units[a]]
                for i in range(m):
                    x = SK[j, units[a + i]]
                    xs[i] = x
                    at[i] = i
                    lo = min(lo, x)
                    hi = max(hi, x)
                if by_value and _counts_pay(m, hi - lo + 1, K):
                    g, b1, b2 = _value_scan(xs, lys, lws, 0, m, lo, hi - lo + 1, vw, vn, vu,
                                            totals[s], weights[s], min_bucket, param, work)
                    good[r, s] = g
                    if b1 >= 0:
                        ua, ub = units[a + vu[b1]], units[a + vu[b2]]
                        thr[r, s] = midpoint(X[ua, j], X[ub, j])
                        cutkey[r, s] = SK[j, ub]
                    continue
                if by_value and hi - lo < FEW_VALUES:
                    _counting_sort(xs, at, m, lo, hi - lo + 1, vn)
                else:
                    sort_segment(xs, at, 0, m)
                for i in range(m):
                    ys[i] = lys[at[i]]
                    ws[i] = lws[at[i]]
                # mostly tied keys (a value per two units or fewer): the gain only where a cut
                # may follow (the same best cut)
                args = ((xs, ys, ws), 0, m, totals[s], weights[s], min_bucket, param, work)
                g, t = scan_tied(*args) if 2 * (hi - lo + 1) <= m else scan_free(*args)
                good[r, s] = g
                if t >= 0:
                    ua, ub = units[a + at[t]], units[a + at[t + 1]]
                    thr[r, s] = midpoint(X[ua, j], X[ub, j])
                    cutkey[r, s] = SK[j, ub]

    @register_jitable
    @per_criterion(version)
    def _large_by_value(SK, X, codes, w, units, a, m, j, o_xs, o_ys, o_ws, ready, s, vw, vn, vu,
                        total, weight, min_bucket, param, work, good, thr, cutkey):
        """The search of feature j in the large node s (its units ``units[a:a + m]``) by its
        per-value class counts where it spans few ranks there (:func:`_value_scan`, the
        node's keys, codes and weights gathered at ``a`` of the level's buffers ``o_xs``,
        ``o_ys``, ``o_ws``; the codes and weights once per node, ``ready``): writes
        ``good[s]``, ``thr[s]``, ``cutkey[s]`` and returns True; else False (sort it)."""
        lo = hi = SK[j, units[a]]
        for i in range(a, a + m):
            x = SK[j, units[i]]
            o_xs[i] = x
            lo = min(lo, x)
            hi = max(hi, x)
        if not _counts_pay(m, hi - lo + 1, total.shape[0]):
            return False
        if not ready[s]:
            for i in range(a, a + m):
                u = units[i]
                o_ys[i] = codes[u]
                o_ws[i] = w[u]
            ready[s] = True
        g, b1, b2 = _value_scan(o_xs, o_ys, o_ws, a, m, lo, hi - lo + 1, vw, vn, vu, total,
                                weight, min_bucket, param, work)
        good[s] = g
        if b1 >= 0:
            ua, ub = units[a + vu[b1]], units[a + vu[b2]]
            thr[s] = midpoint(X[ua, j], X[ub, j])
            cutkey[s] = SK[j, ub]
        return True

    @jit
    @per_criterion(version)
    def level_grow(sample, rules, tree, level, keys, kth, out):
        X, SK, negSK, codes, w, rep, cat_sizes = sample
        units, sizes, nodes = level
        R = rules.n_drawn
        min_bucket, param = rules.min_bucket, rules.param
        S = nodes.shape[0]
        p = X.shape[1]
        K = tree.value.shape[1]
        M = units.shape[0]
        starts, totals = level_frame(sizes, nodes, tree.value)
        # the R features drawn in each node (keys <= kth), in increasing order; -1 in the
        # nodes searched in vain: fewer than two min_bucket rows, or pure (every built-in
        # criterion's goodness is 0 there, which the node rule rejects)
        feats = np.full((R, S), -1, dtype=np.int64)
        todo = np.zeros((R, S), dtype=np.bool_)
        for s in range(S):
            if not worth_searching(sizes[s], totals[s], min_bucket):
                continue
            r = 0
            for j in range(p):
                if keys[s, j] <= kth[s]:
                    feats[r, s] = j
                    todo[r, s] = True
                    r += 1
        good = np.full((R, S), -np.inf)
        thr = np.full((R, S), np.nan)
        # the sort key of the first unit right of each cut: x < thr exactly where the unit's
        # rank is below it (the threshold lies in (x_t, x_t+1], a missing value's rank is
        # never below), so the units are sent by their ranks (rows of 4 bytes)
        cutkey = np.zeros((R, S), dtype=SK.dtype)
        # missing values: NaN sort last; search -x where a node has some on a drawn feature
        nan = np.zeros((R, S), dtype=np.bool_)
        ml = np.zeros((R, S), dtype=np.bool_)
        # the small nodes (see SMALL_NODE) are searched node by node after the others
        small = np.zeros(S, dtype=np.bool_)
        n_large = 0
        for s in range(S):
            small[s] = negSK.shape[0] == 0 and sizes[s] < SMALL_NODE
            n_large += feats[0, s] >= 0 and not small[s]
        # the large nodes, one drawn feature at a time (each (feature, node) is searched on its
        # own): the sorted copies of a level are (1, M), not (R, M) (70 MB at the root of a
        # tree of 10^6 rows drawing 4 features)
        f1 = np.empty((1, S), dtype=np.int64)
        t1 = np.empty((1, S), dtype=np.bool_)
        g1 = np.empty((1, S))
        p1 = np.empty((1, S), dtype=np.int64)
        width = M if n_large else 0
        # (units as int32: trees of fewer than 2^31 rows, see _grow._growth)
        o_order = np.empty((1, width), dtype=np.int32)
        o_xs = np.empty((1, width), dtype=SK.dtype)
        o_ys = np.empty((1, width), dtype=np.int64)
        o_ws = np.empty((1, width))
        # the large nodes whose features of few values are counted by value (see FEW_VALUES;
        # no missing values), and those whose codes and weights are in o_ys, o_ws (node_sort
        # writes over them where it sorts the node)
        counted = np.zeros(S, dtype=np.bool_)
        ready = np.zeros(S, dtype=np.bool_)
        weights = node_weights(totals)
        exact = exact_sums and n_large > 0 and negSK.shape[0] == 0 and _whole(param.ravel(), 1024.0)
        for s in range(S if exact else 0):
            counted[s] = feats[0, s] >= 0 and not small[s] and weights[s] <= EXACT_WEIGHT \
                and _whole_units(w, units, starts[s], sizes[s], EXACT_WEIGHT)
        vw = np.empty((FEW_VALUES, K) if exact_sums else (0, K))
        vn = np.empty(FEW_VALUES if exact_sums else 0, dtype=np.int64)
        vu = np.empty(FEW_VALUES if exact_sums else 0, dtype=np.int64)
        work = np.empty((4, K))
        for r in range(R if n_large else 0):
            for s in range(S):
                j = feats[r, s]
                if categorical and j >= 0 and cat_sizes[j] > 0:  # (searched after)
                    j = -1
                f1[0, s] = -1 if small[s] else j
                t1[0, s] = todo[r, s] and j >= 0 and not small[s]
                if t1[0, s] and counted[s] and _large_by_value(
                        SK, X, codes, w, units, starts[s], sizes[s], j, o_xs[0],
                        o_ys[0], o_ws[0], ready, s, vw, vn, vu, totals[s], weights[s],
                        min_bucket, param, work, good[r], thr[r], cutkey[r]):
                    f1[0, s] = -1
                    t1[0, s] = False
            node_sort(SK, codes, w, units, starts, sizes, f1, o_order, o_xs, o_ys, o_ws)
            level_search(o_xs, o_ys, o_ws, starts, sizes, totals, min_bucket, param, t1, g1,
                         p1)
            for s in range(S):
                if small[s] or f1[0, s] < 0:  # (counted by value, or not searched)
                    continue
                ready[s] = False
                good[r, s] = g1[0, s]
                t = p1[0, s]
                if t >= 0:
                    j = feats[r, s]
                    thr[r, s] = midpoint(X[o_order[0, t], j], X[o_order[0, t + 1], j])
                    cutkey[r, s] = SK[j, o_order[0, t + 1]]
            if negSK.shape[0] == 0:
                continue
            any_nan = False
            for s in range(S):
                f1[0, s] = -1
                t1[0, s] = False
                # (a categorical feature: not sorted above, and no missing value)
                if not todo[r, s] or (categorical and cat_sizes[feats[r, s]] > 0):
                    continue
                if X[o_order[0, starts[s] + sizes[s] - 1], feats[r, s]] != \
                        X[o_order[0, starts[s] + sizes[s] - 1], feats[r, s]]:
                    nan[r, s] = True
                    f1[0, s] = feats[r, s]
                    t1[0, s] = True
                    any_nan = True
            if not any_nan:
                continue
            node_sort(negSK, codes, w, units, starts, sizes, f1, o_order, o_xs, o_ys, o_ws)
            level_search(o_xs, o_ys, o_ws, starts, sizes, totals, min_bucket, param, t1, g1,
                         p1)
            for s in range(S):
                t = p1[0, s]
                if nan[r, s] and t >= 0 and g1[0, s] > good[r, s]:
                    good[r, s] = g1[0, s]
                    # the cut between the units at t and t + 1 (in decreasing x)
                    j = feats[r, s]
                    thr[r, s] = midpoint(X[o_order[0, t + 1], j], X[o_order[0, t], j])
                    ml[r, s] = True
        small_search(SK, X, codes, w, units, starts, sizes, totals, feats, small, cat_sizes,
                     min_bucket, param, good, thr, cutkey)
        C = tree.categories.shape[1]  # (0 without categorical features)
        if categorical:
            cats = (np.empty((C, K)), np.empty(C, dtype=np.int64), np.empty((3, max(C, K))),
                    np.empty(C, dtype=np.int64), np.empty(C, dtype=np.bool_))
            work = np.empty((4, K))  # the scans' state arrays
            weights = node_weights(totals)
            for s in range(S):
                for r in range(R):
                    j = feats[r, s]
                    if todo[r, s] and cat_sizes[j] > 0:
                        good[r, s] = categories(sample, units, starts[s], sizes[s], j,
                                                totals[s], weights[s], rules, work, cats)
        n_next = 0
        m_next = 0
        lc = np.empty(K)
        for s in range(S):
            best = -np.inf
            br = -1
            for r in range(R):
                if good[r, s] > best:
                    best = good[r, s]
                    br = r
            if not passes_noise_rule(best, tree.iscale):
                continue
            v = nodes[s]
            j = feats[br, s]
            cut = thr[br, s]
            go_nan = ml[br, s]
            key = cutkey[br, s]
            sent = tree.categories[v]  # (no column without categorical features)
            if categorical and cat_sizes[j] > 0:  # the categories sent left, again
                categories(sample, units, starts[s], sizes[s], j, totals[s], weights[s], rules,
                           work, cats)
                for c in range(C):
                    sent[c] = c < cat_sizes[j] and cats[-1][c]
            lc[:] = 0.0
            rows_left = 0
            u_left = 0
            for i in range(starts[s], starts[s] + sizes[s]):
                u = units[i]
                go = goes_left(X, SK, u, j, go_nan, cut, key, cat_sizes, sent)
                if go:
                    lc[codes[u]] += w[u]
                    rows_left += 1
                    u_left += rep[u]
            kid = add_children(tree, v, j, cut, best, (1 if go_nan else 0) if nan[br, s] else -1,
                               lc, u_left)
            # the children that may be split, each with its units in their order here
            for c, side, rows in ((kid, True, rows_left), (kid + 1, False, sizes[s] - rows_left)):
                if not may_split(tree.n_units[c], tree.depth[c], tree.value[c], rules):
                    continue
                out.nodes[n_next], out.sizes[n_next] = c, rows
                n_next += 1
                for i in range(starts[s], starts[s] + sizes[s]):
                    u = units[i]
                    if goes_left(X, SK, u, j, go_nan, cut, key, cat_sizes, sent) == side:
                        out.rows[m_next] = u
                        m_next += 1
        return n_next, m_next

    @jit
    @per_criterion(version, "tree")
    def tree_grow(sample, rules, tree, cur, nxt, n_nodes, n_rows, rng, k):
        """The levels of a tree, one :func:`level_grow` after another, from the level of
        ``n_nodes`` nodes and ``n_rows`` rows in ``cur`` (a ``Level`` of buffers; ``nxt``
        the other one, the two swapped after each level), drawing each level's features from
        the Generator ``rng`` (``k``: max_features - 1, or -1 for every feature), as long as
        the node arrays have room for the level's children (:func:`ordstat.trees._node_arrays._room`
        makes more between calls). Returns the numbers of nodes and rows of the level left
        (0 when the tree is grown) and whether it is in ``nxt``."""
        p = sample[0].shape[1]
        swapped = False
        while n_nodes > 0 and tree.count[0] + 2 * n_nodes <= tree.left.shape[0]:
            if k >= 0:
                keys, kth = draw_keys(rng, n_nodes, p, k)
            else:  # every key <= kth
                keys, kth = np.zeros((n_nodes, p)), np.zeros(n_nodes)
            a, b = (nxt, cur) if swapped else (cur, nxt)
            level = Level(a.rows[:n_rows], a.sizes[:n_nodes], a.nodes[:n_nodes])
            n_nodes, n_rows = level_grow(sample, rules, tree, level, keys, kth, b)
            swapped = not swapped
        return n_nodes, n_rows, swapped

    return tree_grow


@register_jitable
def _counting_sort(xs, at, m, lo, n_values, count):
    """Sort the keys ``xs[:m]`` (``lo .. lo + n_values - 1``) by counting them, ``at[:m]``
    their positions before (stable; ``count``: scratch of ``n_values``)."""
    count[:n_values] = 0
    for i in range(m):
        count[xs[i] - lo] += 1
    a = 0
    for v in range(n_values):
        c = count[v]
        count[v] = a
        a += c
    for i in range(m):
        v = xs[i] - lo
        at[count[v]] = i
        count[v] += 1
    i = 0
    for v in range(n_values):  # count[v]: the end of value v's units
        while i < count[v]:
            xs[i] = lo + v
            i += 1


@register_jitable(forceinline=True)
def _counts_pay(m, n_values, K):
    """Whether a node of ``m`` units whose feature spans ``n_values`` ranks is searched by its
    per-value class counts (see ``FEW_VALUES``)."""
    return n_values <= FEW_VALUES and m * VALUE_CELLS_PER_UNIT >= n_values * K


@register_jitable
def _whole_units(w, units, a, m, bound):
    """Whether the weight ``w[u]`` of every unit ``u`` of ``units[a:a + m]`` is a whole number
    in [-bound, bound]."""
    for i in range(a, a + m):
        v = w[units[i]]
        if v != np.floor(v) or abs(v) > bound:
            return False
    return True


@register_jitable
def _whole(a, bound):
    """Whether every value of ``a`` is a whole number in [-bound, bound]."""
    for v in a:
        if v != np.floor(v) or abs(v) > bound:
            return False
    return True


@register_jitable(forceinline=True)
def _goes_left(X, SK, u, j, go_nan, cut, key, cat_sizes, sent):
    """Whether unit u goes left on ``x_j < cut``: by its sort key (below the cut's ``key``:
    see ``cutkey``) unless the missing values go left (a cut found on -x), then by its
    value (``cat_sizes`` and ``sent``: see :func:`_goes_left_categorical`)."""
    if go_nan:
        x = X[u, j]
        return True if x != x else x < cut
    return SK[j, u] < key


@register_jitable(forceinline=True)
def _goes_left_categorical(X, SK, u, j, go_nan, cut, key, cat_sizes, sent):
    """:func:`_goes_left` where feature j may be categorical (``cat_sizes[j]`` > 0): then
    whether unit u's category is ``sent`` left."""
    if cat_sizes[j] > 0:
        return sent[np.int64(X[u, j])]
    return _goes_left(X, SK, u, j, go_nan, cut, key, cat_sizes, sent)
