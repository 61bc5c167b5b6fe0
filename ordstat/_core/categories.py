"""Categorical predictors: category values -> integer codes, one place for the trees and the
discrete models, with one error for a category not seen when fitting.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["feature_label", "category_codes", "unknown_category_error", "observed_categories"]


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
