"""Growing a classification tree into flat arrays, rpart-style (Therneau & Atkinson).

The module structure is the following:

- the records that the compiled levels take: :class:`NodeArrays`, :class:`Rules`,
  :class:`SortedSample`, :class:`WordSample` (and ``Level``, in ``_records``, which the
  kernels build too);
- :class:`TreeBuilder`: pass 1, the largest tree allowed by the node rules, grown level by level
  (the level loop, or compiled levels where the engine allows), or best first with
  ``max_leaf_nodes``; pass 2, rpart's recursion computing the weakest-link complexities and
  collapsing the nodes at most alpha; the fitted :class:`ordstat.trees._tree.Tree`; with
  rpart's surrogate splits, pass 1 is :meth:`TreeBuilder._grow_surrogates` (numpy, node by
  node; see :mod:`ordstat.trees._surrogate`).

The two passes, the compiled and the presorted levels and why they grow the same trees are
explained in the documentation, "How the trees are grown" (docs/trees_engine.md).
"""

from __future__ import annotations

import functools
import heapq
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from . import _engine, _fast
from ._records import Level
from ._splitter import Split, Splitter, word_bits
from ._surrogate import Surrogates, primary_directions, primary_split, send, surrogate_splits
from ._tree import DerivedTree, Tree, _complexities_bottom_up, _complexity, _fix_cp, _risks

__all__ = ["TreeBuilder"]


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


class NodeArrays(NamedTuple):
    """The node arrays that the compiled levels fill, made with the root filled in and grown
    (:meth:`TreeBuilder._node_arrays`), and the growth's running state."""

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
        Grow with rpart's surrogate splits (:meth:`_grow_surrogates`) instead of learning the
        side of missing values.
    ordered : sequence of int, optional
        Features holding the codes of ordered categories (with ``surrogate``: their cuts are
        put where rpart's levels put them, see :meth:`_grow_surrogates`).

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
            return self._grow_surrogates(X, np.asarray(codes, dtype=np.int64),
                                         np.asarray(weights, dtype=np.float64))
        self.splitter = Splitter(X, codes, weights, n_classes, self.criterion,
                                 min_bucket=self.min_bucket, cat_sizes=self.cat_sizes,
                                 max_features=self.max_features, rng=self.rng,
                                 engine=self._choose_engine(*X.shape[::-1]))
        n_units = X.shape[0] if self.repeats is None else int(self.repeats.sum())
        return self._grow(n_units)

    def build_sample(self, sample, repeats, store=None) -> Tree:
        """:meth:`build` of ``(X[rows], codes[rows], 1, K, repeats)`` for the rows of a
        sample prepared once for an ensemble (:mod:`ordstat.trees._prepared`), without
        copying them: the units keep their indices in the prepared sample. ``store``: an
        object whose ``arrays(grown, loss)`` gives back the arrays of a fully grown tree of
        the compiled levels without categorical splits (its :class:`NodeArrays` ``grown``) in
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
        return self._grow(int(self.repeats.sum()))

    def _choose_engine(self, p, n_rows):
        """The tree's engine (chosen once, for the splitter and the growth)."""
        cp = self.cp if self.fixed_alpha is None else self.fixed_alpha
        self.engine = (_engine.choose(self.criterion, self.max_features, p, n_rows,
                                      fully_grown=cp < 0 and self.max_leaf_nodes is None)
                       if self.given_engine is None else self.given_engine)
        return self.engine

    def _grow(self, n_units) -> Tree:
        self.nodes = _root_node(self.splitter.root_counts(), n_units, self.loss)
        root = 0
        # Cross-validation passes rpart's rescaled absolute alpha instead of cp.
        self.alpha = (self.cp * self.nodes.risk[root] if self.fixed_alpha is None
                      else self.fixed_alpha)
        self.growth = self._growth()
        if self.growth == "levels":
            return self._grow_compiled(n_units)
        if self.growth == "presorted":
            return self._grow_presorted(n_units)
        layout, _ = self.splitter.root()
        if self.growth == "loop":
            self._grow_by_level(layout)
            if self.alpha < 0:  # forests, bagging of full trees: nothing is collapsed
                self._complexities_bottom_up()
            else:
                self._partition()
        else:
            self._grow_best_first(layout)
            self._weakest_link(root)
        return self._to_arrays()

    def _grow_surrogates(self, X, codes, w) -> Tree:
        """rpart's growth with surrogate splits (``self.surrogate``), node by node in
        rpart's order (depth first, left before right), in numpy: each feature's goodness on
        the node's units not missing it (:func:`~ordstat.trees._surrogate.primary_split`), the
        surrogates of the best (:func:`~ordstat.trees._surrogate.surrogate_splits`), the units
        sent by the split, the surrogates and the majority as ``usesurrogate`` says (with
        ``usesurrogate`` < 2 a unit may stay in the node). Then the complexities as the level
        loop's tree gets them. A cut of an ordered factor (codes) is moved up to the next
        half code, where rpart's levels put it: a level absent from the node between two
        codes goes to the lower side, as rpart's ``predict`` sends it."""
        n, p = X.shape
        rule = self.surrogate
        cat_sizes = (np.zeros(p, dtype=np.int64) if self.cat_sizes is None
                     else np.asarray(self.cat_sizes, dtype=np.int64))
        self.engine = self.given_engine
        self.growth = "surrogate"
        self.nodes = nd = _Nodes()
        self._add_nodes(np.bincount(codes, w, minlength=self.K)[None, :].astype(float),
                        np.array([n]), parent=-1, depth=0, numbers=np.array([1]))
        self.alpha = (self.cp * nd.risk[0] if self.fixed_alpha is None else self.fixed_alpha)
        self._node_surrogates = {}
        iscale = [0.0]
        stack = [(0, np.arange(n))]
        while stack:
            v, units = stack.pop()
            if not self._searchable(v):
                continue
            feats = (np.arange(p) if self.max_features is None or self.max_features >= p
                     else np.sort(self.rng.choice(p, self.max_features, replace=False)))
            split = primary_split(X, codes, w, units, self.K, self.criterion,
                                  min_bucket=self.min_bucket, cat_sizes=cat_sizes,
                                  features=feats, iscale=iscale)
            if split is None:
                continue
            if split.feature in self.ordered:
                split = split._replace(threshold=np.floor(split.threshold) + 0.5)
            y = primary_directions(X, units, split)
            found = (surrogate_splits(X, w, units, y, split.feature, cat_sizes, rule)
                     if rule.max_surrogate > 0 else [])
            found = [s._replace(threshold=np.floor(s.threshold) + 0.5)
                     if s.feature in self.ordered else s for s in found]
            go, found, majority = send(X, w, units, y, found, rule)
            nd.split[v] = Split(split.goodness, split.feature, threshold=split.threshold,
                                left_categories=split.left_categories)
            self._node_surrogates[v] = (split, found, majority)
            sides = [units[go > 0], units[go < 0]]
            counts = np.stack([np.bincount(codes[u], w[u], minlength=self.K).astype(float)
                               for u in sides])
            kids = self._add_nodes(counts, np.array([u.size for u in sides]), v,
                                   nd.depth[v] + 1,
                                   np.array([2 * nd.number[v], 2 * nd.number[v] + 1]))
            nd.left[v], nd.right[v] = int(kids[0]), int(kids[1])
            stack.append((int(kids[1]), sides[1]))
            stack.append((int(kids[0]), sides[0]))
        if self.alpha < 0:
            self._complexities_bottom_up()
        else:
            self._partition()
        return self._to_arrays()

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

    # -- growth ----------------------------------------------------------------------------
    def _grow_by_level(self, layout):
        """Grow the largest tree the node-local rules allow, one level at a time. Each level
        holds only nodes that may be split (the others are dropped when they are created)."""
        if not self._searchable(0):
            return
        nodes = np.array([0])
        sizes = np.array([layout.n_units])
        while nodes.size:
            splits = self._best_splits(layout, nodes, sizes)
            found = np.array([sp is not None for sp in splits], dtype=bool)
            if not found.any():
                break
            layout, sizes, nodes = self._split_level(layout, nodes, sizes, splits, found)

    def _growth(self):
        """How the tree grows (see the module docstring): ``"best_first"`` with
        ``max_leaf_nodes``, else by compiled levels where the engine and the tree allow it
        (``"levels"`` sorting per node, ``"presorted"``), else by the level loop (``"loop"``)."""
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

    def _node_arrays(self, n_rows, n_units):
        """:class:`NodeArrays` of the compiled levels, the root filled in, with room for the
        first levels, or for the whole tree where that is small; :func:`_room` grows them
        between levels, as the tree needs."""
        # a column per category of the categorical features (none: no column)
        c = int(self.splitter.cat_sizes.max(initial=0))
        # each split divides >= 2 rows: at most n_rows leaves, 2 n_rows - 1 nodes (and a
        # binary tree's below max_depth); a tree split down to two units without cp comes
        # near that (0.7 of it at K = 26 on 18,000 rows), so it gets all of it at once where
        # that is small (growing copied the arrays a few times a tree)
        most = min(max(1, 2 * n_rows - 1), 2 ** (self.max_depth + 1) - 1)
        whole = (self.alpha < 0 and self.min_split <= 2
                 and most * (8 * self.K + c + _NODE_BYTES) <= _WHOLE_TREE_BYTES)
        cap = most if whole else min(_FIRST_NODES, most)
        if cap <= _BLANK_NODES:  # copies of blank arrays (a third of the time of filling)
            arrays = {name: a[:cap].copy() for name, a in _blank_nodes(self.K, c).items()}
        else:
            arrays = _full_nodes(cap, self.K, c)
        arrays["value"][0] = self.nodes.value[0]  # the root (its other fields: the fill)
        arrays["n_units"][0] = n_units
        return NodeArrays(**arrays, count=np.ones(1, dtype=np.int64), iscale=np.zeros(1))

    def _rules(self, n_drawn=0):
        """The :class:`Rules` of the compiled levels."""
        return Rules(min_bucket=self.min_bucket, min_split=self.min_split,
                     max_depth=self.max_depth, alpha=float(self.alpha),
                     loss=np.ascontiguousarray(self.loss), param=self.splitter._param,
                     n_drawn=n_drawn, subsets=self.splitter.subset_levels())

    def _compiled_tree(self, grown) -> Tree:
        """The fitted tree from the :class:`NodeArrays` of the compiled levels (``grown``: a
        list holding them, emptied here so that they are freed as the fitted tree is made):
        pass 2 (only the complexities when alpha < 0, else rpart's recursion on the grown
        tree)."""
        tree = grown.pop()
        m = int(tree.count[0])
        categories = _left_categories(tree.categories[:m], tree.left[:m], tree.feature[:m],
                                      self.splitter.cat_sizes)
        if self.store is not None and self.alpha < 0 and categories is None:
            # whole counts, numeric splits: the arrays kept in preorder from one compiled
            # call; the unit counts (sums of repeats), risks, classes and complexities are
            # those that the DerivedTree computes when read (a tree with categorical splits
            # is made whole and compacted by the ensemble, its out-of-bag rows walked apart)
            return DerivedTree.from_arrays(self.store.arrays(tree, self.loss),
                                           self.criterion, self.loss, self.alpha)
        nodes = {name: getattr(tree, name)[:m] for name in _NODE_FILL if name != "categories"}
        del tree
        nodes["n"] = nodes.pop("n_units")
        value, left, right = nodes["value"], nodes["left"], nodes["right"]
        risks = _risks(value, self.loss)  # as _add_nodes
        yval = np.argmin(risks, axis=1)
        risk = risks[np.arange(m), yval]
        del risks, value
        if self.alpha < 0:
            complexity = _fast.compiled(_complexities_bottom_up, _complexity)(
                left, right, risk, float(self.alpha))
        else:  # rpart's recursion, collapsing in the node arrays
            complexity = np.zeros(m)
            _fast.compiled(_partition_nodes, _complexity)(left, right, risk, complexity,
                                                         float(self.alpha))
        del left, right
        nodes.update(left_categories=categories, risk=risk, yval=yval, complexity=complexity)
        del risk, yval, complexity
        return _tree(self.criterion, nodes)

    def _grow_compiled(self, n_units) -> Tree:
        """:meth:`_grow_by_level` in one compiled call per tree
        (:func:`ordstat.trees._kernels.levels.make_level_grow`) on node arrays, for trees
        sorting each node's drawn features."""
        sp = self.splitter
        n_all, p = sp.X.shape
        n = sp.rows.size
        tree = self._node_arrays(n, n_units)
        rep = np.ones(n_all, dtype=np.int64) if self.repeats is None else self.repeats
        ranks, neg_ranks = sp.sort_keys()
        sample = SortedSample(X=sp.X, sort_by=ranks, neg_by=neg_ranks, codes=sp._small_codes,
                              w=np.ascontiguousarray(sp.w, dtype=np.float64), rep=rep,
                              cat_sizes=_fast.read_only(np.ascontiguousarray(sp.cat_sizes)))
        rules = self._rules(p if sp.max_features is None else min(sp.max_features, p))
        grow = _fast.level_grow(self.criterion, categorical=bool(sp.cat_sizes.any()))
        # this level's units, segment sizes and nodes, and the next level's (swapped); a
        # level has at most n nodes (each holds a row)
        cur, nxt = (Level(np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64),
                          np.empty(n, dtype=np.int64)) for _ in range(2))
        cur.rows[:], cur.sizes[0], cur.nodes[0] = sp.rows, n, 0
        n_nodes, n_rows = (1, n) if self._searchable(0) else (0, 0)
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
        return self._compiled_tree(grown)

    def _grow_presorted(self, n_units) -> Tree:
        """:meth:`_grow_by_level` in one compiled call per tree
        (:func:`ordstat.trees._kernels.presorted.make_presorted_level`) on node arrays, for
        trees that keep every feature presorted."""
        sp = self.splitter
        n_all, p = sp.X.shape
        cb, ub = word_bits(self.K, n_all)
        order = sp.packed_root(cb, ub)
        P, n = order.shape
        tree = self._node_arrays(n, n_units)
        # rows of mostly tied values (few distinct values, e.g. item scores): their scans skip
        # the gain between ties (a branch) instead of discarding it (see make_presorted_level);
        tied = _fast.compiled(_tied_rows)(order, cb + ub)
        sample = WordSample(
            X=_fast.read_only(sp.X), cb=cb, ub=ub,
            row_feature=np.concatenate([np.arange(p), sp._mirror]).astype(np.int64),
            tied=tied,
            w=np.ascontiguousarray(sp.w, dtype=np.float64),
            rep=np.ones(n_all, dtype=np.int64) if self.repeats is None else self.repeats,
            flag=sp._flag, cat_sizes=_fast.read_only(np.ascontiguousarray(sp.cat_sizes)))
        rules = self._rules()
        grow = _fast.presorted_level(self.criterion, categorical=bool(sp.cat_sizes.any()))
        # each level's layout is written over the last one's, in the root's words: a tree
        # holds one (P, n) array of words (101 MB at n = 10^6, p = 20)
        words = order.reshape(P * n)
        # this level's segment sizes and nodes, and the next level's
        sizes, nodes = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
        sizes[0] = n
        out = Level(words, np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64))
        n_nodes, m = 1 if self._searchable(0) else 0, n
        rng, k = sp.key_stream()  # the level loop's random stream
        # one call grows levels until the node arrays need room (a few calls per tree)
        while n_nodes:
            tree = _room(tree, int(tree.count[0]) + 2 * n_nodes, 2 * n - 1)
            n_nodes, m = grow(sample, rules, tree, words, P, sizes, nodes, out, n_nodes, m, rng,
                              k)
        del order, words, out  # the words are freed before the fitted tree is built
        grown = [tree]
        del tree  # the node arrays are freed as the fitted tree is made
        return self._compiled_tree(grown)

    def _best_splits(self, layout, nodes, sizes):
        totals = np.array([self.nodes.value[v] for v in nodes]).reshape(nodes.size, self.K)
        return self.splitter.best_splits(layout, totals, sizes)

    def _split_level(self, layout, nodes, sizes, splits, found, keep_all=False):
        """Create the children of the nodes with a split; return the next level's layout
        (children that may be split further, or all children with ``keep_all``)."""
        nd = self.nodes
        S = nodes.size
        lc, n_left = self.splitter.children(layout, sizes, splits, found)
        # units in each node (n) and in its layout segment: they differ with repeats
        u_left = n_left
        u_node = sizes
        if self.repeats is not None:
            u_left = self.splitter.units_left(layout, sizes, self.repeats)
            u_node = np.array([nd.n[v] for v in nodes], dtype=np.int64)
        totals = np.array([nd.value[v] for v in nodes]).reshape(S, self.K)
        rc = np.maximum(totals - lc, 0.0)
        fidx = np.flatnonzero(found)
        parents = nodes[fidx]
        depth = nd.depth[parents[0]] + 1
        numbers = np.array([nd.number[v] for v in parents], dtype=np.int64)
        # children in the order (left_0, right_0, left_1, right_1, ...)
        counts = np.empty((2 * fidx.size, self.K))
        counts[0::2], counts[1::2] = lc[fidx], rc[fidx]
        nn = np.empty(2 * fidx.size, dtype=np.int64)
        nn[0::2], nn[1::2] = u_left[fidx], u_node[fidx] - u_left[fidx]
        seg_n = np.empty(2 * fidx.size, dtype=np.int64)
        seg_n[0::2], seg_n[1::2] = n_left[fidx], sizes[fidx] - n_left[fidx]
        nums = np.empty(2 * fidx.size, dtype=np.int64)
        nums[0::2], nums[1::2] = 2 * numbers, 2 * numbers + 1
        kids = self._add_nodes(counts, nn, np.repeat(parents, 2), depth, nums)
        for i, v in enumerate(parents):
            nd.split[v] = splits[fidx[i]]
            nd.left[v], nd.right[v] = int(kids[2 * i]), int(kids[2 * i + 1])
        if keep_all:
            keep = np.ones(kids.size, dtype=bool)
        else:  # _searchable for every child
            risk = np.array(nd.risk[kids[0]:kids[-1] + 1])
            keep = ((nn >= self.min_split) & (depth < self.max_depth) & (risk > self.alpha)
                    & (nn >= 2 * self.min_bucket))
        # each kept child at its offset in the next level's layout (-1: dropped)
        dest = np.full(kids.size, -1, dtype=np.int64)
        dest[keep] = np.concatenate([[0], np.cumsum(seg_n[keep])[:-1]])
        new_layout = self.splitter.partition(layout, sizes, fidx, n_left, dest)
        return new_layout, seg_n[keep], kids[keep]

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

    def _node_complexity(self, node, l_split, l_risk, r_split, r_risk):
        """Weakest-link complexity of ``node`` (:func:`_complexity`)."""
        nd = self.nodes
        left, right = nd.left[node], nd.right[node]
        return _complexity(nd.risk[node], nd.risk[left], nd.risk[right], nd.complexity[left],
                           nd.complexity[right], l_split, l_risk, r_split, r_risk)

    # -- best-first growth for a fixed number of leaves ------------------------------------
    def _grow_best_first(self, layout):
        heap = []
        counter = 0

        def push(node, node_layout):
            nonlocal counter
            if self._searchable(node):
                split = self._best_splits(node_layout, np.array([node]),
                                          np.array([node_layout.n_units]))[0]
                if split is not None:
                    heapq.heappush(heap, (-split.goodness, counter, node, split, node_layout))
                    counter += 1

        push(0, layout)
        n_leaves = 1
        while heap and n_leaves < self.max_leaf_nodes:
            _, _, node, split, node_layout = heapq.heappop(heap)
            new_layout, seg_n, kids = self._split_level(
                node_layout, np.array([node]), np.array([node_layout.n_units]), [split],
                np.array([True]), keep_all=True)
            n_left = seg_n[0]
            n_leaves += 1
            push(int(kids[0]), new_layout.columns(slice(None, n_left)))
            push(int(kids[1]), new_layout.columns(slice(n_left, None)))

    def _weakest_link(self, node):
        """Complexities of a grown tree bottom-up (as in _partition), collapsing nodes whose
        complexity is at most alpha; returns (splits kept, summed leaf risk)."""
        nd = self.nodes
        if nd.left[node] < 0:
            nd.complexity[node] = self.alpha
            return 0, nd.risk[node]
        l_split, l_risk = self._weakest_link(nd.left[node])
        r_split, r_risk = self._weakest_link(nd.right[node])
        cx, l_split, l_risk, r_split, r_risk = self._node_complexity(node, l_split, l_risk,
                                                                     r_split, r_risk)
        nd.complexity[node] = cx
        if cx <= self.alpha:
            self._make_leaf(node)
            return 0, nd.risk[node]
        return l_split + r_split + 1, l_risk + r_risk


    # -- output ----------------------------------------------------------------------------
    def _to_arrays(self) -> Tree:
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
    """The node arrays of :meth:`TreeBuilder._node_arrays` (``_BLANK_NODES`` nodes, ``k``
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

