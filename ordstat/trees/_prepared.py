"""A learning sample prepared once for the many trees of an ensemble.

The module structure is the following:

- :func:`prepare`: the ensemble's validated sample, its missing values and, where the trees
  presort, each feature's words of rank, unit and class code, else each value's rank among its
  feature's distinct values; no transposed copy unless asked (:meth:`PreparedData.transposed`);
- :class:`PreparedData`: those plain read-only arrays, shared by the trees' threads;
- :class:`Sample`: one tree's rows of it, grown as from ``X[rows]``.

Why, and what each tree takes, is explained in the documentation, "How the trees are grown"
(docs/trees_engine.md, "Prepared samples").
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np

from . import _fast
from ._splitter import _unit_dtype, per_feature, rank_keys, word_bits

__all__ = ["PreparedData", "Sample", "prepare"]


@dataclass(frozen=True)
class PreparedData:
    """Validated numeric features ``X`` (n, p) and class codes, with what the split search
    derives from them (see the module docstring)."""

    X: np.ndarray  # (n, p) float64, C-contiguous
    codes: np.ndarray  # (n,) int64, 0..n_classes-1
    n_classes: int
    mirror: np.ndarray  # numeric features with missing values
    order: np.ndarray | None  # (p, n) each feature's order, presorting trees without words
    ranks: np.ndarray | None  # (p, n) int32 dense ranks, for trees sorting per node
    neg_ranks: np.ndarray | None  # the ranks of -x (see _splitter.rank_keys)
    words: np.ndarray | None = None  # (p, n) int64 words of order, for presorting trees
    # the C-contiguous transposed features, once made (see transposed)
    _made: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def XT(self):
        """(p, n) the features transposed: a view of ``X`` (for shapes and single values; see
        :meth:`transposed` for the C-contiguous copy that the split search reads)."""
        return self.X.T

    def transposed(self):
        """(p, n) C-contiguous read-only copy of ``X.T``, made once, when first asked for
        (by the trees grown by the level loop, which send units by their values)."""
        with _LOCK:
            if "XT" not in self._made:
                self._made["XT"] = _read_only(np.ascontiguousarray(self.X.T))
            return self._made["XT"]

    @property
    def presorted(self):
        """Whether each feature's order over all units is held (as ``order`` or ``words``)."""
        return self.order is not None or self.words is not None

    def unit_order(self):
        """(p, n) each feature's order over all units (for presorting trees grown by the level
        loop): ``order``, or the units of the ``words`` (which are in that order)."""
        if self.order is not None:
            return self.order
        n = self.X.shape[0]
        cb, ub = word_bits(self.n_classes, n)
        return ((self.words >> cb) & ((1 << ub) - 1)).astype(_unit_dtype(n))


@dataclass(frozen=True)
class Sample:
    """The rows (sorted, distinct) of a prepared sample that one tree is grown on."""

    data: PreparedData
    rows: np.ndarray


def prepare(X, codes, n_classes, presort, n_jobs=None):
    """:class:`PreparedData` of numeric ``X`` and class ``codes``; ``presort``: the trees keep
    every feature presorted (store each feature's order). Categorical columns come coded by
    the ensemble (``ColumnCoding`` of :mod:`ordstat._core.predictors`); the trees split the
    nominal ones as categories (their ``cat_sizes``; a presorted row of one holds the units in
    code order), the ordered ones as numbers.

    Memory (a forest at n = 10^6 holds these once for all its trees): each feature is sorted
    on its own, so that no (p, n) int64 order exists beside the result; with the words, the
    order is not kept (:meth:`PreparedData.unit_order` reads it back from them). ``n_jobs``:
    threads sorting the features of a large sample (:func:`._splitter.per_feature`)."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    n, p = X.shape
    mirror = np.flatnonzero([np.isnan(X[:, j]).any() for j in range(p)]).astype(np.int64)
    codes = np.asarray(codes, dtype=np.int64)
    nb = _fast.kernels() if presort else None
    keep_order = presort and nb is None  # the level loop's presorted layout, without numba
    order = np.empty((p, n), dtype=_unit_dtype(n)) if keep_order else None
    words = np.empty((p, n), dtype=np.int64) if nb is not None else None
    cb, ub = word_bits(n_classes, n)
    def feature(j):
        x = np.ascontiguousarray(X[:, j])
        row = np.argsort(x)
        if keep_order:
            order[j] = row
        if words is not None:  # row j of the words (pack_rows writes row row0 + 0)
            nb.pack_rows(x[None, :], np.zeros(1, dtype=np.int64), 1.0, row[None, :], codes, j,
                         cb, ub, words)

    per_feature(feature, X.size, p if keep_order or words is not None else 0, n_jobs)
    # ranks, for trees sorting per node
    ranks, neg_ranks = (None, None) if presort else rank_keys(X, mirror, n_jobs)
    return PreparedData(X=_read_only(X), codes=_read_only(codes), n_classes=int(n_classes),
                        mirror=mirror, order=_read_only(order), ranks=_read_only(ranks),
                        neg_ranks=_read_only(neg_ranks), words=_read_only(words))


_LOCK = threading.Lock()  # PreparedData.transposed: one copy, whichever tree asks first


def _read_only(a):
    """A read-only view of ``a`` (None stays None). joblib hands large arrays to worker
    processes memory-mapped read-only, and numba compiles one version of a kernel per array
    type: read-only everywhere, the compiled kernels see one type in every process (a warm-up
    on small data compiles the version the large data use)."""
    return None if a is None else _fast.read_only(a)

