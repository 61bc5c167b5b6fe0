"""What kind of predictors ``X`` holds: numeric or categorical columns, and missing values.

:func:`describe_predictors` is the one place that decides, for a DataFrame or an array, which
columns are categorical (pandas Categorical, string and object-of-strings columns) and how many
values each column is missing. The estimators use it through ``_validation`` (numeric-only
estimators refuse categorical columns and missing values with the messages built here), the trees
use it to find the columns they split as categories, and ``ordstat compare`` uses it to give each
method the columns and units it can take.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse

from .categories import feature_label

__all__ = ["PredictorKinds", "describe_predictors", "check_numeric_predictors",
           "categorical_error", "missing_error", "looks_continuous", "MANY_CATEGORIES"]

# A float variable with more distinct values than this, not all whole numbers, looks continuous:
# a discrete model would make every value a category of its own.
MANY_CATEGORIES = 10


def _estimators_taking(kind):
    """The estimators that take categorical predictors as they are / missing values, named in
    messages (read from their tags through the registry)."""
    from .registry import taking

    return ", ".join(taking(kind))


@dataclass(frozen=True)
class PredictorKinds:
    """Per-column facts about ``X``.

    Attributes
    ----------
    names : list of str or None
        Column names of a DataFrame (None for an array).
    labels : list
        The column labels as given (positions for an array).
    categorical : ndarray of bool, one per column
    n_missing : ndarray of int, one per column
    n_rows_missing : int
        Units with at least one missing value.
    """

    names: list | None
    labels: list
    categorical: np.ndarray
    n_missing: np.ndarray
    n_rows_missing: int

    def label(self, j):
        return feature_label(j, self.names)

    def columns(self, mask):
        """Column labels where ``mask`` is true."""
        return [self.labels[j] for j in np.flatnonzero(mask)]


def _object_is_categorical(values):
    """An object column is categorical when it holds strings (numbers stay numeric; other
    objects are left to the numeric conversion, which names their type)."""
    kind = pd.api.types.infer_dtype(values, skipna=True)
    if kind in ("string", "categorical"):
        return True
    if kind.startswith("mixed"):
        return any(isinstance(v, str) for v in values)
    return False


def _column_is_categorical(col):
    dtype = col.dtype
    if isinstance(dtype, (pd.CategoricalDtype, pd.StringDtype)):
        return True
    if pd.api.types.is_object_dtype(dtype):
        return _object_is_categorical(col.to_numpy())
    return False


def describe_predictors(X):
    """Categorical columns and missing values of ``X`` (DataFrame or 2-D array-like).

    Returns None when ``X`` is not a dense 2-D table (sparse matrices, wrong shapes, complex
    numbers): the numeric conversion then gives its own message.

    Numeric, boolean and object-of-numbers columns are numeric; pandas Categorical (ordered or
    not), string and object-of-strings columns are categorical. Missing values are NaN, None and
    ``pd.NA``.
    """
    if isinstance(X, pd.DataFrame):
        labels = list(X.columns)
        categorical = np.array([_column_is_categorical(X.iloc[:, j])
                                for j in range(X.shape[1])], dtype=bool)
        missing = X.isna().to_numpy()
        names = [str(c) for c in labels]
    else:
        if sparse.issparse(X) or X is None:
            return None
        try:
            arr = np.asarray(X)
        except (ValueError, TypeError):
            return None
        if arr.ndim != 2:
            return None
        labels = list(range(arr.shape[1]))
        names = None
        if arr.dtype.kind == "f":
            categorical = np.zeros(arr.shape[1], dtype=bool)
            missing = np.isnan(arr)
        elif arr.dtype.kind in "biu":
            categorical = np.zeros(arr.shape[1], dtype=bool)
            missing = np.zeros(arr.shape, dtype=bool)
        elif arr.dtype.kind in "US":
            categorical = np.ones(arr.shape[1], dtype=bool)
            missing = np.zeros(arr.shape, dtype=bool)
        elif arr.dtype.kind == "O":
            categorical = np.array([_object_is_categorical(arr[:, j])
                                    for j in range(arr.shape[1])], dtype=bool)
            missing = np.asarray(pd.isna(arr), dtype=bool)
        else:
            return None
    n_missing = missing.sum(axis=0).astype(np.int64)
    n_rows = int(missing.any(axis=1).sum()) if n_missing.any() else 0
    return PredictorKinds(names, labels, categorical, n_missing, n_rows)


def looks_continuous(values):
    """True for float values with more than ``MANY_CATEGORIES`` distinct values, not all of
    them whole numbers (missing values ignored)."""
    values = np.asarray(values)
    if values.dtype.kind != "f":
        return False
    uniques = np.unique(values[~np.isnan(values)])
    return len(uniques) > MANY_CATEGORIES and not np.array_equal(uniques, np.floor(uniques))


def _listing(kinds, mask, counts=False):
    idx = np.flatnonzero(mask)
    shown = [kinds.label(j) + (f" ({kinds.n_missing[j]} missing)" if counts else "")
             for j in idx[:5]]
    more = f" and {len(idx) - 5} more" if len(idx) > 5 else ""
    return ", ".join(shown) + more


def categorical_error(estimator, kinds):
    """The TypeError for categorical columns given to an estimator that needs numbers."""
    name = type(estimator).__name__
    cols = kinds.columns(kinds.categorical)
    example = [c for c in cols[:3]] if kinds.names is not None else None
    how = (f"pd.get_dummies(X, columns={example!r}, drop_first=True)" if example is not None
           else "sklearn.preprocessing.OneHotEncoder")
    return TypeError(
        f"X has categorical (string or Categorical) values in {_listing(kinds, kinds.categorical)}"
        f"; {name} needs numeric predictors. Encode them as numbers first, e.g. with {how} "
        "(dummy variables) or OrdinalEncoder for an ordered scale, or use an estimator that "
        f"takes categorical predictors: {_estimators_taking('categorical')}."
    )


def missing_error(estimator, kinds, *, fitting=True):
    """The ValueError for missing values given to an estimator that cannot take them."""
    name = type(estimator).__name__
    bad = kinds.n_missing > 0
    what = "fit with" if fitting else "predict for units with"
    return ValueError(
        f"X contains NaN (missing values): {_listing(kinds, bad, counts=True)}, "
        f"{kinds.n_rows_missing} unit(s) in all; {name} cannot {what} missing predictor values. "
        "Drop or impute those units first (e.g. X.dropna(), or sklearn.impute.SimpleImputer), "
        f"or use {_estimators_taking('missing')}; from R, na.action = na.omit drops them."
    )


def check_numeric_predictors(estimator, X, *, allow_nan=False, allow_categorical=False,
                             fitting=True):
    """Raise our message when ``X`` has categorical columns (unless ``allow_categorical``) or
    missing values (unless ``allow_nan``); otherwise leave ``X`` to the numeric conversion."""
    if isinstance(X, np.ndarray) and (X.dtype.kind in "biu" or (
            X.dtype.kind == "f" and np.isfinite(np.sum(X)))):
        return  # numeric and complete (a finite sum has no NaN): skip the scan
    kinds = describe_predictors(X)
    if kinds is None:
        return
    if not allow_categorical and kinds.categorical.any():
        raise categorical_error(estimator, kinds)
    if not allow_nan and kinds.n_rows_missing:
        raise missing_error(estimator, kinds, fitting=fitting)
