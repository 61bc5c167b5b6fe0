"""The scan: the best cut of a node on one sorted feature, the loop that every compiled split
search runs, built per criterion from its ``(start, add, gain)``."""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from .cache import code_version, jit, per_criterion
from .nodes import node_weights

__all__ = ["keep_best", "make_level_search", "level_search_function"]


@register_jitable(inline="always")
def keep_best(best, best_t, g, ok, t):
    """A scan's best gain and position so far, after the gain ``g`` of the cut after position
    ``t`` (admissible when ``ok``). Without a branch on ``ok``: -inf is added where the cut is
    not admissible, so that the comparison is a max and a conditional move, not a branch that
    the predictor misses on each new best (many in a small node)."""
    g = g + (0.0 if ok else -np.inf)
    if g > best:
        return g, t
    return best, best_t


def make_level_search(start, add, gain):
    """:func:`level_search_function`, compiled."""
    return jit(level_search_function(start, add, gain))


def level_search_function(start, add, gain):
    """The best-cut search of a level for one criterion's ``(start, add, gain)`` (see
    :class:`ordstat.trees.criteria.Criterion`), a plain function callable from compiled code
    (:func:`make_level_search` compiles it; :func:`make_level_grow` calls it).

    The returned ``level_search(xs, ys, ws, starts, sizes, totals, min_bucket, param, todo,
    out_good, out_pos)`` scans every (feature row, node) of a level: row j of xs / ys / ws holds
    the values, class codes and weights of each node's units sorted by one feature, node after
    node (node s at positions starts[s] .. starts[s] + sizes[s]). A cut after position t (left =
    the node's units up to t) is admissible when both children keep min_bucket units and
    xs[j, t] < xs[j, t + 1]. It writes the largest goodness (the first position on ties) and its
    position, or -inf and -1; pairs with todo[j, s] False (features not drawn) are skipped.
    The criterion's running sums are updated as each unit joins the left child, so a node costs
    O(n K) or less instead of O(n K) per candidate. The gain is evaluated after every unit
    without a branch, or only where the value changes on rows where over half the units tie
    with the next (few distinct values: few cuts per node).
    """
    # The three functions stay plain Python objects (made callable from compiled code), so the
    # closure pickles the same in every process and the on-disk cache is hit; ``version``
    # changes with their code, so editing a criterion's scan is never served a stale cache.
    for fn in (start, add, gain):
        register_jitable(inline="always")(fn)
    version = code_version(start, add, gain)

    def make_scan(skip_ties):
        """The scan of row j in the node at positions a .. a + size; with ``skip_ties`` (rows
        of mostly tied values) the gain only where the value changes."""
        @register_jitable
        @per_criterion(("tied" if skip_ties else "free") + version)
        def scan(xs, ys, ws, j, a, size, total, n, min_bucket, param, work):
            state = start(total, param, work)
            nl = 0.0
            best = -np.inf
            best_t = -1
            for i in range(size - min_bucket):
                t = a + i
                w = ws[j, t]
                state = add(state, total, param, ys[j, t], w)
                nl += w
                ok = (i >= min_bucket - 1) & (xs[j, t] < xs[j, t + 1])
                if skip_ties and not ok:  # (skip_ties is a constant: one compiled loop each)
                    continue
                best, best_t = keep_best(best, best_t, gain(state, total, param, nl, n), ok, t)
            return best, best_t
        return scan

    scan_tied, scan_free = make_scan(True), make_scan(False)

    @register_jitable
    @per_criterion(version)
    def level_search(xs, ys, ws, starts, sizes, totals, min_bucket, param, todo, out_good,
                     out_pos):
        if len(version) == 0:  # never: only puts the code version into the cache key
            return
        work = np.empty((4, totals.shape[1]))  # the scans' state arrays
        weights = node_weights(totals)
        m = xs.shape[1]
        for j in range(xs.shape[0]):
            ties = 0  # a row of mostly tied values (few distinct values, e.g. item scores)
            for t in range(m - 1):
                ties += xs[j, t] == xs[j, t + 1]
            tied = ties > m // 2
            for s in range(starts.shape[0]):
                out_good[j, s] = -np.inf
                out_pos[j, s] = -1
                if todo[j, s]:
                    args = (xs, ys, ws, j, starts[s], sizes[s], totals[s], weights[s],
                            min_bucket, param, work)
                    out_good[j, s], out_pos[j, s] = scan_tied(*args) if tied else \
                        scan_free(*args)

    return level_search
