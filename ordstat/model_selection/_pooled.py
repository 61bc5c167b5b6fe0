"""Leave-one-out results pooled over units, and the tests that go with them.

With leave-one-out every split tests one unit, so ``evaluate(scheme="loo")`` computes each
metric once on the pooled out-of-fold predictions (Brito, Celeux & Sousa Ferreira 2006,
section 5) and compares methods over units. The module structure is the following:

- :data:`POOLED`, :class:`PooledPredictions`, :func:`pooled_rows`: the pooled rows;
- :func:`unit_losses`, :func:`standard_error`: per-unit losses and their standard errors;
- :func:`mcnemar_exact` (McNemar 1947), :func:`cochran_q` (Cochran 1950) for
  misclassification, and the Wilcoxon signed-rank and Friedman tests for distances:
  :func:`paired_unit_test`, :func:`global_unit_test`.

Why, and how approximate these tests are, is explained in the documentation, "How the other
methods are computed" (docs/algorithms.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from ..metrics import METRICS
from ._rank_tests import RankTest, friedman_test, signed_rank_test

#: The ``split`` value of the rows of pooled leave-one-out results.
POOLED = "pooled"

#: Per-unit loss of a true and a predicted code, for the metrics that are means over units.
UNIT_LOSSES = {
    "misclassification": lambda t, p: (t != p).astype(float),
    "mean_absolute": lambda t, p: np.abs(t - p).astype(float),
    "mean_squared": lambda t, p: ((t - p) ** 2).astype(float),
}


@dataclass(frozen=True, eq=False)
class PooledPredictions:
    """The out-of-fold predictions of a leave-one-out :func:`evaluate` run.

    Stored in ``results.attrs["loo_predictions"]``. ``frame`` has one row per unit (in the
    order of ``X``) and the columns ``y_true`` and one per method, as ordered Categoricals
    with the classes of the run. ``eq=False`` keeps pandas' comparison of ``attrs`` (e.g. in
    ``pd.concat``) to identity.
    """

    frame: pd.DataFrame

    def codes(self, column):
        return np.asarray(self.frame[column].cat.codes, dtype=np.intp)


def pooled_rows(predictions, methods, metrics):
    """Tidy rows ``("pooled", method, metric, value)`` of every metric on all units."""
    classes = np.arange(len(predictions.frame["y_true"].cat.categories))
    truth = predictions.codes("y_true")
    return [(POOLED, name, metric,
             METRICS[metric][0](truth, predictions.codes(name), classes=classes))
            for name in methods for metric in metrics]


def unit_losses(predictions, metric, methods):
    """(n_units, n_methods) per-unit losses for a metric that is a mean over units."""
    if metric not in UNIT_LOSSES:
        raise ValueError(
            f"{metric} of pooled leave-one-out predictions is not a mean over units, so there "
            f"is no per-unit paired test or standard error for it; use one of "
            f"{sorted(UNIT_LOSSES)}.")
    truth = predictions.codes("y_true")
    return np.column_stack([UNIT_LOSSES[metric](truth, predictions.codes(m)) for m in methods])


def standard_error(losses, metric):
    """Standard error of a pooled mean over units.

    Misclassification: the binomial standard error sqrt(p (1 - p) / n); a distance: the sample
    standard deviation of the per-unit distances over sqrt(n).
    """
    n = len(losses)
    if metric == "misclassification":
        p = losses.mean()
        return float(np.sqrt(p * (1 - p) / n))
    return float(losses.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")


def mcnemar_exact(errors_a, errors_b):
    """Exact McNemar test of two methods' 0/1 errors on the same units.

    Returns ``(a_worse, b_worse, p_value)``: the units where only a errs, where only b errs, and
    the two-sided binomial p-value of ``a_worse`` among the ``a_worse + b_worse`` discordant
    units (p = 1 with no discordant unit).
    """
    a = np.asarray(errors_a, dtype=bool)
    b = np.asarray(errors_b, dtype=bool)
    a_worse, b_worse = int(np.sum(a & ~b)), int(np.sum(b & ~a))
    if a_worse + b_worse == 0:
        return a_worse, b_worse, 1.0
    return a_worse, b_worse, float(stats.binomtest(a_worse, a_worse + b_worse, 0.5).pvalue)


def cochran_q(errors):
    """Cochran's Q test of m >= 3 methods' 0/1 errors on the same n units.

    Q = (m - 1) (m sum_j C_j^2 - N^2) / (m N - sum_i R_i^2), with C_j the errors of method j,
    R_i the errors on unit i and N the total; referred to chi-squared with m - 1 degrees of
    freedom. Returns ``(Q, p_value)``; (0, 1) when every unit has all or no errors.
    """
    x = np.asarray(errors, dtype=float)
    m = x.shape[1]
    columns, rows, total = x.sum(axis=0), x.sum(axis=1), x.sum()
    denominator = m * total - np.sum(rows ** 2)
    if denominator == 0:
        return 0.0, 1.0
    q = (m - 1) * (m * np.sum(columns ** 2) - total ** 2) / denominator
    return float(q), float(stats.chi2.sf(q, m - 1))


def paired_unit_test(losses_a, losses_b, metric):
    """The paired test of two methods' per-unit losses, as a ``RankTest``.

    McNemar (exact) for misclassification, with the statistic the number of units where only a
    errs; otherwise the Wilcoxon signed-rank test (zero differences dropped; the statistic is
    the smaller rank sum; exact or normal approximation by the rule of
    ``ordstat.model_selection._rank_tests``). p = 1 when the losses are equal on every unit.
    """
    if metric == "misclassification":
        a_worse, b_worse, p_value = mcnemar_exact(losses_a > 0, losses_b > 0)
        return RankTest(float(a_worse), p_value, "exact", a_worse + b_worse)
    return signed_rank_test(losses_a, losses_b)


def global_unit_test(losses, metric):
    """``(name, statistic, p_value)`` of the test of m >= 3 methods over units."""
    if metric == "misclassification":
        return ("Cochran's Q", *cochran_q(losses > 0))
    return ("Friedman", *friedman_test(losses))
