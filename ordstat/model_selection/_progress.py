"""Running a list of joblib tasks with a progress bar and an estimate of the run time.

Library calls print nothing by default: the bar and the estimate go to standard error, and only
when ``progress`` is on (by default when standard error is a terminal, as in the command line).
"""

from __future__ import annotations

import sys
import time

from joblib import Parallel, effective_n_jobs

#: Announce the estimated run time when it exceeds this many seconds.
ANNOUNCE_AFTER = 5.0


def resolve(progress):
    """``progress`` as a bool: None means "standard error is a terminal"."""
    if progress is None:
        isatty = getattr(sys.stderr, "isatty", None)
        return bool(isatty and isatty())
    return bool(progress)


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
    if not resolve(progress) or not tasks:
        return list(Parallel(n_jobs=n_jobs)(tasks))
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
    for result in Parallel(n_jobs=n_jobs, return_as="generator")(tasks[1:]):
        results.append(result)
        bar.update(1)
    bar.close()
    return results
