"""joblib's ``Parallel`` with the warnings of worker processes passed on to the caller.

A task that joblib runs in another process (loky, multiprocessing, a Dask worker's main
thread) warns in that process: the caller's filters, ``warnings.catch_warnings`` and
``pytest.warns`` never see it, and with ``n_jobs=1`` the same fit warns where the user sees
it. :func:`parallel` runs each such task with its warnings recorded and raises them again in
the calling thread, at their own file and line, as each result arrives, so that the warnings
of a fit are the same whatever ``n_jobs`` (the filters of the caller decide which are shown).
A task running in a thread of this process warns as it runs: its warnings are this
process's already, and recording them would change the filters of every thread
(``warnings.catch_warnings`` is process-wide before Python 3.14)."""

from __future__ import annotations

import os
import threading
import warnings

from joblib import Parallel

__all__ = ["parallel"]


def parallel(tasks, *, n_jobs=None, lazy=False, **options):
    """The results of the joblib ``delayed`` ``tasks``, in order, run by
    ``joblib.Parallel(n_jobs=n_jobs, **options)`` (``options``: ``prefer``, ``require``, ...),
    with the warnings of tasks run in other processes raised again here (module docstring).
    ``lazy``: an iterator over the results instead of the list (each result's warnings are
    raised when it is reached)."""
    recorded = ((_Recorded(function, os.getpid()), args, kwargs)
                for function, args, kwargs in tasks)
    results = _passed_on(Parallel(n_jobs=n_jobs, return_as="generator", **options)(recorded))
    return results if lazy else list(results)


class _Recorded:
    """A task's function that, in another process's main thread, also returns the warnings it
    raised: ``(result, [(category, text, filename, lineno), ...])``."""

    def __init__(self, function, parent_pid):
        self.function, self.parent_pid = function, parent_pid

    def __call__(self, *args, **kwargs):
        if os.getpid() == self.parent_pid or threading.current_thread() is not \
                threading.main_thread():
            return self.function(*args, **kwargs), ()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")  # every one: the caller's filters decide
            result = self.function(*args, **kwargs)
        return result, [(w.category, str(w.message), w.filename, w.lineno) for w in caught]


# per file, the registry of warnings raised again from it: the "default" action then shows a
# warning once per location, as the module's own registry does when it warns in this process
_REGISTRIES: dict = {}


def _passed_on(results):
    for result, caught in results:
        for category, text, filename, lineno in caught:
            warnings.warn_explicit(text, category, filename, lineno,
                                   registry=_REGISTRIES.setdefault(filename, {}))
        yield result
