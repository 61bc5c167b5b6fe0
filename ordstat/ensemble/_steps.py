"""Plain loops of an ensemble's steps per tree, each compiled by
:func:`ordstat.trees._fast.compiled` (without numba, the same loops in Python): one call in
place of a dozen numpy calls of a few microseconds each, which on a few hundred rows were a
forest's time (see docs/architecture.md, "Small data, many classes, string columns, the
first call").

- :func:`bootstrap_rows`: a bootstrap sample's distinct rows, their repeat counts and the
  units out of bag (:func:`sample_rows`: compiled, or in numpy without numba);
- :func:`kept_arrays`: what an ensemble keeps of a fully grown tree, from one pass over its
  arrays in preorder: the compact type of each array, the leaves and classes of the
  out-of-bag rows, and the split importances;
- :func:`kept_tree`: :func:`kept_arrays` of the tree that the compiled levels grew, put in
  preorder first (``ordstat.trees._node_arrays._preorder_nodes``), in the same call.
"""

from __future__ import annotations

import numpy as np

from ..trees import _fast
from ..trees._node_arrays import _preorder_nodes
from ..trees._tree import _WHOLE, _float_kind

__all__ = ["sample_rows", "bootstrap_rows", "kept_arrays", "kept_tree"]


def sample_rows(sample, n, codes, n_classes):
    """:func:`bootstrap_rows` compiled, or without numba its numpy definition (a loop over
    the units in Python would cost more than the numpy calls it replaces)."""
    if _fast.kernels() is not None:
        return _fast.compiled(bootstrap_rows)(sample, n, codes, n_classes)
    counts = np.bincount(sample, minlength=n)
    rows = np.flatnonzero(counts)
    n_present = np.count_nonzero(np.bincount(codes[rows], minlength=n_classes))
    return rows, counts[rows], np.flatnonzero(counts == 0), n_present


def bootstrap_rows(sample, n, codes, n_classes):
    """(rows, repeats, oob, n_present) of the bootstrap ``sample`` (units 0..n-1 drawn with
    repeats): the distinct units drawn in increasing order, how many times each was drawn,
    the units never drawn in increasing order (``np.flatnonzero`` of the counts and of the
    zero counts), and the number of classes (``codes``: each unit's, 0..n_classes-1) among
    the rows."""
    counts = np.zeros(n, dtype=np.int64)
    for u in sample:
        counts[u] += 1
    n_rows = 0
    for u in range(n):
        n_rows += counts[u] > 0
    rows = np.empty(n_rows, dtype=np.int64)
    repeats = np.empty(n_rows, dtype=np.int64)
    oob = np.empty(n - n_rows, dtype=np.int64)
    seen = np.zeros(n_classes, dtype=np.bool_)
    r = o = 0
    for u in range(n):
        if counts[u] > 0:
            rows[r], repeats[r] = u, counts[u]
            seen[codes[u]] = True
            r += 1
        else:
            oob[o] = u
            o += 1
    return rows, repeats, oob, np.count_nonzero(seen)


def kept_arrays(left, right, feature, threshold, improvement, missing_left, value, loss,
                bound, X, rows, n_features):
    """What an ensemble keeps of a fully grown tree given by its arrays in preorder (numeric
    splits only, as ``ordstat.trees._node_arrays._preorder_nodes`` makes them): ``(ranges, leaves,
    classes, importance)``.

    ``ranges``: the (min, max) of ``left``, ``right`` and ``feature`` and the (kind, min,
    max) of ``threshold``, ``improvement`` and ``value`` (:func:`ordstat.trees._tree.
    _float_kind`, ``bound`` its bound), the 15 numbers :func:`ordstat.trees._tree.compact_as`
    takes. ``leaves``: the leaf of each row ``X[rows[i]]`` (the rules of
    :meth:`ordstat.trees._tree.Tree.apply`: ``x < threshold`` goes left, a missing value to
    ``missing_left``). ``classes``: each leaf's class of least risk ``sum_g value[leaf, g]
    loss[h, g]`` (the first of equal risks, computed once per leaf reached), as the tree's
    ``yval``; empty unless every count and loss is a whole number and the sums stay below
    2^52 (as ``ordstat.trees._tree._risks`` checks): each sum is then exact in any order, so
    the numbers of ``_risks``. ``importance``: each of the ``n_features`` features' sum of
    the improvements of its splits, added in node order (the tree's split importances, as
    ``OrdinalTreeClassifier._set_importances`` sums them by ``np.bincount``)."""
    ranges = np.empty(15)
    importance = np.zeros(n_features)
    for node in range(left.shape[0]):
        if left[node] >= 0:
            importance[feature[node]] += improvement[node]
    for a, at in ((left, 0), (right, 2), (feature, 4)):
        lo, hi = a[0], a[0]
        for v in a:
            lo, hi = min(lo, v), max(hi, v)
        ranges[at], ranges[at + 1] = lo, hi
    for f, at in ((threshold, 6), (improvement, 9), (value.reshape(value.size), 12)):
        kind, f_lo, f_hi = _float_kind(f, bound)
        ranges[at], ranges[at + 1], ranges[at + 2] = kind, f_lo, f_hi
    tree = (left, right, feature, threshold, missing_left)
    n_rows = rows.shape[0]
    leaves = np.empty(n_rows, dtype=np.int64)
    i = 0
    # four rows at a time, their steps independent of one another (a deep tree's walk waited
    # on each step's guessed jump), until the deepest of them is at its leaf
    while i + 4 <= n_rows:
        n0 = n1 = n2 = n3 = 0
        while True:
            c0, c1 = _child(tree, X, rows[i], n0), _child(tree, X, rows[i + 1], n1)
            c2, c3 = _child(tree, X, rows[i + 2], n2), _child(tree, X, rows[i + 3], n3)
            if (c0 == n0) & (c1 == n1) & (c2 == n2) & (c3 == n3):
                break
            n0, n1, n2, n3 = c0, c1, c2, c3
        leaves[i], leaves[i + 1], leaves[i + 2], leaves[i + 3] = n0, n1, n2, n3
        i += 4
    for j in range(i, n_rows):
        node, child = -1, 0
        while child != node:
            node, child = child, _child(tree, X, rows[j], child)
        leaves[j] = node
    k = loss.shape[0]
    most = 0.0  # the largest absolute loss, when every loss is whole
    for h in range(k):
        for g in range(k):
            c = loss[h, g]
            most = max(most, abs(c)) if c == np.trunc(c) else np.inf
    whole = ranges[12] == _WHOLE
    largest = max(-ranges[13], ranges[14]) * value.shape[1] * most
    if not (whole and largest < 2.0 ** 52):
        return ranges, leaves, np.zeros(0, dtype=np.int64), importance
    classes = np.empty(rows.shape[0], dtype=np.int64)
    memo = np.full(left.shape[0], -1, dtype=np.int64)
    risk = np.empty(k)
    for i in range(rows.shape[0]):
        leaf = leaves[i]
        if memo[leaf] < 0:
            risk[:] = 0.0
            for g in range(value.shape[1]):
                c = value[leaf, g]
                if c != 0.0:  # (a deep leaf holds few classes)
                    for h in range(k):
                        risk[h] += c * loss[h, g]
            memo[leaf] = np.argmin(risk)
        classes[i] = memo[leaf]
    return ranges, leaves, classes, importance


def kept_tree(count, left, right, feature, threshold, goodness, missing, value, loss, bound,
              X, rows, n_features):
    """The preorder arrays of the first ``count[0]`` nodes of a tree's node arrays as the
    compiled levels grew them (``_preorder_nodes``: ``cl, cr, feature, threshold,
    improvement, missing_left, missing_learned, counts``) followed by their
    :func:`kept_arrays` (``ranges, leaves, classes, importance``): one compiled call per tree
    where two were (each call's dispatch, a few microseconds a tree, and the arrays between
    them handed back to Python)."""
    m = count[0]
    cl, cr, feat, thr, improvement, missing_left, missing_learned, counts = _preorder_nodes(
        left[:m], right[:m], feature[:m], threshold[:m], goodness[:m], missing[:m],
        value[:m])
    ranges, leaves, classes, importance = kept_arrays(
        cl, cr, feat, thr, improvement, missing_left, counts, loss, bound, X, rows, n_features)
    return (cl, cr, feat, thr, improvement, missing_left, missing_learned, counts, ranges,
            leaves, classes, importance)


def _child(tree, X, row, node):
    """The child of ``node`` that row ``row`` of ``X`` goes to (``node`` itself at a leaf) in
    ``tree``, the arrays (left, right, feature, threshold, missing_left): ``x < threshold``
    left, a missing value to ``missing_left``; one child chosen by arithmetic, not a jump."""
    left, right, feature, threshold, missing_left = tree
    if left[node] < 0:
        return node
    x = X[row, feature[node]]
    go = (x < threshold[node]) | ((x != x) & missing_left[node])
    return right[node] + go * (left[node] - right[node])
