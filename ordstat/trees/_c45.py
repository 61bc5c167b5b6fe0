"""C4.5 release 8 as Weka's J48 grows, collapses and prunes it (Quinlan 1993, 1996).

The module structure is the following:

- the split criteria as Weka computes them: information gain of the known values scaled by
  their share of the node's weight, and gain ratio with the unknown share as a branch of its
  own in the split information (``_info_gain``, ``_gain_ratio``);
- ``numeric_split`` and ``nominal_split``: the best split of one attribute in a node (release
  8's minimum branch weight and MDL correction for numbers); ``select_split``: C4.5's choice of
  the largest gain ratio among the splits of at least average gain;
- ``add_errs``: the upper confidence bound of the binomial behind pessimistic pruning;
- ``_Node`` and ``grow_tree``, ``collapse``, ``prune``: the tree as nested nodes that keep
  their training units (row, fractional weight), as subtree raising needs them;
- ``C45Tree``: the fitted tree as flat arrays, and prediction with fractional instances;
- ``C45Classifier``: the estimator.

Weka compares floating-point numbers with a tolerance (``Utils.SMALL``); the same comparisons
are written here with ``SMALL`` so that near ties fall the way J48's fall.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtri
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from .._core.base import OrdinalClassifierMixin
from .._core.predictors import ColumnCoding
from .._core.validation import (Integral, Interval, Real, check_X_given, validate_fit,
                                validate_predict)

__all__ = ["C45Classifier", "C45Tree", "add_errs", "bags_split", "numeric_split",
           "nominal_split", "select_split"]

SMALL = 1e-6            # Weka's Utils.SMALL: gr(a, b) is a - b > SMALL, and so on
_DISTINCT = 1e-5        # values closer than this are one value to the numeric split search
_AVERAGE_SLACK = 1e-3   # a split's gain may fall this much below the average and still count
_PRUNE_SLACK = 0.1      # pruning keeps the simpler tree unless it is worse by more than this
_MAX_MIN_SPLIT = 25     # release 8: a numeric branch never needs more than 25 units


# -- split criteria --------------------------------------------------------------------------
def _xlog2x(x):
    """x log2 x, 0 below SMALL (Weka's lnFunc)."""
    x = np.asarray(x, dtype=np.float64)
    return np.where(x < SMALL, 0.0, x * np.log2(np.maximum(x, SMALL)))


def _entropy_sum(counts):
    """N times the entropy (bits) of the class counts on the last axis (Weka's oldEnt)."""
    return _xlog2x(counts.sum(axis=-1)) - _xlog2x(counts).sum(axis=-1)


def _info_gain(bags, total, old=None):
    """Information gain of splits with known class counts ``bags`` (..., n_bags, K) in a node
    of weight ``total`` (units missing the attribute included): the gain per known unit times
    the known fraction, 0 when within SMALL of 0."""
    known = bags.sum(axis=(-2, -1))
    if old is None:
        old = _entropy_sum(bags.sum(axis=-2))
    new = _entropy_sum(bags).sum(axis=-1)
    numerator = (1.0 - (total - known) / total) * (old - new)
    with np.errstate(divide="ignore", invalid="ignore"):
        gain = numerator / known
    return np.where(np.abs(numerator) < SMALL, 0.0, gain)


def _gain_ratio(bags, total, gain):
    """Gain over split information, the weight missing the attribute counting as one more
    branch; 0 when the split information is within SMALL of 0."""
    per_bag = bags.sum(axis=-1)
    known = float(per_bag.sum())
    if known <= SMALL:
        return 0.0
    split_info = float(_xlog2x(np.array([total, total - known])) @ [1.0, -1.0]
                       - _xlog2x(per_bag).sum())
    if abs(split_info) < SMALL:
        return 0.0
    return float(gain / (split_info / total))


def _running_best(values, floor=0.0):
    """Index Weka's scan keeps: a later value replaces the best only when larger by more than
    SMALL, the first one compared with ``floor``; -1 when none beats it."""
    best, current, start = -1, floor, 0
    while True:
        later = np.flatnonzero(values[start:] - current > SMALL)
        if later.size == 0:
            return best
        best = start + int(later[0])
        current, start = values[best], best + 1


@dataclass
class Split:
    """The best split of one attribute in a node.

    ``bags`` holds the class weights of the known units per branch (n_branches, K);
    ``threshold`` (numeric splits) sends ``x <= threshold`` to branch 0; ``n_cuts`` is the
    number of admissible cuts of a numeric split (release 8's MDL correction)."""

    feature: int
    gain: float
    ratio: float
    bags: np.ndarray
    threshold: float = np.nan
    n_cuts: int = 0

    @property
    def nominal(self):
        return np.isnan(self.threshold)


def min_split_size(known_total, n_classes, min_num_obj):
    """Release 8's least known weight of each branch of a numeric split: 0.1 x
    ``known_total`` / ``n_classes``, clamped to [``min_num_obj``, 25]. Elementwise for arrays
    of ``known_total``."""
    m = 0.1 * np.asarray(known_total, dtype=np.float64) / n_classes
    m = np.where(m - min_num_obj < SMALL, float(min_num_obj),
                 np.where(m - _MAX_MIN_SPLIT > SMALL, float(_MAX_MIN_SPLIT), m))
    return float(m) if m.ndim == 0 else m


def numeric_split(x, codes, w, n_classes, total, min_num_obj, mdl=True, feature=0):
    """Best binary split of a numeric attribute (Quinlan 1996), or None.

    ``x``, ``codes``, ``w``: the node's values (NaN missing), class codes and weights;
    ``total``: the node's weight. Each branch needs known weight at least
    0.1 x (known weight) / K, clamped to [``min_num_obj``, 25]; the node needs at least twice
    that many known units (units, not weights, as in J48). The cut of largest gain is chosen
    and, with ``mdl``, log2(number of admissible cuts) / ``total`` is subtracted from its gain;
    the threshold is the midpoint of the two values around the cut (moved down to a training
    value by :func:`select_split`).
    """
    known = ~np.isnan(x)
    order = np.argsort(x[known], kind="stable")
    xs, cs, ws = x[known][order], codes[known][order], w[known][order]
    counts = np.zeros((xs.size, n_classes))
    counts[np.arange(xs.size), cs] = ws
    counts = np.cumsum(counts, axis=0)
    known_total = counts[-1].sum() if xs.size else 0.0
    min_split = min_split_size(known_total, n_classes, min_num_obj)
    if 2 * min_split - xs.size > SMALL:
        return None
    cuts = np.flatnonzero(xs[:-1] + _DISTINCT < xs[1:])     # cut after sorted position i
    left = counts[cuts]
    right = counts[-1] - left
    wl, wr = left.sum(axis=1), right.sum(axis=1)
    ok = (min_split - wl < SMALL) & (min_split - wr < SMALL)
    n_cuts = int(ok.sum())
    if n_cuts == 0:
        return None
    cuts = cuts[ok]
    bags = np.stack([left[ok], right[ok]], axis=1)
    gains = _info_gain(bags, total, _entropy_sum(counts[-1]))
    best = _running_best(gains)
    gain = gains[best] if best >= 0 else 0.0
    if mdl:
        gain -= np.log2(n_cuts) / total
    if gain < SMALL:
        return None
    i = cuts[best]
    threshold = (xs[i] + xs[i + 1]) / 2
    if threshold == xs[i + 1]:  # rounding reached the upper value: keep the lower one
        threshold = xs[i]
    return Split(feature, float(gain), _gain_ratio(bags[best], total, gain), bags[best],
                 float(threshold), n_cuts)


def nominal_split(x, codes, w, n_classes, n_values, total, min_num_obj, feature=0):
    """One branch per value of a nominal attribute (codes 0..n_values-1, NaN missing), or
    None unless two branches have known weight at least ``min_num_obj``."""
    known = ~np.isnan(x)
    bags = np.zeros((n_values, n_classes))
    np.add.at(bags, (x[known].astype(np.int64), codes[known]), w[known])
    return bags_split(bags, total, min_num_obj, feature)


def bags_split(bags, total, min_num_obj, feature=0):
    """The split of one branch per value with known class weights ``bags`` (n_values, K) in
    a node of weight ``total``, or None unless two branches have known weight at least
    ``min_num_obj`` (C4.5's nominal split; oDT scores each replica's with it)."""
    if np.count_nonzero(min_num_obj - bags.sum(axis=1) < SMALL) < 2:
        return None
    gain = float(_info_gain(bags, total))
    return Split(feature, gain, _gain_ratio(bags, total, gain), bags)


def select_split(X, codes, w, n_classes, n_values, min_num_obj, mdl=True, n_all=None):
    """C4.5's split of a node (Weka's C45ModelSelection), or None for a leaf.

    No split when the node weighs less than 2 ``min_num_obj`` or is pure. Of the attributes'
    best splits, the one of largest gain ratio (first on ties, and above 0) among those whose
    gain is at least the average gain less 1e-3; nominal attributes with at least
    0.3 x ``n_all`` values (the training units) are left out of the average unless every
    attribute is such. ``n_values``: values per column, 0 for numeric columns.
    """
    dist = np.bincount(codes, weights=w, minlength=n_classes)
    total = dist.sum()
    if 2 * min_num_obj - total > SMALL or abs(total - dist[_max_class(dist)]) < SMALL:
        return None
    n_all = X.shape[0] if n_all is None else n_all
    many = n_values >= 0.3 * n_all - SMALL
    every_many = bool(np.all((n_values > 0) & many))
    splits, gains = [], []
    for j in range(X.shape[1]):
        if n_values[j] > 0:
            s = nominal_split(X[:, j], codes, w, n_classes, n_values[j], total, min_num_obj, j)
        else:
            s = numeric_split(X[:, j], codes, w, n_classes, total, min_num_obj, mdl, j)
        splits.append(s)
        if s is not None and (n_values[j] == 0 or every_many or not many[j]):
            gains.append(s.gain)
    if not gains:
        return None
    average = sum(gains) / len(gains)
    best, best_ratio = None, 0.0
    for s in splits:
        if s is not None and s.gain >= average - _AVERAGE_SLACK and s.ratio - best_ratio > SMALL:
            best, best_ratio = s, s.ratio
    return best


# -- pessimistic error -----------------------------------------------------------------------
def add_errs(n, e, confidence=0.25):
    """Errors to add to ``e`` observed errors out of weight ``n`` for the upper limit of the
    binomial's ``confidence`` interval (C4.5's AddErrs as Weka computes it).

    e = 0: n (1 - CF^(1/n)), exact; 0 < e < 1: linear between that and the value at e = 1;
    e + 0.5 >= n: max(n - e, 0); otherwise the normal approximation with continuity
    correction, f = (e + 0.5) / n and z the (1 - CF) quantile:
    n (f + z^2/2n + z sqrt(f/n - f^2/n + z^2/4n^2)) / (1 + z^2/n) - e.
    A weight n below 1 takes the same branches (Weka has no rule of its own for it).
    """
    if e < 1:
        base = n * (1 - confidence ** (1 / n))
        if e == 0:
            return base
        return base + e * (add_errs(n, 1, confidence) - base)
    if e + 0.5 >= n:
        return max(n - e, 0.0)
    z = ndtri(1 - confidence)
    f = (e + 0.5) / n
    r = (f + z * z / (2 * n) + z * np.sqrt(f / n - f * f / n + z * z / (4 * n * n))) \
        / (1 + z * z / n)
    return float(r * n - e)


def _max_class(dist):
    """Weka's maxClass: the first class whose weight beats all before it by more than SMALL."""
    best, top = 0, 0.0
    for k, v in enumerate(dist.tolist()):
        if v - top > SMALL:
            best, top = k, v
    return best


def _n_incorrect(dist):
    return float(dist.sum() - dist[_max_class(dist)])


# -- the tree while it grows and is pruned ----------------------------------------------------
class _Node:
    """A node with its training units: ``rows`` of ``X`` and their (fractional) weights."""

    __slots__ = ("rows", "w", "dist", "split", "bags", "children")

    def __init__(self, rows, w, dist):
        self.rows, self.w, self.dist = rows, w, dist
        self.split = None       # the node's test (a Split), None at leaves
        self.bags = None        # class weights per branch, units missing the attribute shared
        self.children = []

    def make_leaf(self):
        self.split, self.bags, self.children = None, None, []


class _Data:
    """What growth and pruning read: the coded ``X``, class codes, K and the options."""

    def __init__(self, X, codes, n_classes, n_values, min_num_obj, mdl, confidence):
        self.X, self.codes, self.k, self.n_values = X, codes, n_classes, n_values
        self.min_num_obj, self.mdl, self.confidence = min_num_obj, mdl, confidence

    def dist(self, rows, w):
        return np.bincount(self.codes[rows], weights=w, minlength=self.k)

    def branches(self, split, rows):
        """Branch of each unit under ``split`` (-1 where its value is missing)."""
        x = self.X[rows, split.feature]
        missing = np.isnan(x)
        if split.nominal:
            b = np.where(missing, 0, x).astype(np.int64)
        else:
            b = (x > split.threshold).astype(np.int64)
        return np.where(missing, -1, b)

    def split_bags(self, split, rows, w):
        """Class weights per branch of the units (rows, w), each unit missing the attribute
        shared among the branches by their known weights (Weka's addInstWithUnknown)."""
        n_bags = len(split.bags)
        b = self.branches(split, rows)
        known = b >= 0
        bags = np.zeros((n_bags, self.k))
        np.add.at(bags, (b[known], self.codes[rows[known]]), w[known])
        per_bag = bags.sum(axis=1)
        share = (per_bag / per_bag.sum() if per_bag.sum() > SMALL
                 else np.full(n_bags, 1.0 / n_bags))
        bags += share[:, None] * self.dist(rows[~known], w[~known])[None, :]
        return bags, b

    def partition(self, split, rows, w):
        """The units of each branch: known values go to their branch, a unit missing the
        value goes down every branch with its weight times the branch's share."""
        bags, b = self.split_bags(split, rows, w)
        if rows.size == 0:
            return bags, [(rows, w)] * len(bags)
        share = bags.sum(axis=1) / bags.sum()
        missing = b < 0
        parts = []
        for j in range(len(bags)):
            go = (b == j) | (missing & (share[j] > SMALL))
            parts.append((rows[go], np.where(missing[go], w[go] * share[j], w[go])))
        return bags, parts

    def estimated_errors(self, dist):
        """Observed plus pessimistic extra errors of a leaf with class weights ``dist``."""
        total = dist.sum()
        if abs(total) < SMALL:
            return 0.0
        e = _n_incorrect(dist)
        return e + add_errs(total, e, self.confidence)


def grow_tree(data, rows, w):
    """The unpruned tree on the units (rows, w) (Weka's ClassifierTree.buildTree)."""
    n_all = data.X.shape[0]
    root = _Node(rows, w, data.dist(rows, w))
    stack = [root]
    while stack:
        node = stack.pop()
        split = select_split(data.X[node.rows], data.codes[node.rows], node.w, data.k,
                             data.n_values, data.min_num_obj, data.mdl, n_all)
        if split is None:
            continue
        if not split.nominal:
            split.threshold = _training_value_below(data.X[:, split.feature], split.threshold)
        node.split = split
        node.bags, parts = data.partition(split, node.rows, node.w)
        node.children = [_Node(r, cw, data.dist(r, cw)) for r, cw in parts]
        stack.extend(node.children)
    return root


def _training_value_below(column, threshold):
    """The largest training value at or below ``threshold``: J48 prints and tests
    ``x <= v`` at an observed value, not at the midpoint of the cut."""
    column = column[~np.isnan(column)]
    return float(column[column <= threshold].max())


class _NodeView:
    """How :func:`collapse` and :func:`prune` read and change a tree of :class:`_Node`; another
    tree (the replicated tree of ``ordstat.decomposition``) passes its own view with the same
    methods."""

    def __init__(self, data=None):
        self.data = data

    def children(self, node):
        return node.children

    def training_errors(self, node):
        """Training errors of the node as a leaf."""
        return _n_incorrect(node.dist)

    def estimated_errors(self, node):
        """Pessimistic errors of the node as a leaf."""
        return self.data.estimated_errors(node.dist)

    def branch_weights(self, node):
        return node.bags.sum(axis=1)

    def branch_errors(self, node, j):
        """Estimated errors of branch j's subtree on all the node's units."""
        return _branch_errors(self.data, node.children[j], node.rows, node.w)

    def make_leaf(self, node):
        node.make_leaf()

    def raise_branch(self, node, j):
        """Put branch j's subtree in the node's place, with all the node's units."""
        branch = node.children[j]
        node.split, node.bags, node.children = branch.split, branch.bags, branch.children
        _redistribute(self.data, node, node.rows, node.w)


def subtree_sum(node, children, value):
    """``value`` summed over the leaves of the subtree ``node``."""
    kids = children(node)
    if not kids:
        return value(node)
    return sum(subtree_sum(c, children, value) for c in kids)


def collapse(node, view=None):
    """Make a leaf of every subtree that does not make fewer training errors than its root
    as a leaf (less 1e-3), top down (J48's collapseTree)."""
    view = _NodeView() if view is None else view
    kids = view.children(node)
    if not kids:
        return
    if subtree_sum(node, view.children, view.training_errors) \
            >= view.training_errors(node) - _AVERAGE_SLACK:
        view.make_leaf(node)
        return
    for child in kids:
        collapse(child, view)


def _branch_errors(data, node, rows, w):
    """Estimated errors of the subtree ``node`` on other units (rows, w), each node's
    shares of missing values taken from those units (Weka's getEstimatedErrorsForBranch)."""
    if not node.children:
        return data.estimated_errors(data.dist(rows, w))
    _, parts = data.partition(node.split, rows, w)
    return sum(_branch_errors(data, c, r, cw) for c, (r, cw) in zip(node.children, parts))


def _redistribute(data, node, rows, w):
    """Give the subtree ``node`` the units (rows, w) (Weka's newDistribution)."""
    node.rows, node.w, node.dist = rows, w, data.dist(rows, w)
    if node.children:
        node.bags, parts = data.partition(node.split, rows, w)
        for child, (r, cw) in zip(node.children, parts):
            _redistribute(data, child, r, cw)


def prune(data, node, raising=True, view=None):
    """Pessimistic pruning with subtree raising, bottom up (Weka's
    C45PruneableClassifierTree.prune): a node becomes a leaf when its estimated errors as a
    leaf are at most those of its subtree and of its largest branch (plus 0.1); otherwise it
    is replaced by its largest branch (the last of equal weights) when that branch's estimated
    errors on all the node's units are at most the subtree's (plus 0.1), and pruned again.
    ``view`` (default: a :class:`_NodeView` of ``data``) reads and changes the tree."""
    view = _NodeView(data) if view is None else view
    kids = view.children(node)
    if not kids:
        return
    for child in kids:
        prune(data, child, raising, view)
    per_bag = np.asarray(view.branch_weights(node))
    largest = int(np.flatnonzero(per_bag.max() - per_bag < SMALL)[-1])
    errors_branch = view.branch_errors(node, largest) if raising else np.inf
    errors_leaf = view.estimated_errors(node)
    errors_tree = subtree_sum(node, view.children, view.estimated_errors)
    if errors_leaf - (errors_tree + _PRUNE_SLACK) < SMALL \
            and errors_leaf - (errors_branch + _PRUNE_SLACK) < SMALL:
        view.make_leaf(node)
        return
    if errors_branch - (errors_tree + _PRUNE_SLACK) < SMALL:
        view.raise_branch(node, largest)
        prune(data, node, raising, view)


# -- the fitted tree --------------------------------------------------------------------------
@dataclass
class C45Tree:
    """A fitted C4.5 tree as flat arrays of length ``n_nodes``, node 0 the root, nodes in
    depth-first preorder.

    Attributes
    ----------
    feature : ndarray of int64
        The split attribute, -1 at leaves.
    threshold : ndarray of float64
        Numeric splits send ``x <= threshold`` to the first child; NaN at nominal splits and
        leaves.
    children : list of ndarray of int64
        The children of each node (one per value of a nominal attribute, in code order; two
        for a numeric split; none at leaves).
    value : ndarray of shape (n_nodes, K)
        The class weights of the node's training units, fractional units included.
    empty : ndarray of bool
        Leaves without training weight: they predict their parent's class distribution.
    depth : ndarray of int64
    """

    feature: np.ndarray
    threshold: np.ndarray
    children: list
    value: np.ndarray
    empty: np.ndarray
    depth: np.ndarray

    @property
    def n_nodes(self):
        return len(self.feature)

    @property
    def n_leaves(self):
        return int(np.sum(self.feature < 0))

    @classmethod
    def from_nodes(cls, root):
        nodes, parent, depth = [], [], []
        stack = [(root, -1, 0)]
        while stack:
            node, up, d = stack.pop()
            nodes.append(node)
            parent.append(up)
            depth.append(d)
            me = len(nodes) - 1
            stack.extend((c, me, d + 1) for c in reversed(node.children))
        index = {id(n): i for i, n in enumerate(nodes)}
        return cls(
            feature=np.array([n.split.feature if n.children else -1 for n in nodes],
                             dtype=np.int64),
            threshold=np.array([n.split.threshold if n.children else np.nan for n in nodes]),
            children=[np.array([index[id(c)] for c in n.children], dtype=np.int64)
                      for n in nodes],
            value=np.array([n.dist for n in nodes]),
            empty=np.array([not n.children and not n.dist.sum() > SMALL for n in nodes]),
            depth=np.array(depth, dtype=np.int64),
        )

    def _branch(self, t, x):
        """Branch of each value at node ``t`` (-1 where missing)."""
        missing = np.isnan(x)
        if np.isnan(self.threshold[t]):
            b = np.where(missing, 0, x).astype(np.int64)
        else:
            b = (x > self.threshold[t]).astype(np.int64)
        return np.where(missing, -1, b)

    def _shares(self, t):
        weights = self.value[self.children[t]].sum(axis=1)
        return weights / weights.sum()

    def predict_proba(self, X):
        """Class probabilities (n_samples, K) as J48 computes them: a unit missing a node's
        attribute goes down every branch with the branch's share of the training weight, and
        the leaves' class distributions are summed with those weights; a unit reaching an
        empty leaf takes the leaf's parent's class distribution."""
        n = X.shape[0]
        out = np.zeros((n, self.value.shape[1]))
        stack = [(0, np.arange(n), np.ones(n))]
        while stack:
            t, rows, w = stack.pop()
            if rows.size == 0:
                continue
            kids = self.children[t]
            if kids.size == 0:
                out[rows] += w[:, None] * (self.value[t] / self.value[t].sum())[None, :]
                continue
            b = self._branch(t, X[rows, self.feature[t]])
            share = self._shares(t)
            dist = self.value[t] / self.value[t].sum()
            for j, c in enumerate(kids):
                if self.empty[c]:
                    go = b == j
                    out[rows[go]] += w[go, None] * dist[None, :]
                    continue
                go = (b == j) | ((b < 0) & (share[j] > 0))
                stack.append((c, rows[go], np.where(b[go] < 0, w[go] * share[j], w[go])))
        return out

    def apply(self, X):
        """The leaf each unit reaches, a missing value following the branch of largest
        training weight (the first of equal ones)."""
        n = X.shape[0]
        node = np.zeros(n, dtype=np.int64)
        active = self.feature[node] >= 0
        while active.any():
            idx = np.flatnonzero(active)
            for t in np.unique(node[idx]):
                at = idx[node[idx] == t]
                b = self._branch(t, X[at, self.feature[t]])
                b[b < 0] = int(np.argmax(self._shares(t)))
                node[at] = self.children[t][b]
            active = self.feature[node] >= 0
        return node


def _format_value(v):
    """A threshold as Weka prints it (6 decimals, trailing zeros dropped)."""
    text = f"{v:.6f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _format_weight(v):
    """A weight as Weka's roundDouble(v, 2) prints through Java ("50.0", "3.46")."""
    return repr(round(float(v), 2) + 0.0)


def tree_text(tree, names, classes, categories):
    """The tree as J48 prints it (``J48 pruned tree`` without its header lines)."""
    lines = []

    def label(t, parent):
        dist = tree.value[parent] if tree.empty[t] else tree.value[t]
        shown = tree.value[t]
        wrong = shown.sum() - shown[_max_class(shown)] if shown.sum() > SMALL else 0.0
        text = f"{classes[_max_class(dist)]} ({_format_weight(shown.sum())}"
        return text + (f"/{_format_weight(wrong)})" if wrong > SMALL else ")")

    def dump(t, level):
        j = tree.feature[t]
        for b, c in enumerate(tree.children[t]):
            if np.isnan(tree.threshold[t]):
                test = f"{names[j]} = {categories[j][b]}"
            else:
                op = "<=" if b == 0 else ">"
                test = f"{names[j]} {op} {_format_value(tree.threshold[t])}"
            line = "|   " * level + test
            if tree.feature[c] < 0:
                lines.append(f"{line}: {label(c, t)}")
            else:
                lines.append(line)
                dump(c, level + 1)

    if tree.feature[0] < 0:
        lines.append(f": {label(0, 0)}")
    else:
        dump(0, 0)
    lines += ["", f"Number of Leaves  : \t{tree.n_leaves}", "",
              f"Size of the tree : \t{tree.n_nodes}"]
    return "\n".join(lines)


# -- the estimator ----------------------------------------------------------------------------
class C45Classifier(OrdinalClassifierMixin, BaseEstimator):
    """C4.5 decision tree, release 8, as Weka's J48 builds it (Quinlan 1993, 1996).

    A nominal classifier (the class order plays no part). Splits maximise the gain ratio
    among the attributes whose information gain is at least the average gain of the candidate
    splits; nominal attributes split one branch per value, numeric attributes in two at a
    threshold. The grown tree is collapsed (a subtree making no fewer training errors than its
    root as a leaf becomes a leaf) and pruned by C4.5's pessimistic error estimate with
    subtree raising.

    Parameters
    ----------
    confidence_factor : float, default=0.25
        Confidence of the upper bound of the binomial error rate that pruning compares (J48's
        ``-C``), in (0, 0.5]; smaller prunes more.
    min_num_obj : int, default=2
        Minimum weight in at least two branches of a split (J48's ``-M``). For a numeric
        attribute each of the two branches needs 0.1 x (known weight in the node) / K,
        clamped to [min_num_obj, 25] (release 8).
    unpruned : bool, default=False
        Skip pessimistic pruning (J48's ``-U``); collapsing still applies.
    collapse_tree : bool, default=True
        Collapse subtrees that do not reduce the training errors (J48's ``-O`` turns it off).
    subtree_raising : bool, default=True
        Let pruning replace a node by its largest branch (J48's ``-S`` turns it off).
    use_mdl_correction : bool, default=True
        Subtract log2(number of admissible cuts) / (weight in the node) from the gain of a
        numeric split (release 8; J48's ``-J`` turns it off).
    classes : sequence, optional
        All class labels; ``predict_proba`` columns follow them.

    Attributes
    ----------
    tree_ : C45Tree
        The fitted tree as flat arrays (see :class:`C45Tree`).
    tree_size_ : int
        Number of nodes, as Weka's "Size of the tree".
    n_leaves_ : int
        Number of leaves.
    classes_ : ndarray of shape (K,)
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` is a DataFrame.
    categories_ : dict
        ``{feature index: categories}`` of the nominal columns (unordered Categoricals and
        string columns); every category is a branch, those with no training units at a node
        predicting the node's class distribution. Ordered Categoricals are split as numbers
        (their codes).

    Notes
    -----
    Missing values (NaN) follow C4.5's fractional instances: a split's gain is computed on the
    units with a known value and multiplied by their share of the node's weight, and its
    split information counts the unknown weight as a branch of its own; a unit missing the
    split attribute goes down every branch with its weight times the branch's share of the
    known weight, and a prediction sums the leaves' class distributions with those weights.

    As in J48 (and unlike the midpoint of Quinlan's papers), a numeric threshold is the largest
    training value at or below the midpoint of the best cut, so the tree reads ``x <= v`` at
    an observed value ``v``. Weka compares with a tolerance of 1e-6 and treats values closer
    than 1e-5 as equal in the numeric search; so does this class. Units of zero weight are
    left out. One departure: Weka predicts zero probabilities for a unit reaching a leaf that
    subtree raising left without training weight; here such a leaf, like a leaf that was empty
    when grown, predicts its parent's class distribution.

    References
    ----------
    Quinlan (1993), C4.5: Programs for Machine Learning, Morgan Kaufmann.
    Quinlan (1996), Improved use of continuous attributes in C4.5, Journal of Artificial
    Intelligence Research 4, 77-90.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from ordstat.trees import C45Classifier
    >>> X, y = load_iris(return_X_y=True)
    >>> tree = C45Classifier().fit(X, y)
    >>> tree.n_leaves_, tree.tree_size_
    (5, 9)
    """

    _uses_class_order = False  # nominal classes: the order plays no part

    def __init__(self, confidence_factor=0.25, min_num_obj=2, unpruned=False,
                 collapse_tree=True, subtree_raising=True, use_mdl_correction=True,
                 classes=None):
        self.confidence_factor = confidence_factor
        self.min_num_obj = min_num_obj
        self.unpruned = unpruned
        self.collapse_tree = collapse_tree
        self.subtree_raising = subtree_raising
        self.use_mdl_correction = use_mdl_correction
        self.classes = classes

    _parameter_constraints: dict = {
        "confidence_factor": [Interval(Real, 0, 0.5, closed="right")],
        "min_num_obj": [Interval(Integral, 1, None, closed="left")],
        "unpruned": ["boolean"],
        "collapse_tree": ["boolean"],
        "subtree_raising": ["boolean"],
        "use_mdl_correction": ["boolean"],
        "classes": ["array-like", None],
    }

    def _coded(self, X, fit):
        """``X`` as numbers: nominal columns as their codes with NaN where missing (the
        coding's "missing" category is C4.5's unknown value)."""
        check_X_given(X)
        if fit:
            self._coding, X = ColumnCoding.learn(X)
            self.categories_ = self._coding.nominal
        else:
            X = self._coding.transform(X)
        return X

    def _nominal_codes(self, X):
        for j, cats in self.categories_.items():
            col = X[:, j]
            if j in self._coding.missing_category:
                col[col == len(cats)] = np.nan
            known = col[~np.isnan(col)]
            if known.size and (np.any(known != np.floor(known)) or known.min() < 0
                               or known.max() >= len(cats)):
                raise ValueError(f"X column {j} holds category codes of {len(cats)} categories; "
                                 "got values that are not codes 0.."
                                 f"{len(cats) - 1}.")
        return X

    def fit(self, X, y, sample_weight=None):
        """Grow, collapse and prune the tree.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Numeric columns, or DataFrame columns of strings or pandas Categoricals (unordered:
            nominal attributes); NaN where missing.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative instance weights (Weka's instance weights).

        Returns
        -------
        self
        """
        self._validate_params()
        X = self._coded(X, fit=True)
        X, codes, w = validate_fit(self, X, y, sample_weight, classes=self.classes,
                                   ensure_all_finite="allow-nan")
        X = self._nominal_codes(np.array(X, dtype=np.float64))
        n_values = np.zeros(X.shape[1], dtype=np.int64)
        for j, cats in self.categories_.items():
            n_values[j] = len(cats)
        keep = w > 0
        data = _Data(X[keep], codes[keep], self.n_classes_, n_values, int(self.min_num_obj),
                     bool(self.use_mdl_correction), float(self.confidence_factor))
        root = grow_tree(data, np.arange(int(keep.sum())), w[keep])
        if self.collapse_tree:
            collapse(root)
        if not self.unpruned:
            prune(data, root, bool(self.subtree_raising))
        self.tree_ = C45Tree.from_nodes(root)
        self.tree_size_ = self.tree_.n_nodes
        self.n_leaves_ = self.tree_.n_leaves
        return self

    def _prepare(self, X):
        check_is_fitted(self)
        X = self._coded(X, fit=False)
        X = validate_predict(self, X, ensure_all_finite="allow-nan")
        return self._nominal_codes(np.array(X, dtype=np.float64))

    def predict_proba(self, X):
        """Class probabilities (columns follow ``classes_``): the leaves' training class
        distributions (no Laplace correction, J48's default), summed over the branches of a
        missing value with their training shares.

        Returns
        -------
        ndarray of shape (n_samples, K)
        """
        X = self._prepare(X)
        return self.tree_.predict_proba(X)

    def predict(self, X):
        """The class of largest probability, the first of those within 1e-6 of each other
        (J48's classifyInstance), as the user's labels."""
        proba = self.predict_proba(X)
        best = np.zeros(proba.shape[0], dtype=np.int64)
        top = proba[:, 0].copy()
        for k in range(1, proba.shape[1]):
            better = proba[:, k] - top > SMALL
            best[better], top[better] = k, proba[better, k]
        return self.classes_[best]

    def apply(self, X):
        """Index (into ``tree_``'s arrays) of the leaf each row reaches; a missing value
        follows the branch of largest training weight.

        Returns
        -------
        ndarray of shape (n_samples,), int64
        """
        X = self._prepare(X)
        return self.tree_.apply(X)

    def get_n_leaves(self):
        """Number of leaves."""
        check_is_fitted(self)
        return self.n_leaves_

    def get_depth(self):
        """Depth of the tree (the root alone has depth 0)."""
        check_is_fitted(self)
        return int(self.tree_.depth.max())

    def export_text(self):
        """The tree as Weka prints J48's model: ``attribute <= v`` / ``attribute = value``
        lines, leaves as ``class (weight/errors)``, then the number of leaves and the size.
        """
        check_is_fitted(self)
        names = (list(self.feature_names_in_) if hasattr(self, "feature_names_in_")
                 else [f"x{j}" for j in range(self.n_features_in_)])
        return tree_text(self.tree_, names, self.classes_, self.categories_)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        return tags
