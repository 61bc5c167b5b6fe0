"""rpart's growth with surrogate splits (``missing="surrogate"``): node by node, depth first,
in numpy (the searches of :mod:`._surrogate`).

One growth of :class:`ordstat.trees._grow.TreeBuilder` (its table ``GROWTHS``): :func:`grow`.
"""

from __future__ import annotations

import numpy as np

from ._splitter import Split
from ._surrogate import primary_directions, primary_split, send, surrogate_splits
from ._tree import Tree

__all__ = ["grow"]


def grow(builder, n_units) -> Tree:
    """rpart's growth with surrogate splits (``builder.surrogate``), node by node in
    rpart's order (depth first, left before right), in numpy: each feature's goodness on
    the node's units not missing it (:func:`~ordstat.trees._surrogate.primary_split`), the
    surrogates of the best (:func:`~ordstat.trees._surrogate.surrogate_splits`), the units
    sent by the split, the surrogates and the majority as ``usesurrogate`` says (with
    ``usesurrogate`` < 2 a unit may stay in the node). Then the complexities as the level
    loop's tree gets them (:meth:`~ordstat.trees._grow.TreeBuilder.finish`). A cut of an
    ordered factor (codes) is moved up to the next half code, where rpart's levels put it: a
    level absent from the node between two codes goes to the lower side, as rpart's
    ``predict`` sends it. The sample is
    ``builder.data``: ``(X, codes, w)`` (no splitter: each node's search is its own)."""
    X, codes, w = builder.data
    n, p = X.shape
    rule = builder.surrogate
    cat_sizes = (np.zeros(p, dtype=np.int64) if builder.cat_sizes is None
                 else np.asarray(builder.cat_sizes, dtype=np.int64))
    nd = builder.nodes
    builder._node_surrogates = {}
    iscale = [0.0]
    stack = [(0, np.arange(n))]
    while stack:
        v, units = stack.pop()
        if not builder._searchable(v):
            continue
        feats = (np.arange(p) if builder.max_features is None or builder.max_features >= p
                 else np.sort(builder.rng.choice(p, builder.max_features, replace=False)))
        split = primary_split(X, codes, w, units, builder.K, builder.criterion,
                              min_bucket=builder.min_bucket, cat_sizes=cat_sizes,
                              features=feats, iscale=iscale)
        if split is None:
            continue
        if split.feature in builder.ordered:
            split = split._replace(threshold=np.floor(split.threshold) + 0.5)
        y = primary_directions(X, units, split)
        found = (surrogate_splits(X, w, units, y, split.feature, cat_sizes, rule)
                 if rule.max_surrogate > 0 else [])
        found = [s._replace(threshold=np.floor(s.threshold) + 0.5)
                 if s.feature in builder.ordered else s for s in found]
        go, found, majority = send(X, w, units, y, found, rule)
        nd.split[v] = Split(split.goodness, split.feature, threshold=split.threshold,
                            left_categories=split.left_categories)
        builder._node_surrogates[v] = (split, found, majority)
        sides = [units[go > 0], units[go < 0]]
        counts = np.stack([np.bincount(codes[u], w[u], minlength=builder.K).astype(float)
                           for u in sides])
        kids = builder._add_nodes(counts, np.array([u.size for u in sides]), v,
                                  nd.depth[v] + 1,
                                  np.array([2 * nd.number[v], 2 * nd.number[v] + 1]))
        nd.left[v], nd.right[v] = int(kids[0]), int(kids[1])
        stack.append((int(kids[1]), sides[1]))
        stack.append((int(kids[0]), sides[0]))
    return builder.finish()
