"""The record of a level that the compiled kernels and the growth share, in a module that
imports neither (the kernels construct it inside numba; the growth allocates its buffers)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Level"]


class Level(NamedTuple):
    """The nodes of a level in the compiled levels: their rows (units, or the (P, M) words of
    the presorted levels), node after node, each node's number of rows and its index."""

    rows: np.ndarray
    sizes: np.ndarray
    nodes: np.ndarray
