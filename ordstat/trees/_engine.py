"""Which engine grows a tree: chosen once per tree (:func:`choose`, by the builder).

The split search runs the criterion's compiled scan where numba imports and the criterion has
one (the built-in criteria), numpy otherwise (user criteria, or no numba; see
:mod:`ordstat.trees._fast`). With the compiled scan and few features drawn in each node
(``max_features * PER_NODE_RATIO <= p``), or fewer than all features drawn in fully grown trees
of at least ``PER_NODE_ROWS`` rows, each node's units are sorted by the features drawn for it
instead of keeping every feature presorted. Where the tree allows it, it is then grown by one
compiled call, else by the level loop (docs/trees_engine.md, "The engine").

A tree with rpart's surrogate splits (``missing="surrogate"``) is grown node by node in numpy
by ``ordstat.trees._grow_surrogate.grow`` whatever its engine; its one-feature searches take the
engine this module chooses for them (compiled scan or numpy).

Every engine grows the same trees (the tests compare them node for node), so tests and
benchmarks force parts of the choice with :func:`forced`: a context, which reaches the trees
that forests and bagging grow in this thread (``n_jobs=None``).
"""

from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass

from . import _fast

__all__ = ["Engine", "choose", "forced", "predict_kernels", "PER_NODE_RATIO", "PER_NODE_ROWS",
           "NUMPY_SORT_MIN"]

# Sort per node (instead of presorting every feature) when max_features * PER_NODE_RATIO <= p:
# per node up to 8 of 50 features, where moving every presorted feature at each level costs
# more than sorting the few drawn (benchmarks/bench_ensemble.py compares the two).
PER_NODE_RATIO = 6
# ... and from this many rows whenever fewer than all features are drawn in a fully grown tree
# (the compiled levels sorting per node): presorting holds every unit's word for every feature,
# 8 bytes a unit and feature shared by the trees plus as many per growing tree (0.26 GB for
# two trees and the sample at n = 10^6, p = 20), where sorting per node holds 4-byte ranks and
# one drawn feature's sorted copy, in about the same time (benchmarks/bench_ensemble.py
# memory_rows compares them; the changelog has the measurements).
PER_NODE_ROWS = 500_000
# The level loop sorting per node sorts nodes of at least this many units by numpy's argsort
# (vectorised, faster on long arrays), the many small ones in one compiled loop.
NUMPY_SORT_MIN = 300


@dataclass(frozen=True)
class Engine:
    """The engine of one tree (see the module docstring)."""

    numba: bool  # the compiled kernels run (numba imports, not forced off)
    scan: bool  # the criterion's compiled scan searches the splits
    per_node: bool  # each node's units sorted by its drawn features (with ``scan``)
    levels: bool  # one compiled call per tree where the tree allows it (with ``scan``)
    numpy_sort_min: int  # see NUMPY_SORT_MIN


_FORCED = contextvars.ContextVar("ordstat_tree_engine", default={})


@contextlib.contextmanager
def forced(**parts):
    """Force parts of the engine of the trees grown inside: ``numba`` (False: numpy only),
    ``per_node`` (True or False instead of the ratio rule), ``levels`` (False: the level loop)
    or ``numpy_sort_min``; nested contexts add to the outer ones. For tests and benchmarks."""
    unknown = set(parts) - {"numba", "per_node", "levels", "numpy_sort_min"}
    if unknown:
        raise TypeError(f"forced() got unknown engine parts {sorted(unknown)}.")
    token = _FORCED.set({**_FORCED.get(), **parts})
    try:
        yield
    finally:
        _FORCED.reset(token)


def predict_kernels():
    """The compiled walk of fitted trees (:mod:`ordstat.trees._kernels.predict`), or None
    without numba or inside ``forced(numba=False)`` (tests, benchmarks)."""
    if not _FORCED.get().get("numba", True):
        return None
    nb = _fast.kernels()
    return None if nb is None else nb.predict


def choose(criterion, max_features, p, n_rows=None, fully_grown=False):
    """The :class:`Engine` of a tree with this criterion, drawing ``max_features`` (None: all)
    of ``p`` features in each node; ``n_rows``: the rows of its sample (None: unknown),
    ``fully_grown``: grown without a complexity bound (cp < 0, no ``max_leaf_nodes``)."""
    force = _FORCED.get()
    numba = force.get("numba", True) and _fast.kernels() is not None
    scan = numba and _fast.level_search(criterion) is not None
    large = (n_rows is not None and n_rows >= PER_NODE_ROWS and fully_grown
             and max_features is not None and max_features < p)
    rule = max_features is not None and (max_features * PER_NODE_RATIO <= p or large)
    return Engine(numba=numba, scan=scan, per_node=scan and force.get("per_node", rule),
                  levels=scan and force.get("levels", True),
                  numpy_sort_min=force.get("numpy_sort_min", NUMPY_SORT_MIN))
