"""The ensembles' prediction: the votes and class proportions of their trees summed over the
trees by the compiled walk (:mod:`ordstat.trees._kernels.predict`), in threads that share the
input and the fitted trees.

Each thread takes a block of rows through every tree, the trees in their order, so that each
row's sums are added in the same order whatever the number of jobs, the order in which the
ensembles summed the trees' outputs before (``proba.mean(axis=0)``, :func:`vote_table`):
the results are the same numbers. A tree's walk arrays are made in the thread that uses them,
one tree at a time, so that prediction does not hold a copy of a large forest (they cost a few
percent of the walk: 25 microseconds for a tree of 5,000 nodes). A thread takes all its rows
through a tree before the next tree, not blocks of rows through every tree: the walk's time per
row does not grow with the rows (2,000 to 50,000 rows of 20 features), and the nodes of one
tree stay in the processor's cache."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
from joblib import effective_n_jobs

from ..trees import OrdinalTreeClassifier
from ..trees import _engine
from ..trees._tree import Tree, walk_rows
from ._common import ConstantClassifier

__all__ = ["tree_totals"]

# rows per thread at least: below this the work of a thread is a few milliseconds
_MIN_ROWS = 4096


def tree_totals(estimators, X, n_classes, votes=False, proba=False, n_jobs=None):
    """Per row, the trees' votes for each class (``votes``) and their class proportions summed
    over the trees (``proba``), each (n, n_classes) or None when not asked for; None instead
    of the pair when an estimator is neither an ordinal tree fitted on the class codes
    0..n_classes-1 nor a :class:`ConstantClassifier`, or without numba (the caller then asks
    each estimator)."""
    kernels = _engine.predict_kernels() if all(_walkable(e, n_classes) for e in estimators) \
        else None
    if kernels is None:
        return None
    X = walk_rows(X)
    n = X.shape[0]
    out = [np.zeros((n, n_classes)) if wanted else None for wanted in (votes, proba)]
    n_chunks = max(1, min(effective_n_jobs(n_jobs), n // _MIN_ROWS))
    bounds = np.linspace(0, n, n_chunks + 1).astype(np.int64)
    blocks = [(X[a:b], *(o if o is None else o[a:b] for o in out))
              for a, b in zip(bounds[:-1], bounds[1:])]
    if n_chunks == 1:
        _add_trees(kernels, estimators, *blocks[0])
    else:
        # threads: they write their own rows of the shared totals, and the compiled walk
        # releases the GIL. A pool of this call's own, not joblib's: joblib's threads took
        # 12 to 27 ms to start and join (median of 20, 2 cores), against 0.2 to 1.4 ms here,
        # where the walk of 10^5 rows by 30 trees takes 70 ms a thread
        with ThreadPoolExecutor(n_chunks) as pool:
            for done in [pool.submit(_add_trees, kernels, estimators, *block)
                         for block in blocks]:
                done.result()
    return tuple(out)


def _walkable(est, n_classes):
    if isinstance(est, ConstantClassifier):
        return True
    return (isinstance(est, OrdinalTreeClassifier) and isinstance(getattr(est, "tree_", None),
                                                                  Tree)
            and np.array_equal(est.classes_, np.arange(n_classes)))


def _add_trees(kernels, estimators, X, votes, proba):
    """Add every tree's vote and class proportions to the rows of ``X``, tree after tree."""
    for est in estimators:
        if isinstance(est, ConstantClassifier):
            for out in (votes, proba):
                if out is not None:
                    out[:, est.code] += 1.0
            continue
        tree = est.tree_
        walk = tree.walk_arrays()
        if votes is not None:
            kernels.add_votes(walk, *_leaf_classes(tree), X, votes)
        if proba is not None:
            kernels.add_proba(walk, *_leaf_shares(tree), X, proba)


_NONE = np.zeros((0, 0))
_EXACT = 2.0 ** 40  # whole numbers below this: sums and products of them are exact


def _leaf_classes(tree):
    """(yval, value, loss) for :func:`add_votes`: the stored classes of the nodes, or where a
    compact tree computes them (:class:`~ordstat.trees._tree.DerivedTree`) from whole-number
    counts and losses, the counts and the loss, for the walk to compute the classes of the
    leaves it reaches only (exact, so the same classes)."""
    yval = tree.__dict__.get("yval")
    loss = getattr(tree, "_loss", None)
    if yval is None and loss is not None and tree.value.dtype.kind in "iu" \
            and _whole(loss) and np.abs(loss).max() * tree.value.max() * loss.shape[1] < _EXACT:
        return np.zeros(0, dtype=np.int64), tree.value, np.ascontiguousarray(loss)
    return np.asarray(tree.yval, dtype=np.int64), _NONE, _NONE


def _leaf_shares(tree):
    """(value, total, single) for :func:`add_proba`: the leaf's class proportions are
    ``value / value.sum(axis=1)`` as :meth:`OrdinalTreeClassifier.predict_proba` computes
    them (float32 for float32 counts); whole-number counts are summed exactly by the walk."""
    value = tree.value
    total = np.zeros(0) if value.dtype.kind in "iu" else np.asarray(value.sum(axis=1),
                                                                     dtype=np.float64)
    return value, total, value.dtype == np.float32


def _whole(a):
    return bool(np.all(np.isfinite(a)) and np.array_equal(a, np.trunc(a)))
