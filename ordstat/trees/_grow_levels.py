"""Compiled levels sorting per node: the level loop's tree grown in one compiled call
(:func:`ordstat.trees._kernels.levels.make_level_grow`) on node arrays
(:mod:`._node_arrays`), each node's units sorted by the features drawn for it.

One growth of :class:`ordstat.trees._grow.TreeBuilder` (its table ``GROWTHS``): :func:`grow`.
Why it grows the level loop's trees: docs/trees_engine.md, "The engine".
"""

from __future__ import annotations

import numpy as np

from . import _fast
from ._node_arrays import SortedSample, _room, compiled_tree, level_rules, root_arrays
from ._records import Level
from ._tree import Tree

__all__ = ["grow"]


def grow(builder, n_units) -> Tree:
    """The level loop (:mod:`._grow_loop`) in one compiled call per tree
    (:func:`ordstat.trees._kernels.levels.make_level_grow`) on node arrays, for trees
    sorting each node's drawn features."""
    sp = builder.splitter
    n_all, p = sp.X.shape
    n = sp.rows.size
    tree = root_arrays(builder, n, n_units)
    rep = np.ones(n_all, dtype=np.int64) if builder.repeats is None else builder.repeats
    ranks, neg_ranks = sp.sort_keys()
    sample = SortedSample(X=sp.X, sort_by=ranks, neg_by=neg_ranks, codes=sp._small_codes,
                          w=np.ascontiguousarray(sp.w, dtype=np.float64), rep=rep,
                          cat_sizes=_fast.read_only(np.ascontiguousarray(sp.cat_sizes)))
    rules = level_rules(builder, p if sp.max_features is None else min(sp.max_features, p))
    grow = _fast.level_grow(builder.criterion, categorical=bool(sp.cat_sizes.any()))
    # this level's units, segment sizes and nodes, and the next level's (swapped); a
    # level has at most n nodes (each holds a row)
    cur, nxt = (Level(np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64),
                      np.empty(n, dtype=np.int64)) for _ in range(2))
    cur.rows[:], cur.sizes[0], cur.nodes[0] = sp.rows, n, 0
    n_nodes, n_rows = (1, n) if builder._searchable(0) else (0, 0)
    rng, k = sp.key_stream()  # the level loop's random stream
    # one call grows levels until the node arrays need room (a few calls per tree)
    while n_nodes:
        tree = _room(tree, int(tree.count[0]) + 2 * n_nodes, 2 * n - 1)
        n_nodes, n_rows, swapped = grow(sample, rules, tree, cur, nxt, n_nodes, n_rows,
                                        rng, k)
        if swapped:
            cur, nxt = nxt, cur
    del cur, nxt, sample
    grown = [tree]
    del tree  # the node arrays are freed as the fitted tree is made
    return compiled_tree(builder, grown)
