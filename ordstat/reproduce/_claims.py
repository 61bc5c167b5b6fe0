"""Claims: when a number of ours reproduces a paper's, and when our test gives the paper's verdict.

- ``claim_tolerance`` and ``claim_row``: a printed mean against ours over repeated splits, within
  two (corrected) standard errors of their difference plus the print's rounding. Every section
  that compares means over splits (the dissertation's cross-validation, Waegeman & Boullart's
  train/test pairs) claims through these two.
- ``significance_mark``: the dissertation's "•"/"∘" of a comparator against the first column of
  its table, by the corrected resampled t-test (Nadeau & Bengio 2003).
- ``detectable_difference`` and ``finding_row``: a finding of a paper (a mark, an ordering of
  two methods) claimed where our run has the power to see the paper's difference;
  ``power_cost``: what running fewer splits than the paper costs in that power.
"""

from __future__ import annotations

import numpy as np

from ._cv import split_values
from ._paper_tables import MARK_BETTER, MARK_WORSE
from ._report import Row

__all__ = ["claim_row", "claim_tolerance", "detectable_difference", "detectable_factor",
           "finding_row", "our_marks", "power_cost", "significance_mark"]


def claim_tolerance(sd_paper, sd_ours, n_ours, *, n_paper, test_train_ratio=0.0, decimals=2):
    """Largest difference between our mean and the paper's that we accept as reproduced.

    Two standard errors of the difference of two independent means over splits,
    2 sqrt(sd_p^2 (1/J_p + r) + sd_o^2 (1/J_o + r)), with J the number of splits, sd the
    standard deviation over splits and r the test share over the learning share of one split:
    r = 1/9 for 10-fold cross-validation gives Nadeau & Bengio's (2003) corrected standard
    error, about the smallest difference their corrected t-test at 0.05 could call
    significant; r = 0 is the plain standard error of independent splits. Half a unit of the
    printed last decimal is added for the paper's rounding.

    Parameters
    ----------
    sd_paper : float or None
        The paper's standard deviation over splits; None where it prints none (ours stands in).
    sd_ours : float
        Ours; 0 where we have a single split.
    n_ours, n_paper : int
        Splits of ours and of the paper's.
    test_train_ratio : float, default=0
        r above.
    decimals : int, default=2
        Decimals the paper prints.
    """
    sd_paper = sd_ours if sd_paper is None else sd_paper
    variance = (sd_paper ** 2 * (1 / n_paper + test_train_ratio)
                + sd_ours ** 2 * (1 / n_ours + test_train_ratio))
    return float(2 * np.sqrt(variance) + 0.5 * 10.0 ** -decimals)


def claim_row(quantity, printed, values, *, n_paper, sd_paper=None, test_train_ratio=0.0,
              decimals=2, digits=(2, 3), claimed=True):
    """A printed mean beside ours over splits (``values``, NaN dropped), claimed within
    :func:`claim_tolerance` (reported, without a tolerance, when ``claimed`` is False).
    ``digits`` rounds (our mean, the tolerance) for the report."""
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    mean = float(values.mean()) if len(values) else float("nan")
    sd = float(np.std(values, ddof=1)) if len(values) > 1 else 0.0
    tol = claim_tolerance(sd_paper, sd, max(len(values), 1), n_paper=n_paper,
                          test_train_ratio=test_train_ratio, decimals=decimals)
    return Row(quantity, float(printed), round(mean, digits[0]),
               tolerance=round(tol, digits[1]) if claimed else None)


def significance_mark(first, other, *, alpha=0.05, test_train_ratio=1 / 9):
    """The dissertation's mark of a comparator against the first column of its table.

    Parameters
    ----------
    first, other : array-like of shape (J,)
        Losses (error or mean absolute error) of the first column's method and of the
        comparator on the same J splits.
    alpha : float, default=0.05
        Level of the two-sided corrected resampled t-test (Nadeau & Bengio 2003).
    test_train_ratio : float, default=1/9
        Test size over learning size of one split (1/9 for 10-fold cross-validation).

    Returns
    -------
    str
        "•" when the comparator's loss is significantly larger (worse), "∘" when significantly
        smaller (better), "" otherwise.
    """
    from ..model_selection import corrected_resampled_ttest

    test = corrected_resampled_ttest(other, first, n_train=1.0, n_test=test_train_ratio)
    if not test.pvalue < alpha:
        return ""
    return MARK_WORSE if test.mean_difference > 0 else MARK_BETTER


def our_marks(results, dataset, names, metric):
    """Marks of columns 2.. against column 1; None for a column not run (or all None when the
    first was not run)."""
    first = split_values(results, dataset, names[0], metric) if names[0] else np.array([])
    marks = [""]
    for name in names[1:]:
        other = split_values(results, dataset, name, metric) if name else np.array([])
        marks.append(significance_mark(first, other) if len(first) and len(other) else None)
    return marks


def detectable_factor(n_splits, *, test_train_ratio=1 / 9, alpha=0.05, power=0.8):
    """(t_{1-alpha/2} + t_{power}) sqrt(1/J + r) with J = ``n_splits`` and t with J - 1
    degrees of freedom: the detectable difference of :func:`detectable_difference` in units of
    the paired differences' standard deviation. Its ratio between two numbers of splits is
    what running fewer repetitions costs in power."""
    from scipy import stats

    df = n_splits - 1
    return float((stats.t.ppf(1 - alpha / 2, df) + stats.t.ppf(power, df))
                 * np.sqrt(1 / n_splits + test_train_ratio))


def detectable_difference(first, other, *, test_train_ratio=1 / 9, alpha=0.05, power=0.8):
    """The smallest mean difference between two methods' paired losses that the corrected
    resampled t-test at level ``alpha`` (two-sided) finds with probability ``power``:
    (t_{1-alpha/2} + t_{power}) sd_d sqrt(1/J + r), with sd_d the standard deviation of the J
    paired differences, r the test share over the learning share of a split, and t with J - 1
    degrees of freedom (Nadeau & Bengio 2003). NaN below two splits."""
    d = np.asarray(other, dtype=float) - np.asarray(first, dtype=float)
    if len(d) < 2:
        return float("nan")
    return float(np.std(d, ddof=1)) * detectable_factor(
        len(d), test_train_ratio=test_train_ratio, alpha=alpha, power=power)


def power_cost(n_splits, n_paper, *, test_train_ratio=1 / 9):
    """How much larger the smallest detectable difference is with ``n_splits`` splits than
    with the paper's ``n_paper`` (the same spread of paired differences): the ratio of their
    :func:`detectable_factor`, e.g. 1.12 for 30 folds of 10-fold cross-validation against 100.
    The corrected variance's r does not shrink with more splits, so the cost of fewer splits
    is small once J is well above 1/r."""
    return (detectable_factor(n_splits, test_train_ratio=test_train_ratio)
            / detectable_factor(n_paper, test_train_ratio=test_train_ratio))


def finding_row(quantity, paper, ours, *, paper_difference, first, other,
                test_train_ratio=1 / 9):
    """A finding of the paper (a significance mark, an ordering of two methods) beside ours.

    Claimed (tolerance 0: the same verdict, or a miss) where our run can see the paper's own
    difference: where ``|paper_difference|``, not zero, reaches :func:`detectable_difference`
    of our paired losses ``first`` and ``other``; otherwise reported, the note saying why. The note
    always states the power: the paper's difference, ours and the detectable one.
    """
    first, other = np.asarray(first, dtype=float), np.asarray(other, dtype=float)
    detectable = detectable_difference(first, other, test_train_ratio=test_train_ratio)
    ours_difference = float(np.mean(other - first))
    # a tie of the paper's means is no finding; NaN (one split) claims nothing
    claimed = bool(paper_difference != 0 and abs(paper_difference) >= detectable)
    power = (f"difference paper {paper_difference:+.3g}, ours {ours_difference:+.3g}; "
             f"detectable at 0.05 with 80 % power over our {len(first)} splits: "
             f"{detectable:.3g}")
    if not claimed:
        power += " (above the paper's difference: reported, not claimed)"
    return Row(quantity, paper, ours, tolerance=0 if claimed else None, note=power)
