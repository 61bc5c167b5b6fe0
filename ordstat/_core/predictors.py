"""What kind of predictors ``X`` holds: numeric or categorical columns, and missing values.

:func:`describe_predictors` is the one place that decides, for a DataFrame or an array, which
columns are categorical (pandas Categorical, string and object-of-strings columns) and how many
values each column is missing. The estimators use it through ``_validation`` (numeric-only
estimators refuse categorical columns and missing values with the messages built here), the trees
use it to find the columns they split as categories, and ``ordstat compare`` uses it to give each
method the columns and units it can take. :class:`ColumnCoding` turns those columns into the
codes the trees split, once per tree, per ensemble or per replica method.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse

from .categories import category_codes, feature_label, observed_categories

__all__ = ["PredictorKinds", "describe_predictors", "check_numeric_predictors",
           "categorical_error", "missing_error", "looks_continuous", "MANY_CATEGORIES",
           "ColumnCoding"]

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


_UNKNOWN_HINT = "List every category in the training column's dtype (a pandas Categorical)."


class ColumnCoding:
    """Categorical columns of ``X`` as numbers, learned once from the training ``X``: the one
    reading of categorical predictors shared by the tree, its ensembles and the replicated
    trees (the estimators that fit many trees code ``X`` once, not once per tree).

    Unordered pandas Categoricals and string or object-of-strings columns (which
    :func:`describe_predictors` decides) are *nominal*: their
    category codes 0..c-1 (the dtype's categories, or the sorted observed strings), and, when
    the training column had missing values, "missing" as a category of its own (code c).
    Ordered Categoricals are *ordered*: their codes, a numeric scale as in rpart, NaN where
    missing. Numeric columns are left as they are.

    Attributes
    ----------
    nominal : dict
        ``{column index: categories}`` of the nominal columns.
    ordered : dict
        ``{column index: categories}`` of the ordered Categoricals.
    missing_category : set
        Nominal columns whose training values had missing values ("missing" is their last code).
    """

    def __init__(self, nominal=None, ordered=None, missing_category=None):
        self.nominal = {} if nominal is None else dict(nominal)
        self.ordered = {} if ordered is None else dict(ordered)
        self.missing_category = set() if missing_category is None else set(missing_category)

    @property
    def is_empty(self):
        return not self.nominal and not self.ordered

    @classmethod
    def learn(cls, X, missing_category=True):
        """(coding, coded ``X``) of a training ``X``; an ``X`` without categorical columns
        comes back as given (the coding is then empty). ``missing_category=False`` keeps the
        missing values of nominal columns as NaN (for rpart's surrogate splits) instead of
        making "missing" a category."""
        coding = cls()
        table, names = _as_table(X)
        if table is None:
            return coding, X
        kinds = describe_predictors(table)
        columns = [] if kinds is None else np.flatnonzero(kinds.categorical).tolist()
        if not columns:
            return coding, X
        table = table.copy()
        for j in columns:
            col = table.iloc[:, j]
            if isinstance(col.dtype, pd.CategoricalDtype):
                cats = col.cat.categories
                (coding.ordered if col.cat.ordered else coding.nominal)[j] = cats
            else:
                coding.nominal[j] = observed_categories(col.to_numpy(dtype=object),
                                                        feature_label(j, names))
            codes = coding._codes(col, j, names)
            if missing_category and j in coding.nominal and np.isnan(codes).any():
                coding.missing_category.add(j)
                codes[np.isnan(codes)] = len(coding.nominal[j])
            table[table.columns[j]] = codes
        return coding, table

    def transform(self, X):
        """``X`` coded as the training ``X`` was (a numeric array is taken to hold the codes
        already and comes back as given); a category not seen at fitting is a ValueError."""
        if self.is_empty:
            return X
        table, names = _as_table(X)
        if table is None:
            return X
        table = table.copy()
        for j in sorted({**self.nominal, **self.ordered}):
            codes = self._codes(table.iloc[:, j], j, names)
            if j in self.missing_category:
                codes[np.isnan(codes)] = len(self.nominal[j])
            table[table.columns[j]] = codes
        return table

    def _codes(self, col, j, names):
        cats = self.nominal[j] if j in self.nominal else self.ordered[j]
        codes = category_codes(col.astype(object).to_numpy(), cats, feature_label(j, names),
                               _UNKNOWN_HINT, missing_ok=True).astype(np.float64)
        codes[codes < 0] = np.nan
        return codes

    def cat_sizes(self, p):
        """Categories of each of the ``p`` columns as the split search counts them (0 for
        numeric and ordered columns, which are split as numbers)."""
        sizes = np.zeros(p, dtype=np.int64)
        for j, cats in self.nominal.items():
            sizes[j] = len(cats) + (j in self.missing_category)
        return sizes

    def nominal_error(self, estimator, X, why):
        """The TypeError of an estimator that takes ordered but not nominal columns."""
        _, names = _as_table(X)
        shown = ", ".join(feature_label(j, names) for j in sorted(self.nominal)[:5])
        more = f" and {len(self.nominal) - 5} more" if len(self.nominal) > 5 else ""
        return TypeError(
            f"X has unordered categorical (string or unordered Categorical) values in "
            f"{shown}{more}; {type(estimator).__name__} needs numeric predictors or ordered "
            f"Categoricals (taken as their codes): it {why}. Give the column an order "
            "(pd.Categorical(values, categories=[...], ordered=True)), encode it as dummy "
            "variables (pd.get_dummies), or use OrdinalTreeClassifier or its ensembles, which "
            "split unordered categories."
        )


def _as_table(X):
    """(DataFrame, column names) of ``X`` when it may hold categorical columns (a DataFrame,
    or an array of strings or objects); (None, None) for anything else (numeric arrays,
    sparse matrices)."""
    if isinstance(X, pd.DataFrame):
        return X, [str(c) for c in X.columns]
    if sparse.issparse(X) or X is None:
        return None, None
    try:
        kind = np.asarray(X).dtype.kind
    except (ValueError, TypeError):
        return None, None
    if kind not in "OUS" or np.ndim(X) != 2:
        return None, None
    return pd.DataFrame(np.asarray(X, dtype=object)), None
