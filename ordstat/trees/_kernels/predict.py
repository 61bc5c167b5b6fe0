"""Prediction: the walk of rows from the root of a fitted tree to their leaves, without an
array per level (rows in blocks of ``_BLOCK`` walked together), giving the leaves
(:func:`tree_leaves`) or adding each leaf's vote (:func:`add_votes`) or class proportions
(:func:`add_proba`) to the row's totals.

A tree comes as ``walk``, the tuple of :meth:`ordstat.trees._tree.Tree.walk_arrays`: children,
feature, threshold, ``missing_left``, and for categorical splits each node's row of a table of
the category codes sent left (-1 for other nodes). The rules are those of
:meth:`ordstat.trees._tree.Tree.decision_nodes`: a missing value (NaN) goes to
``missing_left``; a categorical split sends left the codes in its table row (the code being the
value truncated toward zero, as numpy's cast to integers does), every other value right; a
numeric split sends ``x < threshold`` left."""

from __future__ import annotations

import numpy as np

from .cache import jit

__all__ = ["tree_leaves", "add_votes", "add_proba"]


# rows walked together: their steps do not wait on one another, so that the processor overlaps
# their memory reads (a step of one row waits on the read of its node)
_BLOCK = 16


@jit
def _walk_block(walk, X, start, stop, leaves):
    """``leaves[:stop - start]``: the leaves of rows ``start..stop-1`` of ``X``, walked one
    level at a time together (a row that reached its leaf waits for the others)."""
    left, right, feature, threshold, missing_left, cat_row, cat_left = walk
    has_cat = cat_row.shape[0] > 0
    for b in range(stop - start):
        leaves[b] = 0
    moved = True
    while moved:
        moved = False
        for b in range(stop - start):
            node = leaves[b]
            lo = left[node]
            if lo < 0:
                continue
            moved = True
            x = X[start + b, feature[node]]
            # both sides read and chosen by arithmetic: no jump the processor must guess
            go = (x < threshold[node]) | ((x != x) & missing_left[node])
            if has_cat and cat_row[node] >= 0 and x == x:
                go = x > -1.0 and x < cat_left.shape[1] and cat_left[cat_row[node],
                                                                    np.int64(x)]
            hi = right[node]
            leaves[b] = hi + go * (lo - hi)


@jit
def tree_leaves(walk, X, out):
    """``out[i]``: the leaf reached by row i of ``X``."""
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
