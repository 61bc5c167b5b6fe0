"""rpart's surrogate splits (Therneau & Atkinson; Breiman et al. 1984, section 5.3): the tree's
other way of sending units that miss the split variable.

The module structure is the following:

- :class:`SurrogateRule`: rpart's ``maxsurrogate``, ``usesurrogate`` and ``surrogatestyle``;
- :func:`primary_split`: a node's best split, each feature's goodness computed on the node's
  units that are not missing it (rpart's ``bsplit``);
- :func:`surrogate_splits`: the splits of the other features that best agree with the primary
  (rpart's ``surrogate`` and ``choose_surg``), and :func:`send` (rpart's ``nodesplit``);
- :class:`Surrogates`: the fitted surrogate lists of a tree, flat arrays with CSR offsets, and
  the direction of units at a node (:meth:`Surrogates.directions`) for the numpy walk.

Directions are +1 (left), -1 (right) and 0 (cannot be sent: the unit stays in the node). The
level of detail (ties, the two-units-each-way rule, the thresholds between any two distinct
values of the node's units) follows rpart's C code so that the splits are rpart's; the
documentation, "Missing values" in docs/trees_engine.md, says what is computed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ._splitter import Splitter

__all__ = ["SurrogateRule", "Surrogates", "primary_split", "surrogate_splits", "send"]

# rpart drops a surrogate whose adjusted agreement is rounding noise (choose_surg's success
# test, then adj <= 1e-10)
_ADJ_NOISE = 1e-10


class SurrogateRule(NamedTuple):
    """rpart's controls of surrogate splits (``rpart.control``)."""

    max_surrogate: int  # surrogates kept per node (0: none computed)
    use: int  # 0: units missing the split stay; 1: surrogates; 2: then the majority side
    style: int  # 0: agreement over the units not missing the primary; 1: over both


class NodeSplit(NamedTuple):
    """A primary split found by :func:`primary_split`."""

    goodness: float
    feature: int
    threshold: float  # numeric: x < threshold goes left (NaN for categories)
    left_categories: np.ndarray | None  # categorical: codes sent left (all, as the splitter)
    present: np.ndarray | None  # categorical: codes met in the node (the others: unknown)
    n_known: int  # units not missing the feature (rpart's count of the primary)


class SurrogateSplit(NamedTuple):
    feature: int
    threshold: float  # NaN for categories
    direction: int  # numeric: -1 "x < threshold" goes left, +1 it goes right (rpart's ncat)
    left_categories: np.ndarray | None
    right_categories: np.ndarray | None
    agree: float  # share of agreement with the primary (rpart's "improve" of a surrogate)
    adj: float  # agreement beyond the majority rule's
    count: int  # training units it sent


def primary_split(X, codes, w, units, n_classes, criterion, *, min_bucket, cat_sizes,
                  features, iscale):
    """The best split of the node of ``units`` over ``features``, each feature searched on the
    node's units not missing it (rpart's ``bsplit``); first feature among equal goodness.
    ``iscale``: one-element list, the largest goodness so far in the tree (rpart's scale of
    rounding noise), updated. None when no feature has a cut of goodness above noise."""
    best = None
    for j in features.tolist():
        x = X[units, j]
        known = units[~np.isnan(x)]
        if known.size == 0:
            continue
        xk = X[known, j]
        if cat_sizes[j] == 0 and xk.min() == xk.max():
            continue
        sp = Splitter(xk[:, None], codes[known], w[known], n_classes, criterion,
                      min_bucket=min_bucket, cat_sizes=cat_sizes[[j]])
        layout, totals = sp.root()
        g, thr, cats = sp.search(layout, totals, np.array([known.size]))
        good = float(g[0, 0])
        if not np.isfinite(good):
            continue
        iscale[0] = max(iscale[0], good)
        if good <= max(iscale[0] * 1e-10, 0.0) or (best is not None and good <= best.goodness):
            continue
        if cat_sizes[j] > 0:
            best = NodeSplit(good, j, np.nan, cats[(0, 0)],
                             np.unique(xk.astype(np.int64)), int(known.size))
        else:
            best = NodeSplit(good, j, float(thr[0, 0]), None, None, int(known.size))
    return best


def primary_directions(X, units, split):
    """+1 / -1 / 0 for each unit: left, right, missing the split feature."""
    x = X[units, split.feature]
    known = ~np.isnan(x)
    out = np.zeros(units.size, dtype=np.int64)
    if split.left_categories is None:
        out[known] = np.where(x[known] < split.threshold, 1, -1)
    else:
        out[known] = np.where(np.isin(x[known].astype(np.int64), split.left_categories), 1, -1)
    return out


def surrogate_splits(X, w, units, y, primary_feature, cat_sizes, rule):
    """The surrogate list of a node (rpart's ``surrogate``): for each other feature the split
    that agrees best with the primary's directions ``y`` (+1, -1, 0 missing), kept when its
    adjusted agreement is positive, ordered by agreement (stable: the first feature among
    ties), at most ``rule.max_surrogate``. The split counts are filled in by :func:`send`."""
    wu = w[units]
    t_left, t_right = wu[y > 0].sum(), wu[y < 0].sum()
    found = []
    for j in range(X.shape[1]):
        if j == primary_feature:
            continue
        x = X[units, j]
        known = ~np.isnan(x)
        args = (x[known], y[known], wu[known])
        best = (_categorical_surrogate(*args, cat_sizes[j]) if cat_sizes[j] > 0
                else _numeric_surrogate(*args))
        if best is None:
            continue
        agree, majority, total, split = best
        if rule.style == 0:  # the whole node's units sent by the primary (rpart's default)
            total, majority = t_left + t_right, max(t_left, t_right)
        agreement = agree / total
        share = majority / total
        adj = (agreement - share) / (1.0 - share)
        if adj <= _ADJ_NOISE:
            continue
        found.append(SurrogateSplit(j, *split, agree=agreement, adj=adj, count=0))
    found.sort(key=lambda s: -s.agree)  # stable: among equal agreement, the first feature
    return found[:rule.max_surrogate]


def _numeric_surrogate(x, y, w):
    """rpart's ``choose_surg`` for a numeric feature: (agreement, majority, total weight,
    (threshold, direction, None, None)) of the cut between distinct values of ``x`` (of all
    the node's units with it, the primary's missing ones too) with at least two units of
    positive weight sent by the primary on each side, that agrees best with ``y``; None when
    no cut beats the majority."""
    if x.size == 0:
        return None
    order = np.argsort(x, kind="stable")
    x, y, w = x[order], y[order], w[order]
    wl, wr = np.where(y > 0, w, 0.0), np.where(y < 0, w, 0.0)
    counted = ((y != 0) & (w > 0)).astype(np.int64)
    tot_l, tot_r = wl.sum(), wr.sum()
    majority = max(tot_l, tot_r)
    # candidates: the first unit of each new value; units before it have x below the cut
    cuts = np.flatnonzero(x[1:] != x[:-1]) + 1
    before = np.concatenate([[0], np.cumsum(counted)])[cuts]
    after = counted.sum() - before
    cuts = cuts[(before >= 2) & (after >= 2)]
    if cuts.size == 0:
        return None
    cl, cr = np.cumsum(wl), np.cumsum(wr)
    below_l, below_r = cl[cuts - 1], cr[cuts - 1]
    # "x < cut" right agrees with y on the primary's left units above and right units below;
    # rpart's running maximum takes the first cut of the largest agreement (one of the two
    # can beat the majority at a cut, never both)
    to_right = (tot_l - below_l) + below_r
    to_left = below_l + (tot_r - below_r)
    agree = np.maximum(to_right, to_left)
    k = int(np.argmax(agree))
    if not agree[k] > majority:
        return None
    c = cuts[k]
    direction = 1 if to_right[k] >= to_left[k] else -1
    threshold = (x[c] + x[c - 1]) / 2.0  # rpart's plain midpoint
    return float(agree[k]), majority, tot_l + tot_r, (float(threshold), direction, None, None)


def _categorical_surrogate(x, y, w, n_categories):
    """rpart's ``choose_surg`` for an unordered categorical feature: each category present
    among the primary's units goes to the side of its larger weight (ties: the majority side,
    right when the two sides weigh the same); None unless it sends at least two units each
    way (counted as rpart counts them)."""
    codes = x.astype(np.int64)
    sent = y != 0
    pos = (w > 0) & sent
    lw = np.bincount(codes[y > 0], w[y > 0], minlength=n_categories)
    rw = np.bincount(codes[y < 0], w[y < 0], minlength=n_categories)
    ln = np.bincount(codes[pos & (y > 0)], minlength=n_categories)
    rn = np.bincount(codes[pos & (y < 0)], minlength=n_categories)
    tot_l, tot_r = lw.sum(), rw.sum()
    left_default = tot_l > tot_r
    majority = tot_l if left_default else tot_r
    present = (ln > 0) | (rn > 0)
    right = present & ((lw < rw) | ((lw == rw) & ~left_default))
    left = present & ~right
    agree = rw[right].sum() + lw[left].sum()
    # rpart's count of the two sides (choose_surg's lcount and rcount, as written there)
    n_one = ln[right].sum() + rn[left].sum()
    n_other = rn[right].sum() + ln[left].sum()
    if not (n_one > 1 and n_other > 1):
        return None
    return (float(agree), majority, tot_l + tot_r,
            (np.nan, 0, np.flatnonzero(left).astype(np.int64),
             np.flatnonzero(right).astype(np.int64)))


def surrogate_direction(x, split):
    """+1 / -1 / 0 (cannot tell) for the values ``x`` of a surrogate's feature."""
    out = np.zeros(x.shape, dtype=np.int64)
    known = ~np.isnan(x)
    if split.left_categories is None:
        less = x[known] < split.threshold
        # direction -1: "x < threshold" goes left
        out[known] = np.where(less, -split.direction, split.direction)
    else:
        codes = x[known].astype(np.int64)
        out[known] = (np.isin(codes, split.left_categories).astype(np.int64)
                      - np.isin(codes, split.right_categories))
    return out


def send(X, w, units, y, surrogates, rule):
    """Directions of the node's units (rpart's ``nodesplit``): the primary's ``y``, then for
    units missing it the first surrogate that can tell (``rule.use`` >= 1), then the side the
    primary sent more weight to (``rule.use`` == 2 with ``rule.max_surrogate`` > 0; none on a
    tie). Returns the directions, the surrogates with the number of units each sent, and that
    majority side (+1, -1, 0 for none: rpart's ``lastsurrogate``)."""
    go = y.copy()
    counted = []
    for s in surrogates:
        todo = np.flatnonzero(go == 0) if rule.use > 0 else np.empty(0, dtype=np.int64)
        d = surrogate_direction(X[units[todo], s.feature], s) if todo.size else todo
        go[todo] = d
        counted.append(s._replace(count=int(np.count_nonzero(d))))
    # rpart finds the majority side with the surrogates: with maxsurrogate 0 there is none at
    # fitting (the units stay in the node), though predict() uses the larger child
    majority = 0
    if rule.max_surrogate > 0:
        lw, rw = w[units][y > 0].sum(), w[units][y < 0].sum()
        majority = int(np.sign(lw - rw))
    if rule.use == 2:
        go[go == 0] = majority
    return go, counted, majority


@dataclass(frozen=True, eq=False)
class Surrogates:
    """The surrogate splits of a fitted tree (:attr:`ordstat.trees._tree.Tree.surrogates`).

    The surrogates of node v are entries ``start[v]:start[v + 1]`` of the flat arrays, in the
    order they are tried (rpart's, by agreement).

    Attributes
    ----------
    use : int
        rpart's ``usesurrogate``: 0, units missing the split stay in the node; 1, they go by the
        first surrogate they are not missing; 2, then to the child with more training units
        (they stay on a tie), as rpart's ``predict``.
    style : int
        rpart's ``surrogatestyle`` the agreements were computed with.
    start : ndarray of int64, shape (n_nodes + 1,)
    feature : ndarray of int64
    threshold : ndarray of float64
        Numeric surrogates' cut (NaN for categorical ones).
    direction : ndarray of int64
        -1: ``x < threshold`` goes left; +1: it goes right (rpart's ``ncat``); 0 categorical.
    left_categories, right_categories : ndarray of object
        Categorical surrogates' codes sent each way (other codes cannot tell); None otherwise.
    agree, adj : ndarray of float64
        Agreement with the primary and adjusted agreement (rpart's ``improve`` and ``adj``).
    count : ndarray of int64
        Training units each sent.
    primary_count : ndarray of int64, shape (n_nodes,)
        Training units not missing the node's split feature (0 at leaves).
    primary_categories : ndarray of object, shape (n_nodes,)
        Categorical splits: the codes met in the node at fitting; other codes go by the
        surrogates as missing values do (rpart's ``predict``). None otherwise.
    majority : ndarray of int64, shape (n_nodes,)
        The side the split sent more training weight to (+1 left, -1 right, 0 on a tie or
        with ``maxsurrogate`` 0): rpart's ``lastsurrogate``, which its cross-validation uses
        where ``predict`` uses the larger child.
    """

    use: int
    style: int
    start: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    direction: np.ndarray
    left_categories: np.ndarray
    right_categories: np.ndarray
    agree: np.ndarray
    adj: np.ndarray
    count: np.ndarray
    primary_count: np.ndarray
    primary_categories: np.ndarray
    majority: np.ndarray

    @classmethod
    def from_nodes(cls, records, rule):
        """From one record per node in the tree's order: None at leaves, else
        ``(primary NodeSplit, [SurrogateSplit, ...], majority side)``."""
        lists = [[] if r is None else r[1] for r in records]
        flat = [s for lst in lists for s in lst]
        start = np.concatenate([[0], np.cumsum([len(lst) for lst in lists])]).astype(np.int64)

        def objects(values):
            out = np.empty(len(values), dtype=object)
            out[:] = values
            return out

        return cls(
            use=int(rule.use), style=int(rule.style), start=start,
            feature=np.array([s.feature for s in flat], dtype=np.int64),
            threshold=np.array([s.threshold for s in flat], dtype=np.float64),
            direction=np.array([s.direction for s in flat], dtype=np.int64),
            left_categories=objects([s.left_categories for s in flat]),
            right_categories=objects([s.right_categories for s in flat]),
            agree=np.array([s.agree for s in flat], dtype=np.float64),
            adj=np.array([s.adj for s in flat], dtype=np.float64),
            count=np.array([s.count for s in flat], dtype=np.int64),
            primary_count=np.array([0 if r is None else r[0].n_known for r in records],
                                   dtype=np.int64),
            primary_categories=objects([None if r is None else r[0].present
                                        for r in records]),
            majority=np.array([0 if r is None else r[2] for r in records], dtype=np.int64))

    def split(self, i):
        """The ``i``-th flat entry as a :class:`SurrogateSplit`."""
        return SurrogateSplit(int(self.feature[i]), float(self.threshold[i]),
                              int(self.direction[i]), self.left_categories[i],
                              self.right_categories[i], float(self.agree[i]),
                              float(self.adj[i]), int(self.count[i]))

    def n_surrogates(self):
        return np.diff(self.start)

    def subset(self, order, internal):
        """The table of the tree made of nodes ``order`` (old indices), where only those with
        ``internal`` True keep their split (:meth:`ordstat.trees._tree.Tree.pruned`)."""
        records = []
        for v, keep in zip(order.tolist(), internal.tolist()):
            if not keep:
                records.append(None)
                continue
            primary = NodeSplit(0.0, -1, np.nan, None, self.primary_categories[v],
                                int(self.primary_count[v]))
            records.append((primary, [self.split(i)
                                      for i in range(self.start[v], self.start[v + 1])],
                            int(self.majority[v])))
        return Surrogates.from_nodes(records, SurrogateRule(0, self.use, self.style))

    def unknown_categories(self, v, codes):
        """Bool: categorical codes that node ``v``'s split did not meet at fitting."""
        present = self.primary_categories[v]
        if present is None:
            return np.zeros(codes.shape, dtype=bool)
        return ~np.isin(codes, present)

    def directions(self, X, rows, nodes, n_left, n_right, cross_validation=False):
        """+1 / -1 / 0 for rows ``rows`` of ``X`` at internal nodes ``nodes`` whose split
        cannot send them: by their first surrogate that can, then (``use`` 2) to the child with
        more training units (``n_left``, ``n_right`` of each row's node), else 0 (stay). With
        ``cross_validation``, rpart's cross-validation instead (its ``branch``): the side of
        ``majority``, right where there is none."""
        out = np.zeros(rows.size, dtype=np.int64)
        if self.use == 0:
            return out
        first, last = self.start[nodes], self.start[nodes + 1]
        k = 0
        while True:
            todo = np.flatnonzero((out == 0) & (first + k < last))
            if not todo.size:
                break
            entries = first[todo] + k
            x = X[rows[todo], self.feature[entries]]
            d = np.zeros(todo.size, dtype=np.int64)
            known = ~np.isnan(x)
            categorical = np.isnan(self.threshold[entries])
            num = known & ~categorical
            less = x[num] < self.threshold[entries[num]]
            d[num] = np.where(less, -self.direction[entries[num]], self.direction[entries[num]])
            for r in np.flatnonzero(known & categorical).tolist():
                e, c = entries[r], int(x[r])
                d[r] = (1 if c in self.left_categories[e]
                        else -1 if c in self.right_categories[e] else 0)
            out[todo] = d
            k += 1
        if self.use == 2:
            stay = out == 0
            out[stay] = (np.where(self.majority[nodes[stay]] > 0, 1, -1) if cross_validation
                         else np.sign(n_left[stay] - n_right[stay]))
        return out
