"""Access to the compiled (numba) split search.

For a criterion with a ``scan`` (the built-in ones), the split search runs one compiled loop
per (feature, node) instead of one numpy pass per class and per arithmetic step, updating the
criterion's sums as each unit moves to the left child. For Gini, generalized Gini with integer
costs, the ordinal impurity and ordered twoing these sums are exact with integer weights, so the
compiled and the numpy path choose the same splits; otherwise (fractional weights, entropy's
logarithms) they may break exactly tied candidates differently. ``benchmarks/bench_trees.py``
times the trees against scikit-learn's and rpart's.

Criteria without a scan (user criteria) always go through the numpy path, so the registry
contract holds whether or not numba is installed. numba is imported on first use, so that
``import ordstat`` does not pay for it; when it cannot be imported the split search runs in
numpy and a warning says so. Any other failure of the kernels is an error, not a silent
fallback. Compiled functions are cached on disk (numba's cache under a file lock, see
:class:`ordstat.trees._kernels.cache.LockedCache`): the JIT cost is paid once.

numba compiles one machine code per argument type, and a read-only array, a strided view or an
int32 array is another type than a writable C-contiguous int64 one. The compiled levels are the
largest kernels, one per criterion, so their callers here give them one type per argument
whatever the fit holds (:func:`read_only` views of what they only read, C-contiguous keys):
one compilation serves a tree, a forest's prepared sample and a bagged tree alike, and
:func:`ordstat.compile_kernels` compiles what the fits use.
"""

from __future__ import annotations

from .._core.warnings import warn as _warn

import numpy as np

__all__ = ["kernels", "predict_kernels", "level_search", "level_grow", "presorted_level",
           "compiled", "read_only"]

_KERNELS = None
_SEARCHES = {}
_GROWS = {}
_PRESORTED = {}
_COMPILED = {}


def kernels():
    """The compiled module (``make_level_search``, ``level_partition``), or None (with a
    warning, once) when numba cannot be imported."""
    global _KERNELS
    if _KERNELS is None:
        try:
            import numba  # noqa: F401
        except ImportError as exc:
            _warn(
                f"numba could not be imported ({exc}); ordstat's tree split search falls back "
                "to numpy, which gives the same trees more slowly.", RuntimeWarning)
            _KERNELS = False
        else:
            from . import _kernels

            _KERNELS = _kernels
    return _KERNELS or None


def predict_kernels():
    """The compiled walk of fitted trees (:mod:`ordstat.trees._kernels.predict`), or None
    without numba or inside the engine's ``forced(numba=False)`` (tests, benchmarks)."""
    from ._engine import _FORCED

    if not _FORCED.get().get("numba", True):
        return None
    nb = kernels()
    return None if nb is None else nb.predict


def level_search(criterion):
    """The compiled level search of a criterion, or None (no numba, or no ``scan``)."""
    if criterion.scan is None:
        return None
    nb = kernels()
    if nb is None:
        return None
    if criterion.scan not in _SEARCHES:
        _SEARCHES[criterion.scan] = nb.make_level_search(*criterion.scan)
    return _SEARCHES[criterion.scan]


def level_grow(criterion):
    """The compiled level of the forests' tree growth for a criterion (see
    :func:`ordstat.trees._kernels.levels.make_level_grow`), or None where :func:`level_search`
    is; called with the types it is compiled for (see the module docstring)."""
    if level_search(criterion) is None:
        return None
    if criterion.scan not in _GROWS:
        kernel = kernels().make_level_grow(*criterion.scan)

        def grow(sample, rules, tree, level, keys, kth, out):
            # the sample is only read: read-only, as a prepared sample's (the sort keys of a
            # forest's sample are int32 ranks, the one other type, see _prepared)
            sample = type(sample)(*(read_only(a) for a in sample))
            return kernel(sample, rules, tree, level, keys, np.ascontiguousarray(kth), out)

        grow.kernel = kernel
        _GROWS[criterion.scan] = grow
    return _GROWS[criterion.scan]


def presorted_level(criterion):
    """The compiled level of the growth of presorting trees for a criterion (see
    :func:`ordstat.trees._kernels.presorted.make_presorted_level`), or None where
    :func:`level_search` is; called with the types it is compiled for (see the module
    docstring)."""
    if level_search(criterion) is None:
        return None
    if criterion.scan not in _PRESORTED:
        kernel = kernels().make_presorted_level(*criterion.scan)

        def presorted(sample, rules, tree, level, keys, kth, out):
            # the features read-only, as a prepared sample's (the level writes sample.flag)
            sample = sample._replace(X=read_only(sample.X))
            return kernel(sample, rules, tree, level, keys, np.ascontiguousarray(kth), out)

        presorted.kernel = kernel
        _PRESORTED[criterion.scan] = presorted
    return _PRESORTED[criterion.scan]


def read_only(a):
    """``a`` as a read-only array (a view, never a copy) for a kernel that only reads it:
    numba types read-only and writable arrays apart, and prepared samples are read-only."""
    if not a.flags.writeable:
        return a
    view = a.view()
    view.flags.writeable = False
    return view


def compiled(fn, *helpers):
    """``fn`` (a plain loop over arrays) compiled, calling the plain functions ``helpers``
    compiled too; without numba, ``fn`` itself (the same results, in Python)."""
    if fn not in _COMPILED:
        nb = kernels()
        if nb is None:
            _COMPILED[fn] = fn
        else:
            for helper in helpers:
                nb.register_jitable(helper)
            _COMPILED[fn] = nb.jit(fn)
    return _COMPILED[fn]
