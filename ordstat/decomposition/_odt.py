"""oDT: one tree on the K-1 replicas with parallel cuts (dissertation "Ensemble methods for
ordinal data classification", chapter 4).

A branch node holds one attribute and K-1 thresholds, one per replica (``+inf``: this replica
makes no cut there), or a nominal attribute with one branch per category for every replica; a
leaf holds K-1 binary labels. Read as K-1 binary trees that share their
structure, replica k sends a unit left when x[attribute] < threshold[k] (the convention of the
tree package's split search, which finds the cuts).
"""

from __future__ import annotations

import numpy as np
from scipy.special import betaincinv
from sklearn.base import BaseEstimator

from .._core.summary import Summary, class_info, class_table, cut_table
from .._core.validation import (Integral, Interval, Real, StrOptions,
                                check_positive_int, check_random_state, validate_fit,
                                validate_predict)
from ..trees._c45 import SMALL, add_errs, bags_split, collapse, min_split_size, prune
from ..trees._classes import MAX_FEATURES_CONSTRAINT, n_features_drawn
from ..trees.criteria import get_criterion
from ._base import COMBINE_CONSTRAINT, ReplicaClassifierMixin, code_ordered, coded_ordered
from ._replicas import apply_rule, count_rank, get_replica_rule
from ._replica_search import ReplicaSearch

#: how a replica's cut is scored (see ReplicatedTreeClassifier's ``split_score``)
SPLIT_SCORES = ("gain_ratio", "gain")
# J48 keeps an attribute whose gain is at least the average gain minus this (bits per unit;
# Weka's C45ModelSelection: "to get a closer approximation to the original implementation")
_AVERAGE_GAIN_SLACK = 1e-3


def _unit_impurity(crit):
    """Impurity of a 50/50 binary node per unit of weight (log 2 for entropy, 1/2 for Gini),
    so that goodness / (N * this) is a gain in [0, 1]; 1 for criteria without an impurity."""
    impurity = getattr(crit, "impurity", None)
    if impurity is None:
        return 1.0
    value = float(np.asarray(impurity(np.array([[0.5, 0.5]])))[0])
    return value if value > 0 else 1.0


def pessimistic_errors(errors, n, confidence):
    """Estimated errors of a leaf: n times the exact (Clopper-Pearson) upper ``confidence``
    limit of the binomial error rate, the Beta(errors + 1, n - errors) quantile at
    1 - confidence (``error_bound="exact"``). Elementwise for arrays of ``errors`` and ``n``."""
    errors, n = np.broadcast_arrays(np.asarray(errors, dtype=np.float64),
                                    np.asarray(n, dtype=np.float64))
    out = np.where(n > 0, n, 0.0)  # n where every unit is an error, 0 for an empty node
    inner = (n > 0) & (errors < n)
    # the Beta(errors + 1, n - errors) quantile, as scipy.stats.beta.ppf, without its overhead
    out[inner] = n[inner] * betaincinv(errors[inner] + 1.0, n[inner] - errors[inner],
                                       1.0 - confidence)
    return float(out) if out.ndim == 0 else out


def normal_errors(errors, n, confidence):
    """Estimated errors of a leaf as Weka's J48 computes them (``error_bound="normal"``):
    ``errors`` plus C4.5's AddErrs (:func:`ordstat.trees._c45.add_errs`, the upper limit of
    the normal approximation to the binomial with a continuity correction, and J48's special
    cases for fewer than one error and for errors near n). Empty nodes have 0. Elementwise for
    arrays of ``errors`` and ``n``."""
    e, n = np.broadcast_arrays(np.asarray(errors, dtype=np.float64),
                               np.asarray(n, dtype=np.float64))
    out = np.zeros(e.size)
    for i in np.flatnonzero(n.ravel() > 0):
        out[i] = e.flat[i] + add_errs(float(n.flat[i]), float(e.flat[i]), confidence)
    return float(out[0]) if e.ndim == 0 else out.reshape(e.shape)


#: the leaf error estimates of pruning (see ReplicatedTreeClassifier's ``error_bound``)
ERROR_BOUNDS = {"normal": normal_errors, "exact": pessimistic_errors}
#: how a leaf's estimated errors sum the replicas (see ``replica_errors``)
REPLICA_ERRORS = ("pooled", "per_replica")


def _draw_attributes(rng, n_nodes, todo, p, drawn):
    """(n_nodes, p) mask of the attributes drawn, without replacement, for each node to
    search; None when every attribute is searched."""
    if drawn >= p:
        return None
    mask = np.zeros((n_nodes, p), dtype=bool)
    nodes = np.flatnonzero(todo)
    keys = rng.random((nodes.size, p))
    chosen = np.argsort(keys, axis=1)[:, :drawn]
    mask[np.repeat(nodes, drawn), chosen.ravel()] = True
    return mask


def _binary_entropy_bits(q):
    """H(q, 1 - q) in bits (0 at q = 0 or 1)."""
    q = np.clip(q, 0.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -(np.where(q > 0, q * np.log2(q), 0.0) + np.where(q < 1, (1 - q) * np.log2(1 - q),
                                                              0.0))
    return h


def _replica_gains(good, counts, scale):
    """Each replica's cut as a gain in [0, 1] (shape of ``good``: (S, p, K-1)): its goodness
    as a fraction of the largest binary gain of the replica's weight in the node (bits per
    unit for entropy)."""
    total = np.broadcast_to(counts.sum(axis=-1)[:, None, :] * scale, good.shape)
    values = np.zeros(good.shape)
    np.divide(good, total, out=values, where=(total > 0) & np.isfinite(good))
    return np.clip(values, 0.0, 1.0)


def _gain_ratios(gains, left, counts):
    """C4.5's gain ratio of each replica's cut: its gain (``gains``, bits per unit for
    entropy) over the split information, the entropy in bits of the weight the cut sends left
    (``left``) and right; in [0, 1] (clipped: for another criterion the ratio is our
    analogue). Arrays of shape (S, p, K-1); ``counts`` (S, K-1, 2)."""
    total = counts.sum(axis=-1)[:, None, :]
    split_info = _binary_entropy_bits(np.divide(left, total, out=np.zeros(left.shape),
                                                where=total > 0))
    ratio = np.zeros(gains.shape)
    np.divide(gains, split_info, out=ratio, where=split_info > 0)
    return np.clip(ratio, 0.0, 1.0)


def _combined(rule, values, active):
    """The rule's score of every (node, attribute) from values and active masks
    (S, p, K-1); 0 where no replica is active."""
    S, p, m = values.shape
    score = apply_rule(rule, values.reshape(-1, m), active.reshape(-1, m)).reshape(S, p)
    return np.where(active.any(axis=-1), score, 0.0)


def _level_split(search, counts, todo, params, scale, rng=None):
    """Attribute (-1: none) and K-1 thresholds of the best split of each node of a level.

    Each replica's best cut on each attribute (by the criterion's goodness) is turned into a
    gain in [0, 1] (:func:`_replica_gains`); a replica whose gain is at most ``min_gain`` gets
    +inf (no cut). The rule combines the gains of the active replicas per attribute, and the
    attribute
    of largest positive score wins (the first one on ties). With ``split_score="gain_ratio"``
    (J48's reading of C4.5) only the attributes whose combined gain is at least the average
    combined gain (less J48's 1e-3) compete, and on their combined gain ratios. With
    ``max_features`` each node searches the attributes drawn for it by ``rng``."""
    n_nodes, m = counts.shape[0], counts.shape[1]
    feature = np.full(n_nodes, -1, dtype=np.intp)
    thresholds = np.full((n_nodes, m), np.inf)
    nodes = np.flatnonzero(todo)
    if not nodes.size:
        return feature, thresholds
    p = search.p
    attributes = _draw_attributes(rng, n_nodes, todo, p, params["n_drawn"])
    min_bucket = None
    if params["min_num_obj"] is not None:
        # J48's minimum split size on each replica's binary problem, in units
        need = min_split_size(counts.sum(axis=-1), 2, params["min_num_obj"])
        min_bucket = np.ceil(need - SMALL).astype(np.int64)
    good, thr = search.search(todo, attributes, min_bucket)
    split_score = params["split_score"]
    values = _replica_gains(good[nodes], counts[nodes], scale)  # (S, p, K-1)
    valid = np.isfinite(good[nodes]) & (good[nodes] > 1e-12)
    ratios = (_gain_ratios(values, search.left_weights(thr)[nodes], counts[nodes])
              if split_score == "gain_ratio" else None)
    nominal = np.flatnonzero(search.n_values > 0)
    if nominal.size:
        _nominal_gains(search, nodes, nominal, attributes, params, values, ratios, valid)
    active = valid & (values > params["min_gain"])
    score = _combined(params["rule"], values, active)  # (S, p)
    if split_score == "gain_ratio":
        competing = active.any(axis=-1)
        # J48 leaves nominal attributes of many values (at least 0.3 x the training units)
        # out of the average, unless every attribute is one
        many = (search.n_values > 0) & (search.n_values >= 0.3 * params["n_units"] - SMALL)
        counted = competing & (~many if not many.all() else True)
        n_counted = counted.sum(axis=1, keepdims=True)
        average = np.divide(np.where(counted, score, 0.0).sum(axis=1, keepdims=True),
                            n_counted, out=np.zeros((nodes.size, 1)), where=n_counted > 0)
        eligible = competing & (score >= average - _AVERAGE_GAIN_SLACK)
        score = np.where(eligible, _combined(params["rule"], ratios, active), 0.0)
    thr = thr[nodes]
    best = np.argmax(score, axis=1)
    rows = np.arange(nodes.size)
    ok = score[rows, best] > 0
    nodes, best, rows = nodes[ok], best[ok], rows[ok]
    feature[nodes] = best
    thresholds[nodes] = np.where(active[rows, best], thr[rows, best], np.inf)
    thresholds[nodes[search.n_values[best] > 0]] = np.nan  # one branch per category
    return feature, thresholds


def _nominal_gains(search, nodes, nominal, attributes, params, values, ratios, valid):
    """Fill the columns of the nominal attributes of ``values``, ``ratios`` (None: not
    scored) and ``valid`` (S, p, K-1) for the searched ``nodes``: each replica's information
    gain (bits per unit) and gain ratio of the split of one branch per category, C4.5's
    (:func:`ordstat.trees._c45.bags_split`: at least two branches with ``min_num_obj`` of the
    replica's weight, or ``min_samples_leaf`` without that rule)."""
    least = params["min_num_obj"]
    if least is None:
        least = max(1.0, float(params["min_samples_leaf"]))
    for j in nominal:
        counts = search.category_counts(j)[nodes]  # (S, c, K-1, 2)
        values[:, j] = 0.0
        valid[:, j] = False
        if ratios is not None:
            ratios[:, j] = 0.0
        for s, k in np.ndindex(nodes.size, counts.shape[2]):
            if attributes is not None and not attributes[nodes[s], j]:
                continue
            bags = counts[s, :, k]
            split = bags_split(bags, bags.sum(), least, j)
            if split is None or split.gain <= 0:
                continue
            values[s, j, k], valid[s, j, k] = min(split.gain, 1.0), True
            if ratios is not None:
                ratios[s, j, k] = min(max(split.ratio, 0.0), 1.0)


def _grow(X, codes, W, params, rng):
    """Grow the tree level by level; lists of node attributes, nodes numbered by level."""
    m = W.shape[1]
    crit = get_criterion(params["criterion"])
    scale = _unit_impurity(crit)
    min_bucket = max(1, int(np.ceil(params["min_samples_leaf"])))
    search = ReplicaSearch(X, codes, W, crit, min_bucket, params["n_values"])
    tree = {key: [] for key in ("feature", "threshold", "children", "counts", "labels")}
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
        feature, thresholds = _level_split(search, counts, todo, params, scale, rng)
        n_kids = search.n_branches(feature)
        first = len(tree["feature"]) + counts.shape[0] + np.cumsum(n_kids) - n_kids
        tree["feature"].extend(feature)
        tree["threshold"].extend(thresholds)
        tree["children"].extend(np.arange(f, f + n) for f, n in zip(first, n_kids))
        tree["counts"].extend(counts)
        tree["labels"].extend(labels)
        # an empty branch (a category without units) keeps its parent's labels
        parent_labels = np.repeat(labels, n_kids, axis=0)
        search.split(feature, thresholds)
        depth += 1
    return tree


class _ReplicaView:
    """The grown oDT as C4.5's collapsing and pruning read and change it
    (:func:`ordstat.trees._c45.collapse` and :func:`~ordstat.trees._c45.prune`): a node's
    errors as a leaf are the minority weights summed over the replicas (each replica predicts
    its majority label; the dissertation, section 4.3), its estimated errors the bound on
    that sum out of the weight summed over the replicas ("pooled") or the replicas' own
    bounds summed ("per_replica"); its branches' weights summed over the replicas. Raising a
    branch sends the node's units down the raised subtree, each replica by its own
    thresholds, and recounts it."""

    def __init__(self, tree, X, codes, W, confidence, error_bound, replica_errors="pooled"):
        self.tree, self.X, self.codes = tree, X, codes
        self.confidence, self.bound = confidence, ERROR_BOUNDS[error_bound]
        self.per_replica = replica_errors == "per_replica"
        tree["counts"] = list(tree["counts"])
        tree["labels"] = list(tree["labels"])
        self.units = {}
        self._route(0, np.arange(X.shape[0]), W)

    def _counts(self, rows, W):
        upper = self.codes[rows][:, None] > np.arange(W.shape[1])[None, :]
        plus = (W * upper).sum(axis=0)
        return np.stack([W.sum(axis=0) - plus, plus], axis=-1)

    def _sides(self, node, rows, W):
        """The units (rows, per-replica weights) of each child of ``node``."""
        t = self.tree
        branch = node_branches(t, node, self.X[rows, t["feature"][node]])  # (n, K-1)
        out = []
        for b in range(len(t["children"][node])):
            Wc = W * (branch == b)
            keep = Wc.sum(axis=1) > 0
            out.append((rows[keep], Wc[keep]))
        return out

    def _route(self, node, rows, W):
        """Give the subtree ``node`` the units (rows, W) and recount it."""
        t = self.tree
        self.units[node] = (rows, W)
        counts = self._counts(rows, W)
        t["counts"][node] = counts
        old = np.asarray(t["labels"][node])
        t["labels"][node] = np.where(counts[:, 1] > counts[:, 0], 1,
                                     np.where(counts[:, 1] < counts[:, 0], 0, old))
        for child, (r, cw) in zip(self.children(node), self._sides(node, rows, W)):
            self._route(child, r, cw)

    def _leaf_errors(self, counts):
        minority = np.minimum(counts[:, 0], counts[:, 1])
        if self.per_replica:  # each replica's distribution bounded alone, then summed
            return float(np.sum(self.bound(minority, counts.sum(axis=1), self.confidence)))
        return float(self.bound(minority.sum(), counts.sum(), self.confidence))

    def children(self, node):
        return list(self.tree["children"][node])

    def training_errors(self, node):
        counts = self.tree["counts"][node]
        return float(np.minimum(counts[:, 0], counts[:, 1]).sum())

    def estimated_errors(self, node):
        return self._leaf_errors(self.tree["counts"][node])

    def branch_weights(self, node):
        return [self.tree["counts"][c].sum() for c in self.children(node)]

    def _errors_on(self, node, rows, W):
        kids = self.children(node)
        if not kids:
            return self._leaf_errors(self._counts(rows, W))
        return sum(self._errors_on(c, r, cw)
                   for c, (r, cw) in zip(kids, self._sides(node, rows, W)))

    def branch_errors(self, node, j):
        return self._errors_on(self.children(node)[j], *self.units[node])

    def make_leaf(self, node):
        t = self.tree
        t["feature"][node] = -1
        t["children"][node] = np.zeros(0, dtype=np.intp)
        t["threshold"][node] = np.full(len(t["threshold"][node]), np.inf)

    def raise_branch(self, node, j):
        t = self.tree
        branch = self.children(node)[j]
        for key in ("feature", "threshold", "children"):
            t[key][node] = t[key][branch]
        self._route(node, *self.units[node])


def _prune(tree, X, codes, W, params):
    """J48's post-processing of the grown tree through :class:`_ReplicaView`: collapsing
    (``collapse_tree``), then pessimistic pruning (``prune``) with subtree replacement and,
    with ``subtree_raising``, subtree raising."""
    view = _ReplicaView(tree, X, codes, W, params["confidence"], params["error_bound"],
                        params.get("replica_errors", "pooled"))
    if params["collapse_tree"]:
        collapse(0, view)
    if params["prune"]:
        prune(None, 0, params["subtree_raising"], view)


def _compact(tree):
    """Renumber the nodes reachable from the root (depth-first, first branch first); the
    first and last child of each node as ``left`` and ``right`` (-1 at leaves)."""
    order, stack = [], [0]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(reversed(list(tree["children"][node])))
    new = {old: i for i, old in enumerate(order)}
    out = {}
    for key in ("feature", "threshold", "counts", "labels"):
        out[key] = np.asarray([tree[key][o] for o in order])
    out["children"] = [np.array([new[c] for c in tree["children"][o]], dtype=np.intp)
                       for o in order]
    out["left"] = np.array([c[0] if c.size else -1 for c in out["children"]], dtype=np.intp)
    out["right"] = np.array([c[-1] if c.size else -1 for c in out["children"]], dtype=np.intp)
    return out


def node_branches(tree, node, x):
    """Branch of each value ``x`` of ``node``'s attribute in each replica, (n, K-1): the
    category code at a nominal split (its threshold NaN), else 0 where ``x < threshold[k]``
    (left) and 1 where not."""
    threshold = tree["threshold"][node]
    if np.isnan(threshold).all():
        return np.repeat(x.astype(np.intp)[:, None], threshold.size, axis=1)
    return (x[:, None] >= threshold[None, :]).astype(np.intp)


def tree_depths(tree):
    """Depth of every node of a fitted tree (the root 0)."""
    depth = np.zeros(len(tree["feature"]), dtype=np.intp)
    for v, kids in enumerate(tree["children"]):  # preorder: a parent before its children
        depth[kids] = depth[v] + 1
    return depth


def check_category_codes(X, n_values):
    """``X`` as given after checking that each nominal column (``n_values[j]`` > 0
    categories) holds codes 0..n_values[j]-1: a numeric ``X`` given to a tree fitted on
    categories must hold their codes."""
    for j in np.flatnonzero(np.zeros(0) if n_values is None else n_values):
        col = X[:, j]
        if np.any((col != np.floor(col)) | (col < 0) | (col >= n_values[j])):
            raise ValueError(f"X column {j} holds the codes of {n_values[j]} categories; got "
                             f"values that are not codes 0..{n_values[j] - 1}.")
    return X


def grow_replicated_tree(X, codes, W, params, rng=None):
    """Grow (and prune) an oDT on replica weights ``W`` of shape (n, K-1); a dict of arrays.
    ``rng`` draws the attributes of each node when ``params["n_drawn"]`` is below p."""
    tree = _grow(X, codes, W, params, rng)
    if params.get("prune") or params.get("collapse_tree"):
        _prune(tree, X, codes, W, params)
    return _compact(tree)


def tree_leaves(tree, X):
    """Leaf reached by each row in each replica, shape (n, K-1)."""
    n = X.shape[0]
    m = tree["threshold"].shape[1]
    children = tree["children"]
    # children of each node in a table, one column per branch
    table = np.full((len(children), max(2, max(map(len, children)))), -1, dtype=np.intp)
    for v, kids in enumerate(children):
        table[v, :len(kids)] = kids
    nominal = np.isnan(tree["threshold"]).all(axis=1)
    leaves = np.zeros((n, m), dtype=np.intp)
    rows = np.arange(n)
    for k in range(m):
        node = np.zeros(n, dtype=np.intp)
        while True:
            inner = table[node, 0] >= 0
            if not inner.any():
                break
            r, nd = rows[inner], node[inner]
            x = X[r, tree["feature"][nd]]
            branch = np.where(nominal[nd], np.nan_to_num(x).astype(np.intp),
                              x >= tree["threshold"][nd, k])
            node[inner] = table[nd, branch]
        leaves[:, k] = node
    return leaves


class ReplicatedTreeClassifier(ReplicaClassifierMixin, BaseEstimator):
    """Ordinal decision tree on the replicated data (oDT).

    Grown top-down, one level at a time. At a node, for every attribute, each replica k gets
    its own threshold for its binary problem Y > C_k, found by the tree package's split search
    with the replica's 0/1 codes and weights (:class:`ReplicaSearch`). The replicas' scores
    on an attribute are combined by ``rule`` and the best attribute is used; a replica whose
    gain on it is too small, or which has no admissible cut, gets +inf (no cut: the
    dissertation's "split at infinity if the information gain is too small", sections 4.2 and
    4.3). Leaves hold the majority label of each replica. Growth, collapsing and
    post-pruning follow J48 (C4.5 release 8, the dissertation's base) with the misclassified
    weight summed over the replicas: J48's minimum split size (``min_num_obj``), collapsing
    (``collapse_tree``), subtree replacement and subtree raising (``subtree_raising``), the
    pieces of :class:`~ordstat.trees.C45Classifier` applied to the replicated tree. Classes by
    counting: i = 1 + number of replicas answering C+ (or Frank & Hall's differences of the
    leaf frequencies with ``combine="proba"``).

    How a replica's cut is scored (``split_score``):

    - "gain_ratio" (default): C4.5's gain ratio, as Weka's J48 (C4.5 release 8) computes it,
      which the dissertation's oDT compares with and borrows its pruning from. The replica's
      threshold on the attribute is the cut of largest information gain (J48's
      ``C45Split``); its value is the gain ratio of that cut, gain / split information (the
      entropy, in bits, of the weights the cut sends left and right; Quinlan 1993). The
      attributes compete as in J48's ``C45ModelSelection``: only those whose combined gain
      (``rule`` over the replicas' gains) is at least the average combined gain of the
      attributes with some cut, less J48's slack of 1e-3, and among them the largest combined
      gain ratio wins. The dissertation writes "the theta_k that maximize the gain ratio of
      each replica"; we read it as J48 does (threshold by gain, attribute by gain ratio), since
      a threshold maximising the gain ratio itself favours cuts that split off a few units,
      which is why C4.5 asks for an above-average gain. With a criterion other than entropy
      the "gain ratio" is that criterion's normalised gain over the split information, clipped
      to [0, 1]: our analogue, not C4.5's.
    - "gain": the normalised gain alone (each replica's goodness as a fraction of the largest
      binary gain of its weight in the node: bits per unit for entropy), for the threshold and
      for the attribute. The trees of ordstat before ``split_score`` existed.

    Parameters
    ----------
    criterion : str or callable, default="entropy"
        A split criterion of ``ordstat.trees.criteria`` (information gain by default).
    rule : str or callable, default="sum"
        How per-replica values are combined: "sum", "average", "product", "geometric", "min",
        "max", "dist_min", "dist_max" (see ``REPLICA_RULES``) or ``fn(values, active)``.
    split_score : {"gain_ratio", "gain"}, default="gain_ratio"
        How a replica's cut is scored (see above).
    max_depth : int, optional
    min_samples_split : float, default=2
        A node is split only if some replica holds at least this weight.
    min_samples_leaf : float, default=2
        Each child of a replica's cut holds at least this many of the replica's units (C4.5's
        minimum of 2; a fraction is rounded up, 0 means 1). Counted in units, not weight, as
        the tree package's ``min_bucket``.
    min_gain : float, default=1e-3
        A replica cuts only where its gain (the fraction of the largest binary gain, as for
        "gain", also with "gain_ratio") exceeds this; otherwise it gets +inf: the rule behind
        the dissertation's cut "at infinity if the information gain is too small" (sections 4.2
        and 4.3), which gives no number, while J48 cuts at any positive gain. The default 1e-3
        is our choice, so that round-off and negligible gains make no cut; 0 keeps every cut
        of positive gain.
    min_num_obj : int or None, default=2
        J48's minimum split size (release 8), read on each replica's binary problem: in a node
        where replica k holds weight W_k, each side of its cut holds at least
        0.1 x W_k / 2 (two classes) clamped to [``min_num_obj``, 25], rounded up to whole
        units (counted in units, as ``min_samples_leaf``). The dissertation builds oDT on J48
        and says no more; we apply J48's rule to the binary problem each replica's cut
        solves, since that is the problem J48 would cut. None: no such rule, only
        ``min_samples_leaf`` (ordstat's oDT before this parameter).
    collapse_tree : bool, default=True
        J48's collapsing, before pruning (also without ``prune``): a subtree whose leaves
        make no fewer training errors (summed over the replicas, less 1e-3) than its root as
        a leaf becomes a leaf.
    subtree_raising : bool, default=True
        J48's subtree raising when pruning: a node may be replaced by its heavier branch
        (weights summed over the replicas), which then receives all the node's units, each
        replica routing them by its own thresholds, when that branch's estimated errors on
        them are at most the subtree's (plus 0.1).
    prune : bool, default=True
    confidence : float, default=0.25
        C4.5's confidence factor for pessimistic pruning.
    error_bound : {"normal", "exact"}, default="normal"
        The upper confidence limit of a leaf's error rate that pruning uses. "normal": J48's
        (Weka's ``Stats.addErrs``: the normal approximation to the binomial with a continuity
        correction, and its special cases for fewer than one error and for errors near n; see
        :func:`normal_errors`), the default because the dissertation prunes with "the same
        methods used in Weka's J48". "exact": the exact binomial (Clopper-Pearson) limit
        (:func:`pessimistic_errors`), the bound ordstat used before.
    replica_errors : {"pooled", "per_replica"}, default="pooled"
        How pruning sums a leaf's estimated errors over the replicas, the dissertation's "to
        get the number of misclassified points we simply sum the number of misclassified
        points in each replica" (section 4.3), which leaves open where the bound applies.
        "pooled": one bound on the errors summed over the replicas out of the weight summed
        over the replicas (the leaf read as one binomial of (K-1) x its units). "per_replica":
        the bound of each replica's own distribution (its errors out of its weight, J48's
        estimate of a binary leaf), summed; it prunes more, since each bound is taken on
        fewer units. On the dissertation's data sets "per_replica" gives trees of about the
        sizes of its Table 4.1 (see ``ordstat reproduce``).
    max_features : int, float, {"sqrt", "log2", "log2+1"} or None, default=None
        Attributes drawn at random, without replacement, in each node, the same for every
        replica (for forests): an int, a fraction of the attributes, int(sqrt p), int(log2 p)
        or int(log2 p) + 1 (Weka's RandomForest default, the dissertation's forests), at least
        1 and at most p; None searches all. A node none of whose drawn attributes admits a cut
        becomes a leaf (Weka's RandomTree would draw more).
    random_state : None, int or numpy Generator, default=None
        Seeds the draws of ``max_features`` (not used without it).
    combine : {"count", "proba"}, default="count"
    classes : sequence, optional

    Attributes
    ----------
    tree_ : dict of arrays
        ``feature`` (-1 at leaves), ``threshold`` (n_nodes, K-1; replica k sends
        ``x[feature] < threshold[k]`` left; NaN at a nominal split), ``children`` (a list:
        each node's children, two for a cut, left first, one per category code for a nominal
        split, none at leaves), ``left`` and ``right`` (the first and last child, -1 at
        leaves), ``counts`` (n_nodes, K-1, 2: weight of C- and C+ per replica), ``labels``
        (n_nodes, K-1).
    node_count_ : int
        Number of nodes, leaves included (J48's "Size of the tree").
    n_leaves_ : int
    categories_ : dict
        ``{feature index: categories}`` of the nominal columns (empty when there are none).

    Notes
    -----
    Categorical predictors: an ordered pandas Categorical is read as its codes 0..c-1, a numeric
    scale cut by the thresholds (as rpart and :class:`~ordstat.trees.OrdinalTreeClassifier`
    read ordered factors; the same coding, :class:`ordstat._core.predictors.ColumnCoding`), and
    matched by category at prediction. Unordered columns (strings, unordered Categoricals) are
    nominal attributes, split as C4.5 splits them: one branch per category, the same split in
    every replica (the dissertation, section 4.2: theta_1 = ... = theta_{K-1}). Each replica
    scores the split by C4.5's information gain and gain ratio on its binary problem
    (:func:`ordstat.trees._c45.bags_split`, at least two branches holding ``min_num_obj`` of
    the replica's weight, ``min_samples_leaf`` when ``min_num_obj`` is None); the replicas'
    scores are combined by ``rule`` and compete with the cuts of the numeric attributes as
    above, a nominal attribute of at least 0.3 x n values left out of the average gain as J48
    leaves it. Every category of the training column's dtype is a branch (the sorted observed
    values of a string column): a branch without training units is a leaf with its parent's
    labels, so a unit of a category unseen in training but listed in the dtype takes the
    labels of the node where that category's branch begins. A category not in the training
    column's dtype at prediction is a ValueError naming the column. A nominal column with
    missing values in training gets "missing" as a category (a branch) of its own, as the
    ordinal tree reads it (C4.5 instead shares such units among the branches as fractional
    units); missing values in numeric or ordered columns are refused (drop or impute those
    units).

    References
    ----------
    Dissertation "Ensemble methods for ordinal data classification", chapter 4 (section 4.3 for
    the combination rules and pruning), section 5.2 (forests) and appendix B (ordered
    thresholds on monotone data). Quinlan, J. R. (1993), "C4.5: Programs for Machine
    Learning" (gain ratio, pessimistic pruning). Weka's J48 (classes ``C45Split``,
    ``C45ModelSelection``, ``Stats``) for the reading of both.

    Examples
    --------
    The dissertation's forests of oDT trees (Table 5.3, "R. For. (oDT)" and "(oDT + Median)"):
    100 unpruned trees, each on a bootstrap sample, drawing int(log2 M) + 1 of the M
    attributes in each node; the forest gives each tree its own seed.

    >>> from ordstat.datasets import make_circle
    >>> from ordstat.ensemble import OrdinalBaggingClassifier
    >>> X, y = make_circle(200, random_state=0)
    >>> tree = ReplicatedTreeClassifier(max_features="log2+1", prune=False)
    >>> forest = OrdinalBaggingClassifier(tree, n_estimators=10, aggregation="median",
    ...                                   random_state=0).fit(X, y)
    >>> len(forest.estimators_)
    10
    """

    _parameter_constraints: dict = {
        # names are looked up in the criterion and rule registries in fit
        "criterion": [str, callable],
        "rule": [str, callable],
        "split_score": [StrOptions(set(SPLIT_SCORES))],
        "max_depth": [Interval(Integral, 1, None, closed="left"), None],
        # weights: 0 lets every node with weight split, inf none
        "min_samples_split": [Interval(Real, 0, None, closed="both")],
        # units, rounded up (0 means 1): finite
        "min_samples_leaf": [Interval(Real, 0, None, closed="left")],
        "min_gain": [Interval(Real, 0, 1, closed="both")],
        "min_num_obj": [Interval(Integral, 1, None, closed="left"), None],
        "collapse_tree": ["boolean"],
        "subtree_raising": ["boolean"],
        "prune": ["boolean"],
        "confidence": [Interval(Real, 0, 0.5, closed="right")],
        "error_bound": [StrOptions(set(ERROR_BOUNDS))],
        "replica_errors": [StrOptions(set(REPLICA_ERRORS))],
        "max_features": MAX_FEATURES_CONSTRAINT,
        "random_state": ["random_state", np.random.Generator],
        "combine": COMBINE_CONSTRAINT,
        "classes": ["array-like", None],
    }

    def __init__(self, criterion="entropy", rule="sum", split_score="gain_ratio",
                 max_depth=None, min_samples_split=2, min_samples_leaf=2, min_gain=1e-3,
                 min_num_obj=2, collapse_tree=True, subtree_raising=True, prune=True,
                 confidence=0.25, error_bound="normal", replica_errors="pooled",
                 max_features=None, random_state=None, combine="count", classes=None):
        self.criterion = criterion
        self.rule = rule
        self.split_score = split_score
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_gain = min_gain
        self.min_num_obj = min_num_obj
        self.collapse_tree = collapse_tree
        self.subtree_raising = subtree_raising
        self.prune = prune
        self.confidence = confidence
        self.error_bound = error_bound
        self.replica_errors = replica_errors
        self.max_features = max_features
        self.random_state = random_state
        self.combine = combine
        self.classes = classes

    def _params(self, n_features, n_values=None, n_units=0):
        self._validate_params()
        get_criterion(self.criterion)
        get_replica_rule(self.rule)
        return {"n_values": (np.zeros(n_features, dtype=np.int64) if n_values is None
                             else n_values), "n_units": n_units,
                "criterion": self.criterion, "rule": self.rule,
                "split_score": self.split_score, "max_depth": self.max_depth,
                "min_samples_split": self.min_samples_split,
                "min_samples_leaf": self.min_samples_leaf, "min_gain": self.min_gain,
                "min_num_obj": self.min_num_obj, "collapse_tree": self.collapse_tree,
                "subtree_raising": self.subtree_raising,
                "prune": self.prune, "confidence": self.confidence,
                "error_bound": self.error_bound, "replica_errors": self.replica_errors,
                "n_drawn": n_features_drawn(self.max_features, n_features)}

    def fit(self, X, y, sample_weight=None):
        """Grow and prune the tree.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Numeric predictors, ordered Categoricals (cut as their codes) and nominal columns
            (strings, unordered Categoricals: one branch per category; see the Notes).
        y : array-like of shape (n_samples,)
            Ordered class labels.
        sample_weight : array-like of shape (n_samples,), optional
            Unit weights (finite, non-negative, not all zero), the weight of each unit in every
            replica: the split gains and leaf classes sum them. ``min_samples_split``,
            ``min_samples_leaf`` and ``min_num_obj`` count units, not weights, so whole-number
            weights give the tree of the rows repeated that many times only with
            ``min_samples_leaf=1``, ``min_samples_split=2``, ``min_num_obj=None`` and neither
            collapsing nor pruning.

        Returns
        -------
        self
        """
        self._validate_params()
        return self._fit_coded(code_ordered(self, X, nominal=True), y, sample_weight)

    def _fit_coded(self, X, y, sample_weight=None, coding=None):
        """Fit on ``X`` whose categorical columns are coded; ``coding``: an ensemble's
        :class:`~ordstat._core.predictors.ColumnCoding` of ``X``, adopted (else the one
        :meth:`fit` learned)."""
        if coding is not None:
            self._column_coding = coding
        X, codes, w = validate_fit(self, X, y, sample_weight, classes=self.classes)
        coding = getattr(self, "_column_coding", None)
        self.categories_ = {} if coding is None else dict(coding.nominal)
        n_values = None if coding is None else coding.cat_sizes(X.shape[1])
        X = check_category_codes(X, n_values)
        W = np.repeat(w[:, None], self.n_classes_ - 1, axis=1)
        return self._fit_replicas(X, codes, W, n_values)

    def _fit_replicas(self, X, codes, W, n_values=None):
        """Fit on per-replica weights W (n, K-1) for already validated X and codes
        (``n_values``: categories of the nominal columns, 0 for the others)."""
        params = self._params(X.shape[1], n_values, X.shape[0])
        rng = check_random_state(self.random_state)
        self.tree_ = grow_replicated_tree(X, codes, W, params, rng)
        self.node_count_ = len(self.tree_["feature"])
        self.n_leaves_ = int(np.sum(self.tree_["left"] < 0))
        return self

    def _replica_upper(self, X, hard):
        X = validate_predict(self, coded_ordered(self, X))
        coding = getattr(self, "_column_coding", None)
        check_category_codes(X, None if coding is None else coding.cat_sizes(X.shape[1]))
        return self._upper(X, hard)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        return tags

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
        depth = tree_depths(tree)
        pruning = (f"C4.5, confidence {self.confidence:.{digits}g}, {self.error_bound} bound, "
                   f"errors {self.replica_errors}" if self.prune else "none")
        pruning += ("; min_num_obj " + repr(self.min_num_obj) + ", collapse "
                    + repr(self.collapse_tree) + ", subtree raising "
                    + repr(self.subtree_raising))
        info = class_info(self, digits) + [
            ("criterion", str(self.criterion)), ("rule", str(self.rule)),
            ("split_score", self.split_score), ("max_features", repr(self.max_features)),
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
            j = tree["feature"][node]
            if j in self.categories_:  # one branch per category, "missing" last if any
                levels = [*map(str, self.categories_[j]), "missing"]
                for b, child in enumerate(tree["children"][node]):
                    lines.append(f"{pad}{names[j]} = {levels[b]}:")
                    walk(child, indent + 1)
                return
            thr = ", ".join(fmt(t) for t in tree["threshold"][node])
            lines.append(f"{pad}{names[j]} <  [{thr}]:")
            walk(tree["left"][node], indent + 1)
            lines.append(f"{pad}{names[j]} >= [{thr}]:")
            walk(tree["right"][node], indent + 1)

        walk(0, 0)
        return "\n".join(lines)
