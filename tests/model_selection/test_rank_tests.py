"""The rank tests choose their method themselves, so that the p-values do not depend on the
scipy release (scipy 1.15 changed what its default does with ties and zeros). Every expected
value is computed by hand; the suite runs at the oldest and the newest supported releases, so
both must give these numbers."""

import math
import warnings

import numpy as np
import pytest
from scipy import stats

from ordstat.model_selection import _rank_tests as rt


def _normal_p(t, n, ties=()):
    """Two-sided p of the signed-rank normal approximation without continuity correction:
    rank sum t of n differences, tie groups of the given sizes."""
    mean = n * (n + 1) / 4
    var = (n * (n + 1) * (2 * n + 1) - sum(g ** 3 - g for g in ties) / 2) / 24
    return 2 * stats.norm.sf(abs(t - mean) / math.sqrt(var))


def test_exact_without_zeros_or_ties():
    # six positive differences: the only sign pattern as extreme is its mirror, p = 2 / 2^6
    res = rt.signed_rank_test([11, 12, 13, 14, 15, 16], [10, 10, 10, 10, 10, 10])
    assert (res.statistic, res.method, res.n) == (0.0, "exact", 6)
    assert res.pvalue == pytest.approx(2 / 64, rel=1e-12)
    # one negative difference of rank 2: positive rank sums <= 2 are {}, {1}, {2}: p = 2 * 3/64
    res = rt.signed_rank_test([1, -2, 3, 4, 5, 6], np.zeros(6))
    assert res.statistic == 2.0 and res.pvalue == pytest.approx(6 / 64, rel=1e-12)


def test_zero_differences_are_dropped_and_give_the_normal_approximation():
    # a zero and eleven positive differences: the rank sum 0 of n = 11 against the normal
    # approximation (scipy >= 1.15's default would run a permutation test: 2 / 2^11)
    d = np.arange(12.0)
    res = rt.signed_rank_test(d, np.zeros(12))
    assert (res.statistic, res.method, res.n) == (0.0, "normal", 11)
    assert res.pvalue == pytest.approx(_normal_p(0, 11), rel=1e-12)
    assert res.pvalue == pytest.approx(0.003346, abs=1e-6)  # z = 33 / sqrt(126.5)
    assert not res.rough


def test_ties_give_the_normal_approximation_with_the_tie_correction():
    # |d| = 1 1 2 3 4 5: the two 1s share rank 1.5; the negative difference has rank 5
    res = rt.signed_rank_test([1, 1, 2, 3, -4, 5], np.zeros(6))
    assert (res.statistic, res.method, res.n) == (5.0, "normal", 6)
    assert res.pvalue == pytest.approx(_normal_p(5, 6, ties=[2]), rel=1e-12)
    assert res.rough  # a normal approximation on 6 differences


def test_differences_equal_up_to_rounding_are_ties():
    # 0.3 - 0.1 and 0.2 - 0.0 differ in the last bit; they are the same difference
    res = rt.signed_rank_test([0.3, 0.2, 0.5], [0.1, 0.0, 0.0])
    assert res.method == "normal" and res.statistic == 0.0
    assert res.pvalue == pytest.approx(_normal_p(0, 3, ties=[2]), rel=1e-12)


def test_no_difference_at_all():
    res = rt.signed_rank_test([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
    assert (res.statistic, res.pvalue, res.method, res.n) == (0.0, 1.0, "none", 0)


def test_more_than_fifty_differences_are_normal():
    d = np.arange(1.0, 52.0)  # 51 distinct positive differences
    res = rt.signed_rank_test(d, np.zeros(51))
    assert res.method == "normal" and res.pvalue == pytest.approx(_normal_p(0, 51), rel=1e-12)
    res = rt.signed_rank_test(d[:50], np.zeros(50))
    assert res.method == "exact" and res.pvalue == pytest.approx(2 / 2 ** 50, rel=1e-9)


def test_rank_sum_exact_and_normal():
    # {1, 2, 3} all below {4, 5, 6}: U = 0, exact p = 2 / C(6, 3)
    res = rt.rank_sum_test([1, 2, 3], [4, 5, 6])
    assert (res.statistic, res.method) == (0.0, "exact")
    assert res.pvalue == pytest.approx(0.1, rel=1e-12)
    # a tie: normal approximation, tie-corrected variance 9/12 (7 - 6/30) = 5.1, continuity 0.5
    res = rt.rank_sum_test([1, 2, 2], [3, 4, 5])
    assert (res.statistic, res.method) == (0.0, "normal")
    assert res.pvalue == pytest.approx(2 * stats.norm.sf(4.0 / math.sqrt(5.1)), rel=1e-12)


def test_friedman_by_hand_and_all_tied():
    # every block ranks the three methods 1, 2, 3: 12 / (3 4 4) (4^2 + 8^2 + 12^2) - 48 = 8,
    # chi-squared with 2 degrees of freedom: p = exp(-4)
    values = np.tile([1.0, 2.0, 3.0], (4, 1))
    statistic, pvalue = rt.friedman_test(values)
    assert statistic == pytest.approx(8.0) and pvalue == pytest.approx(math.exp(-4.0))
    assert rt.friedman_test(np.ones((5, 3))) == (0.0, 1.0)


def test_scipy_warnings_stay_inside():
    # the cases where some scipy release warns (zeros with an exact default, few units for
    # the normal approximation, a rank-sum tie)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rt.signed_rank_test([0, 1, 2], [0, 0, 0])
        rt.signed_rank_test([1, 1, 2, 3, -4, 5], np.zeros(6))
        rt.rank_sum_test([1, 2, 2], [3, 4, 5])
        rt.friedman_test(np.array([[1.0, 1.0, 2.0], [2.0, 1.0, 1.0]]))
