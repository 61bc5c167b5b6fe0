"""Prediction: each row's walk from the root of a fitted tree to its leaf, one row at a time
(no array per level), giving the leaf (:func:`tree_leaves`) or adding the leaf's vote
(:func:`add_votes`) or class proportions (:func:`add_proba`) to the row's totals.

A tree comes as ``walk``, the tuple made by :func:`ordstat.trees._predict.walk_arrays`: children,
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


@jit
def _leaf(walk, X, i):
    left, right, feature, threshold, missing_left, cat_row, cat_left = walk
    node = 0
    while left[node] >= 0:
        x = X[i, feature[node]]
        if x != x:
            go = missing_left[node]
        elif cat_row.shape[0] > 0 and cat_row[node] >= 0:
            go = x > -1.0 and x < cat_left.shape[1] and cat_left[cat_row[node], np.int64(x)]
        else:
            go = x < threshold[node]
        node = left[node] if go else right[node]
    return node


@jit
def tree_leaves(walk, X, out):
    """``out[i]``: the leaf reached by row i of ``X``."""
    for i in range(X.shape[0]):
        out[i] = _leaf(walk, X, i)


@jit
def add_votes(walk, yval, value, loss, X, votes):
    """Add 1 to ``votes[i, c]``, c the class of the leaf of row i: ``yval[leaf]``, or where
    ``yval`` is empty the class of least risk ``sum_k value[leaf, k] loss[c, k]`` (the first
    of equal risks; computed once per leaf reached; exact, as the caller passes whole-number
    counts and losses)."""
    memo = np.full(value.shape[0] if yval.shape[0] == 0 else 0, -1, dtype=np.int64)
    for i in range(X.shape[0]):
        leaf = _leaf(walk, X, i)
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
    for i in range(X.shape[0]):
        leaf = _leaf(walk, X, i)
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
