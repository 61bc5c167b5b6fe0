"""The best cut of an unordered categorical feature in one node, from its categories' class
counts, for the compiled levels: the level loop's rule (``Splitter._categorical``,
``Splitter._all_subsets`` and ``_with_unseen`` of :mod:`ordstat.trees._splitter`), the same
cut and the same goodness, as plain functions callable from compiled code (and from Python:
the tests run them both ways).

The level loop scores the candidates with the criterion's numpy ``goodness``; here the
criterion's scan ``(start, add, gain)`` scores them, each category's class counts added at
once. With whole-number weights every running sum is the same exact integer, so the goodness
is the same float (the builder only sends such trees here, see
:meth:`ordstat.trees._splitter.Splitter.compiled_categories`); the mean class of a category,
which orders them, is computed as numpy computes it (:func:`category_mean`).
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from .cache import per_criterion

__all__ = ["numpy_sum", "category_mean", "make_category_cut"]


@register_jitable
def numpy_sum(a, n):
    """``np.sum`` of ``a[:n]`` (n <= 128) as numpy adds a row of a 2-D array: one by one
    below 8 terms, else in 8 interleaved partial sums added pairwise, then the rest (numpy's
    pairwise summation, one block), so that the same float comes out."""
    if n < 8:
        s = -0.0
        for i in range(n):
            s += a[i]
        return s
    r0, r1, r2, r3, r4, r5, r6, r7 = a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
    i = 8
    while i < n - n % 8:
        r0 += a[i]
        r1 += a[i + 1]
        r2 += a[i + 2]
        r3 += a[i + 3]
        r4 += a[i + 4]
        r5 += a[i + 5]
        r6 += a[i + 6]
        r7 += a[i + 7]
        i += 8
    s = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        s += a[i]
        i += 1
    return s


@register_jitable
def category_mean(counts, buf):
    """The mean class code of a category of class weights ``counts`` (K,), from its class
    proportions and rounded to 9 decimals, the float of the level loop's
    ``_splitter._category_means`` (``buf``: scratch of K floats)."""
    K = counts.shape[0]
    for g in range(K):
        buf[g] = counts[g]
    total = numpy_sum(buf, K)
    for g in range(K):
        buf[g] = (counts[g] / total) * float(g)
    return np.rint(numpy_sum(buf, K) * 1e9) / 1e9


_CUTS = {}  # (start, add, gain): category_cut, one function for both levels (compiled once)


def make_category_cut(start, add, gain, version):
    """The categorical cut of one criterion's ``(start, add, gain)``, a plain function
    callable from compiled code (``version``: the criterion's code version, see
    :func:`ordstat.trees._kernels.scan.criterion_version`, which has made the three
    callable); the same function for both compiled levels, so typed and lowered once.

    The returned ``category_cut(counts, units, n_cat, total, n, size, min_bucket, param,
    subsets, work, buf, seq, sent)`` searches a node of ``size`` rows, class totals ``total`` and
    total weight ``n`` on a feature whose category c (< ``n_cat``) has class weights
    ``counts[c]`` and ``units[c]`` rows in the node: its present categories ordered by their
    mean class (ties by code) and cut after each but the last, both children keeping
    ``min_bucket`` rows (each cut scored by one function, where the criterion's scan is
    inlined once: a second inlining cost 15 s of compiling per criterion); with ``subsets``
    >= 3 (a criterion that ignores the class order, K > 2), where 3 to ``subsets``
    categories are present, every subset with the last present
    category on the right replaces that cut where strictly better (the first best in binary
    order). Returns the best goodness (-inf where no cut is admissible) and writes ``sent``
    (n_cat,): the categories sent left, those absent from the node included when the left
    child holds at least half the node's weight (they follow the majority). ``work``: the
    scan's (4, K) scratch; ``buf``: a (3, max(n_cat, K)) float scratch; ``seq``: an
    int64 scratch of ``n_cat``.
    """

    if (start, add, gain) in _CUTS:
        return _CUTS[start, add, gain]

    @register_jitable
    @per_criterion(version)
    def score(left, total, n, param, work):
        """The goodness of the cut with class weights ``left`` on the left, each class's
        weight added at once (whole numbers: the same sums as unit by unit)."""
        state = start(total, param, work)
        nl = 0.0
        for g in range(total.shape[0]):
            if left[g] != 0.0:
                state = add(state, total, param, g, left[g])
                nl += left[g]
        return gain(state, total, param, nl, n)

    @register_jitable
    @per_criterion(version)
    def category_cut(counts, units, n_cat, total, n, size, min_bucket, param, subsets, work,
                     buf, seq, sent):
        K = total.shape[0]
        means, left = buf[0], buf[1]  # seq: the present categories by mean class
        L = 0
        for c in range(n_cat):
            sent[c] = False
            if units[c] > 0:
                means[c] = category_mean(counts[c], buf[2])
                # insertion after every category of a smaller or equal mean (stable by code)
                i = L
                while i > 0 and means[seq[i - 1]] > means[c]:
                    seq[i] = seq[i - 1]
                    i -= 1
                seq[i] = c
                L += 1
        best = -np.inf
        if L < 2:
            return best
        left[:K] = 0.0
        rows = 0
        best_i = -1
        for i in range(L - 1):  # a cut after each present category but the last
            c = seq[i]
            rows += units[c]
            for g in range(K):
                left[g] += counts[c, g]
            if rows >= min_bucket and size - rows >= min_bucket:
                good = score(left, total, n, param, work)
                if good > best:
                    best = good
                    best_i = i
        for i in range(best_i + 1):
            sent[seq[i]] = True
        if 3 <= L <= subsets:
            # the present categories in code order (seq reused), the last one always right
            j = 0
            for c in range(n_cat):
                if units[c] > 0:
                    seq[j] = c
                    j += 1
            sub_best = -np.inf
            sub_m = 0
            for m in range(1, 1 << (L - 1)):
                left[:K] = 0.0
                rows = 0
                for b in range(L - 1):
                    if (m >> b) & 1:
                        c = seq[b]
                        rows += units[c]
                        for g in range(K):
                            left[g] += counts[c, g]
                if rows >= min_bucket and size - rows >= min_bucket:
                    good = score(left, total, n, param, work)
                    if good > sub_best:
                        sub_best = good
                        sub_m = m
            if sub_best > best:
                best = sub_best
                for c in range(n_cat):
                    sent[c] = False
                for b in range(L - 1):
                    if (sub_m >> b) & 1:
                        sent[seq[b]] = True
        if best == -np.inf:
            return best
        in_left = 0.0
        for c in range(n_cat):
            if sent[c]:
                for g in range(K):
                    in_left += counts[c, g]
        if in_left >= n - in_left:  # the absent categories follow the majority
            for c in range(n_cat):
                if units[c] == 0:
                    sent[c] = True
        return best

    _CUTS[start, add, gain] = category_cut
    return category_cut
