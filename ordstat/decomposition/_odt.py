"""oDT: one tree on the K-1 replicas with parallel cuts (dissertation "Ensemble methods for
ordinal data classification", chapter 4).

A branch node holds one attribute and K-1 thresholds, one per replica (``+inf``: this replica
makes no cut there); a leaf holds K-1 binary labels. Read as K-1 binary trees that share their
structure, replica k sends a unit left when x[attribute] <= threshold[k].
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy.stats import beta as beta_dist
from sklearn.base import BaseEstimator

from .._validation import (
    check_in_range,
    check_positive_int,
    validate_fit,
    validate_predict,
)
from ..trees.criteria import get_criterion
from ._base import ReplicaClassifierMixin
from ._replicas import apply_rule, count_rank, get_replica_rule
from ._split import replica_threshold_search


def _unit_impurity(crit):
    """Impurity of a 50/50 binary node per unit of weight (log 2 for entropy, 1/2 for Gini),
    so that goodness / (N * this) is a gain in [0, 1]; 1 for criteria without an impurity."""
    impurity = getattr(crit, "impurity", None)
    if impurity is None:
        return 1.0
    value = float(np.asarray(impurity(np.array([[0.5, 0.5]])))[0])
    return value if value > 0 else 1.0


def pessimistic_errors(errors, n, confidence):
    """C4.5's estimate of the errors of a leaf: n times the upper ``confidence`` limit of the
    binomial error rate (exact Clopper-Pearson limit instead of C4.5's normal approximation)."""
    if n <= 0:
        return 0.0
    if errors >= n:
        return float(n)
    return float(n * beta_dist.ppf(1.0 - confidence, errors + 1.0, n - errors))


class _Grower:
    def __init__(self, X, codes, m, params):
        self.X, self.codes, self.m, self.p = X, codes, m, params
        self.crit = get_criterion(params["criterion"])
        self.scale = _unit_impurity(self.crit)
        self.feature, self.threshold, self.left, self.right = [], [], [], []
        self.counts, self.labels = [], []

    def _new(self, counts, labels):
        self.feature.append(-1)
        self.threshold.append(np.full(self.m, np.inf))
        self.left.append(-1)
        self.right.append(-1)
        self.counts.append(counts)
        self.labels.append(labels)
        return len(self.feature) - 1

    def best_split(self, idx, W):
        """(feature, thresholds) of the best admissible node split, or None."""
        n_rep = W.sum(axis=0)
        thr, good = replica_threshold_search(self.X[idx], self.codes[idx], W, self.crit,
                                             self.p["min_samples_leaf"])  # (p, K-1) each
        values = np.clip(np.divide(good, n_rep * self.scale, out=np.zeros(good.shape),
                                   where=n_rep > 0), 0.0, 1.0)
        active = np.isfinite(thr) & (values > self.p["min_gain"])
        score = np.where(active.any(axis=1), apply_rule(self.p["rule"], values, active), 0.0)
        j = int(np.argmax(score))
        if not score[j] > 0:
            return None
        return j, np.where(active[j], thr[j], np.inf)

    def grow(self, idx, W, depth, parent_labels):
        pos = self.codes[idx][:, None] > np.arange(self.m)[None, :]
        counts = np.stack([np.where(pos, 0.0, W).sum(axis=0), np.where(pos, W, 0.0).sum(axis=0)],
                          axis=1)
        labels = np.where(counts[:, 1] > counts[:, 0], 1,
                          np.where(counts[:, 1] < counts[:, 0], 0, parent_labels))
        node = self._new(counts, labels)
        max_depth = self.p["max_depth"]
        if (max_depth is not None and depth >= max_depth) \
                or W.sum(axis=0).max() < self.p["min_samples_split"] \
                or np.all(np.minimum(counts[:, 0], counts[:, 1]) <= 0):
            return node
        split = self.best_split(idx, W)
        if split is None:
            return node
        j, thr = split
        go_left = self.X[idx, j][:, None] <= thr[None, :]
        self.feature[node], self.threshold[node] = j, thr
        for side, mask in (("left", go_left), ("right", ~go_left)):
            Ws = np.where(mask, W, 0.0)
            keep = Ws.any(axis=1)
            child = self.grow(idx[keep], Ws[keep], depth + 1, labels)
            getattr(self, side)[node] = child
        return node


def _prune(tree, node, confidence):
    """C4.5-style subtree replacement, bottom-up; returns the node's estimated errors.

    A node's errors as a leaf are the minority weights summed over the replicas (each replica
    predicts its majority label), and n its weight summed over the replicas."""
    counts = tree["counts"][node]
    n = float(counts.sum())
    leaf_est = pessimistic_errors(float(np.minimum(counts[:, 0], counts[:, 1]).sum()), n,
                                  confidence)
    if tree["left"][node] < 0:
        return leaf_est
    sub = _prune(tree, tree["left"][node], confidence) + \
        _prune(tree, tree["right"][node], confidence)
    if leaf_est <= sub + 0.1:  # C4.5 prunes when the leaf is not worse by more than 0.1
        tree["left"][node] = tree["right"][node] = -1
        tree["feature"][node] = -1
        tree["threshold"][node] = np.full(counts.shape[0], np.inf)
        return leaf_est
    return sub


def _compact(tree):
    """Renumber the nodes reachable from the root (depth-first, left first)."""
    order, stack = [], [0]
    while stack:
        node = stack.pop()
        order.append(node)
        if tree["left"][node] >= 0:
            stack.extend([tree["right"][node], tree["left"][node]])
    new = {old: i for i, old in enumerate(order)}
    out = {}
    for key in ("feature", "threshold", "counts", "labels"):
        out[key] = np.asarray([tree[key][o] for o in order])
    out["left"] = np.asarray([new.get(tree["left"][o], -1) for o in order], dtype=np.intp)
    out["right"] = np.asarray([new.get(tree["right"][o], -1) for o in order], dtype=np.intp)
    return out


def grow_replicated_tree(X, codes, W, params):
    """Grow (and prune) an oDT on replica weights ``W`` of shape (n, K-1); a dict of arrays."""
    m = W.shape[1]
    g = _Grower(X, codes, m, params)
    keep = W.any(axis=1)
    g.grow(np.flatnonzero(keep), W[keep], 0, np.zeros(m, dtype=np.intp))
    tree = {"feature": g.feature, "threshold": g.threshold, "left": g.left, "right": g.right,
            "counts": g.counts, "labels": g.labels}
    if params.get("prune"):
        _prune(tree, 0, params["confidence"])
    return _compact(tree)


def tree_leaves(tree, X):
    """Leaf reached by each row in each replica, shape (n, K-1)."""
    n = X.shape[0]
    m = tree["threshold"].shape[1]
    leaves = np.zeros((n, m), dtype=np.intp)
    rows = np.arange(n)
    for k in range(m):
        node = np.zeros(n, dtype=np.intp)
        while True:
            inner = tree["left"][node] >= 0
            if not inner.any():
                break
            r, nd = rows[inner], node[inner]
            go = X[r, tree["feature"][nd]] <= tree["threshold"][nd, k]
            node[inner] = np.where(go, tree["left"][nd], tree["right"][nd])
        leaves[:, k] = node
    return leaves


class ReplicatedTreeClassifier(ReplicaClassifierMixin, BaseEstimator):
    """Ordinal decision tree on the replicated data (oDT).

    Grown top-down. At a node, for every attribute, each replica k gets the threshold of best
    goodness for its own binary problem Y > C_k (:func:`replica_threshold_search`; a replica
    whose best gain does not exceed ``min_gain``, or has no admissible cut, gets +inf: no cut).
    The per-replica gains, as fractions of the largest possible binary gain (bits for entropy),
    are combined by ``rule`` and the attribute of largest combined score is used. Leaves hold the
    majority label of each replica. Post-pruning is C4.5's pessimistic subtree replacement with
    the misclassified weight summed over replicas. Classes by counting: i = 1 + number of
    replicas answering C+ (or Frank & Hall's differences of the leaf frequencies with
    ``combine="proba"``).

    Parameters
    ----------
    criterion : str or callable, default="entropy"
        A split criterion of ``ordstat.trees.criteria`` (information gain by default).
    rule : str or callable, default="sum"
        How per-replica gains are combined: "sum", "average", "product", "geometric", "min",
        "max", "dist_min", "dist_max" (see ``REPLICA_RULES``) or ``fn(values, active)``.
    max_depth : int, optional
    min_samples_split : float, default=2
        A node is split only if some replica holds at least this weight.
    min_samples_leaf : float, default=2
        Each child of a replica's cut holds at least this weight (C4.5's minimum of 2).
    min_gain : float, default=1e-3
        Gains (fractions of the maximum) at or below it give no cut for that replica.
    prune : bool, default=True
    confidence : float, default=0.25
        C4.5's confidence factor for pessimistic pruning.
    combine : {"count", "proba"}, default="count"
    classes : sequence, optional

    Attributes
    ----------
    tree_ : dict of arrays
        ``feature`` (-1 at leaves), ``threshold`` (n_nodes, K-1), ``left``, ``right``,
        ``counts`` (n_nodes, K-1, 2: weight of C- and C+ per replica), ``labels`` (n_nodes, K-1).
    node_count_ : int

    References
    ----------
    Dissertation "Ensemble methods for ordinal data classification", chapter 4 (section 4.3 for
    the combination rules) and appendix B (ordered thresholds on monotone data).
    """

    def __init__(self, criterion="entropy", rule="sum", max_depth=None, min_samples_split=2,
                 min_samples_leaf=2, min_gain=1e-3, prune=True, confidence=0.25,
                 combine="count", classes=None):
        self.criterion = criterion
        self.rule = rule
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_gain = min_gain
        self.prune = prune
        self.confidence = confidence
        self.combine = combine
        self.classes = classes

    def _params(self):
        self._check_combine()
        get_criterion(self.criterion)
        get_replica_rule(self.rule)
        if self.max_depth is not None:
            check_positive_int(self.max_depth, "max_depth")
        for name in ("min_samples_split", "min_samples_leaf"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Real) or value < 0:
                raise ValueError(f"{name} must be a number >= 0; got {value!r}.")
        check_in_range(self.min_gain, "min_gain", 0.0, 1.0)
        check_in_range(self.confidence, "confidence", 0.0, 0.5, low_open=True)
        if not isinstance(self.prune, (bool, np.bool_)):
            raise TypeError(f"prune must be True or False; got {self.prune!r}.")
        return {"criterion": self.criterion, "rule": self.rule, "max_depth": self.max_depth,
                "min_samples_split": self.min_samples_split,
                "min_samples_leaf": self.min_samples_leaf, "min_gain": self.min_gain,
                "prune": self.prune, "confidence": self.confidence}

    def fit(self, X, y, sample_weight=None):
        """Grow and prune the tree. ``sample_weight`` weights each unit in every replica."""
        params = self._params()
        X, codes, w = validate_fit(self, X, y, sample_weight, classes=self.classes)
        W = np.repeat(w[:, None], self.n_classes_ - 1, axis=1)
        return self._fit_replicas(X, codes, W, params)

    def _fit_replicas(self, X, codes, W, params=None):
        """Fit on per-replica weights W (n, K-1) for already validated X and codes."""
        params = self._params() if params is None else params
        self.tree_ = grow_replicated_tree(X, codes, W, params)
        self.node_count_ = len(self.tree_["feature"])
        return self

    def _replica_upper(self, X, hard):
        X = validate_predict(self, X)
        return self._upper(X, hard)

    def _upper(self, X, hard):
        leaves = tree_leaves(self.tree_, X)
        k = np.arange(leaves.shape[1])[None, :]
        labels = self.tree_["labels"][leaves, k].astype(np.float64)
        if hard:
            return labels
        counts = self.tree_["counts"][leaves, k]
        total = counts.sum(axis=-1)
        return np.where(total > 0, counts[..., 1] / np.where(total > 0, total, 1.0), labels)

    def _predict_codes(self, X):
        """Counting-rule codes for validated X (used by the boosting weak learner)."""
        return count_rank(self._upper(X, hard=True) > 0.5)

    def export_text(self, feature_names=None, digits=4):
        """The tree as text: each branch shows its attribute and the K-1 thresholds
        (``inf``: no cut for that replica); each leaf its K-1 binary labels (+ for C+) and the
        class they count to."""
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self)
        tree = self.tree_
        names = feature_names if feature_names is not None else getattr(
            self, "feature_names_in_", [f"x{j}" for j in range(self.n_features_in_)])
        lines = [f"oDT, {self.n_classes_ - 1} replicas (thresholds per replica k: "
                 "C_1..C_k vs above)"]

        def fmt(t):
            return "inf" if not np.isfinite(t) else f"{t:.{digits}g}"

        def walk(node, indent):
            pad = "  " * indent
            if tree["left"][node] < 0:
                labels = tree["labels"][node]
                signs = " ".join("+" if v else "-" for v in labels)
                cls = self.classes_[int(np.sum(labels))]
                lines.append(f"{pad}leaf [{signs}] -> {cls}")
                return
            thr = ", ".join(fmt(t) for t in tree["threshold"][node])
            lines.append(f"{pad}{names[tree['feature'][node]]} <= [{thr}]:")
            walk(tree["left"][node], indent + 1)
            lines.append(f"{pad}{names[tree['feature'][node]]} >  [{thr}]:")
            walk(tree["right"][node], indent + 1)

        walk(0, 0)
        return "\n".join(lines)
