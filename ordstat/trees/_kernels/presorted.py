"""Compiled levels of trees that keep every feature presorted (bagging), on words of rank, unit
and class code (see "Compiled presorted levels" in docs/trees_engine.md)."""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from .._records import Level
from .cache import jit, per_criterion
from .nodes import (add_children, draw_keys, level_frame, may_split, midpoint, node_weights,
                    passes_noise_rule, worth_searching)
from .categorical import make_category_cut
from .scan import criterion_version, make_scan, sorted_words

__all__ = ["make_presorted_level", "pack_rows", "restrict_rows"]


def make_presorted_level(start, add, gain, categorical=False):
    """Compile the growth of trees that keep every feature presorted, around a criterion's
    ``(start, add, gain)`` (see "compiled presorted levels" in :mod:`ordstat.trees._grow`):
    the returned ``presorted_tree`` grows a tree level after level in one call, without the
    GIL, each level grown by ``presorted_level``.

    ``presorted_level(sample, rules, tree, level, keys, kth, out)`` does for the
    nodes of a level what the level loop of the builder does with
    :class:`ordstat.trees._splitter.Splitter`. Its arguments are records (named tuples) of
    :mod:`ordstat.trees._node_arrays`: ``sample``
    (:class:`~ordstat.trees._node_arrays.WordSample`) the features ``X`` (n, p: as given;
    read only for the thresholds), the bits ``cb``, ``ub`` of
    a word's class code and unit, the feature of each row (``row_feature``), the rows of
    mostly tied values (``tied``), the units' weights ``w`` and repeat counts ``rep``, and a
    scratch flag per unit; ``rules`` (:class:`~ordstat.trees._node_arrays.Rules`) the controls;
    ``tree``
    (:class:`~ordstat.trees._node_arrays.NodeArrays`) the node arrays; ``level``
    (:class:`~ordstat.trees._records.Level`) the level: row r of ``level.rows`` (P, M) holds each
    node's units sorted by feature ``row_feature[r]``, node after node (node ``nodes[s]`` in a
    segment of ``sizes[s]`` rows, each row ``rep`` units); rows from ``X.shape[1]`` on are
    sorted by -x of the features with missing values, searched where the node has some on
    that feature ("missing left", kept when strictly better). Each entry is one word (see
    :func:`pack_rows`): the unit's rank in the row's order (``X.shape[0]`` for a missing
    value, so that no cut is made next to one), its index and its class code, so that only the
    words move and the search reads them in order (the weights by unit).

    A row is searched in a node when the feature's random key is at most the node's ``kth``
    (``keys`` of shape (0, p): every feature) and the node is worth searching; the scan is the
    level search's (:func:`ordstat.trees._kernels.scan.make_scan`, on words), the same sums in
    the same order, evaluating the gain only where a cut may follow on the rows flagged in
    ``tied`` (mostly tied values: few cuts per node) and after every unit, without a branch,
    elsewhere. With ``categorical`` (a kernel of its own, as in
    :func:`~ordstat.trees._kernels.levels.make_level_grow`), a row of an unordered categorical
    feature (``sample.cat_sizes`` > 0; its units in code order) is searched by
    :func:`~ordstat.trees._kernels.categorical.make_category_cut` from each category's class
    weights, and a split on it sends the units by the table of the categories sent left that
    it writes in ``tree.categories``. The node rule keeps the first
    best feature if its goodness passes rpart's noise rule; the units are sent left or right
    (class counts summed in the order of row 0, as the level loop), the two children appended
    to the node arrays, and every row partitioned stably into the children that may be split,
    in child order (left, right, ...), into ``out.rows`` (flat, read as (P, M'), trailing
    columns unused), which may be the flat buffer of ``level.rows`` itself. ``out.sizes`` and
    ``out.nodes`` get the next level's segment sizes and node ids; returns its numbers of nodes
    and of columns M' (no array: see :func:`ordstat.trees._kernels.levels.make_level_grow`).
    """
    version = criterion_version(start, add, gain)
    scan_tied = make_scan(start, add, gain, sorted_words, True, version)
    scan_free = make_scan(start, add, gain, sorted_words, False, version)
    category_cut = make_category_cut(start, add, gain, version)
    if categorical:  # another kernel: its name says so
        version = "c" + version

    @register_jitable
    @per_criterion(version)
    def categories(sample, order, r, a, size, total, n, rules, work, cats):
        """The best cut (:func:`~ordstat.trees._kernels.categorical.make_category_cut`) of
        the categorical feature of row r in the node at positions ``a .. a + size``, its
        categories sent left in ``cats[-1]``: each category's class weights summed over the
        node's units, which the row holds in code order."""
        counts, units, buf, seq, sent = cats
        X, cb, rs, w = sample.X, sample.cb, sample.cb + sample.ub, sample.w
        umask = (1 << sample.ub) - 1
        j = sample.row_feature[r]
        n_cat = sample.cat_sizes[j]
        counts[:n_cat] = 0.0
        units[:n_cat] = 0
        rank = -1
        c = 0
        for i in range(a, a + size):
            word = order[r, i]
            u = (word >> cb) & umask
            if word >> rs != rank:  # the next category (read once)
                rank = word >> rs
                c = np.int64(X[u, j])
            counts[c, word & ((1 << cb) - 1)] += w[u]
            units[c] += 1
        return category_cut(counts, units, n_cat, total, n, size, rules.min_bucket,
                            rules.param, rules.subsets, work, buf, seq, sent)

    @register_jitable(forceinline=True)
    @per_criterion(version)
    def search_row(sample, order, r, starts, sizes, totals, weights, keys, kth, rules, good,
                   pos, work, cats):
        """Search row r in every node of a level (-inf, -1 where not searched); inlined in the
        level (a call per row counts references to the records' arrays and hides from the
        compiler what the level knows)."""
        p = sample.X.shape[1]
        cb, rs, nan_rank = sample.cb, sample.cb + sample.ub, sample.X.shape[0]
        j = sample.row_feature[r]
        row = (order[r], sample.w, cb, (1 << sample.ub) - 1, rs, nan_rank)
        for s in range(starts.shape[0]):
            good[r, s] = -np.inf
            pos[r, s] = -1
            if not worth_searching(sizes[s], totals[s], rules.min_bucket) or (
                    keys.shape[0] and keys[s, j] > kth[s]):
                continue
            # (without ``categorical``, numba removes the branch and the search it calls)
            if categorical and r < p and sample.cat_sizes[j] > 0:
                good[r, s] = categories(sample, order, r, starts[s], sizes[s], totals[s],
                                        weights[s], rules, work, cats)
                pos[r, s] = 0 if good[r, s] > -np.inf else -1
                continue
            # a row of -x: only where the node has missing values (sorted last)
            if r >= p and order[r, starts[s] + sizes[s] - 1] >> rs != nan_rank:
                continue
            args = (row, starts[s], sizes[s], totals[s], weights[s], rules.min_bucket,
                    rules.param, work)
            good[r, s], pos[r, s] = scan_tied(*args) if sample.tied[r] else scan_free(*args)

    @jit
    @per_criterion(version)
    def presorted_level(sample, rules, tree, level, keys, kth, out):
        if len(version) == 0:  # never: only puts the code version into the cache key
            return 0, 0
        X, cb, ub, row_feature, _, w, rep, flag, _ = sample
        order, sizes, nodes = level
        S = nodes.shape[0]
        p = X.shape[1]
        P = order.shape[0]
        K = tree.value.shape[1]
        umask = (1 << ub) - 1
        cmask = (1 << cb) - 1
        rs = cb + ub
        nan_rank = X.shape[0]
        starts, totals = level_frame(sizes, nodes, tree.value)
        weights = node_weights(totals)
        good = np.empty((P, S))
        pos = np.empty((P, S), dtype=np.int64)
        work = np.empty((4, K))  # the scans' state arrays
        C = tree.categories.shape[1]  # (0 without categorical features)
        cats = (np.empty((C, K)), np.empty(C, dtype=np.int64), np.empty((3, max(C, K))),
                np.empty(C, dtype=np.int64), np.empty(C, dtype=np.bool_))
        for r in range(P):
            search_row(sample, order, r, starts, sizes, totals, weights, keys, kth, rules, good,
                       pos, work, cats)
        n_next = 0
        m_next = 0
        lc = np.empty(K)
        split = np.zeros(S, dtype=np.bool_)
        kid_rows = np.zeros(2 * S, dtype=np.int64)  # rows of each child kept, else 0
        trash = 0  # rows of the largest child dropped
        for s in range(S):
            best = -np.inf
            br = -1
            for j in range(p):  # the first best feature
                if good[j, s] > best:
                    best = good[j, s]
                    br = j
            for r in range(p, P):  # missing left, where strictly better
                j = row_feature[r]
                if good[r, s] > good[j, s] and (good[r, s] > best or (
                        good[r, s] == best and j < row_feature[br])):
                    best = good[r, s]
                    br = r
            if not passes_noise_rule(best, tree.iscale):
                continue
            split[s] = True
            v = nodes[s]
            t = pos[br, s]
            j = row_feature[br]
            if categorical and br < p and sample.cat_sizes[j] > 0:  # the categories again
                categories(sample, order, br, starts[s], sizes[s], totals[s], weights[s],
                           rules, work, cats)
                sent = cats[-1]
                for c in range(C):
                    tree.categories[v, c] = c < sample.cat_sizes[j] and sent[c]
                for i in range(starts[s], starts[s] + sizes[s]):
                    u = (order[br, i] >> cb) & umask
                    flag[u] = sent[np.int64(X[u, j])]
                cut = np.nan
                missing = -1
            else:
                xa = X[(order[br, t] >> cb) & umask, j]
                xb = X[(order[br, t + 1] >> cb) & umask, j]
                go_nan = br >= p
                # on a row of -x, the cut between -x = -xa and -xb is x = xb | xa
                cut = midpoint(xb, xa) if go_nan else midpoint(xa, xb)
                # the node has missing values (sorted last)
                has_nan = order[j, starts[s] + sizes[s] - 1] >> rs == nan_rank
                missing = (1 if go_nan else 0) if has_nan else -1
                # the side of each unit from its position in row br (sorted by x, or by -x):
                # up to the cut on x, after it on -x (missing values, last, go right, or left
                # on -x), as x < cut sends them (without reading x)
                for i in range(starts[s], starts[s] + sizes[s]):
                    flag[(order[br, i] >> cb) & umask] = (i <= t) != go_nan
            lc[:] = 0.0
            rows_left = 0
            u_left = 0
            for i in range(starts[s], starts[s] + sizes[s]):
                word = order[0, i]
                u = (word >> cb) & umask
                go = flag[u]
                if go:
                    lc[word & cmask] += w[u]
                    rows_left += 1
                    u_left += rep[u]
            kid = add_children(tree, v, j, cut, best, missing, lc, u_left)
            for c, rows in ((kid, rows_left), (kid + 1, sizes[s] - rows_left)):
                if not may_split(tree.n_units[c], tree.depth[c], tree.value[c], rules):
                    trash = max(trash, rows)
                    continue
                kid_rows[2 * s + c - kid] = rows
                out.nodes[n_next], out.sizes[n_next] = c, rows
                n_next += 1
                m_next += rows
        if n_next == 0:
            return 0, 0
        # Without a branch on the side (a coin flip for the branch predictor, on every row
        # but the split's): a dropped child's units go to trailing columns no node reads.
        width = m_next + trash
        oo = out.rows[:P * width].reshape((P, width))
        dest = np.full(2 * S, m_next, dtype=np.int64)
        d = 0
        for i in range(2 * S):
            if kid_rows[i] > 0:
                dest[i] = d
                d += kid_rows[i]
        # out.rows may be this level's own buffer (one (P, n) array of words per tree): row r
        # of the next level only covers rows <= r of this one, and row r is copied first
        row = np.empty(order.shape[1], dtype=order.dtype)
        for r in range(P):
            row[:] = order[r]
            for s in range(S):
                if not split[s]:
                    continue
                li = dest[2 * s]
                ri = dest[2 * s + 1]
                if kid_rows[2 * s] + kid_rows[2 * s + 1] == 0:
                    continue
                for t in range(starts[s], starts[s] + sizes[s]):
                    word = row[t]
                    go = np.int64(flag[(word >> cb) & umask])
                    oo[r, ri + go * (li - ri)] = word
                    li += go
                    ri += 1 - go
        return n_next, width

    @jit
    @per_criterion(version, "tree")
    def presorted_tree(sample, rules, tree, words, P, cur_sizes, cur_nodes, out, n_nodes, m,
                       rng, k):
        """The levels of a tree, one :func:`presorted_level` after another, from the level of
        ``n_nodes`` nodes (``cur_sizes``, ``cur_nodes``) and ``m`` columns of the (P, m) words
        in the flat ``words`` (each level's written over the last one's: ``out`` is a
        ``Level(words, ...)`` of buffers), drawing each level's features from the Generator
        ``rng`` (``k``: max_features - 1, or -1 for every feature), as long as the node
        arrays have room for the level's children (:func:`ordstat.trees._node_arrays._room` makes
        more between calls). Returns the numbers of nodes and columns of the level left (0
        when the tree is grown)."""
        p = sample.X.shape[1]
        while n_nodes > 0 and tree.count[0] + 2 * n_nodes <= tree.left.shape[0]:
            if k >= 0:
                keys, kth = draw_keys(rng, n_nodes, p, k)
            else:  # no keys: every feature
                keys, kth = np.zeros((0, p)), np.zeros(0)
            level = Level(words[:P * m].reshape((P, m)), cur_sizes[:n_nodes],
                          cur_nodes[:n_nodes])
            n_nodes, m = presorted_level(sample, rules, tree, level, keys, kth, out)
            cur_sizes[:n_nodes] = out.sizes[:n_nodes]
            cur_nodes[:n_nodes] = out.nodes[:n_nodes]
        return n_nodes, m

    return presorted_tree



@jit
def pack_rows(XT, features, sign, order, codes, row0, cb, ub, out):
    """Row ``row0 + r`` of ``out``: the units of ``order[r]``, sorted by ``sign * x`` of feature
    ``features[r]`` (rows of ``XT``, NaN last), each as one word ``rank << (ub + cb) | u << cb
    | codes[u]`` (the layout of :func:`make_presorted_level`), the rank counting the distinct
    values before the unit's in the row (equal values, equal ranks; ``XT.shape[1]`` for
    NaN)."""
    nan_rank = XT.shape[1]
    for r in range(order.shape[0]):
        j = features[r]
        rank = 0
        prev = 0.0
        for t in range(order.shape[1]):
            u = np.int64(order[r, t])
            x = sign * XT[j, u]
            if x != x:
                k = nan_rank
            else:
                if t > 0 and x > prev:
                    rank += 1
                prev = x
                k = rank
            out[row0 + r, t] = (np.int64(k) << (ub + cb)) | (u << cb) | codes[u]


@jit
def restrict_rows(words, inside, cb, ub, out):
    """The first rows of ``out`` (shape (P, m)): the words of each row of ``words`` whose unit
    is ``inside`` (m of them), in order; without a branch on ``inside`` (a coin flip for the
    branch predictor): each word is written, the next position taken only if inside."""
    flat = out.reshape(out.size)
    umask = (1 << ub) - 1
    m = out.shape[1]
    for r in range(words.shape[0]):
        k = r * m
        end = k + m
        for t in range(words.shape[1]):
            word = words[r, t]
            flat[k] = word
            k += np.int64(inside[(word >> cb) & umask])
            if k == end:
                break
