"""Goodman-Kruskal gamma from the K x K table (O(n + K^2)) against scipy's Kendall tau-b
(O(n log n), the nearest rank-association peer) on the same predictions."""

import numpy as np
from scipy import stats

from benchmarks._harness import compare
from ordstat.metrics import goodman_kruskal_gamma


def run(quick=False):
    n = 10**5 if quick else 10**6
    rng = np.random.default_rng(0)
    t = rng.integers(0, 5, n)
    p = np.clip(t + rng.integers(-1, 2, n), 0, 4)
    compare(f"gamma n={n} K=5 vs scipy kendalltau", lambda: goodman_kruskal_gamma(t, p),
            lambda: stats.kendalltau(t, p))
