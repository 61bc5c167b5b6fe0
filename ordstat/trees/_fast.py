"""Access to the compiled (numba) split search.

The module structure is the following:

- :func:`kernels`: the kernels, numba imported on first use (numpy and a warning without it);
- :func:`level_search`, :func:`level_grow`, :func:`presorted_level`: a criterion's compiled
  level search and compiled levels, or None without a scan (user criteria: the numpy path);
- :func:`read_only`, :func:`compiled`: one argument type per kernel, so one compilation serves
  every kind of fit (:func:`ordstat.compile_kernels` compiles them).

Why the compiled and the numpy paths choose the same splits, and the on-disk cache, are
explained in the documentation, "How the trees are grown" (docs/trees_engine.md).
"""

from __future__ import annotations

from .._core.warnings import warn as _warn

import numpy as np

__all__ = ["kernels", "level_search", "level_grow", "presorted_level", "compiled", "read_only"]

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
