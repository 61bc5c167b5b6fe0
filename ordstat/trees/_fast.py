"""Compiled (numba) kernels for the split search and the stable partition of a tree level.

They compute what the numpy code of ``_builder`` computes, in one fused pass per
(feature, node) instead of one numpy pass per class and per arithmetic step; the sums behind
each criterion's goodness are updated as each unit moves to the left child (O(1) or O(K) per
unit instead of O(K) or O(K^2) per candidate). For Gini, generalized Gini with integer costs,
the ordinal impurity and ordered twoing these sums are exact with integer weights, so the
compiled and the numpy path choose the same splits; otherwise (fractional weights, entropy's
logarithms) they may break exactly tied candidates differently.
This is what makes growing a tree faster than scikit-learn and rpart
(see ``benchmarks/bench_trees.py``).

A built-in criterion opts in through its ``kernel_spec(K) -> (kind, steps, cost)`` attribute:
the kernel evaluates the same formula as the criterion's numpy function (the tests compare them).
User criteria, which have no such attribute, always go through the numpy path, so the registry
contract (any vectorised function of the children's counts) holds whether or not numba is
installed. Without numba (or with an incompatible release) everything runs in numpy.
Compiled functions are cached on disk (``cache=True``), so the JIT cost is paid once.
"""

from __future__ import annotations

GINI, ENTROPY, COST, ORDINAL, TWOING = 0, 1, 2, 3, 4

__all__ = ["GINI", "ENTROPY", "COST", "ORDINAL", "TWOING", "kernels"]

_KERNELS = None


def kernels():
    """The compiled module (``level_search``, ``level_partition``), or None without a working
    numba. Imported on first use, so that ``import ordstat`` does not pay for numba."""
    global _KERNELS
    if _KERNELS is None:
        try:
            from . import _kernels
        except Exception:  # noqa: BLE001 - ImportError, or numba refusing this numpy release
            _KERNELS = False
        else:
            _KERNELS = _kernels
    return _KERNELS or None
