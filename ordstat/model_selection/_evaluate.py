"""Several methods fitted and scored on the same splits: :func:`evaluate` and
:func:`summarize`."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from joblib import delayed
from sklearn.model_selection import LeaveOneOut
from sklearn.utils.validation import has_fit_parameter

from .._core.base import configured_clone
from .._core import warnings as _warnings
from .._core.labels import encode_target
from .._core.names import metric_name
from .._core.validation import check_random_state, check_sample_weight
from ..metrics import METRICS
from . import _pooled, _progress
from ._splits import make_cv


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


def _fit_and_predict(estimator, X, codes, train, test, encoding, seed, weights=None):
    """Codes predicted for the test units.

    An estimator that takes ``classes`` is fitted on the user's labels with the full class
    order, so that its warnings name classes by their labels; others are fitted on the codes.
    """
    labelled = "classes" in estimator.get_params(deep=False)
    est = configured_clone(estimator, classes=encoding.classes, random_state=seed,
                           keep_seed=True)
    take = (lambda idx: X.iloc[idx]) if isinstance(X, pd.DataFrame) else (lambda idx: X[idx])
    kwargs = {} if weights is None else {"sample_weight": weights[train]}
    est.fit(take(train), encoding.decode(codes[train]) if labelled else codes[train], **kwargs)
    pred = np.asarray(est.predict(take(test)))
    return encoding.encode(pred, "predictions") if labelled else pred


class _Failed(str):
    """A fit that raised (with ``on_error="drop"``): the error as "Type: message"."""


def _fit_and_score(name, estimator, X, codes, train, test, split, metrics, encoding, seed,
                   pooled=False, catch=False, weights=None):
    """One fit: its tidy rows (or, pooled, its test predictions) and the warnings it raised;
    with ``catch``, an error is returned as :class:`_Failed` instead of raised."""
    try:
        pred, caught = _warnings.record(_fit_and_predict, estimator, X, codes, train, test,
                                        encoding, seed, weights)
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
            value = fn(codes[test], pred, classes=np.arange(encoding.n_classes),
                       sample_weight=None if weights is None else weights[test])
        rows.append((split, name, metric, value))
    return rows, caught


def evaluate(estimators, X, y, *, scheme="cv10", metrics=("misclassification", "mean_absolute",
             "mean_squared", "gamma"), classes=None, n_jobs=None, random_state=None,
             progress=None, on_error="raise", sample_weight=None):
    """Fit several estimators on the same resampling splits and score them on the test parts.

    Parameters
    ----------
    estimators : dict {name: estimator} or list of estimators
        Unfitted estimators; each is cloned for every split.
    X : array-like or DataFrame of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Ordered labels (see ``ordstat._core.labels``).
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
    weights = _check_weights(sample_weight, items, len(codes))
    rng = check_random_state(random_state)
    cv = make_cv(scheme, random_state=int(rng.integers(np.iinfo(np.int32).max)))
    pooled = isinstance(cv, LeaveOneOut)
    if pooled and weights is not None:
        raise ValueError("sample_weight cannot be used with leave-one-out: its pooled standard "
                         "errors and paired tests count units, not weights; use a v-fold "
                         "scheme (e.g. scheme='cv10') or one row per counted unit.")
    splits = list(cv.split(X_, codes))
    seeds = rng.integers(np.iinfo(np.int32).max, size=len(splits))
    tasks = [delayed(_fit_and_score)(name, est, X_, codes, train, test, i, metrics,
                                     encoding, int(seeds[i]), pooled, on_error == "drop",
                                     weights)
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


def _check_weights(sample_weight, items, n):
    """The checked unit weights (None without them); every method must take them."""
    if sample_weight is None:
        return None
    weights = check_sample_weight(sample_weight, n)
    unable = [name for name, est in items if not has_fit_parameter(est, "sample_weight")]
    if unable:
        raise TypeError(f"sample_weight: method(s) {', '.join(map(repr, unable))} cannot take "
                        "weights (their fit has no sample_weight); leave them out or give one "
                        "row per counted unit.")
    return weights


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
    predictions = _pooled.PooledPredictions(pd.DataFrame(as_labels))
    rows, caught = _warnings.record(_pooled.pooled_rows, predictions, names, metrics)
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
    if not (results["split"].astype(str) == _pooled.POOLED).any():
        return table
    predictions = results.attrs.get("loo_predictions")
    n_units = np.nan if predictions is None else len(predictions.frame)
    table["n_units"] = n_units
    se = []
    for method, metric in table.index:
        if predictions is None or metric not in _pooled.UNIT_LOSSES:
            se.append(np.nan)
        else:
            losses = _pooled.unit_losses(predictions, metric, [method])[:, 0]
            se.append(_pooled.standard_error(losses, metric))
    table["se"] = se
    return table


def _check_results(results):
    needed = {"split", "method", "metric", "value"}
    if not isinstance(results, pd.DataFrame) or not needed <= set(results.columns):
        raise TypeError("results must be the DataFrame returned by evaluate() "
                        "(columns split, method, metric, value).")
