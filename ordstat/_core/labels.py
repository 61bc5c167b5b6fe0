"""Ordered class labels <-> integer codes 0..K-1.

This is the only module that maps user labels to codes (contract 2 of docs/architecture.md).
The order of the classes comes, in this priority, from

1. an explicit ``classes=`` sequence (lowest to highest; it may add classes absent from ``y``,
   but an ordered Categorical ``y`` that orders their shared labels otherwise is an error),
2. the categories of a pandas *ordered* Categorical ``y``,
3. the sorted unique values of ``y`` (with a warning when the labels are not numbers, since the
   alphabetical order of strings such as "low" < "high" < "medium" is rarely the intended one).

An *unordered* pandas Categorical without ``classes=`` is an error: its category order is an
accident of construction, not a statement about the response.

Estimators whose method does not use the class order (Gaussian and discrete discriminant
analysis, serial combiners) declare it with the class attribute ``_uses_class_order = False``,
read by :func:`uses_class_order`. For them any labels are accepted without a warning, as
scikit-learn does: an ordered Categorical or ``classes=`` still fixes the order of ``classes_``,
otherwise the classes are sorted (an unordered Categorical's categories, unused ones included).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.exceptions import DataConversionWarning

from ..exceptions import OrderGuessWarning
from .warnings import warn as _warn

__all__ = ["OrdinalEncoding", "encode_target", "is_numeric_labels", "uses_class_order"]


def uses_class_order(estimator) -> bool:
    """Whether ``estimator`` (a class or an instance) uses the order of the classes.

    Read from the class attribute ``_uses_class_order``; estimators that do not set it are
    assumed to use the order (the safe default of an ordinal package).
    """
    return bool(getattr(estimator, "_uses_class_order", True))


def is_numeric_labels(values) -> bool:
    values = np.asarray(values)
    return values.dtype.kind in "biuf"


def _as_1d(y, name: str):
    """Return ``y`` as a 1-D pandas Series (keeps Categorical dtype), checking shape and NA."""
    if isinstance(y, pd.DataFrame):
        if y.shape[1] != 1:
            raise ValueError(f"{name} must be 1-D; got a DataFrame with {y.shape[1]} columns.")
        y = y.iloc[:, 0]
    if isinstance(y, (pd.Series, pd.Categorical, pd.Index)):
        series = pd.Series(y, copy=False).reset_index(drop=True)
    else:
        arr = np.asarray(y)
        if arr.dtype.kind in "US" and not isinstance(y, np.ndarray):
            arr = np.asarray(y, dtype=object)  # numpy would turn [1, "a"] into ["1", "a"]
        if arr.ndim == 2 and arr.shape[1] == 1:
            _warn(
                f"A column-vector {name} was passed when a 1d array was expected; "
                f"{name} of shape {arr.shape} is used as a 1-D array.",
                DataConversionWarning,
            )
            arr = arr[:, 0]
        if arr.ndim != 1:
            raise ValueError(
                f"{name} must be a 1-D array of class labels; got an array of shape {arr.shape}."
            )
        series = pd.Series(arr, copy=False)
    if len(series) == 0:
        raise ValueError(f"{name} is empty; at least one labelled unit is needed.")
    missing = series.isna().to_numpy()
    if missing.any():
        first = np.flatnonzero(missing)[:5].tolist()
        raise ValueError(
            f"{name} has {int(missing.sum())} missing value(s) (first at positions {first}); "
            "drop those units or impute the response before fitting."
        )
    return series


@dataclass(frozen=True)
class OrdinalEncoding:
    """The ordered classes of a response and the map between labels and codes 0..K-1."""

    classes: np.ndarray

    @property
    def n_classes(self) -> int:
        return len(self.classes)

    def encode(self, y, name: str = "y") -> np.ndarray:
        """Codes 0..K-1 of ``y``; labels outside ``classes`` raise a ValueError."""
        series = _as_1d(y, name)
        values = series.astype(object).to_numpy() if isinstance(series.dtype, pd.CategoricalDtype) \
            else series.to_numpy()
        index = pd.Index(self.classes)
        codes = index.get_indexer(values)
        if (codes < 0).any():
            unseen = pd.unique(values[codes < 0])[:10]
            raise ValueError(
                f"{name} contains label(s) {list(unseen)} that are not among the known ordered "
                f"classes {list(self.classes)}; pass all levels with classes= when fitting."
            )
        return codes.astype(np.intp)

    def decode(self, codes) -> np.ndarray:
        """User labels of integer codes."""
        return self.classes[np.asarray(codes, dtype=np.intp)]


def _check_classes(classes) -> np.ndarray:
    classes = np.asarray(list(classes) if not isinstance(classes, np.ndarray) else classes)
    if classes.ndim != 1 or len(classes) < 2:
        raise ValueError(
            "classes must be a 1-D sequence of at least two labels in ordinal order; "
            f"got {classes!r}."
        )
    if pd.Series(classes).isna().any():
        raise ValueError("classes must not contain missing values.")
    if len(pd.unique(classes)) != len(classes):
        raise ValueError(f"classes must not repeat a label; got {list(classes)}.")
    return classes


def _check_agrees_with_categorical(series, classes, name):
    """``classes=`` and an ordered Categorical ``y`` must not order the same labels differently:
    which one to believe cannot be guessed. Extra labels on either side are fine (classes absent
    from the data, unused categories)."""
    dtype = series.dtype
    if not (isinstance(dtype, pd.CategoricalDtype) and dtype.ordered):
        return
    given = pd.Index(classes, dtype=object)
    categories = [c for c in dtype.categories.tolist() if given.get_indexer([c])[0] >= 0]
    in_classes = [c for c in given.tolist() if c in set(categories)]
    if categories != in_classes:
        raise ValueError(
            f"classes={list(given)} contradicts the order of the ordered Categorical {name} "
            f"({dtype.categories.tolist()}); pass classes= in the Categorical's order, or leave "
            "classes= out to use it."
        )


def encode_target(y, classes=None, *, name: str = "y", min_classes: int = 2,
                  ordered: bool = True):
    """Find the ordered classes of ``y`` and encode it.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Labels: a pandas ordered Categorical, or any 1-D labels.
    classes : sequence, optional
        All class labels from lowest to highest; may include classes absent from ``y`` (they
        keep their place in the order). With an ordered Categorical ``y`` (and ``ordered``) it
        must order the labels they share as the Categorical does, else a ValueError.
    name : str
        Name of the argument, used in error messages.
    min_classes : int
        Fewer distinct observed classes than this raise a ValueError.
    ordered : bool, default=True
        Whether the caller uses the class order (see :func:`uses_class_order`). When False,
        unordered Categoricals are accepted (their categories sorted) and sorting string labels
        does not warn.

    Returns
    -------
    encoding : OrdinalEncoding
    codes : ndarray of shape (n_samples,), integers 0..K-1
    """
    series = _as_1d(y, name)
    if classes is not None:
        encoding = OrdinalEncoding(_check_classes(classes))
        if ordered:
            _check_agrees_with_categorical(series, encoding.classes, name)
    elif isinstance(series.dtype, pd.CategoricalDtype):
        if not series.dtype.ordered and not ordered:
            encoding = OrdinalEncoding(np.asarray(sorted(series.cat.categories)))
        elif not series.dtype.ordered:
            raise ValueError(
                f"{name} is an unordered pandas Categorical, so the order of its classes is "
                "unknown; make it ordered (pd.Categorical(..., ordered=True)) or pass classes= "
                "lowest to highest."
            )
        else:
            encoding = OrdinalEncoding(np.asarray(series.cat.categories))
    else:
        values = series.to_numpy()
        if not is_numeric_labels(values):
            values = values.astype(object)
            kinds = {type(v) for v in values}
            if len(kinds) > 1:
                raise TypeError(
                    f"{name} mixes label types {sorted(k.__name__ for k in kinds)}; use one type "
                    "or pass classes= lowest to highest."
                )
        uniques = np.unique(values)
        if ordered and not is_numeric_labels(uniques) and len(uniques) >= 2:
            _warn(
                f"The order of the classes of {name} was guessed by sorting its labels: "
                f"{list(uniques)}. Pass classes= (lowest to highest) or an ordered Categorical "
                "to state the order.",
                OrderGuessWarning,
            )
        encoding = OrdinalEncoding(uniques)
    codes = encoding.encode(series, name)
    n_observed = len(np.unique(codes))
    if n_observed < min_classes:
        raise ValueError(
            f"{name} has {n_observed} class{'' if n_observed == 1 else 'es'} "
            f"({list(encoding.decode(np.unique(codes)))}); at least {min_classes} classes are "
            "needed to classify."
        )
    return encoding, codes
