"""Tests comparing methods on the same splits or units: Friedman with Holm-corrected Wilcoxon
(:func:`compare_methods`) and the corrected resampled t-test of Nadeau & Bengio (2003)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from .._core.names import metric_name
from ..metrics import METRICS
from . import _pooled
from ._evaluate import _check_results
from ._rank_tests import SMALL_SAMPLE, friedman_test, signed_rank_test


@dataclass(frozen=True)
class MethodComparison:
    """A global test over methods and Holm-corrected pairwise tests (see :func:`compare_methods`).

    ``friedman_statistic`` and ``friedman_pvalue`` hold the global test named by
    ``global_test`` (Friedman's over splits; for pooled leave-one-out results Cochran's Q or
    Friedman's over units), NaN with two methods; ``pairwise_test`` names the pairwise test and
    ``blocks`` what the ``n_blocks`` blocks are ("splits" or "units").
    """

    metric: str
    n_blocks: int
    friedman_statistic: float
    friedman_pvalue: float
    mean_ranks: pd.Series
    pairwise: pd.DataFrame
    global_test: str = "Friedman"
    pairwise_test: str = "Wilcoxon signed-rank"
    blocks: str = "splits"
    notes: tuple[str, ...] = ()

    def __str__(self):
        lines = [f"Comparison of methods on {self.metric} over {self.n_blocks} {self.blocks}"]
        if np.isnan(self.friedman_statistic):
            lines.append(f"{self.global_test} test: needs at least 3 methods (pairwise test only)")
        else:
            label = ("Friedman chi-squared" if self.global_test == "Friedman"
                     else self.global_test)
            lines.append(f"{label} = {self.friedman_statistic:.4g}, "
                         f"p = {self.friedman_pvalue:.4g}")
        lines.append("Mean ranks (1 = best): " + ", ".join(
            f"{m} {r:.2f}" for m, r in self.mean_ranks.items()))
        over = " over units" if self.blocks == "units" else ""
        lines.append(f"Pairwise {self.pairwise_test} tests{over} (Holm-adjusted p):")
        lines.append(self.pairwise.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
        lines += [f"note: {note}" for note in self.notes]
        return "\n".join(lines)


def compare_methods(results, metric="misclassification"):
    """Friedman test over methods, then pairwise Wilcoxon signed-rank tests with Holm's
    correction, treating each split as a block (all methods were scored on the same splits).

    Splits where any method's value is undefined are dropped. Note that cross-validation splits
    share units, so the tests are approximate (as in the ordinal-splitting paper, section 5).
    Wilcoxon's test drops zero differences; its p-value is exact without zero differences or
    ties among at most 50 differences, else the normal approximation with the tie correction
    (R's rule, the same p-values for every supported scipy); the ``p_method`` column says which
    ("exact", "normal", or "none" when every difference is zero), and a note in ``notes`` names
    the pairs whose normal approximation rests on fewer than 10 differences.

    For pooled leave-one-out results (see :func:`evaluate`) the blocks are the units and the
    tests are those for paired per-unit outcomes: for misclassification Cochran's Q (three or
    more methods; Cochran 1950) and pairwise exact McNemar tests (McNemar 1947: the units where
    only method a errs are Binomial(d, 1/2) among the d units where exactly one of the two
    errs); for mean absolute or squared distance Friedman's test over units and pairwise
    Wilcoxon signed-rank tests on the per-unit distances. The pairwise table then also has
    ``a_worse`` and ``b_worse``, the units where one method's loss exceeds the other's; the
    McNemar ``statistic`` is ``a_worse``. Gamma, a statistic of pairs of units, has no such
    test (``ValueError``).

    Returns
    -------
    MethodComparison
    """
    _check_results(results)
    metric = metric_name(metric, "metric")
    sub = results[results["metric"] == metric]
    if sub.empty:
        raise ValueError(f"results have no rows for metric {metric!r}.")
    if (sub["split"].astype(str) == _pooled.POOLED).any():
        return _compare_pooled(results, sub, metric)
    table = sub.pivot_table(index="split", columns="method", values="value",
                            observed=True, dropna=False).dropna()
    methods = list(table.columns)
    if len(methods) < 2:
        raise ValueError("compare_methods needs results for at least two methods.")
    if len(table) < 2:
        raise ValueError(f"compare_methods needs at least two splits with defined {metric}; "
                         f"got {len(table)}.")
    values = table.to_numpy()
    if len(methods) >= 3:
        stat, pvalue = friedman_test(values)
    else:
        stat, pvalue = float("nan"), float("nan")
    rows, rough = [], []
    for i in range(len(methods)):
        for j in range(i + 1, len(methods)):
            test = signed_rank_test(values[:, i], values[:, j])
            rows.append({"method_a": methods[i], "method_b": methods[j],
                         "mean_difference": float(np.mean(values[:, i] - values[:, j])),
                         "statistic": test.statistic, "p_value": test.pvalue,
                         "p_method": test.method})
            if test.rough:
                rough.append(f"{methods[i]}-{methods[j]}")
    return MethodComparison(metric, len(table), stat, pvalue,
                            _mean_ranks(values, methods, metric), _holm(rows),
                            notes=_rough_note(rough))


def _rough_note(pairs):
    """A note on the pairs whose p-value is a normal approximation on few differences."""
    if not pairs:
        return ()
    return (f"the Wilcoxon p-values of {', '.join(pairs)} are normal approximations on fewer "
            f"than {SMALL_SAMPLE} non-zero differences (ties or zero differences rule out the "
            "exact distribution): read them as rough.",)


def _mean_ranks(values, methods, metric):
    greater_is_better = METRICS[metric][1]
    ranks = stats.rankdata(-values if greater_is_better else values, axis=1)
    return pd.Series(ranks.mean(axis=0), index=methods).sort_values()


def _holm(rows):
    from statsmodels.stats.multitest import multipletests

    pairwise = pd.DataFrame(rows)
    pairwise["p_holm"] = multipletests(pairwise["p_value"], method="holm")[1]
    return pairwise


def _compare_pooled(results, sub, metric):
    """compare_methods for pooled leave-one-out results: paired tests over units."""
    predictions = results.attrs.get("loo_predictions")
    if predictions is None:
        raise ValueError(
            "these pooled leave-one-out results have lost their out-of-fold predictions "
            "(results.attrs['loo_predictions'], e.g. after saving to CSV), which the paired "
            "tests over units need; compare the results returned by evaluate().")
    methods = list(pd.unique(sub["method"].astype(str)))
    if len(methods) < 2:
        raise ValueError("compare_methods needs results for at least two methods.")
    losses = _pooled.unit_losses(predictions, metric, methods)
    if len(methods) >= 3:
        global_test, stat, pvalue = _pooled.global_unit_test(losses, metric)
    else:
        global_test = "Cochran's Q" if metric == "misclassification" else "Friedman"
        stat, pvalue = float("nan"), float("nan")
    rows, rough = [], []
    for i in range(len(methods)):
        for j in range(i + 1, len(methods)):
            a, b = losses[:, i], losses[:, j]
            test = _pooled.paired_unit_test(a, b, metric)
            rows.append({"method_a": methods[i], "method_b": methods[j],
                         "mean_difference": float(np.mean(a - b)),
                         "a_worse": int(np.sum(a > b)), "b_worse": int(np.sum(b > a)),
                         "statistic": test.statistic, "p_value": test.pvalue,
                         "p_method": test.method})
            if test.rough:
                rough.append(f"{methods[i]}-{methods[j]}")
    pairwise_test = ("exact McNemar" if metric == "misclassification"
                     else "Wilcoxon signed-rank")
    return MethodComparison(metric, len(losses), float(stat), float(pvalue),
                            _mean_ranks(losses, methods, metric), _holm(rows),
                            global_test=global_test, pairwise_test=pairwise_test,
                            blocks="units", notes=_rough_note(rough))


@dataclass(frozen=True)
class CorrectedTTest:
    """Result of :func:`corrected_resampled_ttest`."""

    statistic: float
    pvalue: float
    df: int
    mean_difference: float
    std_error: float


def corrected_resampled_ttest(scores_a, scores_b, *, n_train, n_test):
    """Corrected resampled paired t-test of Nadeau & Bengio (2003).

    With J paired scores from J learning/test splits, differences d_j = a_j - b_j, their mean
    d_bar and sample variance s^2 (denominator J - 1), the statistic is

        t = d_bar / sqrt((1 / J + n_test / n_train) * s^2),

    referred to Student's t with J - 1 degrees of freedom (two-sided p-value). The term
    n_test / n_train corrects the variance for the overlap of the learning sets, which the plain
    paired t-test ignores (it has only 1 / J). This is the "corrected paired t-test" used for
    the tables of the dissertation "Ensemble methods for ordinal data classification" (as in
    Weka's experimenter).

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (J,)
        Scores of two methods on the same J splits (e.g. one method's column of the results of
        :func:`evaluate`), J >= 2.
    n_train, n_test : positive float
        Sizes of the learning and test sets of one split (only their ratio matters: for
        10-fold cross-validation, 9 and 1).

    Returns
    -------
    CorrectedTTest
        ``statistic``, ``pvalue``, ``df`` = J - 1, ``mean_difference`` = mean(a - b) and
        ``std_error``. When all differences are equal the variance is zero: p = 1 if they are
        zero, otherwise p = 0 with an infinite statistic.

    References
    ----------
    Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error. Machine Learning
    52, 239-281. Bouckaert, R. R. & Frank, E. (2004). Evaluating the replicability of
    significance tests for comparing learning algorithms. PAKDD, 3-12.
    """
    a = np.asarray(scores_a, dtype=float)
    b = np.asarray(scores_b, dtype=float)
    if a.ndim != 1 or b.ndim != 1 or a.shape != b.shape:
        raise ValueError("scores_a and scores_b must be 1-D of the same length (one score per "
                         f"split); got shapes {a.shape} and {b.shape}.")
    if len(a) < 2:
        raise ValueError(f"the corrected t-test needs scores from at least 2 splits; got {len(a)}.")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise ValueError("scores_a and scores_b must be finite (drop undefined splits first).")
    for name, value in (("n_train", n_train), ("n_test", n_test)):
        if (isinstance(value, bool) or not isinstance(value, (int, float, np.number))
                or not value > 0):
            raise ValueError(f"{name} must be a positive number (a set size); got {value!r}.")
    d = a - b
    n_splits = len(d)
    mean = float(d.mean())
    variance = float(d.var(ddof=1)) * (1.0 / n_splits + float(n_test) / float(n_train))
    std_error = float(np.sqrt(variance))
    if std_error == 0.0:
        statistic = 0.0 if mean == 0.0 else float(np.copysign(np.inf, mean))
        pvalue = 1.0 if mean == 0.0 else 0.0
    else:
        statistic = mean / std_error
        pvalue = float(2.0 * stats.t.sf(abs(statistic), df=n_splits - 1))
    return CorrectedTTest(float(statistic), pvalue, n_splits - 1, mean, std_error)


def pairwise_corrected_ttests(results, metric="misclassification", *, n_train, n_test):
    """:func:`corrected_resampled_ttest` for every pair of methods in :func:`evaluate` results.

    Splits where any method's value is undefined are dropped. Returns a DataFrame with columns
    ``method_a``, ``method_b``, ``mean_difference`` (a - b), ``statistic``, ``df``,
    ``p_value``; a companion to :func:`compare_methods` (Friedman and Wilcoxon).
    """
    _check_results(results)
    metric = metric_name(metric, "metric")
    if (results["split"].astype(str) == _pooled.POOLED).any():
        raise ValueError("the corrected resampled t-test compares methods over resampling "
                         "splits; pooled leave-one-out results have none (use "
                         "compare_methods, which tests over units).")
    table = results[results["metric"] == metric].pivot_table(
        index="split", columns="method", values="value", observed=True, dropna=False).dropna()
    methods = list(table.columns)
    if len(methods) < 2:
        raise ValueError(f"results need at least two methods with defined {metric}.")
    rows = []
    for i in range(len(methods)):
        for j in range(i + 1, len(methods)):
            test = corrected_resampled_ttest(table[methods[i]], table[methods[j]],
                                             n_train=n_train, n_test=n_test)
            rows.append({"method_a": methods[i], "method_b": methods[j],
                         "mean_difference": test.mean_difference, "statistic": test.statistic,
                         "df": test.df, "p_value": test.pvalue})
    return pd.DataFrame(rows)
