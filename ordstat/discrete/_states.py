"""Discrete predictors: the categories of each variable, integer codes, one integer state per row.

A row x = (x_1, ..., x_d) with x_j in a set of c_j categories is coded as integers
0 <= code_j < c_j and then as one mixed-radix integer state (C order: the last variable varies
fastest), so that the s = prod_j c_j states of the full multinomial model (Brito et al. 2006,
section 2) are the integers 0..s-1 without ever building a table of them.

How the categories of a variable are found (``categories`` of the estimators):

- ``"auto"``: pandas Categorical columns keep all their categories (used or not) in their order;
  any other column takes its sorted distinct training values (so any numeric X works, each
  distinct value being a category; 0/1 data whose column is constant in training gets c_j = 1).
  A float column with many distinct values, not all whole numbers, looks continuous
  (``ordstat._core.predictors.looks_continuous``): a ``ManyCategoriesWarning`` says so.
- ``"binary"``: every variable is binary with categories (0, 1), as in the paper; any other value
  (booleans count as 0/1) is an error.
- a list with one sequence of categories per variable (in code order): values outside it are an
  error, and declared categories absent from the training data still count in c_j.

A value outside a variable's categories when predicting is an error (it has no probability under
the fitted model): declare all categories with ``categories=`` when fitting. NaN is always an
error.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse

from .._core.categories import category_codes, feature_label, observed_categories
from .._core.predictors import looks_continuous
from .._core.validation import check_X_given
from ..exceptions import ManyCategoriesWarning

_UNKNOWN_HINT = "Declare every category with categories= when fitting."
# Mixed-radix state ids must fit an int64 with room to spare.
MAX_STATES = 2**62


@dataclass(frozen=True)
class DiscreteSpace:
    """Categories of each variable (code order) and whether the variables were declared binary."""

    categories: tuple
    binary: bool = False

    @property
    def n_categories(self) -> np.ndarray:
        return np.array([len(c) for c in self.categories], dtype=np.int64)

    @property
    def active(self) -> np.ndarray:
        """Variables with at least two categories; constant ones never change a density."""
        return self.n_categories >= 2

    @property
    def radices(self) -> np.ndarray:
        return self.n_categories[self.active]

    @property
    def n_states(self) -> int:
        """s = prod_j c_j, as an exact Python integer."""
        return math.prod(int(c) for c in self.n_categories)


# --------------------------------------------------------------------------- input checks

def _reshape_message(arr):
    return (
        f"X must be a 2-D array of category values (n_samples, n_features); got an array of "
        f"shape {np.shape(arr)}. Reshape your data either using array.reshape(-1, 1) if your "
        "data has a single feature or array.reshape(1, -1) if it contains a single sample."
    )


def as_columns(X):
    """Check the shape of ``X`` and return (numeric ndarray or None, list of columns, names).

    Numeric input (numbers or booleans, no categorical/object columns) comes back as one 2-D
    ndarray for the fast paths; anything else as a list of 1-D object/categorical Series.
    """
    check_X_given(X)
    if sparse.issparse(X):
        raise TypeError(
            "X is a sparse matrix, which is not supported: discrete models need a dense "
            "array or DataFrame of category values."
        )
    names = None
    if isinstance(X, pd.DataFrame):
        names = [str(c) for c in X.columns]
        if X.ndim != 2:
            raise ValueError(_reshape_message(X))
        numeric = all(
            not isinstance(dt, pd.CategoricalDtype) and (pd.api.types.is_numeric_dtype(dt)
                                                          or pd.api.types.is_bool_dtype(dt))
            for dt in X.dtypes
        )
        n, d = X.shape
        _check_size(n, d)
        if numeric:
            arr = X.to_numpy()
            if arr.dtype == object:  # nullable dtypes with pd.NA
                if X.isna().to_numpy().any():
                    _raise_missing(X.isna().to_numpy(), names)
                arr = arr.astype(np.float64)
            return _check_numeric(arr, names), None, names
        return None, [X.iloc[:, j].reset_index(drop=True) for j in range(d)], names
    if isinstance(X, pd.Series):
        raise ValueError(_reshape_message(X))
    try:
        arr = np.asarray(X)
    except ValueError as exc:
        raise ValueError(f"X could not be read as a 2-D array of category values: {exc}") from None
    if arr.ndim != 2:
        raise ValueError(_reshape_message(arr))
    n, d = arr.shape
    _check_size(n, d)
    if arr.dtype.kind in "biuf":
        return _check_numeric(arr, None), None, None
    if arr.dtype.kind == "c":
        raise ValueError("Complex data not supported: X must hold category values.")
    if arr.dtype.kind in "OUS":
        return None, [pd.Series(arr[:, j], dtype=object) for j in range(d)], None
    raise TypeError(
        f"X has dtype {arr.dtype}, which cannot hold category values; use integers, strings, "
        "booleans or pandas Categoricals."
    )


def _check_size(n, d):
    if n < 1:
        raise ValueError(f"Found array with 0 sample(s) (shape=({n}, {d})) while a minimum of 1 "
                         "is required: X needs at least one unit.")
    if d < 1:
        raise ValueError(f"Found array with 0 feature(s) (shape=({n}, {d})) while a minimum of 1 "
                         "is required: X needs at least one variable.")


def _raise_missing(mask, names):
    rows, cols = np.nonzero(mask)
    raise ValueError(
        f"X contains {int(mask.sum())} NaN/missing value(s) (first in row {rows[0]}, "
        f"{feature_label(cols[0], names)}); discrete models have no missing-value state: drop "
        "or impute those units."
    )


def _check_numeric(arr, names):
    if arr.dtype.kind == "b":
        return arr.astype(np.int8)
    if arr.dtype.kind == "f":
        bad = ~np.isfinite(arr)
        if bad.any():
            if np.isnan(arr).any():
                _raise_missing(np.isnan(arr), names)
            rows, cols = np.nonzero(bad)
            raise ValueError(
                f"X contains infinite value(s) (first in row {rows[0]}, "
                f"{feature_label(cols[0], names)}); category values must be finite."
            )
    return arr


def _check_column_missing(col, j, names):
    missing = pd.isna(col).to_numpy() if isinstance(col, pd.Series) else pd.isna(col)
    if missing.any():
        row = int(np.flatnonzero(missing)[0])
        raise ValueError(
            f"X contains {int(missing.sum())} NaN/missing value(s) in {feature_label(j, names)} "
            f"(first in row {row}); discrete models have no missing-value state: drop or impute "
            "those units."
        )


# --------------------------------------------------------------------------- categories

def _sorted_unique(values, j, names):
    return observed_categories(values, feature_label(j, names))


def _warn_many_categories(uniques, j, names, n):
    """Warn when a float variable looks continuous
    (``ordstat._core.predictors.looks_continuous``)."""
    if not looks_continuous(uniques):
        return
    warnings.warn(
        f"X {feature_label(j, names)} is a float variable with {len(uniques)} distinct values "
        f"among {n} units; a discrete model makes every value a category of its own (a value "
        "not seen in training cannot be predicted). Group the values first (e.g. pd.cut), or "
        "use a model for numeric predictors (EDDA, OrdinalTreeClassifier).",
        ManyCategoriesWarning, stacklevel=4)


def _check_declared(categories, d):
    if isinstance(categories, str) or not hasattr(categories, "__len__"):
        raise ValueError(
            f"categories must be 'auto', 'binary' or a list with one sequence of categories per "
            f"feature; got {categories!r}."
        )
    if len(categories) != d:
        raise ValueError(
            f"categories must list the categories of each of the {d} features; got "
            f"{len(categories)} sequence(s)."
        )
    out = []
    for j, cats in enumerate(categories):
        arr = np.asarray(list(cats))
        if arr.ndim != 1 or len(arr) == 0:
            raise ValueError(f"categories[{j}] must be a non-empty 1-D sequence; got {cats!r}.")
        if pd.isna(pd.Series(arr, dtype=object)).any():
            raise ValueError(f"categories[{j}] must not contain missing values.")
        if len(pd.unique(arr)) != len(arr):
            raise ValueError(f"categories[{j}] must not repeat a category; got {list(arr)}.")
        if arr.dtype.kind == "b":
            arr = arr.astype(np.int8)
        out.append(arr)
    return out


def _small_int_codes(arr, cats=None):
    """Codes of a matrix of small non-negative integers by per-column bincount / lookup tables.

    Returns (codes, categories) or None when the values are not small non-negative integers.
    """
    if arr.dtype.kind == "f":
        if not np.array_equal(arr, np.floor(arr)):
            return None
    lo, hi = arr.min(), arr.max()
    if lo < 0 or hi >= 256:
        return None
    n, d = arr.shape
    m = int(hi) + 1
    flat = arr.astype(np.intp) + np.arange(d, dtype=np.intp) * m
    present = np.bincount(flat.ravel(), minlength=d * m).reshape(d, m) > 0
    lut = np.cumsum(present, axis=1) - 1
    codes = lut.ravel()[flat]
    categories = [np.flatnonzero(present[j]).astype(arr.dtype) for j in range(d)]
    return codes, categories


def fit_space(X, categories="auto"):
    """Learn or check the categories of every variable and code ``X``.

    Returns
    -------
    space : DiscreteSpace
    codes : ndarray of shape (n_samples, n_features), integers 0..c_j-1
    names : list of str or None (DataFrame column names)
    """
    numeric, columns, names = as_columns(X)
    d = numeric.shape[1] if numeric is not None else len(columns)
    if isinstance(categories, str) and categories == "binary":
        space = DiscreteSpace(tuple(np.array([0, 1]) for _ in range(d)), binary=True)
        return space, encode(X, space, _checked=(numeric, columns, names)), names
    if isinstance(categories, str) and categories == "auto":
        if numeric is not None:
            fast = _small_int_codes(numeric)
            if fast is not None:
                codes, cats = fast
                return DiscreteSpace(tuple(cats)), codes, names
            cats, codes = [], np.empty(numeric.shape, dtype=np.intp)
            for j in range(d):
                u, inv = np.unique(numeric[:, j], return_inverse=True)
                _warn_many_categories(u, j, names, numeric.shape[0])
                cats.append(u)
                codes[:, j] = inv
            return DiscreteSpace(tuple(cats)), codes, names
        cats = []
        for j, col in enumerate(columns):
            _check_column_missing(col, j, names)
            if isinstance(col.dtype, pd.CategoricalDtype):
                cats.append(np.asarray(col.cat.categories, dtype=object))
            else:
                cats.append(_sorted_unique(col, j, names))
                if pd.api.types.is_float_dtype(col.dtype):
                    _warn_many_categories(cats[-1].astype(np.float64), j, names, len(col))
        space = DiscreteSpace(tuple(cats))
        return space, encode(X, space, _checked=(numeric, columns, names)), names
    space = DiscreteSpace(tuple(_check_declared(categories, d)))
    return space, encode(X, space, _checked=(numeric, columns, names)), names


def encode(X, space, *, _checked=None):
    """Codes 0..c_j-1 of ``X`` under a fitted ``space``; unknown values raise a ValueError."""
    numeric, columns, names = _checked if _checked is not None else as_columns(X)
    d = numeric.shape[1] if numeric is not None else len(columns)
    if d != len(space.categories):
        raise ValueError(
            f"X has {d} features, but the model was fitted with {len(space.categories)} features."
        )
    if space.binary:
        if numeric is None:
            for j, col in enumerate(columns):
                _check_column_missing(col, j, names)
            try:
                numeric = np.column_stack([np.asarray(c, dtype=np.float64) for c in columns])
            except (TypeError, ValueError):
                raise ValueError(
                    "X must hold only the values 0 and 1 for variables declared binary "
                    "(categories='binary'); got non-numeric values. Use categories='auto' or "
                    "declare the categories of each variable."
                ) from None
        ok = (numeric == 0) | (numeric == 1)
        if not ok.all():
            rows, cols = np.nonzero(~ok)
            bad = numeric[rows[0], cols[0]].item()
            raise ValueError(
                f"X must hold only the values 0 and 1 for variables declared binary "
                f"(categories='binary'); {feature_label(cols[0], names)} has the value {bad!r} "
                f"in row {rows[0]} ({int((~ok).sum())} such value(s) in all). Use "
                "categories='auto' or declare the categories of each variable."
            )
        return numeric.astype(np.intp)
    codes = np.empty((numeric.shape[0] if numeric is not None else len(columns[0]), d),
                     dtype=np.intp)
    for j in range(d):
        cats = space.categories[j]
        if numeric is not None:
            values = numeric[:, j]
        else:
            col = columns[j]
            _check_column_missing(col, j, names)
            values = col.astype(object).to_numpy() if isinstance(col.dtype, pd.CategoricalDtype) \
                else np.asarray(col, dtype=object)
        idx = category_codes(values, cats, feature_label(j, names), _UNKNOWN_HINT)
        codes[:, j] = idx
    return codes


# --------------------------------------------------------------------------- states

def check_state_space(space, model):
    """The number of states must fit mixed-radix int64 ids."""
    s = space.n_states
    if s >= MAX_STATES:
        raise ValueError(
            f"{model} needs one integer per state, but the {len(space.categories)} variables "
            f"have s = prod_j c_j = {s:.3e} states (at most 2^62 are supported). Use "
            "IndependenceModel, or fewer variables/categories."
        )
    return s


def strides(radices) -> np.ndarray:
    """C-order place values of a mixed-radix number with the given radices."""
    radices = np.asarray(radices, dtype=np.int64)
    out = np.ones(len(radices), dtype=np.int64)
    if len(radices) > 1:
        out[:-1] = np.cumprod(radices[::-1])[::-1][1:]
    return out


def state_ids(active_codes, radices) -> np.ndarray:
    """One int64 state per row (codes of the active variables only)."""
    if active_codes.shape[1] == 0:
        return np.zeros(active_codes.shape[0], dtype=np.int64)
    return active_codes.astype(np.int64) @ strides(radices)


def states_to_codes(ids, radices) -> np.ndarray:
    """Inverse of :func:`state_ids`: the codes of the active variables of each state."""
    ids = np.asarray(ids, dtype=np.int64)
    out = np.empty((len(ids), len(radices)), dtype=np.intp)
    for j, st in enumerate(strides(radices)):
        out[:, j] = (ids // st) % radices[j]
    return out
