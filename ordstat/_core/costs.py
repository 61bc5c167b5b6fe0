"""The distance cost matrix of ordered classes, the one place it is built (the metrics' cost
matrices, the split criteria's linear and quadratic costs, the tree's median leaves)."""

from __future__ import annotations

import numpy as np


def distance_cost(n_classes, power=1):
    """``C[g, h] = |g - h|^power`` over the class codes 0..K-1, as floats (``power`` 1: linear
    costs, 2: quadratic)."""
    g = np.arange(n_classes, dtype=np.float64)
    return np.abs(g[:, None] - g[None, :]) ** power
