"""The split search of the replicated tree (oDT) and of oAdaBoost's stumps, on the tree package's
:class:`~ordstat.trees._splitter.Splitter` (dissertation "Ensemble methods for ordinal data
classification", section 4.3).

Replica k (Y > C_k) is a binary problem with its own 0/1 codes and its own unit weights (its
units in a node, or its boosting weights), so each replica gets its own ``Splitter`` with K = 2,
built on the units of positive weight in that replica. The goodness of every cut is the
registered criterion's, for two classes, computed by the Splitter's compiled scan when the
criterion has one. The Splitter keeps each replica's units sorted per attribute from level to
level, so no node is ever re-sorted; combining the replicas' gains into one attribute is the
caller's business (the rules of :data:`~ordstat.decomposition.REPLICA_RULES`).

A cut sends units with ``x < threshold`` left (the Splitter's convention; thresholds are
midpoints between consecutive distinct values of the replica's units). ``+inf`` means that the
replica makes no cut: all its units go left. Nominal attributes (category codes 0..c-1) are
not searched for cuts: :meth:`ReplicaSearch.category_counts` gives the class weights per
category for C4.5's split of one branch per value, the same in every replica, and
:meth:`ReplicaSearch.split` sends the units of such a node to the branch of their category.
"""

from __future__ import annotations

import numpy as np

from ..trees._splitter import Layout, Split, Splitter
from ..trees.criteria import get_criterion

__all__ = ["ReplicaSearch", "replica_threshold_search"]

# A cut is kept only with a goodness above this (the rest is round-off of a zero gain).
_TINY = 1e-12


class _Replica:
    """One replica's Splitter and the sorted layout of its units in the nodes of a level."""

    def __init__(self, splitter, layout, sizes, nodes, totals):
        self.sp, self.layout, self.sizes, self.nodes, self.totals = (splitter, layout, sizes,
                                                                      nodes, totals)


class ReplicaSearch:
    """Best cuts of every attribute for every replica in every node of a tree level.

    Parameters
    ----------
    X : ndarray of shape (n, p)
    codes : ndarray of shape (n,)
        Class codes 0..K-1; replica k's label is ``codes > k``.
    W : ndarray of shape (n, K-1)
        Weight of each unit in each replica; a unit of weight 0 in a replica is left out of it.
    criterion : str, callable or Criterion
        A criterion of the tree package's registry, used with two classes.
    min_bucket : int
        Each child of a replica's cut holds at least this many of the replica's units.
    n_values : ndarray of int of shape (p,), optional
        Categories of each nominal attribute (its values are the codes 0..c-1), 0 for the
        numeric ones (all numeric when None).

    The level starts as one node (the sample); :meth:`split` moves to the next level, whose
    nodes are the children of each split node, in order (for a cut the left child first, for
    a nominal split one child per category code).
    """

    def __init__(self, X, codes, W, criterion, min_bucket=1, n_values=None):
        crit = get_criterion(criterion)
        X = np.asarray(X, dtype=np.float64)
        codes = np.asarray(codes)
        W = np.asarray(W, dtype=np.float64)
        self.p, self.m = X.shape[1], W.shape[1]
        self.n_values = (np.zeros(self.p, dtype=np.int64) if n_values is None
                         else np.asarray(n_values, dtype=np.int64))
        self.n_nodes = 1
        self.replicas = []
        for k in range(self.m):
            rows = np.flatnonzero(W[:, k] > 0)
            sp = Splitter(np.ascontiguousarray(X[rows]), (codes[rows] > k).astype(np.int64),
                          np.ascontiguousarray(W[rows, k]), 2, crit,
                          min_bucket=max(1, int(min_bucket)))
            if rows.size:
                layout, totals = sp.root()
                rep = _Replica(sp, layout, np.array([rows.size], dtype=np.int64),
                               np.zeros(1, dtype=np.intp), totals)
            else:
                rep = _Replica(sp, None, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.intp),
                               np.zeros((0, 2)))
            self.replicas.append(rep)

    def counts(self):
        """Weights of C- and C+ of every replica in every node of the level, (n_nodes, K-1, 2)."""
        out = np.zeros((self.n_nodes, self.m, 2))
        for k, rep in enumerate(self.replicas):
            out[rep.nodes, k] = rep.totals
        return out

    def search(self, todo=None, attributes=None, min_bucket=None):
        """Best cut of every (node, attribute, replica) of the level.

        Parameters
        ----------
        todo : ndarray of bool of shape (n_nodes,), optional
            Nodes to search (all when None).
        attributes : ndarray of bool of shape (n_nodes, p), optional
            Attributes to search in each node, the same for every replica (all when None:
            a forest's tree draws them per node).
        min_bucket : ndarray of int of shape (n_nodes, K-1), optional
            Least units in each child of the replica's cut in each node, where more than the
            ``min_bucket`` the search was made with (J48's minimum split size).

        Returns
        -------
        goodness : ndarray of shape (n_nodes, p, K-1)
            Goodness of the best cut (count scale); -inf where the replica has no admissible
            cut, no units in the node or only units of one class, or the node is not searched.
        threshold : ndarray of the same shape
            Its threshold (NaN where the goodness is -inf).
        """
        shape = (self.n_nodes, self.p, self.m)
        good, thr = np.full(shape, -np.inf), np.full(shape, np.nan)
        todo = np.ones(self.n_nodes, dtype=bool) if todo is None else np.asarray(todo, bool)
        if self.n_values.any():  # nominal attributes are not cut at thresholds
            numeric = np.broadcast_to(self.n_values == 0, (self.n_nodes, self.p))
            attributes = numeric if attributes is None else numeric & attributes
        for k, rep in enumerate(self.replicas):
            # a replica that is pure in a node has no cut of positive goodness there
            want = todo[rep.nodes] & (rep.totals.min(axis=1) > 0)
            if not want.any():
                continue
            mask = np.repeat(want[None, :], self.p, axis=0)
            if attributes is not None:
                mask &= np.asarray(attributes, dtype=bool)[rep.nodes].T
            base = rep.sp.min_bucket
            need = (np.maximum(np.asarray(min_bucket)[rep.nodes, k], base)
                    if min_bucket is not None else np.full(rep.nodes.size, base))
            try:  # one search per minimum that the level's nodes ask for
                for value in np.unique(need[want]):
                    rep.sp.min_bucket = int(value)
                    g, t, _ = rep.sp.search(rep.layout, rep.totals, rep.sizes,
                                            mask & (need == value)[None, :])
                    found = (need == value) & want
                    good[rep.nodes[found], :, k] = g.T[found]
                    thr[rep.nodes[found], :, k] = t.T[found]
            finally:
                rep.sp.min_bucket = base
        return good, thr

    def left_weights(self, thresholds):
        """Weight each replica sends left in each node, for every attribute's threshold.

        Parameters
        ----------
        thresholds : ndarray of shape (n_nodes, p, K-1)
            A threshold per (node, attribute, replica), as :meth:`search` returns them (NaN
            or +inf: everything goes left).

        Returns
        -------
        ndarray of shape (n_nodes, p, K-1)
            The weight of the replica's units in the node with ``x < threshold`` (all of it
            where the threshold is NaN or +inf, 0 where the replica has no units there).
        """
        out = np.zeros((self.n_nodes, self.p, self.m))
        thresholds = np.where(np.isnan(thresholds), np.inf, thresholds)
        for k, rep in enumerate(self.replicas):
            if not rep.sizes.size:
                continue
            # each node's units are a contiguous segment of any row of the layout
            units = rep.layout.order[0]
            seg = np.repeat(np.arange(rep.sizes.size), rep.sizes)
            goes = rep.sp.X[units] < thresholds[rep.nodes[seg], :, k]  # (n_units, p)
            starts = np.concatenate([[0], np.cumsum(rep.sizes)[:-1]])
            out[rep.nodes, :, k] = np.add.reduceat(goes * rep.sp.w[units][:, None], starts,
                                                   axis=0)
        return out

    def category_counts(self, j):
        """Weights of C- and C+ of every replica in every node of the level by category of
        the nominal attribute ``j``, shape (n_nodes, n_values[j], K-1, 2)."""
        c = int(self.n_values[j])
        out = np.zeros((self.n_nodes, c, self.m, 2))
        for k, rep in enumerate(self.replicas):
            if not rep.sizes.size:
                continue
            units = rep.layout.order[0]
            node = rep.nodes[np.repeat(np.arange(rep.sizes.size), rep.sizes)]
            value = rep.sp.X[units, j].astype(np.int64)
            cell = (node * c + value) * 2 + rep.sp.codes[units]
            out[:, :, k, :] = np.bincount(cell, weights=rep.sp.w[units],
                                          minlength=self.n_nodes * c * 2).reshape(-1, c, 2)
        return out

    def n_branches(self, feature):
        """Children of each node under ``feature`` (-1: not split): none, two for a cut,
        one per category for a nominal attribute."""
        feature = np.asarray(feature)
        nominal = self.n_values[np.maximum(feature, 0)]
        return np.where(feature < 0, 0, np.where(nominal > 0, nominal, 2))

    def split(self, feature, thresholds):
        """Move to the next level.

        Parameters
        ----------
        feature : ndarray of int of shape (n_nodes,)
            Attribute of each node's split, -1 for nodes that are not split.
        thresholds : ndarray of shape (n_nodes, K-1)
            Each replica's threshold in each split node (``+inf``: no cut, all units go left;
            not read at nominal attributes).

        The next level holds the children of each split node (:meth:`n_branches`), in node
        order; a replica keeps only the children that hold some of its units.
        """
        feature = np.asarray(feature)
        is_split = feature >= 0
        if (self.n_values[feature[is_split]] > 0).any():
            return self._regroup(feature, thresholds)
        first_child = np.full(self.n_nodes, -1, dtype=np.intp)
        first_child[is_split] = 2 * np.arange(int(is_split.sum()))
        for k, rep in enumerate(self.replicas):
            found = is_split[rep.nodes]
            if not found.any():
                self.replicas[k] = _Replica(rep.sp, None, np.zeros(0, dtype=np.int64),
                                            np.zeros(0, dtype=np.intp), np.zeros((0, 2)))
                continue
            splits = [Split(0.0, int(feature[i]), threshold=float(thresholds[i, k])) if f
                      else None for i, f in zip(rep.nodes, found)]
            left_counts, n_left = rep.sp.children(rep.layout, rep.sizes, splits, found)
            split_nodes = np.flatnonzero(found)
            kid_sizes = np.empty(2 * split_nodes.size, dtype=np.int64)
            kid_sizes[0::2] = n_left[split_nodes]
            kid_sizes[1::2] = rep.sizes[split_nodes] - n_left[split_nodes]
            kid_counts = np.empty((2 * split_nodes.size, 2))
            kid_counts[0::2] = left_counts[split_nodes]
            kid_counts[1::2] = np.maximum(rep.totals[split_nodes] - left_counts[split_nodes],
                                          0.0)
            kid_nodes = np.empty(2 * split_nodes.size, dtype=np.intp)
            kid_nodes[0::2] = first_child[rep.nodes[split_nodes]]
            kid_nodes[1::2] = kid_nodes[0::2] + 1
            keep = kid_sizes > 0
            ends = np.cumsum(np.where(keep, kid_sizes, 0))
            dest = np.where(keep, ends - kid_sizes, -1).astype(np.int64)
            layout = rep.sp.partition(rep.layout, rep.sizes, split_nodes, n_left, dest)
            self.replicas[k] = _Replica(rep.sp, layout, kid_sizes[keep], kid_nodes[keep],
                                        kid_counts[keep])
        self.n_nodes = 2 * int(is_split.sum())

    def _regroup(self, feature, thresholds):
        """:meth:`split` of a level with nominal splits: each unit goes to its child (the
        branch of its category, or its side of the replica's cut), and every row of the
        layout is stably sorted by child, which keeps each child's units in the row's order."""
        n_kids = self.n_branches(feature)
        first = np.cumsum(n_kids) - n_kids
        nominal = self.n_values[np.maximum(feature, 0)] > 0
        for k, rep in enumerate(self.replicas):
            if not rep.sizes.size:
                continue
            units = rep.layout.order[0]
            node = rep.nodes[np.repeat(np.arange(rep.sizes.size), rep.sizes)]
            x = rep.sp.X[units, np.maximum(feature[node], 0)]
            branch = np.where(nominal[node], x, x >= thresholds[node, k]).astype(np.int64)
            kid = np.full(rep.sp.X.shape[0], -1, dtype=np.int64)
            kid[units] = np.where(feature[node] >= 0, first[node] + branch, -1)
            keys = kid[rep.layout.order]
            perm = np.argsort(keys, axis=1, kind="stable")
            dropped = int(np.sum(keys[0] < 0))
            layout = Layout(*(np.ascontiguousarray(np.take_along_axis(a, perm, 1)[:, dropped:])
                              for a in (rep.layout.order, rep.layout.xs, rep.layout.ys,
                                        rep.layout.ws)))
            kept = kid[layout.order[0]]
            nodes, sizes = np.unique(kept, return_counts=True)
            cell = np.searchsorted(nodes, kept) * 2 + rep.sp.codes[layout.order[0]]
            totals = np.bincount(cell, weights=rep.sp.w[layout.order[0]],
                                 minlength=2 * nodes.size).reshape(-1, 2)
            self.replicas[k] = _Replica(rep.sp, layout, sizes.astype(np.int64),
                                        nodes.astype(np.intp), totals)
        self.n_nodes = int(n_kids.sum())


def replica_threshold_search(x, codes, weights, criterion="entropy", min_leaf=1):
    """Best threshold of each attribute for each of the K-1 binary replicas (one node).

    Parameters
    ----------
    x : ndarray of shape (n,) or (n, p)
        Values of one attribute, or of p attributes (one search per column).
    codes : ndarray of shape (n,)
        Class codes 0..K-1; replica k's label is ``codes > k``.
    weights : ndarray of shape (n, K-1)
        Weight of each unit in each replica; units of weight 0 in a replica are not part of it
        (they create no cut points there).
    criterion : str or callable
        A registered split criterion (count-scale goodness of a split, larger is better).
    min_leaf : int
        Both children of a replica's cut hold at least this many of its units (at least 1).

    Returns
    -------
    thresholds : ndarray of shape (K-1,) or (p, K-1)
        Cut points (``x < t`` goes left; midpoints between consecutive distinct values of the
        replica's units); ``+inf`` where the replica has no admissible cut with positive
        goodness.
    goodness : ndarray of the same shape
        The goodness of each chosen cut (0 where the threshold is infinite).
    """
    x = np.asarray(x, dtype=np.float64)
    one = x.ndim == 1
    X = x[:, None] if one else x
    search = ReplicaSearch(X, codes, weights, criterion, min_bucket=max(1, int(np.ceil(min_leaf))))
    good, thr = search.search()
    found = good[0] > _TINY
    thresholds = np.where(found, thr[0], np.inf)
    goodness = np.where(found, good[0], 0.0)
    return (thresholds[0], goodness[0]) if one else (thresholds, goodness)
