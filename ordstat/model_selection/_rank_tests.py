"""The rank tests behind the comparisons of methods: Wilcoxon's signed-rank test, the
Mann-Whitney rank-sum test and Friedman's test.

scipy's default ``method="auto"`` changed in scipy 1.15: with ties or zero differences among at
most 13 pairs the signed-rank test became a permutation test, where earlier releases used the
normal approximation (zeros) or the exact table on averaged ranks (ties); scipy 1.15 also renamed
the normal approximation from "approx" to "asymptotic". So ordstat chooses the method itself
and passes it, with ``zero_method``, explicitly: the p-values are the same for every supported
scipy (>= 1.11). The rule is R's ``wilcox.test`` (without its continuity correction, as
scipy): zero differences are dropped (Wilcoxon's convention); the p-value is exact when there
were no zero differences, no ties among the absolute differences and at most 50 differences,
else it is the normal approximation with the variance corrected for ties. scipy's warnings on
these choices are kept from the user: ``RankTest.method`` says which was used.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import scipy
from scipy import stats

__all__ = ["RankTest", "friedman_test", "rank_sum_test", "signed_rank_test"]

#: at most this many non-zero differences (and no ties or zeros): exact signed-rank p-value
EXACT_LIMIT = 50
#: below this many non-zero differences the normal approximation is rough
SMALL_SAMPLE = 10
# differences equal after rounding to this many decimals are ties (0.3 - 0.1 and 0.2 - 0.0
# differ in the last bit; scipy's documentation asks to round before ranking)
_DECIMALS = 12


def _scipy_at_least(major, minor):
    parts = scipy.__version__.split(".")
    return (int(parts[0]), int(parts[1])) >= (major, minor)


# scipy's name for the normal approximation, "approx" before 1.15
_NORMAL = "asymptotic" if _scipy_at_least(1, 15) else "approx"


@dataclass(frozen=True)
class RankTest:
    """A two-sided rank test: ``statistic``, ``pvalue``, ``method`` ("exact", "normal", or
    "none" when every difference is zero) and ``n``, the observations it ranked (non-zero
    differences for the signed-rank test, both samples for the rank-sum test)."""

    statistic: float
    pvalue: float
    method: str
    n: int

    @property
    def rough(self) -> bool:
        """A normal approximation on fewer than ``SMALL_SAMPLE`` observations."""
        return self.method == "normal" and self.n < SMALL_SAMPLE


def _quiet(test, *args, **kwargs):
    """Call a scipy test without its warnings (small samples, exact-to-normal switches): the
    method is chosen here and reported in ``RankTest.method``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return test(*args, **kwargs)


def signed_rank_test(a, b):
    """Wilcoxon's signed-rank test of paired samples ``a`` and ``b`` (two-sided).

    The statistic is the smaller of the rank sums of the positive and of the negative
    differences; zero differences are dropped; p = 1 when all differences are zero. The
    p-value is exact when there was no zero difference, no tie among the absolute differences
    and at most ``EXACT_LIMIT`` differences, otherwise the normal approximation with the tie
    correction and no continuity correction (see the module's docstring).

    Returns
    -------
    RankTest
    """
    d = np.round(np.asarray(a, dtype=float) - np.asarray(b, dtype=float), _DECIMALS)
    zeros = bool(np.any(d == 0))
    d = d[d != 0]
    n = len(d)
    if n == 0:
        return RankTest(0.0, 1.0, "none", 0)
    ties = len(np.unique(np.abs(d))) < n
    exact = not zeros and not ties and n <= EXACT_LIMIT
    result = _quiet(stats.wilcoxon, d, zero_method="wilcox", correction=False,
                    alternative="two-sided", method="exact" if exact else _NORMAL)
    return RankTest(float(result.statistic), float(result.pvalue),
                    "exact" if exact else "normal", n)


def rank_sum_test(a, b):
    """The Mann-Whitney (Wilcoxon rank-sum) test of two independent samples (two-sided).

    Exact when there are no ties and one sample has at most 8 observations, otherwise the normal
    approximation with the tie and continuity corrections (scipy's rule, stated explicitly).
    The statistic is the U of ``a``.

    Returns
    -------
    RankTest
    """
    a = np.round(np.asarray(a, dtype=float), _DECIMALS)
    b = np.round(np.asarray(b, dtype=float), _DECIMALS)
    pooled = np.concatenate([a, b])
    ties = len(np.unique(pooled)) < len(pooled)
    exact = not ties and min(len(a), len(b)) <= 8
    result = _quiet(stats.mannwhitneyu, a, b, use_continuity=True, alternative="two-sided",
                    method="exact" if exact else "asymptotic")
    return RankTest(float(result.statistic), float(result.pvalue),
                    "exact" if exact else "normal", len(pooled))


def friedman_test(values):
    """Friedman's test of k >= 3 methods (columns) over blocks (rows): ``(statistic, p)``,
    chi-squared with k - 1 degrees of freedom and the tie correction; (0, 1) when every block
    ties all methods (scipy would divide by zero)."""
    values = np.asarray(values, dtype=float)
    if not np.ptp(values, axis=1).any():
        return 0.0, 1.0
    statistic, pvalue = _quiet(stats.friedmanchisquare, *values.T)
    return float(statistic), float(pvalue)
