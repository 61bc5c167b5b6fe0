"""Running a list of joblib tasks with a progress bar and an estimate of the run time, and the
progress of one long fit made of named steps of unequal cost (:class:`Steps`, EDDA's models).

Library calls print nothing by default: the bar and the estimate go to standard error, and only
when ``progress`` is on (by default when standard error is a terminal, as in the command line).
A fit run as one of :func:`run`'s tasks (in a worker or not) resolves ``progress=None`` to off,
so that the fits of ``evaluate`` do not draw bars of their own under its bar.
"""

from __future__ import annotations

import sys
import threading
import time

from joblib import effective_n_jobs

from .._core.parallel import parallel

#: Announce the estimated run time when it exceeds this many seconds.
ANNOUNCE_AFTER = 5.0

# how many run() tasks this thread is inside (thread-local: each task fits in one thread)
_inside = threading.local()


def resolve(progress):
    """``progress`` as a bool: None means "standard error is a terminal", and off inside a task
    of :func:`run`."""
    if progress is None:
        if getattr(_inside, "depth", 0):
            return False
        isatty = getattr(sys.stderr, "isatty", None)
        return bool(isatty and isatty())
    return bool(progress)


def _task(function, args, kwargs):
    """One task of :func:`run`, run with the automatic progress of the fits inside it off."""
    depth = getattr(_inside, "depth", 0)
    _inside.depth = depth + 1
    try:
        return function(*args, **kwargs)
    finally:
        _inside.depth = depth


def estimate_text(seconds_per_fit, n_fits, n_jobs):
    """"about N min for M fits" (or seconds) for ``n_fits`` fits spread over the workers, or
    None below :data:`ANNOUNCE_AFTER` seconds."""
    workers = max(1, min(effective_n_jobs(n_jobs), n_fits))
    total = seconds_per_fit * n_fits / workers
    if total <= ANNOUNCE_AFTER:
        return None
    amount = f"{total / 60:.0f} min" if total >= 90 else f"{total:.0f} s"
    return f"about {amount} for {n_fits} fits"


def run(tasks, *, n_jobs=None, progress=None, desc="evaluate"):
    """Results of the joblib ``delayed`` ``tasks``, in order.

    With progress on, the first task runs in this process and is timed; its time, times the
    number of fits over the number of workers, is announced on standard error when it exceeds
    :data:`ANNOUNCE_AFTER` seconds; then a bar follows the remaining fits.
    """
    tasks = [(_task, (function, args, kwargs), {}) for function, args, kwargs in tasks]
    if not resolve(progress) or not tasks:
        return parallel(tasks, n_jobs=n_jobs)
    from tqdm.auto import tqdm

    function, args, kwargs = tasks[0]
    start = time.perf_counter()
    first = function(*args, **kwargs)
    text = estimate_text(time.perf_counter() - start, len(tasks), n_jobs)
    if text is not None:
        print(f"{desc}: {text}", file=sys.stderr, flush=True)
    bar = tqdm(total=len(tasks), desc=desc, unit="fit", file=sys.stderr)
    bar.update(1)
    results = [first]
    for result in parallel(tasks[1:], n_jobs=n_jobs, lazy=True):
        results.append(result)
        bar.update(1)
    bar.close()
    return results


class Steps:
    """Progress of one fit made of named steps of unequal cost (EDDA's models), on standard
    error: a bar over the steps naming the one under way, shown once the fit has lasted
    :data:`ANNOUNCE_AFTER` seconds (so that short fits print nothing); a step made of many
    fits done in parts (a leave-one-out: n refits, in chunks) reports its parts through the
    callback :meth:`start` returns (the bar then shows "EVE leave-one-out 320/1000 fits"),
    and when its first part says that the step will take more than :data:`ANNOUNCE_AFTER`
    seconds its own run time is announced, in the words of :func:`estimate_text` ("EDDA: EVE
    leave-one-out: about 2 s for 1000 fits"; the first part's rate, so a rough guide: it
    extrapolates from the first chunk).

    Disabled (``enabled`` false), every method does nothing.
    """

    def __init__(self, total, desc, enabled):
        self.desc = desc
        self.bar = None
        if enabled and total > 0:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=total, desc=desc, unit="step", file=sys.stderr,
                            delay=ANNOUNCE_AFTER,
                            bar_format="{desc}: {n_fmt}/{total_fmt} steps [{elapsed}{postfix}]")

    def start(self, name):
        """Begin the step ``name``; returns ``part(done, total)`` for a step made of ``total``
        fits to report that ``done`` of them are finished."""
        if self.bar is None:
            return _no_parts
        self.bar.set_postfix_str(name)
        begin = time.perf_counter()
        announced = []

        def part(done, total):
            self.bar.set_postfix_str(f"{name} {done}/{total} fits")
            if announced or done <= 0 or done >= total:
                return
            announced.append(True)
            text = estimate_text((time.perf_counter() - begin) / done, total, 1)
            if text is not None:
                self.bar.write(f"{self.desc}: {name}: {text}", file=sys.stderr)

        return part

    def done(self):
        """The step under way (or a step skipped) is finished."""
        if self.bar is not None:
            self.bar.update(1)

    def close(self):
        if self.bar is not None:
            self.bar.close()


def _no_parts(done, total):
    """The parts callback of a disabled :class:`Steps`."""
