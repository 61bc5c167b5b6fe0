"""Growing a classification tree into flat arrays, rpart-style (Therneau & Atkinson).

The module structure is the following:

- :class:`TreeBuilder`: one tree's rules, sample and engine; pass 1, the largest tree allowed
  by the node rules, grown by one of the growths of :data:`GROWTHS` (chosen once per tree by
  :meth:`TreeBuilder._growth`); pass 2, rpart's recursion computing the weakest-link
  complexities and collapsing the nodes at most alpha; the fitted
  :class:`ordstat.trees._tree.Tree`;
- the growths, one module each, each ``grow(builder, n_units) -> Tree``: the level loop
  (:mod:`._grow_loop`), best first with ``max_leaf_nodes`` (:mod:`._grow_best_first`), the
  compiled levels sorting per node (:mod:`._grow_levels`) and presorted
  (:mod:`._grow_presorted`), rpart's surrogate splits (:mod:`._grow_surrogate`);
- the node lists that the Python growths fill (``_Nodes``, made by :func:`_root_node`, grown
  by :meth:`TreeBuilder._add_nodes`); the compiled levels fill node arrays
  (:mod:`._node_arrays`, which also makes the fitted tree from any growth's nodes).

The two passes, the compiled and the presorted levels and why they grow the same trees are
explained in the documentation, "How the trees are grown" (docs/trees_engine.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import (_engine, _fast, _grow_best_first, _grow_levels, _grow_loop, _grow_presorted,
               _grow_surrogate)
from ._node_arrays import _partition_nodes, _tree
from ._splitter import Splitter, word_bits
from ._tree import Tree, _complexities_bottom_up, _complexity, _risks

__all__ = ["TreeBuilder", "GROWTHS"]

#: How a tree grows, by name (:meth:`TreeBuilder._growth` chooses): each is
#: ``grow(builder, n_units) -> Tree``, called with the root node and alpha set in the builder.
GROWTHS = {
    "loop": _grow_loop.grow,
    "best_first": _grow_best_first.grow,
    "levels": _grow_levels.grow,
    "presorted": _grow_presorted.grow,
    "surrogate": _grow_surrogate.grow,
}


@dataclass
class _Nodes:
    """Growing storage: one Python list per node attribute."""

    parent: list = field(default_factory=list)
    left: list = field(default_factory=list)
    right: list = field(default_factory=list)
    split: list = field(default_factory=list)
    value: list = field(default_factory=list)
    n: list = field(default_factory=list)
    risk: list = field(default_factory=list)
    yval: list = field(default_factory=list)
    complexity: list = field(default_factory=list)
    depth: list = field(default_factory=list)
    number: list = field(default_factory=list)


def _root_node(counts, n_units, loss):
    """The node lists of a tree holding its root alone (class counts ``counts`` (1, K),
    ``n_units`` units): :meth:`TreeBuilder._add_nodes` of that one node, without the array
    calls of a level's nodes (a forest makes a root per tree)."""
    risks = _risks(counts, loss)[0]  # (K,): risk of predicting each class
    yval = int(risks.argmin())
    return _Nodes(parent=[-1], left=[-1], right=[-1], split=[None], value=[counts[0]],
                  n=[int(n_units)], risk=[float(risks[yval])], yval=[yval],
                  complexity=[0.0], depth=[0], number=[1])


class TreeBuilder:
    """Grows one tree (see the module docstring for the rules).

    Parameters
    ----------
    criterion : Criterion
        See :mod:`ordstat.trees.criteria`.
    loss : ndarray of shape (K, K)
        ``loss[h, g]``: loss of predicting class h for a unit of class g (leaf rule and risk).
    min_split, min_bucket, max_depth : int
        rpart's controls (counts of units; root depth 0).
    cp : float
        Complexity parameter; alpha = cp * R(root).
    max_features : int or None
        Number of features drawn at random (without replacement) in each node; None = all.
    max_leaf_nodes : int or None
        If given, nodes are split best first (largest goodness) until this many leaves, and the
        cp rule is applied to the grown tree afterwards.
    rng : numpy Generator
        For ``max_features``.
    alpha : float, optional
        Absolute complexity threshold overriding ``cp * R(root)``.
    cat_sizes : ndarray of shape (p,)
        Number of categories of each categorical feature, 0 for numeric features.
    engine : ordstat.trees._engine.Engine, optional
        The engine of the split search and of the growth; by default the one
        :func:`ordstat.trees._engine.choose` picks when the tree is built.
    surrogate : ordstat.trees._surrogate.SurrogateRule, optional
        Grow with rpart's surrogate splits (:mod:`._grow_surrogate`) instead of learning the
        side of missing values.
    ordered : sequence of int, optional
        Features holding the codes of ordered categories (with ``surrogate``: their cuts are
        put where rpart's levels put them, see :mod:`._grow_surrogate`).

    Notes
    -----
    In rpart's depth-first mode the tree is grown in two passes that give rpart's tree: first
    level by level, searching the splits of all nodes of a level in one vectorised pass (the
    best split of a node depends only on its units), stopping on the rules that depend on the
    node alone (``min_split``, ``max_depth``, ``min_bucket``, R(t) <= alpha); then rpart's
    recursion runs over that tree without touching the data, applying the complexity bound
    passed from parent to child and collapsing nodes of complexity <= alpha.
    """

    def __init__(self, criterion, loss, *, min_split, min_bucket, max_depth, cp,
                 max_features=None, max_leaf_nodes=None, rng=None, cat_sizes=None, alpha=None,
                 engine=None, surrogate=None, ordered=()):
        self.criterion = criterion
        self.loss = np.asarray(loss, dtype=np.float64)
        self.min_split = min_split
        self.min_bucket = max(1, min_bucket)
        self.max_depth = max_depth
        self.cp = cp
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.rng = rng
        self.cat_sizes = cat_sizes
        self.fixed_alpha = alpha
        self.given_engine = engine
        self.store = None  # see build_sample
        self.surrogate = surrogate
        self.ordered = np.asarray(list(ordered), dtype=np.int64)
        self.name = getattr(criterion, "__name__", repr(criterion))

    # -- public ----------------------------------------------------------------------------
    def build(self, X, codes, weights, n_classes, repeats=None) -> Tree:
        """The tree of (X, codes, weights); ``repeats`` (ints, optional): each row stands for
        that many identical units (a bootstrap sample), with min_bucket 1 the same tree as
        from the repeated rows, found from the distinct ones."""
        X = np.ascontiguousarray(X, dtype=np.float64)
        keep = weights > 0
        if repeats is not None and self.min_bucket != 1:
            raise ValueError("repeats need min_bucket 1 (a cut never separates repeats, but "
                             f"min_bucket counts them); got min_bucket={self.min_bucket}.")
        if not keep.all():  # zero-weight units play no part in the tree (as in rpart's search)
            X, codes, weights = X[keep], codes[keep], weights[keep]
            repeats = None if repeats is None else repeats[keep]
        self.repeats = None if repeats is None else np.asarray(repeats, dtype=np.int64)
        if self.repeats is not None:  # a row's weight counts once per repeat
            weights = weights * self.repeats
        self.K = n_classes
        if self.surrogate is not None:
            if self.repeats is not None:
                raise ValueError("surrogate splits need the repeated rows, not repeats.")
            # no splitter: the surrogate growth searches each node in numpy
            codes = np.asarray(codes, dtype=np.int64)
            weights = np.asarray(weights, dtype=np.float64)
            self.engine = self.given_engine
            self.data = (X, codes, weights)
            root = np.bincount(codes, weights, minlength=self.K)[None, :].astype(float)
            return self._grow(X.shape[0], root)
        self.splitter = Splitter(X, codes, weights, n_classes, self.criterion,
                                 min_bucket=self.min_bucket, cat_sizes=self.cat_sizes,
                                 max_features=self.max_features, rng=self.rng,
                                 engine=self._choose_engine(*X.shape[::-1]))
        n_units = X.shape[0] if self.repeats is None else int(self.repeats.sum())
        return self._grow(n_units, self.splitter.root_counts())

    def build_sample(self, sample, repeats, store=None) -> Tree:
        """:meth:`build` of ``(X[rows], codes[rows], 1, K, repeats)`` for the rows of a
        sample prepared once for an ensemble (:mod:`ordstat.trees._prepared`), without
        copying them: the units keep their indices in the prepared sample. ``store``: an
        object whose ``arrays(grown, loss)`` gives back the arrays of a fully grown tree of
        the compiled levels without categorical splits (its
        :class:`~ordstat.trees._node_arrays.NodeArrays` ``grown``) in
        preorder and in compact types (an ensemble's ``ordstat.ensemble._common.TreeStore``);
        with it, such a tree comes as the :class:`~ordstat.trees._tree.DerivedTree` of those
        arrays, its derived arrays never made (an ensemble keeps hundreds of trees of which it
        reads few)."""
        self.store = store
        if self.min_bucket != 1:
            raise ValueError("repeats need min_bucket 1 (a cut never separates repeats, but "
                             f"min_bucket counts them); got min_bucket={self.min_bucket}.")
        data = sample.data
        n = data.X.shape[0]
        self.repeats = np.zeros(n, dtype=np.int64)
        self.repeats[sample.rows] = repeats
        self.K = data.n_classes
        self.splitter = Splitter(data.X, data.codes, self.repeats.astype(np.float64), self.K,
                                 self.criterion, min_bucket=self.min_bucket,
                                 cat_sizes=self.cat_sizes, max_features=self.max_features,
                                 rng=self.rng, sample=sample,
                                 engine=self._choose_engine(*data.X.shape[::-1]))
        return self._grow(int(self.repeats.sum()), self.splitter.root_counts())

    def _choose_engine(self, p, n_rows):
        """The tree's engine (chosen once, for the splitter and the growth)."""
        cp = self.cp if self.fixed_alpha is None else self.fixed_alpha
        self.engine = (_engine.choose(self.criterion, self.max_features, p, n_rows,
                                      fully_grown=cp < 0 and self.max_leaf_nodes is None)
                       if self.given_engine is None else self.given_engine)
        return self.engine

    def _grow(self, n_units, root_counts) -> Tree:
        """The tree grown from its root (class counts ``root_counts`` (1, K) of ``n_units``
        units) by the growth that :meth:`_growth` chooses."""
        self.nodes = _root_node(root_counts, n_units, self.loss)
        # Cross-validation passes rpart's rescaled absolute alpha instead of cp.
        self.alpha = (self.cp * self.nodes.risk[0] if self.fixed_alpha is None
                      else self.fixed_alpha)
        self.growth = self._growth()
        return GROWTHS[self.growth](self, n_units)

    def _growth(self):
        """The name in :data:`GROWTHS` of how the tree grows: ``"surrogate"`` with rpart's
        surrogate splits, ``"best_first"`` with ``max_leaf_nodes``, else by compiled levels
        where the engine and the tree allow it (``"levels"`` sorting per node,
        ``"presorted"``), else by the level loop (``"loop"``)."""
        if self.surrogate is not None:
            return "surrogate"
        sp, engine = self.splitter, self.engine
        if self.max_leaf_nodes is not None:
            return "best_first"
        if engine.levels:
            if engine.per_node:
                # (sorted units as int32)
                if self.alpha < 0 and sp.X.shape[0] < 2 ** 31 and sp.compiled_categories():
                    return "levels"
            elif sp.compiled_categories():
                cb, ub = word_bits(self.K, sp.X.shape[0])
                if self.alpha <= 0 and cb + ub + sp.X.shape[0].bit_length() <= 63:
                    return "presorted"
        return "loop"

    # -- nodes -----------------------------------------------------------------------------
    def _add_nodes(self, counts, n, parent, depth, numbers):
        """Append nodes (class counts (s, K), unit counts (s,)); return their indices."""
        nd = self.nodes
        risks = _risks(counts, self.loss)  # (s, K): risk of predicting each class
        yval = np.argmin(risks, axis=1)
        first = len(nd.parent)
        s = counts.shape[0]
        nd.parent.extend([int(parent)] * s if np.ndim(parent) == 0 else np.asarray(parent).tolist())
        nd.left.extend([-1] * s)
        nd.right.extend([-1] * s)
        nd.split.extend([None] * s)
        nd.value.extend(list(counts))
        nd.n.extend(np.asarray(n).tolist())
        nd.risk.extend(risks[np.arange(s), yval].tolist())
        nd.yval.extend(yval.tolist())
        nd.complexity.extend([0.0] * s)
        nd.depth.extend([depth] * s if np.ndim(depth) == 0 else list(depth))
        nd.number.extend(np.asarray(numbers).tolist())
        return np.arange(first, first + s)

    def _searchable(self, node):
        """Rules that depend on the node alone (the cp bound from the parent comes later)."""
        nd = self.nodes
        return (nd.n[node] >= self.min_split and nd.depth[node] < self.max_depth
                and nd.risk[node] > self.alpha and nd.n[node] >= 2 * self.min_bucket)

    # -- pass 2 and the fitted tree of the node lists ------------------------------------
    def finish(self) -> Tree:
        """Pass 2 over the grown node lists, then the fitted tree: only the complexities
        when alpha < 0 (forests, bagging of full trees: nothing is collapsed), else rpart's
        recursion (:meth:`_partition`)."""
        if self.alpha < 0:
            self._complexities_bottom_up()
        else:
            self._partition()
        return self.to_tree()

    def _partition(self):
        """rpart's recursion over the grown tree from the root (:func:`_partition_nodes`):
        the complexities, and the nodes collapsed made leaves."""
        nd = self.nodes
        left = np.array(nd.left, dtype=np.int64)
        right = np.array(nd.right, dtype=np.int64)
        complexity = np.zeros(left.size)
        _fast.compiled(_partition_nodes, _complexity)(
            left, right, np.array(nd.risk, dtype=np.float64), complexity, float(self.alpha))
        for v in np.flatnonzero((left < 0) & (np.array(nd.left) >= 0)).tolist():
            self._make_leaf(v)
        nd.complexity = complexity.tolist()

    def _complexities_bottom_up(self):
        nd = self.nodes
        nd.complexity = _fast.compiled(_complexities_bottom_up, _complexity)(
            np.array(nd.left, dtype=np.int64), np.array(nd.right, dtype=np.int64),
            np.array(nd.risk, dtype=np.float64), float(self.alpha)).tolist()

    def _make_leaf(self, node):
        nd = self.nodes
        nd.left[node] = nd.right[node] = -1
        nd.split[node] = None

    def to_tree(self) -> Tree:
        """The fitted tree of the node lists (:func:`._node_arrays._tree`)."""
        nd = self.nodes
        N = len(nd.parent)
        left = np.array(nd.left, dtype=np.int64)
        feature = np.full(N, -1, dtype=np.int64)
        threshold = np.full(N, np.nan)
        goodness = np.zeros(N)
        left_categories = np.empty(N, dtype=object)
        missing = np.full(N, -1, dtype=np.int8)  # side learned for missing values: none met
        for v in np.flatnonzero(left >= 0).tolist():
            sp = nd.split[v]
            feature[v], threshold[v], goodness[v] = sp.feature, sp.threshold, sp.goodness
            left_categories[v] = sp.left_categories
            if sp.missing_left is not None:
                missing[v] = sp.missing_left
        extra = {}
        if self.surrogate is not None:
            extra = dict(surrogates=[self._node_surrogates[v] if nd.split[v] is not None
                                     else None for v in range(N)],
                         surrogate_rule=self.surrogate)
        return _tree(self.criterion, dict(**extra,
            left=left, right=np.array(nd.right, dtype=np.int64), feature=feature,
            threshold=threshold, goodness=goodness, left_categories=left_categories,
            missing=missing, value=np.array(nd.value, dtype=np.float64).reshape(-1, self.K),
            n=np.array(nd.n, dtype=np.int64), risk=np.array(nd.risk, dtype=np.float64),
            yval=np.array(nd.yval, dtype=np.int64),
            complexity=np.array(nd.complexity, dtype=np.float64),
            depth=np.array(nd.depth, dtype=np.int64), number=np.array(nd.number, dtype=np.int64)))

