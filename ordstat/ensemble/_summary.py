"""What the bagged ensembles' ``summary()`` shows beyond the classes: the out-of-bag errors by
class (with the out-of-bag confusion matrix, as R's randomForest prints it) and the importance of
each feature."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._core.summary import feature_names

__all__ = ["oob_confusion", "oob_class_table", "oob_confusion_table", "importance_table"]


def oob_confusion(codes, prediction, k, sample_weight=None):
    """Counts [true class, out-of-bag predicted class] over the units with an out-of-bag
    prediction (``prediction`` -1 marks a unit in every bootstrap sample, left out); with
    ``sample_weight``, the units' summed weights."""
    seen = prediction >= 0
    flat = codes[seen] * k + prediction[seen]
    if sample_weight is not None:
        return np.bincount(flat, weights=sample_weight[seen], minlength=k * k).reshape(k, k)
    return np.bincount(flat, minlength=k * k).reshape(k, k).astype(np.int64)


def _class_index(estimator, name):
    return pd.Index([str(c) for c in estimator.classes_], name=name)


def oob_class_table(estimator):
    """One row per true class, in the class order: ``n_oob`` (its units out of bag for at least
    one tree), ``error`` (the share of them whose aggregated out-of-bag prediction is another
    class) and ``mean_absolute`` (their mean distance between predicted and true class ranks);
    NaN for a class without such units."""
    confusion = estimator.oob_confusion_
    n = confusion.sum(axis=1)
    k = confusion.shape[0]
    distance = np.abs(np.arange(k)[None, :] - np.arange(k)[:, None])
    with np.errstate(invalid="ignore", divide="ignore"):
        error = np.where(n > 0, 1.0 - np.diag(confusion) / n, np.nan)
        mean_absolute = np.where(n > 0, (confusion * distance).sum(axis=1) / n, np.nan)
    return pd.DataFrame({"n_oob": n, "error": error, "mean_absolute": mean_absolute},
                        index=_class_index(estimator, "class"))


def oob_confusion_table(estimator):
    """``oob_confusion_`` labelled: rows the true classes, columns the out-of-bag predicted
    classes, both in the class order."""
    return pd.DataFrame(estimator.oob_confusion_, index=_class_index(estimator, "true"),
                        columns=_class_index(estimator, "predicted"))


def importance_table(estimator):
    """The importance of each feature, most important first: ``split`` (the ensemble's
    ``feature_importances_``) and, when computed, ``permutation``
    (``permutation_importance_``); None without either."""
    columns = {}
    split = getattr(estimator, "feature_importances_", None)
    if split is not None:
        columns["split"] = split
    if hasattr(estimator, "permutation_importance_"):
        columns["permutation"] = estimator.permutation_importance_
    if not columns:
        return None
    table = pd.DataFrame(columns, index=pd.Index(feature_names(estimator), name="feature"))
    return table.sort_values(table.columns[-1], ascending=False, kind="stable")
