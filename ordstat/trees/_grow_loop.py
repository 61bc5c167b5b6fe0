"""The level loop: the tree grown level by level in Python, the splits of all nodes of a
level searched in one vectorised pass of the splitter (:class:`._splitter.Splitter`).

One growth of :class:`ordstat.trees._grow.TreeBuilder` (its table ``GROWTHS``): :func:`grow`;
:func:`best_splits` and :func:`split_level` (a level's splits, and its children made in the
builder's node lists) are shared with the best-first growth (:mod:`._grow_best_first`).
The compiled levels (:mod:`._grow_levels`, :mod:`._grow_presorted`) grow the same trees.
"""

from __future__ import annotations

import numpy as np

from ._tree import Tree

__all__ = ["grow", "best_splits", "split_level"]


def grow(builder, n_units) -> Tree:
    """Grow the largest tree the node-local rules allow, one level at a time (each level
    holds only nodes that may be split: the others are dropped when they are created), then
    pass 2 (:meth:`~ordstat.trees._grow.TreeBuilder.finish`)."""
    layout, _ = builder.splitter.root()
    if builder._searchable(0):
        nodes = np.array([0])
        sizes = np.array([layout.n_units])
        while nodes.size:
            splits = best_splits(builder, layout, nodes, sizes)
            found = np.array([sp is not None for sp in splits], dtype=bool)
            if not found.any():
                break
            layout, sizes, nodes = split_level(builder, layout, nodes, sizes, splits, found)
    return builder.finish()


def best_splits(builder, layout, nodes, sizes):
    """The splitter's best split of each node of a level (None where it finds none)."""
    totals = np.array([builder.nodes.value[v] for v in nodes]).reshape(nodes.size, builder.K)
    return builder.splitter.best_splits(layout, totals, sizes)


def split_level(builder, layout, nodes, sizes, splits, found, keep_all=False):
    """Create the children of the nodes with a split; return the next level's layout
    (children that may be split further, or all children with ``keep_all``: the best-first
    growth, :mod:`._grow_best_first`)."""
    nd = builder.nodes
    S = nodes.size
    lc, n_left = builder.splitter.children(layout, sizes, splits, found)
    # units in each node (n) and in its layout segment: they differ with repeats
    u_left = n_left
    u_node = sizes
    if builder.repeats is not None:
        u_left = builder.splitter.units_left(layout, sizes, builder.repeats)
        u_node = np.array([nd.n[v] for v in nodes], dtype=np.int64)
    totals = np.array([nd.value[v] for v in nodes]).reshape(S, builder.K)
    rc = np.maximum(totals - lc, 0.0)
    fidx = np.flatnonzero(found)
    parents = nodes[fidx]
    depth = nd.depth[parents[0]] + 1
    numbers = np.array([nd.number[v] for v in parents], dtype=np.int64)
    # children in the order (left_0, right_0, left_1, right_1, ...)
    counts = np.empty((2 * fidx.size, builder.K))
    counts[0::2], counts[1::2] = lc[fidx], rc[fidx]
    nn = np.empty(2 * fidx.size, dtype=np.int64)
    nn[0::2], nn[1::2] = u_left[fidx], u_node[fidx] - u_left[fidx]
    seg_n = np.empty(2 * fidx.size, dtype=np.int64)
    seg_n[0::2], seg_n[1::2] = n_left[fidx], sizes[fidx] - n_left[fidx]
    nums = np.empty(2 * fidx.size, dtype=np.int64)
    nums[0::2], nums[1::2] = 2 * numbers, 2 * numbers + 1
    kids = builder._add_nodes(counts, nn, np.repeat(parents, 2), depth, nums)
    for i, v in enumerate(parents):
        nd.split[v] = splits[fidx[i]]
        nd.left[v], nd.right[v] = int(kids[2 * i]), int(kids[2 * i + 1])
    if keep_all:
        keep = np.ones(kids.size, dtype=bool)
    else:  # _searchable for every child
        risk = np.array(nd.risk[kids[0]:kids[-1] + 1])
        keep = ((nn >= builder.min_split) & (depth < builder.max_depth)
                & (risk > builder.alpha) & (nn >= 2 * builder.min_bucket))
    # each kept child at its offset in the next level's layout (-1: dropped)
    dest = np.full(kids.size, -1, dtype=np.int64)
    dest[keep] = np.concatenate([[0], np.cumsum(seg_n[keep])[:-1]])
    new_layout = builder.splitter.partition(layout, sizes, fidx, n_left, dest)
    return new_layout, seg_n[keep], kids[keep]
