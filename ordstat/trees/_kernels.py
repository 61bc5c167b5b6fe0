"""numba kernels of the split search (imported lazily by ``_fast``; see its docstring)."""

from __future__ import annotations

import numba
import numpy as np

from ._fast import COST, ENTROPY, GINI, ORDINAL, TWOING

jit = numba.njit(cache=True, nogil=True)

@jit
def _sdiv(a, b):
    return a / b if b > 0.0 else 0.0


@jit
def _xlogx(x):
    return x * np.log(x) if x > 0.0 else 0.0


@jit
def _goodness(kind, left, right, steps, cost):
    """Goodness of one candidate from the children's counts (the reference the scans below
    update incrementally; tests compare it with the registry's numpy functions)."""
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
        d = cl * nr - cr * nl
        if d * d > best:
            best = d * d
    return _sdiv(best, (nl + nr) * nl * nr)


@jit
def _gini_scan(xs, ys, ws, j, a, m, total, min_bucket):
    """The Gini scan of one (feature, node) with running sums: with S(n) = sum_g n_g^2,
    S(L) gains w (2 L_c + w) when a unit of class c and weight w joins L, and
    S(R) = S(T) - 2 T'L + S(L); goodness S(L)/n_L + S(R)/n_R - S(T)/N (criteria._gini_goodness;
    with integer weights every sum is exact, so both agree to the last bit)."""
    K = total.shape[0]
    n = 0.0
    st = 0.0
    for g in range(K):
        n += total[g]
        st += total[g] * total[g]
    left = np.zeros(K)
    sl = 0.0
    tl = 0.0
    nl = 0.0
    best = -np.inf
    best_t = -1
    for i in range(m - min_bucket):
        t = a + i
        c = ys[j, t]
        w = ws[j, t]
        sl += w * (2.0 * left[c] + w)
        left[c] += w
        tl += w * total[c]
        nl += w
        if i >= min_bucket - 1 and xs[j, t] < xs[j, t + 1]:
            sr = st - 2.0 * tl + sl
            g = _sdiv(sl, nl) + _sdiv(sr, n - nl) - _sdiv(st, n)
            if g > best:
                best = g
                best_t = t
    return best, best_t


@jit
def _ordinal_scan(xs, ys, ws, j, a, m, total, min_bucket, steps):
    """The ordinal-impurity scan of one (feature, node) with running sums over the cumulative
    counts c_g (g < K): B(L) = sum_g ds_g cL_g^2 and M = sum_g ds_g cT_g cL_g gain O(K) terms
    when a unit joins L, and B(R) = B(T) - 2 M + B(L); goodness B(L)/n_L + B(R)/n_R - B(T)/N
    (criteria._ordinal_goodness)."""
    K = total.shape[0]
    n = 0.0
    for g in range(K):
        n += total[g]
    ct = np.zeros(K)
    run = 0.0
    bt = 0.0
    for g in range(K - 1):
        run += total[g]
        ct[g] = run
        bt += steps[g] * (run * run)
    sct = np.zeros(K)
    for g in range(K - 1):
        sct[g] = steps[g] * ct[g]
    cl = np.zeros(K)
    bl = 0.0
    mm = 0.0
    nl = 0.0
    best = -np.inf
    best_t = -1
    for i in range(m - min_bucket):
        t = a + i
        c = ys[j, t]
        w = ws[j, t]
        for g in range(c, K - 1):
            bl += steps[g] * (w * (2.0 * cl[g] + w))
            mm += w * sct[g]
            cl[g] += w
        nl += w
        if i >= min_bucket - 1 and xs[j, t] < xs[j, t + 1]:
            br = bt - 2.0 * mm + bl
            g = _sdiv(bl, nl) + _sdiv(br, n - nl) - _sdiv(bt, n)
            if g > best:
                best = g
                best_t = t
    return best, best_t


@jit
def _entropy_scan(xs, ys, ws, j, a, m, total, min_bucket):
    """The entropy scan of one (feature, node): H(n) = sum_g n_g log n_g of each child is
    updated in the class of the unit that moves (two logarithms per child); goodness
    N log N - nL log nL - nR log nR - (H(T) - H(L) - H(R)) (criteria._entropy_goodness)."""
    K = total.shape[0]
    n = 0.0
    ht = 0.0
    right = np.empty(K)
    for g in range(K):
        n += total[g]
        ht += _xlogx(total[g])
        right[g] = total[g]
    left = np.zeros(K)
    hl = 0.0
    hr = ht
    nl = 0.0
    base = _xlogx(n) - ht
    best = -np.inf
    best_t = -1
    for i in range(m - min_bucket):
        t = a + i
        c = ys[j, t]
        w = ws[j, t]
        new_l = left[c] + w
        new_r = max(right[c] - w, 0.0)
        hl += _xlogx(new_l) - _xlogx(left[c])
        hr += _xlogx(new_r) - _xlogx(right[c])
        left[c] = new_l
        right[c] = new_r
        nl += w
        if i >= min_bucket - 1 and xs[j, t] < xs[j, t + 1]:
            g = base - _xlogx(nl) - _xlogx(n - nl) + hl + hr
            if g > best:
                best = g
                best_t = t
    return best, best_t


@jit
def _twoing_scan(xs, ys, ws, j, a, m, total, min_bucket):
    """The ordered-twoing scan of one (feature, node): cumulative left counts updated in O(K)
    per unit; goodness max_r (cL_r n_R - cR_r n_L)^2 / (N n_L n_R) (criteria.twoing)."""
    K = total.shape[0]
    n = 0.0
    ct = np.zeros(K)
    run = 0.0
    for g in range(K):
        n += total[g]
        run += total[g]
        ct[g] = run
    cl = np.zeros(K)
    nl = 0.0
    best = -np.inf
    best_t = -1
    for i in range(m - min_bucket):
        t = a + i
        c = ys[j, t]
        w = ws[j, t]
        for g in range(c, K - 1):
            cl[g] += w
        nl += w
        if i >= min_bucket - 1 and xs[j, t] < xs[j, t + 1]:
            nr = n - nl
            top = 0.0
            for g in range(K - 1):
                # cL nR - cR nL with cR = cT - cL and nR = N - nL
                d = cl[g] * n - ct[g] * nl
                if d * d > top:
                    top = d * d
            g = _sdiv(top, n * nl * nr)
            if g > best:
                best = g
                best_t = t
    return best, best_t


@jit
def _cost_scan(xs, ys, ws, j, a, m, total, min_bucket, cost):
    """The generalized-Gini scan of one (feature, node), with the quadratic forms updated as
    each unit moves left: O(K) per unit and O(1) per candidate instead of O(K^2).

    With q(n) = n' C n: q(L) gains w (C L + C' L)_c + w^2 C_cc when a unit of class c and
    weight w joins L; q(R) = q(T) - T'C L - L'C T + q(L) for R = T - L; goodness
    q(T)/N - q(L)/n_L - q(R)/n_R (see criteria._cost_goodness).
    """
    K = total.shape[0]
    ct = np.zeros(K)  # C T
    ctt = np.zeros(K)  # C' T
    n = 0.0
    for g in range(K):
        n += total[g]
        for h in range(K):
            ct[g] += cost[g, h] * total[h]
            ctt[g] += cost[h, g] * total[h]
    qt = 0.0
    for g in range(K):
        qt += total[g] * ct[g]
    u = np.zeros(K)  # C L
    u2 = np.zeros(K)  # C' L
    ql = 0.0
    t_u = 0.0  # T' C L
    l_ct = 0.0  # L' C T
    nl = 0.0
    best = -np.inf
    best_t = -1
    for i in range(m - min_bucket):
        t = a + i
        c = ys[j, t]
        w = ws[j, t]
        ql += w * (u[c] + u2[c]) + w * w * cost[c, c]
        for g in range(K):
            u[g] += w * cost[g, c]
            u2[g] += w * cost[c, g]
        t_u += w * ctt[c]
        l_ct += w * ct[c]
        nl += w
        if i >= min_bucket - 1 and xs[j, t] < xs[j, t + 1]:
            nr = n - nl
            qr = qt - t_u - l_ct + ql
            g = _sdiv(qt, n) - _sdiv(ql, nl) - _sdiv(qr, nr)
            if g > best:
                best = g
                best_t = t
    return best, best_t


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
    for j in range(xs.shape[0]):
        for s in range(starts.shape[0]):
            a = starts[s]
            m = sizes[s]
            best = -np.inf
            best_t = -1
            if todo[j, s]:
                if kind == ENTROPY:
                    best, best_t = _entropy_scan(xs, ys, ws, j, a, m, totals[s], min_bucket)
                elif kind == TWOING:
                    best, best_t = _twoing_scan(xs, ys, ws, j, a, m, totals[s], min_bucket)
                elif kind == COST:
                    best, best_t = _cost_scan(xs, ys, ws, j, a, m, totals[s], min_bucket, cost)
                elif kind == GINI:
                    best, best_t = _gini_scan(xs, ys, ws, j, a, m, totals[s], min_bucket)
                else:
                    best, best_t = _ordinal_scan(xs, ys, ws, j, a, m, totals[s], min_bucket,
                                                 steps)
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
