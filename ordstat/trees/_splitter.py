"""The split search: best cut of every (feature, node) of a tree level, and the partition of the
sorted units into the children.

The module structure is the following:

- :class:`Split`: a node's chosen cut;
- :class:`Layout`: the units of each node of a level, sorted per feature (presorted), or one
  row of units that each node sorts by its drawn features (per node), with the rows sorted by
  -x for the "missing left" search;
- :class:`Splitter`: ``root`` (the layout of the sample), ``search`` (the best goodness of each
  feature in each node), ``best_splits`` (the node rule), the partition into the children and
  ``packed_root`` (the words of the presorted levels); the tree ensembles use it directly;
- :func:`word_bits`, :func:`pack_words`: one int64 word of rank, unit and class code.

The presorted and per-node searches and missing values are explained in the documentation,
"How the trees are grown" (docs/trees_engine.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs

from . import _engine, _fast
from ._records import MISSING_RANK
from .criteria import check_goodness

__all__ = ["Split", "Layout", "Splitter"]


def _midpoint(a, b):
    """Split threshold between consecutive sorted values a < b; for adjacent floats the
    midpoint rounds to a, so b is used to keep "x < threshold" exact."""
    mid = (a + b) / 2.0
    return np.where(a < mid, mid, b)


def _row_range(rows):
    """Sorted layout rows as a slice (a view, no copy) when they are consecutive."""
    if rows[-1] - rows[0] == rows.size - 1:
        return slice(int(rows[0]), int(rows[-1]) + 1)
    return rows


# nodes whose feature keys are partitioned at once (Splitter.feature_keys)
_KEY_BLOCK = 4096
# the Generator passed to the compiled trees that draw no features (one compiled type: never
# read, so shared by all threads)
_NO_DRAWS = np.random.default_rng(0)


def _starts(sizes):
    return np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)


@dataclass
class Split:
    """A node's split: units with ``x[feature] < threshold`` (numeric) or with their category
    code in ``left_categories`` go left. Missing values of a numeric feature go left when
    ``missing_left`` is True, right when False; None: the node had none at fitting (the tree
    then sends them to the heavier child, see :class:`ordstat.trees._tree.Tree`)."""

    goodness: float
    feature: int
    threshold: float = np.nan
    left_categories: np.ndarray | None = None
    missing_left: bool | None = None


@dataclass
class Layout:
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
        return Layout(*(np.ascontiguousarray(a[:, idx])
                        for a in (self.order, self.xs, self.ys, self.ws)))


def _unit_dtype(n):
    """The integer type of the units' indices in a presorted layout."""
    return np.int32 if n < 2 ** 31 else np.int64


def _drawn(mask, p, n_nodes):
    """(R, S) features searched in each node, in increasing order, padded with -1."""
    if mask is None:
        return np.repeat(np.arange(p)[:, None], n_nodes, axis=1)
    node, feat = np.nonzero(np.asarray(mask, dtype=bool).T)  # node-major, features ascending
    counts = np.bincount(node, minlength=n_nodes)
    out = np.full((max(int(counts.max(initial=0)), 1), n_nodes), -1, dtype=np.int64)
    out[np.arange(node.size) - _starts(counts)[node], node] = feat
    return out


class Splitter:
    """Split search over the units of one sample (see the module docstring).

    Parameters
    ----------
    X : ndarray of shape (n, p)
        Features; categorical ones hold category codes 0..n_categories-1.
    codes : ndarray of shape (n,)
        Class codes 0..K-1.
    weights : ndarray of shape (n,)
        Positive case weights.
    n_classes : int
    criterion : Criterion
    min_bucket : int
        Minimum number of units in each child.
    cat_sizes : ndarray of shape (p,), optional
        Number of categories of each categorical feature, 0 for numeric ones.
    max_features : int, optional
        Features drawn at random (without replacement) in each node; None = all.
    rng : numpy Generator, optional
        For ``max_features``.
    sample : ordstat.trees._prepared.Sample, optional
        The rows of a sample prepared once for an ensemble's trees (then ``X``, ``codes`` are
        the prepared sample's).
    engine : ordstat.trees._engine.Engine, optional
        The engine of the search (compiled or numpy, sorting per node or presorted), as the
        builder chose it; by default :func:`ordstat.trees._engine.choose`'s.
    """

    def __init__(self, X, codes, weights, n_classes, criterion, *, min_bucket, cat_sizes=None,
                 max_features=None, rng=None, sample=None, engine=None):
        self.X = X
        # what the kernels only read, read-only as a prepared sample's: one compiled type
        self.codes = _fast.read_only(np.asarray(codes, np.int64))
        self.w = weights
        self.K = n_classes
        self.criterion = criterion
        self.min_bucket = max(1, min_bucket)
        p = X.shape[1]
        self.cat_sizes = (np.zeros(p, dtype=np.int64) if cat_sizes is None
                          else np.asarray(cat_sizes, dtype=np.int64))
        self.max_features = max_features
        self.rng = rng
        self.unit_weights = bool(np.all(self.w == 1.0))
        self._small_codes = _fast.read_only(
            self.codes.astype(np.int8 if n_classes <= 127 else np.int32))
        if engine is None:
            engine = _engine.choose(criterion, max_features, p)
        self._nb = _fast.kernels() if engine.numba else None
        self._search = _fast.level_search(criterion) if engine.scan else None
        self._param = criterion.parameter(n_classes) if self._search is not None else None
        self._flag = np.zeros(X.shape[0], dtype=bool)
        self._iscale = 0.0
        self.per_node = engine.per_node
        self._numpy_sort_min = engine.numpy_sort_min
        self._data = None if sample is None else sample.data
        if sample is None:
            self.rows = np.arange(X.shape[0])
            self._XT = _fast.read_only(np.ascontiguousarray(X.T))
            # numeric features with missing values: searched a second time, mirrored
            self._mirror = _missing_features(self.XT, self.cat_sizes)
            self._presorted = self._ranks = None
        else:  # the rows of a sample prepared once for many trees (see PreparedSample)
            self.rows = sample.rows
            self._mirror = sample.data.mirror
            # the prepared data when it holds each feature's order (as words, or as order)
            self._presorted = sample.data if sample.data.presorted else None
            self._words = sample.data.words
            self._ranks = ((sample.data.ranks, sample.data.neg_ranks) if self.per_node
                           else None)
        self._nan_in_node = None
        self.last_missing_left = None

    @property
    def XT(self):
        """(p, n) C-contiguous transposed features (of a prepared sample: made when first
        read, which the compiled levels without missing values never do)."""
        if self._data is not None:
            return self._data.transposed()
        return self._XT

    def sort_keys(self):
        """``(ranks, neg_ranks)`` (:func:`rank_keys`) that the per-node search sorts the units
        by: a prepared sample's (shared by its trees), else made of this sample once."""
        if self._ranks is None:
            self._ranks = tuple(_fast.read_only(a) for a in rank_keys(self.X, self._mirror))
        return self._ranks

    def compiled_categories(self):
        """Whether the compiled levels can search the categorical features (none: True) for
        the level loop's splits (:mod:`ordstat.trees._kernels.categorical`): they score a cut
        by the criterion's scan where the level loop calls its numpy goodness, the same float
        when every sum is an exact integer (the built-in scans' gains are the numpy formulas
        on their sums): a criterion whose scan sums whole numbers exactly
        (``Criterion.exact_sums``: not entropy's logarithms), whole-number weights and parameter
        (cost matrix, score steps), and sums far below 2^53; K <= 128 (the mean class of a
        category summed as numpy sums up to 128 terms); and a table of the categories sent
        left (a byte per category and node, at most 2 n - 1 nodes) of at most
        :data:`CATEGORY_TABLE_BYTES`. Otherwise the level loop grows the tree."""
        if not self.cat_sizes.any():
            return True
        if self._search is None or not getattr(self.criterion, "exact_sums", False):
            return False
        param = np.abs(np.asarray(self._param, dtype=np.float64))
        w = self.w[self.rows]
        whole = np.all(param == np.floor(param)) and np.all(w == np.floor(w))
        bound = max(1.0, float(param.max(initial=0.0))) * self.K ** 2 * float(w.sum())
        table = int(self.cat_sizes.max()) * (2 * self.rows.size - 1)
        return bool(whole and self.K <= 128 and bound < 2.0 ** 26
                    and table <= CATEGORY_TABLE_BYTES)

    # -- layout --------------------------------------------------------------------------------
    def root(self):
        """The whole sample as one node: its layout and class counts (1, K)."""
        rows = self.rows
        m = rows.size
        if self.per_node:  # one row: the units, sorted per node and drawn feature by search
            # (units and codes of the presorted layout's types: the same compiled moves)
            layout = Layout(rows.astype(_unit_dtype(self.X.shape[0]))[None, :],
                            np.zeros((1, m)), self._small_codes[rows][None, :],
                            self.w[rows][None, :])
        else:
            idx = self.root_order()
            XS = self.XT
            if self._mirror.size:  # rows of -x
                XS = np.concatenate([XS, -XS[self._mirror]])
            layout = Layout(idx, np.take_along_axis(XS, idx, axis=1), self._small_codes[idx],
                            self.w[idx])
        return layout, self.root_counts()

    def root_counts(self):
        """Class counts (1, K) of the whole sample."""
        rows = self.rows
        totals = np.bincount(self.codes[rows], weights=self.w[rows],
                             minlength=self.K).astype(float)
        return totals[None, :]

    def root_order(self):
        """(P, m) the sample's units sorted by each feature, then (features with missing
        values, see below) by -x, NaN last, for a presorted layout."""
        rows = self.rows
        m = rows.size
        # The order among tied values does not matter: cuts are only made between distinct
        # values.
        if self._presorted is None:
            idx = np.argsort(self.XT, axis=1)  # (p, n)
        else:  # the prepared order of every unit, restricted to the sample's rows
            inside = np.zeros(self.X.shape[0], dtype=bool)
            inside[rows] = True
            order = self._presorted.unit_order()
            idx = order[inside[order]].reshape(order.shape[0], m)
        # Units as int32: every level moves them for every feature (Splitter.partition),
        # fewer bytes move faster.
        idx = idx.astype(_unit_dtype(self.X.shape[0]), copy=False)
        if self._mirror.size:
            pos = np.argsort(-self.XT[self._mirror][:, rows], axis=1)
            idx = np.concatenate([idx, rows[pos].astype(idx.dtype, copy=False)])
        return idx

    def packed_root(self, cb, ub):
        """The presorted layout of the compiled levels (:func:`ordstat.trees._kernels.
        presorted.make_presorted_level`): :meth:`root_order` as words of rank, unit and class code
        (``ub`` and ``cb`` bits); from a prepared sample, its words restricted to the rows."""
        rows, p = self.rows, self.X.shape[1]
        out = np.empty((p + self._mirror.size, rows.size), dtype=np.int64)
        if self._presorted is None:  # no prepared words (a tree's own sample): sort its rows
            self._nb.pack_rows(self.XT, np.arange(p), 1.0,
                               rows[np.argsort(self.XT[:, rows], axis=1)], self.codes, 0, cb,
                               ub, out)
        else:
            inside = np.zeros(self.X.shape[0], dtype=bool)
            inside[rows] = True
            self._nb.restrict_rows(self._words, inside, cb, ub, out)
        if self._mirror.size:  # rows of -x
            mirrored = rows[np.argsort(-self.XT[self._mirror][:, rows], axis=1)]
            self._nb.pack_rows(self.XT, self._mirror, -1.0, mirrored, self.codes, p, cb, ub,
                               out)
        return out

    def children(self, layout, sizes, splits, found):
        """Send the units of the nodes with a split left or right: the left children's class
        counts (S, K) and unit counts (S,)."""
        S = sizes.size
        starts = _starts(sizes)
        rows = layout.order[0]
        if self._nb is not None:
            return self._children_compiled(rows, starts, sizes, splits, found)
        seg = np.repeat(np.arange(S), sizes)
        feat = np.array([sp.feature if sp is not None else 0 for sp in splits])
        thr = np.array([sp.threshold if sp is not None else np.nan for sp in splits])
        x = self.X[rows, feat[seg]]
        go_left = x < thr[seg]
        if self._mirror.size:
            _send_missing(x, go_left, seg, splits)
        for s in np.flatnonzero(found):
            if splits[s].left_categories is not None:
                cols = slice(starts[s], starts[s] + sizes[s])
                go_left[cols] = np.isin(x[cols].astype(np.int64), splits[s].left_categories)
        self._flag[rows] = go_left
        lc = np.bincount(seg[go_left] * self.K + self.codes[rows[go_left]],
                         weights=self.w[rows[go_left]], minlength=S * self.K).reshape(S, self.K)
        return lc, np.bincount(seg[go_left], minlength=S)

    def _children_compiled(self, rows, starts, sizes, splits, found):
        S = sizes.size
        feat = np.full(S, -1, dtype=np.int64)
        thr = np.full(S, np.nan)
        missing_left = np.zeros(S, dtype=bool)
        is_cat = np.zeros(S, dtype=bool)
        cat_left = np.zeros((S, max(1, int(self.cat_sizes.max(initial=0)))), dtype=bool)
        for s in np.flatnonzero(found).tolist():
            sp = splits[s]
            feat[s], thr[s], missing_left[s] = sp.feature, sp.threshold, bool(sp.missing_left)
            if sp.left_categories is not None:
                is_cat[s] = True
                cat_left[s, sp.left_categories] = True
        lc = np.zeros((S, self.K))
        n_left = np.zeros(S, dtype=np.int64)
        self._nb.level_children(self.XT, rows, starts, sizes.astype(np.int64), feat, thr,
                                missing_left, cat_left, is_cat, self.codes, self.w, self._flag,
                                lc, n_left)
        return lc, n_left

    def units_left(self, layout, sizes, repeats):
        """Units sent left by the last :meth:`children` in each node, each row counting
        ``repeats`` units."""
        rows = layout.order[0]
        seg = np.repeat(np.arange(sizes.size), sizes)
        go = self._flag[rows]
        return np.bincount(seg[go], weights=repeats[rows[go]],
                           minlength=sizes.size).astype(np.int64)

    def partition(self, layout, sizes, split_nodes, n_left, dest):
        """Stable partition of every feature's sorted list (after :meth:`children`) into the
        children of the nodes ``split_nodes``, each child at its offset ``dest`` in the next
        layout (``dest[2 i]`` left, ``dest[2 i + 1]`` right child of the i-th; -1: dropped)."""
        starts = _starts(sizes)
        n_kids = np.empty(dest.size, dtype=np.int64)
        n_kids[0::2] = n_left[split_nodes]
        n_kids[1::2] = sizes[split_nodes] - n_left[split_nodes]
        M = int(n_kids[dest >= 0].sum())
        arrays = (layout.order, layout.xs, layout.ys, layout.ws)
        out = tuple(np.empty((a.shape[0], M), dtype=a.dtype) for a in arrays)
        if self._nb is not None:
            self._nb.level_partition(*arrays, self._flag, starts[split_nodes],
                                     sizes[split_nodes].astype(np.int64),
                                     np.ascontiguousarray(dest[0::2]),
                                     np.ascontiguousarray(dest[1::2]), *out)
        else:
            p = layout.order.shape[0]
            for i, s in enumerate(split_nodes):
                cols = slice(starts[s], starts[s] + sizes[s])
                mask = self._flag[layout.order[:, cols]]  # (p, m)
                for d, part, n_part in ((dest[2 * i], mask, n_kids[2 * i]),
                                        (dest[2 * i + 1], ~mask, n_kids[2 * i + 1])):
                    if d < 0:
                        continue
                    for a, o in zip(arrays, out):
                        # boolean selection keeps each row's sorted order
                        o[:, d:d + n_part] = a[:, cols][part].reshape(p, n_part)
        return Layout(*out)

    # -- the node-local split rule -------------------------------------------------------------
    def feature_keys(self, n_nodes):
        """Random keys (S, p) of the features of each node and the max_features-th smallest
        of each node (S,): the node draws the features whose keys are at most that (random
        doubles: no ties); None when all features are used."""
        p = self.X.shape[1]
        if self.max_features is None or self.max_features >= p:
            return None
        keys = self.rng.random((n_nodes, p))
        k = self.max_features - 1
        kth = np.empty(n_nodes)
        # by blocks of nodes: np.partition copies its input, and a deep level of a large
        # tree draws keys for 10^5 nodes
        for a in range(0, n_nodes, _KEY_BLOCK):
            kth[a:a + _KEY_BLOCK] = np.partition(keys[a:a + _KEY_BLOCK], k, axis=1)[:, k]
        return keys, kth  # (C-contiguous: one compiled type)

    def key_stream(self):
        """What the compiled trees draw :meth:`feature_keys` from (the same stream, see
        :func:`ordstat.trees._kernels.nodes.draw_keys`): the Generator and max_features - 1, or
        an unused Generator and -1 when all features are used."""
        p = self.X.shape[1]
        if self.max_features is None or self.max_features >= p:
            return _NO_DRAWS, -1
        return self.rng, int(self.max_features) - 1

    def feature_mask(self, n_nodes):
        """(p, S) features drawn for each node, or None when all are used."""
        drawn = self.feature_keys(n_nodes)
        if drawn is None:
            return None
        keys, kth = drawn
        return (keys <= kth[:, None]).T

    def best_splits(self, layout, totals, sizes):
        """Best split of every node of a level (segments of ``layout``, class counts
        ``totals`` (S, K)), None where no drawn feature has a cut of positive goodness."""
        S = sizes.size
        mask = self.feature_mask(S)
        best_g, best_thr, cat_info = self.search(layout, totals, sizes, mask)
        feat = np.argmax(best_g, axis=0)  # first feature among ties (rpart keeps the first)
        has_nan = self._node_has_missing(layout, sizes) if self._mirror.size else None
        g = best_g[feat, np.arange(S)]
        finite = np.isfinite(g)
        # rpart ignores improvements that are rounding noise relative to the largest seen
        # (so far, in node order).
        scale = np.maximum(np.maximum.accumulate(np.where(finite, g, -np.inf)), self._iscale)
        self._iscale = float(scale[-1])
        ok = finite & (g > np.maximum(scale * 1e-10, 0.0))
        out = [None] * S
        for s in np.flatnonzero(ok).tolist():
            gs, j = float(g[s]), int(feat[s])
            if self.cat_sizes[j] > 0:
                out[s] = Split(gs, j, left_categories=cat_info[(j, s)])
            else:
                ml = None if has_nan is None or not has_nan[j, s] else \
                    bool(self.last_missing_left[j, s])
                out[s] = Split(gs, j, threshold=float(best_thr[j, s]), missing_left=ml)
        return out

    # -- the search ----------------------------------------------------------------------------
    def search(self, layout, totals, sizes, mask=None):
        """Best cut of every (feature, node) of a level.

        Parameters
        ----------
        layout : Layout
        totals : ndarray of shape (S, K)
            Class counts of the S nodes.
        sizes : ndarray of shape (S,)
            Units of each node (the node's segment of the layout).
        mask : ndarray of bool of shape (p, S), optional
            Features to search in each node (all when None).

        Returns
        -------
        goodness : ndarray of shape (p, S)
            Largest goodness of a cut on the feature in the node (-inf: no admissible cut, or
            not searched).
        threshold : ndarray of shape (p, S)
            Its threshold (numeric features; NaN otherwise).
        left_categories : mapping
            ``[(feature, node)]``: the sorted codes sent left, for categorical features.
        """
        p, S = self.X.shape[1], sizes.size
        best_g = np.full((p, S), -np.inf)
        best_thr = np.full((p, S), np.nan)
        cat_info = _CategoryCuts()
        totals = np.ascontiguousarray(totals, dtype=np.float64).reshape(S, self.K)
        numeric = np.flatnonzero(self.cat_sizes == 0)
        self.last_missing_left = np.zeros((p, S), dtype=bool)
        if self.per_node:
            self._numeric_per_node(layout, sizes, totals, mask, best_g, best_thr)
        elif numeric.size:
            if self._search is not None:
                self._numeric_compiled(layout, numeric, sizes, totals, best_g, best_thr,
                                       None if mask is None else mask[numeric])
            else:
                self._numeric_numpy(layout, numeric, sizes, totals, best_g, best_thr)
        cats = np.flatnonzero(self.cat_sizes > 0)
        if cats.size:
            todo = (np.ones((cats.size, S), dtype=bool) if mask is None
                    else np.asarray(mask, dtype=bool)[cats])
            if todo.any():
                self._categorical(layout.order[0], cats, sizes, totals, todo, best_g, cat_info)
        if self._mirror.size and not self.per_node:
            self._search_missing_left(layout, totals, sizes, mask, best_g, best_thr)
        if mask is not None:
            best_g[~mask] = -np.inf
        return best_g, best_thr, cat_info

    def _goodness(self, left, right):
        return check_goodness(self.criterion(left, right), left.shape[0], self.criterion.name)

    def _record(self, layout, feats, jj, ss, t, good, best_g, best_thr):
        best_g[feats[jj], ss] = good
        a, b = layout.xs[feats[jj], t], layout.xs[feats[jj], t + 1]
        mirrored = feats[jj] >= self.X.shape[1]
        if mirrored.any():  # a row of -x: the cut between -x = a and b is x = -b | -a
            a, b = np.where(mirrored, -b, a), np.where(mirrored, -a, b)
        best_thr[feats[jj], ss] = _midpoint(a, b)

    def _numeric_compiled(self, layout, feats, sizes, totals, best_g, best_thr, mask):
        rows = _row_range(feats)
        xs, ys, ws = (a[rows] for a in (layout.xs, layout.ys, layout.ws))
        todo = np.ones((feats.size, sizes.size), dtype=bool) if mask is None else mask
        good, pos = self._scan(xs, ys, ws, sizes, totals, todo)
        jj, ss = np.nonzero(pos >= 0)
        self._record(layout, feats, jj, ss, pos[jj, ss], good[jj, ss], best_g, best_thr)

    def _scan(self, xs, ys, ws, sizes, totals, todo):
        """The compiled scan of every (row, node) of a layout's arrays with ``todo``: best
        goodness and its position (-inf and -1 where none), each (R, S)."""
        good = np.empty(todo.shape)
        pos = np.empty(todo.shape, dtype=np.int64)
        self._search(xs, ys, ws, _starts(sizes), sizes.astype(np.int64), totals,
                     self.min_bucket, self._param, np.ascontiguousarray(todo, dtype=np.bool_),
                     good, pos)
        return good, pos

    def _numeric_per_node(self, layout, sizes, totals, mask, best_g, best_thr):
        """The numeric features drawn in each node, the node's units sorted by each of them
        now (by their ranks, as the compiled levels: the same order, so the same trees;
        compiled scan). Missing values as in the presorted path: sorted last, and where a
        node has some on a drawn feature, a second search on -x sends them left."""
        p, S = self.X.shape[1], sizes.size
        feats = _drawn(mask, p, S)  # (R, S): row r of node s is feature feats[r, s]
        numeric = feats >= 0
        numeric[numeric] = self.cat_sizes[feats[numeric]] == 0
        self._nan_in_node = np.zeros((p, S), dtype=bool)
        if not numeric.any():
            return
        units = layout.order[0]
        ranks, neg_ranks = self.sort_keys()
        srt = self._sort_nodes(ranks, units, sizes, np.where(numeric, feats, -1))
        good, pos = self._scan(srt.xs, srt.ys, srt.ws, sizes, totals, numeric)
        rr, ss = np.nonzero(pos >= 0)
        j, t = feats[rr, ss], pos[rr, ss]
        best_g[j, ss] = good[rr, ss]
        best_thr[j, ss] = _midpoint(self.X[srt.order[rr, t], j], self.X[srt.order[rr, t + 1], j])
        if not self._mirror.size:
            return
        nan = numeric & (srt.xs[:, _starts(sizes) + sizes - 1] == MISSING_RANK)  # (last)
        rr, ss = np.nonzero(nan)
        self._nan_in_node[feats[rr, ss], ss] = True
        if not rr.size:
            return
        mirrored = self._sort_nodes(neg_ranks, units, sizes, np.where(nan, feats, -1))
        good, pos = self._scan(mirrored.xs, mirrored.ys, mirrored.ws, sizes, totals, nan)
        rr, ss = np.nonzero(pos >= 0)
        j, g, t = feats[rr, ss], good[rr, ss], pos[rr, ss]
        better = g > best_g[j, ss]  # strictly better with missing values left
        rr, ss, j, g, t = rr[better], ss[better], j[better], g[better], t[better]
        best_g[j, ss] = g
        # the cut between the units at t and t + 1, in decreasing x
        best_thr[j, ss] = _midpoint(self.X[mirrored.order[rr, t + 1], j],
                                    self.X[mirrored.order[rr, t], j])
        self.last_missing_left[j, ss] = True

    def _sort_nodes(self, keys, units, sizes, feats):
        """Layout whose row r holds the units of each node s sorted by feature feats[r, s]
        (a row of ``keys``, the ranks; rows with feats -1 hold zeros), missing values last.
        Large nodes are sorted by numpy (its argsort is vectorised), the many small ones in
        one compiled loop."""
        R, M = feats.shape[0], units.size
        # class codes of the presorted layout's type: the scans' compiled type
        codes = self._small_codes
        out = (np.zeros((R, M), dtype=np.int64), np.zeros((R, M), dtype=keys.dtype),
               np.zeros((R, M), dtype=codes.dtype), np.zeros((R, M)))
        starts = _starts(sizes)
        big = np.flatnonzero(sizes >= self._numpy_sort_min)
        small = feats.copy()
        small[:, big] = -1
        self._nb.node_sort(keys, codes, self.w, units, starts, sizes.astype(np.int64), small,
                           *out)
        for s in big:
            cols = slice(starts[s], starts[s] + sizes[s])
            rows = np.flatnonzero(feats[:, s] >= 0)
            u = units[cols]
            v = keys[feats[rows, s][:, None], u[None, :]]  # (r, m)
            idx = np.argsort(v, axis=1)
            su = u[idx]
            out[0][rows, cols], out[1][rows, cols] = su, np.take_along_axis(v, idx, axis=1)
            out[2][rows, cols], out[3][rows, cols] = codes[su], self.w[su]
        return Layout(*out)

    def _numeric_numpy(self, layout, feats, sizes, totals, best_g, best_thr, swap=False):
        K = self.K
        mb = self.min_bucket
        # (q, M): each node's units sorted by each feature, node after node
        q, M = feats.size, layout.n_units
        S = sizes.size
        starts = _starts(sizes)
        seg = np.repeat(np.arange(S), sizes)
        local = np.arange(M) - starts[seg]
        # split after position t: left = the node's positions up to t
        pos_ok = (local >= mb - 1) & (local <= sizes[seg] - mb - 1)
        xs = layout.xs[feats]
        valid = np.zeros((q, M), dtype=bool)
        valid[:, :-1] = pos_ok[None, :-1] & (xs[:, :-1] < xs[:, 1:])
        if not valid.any():
            return
        ys = layout.ys[feats]
        ws = None if self.unit_weights else layout.ws[feats]
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
            pair = (left.reshape(K, -1).T, right.reshape(K, -1).T)
            good = self._goodness(*pair[::-1 if swap else 1]).reshape(q, M)
            good[~valid] = -np.inf
        else:  # many ties or small nodes: evaluate only the admissible cuts
            cand = left[:, valid]  # (K, n_valid)
            cols = np.nonzero(valid)[1]
            good = np.full((q, M), -np.inf)
            pair = (cand.T, (tot[:, cols] - cand).T)
            good[valid] = self._goodness(*pair[::-1 if swap else 1])
        # Best cut per (feature, node): the first (lowest threshold) among ties, as rpart.
        seg_max = np.maximum.reduceat(good, starts, axis=1)  # (q, S)
        hit = good == np.repeat(seg_max, sizes, axis=1)
        hit &= np.isfinite(good)
        pos = np.where(hit, np.arange(M)[None, :], M)
        first = np.minimum.reduceat(pos, starts, axis=1)  # (q, S)
        jj, ss = np.nonzero(first < M)
        self._record(layout, feats, jj, ss, first[jj, ss], seg_max[jj, ss], best_g, best_thr)

    def _categorical(self, units, feats, sizes, totals, todo, best_g, cat_info):
        """The best cut of each categorical feature of ``feats`` (F,) in the nodes of a level
        where ``todo`` (F, S) says (the units of node s in its segment of ``units``, of
        ``sizes[s]`` units and class counts ``totals[s]``): in each node the feature's
        categories ordered by their mean class code, then cut like a numeric feature (the
        exact search for two classes; rpart does this for ordinal predictors). Writes
        ``best_g[j, s]`` and ``cat_info[(j, s)]`` (sorted codes sent left) where the node has an
        admissible cut on feature j.

        Every (feature, node) pair of the level at once: the criterion is called once on all
        their candidates (it scores each candidate on its own), not once per pair."""
        K, S, F = self.K, sizes.size, feats.size
        n_cat = int(self.cat_sizes[feats].max())
        # pair r = f S + s: its class counts by category, summed over its units in order
        pair = np.arange(F)[:, None] * S + np.repeat(np.arange(S), sizes)[None, :]
        cell = pair * n_cat + self.X[units[None, :], feats[:, None]].astype(np.int64)
        counts = np.bincount((cell * K + self.codes[units]).ravel(),
                             weights=np.broadcast_to(self.w[units], cell.shape).ravel(),
                             minlength=F * S * n_cat * K).reshape(F * S, n_cat, K)
        cell = cell.ravel()
        n_units = np.bincount(cell, minlength=F * S * n_cat).reshape(F * S, n_cat)
        present = n_units > 0
        n_present = present.sum(axis=1)
        todo = todo.ravel() & (n_present >= 2)
        if not todo.any():
            return
        means = np.full((F * S, n_cat), np.inf)  # absent categories sort last
        means[present] = _category_means(counts[present])
        seq = np.argsort(means, axis=1, kind="stable")  # (ties: by category code)
        pairs = np.arange(F * S)
        cum = np.cumsum(counts[pairs[:, None], seq], axis=1)[:, :-1]
        n_left = np.cumsum(n_units[pairs[:, None], seq], axis=1)[:, :-1]
        # a cut after each present category but the last
        cand = (np.arange(n_cat - 1)[None, :] < (n_present - 1)[:, None]) & todo[:, None]
        rr, ii = np.nonzero(cand)
        left = cum[rr, ii]
        good = np.full((F * S, n_cat - 1), -np.inf)
        good[rr, ii] = self._goodness(left, totals[rr % S] - left)
        size = sizes[pairs % S, None]
        good[~(cand & (n_left >= self.min_bucket) & (size - n_left >= self.min_bucket))] = \
            -np.inf
        best = np.argmax(good, axis=1)  # the first best cut
        best_g[feats] = good[np.arange(F * S), best].reshape(F, S)
        cat_info.batch = (feats, S, seq, best, present, cum, totals, self.cat_sizes)
        if self.subset_levels():
            some = todo & (n_present >= 3) & (n_present <= self.subset_levels())
            self._all_subsets(feats, S, some, counts, n_units, present, sizes, totals, best_g,
                              cat_info)

    def subset_levels(self):
        """The most present levels of a categorical feature for which every subset is tried
        (:data:`SUBSET_SEARCH_LEVELS` for a criterion that ignores the class order and more
        than two classes), else 0."""
        return SUBSET_SEARCH_LEVELS if getattr(self.criterion, "nominal", False) and \
            self.K > 2 else 0

    def _all_subsets(self, feats, S, todo, counts, n_units, present, sizes, totals, best_g,
                     cat_info):
        """For a criterion that ignores the class order and more than two classes, every
        subset of the present levels sent left (rpart's search; with two classes the ordering
        by mean class finds the best subset already, Breiman et al. 1984, Theorem 4.5), in the
        (feature, node) pairs of ``todo`` (F S,) with at most ``SUBSET_SEARCH_LEVELS`` present
        levels. A subset strictly better than the ordered search's cut replaces it."""
        n_present = present.sum(axis=1)
        for n_lev in np.unique(n_present[todo]):
            rows = np.flatnonzero(todo & (n_present == n_lev))
            # the present levels of each pair, in code order; the last one always goes right,
            # so each split is met once (not also as its mirror image)
            levels = np.nonzero(present[rows])[1].reshape(rows.size, n_lev)
            bits = (np.arange(1, 2 ** (n_lev - 1))[:, None] >> np.arange(n_lev)) & 1  # (M, L)
            left = np.einsum("ml,rlk->rmk", bits.astype(np.float64),
                             counts[rows[:, None], levels])
            n_left = np.einsum("ml,rl->rm", bits, n_units[rows[:, None], levels])
            size = sizes[rows % S, None]
            right = totals[rows % S][:, None, :] - left
            good = self._goodness(left.reshape(-1, self.K), right.reshape(-1, self.K))
            good = good.reshape(rows.size, -1)
            good[(n_left < self.min_bucket) | (size - n_left < self.min_bucket)] = -np.inf
            best = np.argmax(good, axis=1)  # the first best subset, in binary order
            gain = good[np.arange(rows.size), best]
            j, s = feats[rows // S], rows % S
            better = gain > best_g[j, s]
            for r, jj, ss, m, g in zip(rows[better], j[better], s[better], best[better],
                                       gain[better]):
                best_g[jj, ss] = g
                i = int(np.flatnonzero(rows == r)[0])
                sent = levels[i][bits[m] == 1]
                cat_info[(int(jj), int(ss))] = _with_unseen(
                    sent, present[r, :self.cat_sizes[jj]], counts[r, sent].sum(), totals[ss])


    # -- missing values of numeric features ----------------------------------------------------
    # Sorting puts NaN last and the scans never cut between a value and NaN (x < NaN is False),
    # so the plain search sends missing values right. "Missing left" is the same search on a
    # row of -x (NaN still last): its left child is the real right one, and the split is
    # (feature, threshold, missing_left=True). The compiled scans compute goodness(left, right)
    # and every built-in criterion is symmetric in the two children (impurity decrease,
    # ordered twoing); the numpy path, also used by user criteria, swaps them explicitly.
    def _node_has_missing(self, layout, sizes):
        """(p, S): does the node have missing values on the feature (numeric ones only)?"""
        if self.per_node:  # found by the last search, for the features it drew
            return self._nan_in_node
        p = self.X.shape[1]
        out = np.zeros((p, sizes.size), dtype=bool)
        last = _starts(sizes) + sizes - 1
        out[self._mirror] = np.isnan(layout.xs[self._mirror[:, None], last[None, :]])
        return out

    def _search_missing_left(self, layout, totals, sizes, mask, best_g, best_thr):
        """Search the mirrored rows of the nodes with missing values; where sending them left
        is strictly better, replace the best cut and mark it in ``last_missing_left``."""
        p, S, m = self.X.shape[1], sizes.size, self._mirror.size
        todo = self._node_has_missing(layout, sizes)[self._mirror]
        if mask is not None:
            todo &= mask[self._mirror]
        if not todo.any():
            return
        rows = p + np.arange(m)
        good = np.full((p + m, S), -np.inf)
        thr = np.full((p + m, S), np.nan)
        if self._search is not None:
            self._numeric_compiled(layout, rows, sizes, totals, good, thr, todo)
        else:
            self._numeric_numpy(layout, rows, sizes, totals, good, thr, swap=True)
        good, thr = good[rows], thr[rows]
        good[~todo] = -np.inf
        jj, ss = np.nonzero(good > best_g[self._mirror])
        best_g[self._mirror[jj], ss] = good[jj, ss]
        best_thr[self._mirror[jj], ss] = thr[jj, ss]
        self.last_missing_left[self._mirror[jj], ss] = True


# The most levels of an unordered categorical predictor present in a node for which a
# criterion that ignores the class order tries every subset (2^(L-1) - 1 of them, as rpart);
# with more, the levels ordered by their mean class are cut as a numeric scale.
SUBSET_SEARCH_LEVELS = 12

# The largest table of the categories sent left that the compiled levels of a tree may hold
# (Splitter.compiled_categories; 64 MB: e.g. 33 categories at n = 10^6)
CATEGORY_TABLE_BYTES = 2 ** 26


class _CategoryCuts(dict):
    """``{(feature, node): sorted codes sent left}`` of the best cuts that
    :meth:`Splitter._categorical` found on a level, each made when first asked for (the node
    rule asks for the chosen feature of each node only)."""

    batch = None

    def __missing__(self, key):
        feats, S, seq, best, present, cum, totals, cat_sizes = self.batch
        j, s = key
        r = int(np.flatnonzero(feats == j)[0]) * S + s
        k = int(best[r])
        self[key] = _with_unseen(seq[r, :k + 1], present[r, :cat_sizes[j]], cum[r, k].sum(),
                                 totals[s])
        return self[key]


def _with_unseen(sent, present, in_left, total):
    """The sorted codes sent left: ``sent``, and the categories absent from the node
    (``present`` False) when the left child holds the majority of the node's weight
    (``in_left`` of ``total``): unseen categories follow the majority."""
    absent = np.flatnonzero(~present)
    if absent.size and in_left >= total.sum() - in_left:
        sent = np.concatenate([sent, absent])
    return np.sort(sent).astype(np.int64)


def word_bits(n_classes, n):
    """Bits of a class code and of a unit's index in a word of the presorted compiled levels
    (the rank, up to n, takes the bits above; see :meth:`Splitter.packed_root`)."""
    return max(1, (n_classes - 1).bit_length()), max(1, (n - 1).bit_length())


def pack_words(nb, XT, order, codes, n_classes):
    """(p, n) every unit's word (:func:`ordstat.trees._kernels.presorted.pack_rows`) in each
    feature's order ``order`` (argsort of its values, NaN last)."""
    cb, ub = word_bits(n_classes, order.shape[1])
    words = np.empty(order.shape, dtype=np.int64)
    nb.pack_rows(XT, np.arange(XT.shape[0]), 1.0, order, codes, 0, cb, ub, words)
    return words


def _category_means(counts):
    """Mean class code of each category (rows of weighted class ``counts``), from its class
    proportions (a category of one class gets exactly that code) and rounded to 9 decimals, so
    that means equal up to rounding tie, and the stable sort orders them by category code."""
    props = counts / counts.sum(axis=1, keepdims=True)
    # a sum along each row, the same whatever the number of rows (a matrix product's need not)
    return np.round(np.sum(props * np.arange(counts.shape[1]), axis=1), 9)


def rank_keys(X, mirror, n_jobs=None):
    """What the per-node search sorts the units by (the level loop's and the compiled
    levels'): ``ranks`` (p, n) int32, the rank of each value of ``X`` (n, p) among its
    feature's distinct values (0 the smallest; equal values, equal ranks; a missing value
    ``MISSING_RANK``, after every value as NaN sorts), so that ranks compare and sort as the
    values do; and ``neg_ranks``, the ranks of -x for the features with missing values
    (``mirror``; (0, n) when none: the search that sends the missing values left). 4 bytes a
    unit instead of 8, and one type of sort key with or without missing values: one compiled
    version of the search and of the levels. ``n_jobs``: threads sorting the features (see
    :func:`per_feature`)."""
    n, p = X.shape
    ranks = np.empty((p, n), dtype=np.int32)
    neg_ranks = np.zeros((p if len(mirror) else 0, n), dtype=np.int32)

    def feature(j):
        x = np.ascontiguousarray(X[:, j])
        order = np.argsort(x)  # NaN last
        xs = x[order]
        step = np.zeros(n, dtype=np.int32)
        step[1:] = xs[1:] > xs[:-1]  # (False next to NaN)
        ranks[j, order] = np.cumsum(step, dtype=np.int32)
        missing = np.isnan(x)
        if len(mirror) and missing.any():
            top = ranks[j, ~missing].max(initial=0)
            neg_ranks[j] = np.where(missing, MISSING_RANK, top - ranks[j])
        ranks[j, missing] = MISSING_RANK

    per_feature(feature, X.size, p, n_jobs)
    return ranks, neg_ranks


# From this many values, the features of a sample are sorted in threads (numpy's sorts release
# the GIL): at n = 10^6, p = 20, the one-at-a-time sorts were the serial part of a forest's fit
# before its trees grow (1.3 s on a 2-core machine).
THREADED_PREPARE = 1 << 20


def per_feature(work, size, p, n_jobs=None):
    """``work(j)`` for the features j < p of a sample of ``size`` values, in ``n_jobs``
    threads from :data:`THREADED_PREPARE` values (each writes its own rows), else one after
    the other."""
    if size < THREADED_PREPARE or effective_n_jobs(n_jobs) == 1 or p < 2:
        for j in range(p):
            work(j)
        return
    Parallel(n_jobs=min(effective_n_jobs(n_jobs), p), require="sharedmem")(
        delayed(work)(j) for j in range(p))


def _missing_features(XT, cat_sizes):
    """Numeric features (rows of ``XT``) with at least one missing value."""
    return np.flatnonzero((cat_sizes == 0) & np.isnan(XT).any(axis=1)).astype(np.int64)


def _send_missing(x, go_left, seg, splits):
    """Units with a missing value on their node's split feature go to the side the split
    learned (a split without a learned side never meets one at fitting)."""
    miss = np.flatnonzero(np.isnan(x))
    if miss.size:
        left = np.array([sp is not None and bool(sp.missing_left) for sp in splits])
        go_left[miss] = left[seg[miss]]
