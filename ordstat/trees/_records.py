"""The record of a level and the rank of a missing value, which the compiled kernels and the
growth share, in a module that imports neither (the kernels construct the record inside
numba; the growth allocates its buffers)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Level", "MISSING_RANK"]

#: the rank of a missing value among a feature's ranks (:func:`ordstat.trees._prepared.rank_keys`):
#: above every value's, as NaN sorts after every value
MISSING_RANK = np.iinfo(np.int32).max


class Level(NamedTuple):
    """The nodes of a level in the compiled levels: their rows (units, or the (P, M) words of
    the presorted levels), node after node, each node's number of rows and its index."""

    rows: np.ndarray
    sizes: np.ndarray
    nodes: np.ndarray
