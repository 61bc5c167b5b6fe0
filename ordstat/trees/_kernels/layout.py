"""The level loop's moves of a presorted layout: sending each split node's units left or right
(:func:`level_children`) and the stable partition of every sorted row into the children
(:func:`level_partition`)."""

from __future__ import annotations

import numpy as np

from .cache import jit

__all__ = ["level_children", "level_partition"]


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
