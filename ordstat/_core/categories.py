"""Categorical predictors: category values -> integer codes, one place for the trees and the
discrete models, with one error for a category not seen when fitting.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import sparse

__all__ = ["feature_label", "category_codes", "unknown_category_error", "observed_categories",
           "ColumnCoding"]


def feature_label(j, names=None):
    """'feature 3' or 'feature 3 ('colour')' for messages."""
    return f"feature {j}" if names is None else f"feature {j} ({names[j]!r})"


def unknown_category_error(values, categories, feature, hint):
    """The ValueError for value(s) of ``feature`` outside its fitted ``categories``."""
    unseen = pd.unique(np.asarray(values, dtype=object))[:5]
    cats = np.asarray(categories, dtype=object).tolist()
    shown = ", ".join(map(repr, cats[:10]))
    more = f", ... ({len(cats)} in all)" if len(cats) > 10 else ""
    return ValueError(
        f"X {feature} has value(s) {[_plain(v) for v in unseen]} not seen when fitting "
        f"(its categories: [{shown}{more}]); a fitted model has no rule for an unknown "
        f"category. {hint}"
    )


def observed_categories(values, feature):
    """The distinct non-missing values of a column, sorted when they can be (object array).

    A column mixing numbers and strings (or other unsortable types) is a TypeError naming
    ``feature``: one type per variable.
    """
    values = np.asarray(values, dtype=object)
    uniques = pd.unique(values[~pd.isna(values)])
    kinds = {type(v) for v in uniques}
    numeric = all(issubclass(k, (int, float, np.number, bool, np.bool_)) for k in kinds)
    if len(kinds) > 1 and not numeric:
        raise TypeError(
            f"X {feature} mixes value types {sorted(k.__name__ for k in kinds)}; "
            "use one type per variable."
        )
    try:
        return np.array(sorted(uniques), dtype=object)
    except TypeError:
        return np.array(uniques, dtype=object)


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value


def category_codes(values, categories, feature, hint, *, missing_ok=False):
    """Codes 0..c-1 of ``values`` in ``categories`` (intp), -1 for missing values.

    A non-missing value outside ``categories`` raises :func:`unknown_category_error`; a missing
    one does too unless ``missing_ok``.
    """
    values = np.asarray(values, dtype=object) if not isinstance(values, np.ndarray) else values
    cats = np.asarray(categories)
    if values.dtype.kind in "biuf" and cats.dtype.kind in "iuf" and len(cats) > 0 \
            and np.all(np.diff(cats) > 0):
        # numeric categories: exact match by binary search
        pos = np.minimum(np.searchsorted(cats, values), len(cats) - 1)
        idx = np.where(cats[pos] == values, pos, -1)
    else:
        idx = pd.Index(cats).get_indexer(values)
    bad = idx < 0
    if missing_ok:
        bad &= ~pd.isna(values)
    if bad.any():
        raise unknown_category_error(values[bad], categories, feature, hint)
    return idx.astype(np.intp, copy=False)


_UNKNOWN_HINT = "List every category in the training column's dtype (a pandas Categorical)."


class ColumnCoding:
    """Categorical columns of ``X`` as numbers, learned once from the training ``X``: the one
    reading of categorical predictors shared by the tree, its ensembles and the replicated
    trees (the estimators that fit many trees code ``X`` once, not once per tree).

    Unordered pandas Categoricals and string or object-of-strings columns (which
    :func:`ordstat._core.predictors.describe_predictors` decides) are *nominal*: their
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
    def learn(cls, X):
        """(coding, coded ``X``) of a training ``X``; an ``X`` without categorical columns
        comes back as given (the coding is then empty)."""
        coding = cls()
        table, names = _as_table(X)
        if table is None:
            return coding, X
        from .predictors import describe_predictors  # predictors imports this module

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
            if j in coding.nominal and np.isnan(codes).any():
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
            f"{shown}{more}; {type(estimator).__name__} {why}, so it takes an ordered "
            "Categorical (as its codes) but not categories without an order. Give the column "
            "an order (pd.Categorical(values, categories=[...], ordered=True)), encode it as "
            "dummy variables (pd.get_dummies), or use OrdinalTreeClassifier or its ensembles, "
            "which split unordered categories."
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
