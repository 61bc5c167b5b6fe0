"""numba kernels of the split search (imported lazily by ``_fast``; see its docstring)."""

from __future__ import annotations

import numba
import numpy as np

from ._fast import COST, ENTROPY, GINI, ORDINAL  # noqa: F401  (TWOING is the fall-through)

jit = numba.njit(cache=True, nogil=True)

@jit
def _sdiv(a, b):
    return a / b if b > 0.0 else 0.0


@jit
def _xlogx(x):
    return x * np.log(x) if x > 0.0 else 0.0


@jit
def _goodness(kind, left, right, steps, cost):
    K = left.shape[0]
    nl = 0.0
    nr = 0.0
    for k in range(K):
        nl += left[k]
        nr += right[k]
    if kind == GINI:
        sl = 0.0
        sr = 0.0
        slr = 0.0
        for k in range(K):
            a = left[k]
            b = right[k]
            sl += a * a
            sr += b * b
            slr += a * b
        return _sdiv(sl, nl) + _sdiv(sr, nr) - _sdiv(sl + sr + 2.0 * slr, nl + nr)
    if kind == ENTROPY:
        inner = 0.0
        for k in range(K):
            a = left[k]
            b = right[k]
            inner += _xlogx(a + b) - _xlogx(a) - _xlogx(b)
        return _xlogx(nl + nr) - _xlogx(nl) - _xlogx(nr) - inner
    if kind == COST:
        ql = 0.0
        qr = 0.0
        qlr = 0.0
        for g in range(K):
            for h in range(K):
                c = cost[g, h]
                if c != 0.0:
                    ql += c * (left[g] * left[h])
                    qr += c * (right[g] * right[h])
                    qlr += c * (left[g] * right[h] + right[g] * left[h])
        return _sdiv(ql + qr + qlr, nl + nr) - _sdiv(ql, nl) - _sdiv(qr, nr)
    if kind == ORDINAL:
        cl = 0.0
        cr = 0.0
        bl = 0.0
        br = 0.0
        blr = 0.0
        for g in range(K - 1):
            cl += left[g]
            cr += right[g]
            bl += steps[g] * (cl * cl)
            br += steps[g] * (cr * cr)
            blr += steps[g] * (cl * cr)
        return _sdiv(bl, nl) + _sdiv(br, nr) - _sdiv(bl + br + 2.0 * blr, nl + nr)
    # TWOING
    cl = 0.0
    cr = 0.0
    best = 0.0
    for g in range(K - 1):
        cl += left[g]
        cr += right[g]
        d = _sdiv(cl, nl) - _sdiv(cr, nr)
        if d * d > best:
            best = d * d
    return _sdiv(nl * nr, nl + nr) * best


@jit
def level_search(xs, ys, ws, starts, sizes, totals, min_bucket, kind, steps, cost, todo,
                 out_good, out_pos):
    """Best cut of every (feature row, node) of a level.

    Row j of xs / ys / ws holds the values, class codes and weights of each node's units
    sorted by one feature, node after node (node s at positions starts[s] ..
    starts[s] + sizes[s]). A cut after position t (left = the node's units up to t) is
    admissible when both children keep min_bucket units and xs[j, t] < xs[j, t + 1]. Writes
    the largest goodness (the first position on ties) and its position, or -inf and -1;
    pairs with todo[j, s] False (features not drawn for the node) are skipped.
    """
    K = totals.shape[1]
    left = np.empty(K)
    right = np.empty(K)
    for j in range(xs.shape[0]):
        for s in range(starts.shape[0]):
            a = starts[s]
            m = sizes[s]
            best = -np.inf
            best_t = -1
            if not todo[j, s]:
                out_good[j, s] = best
                out_pos[j, s] = best_t
                continue
            for k in range(K):
                left[k] = 0.0
            for i in range(m - min_bucket):
                t = a + i
                left[ys[j, t]] += ws[j, t]
                if i >= min_bucket - 1 and xs[j, t] < xs[j, t + 1]:
                    for k in range(K):
                        right[k] = totals[s, k] - left[k]
                    g = _goodness(kind, left, right, steps, cost)
                    if g > best:
                        best = g
                        best_t = t
            out_good[j, s] = best
            out_pos[j, s] = best_t


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
