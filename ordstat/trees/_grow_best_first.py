"""Best-first growth, for a fixed number of leaves (``max_leaf_nodes``): the node of the
largest goodness split first, then the weakest links collapsed (rpart's cp rule).

One growth of :class:`ordstat.trees._grow.TreeBuilder` (its table ``GROWTHS``): :func:`grow`;
it searches and splits nodes as the level loop does (:mod:`._grow_loop`), one at a time.
"""

from __future__ import annotations

import heapq

import numpy as np

from ._grow_loop import best_splits, split_level
from ._tree import Tree, _complexity

__all__ = ["grow"]


def grow(builder, n_units) -> Tree:
    """Split the node of the largest goodness first until ``max_leaf_nodes`` leaves, then
    collapse the weakest links at most alpha (:func:`_weakest_link`)."""
    layout, _ = builder.splitter.root()
    heap = []
    counter = 0

    def push(node, node_layout):
        nonlocal counter
        if builder._searchable(node):
            split = best_splits(builder, node_layout, np.array([node]),
                                np.array([node_layout.n_units]))[0]
            if split is not None:
                heapq.heappush(heap, (-split.goodness, counter, node, split, node_layout))
                counter += 1

    push(0, layout)
    n_leaves = 1
    while heap and n_leaves < builder.max_leaf_nodes:
        _, _, node, split, node_layout = heapq.heappop(heap)
        new_layout, seg_n, kids = split_level(
            builder, node_layout, np.array([node]), np.array([node_layout.n_units]), [split],
            np.array([True]), keep_all=True)
        n_left = seg_n[0]
        n_leaves += 1
        push(int(kids[0]), new_layout.columns(slice(None, n_left)))
        push(int(kids[1]), new_layout.columns(slice(n_left, None)))
    _weakest_link(builder, 0)
    return builder.to_tree()


def _weakest_link(builder, node):
    """Complexities of a grown tree bottom-up (as rpart's recursion), collapsing nodes whose
    complexity is at most alpha; returns (splits kept, summed leaf risk)."""
    nd = builder.nodes
    if nd.left[node] < 0:
        nd.complexity[node] = builder.alpha
        return 0, nd.risk[node]
    l_split, l_risk = _weakest_link(builder, nd.left[node])
    r_split, r_risk = _weakest_link(builder, nd.right[node])
    cx, l_split, l_risk, r_split, r_risk = _node_complexity(builder, node, l_split, l_risk,
                                                            r_split, r_risk)
    nd.complexity[node] = cx
    if cx <= builder.alpha:
        builder._make_leaf(node)
        return 0, nd.risk[node]
    return l_split + r_split + 1, l_risk + r_risk


def _node_complexity(builder, node, l_split, l_risk, r_split, r_risk):
    """Weakest-link complexity of ``node`` (:func:`_complexity`)."""
    nd = builder.nodes
    left, right = nd.left[node], nd.right[node]
    return _complexity(nd.risk[node], nd.risk[left], nd.risk[right], nd.complexity[left],
                       nd.complexity[right], l_split, l_risk, r_split, r_risk)
