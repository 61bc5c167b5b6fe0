"""Warnings that point at the user's code, and their collection across resampling splits.

:func:`warn` replaces ``warnings.warn`` inside ordstat: instead of a fixed ``stacklevel`` (right
for one call path, wrong for the others) it attributes the warning to the first frame outside
the ordstat package, i.e. the user's line (or the line of the library that called ordstat, such
as scikit-learn's ``cross_val_score``).

:func:`record` and :func:`reemit` let :func:`ordstat.model_selection.evaluate` gather the
warnings raised while fitting on every split (in joblib workers, whose warnings never reach the
parent process) and report each distinct warning once, with the number of splits that raised
it.
"""

from __future__ import annotations

import os
import re
import sys
import warnings
from collections import Counter

# the ordstat package folder (this module is in ordstat/_core/)
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _stack_level(skip=(_PACKAGE_DIR,)):
    """stacklevel for ``warnings.warn`` called by this function's caller: the first frame whose
    file is not under one of the folders ``skip`` (by default ordstat's)."""
    frame = sys._getframe(1)
    level = 1  # warnings.warn itself counts frames from warn()'s caller
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(skip):
        frame = frame.f_back
        level += 1
    return level


def warn(message, category=UserWarning):
    """``warnings.warn(message, category)`` attributed to the first caller outside ordstat."""
    warnings.warn(message, category, stacklevel=_stack_level())


def _package_dir(module):
    return os.path.dirname(os.path.abspath(module.__file__)) + os.sep


class attributed_past:
    """Context manager: warnings raised in the block are re-issued at the first frame outside
    ordstat and the packages ``modules`` (module objects, e.g. ``sklearn``).

    For code that the user reaches through another library: a scorer called by scikit-learn's
    ``cross_val_score`` would otherwise warn from scikit-learn's scorer module, not from the
    user's line. Every warning is caught and re-issued, so the filters in force apply to the
    re-issued one as they would have to the original. (A class, not a generator, so that no
    frame of contextlib stands between the block and the caller.)
    """

    def __init__(self, *modules):
        self._skip = (_PACKAGE_DIR, *(_package_dir(m) for m in modules))

    def __enter__(self):
        self._catcher = warnings.catch_warnings(record=True)
        self._caught = self._catcher.__enter__()
        warnings.simplefilter("always")
        return self

    def __exit__(self, *exc_info):
        self._catcher.__exit__(*exc_info)
        for w in self._caught:
            warnings.warn(w.message, stacklevel=_stack_level(self._skip))
        return False


def record(function, *args, **kwargs):
    """Call ``function`` and return ``(result, caught)``.

    ``caught`` is the list of distinct ``(category, message)`` pairs warned during the call, in
    order of first appearance (all warnings are recorded, whatever the active filters; the
    filters apply when they are re-emitted by :func:`reemit`). Deprecation warnings are not
    collected: they are passed on at once with their own file and line, as if never caught.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = function(*args, **kwargs)
    seen = []
    for w in caught:
        if issubclass(w.category, (DeprecationWarning, PendingDeprecationWarning)):
            # notes between libraries, hidden by default: passed on where they arose
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
            continue
        key = (w.category, str(w.message))
        if key not in seen:
            seen.append(key)
    return result, seen


_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def reemit(per_split, n_splits, what="splits"):
    """Warn once for each distinct warning of ``per_split``, with how many splits raised it.

    Parameters
    ----------
    per_split : iterable of (prefix, list of (category, message))
        For each fit, a prefix naming the method (e.g. ``"method 'tree'"``) and the warnings
        recorded by :func:`record`. Messages that differ only in their numbers (a condition
        number, a unit count) count as the same warning; the first one's text is shown.
    n_splits : int
        The total number of splits, shown as "(raised in N of M splits)".
    """
    counts, first = Counter(), {}
    for prefix, caught in per_split:
        keys = {(prefix, category, _NUMBER.sub("#", message)): (category, message)
                for category, message in caught}
        for key, value in keys.items():
            counts[key] += 1
            first.setdefault(key, value)
    for key, count in counts.items():
        category, message = first[key]
        text = f"{key[0]}: {message} (raised in {count} of {n_splits} {what})"
        try:
            instance = category(text)
        except Exception:  # a warning class with an unusual constructor
            instance = UserWarning(f"{category.__name__}: {text}")
        warnings.warn(instance, stacklevel=_stack_level())
