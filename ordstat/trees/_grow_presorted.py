"""Compiled presorted levels: the level loop's tree grown in one compiled call
(:func:`ordstat.trees._kernels.presorted.make_presorted_level`) on node arrays
(:mod:`._node_arrays`), every feature kept presorted as words of rank, unit and class code.

One growth of :class:`ordstat.trees._grow.TreeBuilder` (its table ``GROWTHS``): :func:`grow`;
:func:`_tied_rows` marks the rows of mostly tied values.
Why it grows the level loop's trees: docs/trees_engine.md, "The engine".
"""

from __future__ import annotations

import numpy as np

from . import _fast
from ._node_arrays import WordSample, _room, compiled_tree, level_rules, root_arrays
from ._records import Level
from ._splitter import word_bits
from ._tree import Tree

__all__ = ["grow"]


def grow(builder, n_units) -> Tree:
    """The level loop (:mod:`._grow_loop`) in one compiled call per tree
    (:func:`ordstat.trees._kernels.presorted.make_presorted_level`) on node arrays, for
    trees that keep every feature presorted."""
    sp = builder.splitter
    n_all, p = sp.X.shape
    cb, ub = word_bits(builder.K, n_all)
    order = sp.packed_root(cb, ub)
    P, n = order.shape
    tree = root_arrays(builder, n, n_units)
    # rows of mostly tied values (few distinct values, e.g. item scores): their scans skip
    # the gain between ties (a branch) instead of discarding it (see make_presorted_level);
    tied = _fast.compiled(_tied_rows)(order, cb + ub)
    sample = WordSample(
        X=_fast.read_only(sp.X), cb=cb, ub=ub,
        row_feature=np.concatenate([np.arange(p), sp._mirror]).astype(np.int64),
        tied=tied,
        w=np.ascontiguousarray(sp.w, dtype=np.float64),
        rep=np.ones(n_all, dtype=np.int64) if builder.repeats is None else builder.repeats,
        flag=sp._flag, cat_sizes=_fast.read_only(np.ascontiguousarray(sp.cat_sizes)))
    rules = level_rules(builder)
    grow = _fast.presorted_level(builder.criterion, categorical=bool(sp.cat_sizes.any()))
    # each level's layout is written over the last one's, in the root's words: a tree
    # holds one (P, n) array of words (101 MB at n = 10^6, p = 20)
    words = order.reshape(P * n)
    # this level's segment sizes and nodes, and the next level's
    sizes, nodes = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    sizes[0] = n
    out = Level(words, np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64))
    n_nodes, m = 1 if builder._searchable(0) else 0, n
    rng, k = sp.key_stream()  # the level loop's random stream
    # one call grows levels until the node arrays need room (a few calls per tree)
    while n_nodes:
        tree = _room(tree, int(tree.count[0]) + 2 * n_nodes, 2 * n - 1)
        n_nodes, m = grow(sample, rules, tree, words, P, sizes, nodes, out, n_nodes, m, rng,
                          k)
    del order, words, out  # the words are freed before the fitted tree is built
    grown = [tree]
    del tree  # the node arrays are freed as the fitted tree is made
    return compiled_tree(builder, grown)


def _tied_rows(order, rs):
    """(P,) whether most of each row of words ``order`` (P, n) repeats its predecessor's value
    (the bits above ``rs``): more than n // 2 of its words (a plain loop, compiled by
    :func:`ordstat.trees._fast.compiled`: one pass, no array of values beside the words)."""
    P, n = order.shape
    tied = np.zeros(P, dtype=np.bool_)
    for r in range(P):
        same = 0
        for t in range(1, n):
            same += (order[r, t] >> rs) == (order[r, t - 1] >> rs)
        tied[r] = same > n // 2
    return tied
