"""A learning sample prepared once for the many trees of an ensemble.

A forest or bagging fits every tree on rows of the same validated sample. Fitting each tree
through :meth:`OrdinalTreeClassifier.fit` would copy those rows, transpose them for the split
search, look again for missing values and, for trees that keep every feature presorted, sort
every feature again. :func:`prepare` does this once for the ensemble: the transposed features,
the numeric features with missing values (and their negation, for the "missing left" search)
and, where the trees presort, each feature's order over all units, also as the words of rank,
unit and class code that the compiled levels move (:func:`ordstat.trees._splitter.pack_words`),
else (without missing
values) each value's rank among its feature's distinct values, which the compiled levels sort
instead of the values (two passes of a radix sort on small ints instead of a sort of doubles,
and half the memory to gather); a tree then takes its rows
(:class:`Sample`) and restricts these to them. A tree's units keep the order of the rows, as
in ``X[rows]``, and the presorted order restricted to the rows sorts them, so the trees are
those grown from ``X[rows]`` (ties between equal values may be ordered otherwise, which no cut
sees).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _fast
from ._splitter import _missing_features, _unit_dtype, pack_words

__all__ = ["PreparedData", "Sample", "prepare"]


@dataclass(frozen=True)
class PreparedData:
    """Validated numeric features ``X`` (n, p) and class codes, with what the split search
    derives from them (see the module docstring)."""

    X: np.ndarray  # (n, p) float64
    XT: np.ndarray  # (p, n) float64, C-contiguous
    codes: np.ndarray  # (n,) int64, 0..n_classes-1
    n_classes: int
    mirror: np.ndarray  # numeric features with missing values
    negXT: np.ndarray | None  # -XT where mirror is not empty
    order: np.ndarray | None  # (p, n) each feature's order, for presorting trees
    ranks: np.ndarray | None  # (p, n) int32 dense ranks, for trees sorting per node
    words: np.ndarray | None = None  # (p, n) int64 words of order, for presorting trees


@dataclass(frozen=True)
class Sample:
    """The rows (sorted, distinct) of a prepared sample that one tree is grown on."""

    data: PreparedData
    rows: np.ndarray


def prepare(X, codes, n_classes, presort):
    """:class:`PreparedData` of numeric ``X`` and class ``codes``; ``presort``: the trees keep
    every feature presorted (store each feature's order). Categorical columns come coded by
    the ensemble (``ColumnCoding`` of :mod:`ordstat._core.predictors`); the trees split the
    nominal ones as categories (their ``cat_sizes``: such trees grow by the level loop), the
    ordered ones as numbers."""
    X = np.asarray(X, dtype=np.float64)
    XT = np.ascontiguousarray(X.T)
    mirror = _missing_features(XT, np.zeros(XT.shape[0], dtype=np.int64))
    order = np.argsort(XT, axis=1)
    codes = np.asarray(codes, dtype=np.int64)
    nb = _fast.kernels() if presort else None
    words = None if nb is None else pack_words(nb, XT, order, codes, n_classes)
    return PreparedData(X=X, XT=_read_only(XT), codes=_read_only(codes),
                        n_classes=int(n_classes), mirror=mirror,
                        negXT=_read_only(-XT if mirror.size else None),
                        order=_read_only(order.astype(_unit_dtype(X.shape[0])) if presort
                                         else None),
                        ranks=_read_only(None if presort or mirror.size
                                         else _dense_ranks(XT, order)),
                        words=_read_only(words))


def _read_only(a):
    """A read-only view of ``a`` (None stays None). joblib hands large arrays to worker
    processes memory-mapped read-only, and numba compiles one version of a kernel per array
    type: read-only everywhere, the compiled kernels see one type in every process (a warm-up
    on small data compiles the version the large data use)."""
    if a is None:
        return None
    view = a.view()
    view.flags.writeable = False
    return view


def _dense_ranks(XT, order):
    """(p, n) int32: the rank of each value among the distinct values of its feature (0 the
    smallest; equal values, equal ranks), so that ranks compare as the values do."""
    xs = np.take_along_axis(XT, order, axis=1)
    step = np.zeros(XT.shape, dtype=np.int32)
    step[:, 1:] = xs[:, 1:] > xs[:, :-1]
    ranks = np.empty(XT.shape, dtype=np.int32)
    np.put_along_axis(ranks, order, np.cumsum(step, axis=1, dtype=np.int32), axis=1)
    return ranks
