"""Growing a classification tree into flat arrays, rpart-style.

Every feature is sorted once for the whole sample (as rpart does); the units of each node stay
sorted per feature, with their values, class codes and weights carried along, and a split
partitions these lists stably, so no node is ever re-sorted. The nodes of one depth are searched
together: for every (feature, node) all cut points are evaluated from cumulative weighted class
counts, either by the numba kernel of :mod:`ordstat.trees._fast` (built-in criteria) or in
numpy, calling the criterion (any function of :mod:`ordstat.trees.criteria`) once per level on
every candidate.

The tree is rpart's (Therneau & Atkinson, "An Introduction to Recursive Partitioning Using the
RPART Routines"; rpart's ``partition``), obtained in two passes:

1. level by level, the largest tree allowed by the rules that depend on a node alone: a node is
   split only with at least ``min_split`` units, below ``max_depth``, with risk R(t) > alpha
   (``alpha = cp * R(root)``) and a cut leaving ``min_bucket`` units on each side with positive
   goodness;
2. rpart's depth-first recursion over that tree without touching the data: a node is not split
   when min(R(t), bound from its parent) <= alpha; after both children, the node's complexity
   (the weakest-link (R(t) - R(T_t)) / (|T_t| - 1), letting a weaker child collapse first) is
   computed and a node whose complexity is at most alpha is collapsed again.

R is the risk of the leaf rule (misclassification for ``leaf_rule="mode"``). Since the best
split of a node depends only on its units, the result is the tree of rpart's single recursive
pass (checked against R in tests/test_trees_rpart.py).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

import numpy as np

from . import _fast
from .criteria import check_goodness

# The compiled split search is used when numba imports and the criterion provides a
# kernel_spec; tests switch this off to compare the two paths.
USE_NUMBA = True

__all__ = ["Tree", "TreeBuilder", "node_risk"]


def _midpoint(a, b):
    """Split threshold between consecutive sorted values a < b; for adjacent floats the
    midpoint rounds to a, so b is used to keep "x < threshold" exact."""
    mid = (a + b) / 2.0
    return np.where(a < mid, mid, b)


@dataclass(frozen=True, eq=False)
class Tree:
    """A fitted tree as flat arrays of length ``n_nodes`` (node 0 the root).

    Nodes are in depth-first preorder, left subtree before right subtree (the order of the rows
    of rpart's ``frame``). For a numeric split, units with ``x[feature] < threshold`` go LEFT
    (rpart's ``"x< c"``), the threshold being the midpoint between consecutive distinct values.
    For a categorical split, units whose category code (0..n_categories-1, the position in the
    training categories) is in ``left_categories[node]`` go LEFT, all others RIGHT.

    Attributes
    ----------
    children_left, children_right : ndarray of int64
        Child node indices, -1 at leaves.
    feature : ndarray of int64
        Split feature (column index), -1 at leaves.
    threshold : ndarray of float64
        Numeric split point; NaN at leaves and categorical splits.
    left_categories : ndarray of object
        For a categorical split, a sorted int64 array of the category codes sent left (codes not
        seen in the node at fitting are included on the side of the larger weight); None for
        numeric splits and leaves.
    value : ndarray of float64, shape (n_nodes, K)
        Weighted class counts of the training units in the node (classes in ordinal order).
    n_node_samples : ndarray of int64
        Number of training units (with positive weight) in the node.
    weighted_n_node_samples : ndarray of float64
        Their total weight.
    impurity : ndarray of float64
        i(t) of the criterion's impurity function (the Gini index for criteria that are not
        impurity-based, such as twoing).
    improvement : ndarray of float64
        Goodness of the node's split on the count scale (rpart's ``improve``), 0 at leaves.
    risk : ndarray of float64
        R(t): weighted loss of predicting ``yval`` for the units of the node (rpart's ``dev``).
    yval : ndarray of int64
        Class code predicted in the node by the leaf rule.
    complexity : ndarray of float64
        Complexity (cost-complexity alpha at which the node's split is pruned away), on the
        absolute risk scale, made non-increasing from root to leaves; divide by ``risk[0]`` for
        rpart's CP scale.
    node_number : ndarray of int64
        rpart's node number (root 1, children of k are 2k and 2k+1).
    depth : ndarray of int64
        Depth of the node (root 0).
    """

    children_left: np.ndarray
    children_right: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    left_categories: np.ndarray
    value: np.ndarray
    n_node_samples: np.ndarray
    weighted_n_node_samples: np.ndarray
    impurity: np.ndarray
    improvement: np.ndarray
    risk: np.ndarray
    yval: np.ndarray
    complexity: np.ndarray
    node_number: np.ndarray
    depth: np.ndarray

    @property
    def n_nodes(self) -> int:
        return int(self.children_left.shape[0])

    node_count = n_nodes

    @property
    def n_leaves(self) -> int:
        return int(np.sum(self.children_left < 0))

    @property
    def max_depth(self) -> int:
        return int(self.depth.max())

    @property
    def is_leaf(self) -> np.ndarray:
        return self.children_left < 0

    def _category_table(self):
        """Boolean table (n_nodes, n_codes): does category code c go left at a node?"""
        cat_nodes = [i for i, lc in enumerate(self.left_categories) if lc is not None]
        if not cat_nodes:
            return None
        width = 1 + max((int(self.left_categories[i].max()) if len(self.left_categories[i])
                         else 0) for i in cat_nodes)
        table = np.zeros((self.n_nodes, width), dtype=bool)
        for i in cat_nodes:
            table[i, self.left_categories[i]] = True
        return table

    def apply(self, X) -> np.ndarray:
        """Index of the leaf reached by each row of ``X`` (float array of shape (n, p))."""
        return self.decision_nodes(X)[-1]

    def decision_nodes(self, X):
        """The node reached by each row at every depth: list of arrays, last = leaves."""
        X = np.asarray(X, dtype=np.float64)
        n = X.shape[0]
        node = np.zeros(n, dtype=np.int64)
        path = [node.copy()]
        table = self._category_table()
        is_cat = np.array([lc is not None for lc in self.left_categories], dtype=bool)
        active = np.arange(n)
        while active.size:
            v = node[active]
            internal = self.children_left[v] >= 0
            active = active[internal]
            if not active.size:
                break
            v = v[internal]
            x = X[active, self.feature[v]]
            go_left = x < self.threshold[v]
            cat = is_cat[v]
            if cat.any():
                codes = x[cat].astype(np.int64)
                inside = (codes >= 0) & (codes < table.shape[1])
                left_cat = np.zeros(codes.shape, dtype=bool)
                left_cat[inside] = table[v[cat][inside], codes[inside]]
                go_left[cat] = left_cat
            node[active] = np.where(go_left, self.children_left[v], self.children_right[v])
            path.append(node.copy())
        return path

    def pruned(self, keep_split: np.ndarray) -> "Tree":
        """The subtree in which only nodes with ``keep_split`` True (and all their ancestors
        kept) remain internal; returned in preorder with re-numbered indices."""
        keep_split = np.asarray(keep_split, dtype=bool) & (self.children_left >= 0)
        order = []
        stack = [0]
        while stack:
            i = stack.pop()
            order.append(i)
            if keep_split[i]:
                stack.append(int(self.children_right[i]))
                stack.append(int(self.children_left[i]))
        order = np.asarray(order, dtype=np.int64)
        new_index = np.full(self.n_nodes, -1, dtype=np.int64)
        new_index[order] = np.arange(order.size)
        internal = keep_split[order]
        cl = np.where(internal, new_index[self.children_left[order]], -1)
        cr = np.where(internal, new_index[self.children_right[order]], -1)
        left_categories = np.empty(order.size, dtype=object)
        for k, i in enumerate(order):
            left_categories[k] = self.left_categories[i] if internal[k] else None
        return Tree(
            children_left=cl,
            children_right=cr,
            feature=np.where(internal, self.feature[order], -1),
            threshold=np.where(internal, self.threshold[order], np.nan),
            left_categories=left_categories,
            value=self.value[order].copy(),
            n_node_samples=self.n_node_samples[order].copy(),
            weighted_n_node_samples=self.weighted_n_node_samples[order].copy(),
            impurity=self.impurity[order].copy(),
            improvement=np.where(internal, self.improvement[order], 0.0),
            risk=self.risk[order].copy(),
            yval=self.yval[order].copy(),
            complexity=self.complexity[order].copy(),
            node_number=self.node_number[order].copy(),
            depth=self.depth[order].copy(),
        )


def node_risk(counts, loss):
    """R(t) and the predicted class: min_h sum_g loss[h, g] n_g (first h on ties)."""
    risks = loss @ counts
    h = int(np.argmin(risks))
    return float(risks[h]), h


@dataclass
class _Split:
    goodness: float
    feature: int
    threshold: float = np.nan
    left_categories: np.ndarray | None = None


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


@dataclass
class _Sorted:
    """For each feature (row), the units of the nodes of a level sorted by that feature, node
    after node, with their values, class codes and weights carried along (so the search reads
    memory sequentially)."""

    order: np.ndarray  # (p, M) unit indices
    xs: np.ndarray  # (p, M) feature values
    ys: np.ndarray  # (p, M) class codes
    ws: np.ndarray  # (p, M) weights

    @property
    def n_units(self):
        return self.order.shape[1]

    def columns(self, idx):
        return _Sorted(*(np.ascontiguousarray(a[:, idx])
                         for a in (self.order, self.xs, self.ys, self.ws)))


class TreeBuilder:
    """Grows one tree (see the module docstring for the rules).

    Parameters
    ----------
    criterion : callable
        ``criterion(left, right) -> goodness`` (see :mod:`ordstat.trees.criteria`).
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
                 max_features=None, max_leaf_nodes=None, rng=None, cat_sizes=None, alpha=None):
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
        self.name = getattr(criterion, "__name__", repr(criterion))

    # -- public ----------------------------------------------------------------------------
    def build(self, X, codes, weights, n_classes) -> Tree:
        X = np.ascontiguousarray(X, dtype=np.float64)
        keep = weights > 0
        if not keep.all():  # zero-weight units play no part in the tree (as in rpart's search)
            X, codes, weights = X[keep], codes[keep], weights[keep]
        self.X, self.codes, self.w, self.K = X, np.asarray(codes, np.int64), weights, n_classes
        n, p = X.shape
        self.cat_sizes = (np.zeros(p, dtype=np.int64) if self.cat_sizes is None
                          else np.asarray(self.cat_sizes, dtype=np.int64))
        self.unit_weights = bool(np.all(self.w == 1.0))
        self._nb = _fast.kernels() if USE_NUMBA else None
        spec = getattr(self.criterion, "kernel_spec", None)
        self._kernel = spec(n_classes) if (self._nb is not None and spec is not None) else None
        self._flag = np.zeros(n, dtype=bool)
        self._iscale = 0.0
        self.nodes = _Nodes()
        # Sort once, feature by feature (contiguous rows). The order among tied values does
        # not matter: cuts are only made between distinct values.
        XT = np.ascontiguousarray(X.T)
        idx = np.argsort(XT, axis=1)  # (p, n)
        order = _Sorted(idx, np.take_along_axis(XT, idx, axis=1), self.codes[idx],
                        self.w[idx])
        root_counts = np.bincount(self.codes, weights=self.w, minlength=self.K).astype(float)
        self._add_nodes(root_counts[None, :], np.array([n]), parent=-1, depth=0,
                        numbers=np.array([1]))
        root = 0
        # Cross-validation passes rpart's rescaled absolute alpha instead of cp.
        self.alpha = (self.cp * self.nodes.risk[root] if self.fixed_alpha is None
                      else self.fixed_alpha)
        if self.max_leaf_nodes is None:
            self._grow_by_level(order)
            self._partition(root, bound=self.nodes.risk[root])
        else:
            self._grow_best_first(order)
            self._weakest_link(root)
        return self._to_arrays()

    # -- nodes -----------------------------------------------------------------------------
    def _add_nodes(self, counts, n, parent, depth, numbers):
        """Append nodes (class counts (s, K), unit counts (s,)); return their indices."""
        nd = self.nodes
        risks = counts @ self.loss.T  # (s, K): risk of predicting each class
        yval = np.argmin(risks, axis=1)
        first = len(nd.parent)
        s = counts.shape[0]
        parent = np.broadcast_to(parent, (s,))
        nd.parent.extend(parent.tolist())
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
    def _grow_by_level(self, order):
        """Grow the largest tree the node-local rules allow, one level at a time. Each level
        holds only nodes that may be split (the others are dropped when they are created)."""
        if not self._searchable(0):
            return
        nodes = np.array([0])
        sizes = np.array([order.n_units])
        while nodes.size:
            splits = self._best_splits(order, nodes, sizes)
            found = np.array([sp is not None for sp in splits], dtype=bool)
            if not found.any():
                break
            order, sizes, nodes = self._split_level(order, nodes, sizes, splits, found)

    def _split_level(self, order, nodes, sizes, splits, found, keep_all=False):
        """Create the children of the nodes with a split; return the next level's layout
        (children that may be split further, or all children with ``keep_all``)."""
        nd = self.nodes
        S = nodes.size
        seg = np.repeat(np.arange(S), sizes)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        rows = order.order[0]
        feat = np.array([sp.feature if sp is not None else 0 for sp in splits])
        thr = np.array([sp.threshold if sp is not None else np.nan for sp in splits])
        x = self.X[rows, feat[seg]]
        go_left = x < thr[seg]
        for s in np.flatnonzero(found):
            if splits[s].left_categories is not None:
                cols = slice(starts[s], starts[s] + sizes[s])
                go_left[cols] = np.isin(x[cols].astype(np.int64), splits[s].left_categories)
        self._flag[rows] = go_left
        # class counts of the children
        lc = np.bincount(seg[go_left] * self.K + self.codes[rows[go_left]],
                         weights=self.w[rows[go_left]], minlength=S * self.K).reshape(S, self.K)
        n_left = np.bincount(seg[go_left], minlength=S)
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
        nn[0::2], nn[1::2] = n_left[fidx], sizes[fidx] - n_left[fidx]
        nums = np.empty(2 * fidx.size, dtype=np.int64)
        nums[0::2], nums[1::2] = 2 * numbers, 2 * numbers + 1
        kids = self._add_nodes(counts, nn, np.repeat(parents, 2), depth, nums)
        for i, v in enumerate(parents):
            nd.split[v] = splits[fidx[i]]
            nd.left[v], nd.right[v] = int(kids[2 * i]), int(kids[2 * i + 1])
        if keep_all:
            keep = np.ones(kids.size, dtype=bool)
        else:
            risk = np.array(nd.risk[kids[0]:kids[-1] + 1])
            keep = ((nn >= self.min_split) & (depth < self.max_depth) & (risk > self.alpha)
                    & (nn >= 2 * self.min_bucket))
        # Stable partition of every feature's sorted list into the kept children, each child
        # at its offset in the next level's layout (-1: dropped).
        dest = np.full(kids.size, -1, dtype=np.int64)
        dest[keep] = np.concatenate([[0], np.cumsum(nn[keep])[:-1]])
        M = int(nn[keep].sum())
        arrays = (order.order, order.xs, order.ys, order.ws)
        out = tuple(np.empty((a.shape[0], M), dtype=a.dtype) for a in arrays)
        if self._nb is not None:
            self._nb.level_partition(*arrays, self._flag, starts[fidx].astype(np.int64),
                                     sizes[fidx].astype(np.int64), dest[0::2], dest[1::2],
                                     *out)
        else:
            self._partition_numpy(order, arrays, out, starts, sizes, fidx, n_left, dest)
        return _Sorted(*out), nn[keep], kids[keep]

    def _partition_numpy(self, order, arrays, out, starts, sizes, fidx, n_left, dest):
        p = order.order.shape[0]
        for i, s in enumerate(fidx):
            cols = slice(starts[s], starts[s] + sizes[s])
            mask = self._flag[order.order[:, cols]]  # (p, m)
            for d, part, n_part in ((dest[2 * i], mask, n_left[s]),
                                    (dest[2 * i + 1], ~mask, sizes[s] - n_left[s])):
                if d < 0:
                    continue
                for a, o in zip(arrays, out):
                    # boolean selection keeps each row's sorted order
                    o[:, d:d + n_part] = a[:, cols][part].reshape(p, n_part)

    def _partition(self, node, bound):
        """rpart's recursion over the grown tree: (number of splits kept, summed leaf risk)."""
        nd = self.nodes
        risk = nd.risk[node]
        tempcp = min(risk, bound)
        if nd.left[node] < 0 or tempcp <= self.alpha:
            self._make_leaf(node)
            nd.complexity[node] = self.alpha
            return 0, risk
        left, right = nd.left[node], nd.right[node]
        l_split, l_risk = self._partition(left, tempcp - self.alpha)
        # The right child's bound uses what the left subtree achieved (rpart's partition).
        t = max((risk - l_risk) / (l_split + 1), risk - nd.risk[left])
        t = min(t, bound)
        r_split, r_risk = self._partition(right, t - self.alpha)
        cx, l_split, l_risk, r_split, r_risk = self._node_complexity(node, l_split, l_risk,
                                                                     r_split, r_risk)
        nd.complexity[node] = cx
        if cx <= self.alpha:  # all in vain: collapse the subtree
            self._make_leaf(node)
            return 0, risk
        return l_split + r_split + 1, l_risk + r_risk

    def _make_leaf(self, node):
        nd = self.nodes
        nd.left[node] = nd.right[node] = -1
        nd.split[node] = None

    def _node_complexity(self, node, l_split, l_risk, r_split, r_risk):
        """Weakest-link complexity of ``node``, letting a child collapse first when its own
        complexity is smaller (rpart's partition, "who goes first")."""
        nd = self.nodes
        risk = nd.risk[node]
        left, right = nd.left[node], nd.right[node]
        lc, rc = nd.complexity[left], nd.complexity[right]
        t = (risk - (l_risk + r_risk)) / (l_split + r_split + 1)
        if rc > lc:
            if t > lc:
                l_risk, l_split = nd.risk[left], 0
                t = (risk - (l_risk + r_risk)) / (l_split + r_split + 1)
                if t > rc:
                    r_risk, r_split = nd.risk[right], 0
        elif t > rc:
            r_risk, r_split = nd.risk[right], 0
            t = (risk - (l_risk + r_risk)) / (l_split + r_split + 1)
            if t > lc:
                l_risk, l_split = nd.risk[left], 0
        cx = (risk - (l_risk + r_risk)) / (l_split + r_split + 1)
        return cx, l_split, l_risk, r_split, r_risk

    # -- best-first growth for a fixed number of leaves ------------------------------------
    def _grow_best_first(self, order):
        nd = self.nodes
        heap = []
        counter = 0

        def push(node, node_order):
            nonlocal counter
            if self._searchable(node):
                split = self._best_splits(node_order, np.array([node]),
                                          np.array([node_order.n_units]))[0]
                if split is not None:
                    heapq.heappush(heap, (-split.goodness, counter, node, split, node_order))
                    counter += 1

        push(0, order)
        n_leaves = 1
        while heap and n_leaves < self.max_leaf_nodes:
            _, _, node, split, node_order = heapq.heappop(heap)
            new_order, _, kids = self._split_level(
                node_order, np.array([node]), np.array([node_order.n_units]), [split],
                np.array([True]), keep_all=True)
            n_left = nd.n[kids[0]]
            n_leaves += 1
            push(int(kids[0]), new_order.columns(slice(None, n_left)))
            push(int(kids[1]), new_order.columns(slice(n_left, None)))

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

    # -- split search ----------------------------------------------------------------------
    def _feature_mask(self, n_segments):
        """(p, S) features drawn for each node (all True without max_features)."""
        p = self.X.shape[1]
        if self.max_features is None or self.max_features >= p:
            return None
        keys = self.rng.random((n_segments, p))
        ranks = np.argsort(np.argsort(keys, axis=1), axis=1)
        return (ranks < self.max_features).T

    def _goodness(self, left, right):
        g = self.criterion(left, right)
        return check_goodness(g, left.shape[0], self.name)

    def _best_splits(self, order, nodes, sizes):
        """Best split of every node of a level (segments of ``order``), None where no
        candidate has positive goodness."""
        p = self.X.shape[1]
        S = nodes.size
        best_g = np.full((p, S), -np.inf)
        best_info = np.full((p, S), np.nan)  # threshold (numeric)
        cat_info = {}
        totals = np.array([self.nodes.value[v] for v in nodes]).reshape(S, self.K)
        fmask = self._feature_mask(S)  # (p, S) features drawn per node, or None for all
        numeric = np.flatnonzero(self.cat_sizes == 0)
        if numeric.size:
            if self._kernel is not None:
                self._numeric_search_compiled(order, numeric, sizes, totals, best_g, best_info,
                                              None if fmask is None else fmask[numeric])
            else:
                self._numeric_search(order, numeric, sizes, totals, best_g, best_info)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        for j in np.flatnonzero(self.cat_sizes > 0):
            for s in range(S):
                if fmask is not None and not fmask[j, s]:
                    continue
                rows = order.order[0, starts[s]:starts[s] + sizes[s]]
                res = self._categorical_search(rows, j, totals[s])
                if res is not None:
                    best_g[j, s], cat_info[(j, s)] = res
        if fmask is not None:
            best_g[~fmask] = -np.inf
        feat = np.argmax(best_g, axis=0)  # first feature among ties (rpart keeps the first)
        g = best_g[feat, np.arange(S)]
        out = []
        for s in range(S):
            gs = g[s]
            if not np.isfinite(gs):
                out.append(None)
                continue
            self._iscale = max(self._iscale, gs)
            # rpart ignores improvements that are rounding noise relative to the largest seen.
            if not gs > max(self._iscale * 1e-10, 0.0):
                out.append(None)
                continue
            j = int(feat[s])
            if self.cat_sizes[j] > 0:
                out.append(_Split(goodness=float(gs), feature=j, left_categories=cat_info[(j, s)]))
            else:
                out.append(_Split(goodness=float(gs), feature=j,
                                  threshold=float(best_info[j, s])))
        return out

    def _numeric_search_compiled(self, order, feats, sizes, totals, best_g, best_info,
                                 fmask=None):
        whole = feats.size == order.xs.shape[0]
        xs = order.xs if whole else order.xs[feats]
        ys = order.ys if whole else order.ys[feats]
        ws = order.ws if whole else order.ws[feats]
        q, S = feats.size, sizes.size
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        good = np.empty((q, S))
        pos = np.empty((q, S), dtype=np.int64)
        kind, steps, cost = self._kernel
        todo = (np.ones((q, S), dtype=np.bool_) if fmask is None
                else np.ascontiguousarray(fmask, dtype=np.bool_))
        self._nb.level_search(xs, ys, ws, starts, sizes.astype(np.int64),
                              np.ascontiguousarray(totals), self.min_bucket, kind, steps, cost,
                              todo, good, pos)
        jj, ss = np.nonzero(pos >= 0)
        t = pos[jj, ss]
        a, b = xs[jj, t], xs[jj, t + 1]
        thr = _midpoint(a, b)
        best_g[feats[jj], ss] = good[jj, ss]
        best_info[feats[jj], ss] = thr

    def _numeric_search(self, order, feats, sizes, totals, best_g, best_info):
        K = self.K
        mb = self.min_bucket
        # (q, M): each node's units sorted by each feature, node after node
        q, M = feats.size, order.n_units
        S = sizes.size
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        seg = np.repeat(np.arange(S), sizes)
        local = np.arange(M) - starts[seg]
        # split after position t: left = the node's positions up to t
        pos_ok = (local >= mb - 1) & (local <= sizes[seg] - mb - 1)
        xs = order.xs[feats]
        valid = np.zeros((q, M), dtype=bool)
        valid[:, :-1] = pos_ok[None, :-1] & (xs[:, :-1] < xs[:, 1:])
        if not valid.any():
            return
        ys = order.ys[feats]
        ws = None if self.unit_weights else order.ws[feats]
        # Cumulative class counts over the whole level, then minus what precedes each node;
        # class-major, so that the criterion's per-class columns are contiguous.
        left = np.empty((K, q, M))
        for k in range(K):
            hit = ys == k
            z = hit if ws is None else np.where(hit, ws, 0.0)
            np.cumsum(z, axis=1, dtype=np.float64, out=left[k])
            if S > 1:
                prev = np.zeros((q, S))
                prev[:, 1:] = left[k][:, starts[1:] - 1]
                left[k] -= np.repeat(prev, sizes, axis=1)
        tot = totals[seg].T  # (K, M)
        if valid.mean() > 0.6:
            right = tot[:, None, :] - left
            good = self._goodness(left.reshape(K, -1).T, right.reshape(K, -1).T).reshape(q, M)
            good[~valid] = -np.inf
        else:  # many ties or small nodes: evaluate only the admissible cuts
            cand = left[:, valid]  # (K, n_valid)
            cols = np.nonzero(valid)[1]
            good = np.full((q, M), -np.inf)
            good[valid] = self._goodness(cand.T, (tot[:, cols] - cand).T)
        # Best cut per (feature, node): the first (lowest threshold) among ties, as rpart.
        seg_max = np.maximum.reduceat(good, starts, axis=1)  # (q, S)
        hit = good == np.repeat(seg_max, sizes, axis=1)
        hit &= np.isfinite(good)
        pos = np.where(hit, np.arange(M)[None, :], M)
        first = np.minimum.reduceat(pos, starts, axis=1)  # (q, S)
        fin = first < M
        jj, ss = np.nonzero(fin)
        t = first[jj, ss]
        a, b = xs[jj, t], xs[jj, t + 1]
        thr = _midpoint(a, b)
        best_g[feats[jj], ss] = seg_max[jj, ss]
        best_info[feats[jj], ss] = thr

    def _categorical_search(self, rows, feat, total):
        """Categories ordered by their mean class code in the node, then cut like a numeric
        feature (the exact search for two classes; rpart does this for ordinal predictors).
        Returns (goodness, sorted codes sent left) or None."""
        K = self.K
        n_cat = int(self.cat_sizes[feat])
        cats = self.X[rows, feat].astype(np.int64)
        counts = np.bincount(cats * K + self.codes[rows], weights=self.w[rows],
                             minlength=n_cat * K).reshape(n_cat, K)
        n_units = np.bincount(cats, minlength=n_cat)
        present = np.flatnonzero(n_units > 0)
        if present.size < 2:
            return None
        cw = counts[present].sum(axis=1)
        mean = counts[present] @ np.arange(K) / cw
        seq = present[np.argsort(mean, kind="stable")]
        cum = np.cumsum(counts[seq], axis=0)[:-1]
        n_left = np.cumsum(n_units[seq])[:-1]
        valid = (n_left >= self.min_bucket) & (rows.size - n_left >= self.min_bucket)
        if not valid.any():
            return None
        good = np.where(valid, self._goodness(cum, total - cum), -np.inf)
        k = int(np.argmax(good))
        if not np.isfinite(good[k]):
            return None
        left = seq[:k + 1]
        absent = np.setdiff1d(np.arange(n_cat), present)
        if absent.size and cum[k].sum() >= total.sum() - cum[k].sum():
            left = np.concatenate([left, absent])  # unseen categories follow the majority
        return float(good[k]), np.sort(left).astype(np.int64)

    # -- output ----------------------------------------------------------------------------
    def _to_arrays(self) -> Tree:
        nd = self.nodes
        order = []
        stack = [0]
        while stack:
            i = stack.pop()
            order.append(i)
            if nd.left[i] >= 0:
                stack.append(nd.right[i])
                stack.append(nd.left[i])
        n_nodes = len(order)
        new = {old: k for k, old in enumerate(order)}
        cl = np.full(n_nodes, -1, dtype=np.int64)
        cr = np.full(n_nodes, -1, dtype=np.int64)
        feature = np.full(n_nodes, -1, dtype=np.int64)
        threshold = np.full(n_nodes, np.nan)
        improvement = np.zeros(n_nodes)
        left_categories = np.empty(n_nodes, dtype=object)
        for k, i in enumerate(order):
            if nd.left[i] >= 0:
                s = nd.split[i]
                cl[k], cr[k] = new[nd.left[i]], new[nd.right[i]]
                feature[k] = s.feature
                threshold[k] = s.threshold
                improvement[k] = s.goodness
                left_categories[k] = s.left_categories
        value = np.array([nd.value[i] for i in order], dtype=np.float64).reshape(n_nodes, self.K)
        wsum = value.sum(axis=1)
        imp_fn = getattr(self.criterion, "impurity", None)
        if imp_fn is None:
            from .criteria import gini
            imp_fn = gini.impurity
        impurity = np.zeros(n_nodes)
        np.divide(imp_fn(value), wsum, out=impurity, where=wsum > 0)
        complexity = np.array([nd.complexity[i] for i in order], dtype=np.float64)
        # rpart's fix_cp: a node cannot outlive its parent.
        for k in range(n_nodes):
            if cl[k] >= 0:
                complexity[cl[k]] = min(complexity[cl[k]], complexity[k])
                complexity[cr[k]] = min(complexity[cr[k]], complexity[k])
        return Tree(
            children_left=cl,
            children_right=cr,
            feature=feature,
            threshold=threshold,
            left_categories=left_categories,
            value=value,
            n_node_samples=np.array([nd.n[i] for i in order], dtype=np.int64),
            weighted_n_node_samples=wsum,
            impurity=impurity,
            improvement=improvement,
            risk=np.array([nd.risk[i] for i in order], dtype=np.float64),
            yval=np.array([nd.yval[i] for i in order], dtype=np.int64),
            complexity=complexity,
            node_number=np.array([nd.number[i] for i in order], dtype=np.int64),
            depth=np.array([nd.depth[i] for i in order], dtype=np.int64),
        )
