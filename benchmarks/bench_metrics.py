"""Goodman-Kruskal gamma from the K x K table (O(n + K^2)).

- against scipy's Kendall tau-b (O(n log n), the nearest rank-association peer) on the same
  predictions;
- against one ``np.bincount`` of ``t * K + p`` (the contingency table itself: the least any
  table-based gamma can cost) on integer labels, with ``classes=`` given and with the labels
  already the codes 0..K-1 (no ``classes=``): integer labels skip the label encoding
  (``np.unique``), so the ratio is the price of checking the labels (min and max) and of the
  O(K^2) sums.
"""

import numpy as np
from scipy import stats

from benchmarks._harness import compare
from ordstat.metrics import goodman_kruskal_gamma


def run(quick=False):
    n = 10**5 if quick else 10**6
    k = 5
    rng = np.random.default_rng(0)
    t = rng.integers(0, k, n)
    p = np.clip(t + rng.integers(-1, 2, n), 0, k - 1)
    compare(f"gamma n={n} K={k} vs scipy kendalltau", lambda: goodman_kruskal_gamma(t, p),
            lambda: stats.kendalltau(t, p))

    def one_bincount():
        return np.bincount(t * k + p, minlength=k * k)

    classes = list(range(k))
    compare(f"gamma n={n} K={k} integer labels, classes given, vs one bincount",
            lambda: goodman_kruskal_gamma(t, p, classes=classes), one_bincount, repeat=20)
    compare(f"gamma n={n} K={k} integer codes 0..K-1, no classes, vs one bincount",
            lambda: goodman_kruskal_gamma(t, p), one_bincount, repeat=20)
