"""numba kernels of the split search: one scan skeleton, built per criterion, and the stable
partition of a tree level (imported lazily by :mod:`ordstat.trees._fast`, which says why)."""

from __future__ import annotations

import hashlib

import numba
import numpy as np
from numba.extending import register_jitable

__all__ = ["make_level_search", "level_partition", "node_sort", "level_children"]

jit = numba.njit(cache=True, nogil=True)


def make_level_search(start, add, gain):
    """Compile the best-cut search of a level for one criterion's ``(start, add, gain)``
    (see :class:`ordstat.trees.criteria.Criterion`).

    The returned ``level_search(xs, ys, ws, starts, sizes, totals, min_bucket, param, todo,
    out_good, out_pos)`` scans every (feature row, node) of a level: row j of xs / ys / ws holds
    the values, class codes and weights of each node's units sorted by one feature, node after
    node (node s at positions starts[s] .. starts[s] + sizes[s]). A cut after position t (left =
    the node's units up to t) is admissible when both children keep min_bucket units and
    xs[j, t] < xs[j, t + 1]. It writes the largest goodness (the first position on ties) and its
    position, or -inf and -1; pairs with todo[j, s] False (features not drawn) are skipped.
    The criterion's running sums are updated as each unit joins the left child, so a node costs
    O(n K) or less instead of O(n K) per candidate.
    """
    # The three functions stay plain Python objects (made callable from compiled code), so the
    # closure pickles the same in every process and the on-disk cache is hit; ``version``
    # changes with their code, so editing a criterion's scan is never served a stale cache.
    for fn in (start, add, gain):
        register_jitable(inline="always")(fn)
    version = _code_version(start, add, gain)

    @jit
    def level_search(xs, ys, ws, starts, sizes, totals, min_bucket, param, todo, out_good,
                     out_pos):
        if len(version) == 0:  # never: only puts the code version into the cache key
            return
        for j in range(xs.shape[0]):
            for s in range(starts.shape[0]):
                best = -np.inf
                best_t = -1
                if todo[j, s]:
                    a = starts[s]
                    total = totals[s]
                    n = 0.0
                    for g in range(total.shape[0]):
                        n += total[g]
                    state = start(total, param)
                    nl = 0.0
                    for i in range(sizes[s] - min_bucket):
                        t = a + i
                        w = ws[j, t]
                        state = add(state, total, param, ys[j, t], w)
                        nl += w
                        if i >= min_bucket - 1 and xs[j, t] < xs[j, t + 1]:
                            g = gain(state, total, param, nl, n)
                            if g > best:
                                best = g
                                best_t = t
                out_good[j, s] = best
                out_pos[j, s] = best_t

    return level_search


def _code_version(*fns):
    h = hashlib.sha256()
    for fn in fns:
        h.update(fn.__code__.co_code)
        h.update(repr(fn.__code__.co_consts).encode())
    return h.hexdigest()


@jit
def level_partition(order, xs, ys, ws, flag, starts, sizes, dest_left, dest_right, o_order,
                    o_xs, o_ys, o_ws):
    """Stable partition of every feature row within each split node: the units going left
    (flag True) to the left child's block of the output, the others to the right child's, in
    their sorted order; values, codes and weights move with their unit. A child whose
    destination is -1 is dropped (it will not be split)."""
    for j in range(order.shape[0]):
        for s in range(starts.shape[0]):
            li = dest_left[s]
            ri = dest_right[s]
            for t in range(starts[s], starts[s] + sizes[s]):
                u = order[j, t]
                if flag[u]:
                    if li < 0:
                        continue
                    d = li
                    li += 1
                else:
                    if ri < 0:
                        continue
                    d = ri
                    ri += 1
                o_order[j, d] = u
                o_xs[j, d] = xs[j, t]
                o_ys[j, d] = ys[j, t]
                o_ws[j, d] = ws[j, t]


@jit
def node_sort(XT, codes, w, units, starts, sizes, feats, o_order, o_xs, o_ys, o_ws):
    """Row r of the output: the units of each node s (``units[starts[s]:starts[s] + sizes[s]]``)
    sorted by feature ``feats[r, s]`` (rows of ``XT``, shape (p, n)), with their values, class
    codes and weights; rows with ``feats[r, s] < 0`` are left untouched. NaN sorts last."""
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
                if x == x:
                    o_xs[r, lo] = x
                    o_order[r, lo] = u
                    lo += 1
                else:
                    hi -= 1
                    o_xs[r, hi] = x
                    o_order[r, hi] = u
            if lo - a > 16:
                _sort_pairs(o_xs[r], o_order[r], a, lo)
            else:  # insertion sort, inline: most nodes are small
                for i in range(a + 1, lo):
                    x = o_xs[r, i]
                    u = o_order[r, i]
                    k = i - 1
                    while k >= a and x < o_xs[r, k]:
                        o_xs[r, k + 1] = o_xs[r, k]
                        o_order[r, k + 1] = o_order[r, k]
                        k -= 1
                    o_xs[r, k + 1] = x
                    o_order[r, k + 1] = u
            for t in range(a, b):
                u = o_order[r, t]
                o_ys[r, t] = codes[u]
                o_ws[r, t] = w[u]


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
    """Sort v[lo:hi] (no NaN) in place, moving u along: quicksort with a median-of-three pivot and a
    three-way partition (ties are common), insertion sort below 16 items; the recursion goes
    into the smaller part, so its depth stays logarithmic."""
    while hi - lo > 16:
        mid = (lo + hi) // 2
        a, b, c = v[lo], v[mid], v[hi - 1]
        if a < b:
            m = mid if b < c else (hi - 1 if a < c else lo)
        else:
            m = lo if a < c else (hi - 1 if b < c else mid)
        _swap(v, u, lo, m)
        pivot = v[lo]
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
        if lt - lo < hi - gt:
            _sort_pairs(v, u, lo, lt)
            lo = gt
        else:
            _sort_pairs(v, u, gt, hi)
            hi = lt
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


@jit
def level_children(XT, rows, starts, sizes, feat, thr, missing_left, cat_left, is_cat, codes,
                   w, flag, lc, n_left):
    """Send the units of each node s with a split (``feat[s] >= 0``) left or right: a numeric
    split by ``x < thr[s]``, missing values to ``missing_left[s]``; a categorical one by
    ``cat_left[s, code]``. Sets ``flag[unit]`` (True: left; False in nodes without a split)
    and adds each unit going left to its node's class counts ``lc`` (S, K) and ``n_left``."""
    for s in range(starts.shape[0]):
        j = feat[s]
        for t in range(starts[s], starts[s] + sizes[s]):
            u = rows[t]
            go = False
            if j >= 0:
                x = XT[j, u]
                if x != x:
                    go = missing_left[s]
                elif is_cat[s]:
                    go = cat_left[s, np.int64(x)]
                else:
                    go = x < thr[s]
            flag[u] = go
            if go:
                lc[s, codes[u]] += w[u]
                n_left[s] += 1
