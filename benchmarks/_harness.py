"""Timing helpers. A benchmark module ``benchmarks/bench_*.py`` defines ``run(quick: bool)`` and
calls :func:`compare` for each measurement; nothing here asserts a time.

Output lines have the form ``name: ours_s peer_s ratio`` with ratio = ours / peer (below 1 means
ordstat is faster), each time the best of ``repeat`` runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable


def best_time(fn: Callable[[], object], repeat: int = 3,
              clock: Callable[[], float] = time.perf_counter) -> float:
    """Best time of ``repeat`` calls of ``fn`` (seconds) on ``clock``: the wall clock by
    default."""
    best = float("inf")
    for _ in range(max(1, repeat)):
        start = clock()
        fn()
        best = min(best, clock() - start)
    return best


def best_cpu_time(fn: Callable[[], object], repeat: int = 3) -> float:
    """Best CPU time of this process (every thread, R called through rpy2 included) over
    ``repeat`` calls of ``fn`` (seconds): a one-thread fit's cost, steadier than the wall
    clock on a shared machine."""
    return best_time(fn, repeat, clock=time.process_time)


def report(name: str, ours_s: float, peer_s: float) -> str:
    line = f"{name}: {ours_s:.4g} {peer_s:.4g} {ours_s / peer_s:.3g}"
    print(line, flush=True)
    return line


def compare(name: str, ours: Callable[[], object], peer: Callable[[], object],
            repeat: int = 3) -> float:
    """Time ``ours`` and ``peer`` alternately in this process and print their ratio."""
    ours_s = best_time(ours, repeat)
    peer_s = best_time(peer, repeat)
    report(name, ours_s, peer_s)
    return ours_s / peer_s
