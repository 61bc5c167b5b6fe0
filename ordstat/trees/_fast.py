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
"""

from __future__ import annotations

from .._core.warnings import warn as _warn

__all__ = ["kernels", "level_search", "level_grow", "presorted_level", "compiled"]

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
    is."""
    if level_search(criterion) is None:
        return None
    if criterion.scan not in _GROWS:
        _GROWS[criterion.scan] = kernels().make_level_grow(*criterion.scan)
    return _GROWS[criterion.scan]


def presorted_level(criterion):
    """The compiled level of the growth of presorting trees for a criterion (see
    :func:`ordstat.trees._kernels.presorted.make_presorted_level`), or None where
    :func:`level_search` is."""
    if level_search(criterion) is None:
        return None
    if criterion.scan not in _PRESORTED:
        _PRESORTED[criterion.scan] = kernels().make_presorted_level(*criterion.scan)
    return _PRESORTED[criterion.scan]


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
