"""numba kernels of the split search: one scan skeleton, built per criterion, and the stable
partition of a tree level (imported lazily by :mod:`ordstat.trees._fast`, which says why)."""

from __future__ import annotations

import contextlib
import hashlib
import os

import numba
import numpy as np
from numba import types
from numba.core.caching import FunctionCache
from numba.extending import overload, register_jitable

try:
    import fcntl
except ImportError:  # not POSIX: numba's cache without the lock
    fcntl = None

__all__ = ["make_level_search", "make_level_grow", "make_presorted_level", "pack_rows",
           "restrict_rows", "level_partition", "node_sort", "level_children"]


class LockedCache(FunctionCache):
    """numba's on-disk cache (``cache=True``), read and written under a file lock.

    numba numbers the data files of a function's overloads without a lock, so two processes
    compiling different overloads of one function at once (joblib workers, pytest-xdist) can
    leave one overload's index entry pointing at the other's machine code. The closures of
    :func:`make_level_search` and :func:`make_level_grow` share one index per function (one
    overload per criterion), so this gave silently wrong trees until the cache was cleared.
    The index key also holds numpy's version: environments with different numpy releases that
    import the same source tree (a development checkout) must not share machine code.
    """

    def _index_key(self, sig, codegen):
        return super()._index_key(sig, codegen) + (np.__version__,)

    def load_overload(self, sig, target_context):
        with _locked(self.cache_path):
            return super().load_overload(sig, target_context)

    def save_overload(self, sig, data):
        with _locked(self.cache_path):
            super().save_overload(sig, data)


@contextlib.contextmanager
def _locked(directory):
    """An exclusive lock on ``directory``/ordstat-numba.lock (none where it cannot be made:
    numba then cannot write its cache there either)."""
    try:
        fd = os.open(os.path.join(directory, "ordstat-numba.lock"), os.O_RDWR | os.O_CREAT,
                     0o666) if fcntl is not None else None
    except OSError:
        fd = None
    try:
        if fd is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        if fd is not None:
            os.close(fd)  # releases the lock


def jit(fn):
    """``numba.njit(cache=True, nogil=True)`` with the locked cache."""
    dispatcher = numba.njit(nogil=True)(fn)
    dispatcher._cache = LockedCache(fn)  # what Dispatcher.enable_caching sets
    return dispatcher


@register_jitable(inline="always")
def _keep_best(best, best_t, g, ok, t):
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
    version = _code_version(start, add, gain)

    def make_scan(skip_ties):
        """The scan of row j in the node at positions a .. a + size; with ``skip_ties`` (rows
        of mostly tied values) the gain only where the value changes."""
        @register_jitable
        @_per_criterion(("tied" if skip_ties else "free") + version)
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
                best, best_t = _keep_best(best, best_t, gain(state, total, param, nl, n), ok, t)
            return best, best_t
        return scan

    scan_tied, scan_free = make_scan(True), make_scan(False)

    @register_jitable
    @_per_criterion(version)
    def level_search(xs, ys, ws, starts, sizes, totals, min_bucket, param, todo, out_good,
                     out_pos):
        if len(version) == 0:  # never: only puts the code version into the cache key
            return
        work = np.empty((4, totals.shape[1]))  # the scans' state arrays
        weights = _node_weights(totals)
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


def _per_criterion(version):
    """Rename a kernel built for one criterion after the criterion's code ``version``.

    numba names compiled functions by their qualified name and a counter of the compiling
    process. Two processes compiling the same closure for different criteria could give the
    scans called by the level kernels the same symbol, and a process loading both from the
    on-disk cache would link one criterion's kernel to the other's scan (wrong trees, found
    when parallel jobs filled an empty cache). With the version in the name the symbols, and
    the cache index files, are the criterion's own."""
    def rename(fn):
        fn.__qualname__ = f"{fn.__qualname__}_{version[:16]}"
        return fn
    return rename


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
    codes and weights; rows with ``feats[r, s] < 0`` are left untouched. NaN sorts last; the
    other values by radix sort from ``RADIX_MIN`` on, by quicksort or insertion sort below.
    ``XT`` may also hold the features' ranks (non-negative ints, no missing value; ``o_xs`` of
    their type), radix sorted from ``RANK_RADIX_MIN`` on."""
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
            if lo - a >= _radix_min(o_xs):
                _radix(o_xs[r], o_order[r], a, lo)
            elif lo - a > 16:
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
    tu = np.empty(m, dtype=np.int64)
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


def make_level_grow(start, add, gain):
    """Compile one level of the forests' tree growth around a criterion's level search
    (:func:`level_search_function`; see "compiled levels" in :mod:`ordstat.trees._grow`).

    The returned ``level_grow(XT, SK, negXT, codes, w, rep, units, sizes, nodes, keys, kth, R,
    min_bucket, min_split, max_depth, param, iscale, value, n_units, left, right, feature,
    threshold, goodness, missing, depth, number, count, out_units, out_sizes, out_nodes)``
    does for the nodes of a level (node
    ``nodes[s]`` holding ``units`` in its segment of ``sizes[s]`` rows, each row ``rep``
    units) what the level loop of the builder does in numpy: it takes the R features whose
    random keys are at most the node's ``kth``, sorts the node's units by each of them (by
    ``SK``: ``XT`` itself or, without missing values, the features' ranks, which order the
    units as their values do) and searches them with ``level_search`` (and, where a node has
    missing values on a drawn feature, sorts and searches ``-x`` for "missing left", kept
    when strictly better), keeps the first best feature if its goodness passes rpart's noise
    rule (``iscale`` holds the largest goodness so far), sends the units left or right, and
    appends the two children to the node arrays (``count[0]`` nodes so far; ``missing`` -1
    none met, 0 right, 1 left). It
    writes the next level into the ``out_*`` arrays: the units of the children that may be
    split (``min_split``, ``max_depth``, two ``min_bucket``), their segment sizes and node ids,
    in child order (left, right, ...), and returns their numbers of nodes and units. (It
    returns no array: a cached kernel that returns one fails when the cache was written under
    another numpy, as when the R package's Python shares the source tree.)
    """
    level_search = level_search_function(start, add, gain)
    version = _code_version(start, add, gain)

    @jit
    @_per_criterion(version)
    def level_grow(XT, SK, negXT, codes, w, rep, units, sizes, nodes, keys, kth, R, min_bucket,
                   min_split, max_depth, param, iscale, value, n_units, left, right, feature,
                   threshold, goodness, missing, depth, number, count, out_units, out_sizes,
                   out_nodes):
        S = nodes.shape[0]
        p = XT.shape[0]
        K = value.shape[1]
        M = units.shape[0]
        starts, totals = _level_frame(sizes, nodes, value)
        # the R features drawn in each node (keys <= kth), in increasing order; -1 in the
        # nodes searched in vain: fewer than two min_bucket rows, or pure (every built-in
        # criterion's goodness is 0 there, which the node rule rejects)
        feats = np.full((R, S), -1, dtype=np.int64)
        todo = np.zeros((R, S), dtype=np.bool_)
        for s in range(S):
            n_classes = 0
            for g in range(K):
                if totals[s, g] > 0.0:
                    n_classes += 1
            if sizes[s] < max(2, 2 * min_bucket) or n_classes < 2:
                continue
            r = 0
            for j in range(p):
                if keys[s, j] <= kth[s]:
                    feats[r, s] = j
                    todo[r, s] = True
                    r += 1
        o_order = np.empty((R, M), dtype=np.int64)
        o_xs = np.empty((R, M), dtype=SK.dtype)
        o_ys = np.empty((R, M), dtype=np.int64)
        o_ws = np.empty((R, M))
        node_sort(SK, codes, w, units, starts, sizes, feats, o_order, o_xs, o_ys, o_ws)
        good = np.empty((R, S))
        pos = np.empty((R, S), dtype=np.int64)
        level_search(o_xs, o_ys, o_ws, starts, sizes, totals, min_bucket, param, todo, good,
                     pos)
        thr = np.full((R, S), np.nan)
        for r in range(R):
            for s in range(S):
                t = pos[r, s]
                if t >= 0:
                    j = feats[r, s]
                    thr[r, s] = _midpoint(XT[j, o_order[r, t]], XT[j, o_order[r, t + 1]])
        # missing values: NaN sort last; search -x where a node has some on a drawn feature
        nan = np.zeros((R, S), dtype=np.bool_)
        ml = np.zeros((R, S), dtype=np.bool_)
        if negXT.shape[0] > 0:
            mfeats = np.full((R, S), -1, dtype=np.int64)
            any_nan = False
            for r in range(R):
                for s in range(S):
                    if not todo[r, s]:
                        continue
                    last = XT[feats[r, s], o_order[r, starts[s] + sizes[s] - 1]]
                    if last != last:
                        nan[r, s] = True
                        mfeats[r, s] = feats[r, s]
                        any_nan = True
            if any_nan:
                m_xs = np.empty((R, M))
                node_sort(negXT, codes, w, units, starts, sizes, mfeats, o_order, m_xs, o_ys,
                          o_ws)
                m_good = np.empty((R, S))
                m_pos = np.empty((R, S), dtype=np.int64)
                level_search(m_xs, o_ys, o_ws, starts, sizes, totals, min_bucket, param, nan,
                             m_good, m_pos)
                for r in range(R):
                    for s in range(S):
                        t = m_pos[r, s]
                        if nan[r, s] and t >= 0 and m_good[r, s] > good[r, s]:
                            good[r, s] = m_good[r, s]
                            thr[r, s] = _midpoint(-m_xs[r, t + 1], -m_xs[r, t])
                            ml[r, s] = True
        n_next = 0
        m_next = 0
        lc = np.empty(K)
        for s in range(S):
            best = -np.inf
            br = -1
            for r in range(R):
                if good[r, s] > best:
                    best = good[r, s]
                    br = r
            if not _passes_noise_rule(best, iscale):
                continue
            v = nodes[s]
            j = feats[br, s]
            cut = thr[br, s]
            go_nan = ml[br, s]
            lc[:] = 0.0
            rows_left = 0
            u_left = 0
            for i in range(starts[s], starts[s] + sizes[s]):
                u = units[i]
                x = XT[j, u]
                go = go_nan if x != x else x < cut
                if go:
                    lc[codes[u]] += w[u]
                    rows_left += 1
                    u_left += rep[u]
            kid = _add_children(v, j, cut, best, lc, u_left, count, value, n_units, left, right,
                                feature, threshold, goodness, depth, number)
            missing[v] = (1 if go_nan else 0) if nan[br, s] else -1
            # the children that may be split, each with its units in their order here
            for c, side, rows in ((kid, True, rows_left), (kid + 1, False, sizes[s] - rows_left)):
                nn = n_units[c]
                if nn < min_split or depth[c] >= max_depth or nn < 2 * min_bucket:
                    continue
                out_nodes[n_next], out_sizes[n_next] = c, rows
                n_next += 1
                for i in range(starts[s], starts[s] + sizes[s]):
                    u = units[i]
                    x = XT[j, u]
                    go = go_nan if x != x else x < cut
                    if go == side:
                        out_units[m_next] = u
                        m_next += 1
        return n_next, m_next

    return level_grow


@register_jitable
def _level_frame(sizes, nodes, value):
    """Each node's first position in the level's rows (segments of ``sizes``) and its class
    totals (rows of ``value``), for the level kernels."""
    S = nodes.shape[0]
    starts = np.empty(S, dtype=np.int64)
    a = 0
    for s in range(S):
        starts[s] = a
        a += sizes[s]
    totals = np.empty((S, value.shape[1]))
    for s in range(S):
        totals[s] = value[nodes[s]]
    return starts, totals


@register_jitable
def _node_weights(totals):
    """Each node's total weight (its class totals summed in class order), for its scans."""
    weights = np.zeros(totals.shape[0])
    for s in range(totals.shape[0]):
        for g in range(totals.shape[1]):
            weights[s] += totals[s, g]
    return weights


@register_jitable
def _passes_noise_rule(best, iscale):
    """Whether a node's best goodness makes a split: finite, and not rounding noise relative
    to the largest goodness seen so far (rpart's rule; ``iscale[0]``, updated here)."""
    if not np.isfinite(best):
        return False
    iscale[0] = max(iscale[0], best)
    return best > max(iscale[0] * 1e-10, 0.0)


@register_jitable
def _add_children(v, j, cut, best, lc, u_left, count, value, n_units, left, right, feature,
                  threshold, goodness, depth, number):
    """Split node v on ``x_j < cut`` (goodness ``best``): append its two children to the node
    arrays, the left one with class weights ``lc`` and ``u_left`` units; returns the left
    child's index (the right one follows)."""
    kid = count[0]
    count[0] = kid + 2
    left[v], right[v] = kid, kid + 1
    feature[v], threshold[v], goodness[v] = j, cut, best
    for g in range(value.shape[1]):
        value[kid, g] = lc[g]
        value[kid + 1, g] = max(value[v, g] - lc[g], 0.0)
    n_units[kid], n_units[kid + 1] = u_left, n_units[v] - u_left
    depth[kid] = depth[kid + 1] = depth[v] + 1
    number[kid], number[kid + 1] = 2 * number[v], 2 * number[v] + 1
    return kid


@register_jitable
def _midpoint(a, b):
    """The split threshold between consecutive sorted values a < b (as the splitter's)."""
    mid = (a + b) / 2.0
    return mid if a < mid else b



def make_presorted_level(start, add, gain):
    """Compile one level of the growth of trees that keep every feature presorted, around a
    criterion's ``(start, add, gain)`` (see "compiled levels" in :mod:`ordstat.trees._grow`).

    The returned ``presorted_level(XT, order, cb, ub, row_feature, tied, w, rep, flag, sizes,
    nodes, keys, kth, min_bucket, min_split, max_depth, loss, alpha, param, iscale, value,
    n_units, left, right, feature, threshold, goodness, missing, depth, number, count, o_order,
    out_sizes, out_nodes)`` does for the nodes of a level what the level loop of the builder
    does with :class:`ordstat.trees._splitter.Splitter`. Row r of ``order`` (P, M) holds each
    node's units sorted by feature ``row_feature[r]``, node after node (node ``nodes[s]`` in a
    segment of ``sizes[s]`` rows, each row ``rep`` units); rows from ``XT.shape[0]`` on are
    sorted by -x of the features with missing values, searched where the node has some on
    that feature ("missing left", kept when strictly better). Each entry is one word (see
    :func:`pack_rows`): the unit's rank in the row's order (``XT.shape[1]`` for a missing
    value, so that no cut is made next to one), its index (``ub`` bits) and its class code
    (``cb`` bits), so that only the words move and the search reads them in order (the
    weights ``w`` by unit).

    A row is searched in a node when the feature's random key is at most the node's ``kth``
    (``keys`` of shape (0, p): every feature) and the node is neither pure nor smaller than two
    ``min_bucket`` (every built-in criterion's goodness is 0 or -inf there, which the node rule
    rejects); the scan is the level search's (:func:`level_search_function`), the same sums in
    the same order, evaluating the gain only where the value changes on the rows flagged in
    ``tied`` (mostly tied values: few cuts per node) and after every unit, without a branch,
    elsewhere. The node rule keeps the first best feature if its goodness passes rpart's noise
    rule (``iscale``: the largest goodness so far); the units are sent left or right (class
    counts summed in the order of row 0, as the level loop), the two children appended to the
    node arrays (``count[0]`` nodes so far), and every row partitioned stably into the children
    that may be split (``min_split``, ``max_depth``, two ``min_bucket``, risk > ``alpha`` under
    ``loss``), in child order (left, right, ...), into ``o_order`` (flat, read as (P, M'),
    trailing columns unused). ``out_sizes`` and ``out_nodes`` get the next level's segment sizes
    and node ids; returns its numbers of nodes and of columns M' (no array: see
    :func:`make_level_grow`).
    """
    for fn in (start, add, gain):
        register_jitable(inline="always")(fn)
    version = _code_version(start, add, gain)

    def make_scan(skip_ties):
        """The level search of row r in the node at positions a .. a + size; with
        ``skip_ties`` (rows of mostly tied values) the gain only where the value changes."""
        @register_jitable
        @_per_criterion(("tied" if skip_ties else "free") + version)
        def scan(order, w, r, a, size, total, n, min_bucket, param, cb, umask, rs, nan_rank,
                 work):
            state = start(total, param, work)
            nl = 0.0
            best = -np.inf
            best_t = -1
            cmask = (1 << cb) - 1
            nxt = order[r, a]
            for i in range(size - min_bucket):
                t = a + i
                word = nxt
                nxt = order[r, t + 1]
                wu = w[(word >> cb) & umask]
                state = add(state, total, param, word & cmask, wu)
                nl += wu
                rank = nxt >> rs
                ok = (i >= min_bucket - 1) & ((word >> rs) < rank) & (rank < nan_rank)
                if skip_ties and not ok:  # (skip_ties is a constant: one compiled loop each)
                    continue
                best, best_t = _keep_best(best, best_t, gain(state, total, param, nl, n), ok, t)
            return best, best_t
        return scan

    scan_tied, scan_free = make_scan(True), make_scan(False)

    @register_jitable
    @_per_criterion(version)
    def search_row(order, row_feature, tied, w, r, p, starts, sizes, totals, weights, keys,
                   kth, min_bucket, param, cb, umask, rs, nan_rank, good, pos, work):
        """Search row r in every node of a level (-inf, -1 where not searched)."""
        j = row_feature[r]
        for s in range(starts.shape[0]):
            good[r, s] = -np.inf
            pos[r, s] = -1
            if sizes[s] < max(2, 2 * min_bucket) or (keys.shape[0] and keys[s, j] > kth[s]):
                continue
            n_classes = 0
            for g in range(totals.shape[1]):
                if totals[s, g] > 0.0:
                    n_classes += 1
            if n_classes < 2:
                continue
            # a row of -x: only where the node has missing values (sorted last)
            if r >= p and order[r, starts[s] + sizes[s] - 1] >> rs != nan_rank:
                continue
            args = (order, w, r, starts[s], sizes[s], totals[s], weights[s], min_bucket, param,
                    cb, umask, rs, nan_rank, work)
            good[r, s], pos[r, s] = scan_tied(*args) if tied[r] else scan_free(*args)

    @jit
    @_per_criterion(version)
    def presorted_level(XT, order, cb, ub, row_feature, tied, w, rep, flag, sizes, nodes, keys,
                        kth, min_bucket, min_split, max_depth, loss, alpha, param, iscale,
                        value, n_units, left, right, feature, threshold, goodness, missing,
                        depth, number, count, o_order, out_sizes, out_nodes):
        if len(version) == 0:  # never: only puts the code version into the cache key
            return 0, 0
        S = nodes.shape[0]
        p = XT.shape[0]
        P = order.shape[0]
        K = value.shape[1]
        umask = (1 << ub) - 1
        cmask = (1 << cb) - 1
        rs = cb + ub
        nan_rank = XT.shape[1]
        starts, totals = _level_frame(sizes, nodes, value)
        weights = _node_weights(totals)
        good = np.empty((P, S))
        pos = np.empty((P, S), dtype=np.int64)
        work = np.empty((4, K))  # the scans' state arrays
        for r in range(P):
            search_row(order, row_feature, tied, w, r, p, starts, sizes, totals, weights, keys,
                       kth, min_bucket, param, cb, umask, rs, nan_rank, good, pos, work)
        n_next = 0
        m_next = 0
        lc = np.empty(K)
        split = np.zeros(S, dtype=np.bool_)
        kid_rows = np.zeros(2 * S, dtype=np.int64)  # rows of each child kept, else 0
        trash = 0  # rows of the largest child dropped
        for s in range(S):
            best = -np.inf
            br = -1
            for j in range(p):  # the first best feature
                if good[j, s] > best:
                    best = good[j, s]
                    br = j
            for r in range(p, P):  # missing left, where strictly better
                j = row_feature[r]
                if good[r, s] > good[j, s] and (good[r, s] > best or (
                        good[r, s] == best and j < row_feature[br])):
                    best = good[r, s]
                    br = r
            if not _passes_noise_rule(best, iscale):
                continue
            split[s] = True
            v = nodes[s]
            t = pos[br, s]
            j = row_feature[br]
            xa = XT[j, (order[br, t] >> cb) & umask]
            xb = XT[j, (order[br, t + 1] >> cb) & umask]
            go_nan = br >= p
            # on a row of -x, the cut between -x = -xa and -xb is x = xb | xa
            cut = _midpoint(xb, xa) if go_nan else _midpoint(xa, xb)
            # the node has missing values (sorted last)
            has_nan = order[j, starts[s] + sizes[s] - 1] >> rs == nan_rank
            lc[:] = 0.0
            rows_left = 0
            u_left = 0
            for i in range(starts[s], starts[s] + sizes[s]):
                word = order[0, i]
                u = (word >> cb) & umask
                x = XT[j, u]
                go = go_nan if x != x else x < cut
                flag[u] = go
                if go:
                    lc[word & cmask] += w[u]
                    rows_left += 1
                    u_left += rep[u]
            kid = _add_children(v, j, cut, best, lc, u_left, count, value, n_units, left, right,
                                feature, threshold, goodness, depth, number)
            missing[v] = (1 if go_nan else 0) if has_nan else -1
            for c, rows in ((kid, rows_left), (kid + 1, sizes[s] - rows_left)):
                nn = n_units[c]
                if (nn < min_split or depth[c] >= max_depth or nn < 2 * min_bucket
                        or not _risk(value[c], loss) > alpha):
                    trash = max(trash, rows)
                    continue
                kid_rows[2 * s + c - kid] = rows
                out_nodes[n_next], out_sizes[n_next] = c, rows
                n_next += 1
                m_next += rows
        if n_next == 0:
            return 0, 0
        # Without a branch on the side (a coin flip for the branch predictor, on every row
        # but the split's): a dropped child's units go to trailing columns no node reads.
        width = m_next + trash
        oo = o_order[:P * width].reshape((P, width))
        dest = np.full(2 * S, m_next, dtype=np.int64)
        d = 0
        for i in range(2 * S):
            if kid_rows[i] > 0:
                dest[i] = d
                d += kid_rows[i]
        for r in range(P):
            for s in range(S):
                if not split[s]:
                    continue
                li = dest[2 * s]
                ri = dest[2 * s + 1]
                if kid_rows[2 * s] + kid_rows[2 * s + 1] == 0:
                    continue
                for t in range(starts[s], starts[s] + sizes[s]):
                    word = order[r, t]
                    go = np.int64(flag[(word >> cb) & umask])
                    oo[r, ri + go * (li - ri)] = word
                    li += go
                    ri += 1 - go
        return n_next, width

    return presorted_level


@register_jitable
def _risk(counts, loss):
    """The node's risk: the smallest over h of sum_g loss[h, g] counts[g]. Only compared with
    alpha <= 0: a sum of non-negative terms is positive in any order of summation."""
    best = np.inf
    for h in range(loss.shape[0]):
        r = 0.0
        for g in range(counts.shape[0]):
            r += counts[g] * loss[h, g]
        best = min(best, r)
    return best


@jit
def pack_rows(XT, features, sign, order, codes, row0, cb, ub, out):
    """Row ``row0 + r`` of ``out``: the units of ``order[r]``, sorted by ``sign * x`` of feature
    ``features[r]`` (rows of ``XT``, NaN last), each as one word ``rank << (ub + cb) | u << cb
    | codes[u]`` (the layout of :func:`make_presorted_level`), the rank counting the distinct
    values before the unit's in the row (equal values, equal ranks; ``XT.shape[1]`` for
    NaN)."""
    nan_rank = XT.shape[1]
    for r in range(order.shape[0]):
        j = features[r]
        rank = 0
        prev = 0.0
        for t in range(order.shape[1]):
            u = np.int64(order[r, t])
            x = sign * XT[j, u]
            if x != x:
                k = nan_rank
            else:
                if t > 0 and x > prev:
                    rank += 1
                prev = x
                k = rank
            out[row0 + r, t] = (np.int64(k) << (ub + cb)) | (u << cb) | codes[u]


@jit
def restrict_rows(words, inside, cb, ub, out):
    """The first rows of ``out`` (shape (P, m)): the words of each row of ``words`` whose unit
    is ``inside`` (m of them), in order; without a branch on ``inside`` (a coin flip for the
    branch predictor): each word is written, the next position taken only if inside."""
    flat = out.reshape(out.size)
    umask = (1 << ub) - 1
    m = out.shape[1]
    for r in range(words.shape[0]):
        k = r * m
        end = k + m
        for t in range(words.shape[1]):
            word = words[r, t]
            flat[k] = word
            k += np.int64(inside[(word >> cb) & umask])
            if k == end:
                break
