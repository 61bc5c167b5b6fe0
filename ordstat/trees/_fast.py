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

import contextlib
import sys

from .._core.warnings import warn as _warn


__all__ = ["kernels", "level_search", "level_grow", "presorted_level",
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

            _listen_for_compiles()
            _KERNELS = _kernels
    return _KERNELS or None


# what a process prints (once, on standard error) when it starts compiling a tree kernel,
# i.e. when numba's cache holds no machine code for it (a fresh installation or cache)
COMPILE_NOTICE = ("ordstat: compiling the tree kernels of this fit once (about 5-20 s of "
                  "CPU); later fits load them from numba's cache "
                  "(ordstat.compile_kernels() compiles them ahead of time)")
_NOTICE = {"given": False, "quiet": False}


def _listen_for_compiles():
    """Print :data:`COMPILE_NOTICE` when numba starts compiling one of ordstat's kernels: its
    ``numba:compile`` event is raised only when the on-disk cache has no machine code for
    the kernel, just before compiling, so nothing is printed when the cache is used. As the
    progress bars, only where a person reads standard error (:func:`_read_by_a_person`)."""
    from numba.core import event

    class Notice(event.Listener):
        def on_start(self, ev):
            dispatcher = (ev.data or {}).get("dispatcher")
            module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
            if module.startswith("ordstat.") and not (_NOTICE["given"] or _NOTICE["quiet"]):
                _NOTICE["given"] = True
                if _read_by_a_person():
                    print(COMPILE_NOTICE, file=sys.stderr, flush=True)

        def on_end(self, ev):
            pass

    event.register("numba:compile", Notice())


def _read_by_a_person():
    """Standard error is a terminal (the rule of ordstat's progress bars), or the process is
    a Jupyter kernel (which shows it under the cell); not a pipe, a file or a test's capture,
    whose output other programs read."""
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty()) or "ipykernel" in sys.modules


@contextlib.contextmanager
def compile_notice_off():
    """No :data:`COMPILE_NOTICE` inside (:func:`ordstat.compile_kernels` reports itself)."""
    quiet = _NOTICE["quiet"]
    _NOTICE["quiet"] = True
    try:
        yield
    finally:
        _NOTICE["quiet"] = quiet


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


def level_grow(criterion, categorical=False):
    """The compiled growth of a forest's tree, level after level, for a criterion (see
    :func:`ordstat.trees._kernels.levels.make_level_grow`; ``categorical``: its kernel for
    trees with unordered categorical features, compiled apart), or None where
    :func:`level_search` is; called with the types it is compiled for (see the module
    docstring)."""
    if level_search(criterion) is None:
        return None
    key = (criterion.scan, criterion.exact_sums, categorical)
    if key not in _GROWS:
        kernel = kernels().make_level_grow(*criterion.scan, exact_sums=criterion.exact_sums,
                                           categorical=categorical)

        def grow(sample, rules, tree, cur, nxt, n_nodes, n_rows, rng, k):
            # the sample is only read: read-only, as a prepared sample's (the sort keys of a
            # forest's sample are int32 ranks, the one other type, see _prepared)
            sample = type(sample)(*(read_only(a) for a in sample))
            return kernel(sample, rules, tree, cur, nxt, n_nodes, n_rows, rng, k)

        grow.kernel = kernel
        _GROWS[key] = grow
    return _GROWS[key]


def presorted_level(criterion, categorical=False):
    """The compiled growth of a presorting tree, level after level, for a criterion (see
    :func:`ordstat.trees._kernels.presorted.make_presorted_level`; ``categorical`` as for
    :func:`level_grow`), or None where :func:`level_search` is; called with the types it is
    compiled for (see the module docstring)."""
    if level_search(criterion) is None:
        return None
    key = (criterion.scan, categorical)
    if key not in _PRESORTED:
        kernel = kernels().make_presorted_level(*criterion.scan, categorical=categorical)

        def presorted(sample, rules, tree, words, P, cur_sizes, cur_nodes, out, n_nodes, m,
                      rng, k):
            # the features read-only, as a prepared sample's (the level writes sample.flag)
            if sample.X.flags.writeable:
                sample = sample._replace(X=read_only(sample.X))
            return kernel(sample, rules, tree, words, P, cur_sizes, cur_nodes, out, n_nodes, m,
                          rng, k)

        presorted.kernel = kernel
        _PRESORTED[key] = presorted
    return _PRESORTED[key]


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
