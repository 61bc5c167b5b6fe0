"""Growing a classification tree into flat arrays, rpart-style.

The search sorts every feature once for the whole sample (as rpart does) and keeps, for each
node, the node's row indices in sorted order per feature; a split partitions these lists stably,
so no node is ever re-sorted. In a node all candidate thresholds of all features are evaluated at
once from cumulative weighted class counts (numpy), and the criterion (any function of
:mod:`ordstat.trees.criteria`) is called once per node on every candidate.

Growth follows rpart's ``partition`` (Therneau & Atkinson, "An Introduction to Recursive
Partitioning Using the RPART Routines", section on cost-complexity): depth first, left child
first; a node is not split when it has fewer than ``min_split`` units, sits at ``max_depth``, or
its risk (or an upper bound of the complexity passed down by its parent) is at most
``alpha = cp * R(root)``; after both children are grown, the node's complexity (the weakest-link
value (R(t) - R(T_t)) / (|T_t| - 1) of the subtree) is computed and a node whose complexity is at
most ``alpha`` is collapsed again. R is the risk of the leaf rule (misclassification for
``leaf_rule="mode"``).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

import numpy as np

from .criteria import check_goodness

__all__ = ["Tree", "TreeBuilder", "node_risk"]


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
        self.numeric = np.flatnonzero(self.cat_sizes == 0)
        self._flag = np.zeros(n, dtype=bool)
        self._iscale = 0.0
        self.nodes = _Nodes()
        # Sort once, for the whole sample (categorical columns too: harmless and uniform).
        order = np.argsort(X, axis=0, kind="stable").T.copy()  # (p, n)
        root_counts = np.bincount(self.codes, weights=self.w, minlength=self.K).astype(float)
        root = self._new_node(root_counts, n, parent=-1, depth=0, number=1)
        # Cross-validation passes rpart's rescaled absolute alpha instead of cp.
        self.alpha = (self.cp * self.nodes.risk[root] if self.fixed_alpha is None
                      else self.fixed_alpha)
        if self.max_leaf_nodes is None:
            self._partition(root, order, bound=self.nodes.risk[root])
        else:
            self._grow_best_first(root, order)
            self._weakest_link(root)
        return self._to_arrays()

    # -- nodes -----------------------------------------------------------------------------
    def _new_node(self, counts, n, parent, depth, number):
        nd = self.nodes
        risk, yval = node_risk(counts, self.loss)
        nd.parent.append(parent)
        nd.left.append(-1)
        nd.right.append(-1)
        nd.split.append(None)
        nd.value.append(counts)
        nd.n.append(int(n))
        nd.risk.append(risk)
        nd.yval.append(yval)
        nd.complexity.append(0.0)
        nd.depth.append(depth)
        nd.number.append(number)
        return len(nd.parent) - 1

    def _splittable(self, node, tempcp):
        nd = self.nodes
        return (nd.n[node] >= self.min_split and nd.depth[node] < self.max_depth
                and tempcp > self.alpha)

    def _make_children(self, node, order, split):
        """Record the split, create both children, return their sorted index lists."""
        nd = self.nodes
        rows = order[0]
        x = self.X[rows, split.feature]
        if split.left_categories is None:
            go_left = x < split.threshold
        else:
            go_left = np.isin(x.astype(np.int64), split.left_categories)
        self._flag[rows] = go_left
        mask = self._flag[order]
        n_left = int(go_left.sum())
        left_order = order[mask].reshape(order.shape[0], n_left)
        right_order = order[~mask].reshape(order.shape[0], rows.size - n_left)
        lc = np.bincount(self.codes[left_order[0]], weights=self.w[left_order[0]],
                         minlength=self.K).astype(float)
        rc = nd.value[node] - lc
        rc[rc < 0] = 0.0
        d, num = nd.depth[node] + 1, nd.number[node]
        nd.split[node] = split
        nd.left[node] = self._new_node(lc, n_left, node, d, 2 * num)
        nd.right[node] = self._new_node(rc, rows.size - n_left, node, d, 2 * num + 1)
        return left_order, right_order

    # -- rpart's depth-first growth with in-growth cost-complexity pruning --------------------
    def _partition(self, node, order, bound):
        """Grow below ``node``; return (number of splits kept, summed leaf risk)."""
        nd = self.nodes
        risk = nd.risk[node]
        tempcp = min(risk, bound)
        split = self._best_split(order, node) if self._splittable(node, tempcp) else None
        if split is None:
            nd.complexity[node] = self.alpha
            return 0, risk
        left_order, right_order = self._make_children(node, order, split)
        left, right = nd.left[node], nd.right[node]
        del order
        l_split, l_risk = self._partition(left, left_order, tempcp - self.alpha)
        del left_order
        # The right child's bound uses what the left subtree achieved (rpart's partition).
        t = max((risk - l_risk) / (l_split + 1), risk - nd.risk[left])
        t = min(t, bound)
        r_split, r_risk = self._partition(right, right_order, t - self.alpha)
        del right_order
        cx, l_split, l_risk, r_split, r_risk = self._node_complexity(node, l_split, l_risk,
                                                                     r_split, r_risk)
        nd.complexity[node] = cx
        if cx <= self.alpha:  # all in vain: collapse the subtree
            nd.left[node] = nd.right[node] = -1
            nd.split[node] = None
            return 0, risk
        return l_split + r_split + 1, l_risk + r_risk

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
    def _grow_best_first(self, root, order):
        nd = self.nodes
        heap = []
        counter = 0

        def push(node, node_order):
            nonlocal counter
            if self._splittable(node, nd.risk[node]):
                split = self._best_split(node_order, node)
                if split is not None:
                    heapq.heappush(heap, (-split.goodness, counter, node, split, node_order))
                    counter += 1

        push(root, order)
        n_leaves = 1
        while heap and n_leaves < self.max_leaf_nodes:
            _, _, node, split, node_order = heapq.heappop(heap)
            left_order, right_order = self._make_children(node, node_order, split)
            n_leaves += 1
            push(nd.left[node], left_order)
            push(nd.right[node], right_order)

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
            nd.left[node] = nd.right[node] = -1
            nd.split[node] = None
            return 0, nd.risk[node]
        return l_split + r_split + 1, l_risk + r_risk

    # -- split search ----------------------------------------------------------------------
    def _candidate_features(self):
        p = self.X.shape[1]
        if self.max_features is None or self.max_features >= p:
            return np.arange(p)
        return np.sort(self.rng.choice(p, size=self.max_features, replace=False))

    def _goodness(self, left, right):
        g = self.criterion(left, right)
        return check_goodness(g, left.shape[0], self.name)

    def _best_split(self, order, node):
        """Best split of the node, or None when no candidate has positive goodness."""
        total = self.nodes.value[node]
        m = order.shape[1]
        mb = self.min_bucket
        if m < 2 * mb:
            return None
        feats = self._candidate_features()
        best_g = np.full(feats.size, -np.inf)
        best_info = [None] * feats.size
        is_num = self.cat_sizes[feats] == 0
        num_pos = np.flatnonzero(is_num)
        if num_pos.size:
            self._numeric_search(order, feats[num_pos], num_pos, total, best_g, best_info)
        for pos in np.flatnonzero(~is_num):
            self._categorical_search(order[0], feats[pos], pos, total, best_g, best_info)
        if not np.isfinite(best_g).any():
            return None
        k = int(np.argmax(best_g))  # first feature among ties (rpart keeps the first)
        g = float(best_g[k])
        self._iscale = max(self._iscale, g)
        # rpart ignores improvements that are rounding noise relative to the largest seen.
        if not g > max(self._iscale * 1e-10, 0.0):
            return None
        info = best_info[k]
        if isinstance(info, float):
            return _Split(goodness=g, feature=int(feats[k]), threshold=info)
        return _Split(goodness=g, feature=int(feats[k]), left_categories=info)

    def _numeric_search(self, order, feats, positions, total, best_g, best_info):
        K = self.K
        mb = self.min_bucket
        rows = order[feats]  # (q, m): the node's rows sorted by each feature
        q, m = rows.shape
        lo, hi = mb - 1, m - mb - 1  # split after sorted position i: left = positions 0..i
        xs = self.X[rows, feats[:, None]]
        valid = xs[:, lo:hi + 1] < xs[:, lo + 1:hi + 2]
        if not valid.any():
            return
        onehot = np.zeros((q, m, K))
        flat = (np.arange(q * m) * K + self.codes[rows].ravel())
        onehot.reshape(-1)[flat] = self.w[rows].ravel()
        cum = np.cumsum(onehot[:, :hi + 1], axis=1)[:, lo:]  # (q, hi-lo+1, K)
        n_pos = hi - lo + 1
        if valid.mean() > 0.6:
            left = cum.reshape(-1, K)
            good = self._goodness(left, total - left).reshape(q, n_pos)
            good = np.where(valid, good, -np.inf)
        else:  # many ties (discrete features): evaluate only the distinct-value cuts
            left = cum[valid]
            good = np.full((q, n_pos), -np.inf)
            good[valid] = self._goodness(left, total - left)
        arg = np.argmax(good, axis=1)  # first (lowest) threshold among ties, as rpart
        vals = good[np.arange(q), arg]
        for j in range(q):
            if np.isfinite(vals[j]):
                i = lo + int(arg[j])
                a, b = xs[j, i], xs[j, i + 1]
                thr = (a + b) / 2.0
                if not a < thr:  # adjacent floats: keep x < threshold exact on both sides
                    thr = b
                best_g[positions[j]] = vals[j]
                best_info[positions[j]] = float(thr)

    def _categorical_search(self, rows, feat, position, total, best_g, best_info):
        """Categories ordered by their mean class code in the node, then cut like a numeric
        feature (the exact search for two classes; rpart does this for ordinal predictors)."""
        K = self.K
        n_cat = int(self.cat_sizes[feat])
        cats = self.X[rows, feat].astype(np.int64)
        counts = np.bincount(cats * K + self.codes[rows], weights=self.w[rows],
                             minlength=n_cat * K).reshape(n_cat, K)
        n_units = np.bincount(cats, minlength=n_cat)
        present = np.flatnonzero(n_units > 0)
        if present.size < 2:
            return
        cw = counts[present].sum(axis=1)
        mean = counts[present] @ np.arange(K) / cw
        seq = present[np.argsort(mean, kind="stable")]
        cum = np.cumsum(counts[seq], axis=0)[:-1]
        n_left = np.cumsum(n_units[seq])[:-1]
        valid = (n_left >= self.min_bucket) & (rows.size - n_left >= self.min_bucket)
        if not valid.any():
            return
        good = np.where(valid, self._goodness(cum, total - cum), -np.inf)
        k = int(np.argmax(good))
        if not np.isfinite(good[k]):
            return
        left = seq[:k + 1]
        absent = np.setdiff1d(np.arange(n_cat), present)
        if absent.size and cum[k].sum() >= total.sum() - cum[k].sum():
            left = np.concatenate([left, absent])  # unseen categories follow the majority
        best_g[position] = good[k]
        best_info[position] = np.sort(left).astype(np.int64)

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
