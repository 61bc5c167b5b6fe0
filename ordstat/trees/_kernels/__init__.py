"""numba kernels of the tree growth, by job (imported lazily by :mod:`ordstat.trees._fast`,
which says why):

- ``cache``: numba's on-disk cache under a file lock, kernels named after their criterion;
- ``scan``: the scan of one sorted feature in one node, and the level search built on it;
- ``sort``: each node's units sorted by a feature (radix sort, quicksort);
- ``layout``: the level loop's moves of a presorted layout (children, stable partition);
- ``nodes``: what the compiled levels share (a level's frame, the noise rule, the children);
- ``levels``: compiled levels of trees sorting each node's drawn features (forests);
- ``presorted``: compiled levels of trees keeping every feature presorted (bagging);
- ``predict``: the walk of rows down a fitted tree (leaves, votes, class proportions).
"""

from numba.extending import register_jitable

from . import predict
from .cache import jit
from .layout import level_children, level_partition
from .levels import make_level_grow
from .presorted import make_presorted_level, pack_rows, restrict_rows
from .scan import make_level_search
from .sort import node_sort

__all__ = ["jit", "register_jitable", "make_level_search", "make_level_grow",
           "make_presorted_level", "pack_rows", "restrict_rows", "level_partition",
           "node_sort", "level_children", "predict"]
