"""Access to the compiled (numba) split search.

For a criterion with a ``scan`` (the built-in ones), the split search runs one compiled loop
per (feature, node) instead of one numpy pass per class and per arithmetic step, updating the
criterion's sums as each unit moves to the left child. For Gini, generalized Gini with integer
costs, the ordinal impurity and ordered twoing these sums are exact with integer weights, so the
compiled and the numpy path choose the same splits; otherwise (fractional weights, entropy's
logarithms) they may break exactly tied candidates differently. This is what makes growing a
tree faster than scikit-learn and rpart (see ``benchmarks/bench_trees.py``).

Criteria without a scan (user criteria) always go through the numpy path, so the registry
contract holds whether or not numba is installed. numba is imported on first use, so that
``import ordstat`` does not pay for it; when it cannot be imported the split search runs in
numpy and a warning says so. Any other failure of the kernels is an error, not a silent
fallback. Compiled functions are cached on disk (numba's cache under a file lock, see
:class:`ordstat.trees._kernels.cache.LockedCache`): the JIT cost is paid once.
"""

from __future__ import annotations

from .._core.warnings import warn as _warn

__all__ = ["kernels", "level_search", "level_grow", "presorted_level", "compiled",
           "compile_kernels"]

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


def compile_kernels(criteria=None, verbose=False):
    """Compile the split-search kernels now (or load them from numba's on-disk cache).

    The first tree, forest or bagging fit with a criterion compiles its kernels (several
    seconds per criterion; once per installation, then read from the cache). This grows small
    trees and ensembles on the paths that compile their own kernels (presorted and per-node
    search, ranks, weights, missing values), for example while building a container image or
    before timing.

    Parameters
    ----------
    criteria : list of str, optional
        Registered criterion names; default: every built-in one. Criteria without a compiled
        scan (user criteria) have nothing to compile and are left out of the result.
    verbose : bool, default=False
        Print each criterion's time.

    Returns
    -------
    list of str
        The criteria compiled (none without numba).

    Raises
    ------
    ValueError
        A name that is not a registered criterion.
    """
    import time

    import numpy as np

    from ..ensemble import OrdinalBaggingClassifier, OrdinalRandomForestClassifier
    from ._classes import OrdinalTreeClassifier
    from .criteria import BUILTIN, get_criterion

    if kernels() is None:
        return []
    names = sorted(BUILTIN) if criteria is None else list(criteria)
    for name in names:
        get_criterion(name)  # an unknown name: its ValueError
    names = [name for name in names if get_criterion(name).scan is not None]
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 4))
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    weights = rng.uniform(0.5, 2.0, size=120)
    X_missing = np.where(rng.random(X.shape) < 0.1, np.nan, X)
    for name in names:
        start = time.perf_counter()
        for data, w in ((X, None), (X, weights), (X_missing, None)):
            OrdinalTreeClassifier(criterion=name, xval=0).fit(data, y, sample_weight=w)
            OrdinalTreeClassifier(criterion=name, xval=0, cp=-1.0, max_features=1,
                                  random_state=0).fit(data, y, sample_weight=w)
        for data in (X, X_missing):
            OrdinalRandomForestClassifier(n_estimators=2, criterion=name, max_features=1,
                                          oob_score=False, random_state=0).fit(data, y)
            tree = OrdinalTreeClassifier(criterion=name, min_split=2, cp=-1.0, xval=0)
            OrdinalBaggingClassifier(tree, n_estimators=2, oob_score=False,
                                     random_state=0).fit(data, y)
        if verbose:
            print(f"{name}: {time.perf_counter() - start:.1f} s", flush=True)
    return names
