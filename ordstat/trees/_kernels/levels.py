"""Compiled levels of trees that sort each node's drawn features (forests): one call per level
(see "compiled levels" in :mod:`ordstat.trees._grow`)."""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from .cache import jit, per_criterion
from .nodes import (add_children, level_frame, may_split, midpoint, passes_noise_rule,
                    worth_searching)
from .scan import criterion_version, level_search_function
from .sort import node_sort

__all__ = ["make_level_grow"]


def make_level_grow(start, add, gain):
    """Compile one level of the forests' tree growth around a criterion's level search
    (:func:`ordstat.trees._kernels.scan.level_search_function`; see "compiled levels" in
    :mod:`ordstat.trees._grow`).

    The returned ``level_grow(sample, rules, tree, level, keys, kth, out)`` does for the nodes
    of a level what the level loop of the builder does with
    :class:`ordstat.trees._splitter.Splitter`. Its arguments are records (named tuples) of
    :mod:`ordstat.trees._grow`: ``sample`` (:class:`~ordstat.trees._grow.SortedSample`) the
    features ``X`` (n, p: as given, no transposed copy), what the units are sorted by
    (``sort_by``, (p, n): the transposed features ``XT`` or, without missing values, the
    features' ranks, which order the units as their values do),
    ``negXT`` (-XT, or no rows without missing values), the class codes, weights ``w`` and
    repeat counts ``rep`` of the units; ``rules`` (:class:`~ordstat.trees._grow.Rules`) the
    controls; ``tree`` (:class:`~ordstat.trees._grow.NodeArrays`) the node arrays; ``level``
    (:class:`~ordstat.trees._grow.Level`) the level's units (``rows``), node after node (node
    ``nodes[s]`` in a segment of ``sizes[s]`` rows, each row ``rep`` units).

    For each node it takes the ``rules.n_drawn`` features whose random ``keys`` are at most
    the node's ``kth``, sorts the node's units by each of them and searches them with the
    level search (and, where a node has missing values on a drawn feature, sorts and searches
    ``-x`` for "missing left", kept when strictly better), keeps the first best feature if its
    goodness passes rpart's noise rule, sends the units left or right and appends the two
    children to the node arrays. It writes the next level into ``out`` (a ``Level`` of
    buffers): the units of the children that may be split, their segment sizes and node ids,
    in child order (left, right, ...), and returns their numbers of nodes and units. (It
    returns no array: a cached kernel that returns one fails when the cache was written under
    another numpy, as when the R package's Python shares the source tree.)
    """
    level_search = level_search_function(start, add, gain)
    version = criterion_version(start, add, gain)

    @jit
    @per_criterion(version)
    def level_grow(sample, rules, tree, level, keys, kth, out):
        X, SK, negXT, codes, w, rep = sample
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
        good = np.empty((R, S))
        thr = np.full((R, S), np.nan)
        # the sort key of the first unit right of each cut: x < thr exactly where the unit's
        # key is below it (values are sorted, the threshold lies in (x_t, x_t+1], NaN is never
        # below), so the units are sent by their keys (rows of 4 bytes with ranks)
        cutkey = np.zeros((R, S), dtype=SK.dtype)
        # missing values: NaN sort last; search -x where a node has some on a drawn feature
        nan = np.zeros((R, S), dtype=np.bool_)
        ml = np.zeros((R, S), dtype=np.bool_)
        # one drawn feature at a time (each (feature, node) is searched on its own): the
        # sorted copies of a level are (1, M), not (R, M) (70 MB at the root of a tree of
        # 10^6 rows drawing 4 features)
        f1 = np.empty((1, S), dtype=np.int64)
        t1 = np.empty((1, S), dtype=np.bool_)
        g1 = np.empty((1, S))
        p1 = np.empty((1, S), dtype=np.int64)
        o_order = np.empty((1, M), dtype=np.int64)
        o_xs = np.empty((1, M), dtype=SK.dtype)
        o_ys = np.empty((1, M), dtype=np.int64)
        o_ws = np.empty((1, M))
        m_xs = np.empty((1, 0))
        for r in range(R):
            f1[0] = feats[r]
            t1[0] = todo[r]
            node_sort(SK, codes, w, units, starts, sizes, f1, o_order, o_xs, o_ys, o_ws)
            level_search(o_xs, o_ys, o_ws, starts, sizes, totals, min_bucket, param, t1, g1,
                         p1)
            for s in range(S):
                good[r, s] = g1[0, s]
                t = p1[0, s]
                if t >= 0:
                    j = feats[r, s]
                    thr[r, s] = midpoint(X[o_order[0, t], j], X[o_order[0, t + 1], j])
                    cutkey[r, s] = SK[j, o_order[0, t + 1]]
            if negXT.shape[0] == 0:
                continue
            any_nan = False
            for s in range(S):
                f1[0, s] = -1
                t1[0, s] = False
                if todo[r, s] and X[o_order[0, starts[s] + sizes[s] - 1], feats[r, s]] != \
                        X[o_order[0, starts[s] + sizes[s] - 1], feats[r, s]]:
                    nan[r, s] = True
                    f1[0, s] = feats[r, s]
                    t1[0, s] = True
                    any_nan = True
            if not any_nan:
                continue
            if m_xs.shape[1] != M:
                m_xs = np.empty((1, M))
            node_sort(negXT, codes, w, units, starts, sizes, f1, o_order, m_xs, o_ys, o_ws)
            level_search(m_xs, o_ys, o_ws, starts, sizes, totals, min_bucket, param, t1, g1,
                         p1)
            for s in range(S):
                t = p1[0, s]
                if nan[r, s] and t >= 0 and g1[0, s] > good[r, s]:
                    good[r, s] = g1[0, s]
                    thr[r, s] = midpoint(-m_xs[0, t + 1], -m_xs[0, t])
                    ml[r, s] = True
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
            lc[:] = 0.0
            rows_left = 0
            u_left = 0
            for i in range(starts[s], starts[s] + sizes[s]):
                u = units[i]
                go = _goes_left(X, SK, u, j, go_nan, cut, key)
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
                    if _goes_left(X, SK, u, j, go_nan, cut, key) == side:
                        out.rows[m_next] = u
                        m_next += 1
        return n_next, m_next

    return level_grow


@register_jitable(forceinline=True)
def _goes_left(X, SK, u, j, go_nan, cut, key):
    """Whether unit u goes left on ``x_j < cut``: by its sort key (below the cut's ``key``:
    see ``cutkey``) unless the missing values go left (a cut found on -x), then by its
    value."""
    if go_nan:
        x = X[u, j]
        return True if x != x else x < cut
    return SK[j, u] < key
