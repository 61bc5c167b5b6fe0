"""The node arrays of a grown tree, and the fitted tree made from them.

The module structure is the following:

- the records that the compiled levels take (:mod:`._grow_levels`, :mod:`._grow_presorted`):
  :class:`NodeArrays`, :class:`Rules`, :class:`SortedSample`, :class:`WordSample` (and
  ``Level``, in ``_records``, which the kernels build too); :func:`root_arrays` and
  :func:`_room` make and grow the node arrays, :func:`level_rules` the rules;
- pass 2 on node arrays: :func:`_partition_nodes` (rpart's recursion) and
  :func:`compiled_tree` (the fitted tree of the compiled levels);
- :func:`_tree`: the fitted :class:`ordstat.trees._tree.Tree` from any growth's node arrays,
  put in preorder (:func:`_preorder`; :func:`_preorder_nodes` is what an ensemble's store
  keeps).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from . import _fast
from ._surrogate import Surrogates
from ._tree import DerivedTree, Tree, _complexities_bottom_up, _complexity, _fix_cp, _risks

__all__ = ["NodeArrays", "Rules", "SortedSample", "WordSample", "root_arrays", "level_rules",
           "compiled_tree"]


class NodeArrays(NamedTuple):
    """The node arrays that the compiled levels fill, made with the root filled in and grown
    (:func:`root_arrays`), and the growth's running state."""

    value: np.ndarray  # (cap, K) class weights
    n_units: np.ndarray  # units (repeats counted)
    left: np.ndarray  # children, -1 at leaves
    right: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    goodness: np.ndarray
    missing: np.ndarray  # int8: side of missing values, -1 none met, 0 right, 1 left
    categories: np.ndarray  # (cap, C) bool: the categories sent left (C = 0: none split on)
    depth: np.ndarray
    number: np.ndarray  # rpart's node numbers
    count: np.ndarray  # (1,) nodes so far
    iscale: np.ndarray  # (1,) the largest goodness so far (rpart's noise rule)


class Rules(NamedTuple):
    """The node rules of the compiled levels."""

    min_bucket: int
    min_split: int
    max_depth: int
    alpha: float  # a child is split only with a risk above alpha (<= 0 here)
    loss: np.ndarray  # (K, K) loss[h, g] of the risk
    param: np.ndarray  # the criterion's parameter for K classes
    n_drawn: int  # features drawn in each node (compiled levels sorting per node)
    subsets: int  # most categories present for the search of every subset (0: none)


class SortedSample(NamedTuple):
    """What the compiled levels sorting each node's drawn features read of the sample."""

    X: np.ndarray  # (n, p) features, as given (no transposed copy)
    sort_by: np.ndarray  # (p, n) int32 the features' ranks (see _splitter.rank_keys)
    neg_by: np.ndarray  # the ranks of -x, or no row without missing values
    codes: np.ndarray  # class codes
    w: np.ndarray  # weights
    rep: np.ndarray  # repeat counts
    cat_sizes: np.ndarray  # (p,) categories of each unordered categorical feature, else 0


class WordSample(NamedTuple):
    """What the compiled presorted levels read of the sample (see
    :func:`ordstat.trees._kernels.presorted.make_presorted_level`)."""

    X: np.ndarray  # (n, p) features, as given (read for the thresholds)
    cb: int  # bits of a word's class code
    ub: int  # bits of a word's unit
    row_feature: np.ndarray  # (P,) feature of each row of words
    tied: np.ndarray  # (P,) rows of mostly tied values
    w: np.ndarray  # weights
    rep: np.ndarray  # repeat counts
    flag: np.ndarray  # (n,) scratch: the side of each unit
    cat_sizes: np.ndarray  # (p,) categories of each unordered categorical feature, else 0


# node arrays of the compiled levels: room for this many nodes at first, then doubled up to
# _DOUBLE_NODES and grown by at least a quarter beyond (a level adds at most two children per
# node it splits)
_FIRST_NODES = 1024
_DOUBLE_NODES = 1 << 16
# a fully grown tree's node arrays are made for its largest size at once up to this size
_WHOLE_TREE_BYTES = 1 << 25
_BLANK_NODES = 1024  # node arrays up to this size are copied from blank ones (_blank_nodes)
# what a node of each array holds before the levels write it (a leaf's)
_NODE_FILL = {"value": 0.0, "n_units": 0, "left": -1, "right": -1, "feature": -1,
              "threshold": np.nan, "goodness": 0.0, "missing": -1, "categories": False,
              "depth": 0, "number": 1}
_NODE_TYPES = {"value": np.float64, "n_units": np.int64, "left": np.int64, "right": np.int64,
               "feature": np.int64, "threshold": np.float64, "goodness": np.float64,
               "missing": np.int8, "categories": np.bool_, "depth": np.int64, "number": np.int64}
# bytes of a node in the arrays other than ``value`` and ``categories``
_NODE_BYTES = sum(np.dtype(t).itemsize for name, t in _NODE_TYPES.items()
                  if name not in ("value", "categories"))


def _full_nodes(cap, k, c):
    """Node arrays of ``cap`` nodes, ``k`` classes and ``c`` categories before anything is
    written (:data:`_NODE_FILL`)."""
    width = {"value": k, "categories": c}
    return {name: np.full((cap, width[name]) if name in width else cap, fill,
                          dtype=_NODE_TYPES[name]) for name, fill in _NODE_FILL.items()}


@functools.lru_cache(maxsize=16)
def _blank_nodes(k, c):
    """The node arrays of :func:`root_arrays` (``_BLANK_NODES`` nodes, ``k``
    classes, ``c`` categories) before anything is written, read-only (callers copy the first
    nodes)."""
    arrays = _full_nodes(_BLANK_NODES, k, c)
    for a in arrays.values():
        a.flags.writeable = False
    return arrays


def _left_categories(table, left, feature, cat_sizes):
    """The level loop's ``left_categories`` of the compiled levels' nodes (object array: the
    sorted codes sent left at a categorical split, None elsewhere) from their table of
    categories sent left (rows of ``table``), or None when no categorical feature splits."""
    split = np.flatnonzero(left >= 0)
    split = split[cat_sizes[feature[split]] > 0] if table.shape[1] else split[:0]
    if not split.size:
        return None
    rows = table[split]
    codes = np.nonzero(rows)[1].astype(np.int64)  # row after row, in increasing code
    ends = np.cumsum(np.count_nonzero(rows, axis=1)).tolist()
    out = np.empty(left.size, dtype=object)
    for v, a, b in zip(split.tolist(), [0] + ends[:-1], ends):
        out[v] = codes[a:b]
    return out


def _room(tree, need, most):
    """``tree`` (:class:`NodeArrays`) with room for ``need`` nodes (at most ``most``, the
    largest tree): the same arrays when they have it, else larger copies (beyond
    ``_DOUBLE_NODES`` grown by a quarter: the old and new arrays together stay below the 2 n
    preallocated before, and the copies cost little beside a level's work)."""
    cap = tree.left.shape[0]
    if need <= cap:
        return tree
    # doubled while small (a tree of 20,000 nodes copied its arrays 14 times growing by a
    # quarter), by a quarter from _DOUBLE_NODES on
    cap = min(max(need, cap + (cap if cap < _DOUBLE_NODES else cap // 4)), max(most, need))
    m = int(tree.count[0])
    grown = {}
    for name, fill in _NODE_FILL.items():
        old = getattr(tree, name)
        new = np.empty((cap,) + old.shape[1:], dtype=old.dtype)
        new[:m] = old[:m]
        new[m:] = fill
        grown[name] = new
    return tree._replace(**grown)


def root_arrays(builder, n_rows, n_units):
    """:class:`NodeArrays` of the compiled levels, the root filled in, with room for the
    first levels, or for the whole tree where that is small; :func:`_room` grows them
    between levels, as the tree needs."""
    # a column per category of the categorical features (none: no column)
    c = int(builder.splitter.cat_sizes.max(initial=0))
    # each split divides >= 2 rows: at most n_rows leaves, 2 n_rows - 1 nodes (and a
    # binary tree's below max_depth); a tree split down to two units without cp comes
    # near that (0.7 of it at K = 26 on 18,000 rows), so it gets all of it at once where
    # that is small (growing copied the arrays a few times a tree)
    most = min(max(1, 2 * n_rows - 1), 2 ** (builder.max_depth + 1) - 1)
    whole = (builder.alpha < 0 and builder.min_split <= 2
             and most * (8 * builder.K + c + _NODE_BYTES) <= _WHOLE_TREE_BYTES)
    cap = most if whole else min(_FIRST_NODES, most)
    if cap <= _BLANK_NODES:  # copies of blank arrays (a third of the time of filling)
        arrays = {name: a[:cap].copy() for name, a in _blank_nodes(builder.K, c).items()}
    else:
        arrays = _full_nodes(cap, builder.K, c)
    arrays["value"][0] = builder.nodes.value[0]  # the root (its other fields: the fill)
    arrays["n_units"][0] = n_units
    return NodeArrays(**arrays, count=np.ones(1, dtype=np.int64), iscale=np.zeros(1))


def level_rules(builder, n_drawn=0):
    """The :class:`Rules` of the compiled levels."""
    return Rules(min_bucket=builder.min_bucket, min_split=builder.min_split,
                 max_depth=builder.max_depth, alpha=float(builder.alpha),
                 loss=np.ascontiguousarray(builder.loss), param=builder.splitter._param,
                 n_drawn=n_drawn, subsets=builder.splitter.subset_levels())


def compiled_tree(builder, grown) -> Tree:
    """The fitted tree of ``builder`` from the :class:`NodeArrays` of the compiled levels
    (``grown``: a list holding them, emptied here so that they are freed as the fitted tree
    is made):
    pass 2 (only the complexities when alpha < 0, else rpart's recursion on the grown
    tree)."""
    tree = grown.pop()
    m = int(tree.count[0])
    categories = _left_categories(tree.categories[:m], tree.left[:m], tree.feature[:m],
                                  builder.splitter.cat_sizes)
    store = builder.store
    if store is not None and builder.alpha < 0 and (categories is None or not store.rows.size):
        # whole counts: the arrays kept in preorder from one compiled call; the unit counts
        # (sums of repeats), risks, classes and complexities are those that the DerivedTree
        # computes when read. The call walks out-of-bag rows by numeric splits only: a tree
        # with categorical splits and rows to walk is made whole below and compacted by the
        # ensemble, its rows walked apart
        order = None if categories is None else _fast.compiled(_preorder)(tree.left[:m],
                                                                          tree.right[:m])
        kept = store.arrays(tree, builder.loss)
        if order is not None:
            kept["left_categories"] = categories[order]
        return DerivedTree.from_arrays(kept, builder.criterion, builder.loss, builder.alpha)
    nodes = {name: getattr(tree, name)[:m] for name in _NODE_FILL if name != "categories"}
    del tree
    nodes["n"] = nodes.pop("n_units")
    value, left, right = nodes["value"], nodes["left"], nodes["right"]
    risks = _risks(value, builder.loss)  # as TreeBuilder._add_nodes
    yval = np.argmin(risks, axis=1)
    risk = risks[np.arange(m), yval]
    del risks, value
    if builder.alpha < 0:
        complexity = _fast.compiled(_complexities_bottom_up, _complexity)(
            left, right, risk, float(builder.alpha))
    else:  # rpart's recursion, collapsing in the node arrays
        complexity = np.zeros(m)
        _fast.compiled(_partition_nodes, _complexity)(left, right, risk, complexity,
                                                     float(builder.alpha))
    del left, right
    nodes.update(left_categories=categories, risk=risk, yval=yval, complexity=complexity)
    del risk, yval, complexity
    return _tree(builder.criterion, nodes)


def _partition_nodes(left, right, risk, complexity, alpha):
    """rpart's partition over a grown tree (root 0; children ``left``, ``right``, -1 at
    leaves; node risks ``risk``): each node's weakest-link complexity written into
    ``complexity`` (alpha at leaves; nodes below a collapsed one are left as they are), and
    the nodes of complexity at most alpha collapsed (their children set to -1). A node's
    bound comes from its parent: the left child's is min(risk, bound) - alpha; the right
    child's uses what the left subtree kept (rpart's partition). Depth first with a stack of
    frames in place of rpart's recursion (a plain loop, compiled by
    :func:`ordstat.trees._fast.compiled`)."""
    m = left.size
    frame_node = np.empty(m + 1, dtype=np.int64)
    frame_bound = np.empty(m + 1)
    stage = np.zeros(m + 1, dtype=np.int64)  # 0: enter, 1: left done, 2: right done
    l_splits = np.zeros(m + 1, dtype=np.int64)
    l_risks = np.zeros(m + 1)
    frame_node[0], frame_bound[0], stage[0] = 0, risk[0], 0
    top = 1
    splits, leaf_risk = 0, 0.0  # what the last finished subtree kept
    while top > 0:
        f = top - 1
        v, bound = frame_node[f], frame_bound[f]
        if stage[f] == 0:
            tempcp = min(risk[v], bound)
            if left[v] < 0 or tempcp <= alpha:
                left[v] = right[v] = -1
                complexity[v] = alpha
                splits, leaf_risk = 0, risk[v]
                top -= 1
                continue
            stage[f] = 1
            frame_node[top], frame_bound[top], stage[top] = left[v], tempcp - alpha, 0
            top += 1
        elif stage[f] == 1:
            l_splits[f], l_risks[f] = splits, leaf_risk
            t = max((risk[v] - leaf_risk) / (splits + 1), risk[v] - risk[left[v]])
            t = min(t, bound)
            stage[f] = 2
            frame_node[top], frame_bound[top], stage[top] = right[v], t - alpha, 0
            top += 1
        else:
            lv, rv = left[v], right[v]
            cx, ls, lr, rs, rr = _complexity(risk[v], risk[lv], risk[rv], complexity[lv],
                                             complexity[rv], l_splits[f], l_risks[f], splits,
                                             leaf_risk)
            complexity[v] = cx
            top -= 1
            if cx <= alpha:  # all in vain: collapse the subtree
                left[v] = right[v] = -1
                splits, leaf_risk = 0, risk[v]
            else:
                splits, leaf_risk = ls + rs + 1, lr + rr


def _preorder(left, right):
    """The nodes reachable from the root (node 0) in depth-first preorder, left subtree
    before right (a plain loop, compiled by :func:`ordstat.trees._fast.compiled`)."""
    order = np.empty(left.size, dtype=np.int64)
    stack = np.empty(left.size + 1, dtype=np.int64)
    stack[0] = 0
    top = 1
    n = 0
    while top > 0:
        top -= 1
        v = stack[top]
        order[n] = v
        n += 1
        if left[v] >= 0:
            stack[top] = right[v]
            stack[top + 1] = left[v]
            top += 2
    return order[:n]


def _preorder_nodes(left, right, feature, threshold, goodness, missing, value):
    """The arrays of a fully grown tree of whole class counts in preorder (what an
    ensemble's store keeps, ``ordstat.ensemble._steps.kept_tree``): children renumbered,
    each split's feature, threshold and goodness, the side of missing values (learned, else
    the heavier child, left on ties: the counts are whole numbers, so their sums are exact
    in any order) and the class counts (a plain loop, compiled by
    :func:`ordstat.trees._fast.compiled`)."""
    order = _preorder(left, right)
    n, k = order.size, value.shape[1]
    new = np.empty(left.size, dtype=np.int64)
    for i in range(n):
        new[order[i]] = i
    cl = np.full(n, -1, dtype=np.int64)
    cr = np.full(n, -1, dtype=np.int64)
    feat = np.full(n, -1, dtype=np.int64)
    thr = np.full(n, np.nan)
    improvement = np.zeros(n)
    missing_left = np.zeros(n, dtype=np.bool_)
    missing_learned = np.zeros(n, dtype=np.bool_)
    counts = np.empty((n, k))
    wsum = np.zeros(n)
    for i in range(n):
        v = order[i]
        for g in range(k):
            counts[i, g] = value[v, g]
            wsum[i] += value[v, g]
    for i in range(n):
        v = order[i]
        if left[v] >= 0:
            cl[i], cr[i] = new[left[v]], new[right[v]]
            feat[i], thr[i], improvement[i] = feature[v], threshold[v], goodness[v]
            missing_learned[i] = missing[v] >= 0
            missing_left[i] = (missing[v] == 1 if missing[v] >= 0
                               else wsum[cl[i]] >= wsum[cr[i]])
    return cl, cr, feat, thr, improvement, missing_left, missing_learned, counts


def _tree(criterion, nodes) -> Tree:
    """The fitted :class:`Tree` from the grown node arrays ``nodes`` (a dict: ``left``,
    ``right``, ``feature``, ``threshold``, ``goodness``, ``left_categories`` (or None),
    ``missing``, ``value``, ``n``, ``risk``, ``yval``, ``complexity``, ``depth``, ``number``;
    any node order, root first; ``missing``: -1 where the node met no missing value on its
    split feature, else 1 for left, 0 for right; with surrogate splits also ``surrogates``,
    one record per node (None at leaves) for :meth:`Surrogates.from_nodes`, and
    ``surrogate_rule``). Each array is taken out of ``nodes`` as it is
    put in preorder, so that a large tree's grown arrays are freed one by one while the fitted
    ones are made (the caller keeps no other reference)."""
    left, right = nodes.pop("left"), nodes.pop("right")
    order = _fast.compiled(_preorder)(left, right)
    n_nodes = order.size
    new = np.full(left.size, -1, dtype=np.int64)
    new[order] = np.arange(n_nodes)
    old_left = left[order]
    inner = np.flatnonzero(old_left >= 0)
    cl = np.full(n_nodes, -1, dtype=np.int64)
    cr = np.full(n_nodes, -1, dtype=np.int64)
    cl[inner] = new[old_left[inner]]
    cr[inner] = new[right[order[inner]]]
    del left, right, new, old_left
    split_of = order[inner]
    feature_out = np.full(n_nodes, -1, dtype=np.int64)
    threshold_out = np.full(n_nodes, np.nan)
    improvement = np.zeros(n_nodes)
    categories = np.empty(n_nodes, dtype=object)
    feature_out[inner] = nodes.pop("feature")[split_of]
    threshold_out[inner] = nodes.pop("threshold")[split_of]
    improvement[inner] = nodes.pop("goodness")[split_of]
    surrogates = None
    if "surrogates" in nodes:  # grown with surrogate splits: their table in preorder
        records = nodes.pop("surrogates")
        inner_set = set(inner.tolist())
        surrogates = Surrogates.from_nodes(
            [records[order[i]] if i in inner_set else None for i in range(n_nodes)],
            nodes.pop("surrogate_rule"))
    left_categories = nodes.pop("left_categories")
    if left_categories is not None:
        categories[inner] = left_categories[split_of]
    learned = nodes.pop("missing")[split_of]
    missing_learned = np.zeros(n_nodes, dtype=bool)
    missing_learned[inner] = learned >= 0
    value = nodes.pop("value")[order]
    wsum = value.sum(axis=1)
    # a node that met no missing value sends them to the heavier child (left on ties)
    heavier_left = wsum[cl[inner]] >= wsum[cr[inner]]
    missing_left = np.zeros(n_nodes, dtype=bool)
    missing_left[inner] = np.where(learned >= 0, learned == 1, heavier_left)
    impurity = np.zeros(n_nodes)
    np.divide(criterion.impurity(value), wsum, out=impurity, where=wsum > 0)
    complexity = nodes.pop("complexity")[order]
    _fast.compiled(_fix_cp)(cl, cr, complexity)
    depth = nodes.pop("depth")[order]
    n, risk = nodes.pop("n")[order], nodes.pop("risk")[order]
    yval, number = nodes.pop("yval")[order], nodes.pop("number")[order]
    return Tree(
        children_left=cl,
        children_right=cr,
        feature=feature_out,
        threshold=threshold_out,
        left_categories=categories,
        value=value,
        n_node_samples=n,
        weighted_n_node_samples=wsum,
        impurity=impurity,
        improvement=improvement,
        risk=risk,
        yval=yval,
        complexity=complexity,
        node_number=number,
        depth=depth,
        missing_left=missing_left,
        missing_learned=missing_learned,
        surrogates=surrogates,
        present_categories=np.empty(n_nodes, dtype=object),  # set by the estimator's fit
    )
