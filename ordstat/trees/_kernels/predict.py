"""Prediction: the walk of rows from the root of a fitted tree to their leaves, without an
array per level (eight rows walked at once, the leaves of ``_BLOCK`` rows found before their
totals are added), giving the leaves (:func:`tree_leaves`) or adding each leaf's vote
(:func:`add_votes`) or class proportions (:func:`add_proba`) to the row's totals.

A tree comes as ``walk``, the tuple of :meth:`ordstat.trees._tree.Tree.walk_arrays`: one
record a node (children, feature, ``missing_left``, threshold: one memory read a step), and for
categorical splits each node's row of a table of the category codes sent left (-1 for other
nodes). The rules are those of :meth:`ordstat.trees._tree.Tree.decision_nodes`: a missing
value (NaN) goes to ``missing_left``; a categorical split sends left the codes in its table row
(the code being the value truncated toward zero, as numpy's cast to integers does), every other
value right; a numeric split sends ``x < threshold`` left.

A tree with rpart's surrogate splits brings them as the walk's fourth element (empty arrays for
other trees; see ``Tree.walk_arrays``) and is walked a row at a time by
:func:`_walk_surrogate`, with the rules of ``Tree.decision_nodes`` for such trees: a row the
split cannot send (missing, or a category its node did not meet) goes by the first surrogate
that can, then by the majority (``usesurrogate`` 2), else stays in the node, which is then
its final node."""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from .cache import jit

__all__ = ["tree_leaves", "add_votes", "add_proba"]


# rows whose leaves are found before their votes or proportions are added: the leaves of a
# block are kept in a small array
_BLOCK = 256


@register_jitable
def _lane(nodes, X, row, node, following, start, stop, leaves):
    """One step of a lane of :func:`_walk_numeric`: (row, node, following) after it. A lane
    whose row is at its leaf stores the leaf and takes the next row not yet walked
    (``following``), from the root; a lane past ``stop`` is idle."""
    if row >= stop:
        return row, node, following
    # unsigned indices (never negative here): numba then adds no test for negative ones,
    # which made every step 1.4 times as long
    v = nodes[np.uint64(node)]
    if v.left < 0:
        leaves[np.uint64(row - start)] = node
        return following, 0, following + 1
    x = X[np.uint64(row), np.uint64(v.feature)]
    # both children read and one chosen by arithmetic: no jump for the processor to guess
    go = (x < v.threshold) | ((x != x) & (v.missing_left != 0))
    return row, v.right + go * (v.left - v.right), following


@register_jitable
def _walk_numeric(nodes, X, start, stop, leaves):
    """``leaves[:stop - start]``: the leaves of rows ``start..stop-1`` of ``X`` in a tree
    without categorical splits, walked by eight lanes a step each in turn, their nodes in
    registers: the steps of the lanes do not wait on one another, so that the processor
    overlaps their reads of the nodes. A lane takes a new row as soon as its row is at its leaf
    (rows of a fully grown tree end at depths far apart: eight rows walked together until the
    deepest of them ends took 1.3 to 1.4 times the steps)."""
    r0, r1, r2, r3 = start, start + 1, start + 2, start + 3
    r4, r5, r6, r7 = start + 4, start + 5, start + 6, start + 7
    n0 = n1 = n2 = n3 = n4 = n5 = n6 = n7 = 0
    f = start + 8
    # f - start - 8 rows are at their leaves: one test a round, not one per lane (with the
    # leaf found from the node's record, not from a step that did not move, a tenth off)
    while f < stop + 8:
        r0, n0, f = _lane(nodes, X, r0, n0, f, start, stop, leaves)
        r1, n1, f = _lane(nodes, X, r1, n1, f, start, stop, leaves)
        r2, n2, f = _lane(nodes, X, r2, n2, f, start, stop, leaves)
        r3, n3, f = _lane(nodes, X, r3, n3, f, start, stop, leaves)
        r4, n4, f = _lane(nodes, X, r4, n4, f, start, stop, leaves)
        r5, n5, f = _lane(nodes, X, r5, n5, f, start, stop, leaves)
        r6, n6, f = _lane(nodes, X, r6, n6, f, start, stop, leaves)
        r7, n7, f = _lane(nodes, X, r7, n7, f, start, stop, leaves)


@jit
def _walk_mixed(nodes, cat_row, cat_left, X, start, stop, leaves):
    """:func:`_walk_numeric` in a tree with categorical splits, a row at a time (the
    categorical test in the unrolled lanes made every step an order of magnitude slower)."""
    for b in range(stop - start):
        i = np.uint64(start + b)
        node = np.uint64(0)  # unsigned indices: see _lane
        while nodes[node].left >= 0:
            v = nodes[node]
            x = X[i, np.uint64(v.feature)]
            if x != x:
                go = v.missing_left != 0
            elif cat_row[node] >= 0:
                go = x > -1.0 and x < cat_left.shape[1] and cat_left[
                    np.uint64(cat_row[node]), np.uint64(np.int64(x))]
            else:
                go = x < v.threshold
            node = np.uint64(v.left if go else v.right)
        leaves[b] = node


@jit
def _walk_surrogate(nodes, cat_row, sur, X, start, stop, leaves):
    """The final node of rows ``start..stop-1`` in a tree with surrogate splits (``sur``:
    see :meth:`ordstat.trees._tree.Tree.walk_arrays`), a row at a time."""
    first, feature, threshold, direction, sur_row, sur_dir, cat_dir, n_kids, use = sur
    for b in range(stop - start):
        i = start + b
        node = 0
        while nodes[node].left >= 0:
            v = nodes[node]
            x = X[i, v.feature]
            d = 0
            if x == x:
                # (cat_row is empty in a tree without categorical splits)
                if cat_row.shape[0] > 0 and cat_row[node] >= 0:  # codes met: +1 left, -1 right
                    if x > -1.0 and x < cat_dir.shape[1]:
                        d = cat_dir[cat_row[node], np.int64(x)]
                else:
                    d = 1 if x < v.threshold else -1
            if d == 0 and use[0] > 0:
                for e in range(first[node], first[node + 1]):
                    xs = X[i, feature[e]]
                    if xs != xs:
                        continue
                    if sur_row[e] >= 0:
                        if xs > -1.0 and xs < sur_dir.shape[1]:
                            d = sur_dir[sur_row[e], np.int64(xs)]
                    else:  # direction -1: "x < threshold" goes left
                        d = -direction[e] if xs < threshold[e] else direction[e]
                    if d != 0:
                        break
            if d == 0 and use[0] == 2:
                if n_kids[node, 0] > n_kids[node, 1]:
                    d = 1
                elif n_kids[node, 0] < n_kids[node, 1]:
                    d = -1
            if d == 0:
                break  # nothing can send the row: this node is its final node
            node = v.left if d > 0 else v.right
        leaves[b] = node


@register_jitable
def _walk_block(walk, X, start, stop, leaves):
    nodes, cat_row, cat_left, sur = walk
    if sur[0].shape[0] > 0:
        _walk_surrogate(nodes, cat_row, sur, X, start, stop, leaves)
    elif cat_row.shape[0] == 0:
        _walk_numeric(nodes, X, start, stop, leaves)
    else:
        _walk_mixed(nodes, cat_row, cat_left, X, start, stop, leaves)


@jit
def tree_leaves(walk, X, out):
    """``out[i]``: the leaf (final node) reached by row i of ``X``."""
    leaves = np.empty(_BLOCK, dtype=np.int64)
    for start in range(0, X.shape[0], _BLOCK):
        stop = min(start + _BLOCK, X.shape[0])
        _walk_block(walk, X, start, stop, leaves)
        for b in range(stop - start):
            out[start + b] = leaves[b]


@jit
def add_votes(walk, yval, value, loss, X, votes):
    """Add 1 to ``votes[i, c]``, c the class of the leaf of row i: ``yval[leaf]``, or where
    ``yval`` is empty the class of least risk ``sum_k value[leaf, k] loss[c, k]`` (the first
    of equal risks; computed once per leaf reached; exact, as the caller passes whole-number
    counts and losses)."""
    memo = np.full(value.shape[0] if yval.shape[0] == 0 else 0, -1, dtype=np.int64)
    leaves = np.empty(_BLOCK, dtype=np.int64)
    for i in range(X.shape[0]):
        if i % _BLOCK == 0:
            _walk_block(walk, X, i, min(i + _BLOCK, X.shape[0]), leaves)
        leaf = leaves[i % _BLOCK]
        if yval.shape[0] > 0:
            c = yval[leaf]
        else:
            c = memo[leaf]
            if c < 0:
                best = np.inf
                for h in range(loss.shape[0]):
                    risk = 0.0
                    for k in range(value.shape[1]):
                        risk += np.float64(value[leaf, k]) * loss[h, k]
                    if risk < best:
                        best = risk
                        c = h
                memo[leaf] = c
        votes[i, c] += 1.0


@jit
def add_proba(walk, value, total, single, X, proba):
    """Add the class proportions of the leaf of row i to ``proba[i]``: ``value[leaf] /
    total[leaf]`` (``total``: the row sums of ``value`` as numpy sums them; empty for whole
    numbers, summed here then, exactly), rounded to float32 where ``single`` (the float32
    division of float32 values: rounding the float64 quotient gives the same number)."""
    leaves = np.empty(_BLOCK, dtype=np.int64)
    for i in range(X.shape[0]):
        if i % _BLOCK == 0:
            _walk_block(walk, X, i, min(i + _BLOCK, X.shape[0]), leaves)
        leaf = leaves[i % _BLOCK]
        if total.shape[0] > 0:
            s = total[leaf]
        else:
            s = 0.0
            for k in range(value.shape[1]):
                s += np.float64(value[leaf, k])
        for k in range(value.shape[1]):
            p = np.float64(value[leaf, k]) / s
            if single:
                p = np.float64(np.float32(p))
            proba[i, k] += p
