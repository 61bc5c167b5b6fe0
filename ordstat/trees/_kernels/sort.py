"""Sorting each node's units by a feature (:func:`node_sort`): radix sort of doubles or ranks
for large nodes, quicksort or insertion sort below."""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload, register_jitable

from .._records import MISSING_RANK
from .cache import jit

__all__ = ["node_sort", "sort_segment", "missing_key", "cut_may_follow",
           "RADIX_MIN", "RANK_RADIX_MIN"]


def missing_key(x):
    """Whether the sort key ``x`` (a value or a rank) stands for a missing value: NaN, or
    :data:`~ordstat.trees._records.MISSING_RANK`."""


@overload(missing_key)
def _missing_key_typed(x):
    if isinstance(x, types.Float):
        return lambda x: x != x
    return lambda x: x == MISSING_RANK


def cut_may_follow(x, nxt):
    """Whether a cut may lie between the sorted keys ``x`` and ``nxt``: ``x < nxt``, and
    ``nxt`` is not missing (NaN never compares above a value; ``MISSING_RANK`` does)."""


@overload(cut_may_follow)
def _cut_may_follow_typed(x, nxt):
    if isinstance(nxt, types.Float):
        return lambda x, nxt: x < nxt
    return lambda x, nxt: (x < nxt) & (nxt != MISSING_RANK)


@jit
def node_sort(XT, codes, w, units, starts, sizes, feats, o_order, o_xs, o_ys, o_ws):
    """Row r of the output: the units of each node s (``units[starts[s]:starts[s] + sizes[s]]``)
    sorted by feature ``feats[r, s]`` (rows of ``XT``, shape (p, n)), with their values, class
    codes and weights; rows with ``feats[r, s] < 0`` are left untouched. Missing values
    (:func:`missing_key`) go last, in reverse order of the node's; the other values are sorted
    by radix sort from ``RADIX_MIN`` on, by quicksort or insertion sort below. ``XT`` may also
    hold the features' ranks (non-negative ints, ``o_xs`` of their type), radix sorted from
    ``RANK_RADIX_MIN`` on."""
    for s in range(starts.shape[0]):
        a = starts[s]
        b = a + sizes[s]
        for r in range(feats.shape[0]):
            j = feats[r, s]
            if j < 0:
                continue
            lo, hi = a, b  # values from the front, NaN from the back
            for t in range(a, b):
                u = units[t]
                x = XT[j, u]
                if not missing_key(x):
                    o_xs[r, lo] = x
                    o_order[r, lo] = u
                    lo += 1
                else:
                    hi -= 1
                    o_xs[r, hi] = x
                    o_order[r, hi] = u
            sort_segment(o_xs[r], o_order[r], a, lo)
            for t in range(a, b):
                u = o_order[r, t]
                o_ys[r, t] = codes[u]
                o_ws[r, t] = w[u]


@register_jitable(forceinline=True)
def sort_segment(xs, order, a, b):
    """Sort ``xs[a:b]`` (no NaN), moving ``order`` along: by radix sort from ``RADIX_MIN``
    values (``RANK_RADIX_MIN`` ranks) on, by quicksort or insertion sort below. The order of
    tied values depends only on the values and their order before: every caller sorting the
    same values in the same order gets the same permutation (the same trees)."""
    if b - a >= _radix_min(xs):
        _radix(xs, order, a, b)
    elif b - a > 16:
        _sort_pairs(xs, order, a, b)
    else:  # inline: most nodes are small
        _insertion_sort(xs, order, a, b)


@register_jitable(forceinline=True)
def _insertion_sort(v, u, lo, hi):
    """Insertion sort of v[lo:hi], moving u along (stable)."""
    for i in range(lo + 1, hi):
        x = v[i]
        y = u[i]
        k = i - 1
        while k >= lo and x < v[k]:
            v[k + 1] = v[k]
            u[k + 1] = u[k]
            k -= 1
        v[k + 1] = x
        u[k + 1] = y


# node_sort sorts the values of a node by radix sort from this many on (faster than quicksort
# on distinct values, which large nodes have), by quicksort below
RADIX_MIN = 2048
# ... and ranks (two passes of 8-bit digits up to 65536 distinct values) from this many on
RANK_RADIX_MIN = 128


def _radix(v, u, lo, hi):
    """Radix sort of v[lo:hi] moving u along: :func:`_radix_pairs` for doubles,
    :func:`_radix_ranks` for ranks (chosen when compiling)."""


@overload(_radix)
def _radix_typed(v, u, lo, hi):
    if isinstance(v.dtype, types.Float):
        return lambda v, u, lo, hi: _radix_pairs(v, u, lo, hi)
    return lambda v, u, lo, hi: _radix_ranks(v, u, lo, hi)


def _radix_min(v):
    """The node size from which node_sort radix-sorts values of the type of ``v``."""


@overload(_radix_min)
def _radix_min_typed(v):
    if isinstance(v.dtype, types.Float):
        return lambda v: RADIX_MIN
    return lambda v: RANK_RADIX_MIN


@jit
def _radix_ranks(v, u, lo, hi):
    """Sort the non-negative ints v[lo:hi] in place, moving u along: LSD radix sort on 8-bit
    digits, as many as the largest value has."""
    m = hi - lo
    top = 0
    for i in range(lo, hi):
        top = max(top, v[i])
    vv = v[lo:hi].copy()
    uu = u[lo:hi].copy()
    tv = np.empty_like(vv)
    tu = np.empty_like(uu)
    count = np.empty(256, dtype=np.int64)
    shift = 0
    while (top >> shift) > 0:
        count[:] = 0
        for i in range(m):
            count[(vv[i] >> shift) & 255] += 1
        total = 0
        for d in range(256):
            c = count[d]
            count[d] = total
            total += c
        for i in range(m):
            d = (vv[i] >> shift) & 255
            k = count[d]
            tv[k] = vv[i]
            tu[k] = uu[i]
            count[d] = k + 1
        vv, tv = tv, vv
        uu, tu = tu, uu
        shift += 8
    for i in range(m):
        v[lo + i] = vv[i]
        u[lo + i] = uu[i]


@jit
def _radix_pairs(v, u, lo, hi):
    """Sort v[lo:hi] (no NaN) in place, moving u along: LSD radix sort on 11-bit digits of the
    order-preserving integer image of the doubles (a digit shared by every value is skipped);
    -0.0 sorts before 0.0, which compare equal anyway."""
    m = hi - lo
    keys = v[lo:hi].view(np.uint64).copy()
    sign = np.uint64(1) << np.uint64(63)
    for i in range(m):
        b = keys[i]
        keys[i] = ~b if b & sign else b | sign
    uu = u[lo:hi].copy()
    tk = np.empty(m, dtype=np.uint64)
    tu = np.empty_like(uu)
    count = np.empty(2048, dtype=np.int64)
    mask = np.uint64(2047)
    for shift in range(0, 64, 11):
        sh = np.uint64(shift)
        count[:] = 0
        for i in range(m):
            count[(keys[i] >> sh) & mask] += 1
        if count[(keys[0] >> sh) & mask] == m:
            continue
        total = 0
        for d in range(2048):
            c = count[d]
            count[d] = total
            total += c
        for i in range(m):
            d = (keys[i] >> sh) & mask
            k = count[d]
            tk[k] = keys[i]
            tu[k] = uu[i]
            count[d] = k + 1
        keys, tk = tk, keys
        uu, tu = tu, uu
    out = v[lo:hi].view(np.uint64)
    for i in range(m):
        b = keys[i]
        out[i] = b & ~sign if b & sign else ~b
        u[lo + i] = uu[i]


@register_jitable
def _swap(v, u, i, j):
    t = v[i]
    v[i] = v[j]
    v[j] = t
    k = u[i]
    u[i] = u[j]
    u[j] = k


@jit
def _sort_pairs(v, u, lo, hi):
    """Sort v[lo:hi] (no NaN) in place, moving u along: quicksort with a median-of-three
    pivot, partitioned by Hoare's scans (fewest swaps on distinct values) or, when the pivot
    ties with an end of the three (many ties), three ways; insertion sort below 16 items. The
    recursion goes into the smaller part, so its depth stays logarithmic."""
    while hi - lo > 16:
        mid = (lo + hi) // 2
        if v[mid] < v[lo]:
            _swap(v, u, lo, mid)
        if v[hi - 1] < v[mid]:
            _swap(v, u, mid, hi - 1)
            if v[mid] < v[lo]:
                _swap(v, u, lo, mid)
        pivot = v[mid]  # v[lo] <= pivot <= v[hi - 1]
        if pivot == v[lo] or pivot == v[hi - 1]:
            _swap(v, u, lo, mid)
            lt, i, gt = lo, lo + 1, hi
            while i < gt:  # v[lo:lt] < pivot, v[lt:i] tied with it, v[gt:hi] > pivot
                if v[i] < pivot:
                    _swap(v, u, lt, i)
                    lt += 1
                    i += 1
                elif pivot < v[i]:
                    gt -= 1
                    _swap(v, u, i, gt)
                else:
                    i += 1
            a1, b1, a2, b2 = lo, lt, gt, hi
        else:
            i, j = lo, hi - 1
            while True:  # the ends stop both scans inside
                i += 1
                while v[i] < pivot:
                    i += 1
                j -= 1
                while pivot < v[j]:
                    j -= 1
                if i >= j:
                    break
                _swap(v, u, i, j)
            a1, b1, a2, b2 = lo, j + 1, j + 1, hi  # v[lo:j + 1] <= pivot <= v[j + 1:hi]
        if b1 - a1 < b2 - a2:
            _sort_pairs(v, u, a1, b1)
            lo, hi = a2, b2
        else:
            _sort_pairs(v, u, a2, b2)
            lo, hi = a1, b1
    _insertion_sort(v, u, lo, hi)
