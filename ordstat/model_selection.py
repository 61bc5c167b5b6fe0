"""Evaluation protocols and comparisons of methods on the same splits.

Resampling schemes (all scikit-learn compatible splitters with ``split(X, y)``):

- leave-one-out (``"loo"``), as in Brito et al. (2006, section 5);
- stratified v-fold cross-validation (``"cv10"``, ``"cv5"``, ...);
- half-sampling, i.e. stratified two-fold cross-validation, optionally repeated (``"half"``;
  Brito et al. 2006, Table 6);
- repeated random learning/validation splits, 2/3 vs 1/3 (``"splits50"``; Tutz & Hechenbichler
  2003, section 4.1);
- bootstrap resamples with their out-of-bag units (``"bootstrap100"``; the OOB design of the
  ordinal-splitting paper, section 5).

:func:`evaluate` fits several estimators on the *same* splits and returns a tidy DataFrame;
:func:`compare_methods` runs Friedman's test over methods and pairwise Wilcoxon signed-rank tests
with Holm's correction (the dependent K-sample design of the ordinal-splitting paper, section 5).
With leave-one-out, :func:`evaluate` pools the out-of-fold predictions and scores them once
(``split == "pooled"``), and :func:`summarize` and :func:`compare_methods` switch to a standard
error and to tests over units (McNemar, Cochran's Q, Wilcoxon, Friedman; see ``ordstat._loo``).
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from joblib import delayed
from scipy import stats
from sklearn.base import clone
from sklearn.model_selection import (LeaveOneOut, ShuffleSplit, StratifiedKFold,
                                     StratifiedShuffleSplit)

from . import _loo, _progress, _warnings
from ._labels import encode_target
from ._validation import check_positive_int, check_random_state
from ._names import metric_name
from .metrics import METRICS

__all__ = [
    "HalfSampling",
    "RepeatedLearningTestSplits",
    "BootstrapOOB",
    "make_cv",
    "evaluate",
    "summarize",
    "compare_methods",
    "MethodComparison",
    "corrected_resampled_ttest",
    "CorrectedTTest",
    "pairwise_corrected_ttests",
]


class HalfSampling:
    """Half-sampling: stratified two-fold cross-validation, repeated ``n_repeats`` times.

    Each repeat yields two splits (learn on one half, test on the other, then the reverse).
    """

    def __init__(self, n_repeats=1, random_state=None):
        self.n_repeats = n_repeats
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        return 2 * check_positive_int(self.n_repeats, "n_repeats")

    def split(self, X, y, groups=None):
        rng = check_random_state(self.random_state)
        for _ in range(check_positive_int(self.n_repeats, "n_repeats")):
            seed = int(rng.integers(np.iinfo(np.int32).max))
            yield from StratifiedKFold(2, shuffle=True, random_state=seed).split(X, y)


class RepeatedLearningTestSplits:
    """``n_splits`` random stratified splits into a learning set and a test set.

    Tutz & Hechenbichler (2003, section 4.1) use 50 splits with one third of the units for
    validation.
    """

    def __init__(self, n_splits=50, test_size=1 / 3, random_state=None):
        self.n_splits = n_splits
        self.test_size = test_size
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        return check_positive_int(self.n_splits, "n_splits")

    def split(self, X, y, groups=None):
        if not 0 < self.test_size < 1:
            raise ValueError(f"test_size must be in (0, 1); got {self.test_size!r}.")
        seed = int(check_random_state(self.random_state).integers(np.iinfo(np.int32).max))
        values, counts = np.unique(np.asarray(y), return_counts=True)
        if counts.min() < 2:
            single = values[counts < 2]
            _warnings.warn(
                f"RepeatedLearningTestSplits: class(es) {single.tolist()} have a single unit, so "
                "the splits cannot be stratified; using unstratified random splits.")
            splitter = ShuffleSplit(self.get_n_splits(), test_size=self.test_size,
                                    random_state=seed)
        else:
            splitter = StratifiedShuffleSplit(self.get_n_splits(), test_size=self.test_size,
                                              random_state=seed)
        yield from splitter.split(X, y)


class BootstrapOOB:
    """``n_resamples`` bootstrap samples (drawn with replacement, size n) and their out-of-bag
    units as the test set. Training indices repeat units, as a bootstrap sample does.
    """

    def __init__(self, n_resamples=100, random_state=None):
        self.n_resamples = n_resamples
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        return check_positive_int(self.n_resamples, "n_resamples")

    def split(self, X, y=None, groups=None):
        n = len(X) if not hasattr(X, "shape") else X.shape[0]
        rng = check_random_state(self.random_state)
        for _ in range(self.get_n_splits()):
            boot = rng.integers(0, n, size=n)
            oob = np.setdiff1d(np.arange(n), boot, assume_unique=False)
            if oob.size == 0:  # every unit drawn (probability n!/n^n): nothing to test on
                continue
            yield boot, oob


_SCHEME = re.compile(r"^(loo|half|cv(\d+)|splits(\d+)|bootstrap(\d+))$")


def make_cv(scheme="cv10", random_state=None):
    """A splitter from a scheme name: ``"loo"``, ``"cvV"`` (stratified V-fold), ``"half"``,
    ``"splitsN"`` (N random 2/3 vs 1/3 splits) or ``"bootstrapB"`` (B bootstrap/OOB splits).
    A splitter object with a ``split`` method is returned unchanged.
    """
    if not isinstance(scheme, str) and hasattr(scheme, "split"):
        return scheme
    match = _SCHEME.match(str(scheme))
    if not match:
        raise ValueError(
            f"scheme must be 'loo', 'half', 'cvV' (e.g. 'cv10'), 'splitsN' (e.g. 'splits50') or "
            f"'bootstrapB' (e.g. 'bootstrap100'), or a splitter object; got {scheme!r}."
        )
    seed = None if random_state is None else int(
        check_random_state(random_state).integers(np.iinfo(np.int32).max))
    name, v, n_splits, n_boot = match.groups()
    if name == "loo":
        return LeaveOneOut()
    if name == "half":
        return HalfSampling(1, random_state=seed)
    if v is not None:
        return StratifiedKFold(check_positive_int(int(v), "scheme folds", 2), shuffle=True,
                               random_state=seed)
    if n_splits is not None:
        return RepeatedLearningTestSplits(check_positive_int(int(n_splits), "scheme splits"),
                                          random_state=seed)
    return BootstrapOOB(check_positive_int(int(n_boot), "scheme resamples"), random_state=seed)


def _named_estimators(estimators):
    if isinstance(estimators, dict):
        items = list(estimators.items())
    else:
        if not isinstance(estimators, (list, tuple)) or not estimators:
            raise TypeError("estimators must be a non-empty dict {name: estimator} or list.")
        items, seen = [], {}
        for est in estimators:
            base = type(est).__name__
            seen[base] = seen.get(base, 0) + 1
            items.append((base if seen[base] == 1 else f"{base}_{seen[base]}", est))
    if not items:
        raise ValueError("estimators is empty; give at least one estimator.")
    for name, est in items:
        if not (hasattr(est, "fit") and hasattr(est, "predict")):
            raise TypeError(f"estimator {name!r} has no fit/predict methods: {est!r}.")
    return items


def _check_metrics(metrics):
    """Canonical names (aliases resolved, duplicates dropped) of the metrics asked for."""
    if isinstance(metrics, str):
        metrics = [metrics]
    return list(dict.fromkeys(metric_name(m, "metrics") for m in metrics))


def _fit_and_predict(estimator, X, codes, train, test, encoding, seed):
    """Codes predicted for the test units.

    An estimator that takes ``classes`` is fitted on the user's labels with the full class
    order, so that its warnings name classes by their labels; others are fitted on the codes.
    """
    est = clone(estimator)
    params = est.get_params(deep=False)
    labelled = "classes" in params
    if labelled:
        est.set_params(classes=encoding.classes)
    if "random_state" in params and params["random_state"] is None:
        est.set_params(random_state=seed)
    take = (lambda idx: X.iloc[idx]) if isinstance(X, pd.DataFrame) else (lambda idx: X[idx])
    est.fit(take(train), encoding.decode(codes[train]) if labelled else codes[train])
    pred = np.asarray(est.predict(take(test)))
    return encoding.encode(pred, "predictions") if labelled else pred


class _Failed(str):
    """A fit that raised (with ``on_error="drop"``): the error as "Type: message"."""


def _fit_and_score(name, estimator, X, codes, train, test, split, metrics, encoding, seed,
                   pooled=False, catch=False):
    """One fit: its tidy rows (or, pooled, its test predictions) and the warnings it raised;
    with ``catch``, an error is returned as :class:`_Failed` instead of raised."""
    try:
        pred, caught = _warnings.record(_fit_and_predict, estimator, X, codes, train, test,
                                        encoding, seed)
    except Exception as exc:  # noqa: BLE001 - any failure of the method, reported by evaluate
        if not catch:
            raise
        return _Failed(f"{type(exc).__name__}: {exc}"), []
    if pooled:
        return pred, caught
    rows = []
    for metric in metrics:
        fn = METRICS[metric][0]
        with warnings.catch_warnings():
            # gamma is undefined on a test set predicted into one class: kept as NaN and
            # counted by summarize().
            warnings.simplefilter("ignore")
            value = fn(codes[test], pred, classes=np.arange(encoding.n_classes))
        rows.append((split, name, metric, value))
    return rows, caught


def evaluate(estimators, X, y, *, scheme="cv10", metrics=("misclassification", "mean_absolute",
             "mean_squared", "gamma"), classes=None, n_jobs=None, random_state=None,
             progress=None, on_error="raise"):
    """Fit several estimators on the same resampling splits and score them on the test parts.

    Parameters
    ----------
    estimators : dict {name: estimator} or list of estimators
        Unfitted estimators; each is cloned for every split.
    X : array-like or DataFrame of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Ordered labels (see ``ordstat._labels``).
    scheme : str or splitter, default="cv10"
        See :func:`make_cv`. With leave-one-out (``"loo"`` or a ``LeaveOneOut`` splitter) the
        metrics are computed once on the pooled out-of-fold predictions of all units, as in
        Brito, Celeux & Sousa Ferreira (2006, section 5): see Returns.
    metrics : str or sequence of str
        Names from ``ordstat.metrics.METRICS`` or their aliases (``METRIC_ALIASES``, e.g.
        "mae"); the results use the canonical names.
    classes : sequence, optional
        Class order, lowest to highest. Estimators that accept ``classes`` are given the full
        order in every split, so a class missing from a learning set keeps its place.
    n_jobs : int, optional
        Parallel jobs through joblib (any joblib backend, e.g. Dask or Ray, applies).
    random_state : int, optional
        Seeds the splits and, for estimators whose ``random_state`` is None, the estimators
        (one derived seed per split), so results are reproducible whatever ``n_jobs``.
    progress : bool, optional
        Show a progress bar on standard error and, when the first fit says that the run will
        take more than a few seconds, announce "about N min for M fits" there first. By
        default (None) on when standard error is a terminal, as in the command line; nothing
        is printed otherwise.
    on_error : {"raise", "drop"}, default="raise"
        What a fit that raises does: stop the evaluation with its error, or ("drop") leave
        its method out of the results with a warning that gives the split and the error (the
        other methods keep the same splits). An error is raised when every method fails.

    Returns
    -------
    DataFrame with columns ``split``, ``method``, ``metric``, ``value`` (one row per split,
    method and metric). ``gamma`` is NaN on a split whose predictions fall in one class.

    With leave-one-out there is one row per method and metric, with ``split == "pooled"``:
    the metric of the out-of-fold predictions of all units (gamma is then defined). The
    predictions themselves are kept in ``results.attrs["loo_predictions"].frame`` (one row
    per unit: ``y_true`` and one column per method), which :func:`summarize` and
    :func:`compare_methods` use for standard errors and paired tests over units.

    Warnings raised while fitting (also in joblib workers) are collected and each distinct one
    is re-issued once, prefixed with the method's name and followed by "(raised in N of M
    splits)".
    """
    items = _named_estimators(estimators)
    metrics = _check_metrics(metrics)
    encoding, codes = encode_target(y, classes)
    if isinstance(X, pd.DataFrame):
        X_ = X.reset_index(drop=True)
    else:
        X_ = np.asarray(X)
        if X_.ndim != 2:
            raise ValueError(f"X must be 2-D (n_samples, n_features); got shape {X_.shape}.")
    if X_.shape[0] != codes.shape[0]:
        raise ValueError(
            f"X and y have inconsistent numbers of units: {X_.shape[0]} and {codes.shape[0]}."
        )
    if progress is not None and not isinstance(progress, (bool, np.bool_)):
        raise TypeError(f"progress must be True, False or None (on when standard error is a "
                        f"terminal); got {progress!r}.")
    if on_error not in ("raise", "drop"):
        raise ValueError(f"on_error must be 'raise' or 'drop'; got {on_error!r}.")
    rng = check_random_state(random_state)
    cv = make_cv(scheme, random_state=int(rng.integers(np.iinfo(np.int32).max)))
    pooled = isinstance(cv, LeaveOneOut)
    splits = list(cv.split(X_, codes))
    seeds = rng.integers(np.iinfo(np.int32).max, size=len(splits))
    tasks = [delayed(_fit_and_score)(name, est, X_, codes, train, test, i, metrics,
                                     encoding, int(seeds[i]), pooled, on_error == "drop")
             for i, (train, test) in enumerate(splits) for name, est in items]
    outputs = _progress.run(tasks, n_jobs=n_jobs, progress=progress, desc="evaluate")
    names = [n for n, _ in items]
    task_names = [name for _ in splits for name in names]
    names, task_names, outputs = _drop_failed(names, task_names, outputs, len(splits))
    _warnings.reemit(((f"evaluate, method {name!r}", caught)
                      for name, (_, caught) in zip(task_names, outputs)), len(splits))
    if pooled:
        rows, attrs = _pool(outputs, splits, names, codes, encoding, metrics)
    else:
        rows, attrs = [row for chunk, _ in outputs for row in chunk], {}
    frame = pd.DataFrame(rows, columns=["split", "method", "metric", "value"])
    frame["method"] = pd.Categorical(frame["method"], categories=names)
    frame["metric"] = pd.Categorical(frame["metric"], categories=metrics)
    frame.attrs.update(attrs)
    return frame


def _drop_failed(names, task_names, outputs, n_splits):
    """The methods, task names and outputs without the methods that failed on some split
    (each said in a warning); an error when every method failed."""
    failed = {}
    for i, (name, (out, _)) in enumerate(zip(task_names, outputs)):
        if isinstance(out, _Failed) and name not in failed:
            failed[name] = f"split {i // len(names)} of {n_splits}: {out}"
    if not failed:
        return names, task_names, outputs
    if len(failed) == len(names):
        raise ValueError("evaluate: every method failed; " + "; ".join(
            f"{name!r} on {why}" for name, why in failed.items()))
    for name, why in failed.items():
        _warnings.warn(f"evaluate: method {name!r} is left out of the results: it failed on "
                       f"{why}", UserWarning)
    kept = [k for k, name in enumerate(task_names) if name not in failed]
    return ([n for n in names if n not in failed], [task_names[k] for k in kept],
            [outputs[k] for k in kept])


def _pool(outputs, splits, names, codes, encoding, metrics):
    """Tidy pooled rows and the ``attrs`` holding the out-of-fold predictions."""
    pred = {name: np.empty(len(codes), dtype=np.intp) for name in names}
    task = iter(outputs)
    for _, test in splits:
        for name in names:
            pred[name][test] = next(task)[0]
    as_labels = {name: pd.Categorical.from_codes(c, categories=encoding.classes, ordered=True)
                 for name, c in {"y_true": codes, **pred}.items()}
    predictions = _loo.PooledPredictions(pd.DataFrame(as_labels))
    rows, caught = _warnings.record(_loo.pooled_rows, predictions, names, metrics)
    for category, message in caught:  # e.g. gamma undefined on the pooled predictions
        _warnings.warn(message, category)
    return rows, {"loo_predictions": predictions}


def summarize(results):
    """Mean, standard deviation and number of splits per method and metric.

    ``n_undefined`` counts splits where the metric was undefined (NaN), excluded from the mean.

    For pooled leave-one-out results (rows with ``split == "pooled"``, see :func:`evaluate`)
    ``mean`` is the pooled value, ``sd`` is NaN (there is one value) and ``n_splits`` is 1; two
    more columns give ``n_units`` and ``se``, the standard error of the pooled value: binomial,
    sqrt(p (1 - p) / n), for misclassification, the standard deviation of the per-unit
    distances over sqrt(n) for mean absolute and squared distance, and NaN for gamma (a
    statistic of pairs of units; no standard error is given). The units' leave-one-out
    predictions share most of their learning sets, so these errors are approximate.
    """
    _check_results(results)
    grouped = results.groupby(["method", "metric"], observed=True)["value"]
    table = pd.DataFrame({
        "mean": grouped.mean(),
        "sd": grouped.std(ddof=1),
        "n_splits": grouped.count(),
        "n_undefined": grouped.apply(lambda v: int(v.isna().sum())),
    })
    if not (results["split"].astype(str) == _loo.POOLED).any():
        return table
    predictions = results.attrs.get("loo_predictions")
    n_units = np.nan if predictions is None else len(predictions.frame)
    table["n_units"] = n_units
    se = []
    for method, metric in table.index:
        if predictions is None or metric not in _loo.UNIT_LOSSES:
            se.append(np.nan)
        else:
            losses = _loo.unit_losses(predictions, metric, [method])[:, 0]
            se.append(_loo.standard_error(losses, metric))
    table["se"] = se
    return table


def _check_results(results):
    needed = {"split", "method", "metric", "value"}
    if not isinstance(results, pd.DataFrame) or not needed <= set(results.columns):
        raise TypeError("results must be the DataFrame returned by evaluate() "
                        "(columns split, method, metric, value).")


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
        return "\n".join(lines)


def compare_methods(results, metric="misclassification"):
    """Friedman test over methods, then pairwise Wilcoxon signed-rank tests with Holm's
    correction, treating each split as a block (all methods were scored on the same splits).

    Splits where any method's value is undefined are dropped. Note that cross-validation splits
    share units, so the tests are approximate (as in the ordinal-splitting paper, section 5).

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
    if (sub["split"].astype(str) == _loo.POOLED).any():
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
    if len(methods) >= 3 and np.ptp(values, axis=1).any():
        stat, pvalue = stats.friedmanchisquare(*values.T)
    elif len(methods) >= 3:
        stat, pvalue = 0.0, 1.0  # every split tied across methods
    else:
        stat, pvalue = float("nan"), float("nan")
    rows = []
    for i in range(len(methods)):
        for j in range(i + 1, len(methods)):
            diff = values[:, i] - values[:, j]
            if np.all(diff == 0):
                w_stat, w_p = 0.0, 1.0
            else:
                w_stat, w_p = stats.wilcoxon(values[:, i], values[:, j], zero_method="wilcox")
            rows.append({"method_a": methods[i], "method_b": methods[j],
                         "mean_difference": float(diff.mean()), "statistic": float(w_stat),
                         "p_value": float(w_p)})
    return MethodComparison(metric, len(table), float(stat), float(pvalue),
                            _mean_ranks(values, methods, metric), _holm(rows))


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
    losses = _loo.unit_losses(predictions, metric, methods)
    if len(methods) >= 3:
        global_test, stat, pvalue = _loo.global_unit_test(losses, metric)
    else:
        global_test = "Cochran's Q" if metric == "misclassification" else "Friedman"
        stat, pvalue = float("nan"), float("nan")
    rows = []
    for i in range(len(methods)):
        for j in range(i + 1, len(methods)):
            a, b = losses[:, i], losses[:, j]
            statistic, p_value = _loo.paired_unit_test(a, b, metric)
            rows.append({"method_a": methods[i], "method_b": methods[j],
                         "mean_difference": float(np.mean(a - b)),
                         "a_worse": int(np.sum(a > b)), "b_worse": int(np.sum(b > a)),
                         "statistic": statistic, "p_value": p_value})
    pairwise_test = ("exact McNemar" if metric == "misclassification"
                     else "Wilcoxon signed-rank")
    return MethodComparison(metric, len(losses), float(stat), float(pvalue),
                            _mean_ranks(losses, methods, metric), _holm(rows),
                            global_test=global_test, pairwise_test=pairwise_test,
                            blocks="units")


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
    if (results["split"].astype(str) == _loo.POOLED).any():
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
