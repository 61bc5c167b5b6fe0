"""The scan: the best cut of a node on one sorted feature, the one loop that every compiled split
search runs (the level loop's search, the compiled levels, the presorted levels), built per
criterion from its ``(start, add, gain)`` and per layout from a reader of its rows.

A row holds a node's units sorted by a feature, node after node. Two layouts: sorted values
with their class codes and weights (:func:`sorted_values`: the level search, for the level loop
and the forests' compiled levels), or one word of rank, unit and class code per unit
(:func:`sorted_words`: the presorted levels). The reader gives the unit at a position and
whether a cut may follow it; the loop, the criterion's running sums and the choice of the best
cut are the same for both.
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from .cache import code_version, jit, per_criterion
from .nodes import node_weights
from .sort import cut_may_follow

__all__ = ["keep_best", "criterion_version", "make_scan", "sorted_values", "sorted_words",
           "make_level_search", "level_search_function"]


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


@register_jitable(inline="always")
def sorted_values(row, t, x):
    """Reader of a row ``(xs, ys, ws)`` of values (or ranks), class codes and weights sorted by
    value: the class and weight of the unit at ``t`` (whose value is ``x``), whether a cut may
    follow it (its value is below the next one's; never next to a missing value, sorted last:
    :func:`~ordstat.trees._kernels.sort.cut_may_follow`) and the next value."""
    xs, ys, ws = row
    nxt = xs[t + 1]
    return ys[t], ws[t], cut_may_follow(x, nxt), nxt


@register_jitable(inline="always")
def first_value(row, a):
    """What :func:`sorted_values` carries from one position to the next, at position ``a``."""
    return row[0][a]


@register_jitable(inline="always")
def sorted_words(row, t, cur):
    """Reader of a row ``(words, w, cb, umask, rs, nan_rank)`` of words ``rank << rs | unit <<
    cb | class`` (see :func:`ordstat.trees._kernels.presorted.pack_rows`), the weights ``w`` read
    by unit: the class and weight of the unit at ``t`` (``cur``: its word and weight), whether
    a cut may follow it (its rank is below the next one's, which is not a missing value's
    ``nan_rank``) and the next word with its weight. The weight is loaded one position ahead:
    its load waits for the word's, and so is off the path from one unit to the next (which
    shortens it for the criteria whose gain reads the left child's sums, as ordered twoing)."""
    words, w, cb, umask, rs, nan_rank = row
    word, weight = cur
    nxt = words[t + 1]
    rank = nxt >> rs
    return (word & ((1 << cb) - 1), weight, ((word >> rs) < rank) & (rank < nan_rank),
            (nxt, w[(nxt >> cb) & umask]))


@register_jitable(inline="always")
def first_word(row, a):
    """What :func:`sorted_words` carries from one position to the next, at position ``a``."""
    words, w, cb, umask = row[0], row[1], row[2], row[3]
    return words[a], w[(words[a] >> cb) & umask]


#: each reader's first carried value (position ``a`` of a node)
_FIRST = {sorted_values: first_value, sorted_words: first_word}


def criterion_version(start, add, gain):
    """Make a criterion's ``(start, add, gain)`` callable (inlined) from compiled code; returns
    the version of their code that names the kernels built on them (:func:`per_criterion`).

    The three functions stay plain Python objects, so the closures that call them pickle the
    same in every process and the on-disk cache is hit; the version changes with their code, so
    editing a criterion's scan is never served a stale cache."""
    for fn in (start, add, gain):
        register_jitable(inline="always")(fn)
    return code_version(start, add, gain)


def make_scan(start, add, gain, read, skip_ties, version):
    """The scan of one criterion on rows read by ``read`` (:func:`sorted_values` or
    :func:`sorted_words`), a plain function callable from compiled code.

    The returned ``scan(row, a, size, total, n, min_bucket, param, work)`` searches the node at
    positions ``a .. a + size`` of ``row`` (class totals ``total``, total weight ``n``; the
    scratch array ``work`` of the criterion's ``start``). A cut after position t (left = the
    node's units up to t) is admissible when both children keep ``min_bucket`` units and the
    reader says a cut may follow the unit at t. The criterion's running sums are updated as
    each unit joins the left child, so a node costs O(n K) or less instead of O(n K) per
    candidate. Returns the largest goodness (the first position on ties) and its position, or
    -inf and -1. The gain is evaluated after every unit, without a branch (:func:`keep_best`);
    with ``skip_ties`` (rows of mostly tied values: few cuts per node) only where a cut may
    follow, behind a branch that is then rarely taken.

    One function per criterion, reader and ``skip_ties``: the kernels calling a scan share
    its compiled code (each new one would be compiled again).
    """
    key = (start, add, gain, read, skip_ties, version)
    if key in _SCANS:
        return _SCANS[key]
    first = _FIRST[read]

    @register_jitable
    @per_criterion(version, ("tied_" if skip_ties else "free_") + read.__name__)
    def scan(row, a, size, total, n, min_bucket, param, work):
        state = start(total, param, work)
        nl = 0.0
        best = -np.inf
        best_t = -1
        cur = first(row, a)
        for i in range(size - min_bucket):
            t = a + i
            c, w, distinct, cur = read(row, t, cur)
            state = add(state, total, param, c, w)
            nl += w
            ok = (i >= min_bucket - 1) & distinct
            if skip_ties and not ok:  # (skip_ties is a constant: one compiled loop each)
                continue
            best, best_t = keep_best(best, best_t, gain(state, total, param, nl, n), ok, t)
        return best, best_t

    _SCANS[key] = scan
    return scan


_SCANS = {}  # the scans made (see make_scan)


def make_level_search(start, add, gain):
    """:func:`level_search_function`, compiled."""
    return jit(level_search_function(start, add, gain))


def level_search_function(start, add, gain):
    """The best-cut search of a level for one criterion's ``(start, add, gain)`` (see
    :class:`ordstat.trees.criteria.Criterion`), a plain function callable from compiled code
    (:func:`make_level_search` compiles it for the level loop's split search;
    :func:`ordstat.trees._kernels.levels.make_level_grow` calls it).

    The returned ``level_search(xs, ys, ws, starts, sizes, totals, min_bucket, param, todo,
    out_good, out_pos)`` scans (:func:`make_scan`, :func:`sorted_values`) every (feature row,
    node) of a level: row j of xs / ys / ws holds the values, class codes and weights of each
    node's units sorted by one feature, node after node (node s at positions starts[s] ..
    starts[s] + sizes[s]). It writes each scan's goodness and position; pairs with todo[j, s]
    False (features not drawn) get -inf and -1. Rows where over half the units tie with the
    next (few distinct values, e.g. item scores) are scanned with ``skip_ties``.
    """
    version = criterion_version(start, add, gain)
    scan_tied = make_scan(start, add, gain, sorted_values, True, version)
    scan_free = make_scan(start, add, gain, sorted_values, False, version)

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
            ties = 0
            for t in range(m - 1):
                ties += xs[j, t] == xs[j, t + 1]
            tied = ties > m // 2
            row = (xs[j], ys[j], ws[j])
            for s in range(starts.shape[0]):
                out_good[j, s] = -np.inf
                out_pos[j, s] = -1
                if todo[j, s]:
                    args = (row, starts[s], sizes[s], totals[s], weights[s], min_bucket, param,
                            work)
                    out_good[j, s], out_pos[j, s] = scan_tied(*args) if tied else \
                        scan_free(*args)

    return level_search
