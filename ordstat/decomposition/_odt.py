"""oDT: one tree on the K-1 replicas with parallel cuts (dissertation "Ensemble methods for
ordinal data classification", chapter 4).

A branch node holds one attribute and K-1 thresholds, one per replica (``+inf``: this replica
makes no cut there); a leaf holds K-1 binary labels. Read as K-1 binary trees that share their
structure, replica k sends a unit left when x[attribute] < threshold[k] (the convention of the
tree package's split search, which finds the cuts).
"""

from __future__ import annotations

import numpy as np
from scipy.special import betaincinv
from sklearn.base import BaseEstimator

from .._core.summary import Summary, class_info, class_table, cut_table
from .._core.validation import (Integral, Interval, Real, check_positive_int, validate_fit,
                                validate_predict)
from ..trees.criteria import get_criterion
from ._base import COMBINE_CONSTRAINT, ReplicaClassifierMixin
from ._replicas import apply_rule, count_rank, get_replica_rule
from ._replica_search import ReplicaSearch


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
    binomial error rate (exact Clopper-Pearson limit instead of C4.5's normal approximation).
    Elementwise for arrays of ``errors`` and ``n``."""
    errors, n = np.broadcast_arrays(np.asarray(errors, dtype=np.float64),
                                    np.asarray(n, dtype=np.float64))
    out = np.where(n > 0, n, 0.0)  # n where every unit is an error, 0 for an empty node
    inner = (n > 0) & (errors < n)
    # the Beta(errors + 1, n - errors) quantile, as scipy.stats.beta.ppf, without its overhead
    out[inner] = n[inner] * betaincinv(errors[inner] + 1.0, n[inner] - errors[inner],
                                       1.0 - confidence)
    return float(out) if out.ndim == 0 else out


def _level_split(search, counts, todo, params, scale):
    """Attribute (-1: none) and K-1 thresholds of the best split of each node of a level.

    Each replica's goodness is turned into a gain in [0, 1] (a fraction of the largest binary
    gain of its node); a replica whose best cut on the attribute gains at most ``min_gain`` gets
    +inf (no cut). The rule combines the gains of the active replicas per attribute, and the
    attribute of largest positive score wins (the first one on ties)."""
    n_nodes, m = counts.shape[0], counts.shape[1]
    feature = np.full(n_nodes, -1, dtype=np.intp)
    thresholds = np.full((n_nodes, m), np.inf)
    nodes = np.flatnonzero(todo)
    if not nodes.size:
        return feature, thresholds
    good, thr = search.search(todo)
    good, thr = good[nodes], thr[nodes]  # (S, p, K-1)
    n_rep = counts[nodes].sum(axis=-1)[:, None, :] * scale
    n_rep = np.broadcast_to(n_rep, good.shape)
    values = np.zeros(good.shape)
    np.divide(good, n_rep, out=values, where=(n_rep > 0) & np.isfinite(good))
    values = np.clip(values, 0.0, 1.0)
    active = np.isfinite(good) & (good > 1e-12) & (values > params["min_gain"])
    p = good.shape[1]
    score = apply_rule(params["rule"], values.reshape(-1, m), active.reshape(-1, m))
    score = np.where(active.any(axis=-1), score.reshape(-1, p), 0.0)  # (S, p)
    best = np.argmax(score, axis=1)
    rows = np.arange(nodes.size)
    ok = score[rows, best] > 0
    nodes, best, rows = nodes[ok], best[ok], rows[ok]
    feature[nodes] = best
    thresholds[nodes] = np.where(active[rows, best], thr[rows, best], np.inf)
    return feature, thresholds


def _grow(X, codes, W, params):
    """Grow the tree level by level; lists of node attributes, nodes numbered by level."""
    m = W.shape[1]
    crit = get_criterion(params["criterion"])
    scale = _unit_impurity(crit)
    min_bucket = max(1, int(np.ceil(params["min_samples_leaf"])))
    search = ReplicaSearch(X, codes, W, crit, min_bucket)
    tree = {key: [] for key in ("feature", "threshold", "left", "right", "counts", "labels")}
    parent_labels = np.zeros((1, m), dtype=np.intp)
    depth, max_depth = 0, params["max_depth"]
    while search.n_nodes:
        counts = search.counts()  # (L, K-1, 2)
        labels = np.where(counts[..., 1] > counts[..., 0], 1,
                          np.where(counts[..., 1] < counts[..., 0], 0, parent_labels))
        todo = ((max_depth is None or depth < max_depth)
                & (counts.sum(axis=-1).max(axis=1) >= params["min_samples_split"])
                & ~np.all(np.minimum(counts[..., 0], counts[..., 1]) <= 0, axis=1))
        todo = np.broadcast_to(todo, (counts.shape[0],))
        feature, thresholds = _level_split(search, counts, todo, params, scale)
        base = len(tree["feature"])
        is_split = feature >= 0
        kids = np.full(counts.shape[0], -1, dtype=np.intp)
        kids[is_split] = base + counts.shape[0] + 2 * np.arange(int(is_split.sum()))
        tree["feature"].extend(feature)
        tree["threshold"].extend(thresholds)
        tree["left"].extend(kids)
        tree["right"].extend(np.where(is_split, kids + 1, -1))
        tree["counts"].extend(counts)
        tree["labels"].extend(labels)
        parent_labels = np.repeat(labels[is_split], 2, axis=0)
        search.split(feature, thresholds)
        depth += 1
    return tree


def _prune(tree, confidence):
    """C4.5-style subtree replacement, bottom-up.

    A node's errors as a leaf are the minority weights summed over the replicas (each replica
    predicts its majority label), and n its weight summed over the replicas."""
    counts = np.asarray(tree["counts"])
    leaf_est = pessimistic_errors(np.minimum(counts[..., 0], counts[..., 1]).sum(axis=1),
                                  counts.sum(axis=(1, 2)), confidence)

    def prune(node):  # the node's estimated errors after pruning its subtree
        if tree["left"][node] < 0:
            return leaf_est[node]
        sub = prune(tree["left"][node]) + prune(tree["right"][node])
        if leaf_est[node] <= sub + 0.1:  # C4.5 prunes when the leaf is not worse by > 0.1
            tree["left"][node] = tree["right"][node] = -1
            tree["feature"][node] = -1
            tree["threshold"][node] = np.full(counts.shape[1], np.inf)
            return leaf_est[node]
        return sub

    prune(0)


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
    tree = _grow(X, codes, W, params)
    if params.get("prune"):
        _prune(tree, params["confidence"])
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
            go = X[r, tree["feature"][nd]] < tree["threshold"][nd, k]
            node[inner] = np.where(go, tree["left"][nd], tree["right"][nd])
        leaves[:, k] = node
    return leaves


class ReplicatedTreeClassifier(ReplicaClassifierMixin, BaseEstimator):
    """Ordinal decision tree on the replicated data (oDT).

    Grown top-down, one level at a time. At a node, for every attribute, each replica k gets the
    threshold of best goodness for its own binary problem Y > C_k, found by the tree package's
    split search with its own 0/1 codes and weights (:class:`ReplicaSearch`; a replica whose
    best gain does not exceed ``min_gain``, or has no admissible cut, gets +inf: no cut).
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
        Each child of a replica's cut holds at least this many of the replica's units (C4.5's
        minimum of 2; a fraction is rounded up, 0 means 1). Counted in units, not weight, as
        the tree package's ``min_bucket``.
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
        ``feature`` (-1 at leaves), ``threshold`` (n_nodes, K-1; replica k sends
        ``x[feature] < threshold[k]`` left), ``left``, ``right``,
        ``counts`` (n_nodes, K-1, 2: weight of C- and C+ per replica), ``labels`` (n_nodes, K-1).
    node_count_ : int

    References
    ----------
    Dissertation "Ensemble methods for ordinal data classification", chapter 4 (section 4.3 for
    the combination rules) and appendix B (ordered thresholds on monotone data).
    """

    _parameter_constraints: dict = {
        # names are looked up in the criterion and rule registries in fit
        "criterion": [str, callable],
        "rule": [str, callable],
        "max_depth": [Interval(Integral, 1, None, closed="left"), None],
        # weights: 0 lets every node with weight split, inf none
        "min_samples_split": [Interval(Real, 0, None, closed="both")],
        # units, rounded up (0 means 1): finite
        "min_samples_leaf": [Interval(Real, 0, None, closed="left")],
        "min_gain": [Interval(Real, 0, 1, closed="both")],
        "prune": ["boolean"],
        "confidence": [Interval(Real, 0, 0.5, closed="right")],
        "combine": COMBINE_CONSTRAINT,
        "classes": ["array-like", None],
    }

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
        self._validate_params()
        get_criterion(self.criterion)
        get_replica_rule(self.rule)
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

    def summary(self, digits=4):
        """The tree described for reading: its settings, its size, the cuts each replica
        makes, and the tree itself (:meth:`export_text`) as notes.

        Parameters
        ----------
        digits : int, default=4
            Significant digits of the printed numbers.

        Returns
        -------
        Summary
            Printable (``str``, and HTML in Jupyter); its tables are DataFrames:
            ``summary["classes"]`` (training units per class) and ``summary["replicas"]``
            (units below and above each cut, and ``cuts``: the branch nodes where the replica
            cuts, i.e. has a finite threshold).
        """
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self)
        digits = check_positive_int(digits, "digits")
        tree = self.tree_
        branch = tree["left"] >= 0
        depth = np.zeros(len(branch), dtype=np.intp)
        for v in np.flatnonzero(branch):  # preorder: a parent comes before its children
            depth[tree["left"][v]] = depth[tree["right"][v]] = depth[v] + 1
        pruning = f"C4.5, confidence {self.confidence:.{digits}g}" if self.prune else "none"
        info = class_info(self, digits) + [
            ("criterion", str(self.criterion)), ("rule", str(self.rule)),
            ("min_samples_split", f"{self.min_samples_split:.{digits}g}"),
            ("min_samples_leaf", f"{self.min_samples_leaf:.{digits}g}"),
            ("min_gain", f"{self.min_gain:.{digits}g}"), ("pruning", pruning),
            ("size", f"{self.node_count_} nodes, {int(np.sum(~branch))} leaves, "
                     f"depth {int(depth.max())}")]
        cuts = np.isfinite(tree["threshold"][branch]).sum(axis=0)
        tables = {"classes": class_table(self), "replicas": cut_table(self, cuts=cuts)}
        return Summary("Ordinal decision tree on the replicated data (oDT)", info, tables,
                       self.export_text(digits=digits), digits)

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
            lines.append(f"{pad}{names[tree['feature'][node]]} <  [{thr}]:")
            walk(tree["left"][node], indent + 1)
            lines.append(f"{pad}{names[tree['feature'][node]]} >= [{thr}]:")
            walk(tree["right"][node], indent + 1)

        walk(0, 0)
        return "\n".join(lines)
