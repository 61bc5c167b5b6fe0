"""Input checks shared by every estimator.

Estimators call :func:`validate_fit` at the start of ``fit`` and :func:`validate_predict` at the
start of ``predict``/``predict_proba``. Errors name the argument, say what was wrong and what is
expected (docs/architecture.md, contract 8).
"""

from __future__ import annotations

import numbers
from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import (HasMethods, Interval, Options, RealNotInt,
                                            StrOptions)
from sklearn.utils import get_tags
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import _num_samples, check_is_fitted, validate_data

from .labels import encode_target, uses_class_order
from .predictors import check_numeric_predictors

# Parameter constraints are declared per estimator in scikit-learn's style
# (``_parameter_constraints``, checked by ``self._validate_params()`` at the start of ``fit``);
# the constraint types are re-exported from here so that every module takes them from one place.
# The string constraints ("boolean", "random_state", "array-like", ...) and None, types and
# ``callable`` need no import.
__all__ = [
    "HasMethods",
    "Integral",
    "Interval",
    "Options",
    "Real",
    "RealNotInt",
    "StrOptions",
    "N_JOBS",
    "validate_fit",
    "validate_predict",
    "check_sample_weight",
    "check_random_state",
    "check_positive_int",
    "check_in_range",
    "check_choice",
    "check_priors",
    "check_weighted_classes",
    "base_inputs",
    "check_X_given",
]


#: The constraint of every ``n_jobs`` (joblib's: None, or an int other than 0; -1 for all cores).
N_JOBS = [Interval(Integral, None, -1, closed="right"), Interval(Integral, 1, None, closed="left"),
          None]


def _check_target_kind(y, name="y"):
    try:
        kind = type_of_target(y)
    except (ValueError, TypeError):
        return  # pandas Categoricals of objects etc.: encode_target gives the precise message.
    if kind == "continuous":
        raise ValueError(
            f"Unknown label type: {name} has continuous values; ordinal classification needs "
            "a finite set of ordered labels (integers, strings or an ordered Categorical)."
        )
    if kind.startswith("multilabel") or kind.endswith("multioutput"):
        raise ValueError(f"{name} must be one column of class labels; got {kind} data.")


def check_sample_weight(sample_weight, n_samples: int, name: str = "sample_weight") -> np.ndarray:
    """Return non-negative, finite weights of length ``n_samples`` (ones when None)."""
    if sample_weight is None:
        return np.ones(n_samples, dtype=np.float64)
    if isinstance(sample_weight, numbers.Number):
        sample_weight = np.full(n_samples, sample_weight, dtype=np.float64)
    try:
        w = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be numeric; {exc}") from None
    if w.ndim != 1 or w.shape[0] != n_samples:
        raise ValueError(
            f"{name} must be a 1-D array with one weight per unit ({n_samples}); "
            f"got shape {w.shape}."
        )
    if not np.all(np.isfinite(w)):
        raise ValueError(f"{name} contains NaN or infinite values; weights must be finite.")
    if (w < 0).any():
        raise ValueError(
            f"{name} contains {int((w < 0).sum())} negative value(s); weights must be >= 0."
        )
    if not w.sum() > 0:
        raise ValueError(f"{name} sums to zero; at least one unit needs a positive weight.")
    return w


def check_priors(priors, n_classes: int, name: str = "priors"):
    """Class prior probabilities in ``classes_`` order, or None when not given.

    One rule for every estimator: finite, non-negative, one per class, summing to one within
    1e-6 (then renormalised exactly).
    """
    if priors is None:
        return None
    try:
        p = np.asarray(priors, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"{name} must be a sequence of {n_classes} numbers; got {priors!r}."
        ) from None
    if p.ndim != 1 or p.shape[0] != n_classes:
        raise ValueError(
            f"{name} must give one probability per class ({n_classes}, in classes_ order); "
            f"got shape {p.shape}."
        )
    if not np.all(np.isfinite(p)) or (p < 0).any():
        raise ValueError(f"{name} must be finite and non-negative; got {p.tolist()}.")
    if abs(p.sum() - 1.0) > 1e-6:
        raise ValueError(f"{name} must sum to one; they sum to {p.sum():.6g}.")
    return p / p.sum()


def check_X_given(X, name="X"):
    """Refuse an ``X`` that is no table at all (None, a string, a single number) with a message
    naming it, before any conversion turns it into a puzzling one ("could not convert string
    to float", "Expected 2D array, got scalar array instead: array=nan")."""
    if X is None:
        raise TypeError(f"{name} is None; pass the predictors as a 2-D array-like or a "
                        "DataFrame of shape (n_samples, n_features).")
    if isinstance(X, (str, bytes)):
        shown = X if len(X) <= 40 else X[:37] + "..."
        raise TypeError(
            f"{name} is a string ({shown!r}), not a table of predictors; pass a 2-D array-like "
            "or a DataFrame of shape (n_samples, n_features) (read a file first, e.g. with "
            "pd.read_csv)."
        )
    if isinstance(X, (numbers.Number, np.generic)):
        raise TypeError(f"{name} is a single value ({X!r}); pass the predictors as a 2-D "
                        "array-like or a DataFrame of shape (n_samples, n_features).")
    return X


def validate_fit(estimator, X, y, sample_weight=None, *, classes=None, dtype=np.float64,
                 ensure_all_finite=True, min_classes=2, skip_check_array=False):
    """Check ``X``, ``y`` and ``sample_weight`` for ``fit`` and record the fitted label state.

    Sets ``estimator.classes_`` (ordinal order), ``n_classes_``, ``_encoding``,
    ``n_features_in_``, for DataFrames ``feature_names_in_``, and the training class sizes
    ``_class_units`` (units per class) and ``_class_weight`` (their summed ``sample_weight``,
    None when no weights were given) that summaries print. Categorical columns (unless
    ``dtype=None`` keeps ``X`` as given, for estimators whose parts read categories) and missing
    values (unless ``ensure_all_finite`` allows them) are refused with a message naming the
    columns (``ordstat._core.predictors``). With
    ``skip_check_array=True`` ``X`` is returned as given (estimators whose ``X`` holds category
    values check it themselves, before this call).

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    codes : ndarray of shape (n_samples,), class codes 0..K-1
    sample_weight : ndarray of shape (n_samples,)
    """
    if y is None:
        raise ValueError(
            f"{type(estimator).__name__} requires y to be passed, but the target y is None."
        )
    check_X_given(X)
    if skip_check_array:
        validate_data(estimator, X, skip_check_array=True, reset=True)
        n_samples = _num_samples(X)
    else:
        check_numeric_predictors(estimator, X, allow_nan=ensure_all_finite is not True,
                                 allow_categorical=dtype is None)
        X = validate_data(estimator, X, reset=True, dtype=dtype,
                          ensure_all_finite=ensure_all_finite, ensure_min_samples=1)
        n_samples = X.shape[0]
    _check_target_kind(y)
    encoding, codes = encode_target(y, classes, min_classes=min_classes,
                                    ordered=uses_class_order(estimator))
    if codes.shape[0] != n_samples:
        raise ValueError(
            f"X and y have inconsistent numbers of units: X has {n_samples} rows, "
            f"y has {codes.shape[0]} labels."
        )
    weighted = sample_weight is not None
    sample_weight = check_sample_weight(sample_weight, n_samples)
    estimator._encoding = encoding
    estimator.classes_ = encoding.classes
    estimator.n_classes_ = encoding.n_classes
    # the training class sizes, for summary() (ordstat._core.summary.class_table)
    estimator._class_units = np.bincount(codes, minlength=encoding.n_classes)
    estimator._class_weight = (np.bincount(codes, weights=sample_weight,
                                           minlength=encoding.n_classes) if weighted else None)
    return X, codes, sample_weight


def check_weighted_classes(estimator, codes, w):
    """Weighted class counts (length K); a ValueError unless two classes have positive weight."""
    counts = np.bincount(codes, weights=w, minlength=estimator.n_classes_)
    if np.count_nonzero(counts > 0) < 2:
        raise ValueError(
            f"Only one class ({estimator.classes_[counts > 0].tolist()}) has units with positive "
            "sample_weight; at least two classes are needed to classify."
        )
    return counts


def validate_predict(estimator, X, *, dtype=np.float64, ensure_all_finite=True):
    """Check that ``estimator`` is fitted and ``X`` matches the training features."""
    check_is_fitted(estimator)
    check_X_given(X)
    check_numeric_predictors(estimator, X, allow_nan=ensure_all_finite is not True,
                             allow_categorical=dtype is None, fitting=False)
    return validate_data(estimator, X, reset=False, dtype=dtype,
                         ensure_all_finite=ensure_all_finite)


def _input_tags(estimator):
    try:
        return get_tags(estimator).input_tags
    except Exception:  # noqa: BLE001 - an object without scikit-learn tags takes neither
        return None


def base_inputs(estimators):
    """What a meta-estimator can take, read from its base estimators' scikit-learn tags.

    Missing values pass through when every one of ``estimators`` says it takes them
    (``input_tags.allow_nan``, e.g. HistGradientBoostingClassifier, the ordinal trees), and
    categorical columns when every one takes categories (``input_tags.categorical``); otherwise
    they are refused up front with the messages of ``validate_fit``, which name the columns.

    Returns
    -------
    ensure_all_finite : True or "allow-nan"
        For :func:`validate_fit` / :func:`validate_predict` (inf is always refused).
    categorical : bool
        Whether categorical columns may pass (``dtype=None``).
    """
    tags = [_input_tags(e) for e in estimators]
    nan = bool(tags) and all(t is not None and t.allow_nan for t in tags)
    categorical = bool(tags) and all(t is not None and t.categorical for t in tags)
    return ("allow-nan" if nan else True), categorical


def check_random_state(seed):
    """numpy Generator from None, an int, a Generator or a RandomState (for sklearn interop)."""
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, np.random.RandomState):
        return np.random.default_rng(seed.randint(np.iinfo(np.int32).max))
    if seed is None or isinstance(seed, (numbers.Integral, np.integer)):
        return np.random.default_rng(seed)
    raise TypeError(
        f"random_state must be None, an int, or a numpy Generator/RandomState; got {seed!r}."
    )


def check_positive_int(value, name: str, minimum: int = 1):
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)):
        raise TypeError(f"{name} must be an integer >= {minimum}; got {value!r}.")
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value}.")
    return int(value)


def check_in_range(value, name: str, low=None, high=None, *, low_open=False, high_open=False):
    """A real number within [low, high] (ends open when asked)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value):
        raise TypeError(f"{name} must be a finite real number; got {value!r}.")
    too_low = low is not None and (value <= low if low_open else value < low)
    too_high = high is not None and (value >= high if high_open else value > high)
    if too_low or too_high:
        left = "(" if low_open else "["
        right = ")" if high_open else "]"
        raise ValueError(
            f"{name} must be in {left}{'-inf' if low is None else low}, "
            f"{'inf' if high is None else high}{right}; got {value}."
        )
    return float(value)


def check_choice(value, name: str, choices):
    """``value`` must be one of ``choices``; the message lists them."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {sorted(map(str, choices))}; got {value!r}.")
    return value
