"""Which predictors and units each method gets in ``ordstat compare``.

Methods differ in what they take (``ordstat.cli._methods.accepts_table``, read from the
estimators' tags): the trees split categorical columns and handle missing values, the discrete
models take categorical columns as categories, the other methods need complete numeric
predictors. The rule, chosen so that the comparison stays
a comparison:

- **Columns** are the same for every method: a method that needs numbers gets each unordered
  categorical column as indicator columns, one per level but the first (treatment contrasts,
  as R's ``model.matrix``), and each ordered one as its ranks 0..L-1 (the scale the trees
  read); one line says so per method. The levels are those of all the units compared, so every
  split gets the same columns. A discrete model takes every column as categories, so it is
  refused, with the columns named, when a numeric column looks continuous (each value would be
  a category of its own, and test values unseen in training would fail every split).
- **Categories** of a discrete model are those of all the units compared (a Categorical's
  categories, else the distinct values), declared when it is built, so that a value absent
  from one training part (a zoo animal with 5 legs) does not make that split fail. The
  categories are the predictors' sample space, not the response: no split learns from its test
  part.
- **Units** are the same for every method: a unit with a missing value in a column used by a
  method that cannot take missing values is left out for *all* methods (complete cases on those
  columns), so every method is trained and scored on the same units and the same resampling
  splits. With ``dropna`` every unit with a missing value in a used column is left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from .._core.base import configured_clone
from .._core.predictors import describe_predictors, looks_continuous

__all__ = ["InputPlan", "plan_inputs", "declared_categories", "numeric_coding", "NumericCoded"]


@dataclass
class InputPlan:
    """What ``plan_inputs`` decided.

    Attributes
    ----------
    keep : ndarray of bool
        Units kept (the same for every method).
    coded : list
        The methods that get the categorical columns coded as numbers (:func:`numeric_coding`).
    coding : dict
        ``{column: (ordered, levels)}`` of every categorical column, for :func:`numeric_coding`.
    categorical : list
        The categorical columns of ``X``.
    notes : list of str
        One line per method that gets coded columns, and one for the units left out.
    """

    keep: np.ndarray
    coded: list
    coding: dict
    categorical: list
    notes: list = field(default_factory=list)


def _names(cols):
    return ", ".join(map(str, cols))


def plan_inputs(X, methods, accepts, *, dropna=False):
    """The coding of categorical columns per method and the common units, as described in the
    module docstring.

    Parameters
    ----------
    X : DataFrame of predictors
    methods : list of str
    accepts : dict ``{method: set of flags}``, flags ``"categorical"``, ``"missing"`` and
        ``"discrete"``
    dropna : bool
        Leave out every unit with a missing value in a used column, also for the methods that
        handle missing values (a complete-case analysis).

    Raises
    ------
    ValueError
        When a discrete model would get a continuous column, or no unit is left.
    """
    kinds = describe_predictors(X)
    all_cols = list(X.columns)
    categorical = kinds.columns(kinds.categorical)
    numeric = kinds.columns(~kinds.categorical)
    continuous = [c for c in numeric if pd.api.types.is_float_dtype(X[c].dtype)
                  and looks_continuous(X[c].to_numpy(dtype=float, na_value=np.nan))]
    coding = {c: _levels(X[c]) for c in categorical}
    coded = [m for m in methods if categorical and "categorical" not in accepts.get(m, ())]
    notes = [f"{m}: categorical column(s) {_names(categorical)} coded as numbers (an indicator "
             "column per level but the first, as R's model.matrix; ordered columns as their "
             "ranks)" for m in coded]
    discrete = [m for m in methods if continuous and "discrete" in accepts.get(m, ())]
    if discrete:
        # refused before any fit: every split would fail on values its training part never saw
        raise ValueError(
            f"method(s) {_names(discrete)} cannot use the continuous column(s) "
            f"{_names(continuous)}: they take every predictor as categories, each distinct value "
            "a category of its own; leave those columns out with --predictors, group them into "
            "categories, or choose other methods")
    strict = [m for m in methods if dropna or "missing" not in accepts.get(m, ())]
    used = all_cols if strict else []
    missing = X[used].isna()
    drop = missing.any(axis=1).to_numpy()
    if drop.any():
        with_na = [c for c in used if missing[c].any()]
        why = ("--dropna" if dropna else
               f"{_names(strict)} cannot take missing values")
        notes.append(
            f"{int(drop.sum())} of {len(X)} units left out for every method: missing values in "
            f"{_names(with_na)} ({why}); all methods are trained and scored on the same "
            f"{int((~drop).sum())} units")
        if drop.all():
            raise ValueError(
                f"every unit has a missing value in {_names(with_na)} ({why}); no unit is "
                "left to compare on")
    return InputPlan(~drop, coded, coding, categorical, notes)


def _levels(column):
    """``(ordered, levels)`` of a categorical column: a Categorical's categories, else its
    distinct values sorted as text."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return bool(column.cat.ordered), list(column.cat.categories)
    return False, sorted(pd.unique(column.dropna()), key=str)


def numeric_coding(X, coding):
    """``X`` with the columns of ``coding`` (``{column: (ordered, levels)}``) as numbers: an
    unordered column as indicator columns ``column=level`` for every level but the first, an
    ordered one as its ranks 0..L-1; NaN where the value is missing."""
    parts = []
    for column in X.columns:
        if column not in coding:
            parts.append(X[[column]])
            continue
        ordered, levels = coding[column]
        codes = pd.Categorical(X[column], categories=levels).codes
        missing = codes < 0
        if ordered:
            parts.append(pd.DataFrame({column: np.where(missing, np.nan, codes)}, index=X.index))
            continue
        parts.append(pd.DataFrame({f"{column}={level}": np.where(missing, np.nan, codes == i)
                                   for i, level in enumerate(levels) if i > 0}, index=X.index))
    return pd.concat(parts, axis=1)


def declared_categories(X):
    """The categories of every column of ``X`` (complete units) as a discrete model finds them
    (``categories="auto"``: a Categorical's categories, else the sorted distinct values), for
    its ``categories=`` parameter."""
    from ..discrete._states import fit_space

    space, _, _ = fit_space(X, "auto")
    return [np.asarray(c) for c in space.categories]


class NumericCoded(ClassifierMixin, BaseEstimator):
    """An estimator fitted and applied on ``X`` with its categorical columns coded as numbers
    (:func:`numeric_coding`; ``coding`` from :func:`plan_inputs`).

    ``classes`` and ``random_state`` are passed on to ``estimator`` (when it takes them and, for
    ``random_state``, when its own is None), so that ``evaluate`` can set them per split.
    """

    def __init__(self, estimator, coding, classes=None, random_state=None):
        self.estimator = estimator
        self.coding = coding
        self.classes = classes
        self.random_state = random_state

    def _coded(self, X):
        if not isinstance(X, pd.DataFrame):
            raise TypeError("NumericCoded needs X as a DataFrame (it codes columns by name).")
        return numeric_coding(X, self.coding)

    def fit(self, X, y, sample_weight=None):
        est = configured_clone(self.estimator, classes=self.classes,
                               random_state=self.random_state, keep_seed=True)
        kwargs = {} if sample_weight is None else {"sample_weight": sample_weight}
        self.estimator_ = est.fit(self._coded(X), y, **kwargs)
        self.classes_ = est.classes_
        return self

    def predict(self, X):
        check_is_fitted(self)
        return self.estimator_.predict(self._coded(X))

    def predict_proba(self, X):
        check_is_fitted(self)
        return self.estimator_.predict_proba(self._coded(X))
