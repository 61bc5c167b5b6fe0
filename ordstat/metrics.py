"""Evaluation measures that respect the order of the classes.

Every function takes true and predicted labels and the class order (``classes=``, lowest to
highest; otherwise the categories of an ordered Categorical, otherwise the sorted labels of both
vectors). Distances are between class *ranks* 1..K.

References
----------
Tutz, G. & Hechenbichler, K. (2003). Aggregating classifiers with ordinal response structure,
    section 4.1 (misclassification, mean absolute and mean squared distance).
Waegeman, W. & Boullart, L. An ensemble of weighted support vector machines for ordinal
    regression, eq. 13-14 (sensitivity and specificity between consecutive ranks).
Goodman, L. A. & Kruskal, W. H. (1954). Measures of association for cross classifications.

Scorers
-------
For scikit-learn's model selection (``GridSearchCV(scoring=)``, ``cross_val_score``), pass a
scorer of this module, not ``sklearn.metrics.make_scorer(mean_absolute_distance)``: the latter
calls the metric without the class order, which then sorts the labels ("high" < "low" < "mid")
and measures distances between the wrong ranks. :func:`get_scorer` (by name, as scikit-learn's
scoring strings: ``"neg_mean_absolute_distance"``, ``"gamma"``), ``SCORERS`` (every name) and
:func:`make_ordinal_scorer` (any metric taking ``classes=``) give scorers that rank by the fitted
estimator's ``classes_``. scikit-learn has no public way to add scoring strings, so pass the
object: ``GridSearchCV(est, grid, scoring=get_scorer("neg_mean_absolute_distance"))``.
"""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
from sklearn.exceptions import UndefinedMetricWarning

from ._core.costs import distance_cost
from ._core.labels import (OrdinalEncoding, _as_1d, _check_agrees_with_categorical,
                           _check_classes, encode_target)
from ._core.names import METRIC_ALIASES, metric_name, normalize
from ._core.validation import check_sample_weight
from ._core.warnings import warn as _warn
from ._scorer import OrdinalScorer, _takes_classes

__all__ = [
    "ordinal_confusion_matrix",
    "misclassification_rate",
    "mean_absolute_distance",
    "mean_squared_distance",
    "goodman_kruskal_gamma",
    "border_rank_sensitivity",
    "border_rank_specificity",
    "border_rank_table",
    "expected_cost",
    "absolute_cost_matrix",
    "squared_cost_matrix",
    "min_expected_cost_decision",
    "ordinal_scores",
    "METRICS",
    "METRIC_ALIASES",
    "get_metric",
    "OrdinalScorer",
    "make_ordinal_scorer",
    "get_scorer",
    "SCORERS",
]


def _encode_pair(y_true, y_pred, classes):
    """Codes of both label vectors under one ordinal encoding.

    Integer labels skip the label encoding (:func:`_integer_pair`): with integer ``classes=``
    through a lookup table, without ``classes=`` when they are already the codes 0..K-1 (the
    general path's sorted labels then are 0..K-1 too); the same encoding and codes, without
    ``np.unique`` or a hash table per label."""
    fast = _integer_pair(y_true, y_pred, classes)
    if fast is None:
        return _encode_pair_general(y_true, y_pred, classes)
    classes, t, p, given, shift = fast
    t, p = _as_codes(t, shift), _as_codes(p, shift)
    if not given:
        present = _present(t, p, len(classes))
        if not present.all():  # labels absent from both vectors are no class
            classes, t, p = _drop_absent(classes, t, p, present)
    return OrdinalEncoding(classes), t, p


def _encode_pair_general(y_true, y_pred, classes):
    """:func:`_encode_pair` for any labels: pandas' indexer on the classes (sorted labels of
    both vectors without ``classes=``)."""
    y_true = _as_1d(y_true, "y_true")
    y_pred = _as_1d(y_pred, "y_pred")
    if len(y_true) != len(y_pred):
        raise ValueError(
            f"y_true and y_pred must have the same length; got {len(y_true)} and {len(y_pred)}."
        )
    if classes is not None:
        encoding = OrdinalEncoding(_check_classes(classes))
        _check_agrees_with_categorical(y_true, encoding.classes, "y_true")
        _check_agrees_with_categorical(y_pred, encoding.classes, "y_pred")
    else:
        ordered = [s for s in (y_true, y_pred)
                   if isinstance(s.dtype, pd.CategoricalDtype) and s.dtype.ordered]
        if ordered:
            encoding = OrdinalEncoding(np.asarray(ordered[0].cat.categories))
        else:
            if pd.api.types.is_numeric_dtype(y_true) and pd.api.types.is_numeric_dtype(y_pred):
                both = np.concatenate([y_true.to_numpy(), y_pred.to_numpy()])
            else:
                both = pd.concat([y_true.astype(object), y_pred.astype(object)],
                                 ignore_index=True)
            encoding, _ = encode_target(both, name="y_true and y_pred", min_classes=1)
    return encoding, encoding.encode(y_true, "y_true"), encoding.encode(y_pred, "y_pred")


def _integer_values(y):
    """``y`` as a 1-D integer ndarray (no copy) when it is one already (an ndarray, or a pandas
    Series or Index of integer dtype), else None."""
    if isinstance(y, (pd.Series, pd.Index)) and not isinstance(y.dtype, pd.CategoricalDtype):
        y = y.to_numpy()
    if isinstance(y, np.ndarray) and y.ndim == 1 and y.dtype.kind in "iu" and len(y) > 0:
        return y
    return None


def _integer_pair(y_true, y_pred, classes):
    """``(classes, t, p, given, shift)`` for integer label arrays without encoding them (the
    codes are ``t - shift`` and ``p - shift``), or None (the general path, which also names
    what is wrong: unknown labels, lengths, shapes); ``given`` says whether ``classes=`` was.

    With integer ``classes=``: the codes through a lookup table over the classes' range (or
    the labels themselves, shifted, when the classes are consecutive increasing integers);
    None when a label is not a class. Without: the labels themselves when they lie in 0..n
    (``classes`` 0..max; absent ones are dropped by the caller). Checked with min and max,
    each one pass over the labels."""
    t, p = _integer_values(y_true), _integer_values(y_pred)
    if t is None or p is None or len(t) != len(p):
        return None
    dtype = np.result_type(t.dtype, p.dtype)
    if dtype.kind not in "iu":  # uint64 with int64: numpy's common type is float
        return None
    lo, hi = min(t.min(), p.min()), max(t.max(), p.max())
    if classes is None:
        if lo < 0 or hi > len(t) + 1024:  # larger codes: more classes than units
            return None
        return np.arange(int(hi) + 1, dtype=dtype), t, p, False, 0
    classes = _check_classes(classes)
    if classes.dtype.kind not in "iu":
        return None
    c_lo, c_hi = int(classes.min()), int(classes.max())
    if lo < c_lo or hi > c_hi:
        return None
    k = len(classes)
    if c_hi - c_lo == k - 1 and np.all(np.diff(classes) > 0):  # c_lo, c_lo + 1, ..., c_hi
        return classes, t, p, True, c_lo
    if c_hi - c_lo > max(4 * len(t), 1 << 16):  # the table would outweigh the labels
        return None
    table = np.full(c_hi - c_lo + 1, -1, dtype=np.intp)
    table[classes - c_lo] = np.arange(k)
    t, p = table[t - c_lo], table[p - c_lo]
    if min(t.min(), p.min()) < 0:
        return None
    return classes, t, p, True, 0


def _as_codes(values, shift=0):
    """Integer labels minus ``shift`` as intp codes (no copy when they are already)."""
    if shift:
        return np.subtract(values, shift, dtype=np.intp)
    return values.astype(np.intp, copy=False)


def _present(t, p, k):
    """Which of the codes 0..k-1 occur in ``t`` or ``p``."""
    counts = np.bincount(_as_codes(t), minlength=k) + np.bincount(_as_codes(p), minlength=k)
    return counts > 0


def _drop_absent(classes, t, p, present):
    """Classes and codes without the absent codes (labels found in neither vector)."""
    recode = np.cumsum(present) - 1
    return classes[present], recode[t], recode[p]


def ordinal_confusion_matrix(y_true, y_pred, classes=None, sample_weight=None,
                             as_frame=False):
    """K x K (weighted) counts, rows = true class, columns = predicted class, in ordinal order.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (a pandas ordered Categorical carries its order).
    y_pred : array-like of shape (n_samples,)
        Predicted class labels, from the same classes.
    classes : sequence, optional
        The class order, lowest to highest. Default: the categories of an ordered Categorical
        among ``y_true`` and ``y_pred``, else the sorted labels of both vectors.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative unit weights; default 1 for every unit.
    as_frame : bool, default=False
        Return a DataFrame labelled by the classes (index "true", columns "predicted").

    Returns
    -------
    table : ndarray of shape (K, K) or DataFrame
        ``table[g, h]``: the (weighted) number of units of true class g predicted as h, as
        floats; the classes are those of ``classes`` (all of them), or the labels found.

    See Also
    --------
    border_rank_table : sensitivity and specificity at every border between classes.

    Examples
    --------
    >>> y_true = ["low", "mid", "high", "mid"]
    >>> y_pred = ["low", "high", "low", "mid"]
    >>> order = ["low", "mid", "high"]
    >>> ordinal_confusion_matrix(y_true, y_pred, classes=order)
    array([[1., 0., 0.],
           [0., 1., 1.],
           [1., 0., 0.]])
    """
    classes, table = _table(y_true, y_pred, classes, sample_weight)
    if as_frame:
        index = pd.Index(classes, name="true")
        return pd.DataFrame(table, index=index, columns=pd.Index(classes, name="predicted"))
    return table


def _table(y_true, y_pred, classes, sample_weight):
    """The classes and the K x K table of :func:`ordinal_confusion_matrix`: one ``bincount``
    of ``t * K + p``, unweighted without weights (the same counts, as floats). Integer labels
    that are already codes (:func:`_integer_pair`) are not encoded; where absent labels must be
    dropped, the table's margins say which (or, for a table far larger than the data, two
    ``bincount`` of the codes before it)."""
    fast = _integer_pair(y_true, y_pred, classes)
    shift = 0
    if fast is None:
        encoding, t, p = _encode_pair_general(y_true, y_pred, classes)
        classes, given = encoding.classes, True
    else:
        classes, t, p, given, shift = fast
    w = None if sample_weight is None else check_sample_weight(sample_weight, len(t))
    k = len(classes)
    if not given and (w is not None or k * k > 4 * len(t) + 4096):
        present = _present(t, p, k)
        if not present.all():
            classes, t, p = _drop_absent(classes, t, p, present)
            k = len(classes)
        given = True
    # one temporary: t * k + p - shift (k + 1); the labels were checked to be small, so
    # any integer type converts
    cell = np.multiply(t, k, dtype=np.intp, casting="unsafe")
    np.add(cell, p, out=cell, casting="unsafe")
    if shift:
        cell -= shift * (k + 1)
    table = np.bincount(cell, weights=w, minlength=k * k).reshape(k, k)
    if w is None:
        table = table.astype(np.float64)
    if not given:  # unweighted counts: a label is present where its row or column is not 0
        present = (table.sum(axis=0) + table.sum(axis=1)) > 0
        if not present.all():
            classes, table = classes[present], table[np.ix_(present, present)]
    return classes, table


def _mean_of(values, w):
    return float(np.sum(w * values) / np.sum(w))


def misclassification_rate(y_true, y_pred, classes=None, sample_weight=None):
    """Share of misclassified units, (1/n) sum_i 1{y_i != yhat_i}.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (a pandas ordered Categorical carries its order).
    y_pred : array-like of shape (n_samples,)
        Predicted class labels, from the same classes.
    classes : sequence, optional
        The class order, lowest to highest. Default: the categories of an ordered Categorical
        among ``y_true`` and ``y_pred``, else the sorted labels of both vectors.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative unit weights; default 1 for every unit.

    Returns
    -------
    rate : float
        The (weighted) share of units whose predicted class is not their true class, in [0, 1];
        the class order does not change it.

    References
    ----------
    Tutz, G. & Hechenbichler, K. (2003). Aggregating classifiers with ordinal response
    structure, section 4.1.

    Examples
    --------
    >>> y_true = ["low", "mid", "high", "mid"]
    >>> y_pred = ["low", "high", "low", "mid"]
    >>> order = ["low", "mid", "high"]
    >>> misclassification_rate(y_true, y_pred, classes=order)
    0.5
    """
    _, t, p = _encode_pair(y_true, y_pred, classes)
    return _mean_of(t != p, check_sample_weight(sample_weight, len(t)))


def mean_absolute_distance(y_true, y_pred, classes=None, sample_weight=None):
    """Mean absolute distance between true and predicted class ranks.

    ``(1/n) sum_i |r(y_i) - r(yhat_i)|``, with r the rank 1..K of a class in the class order
    ("mean abs" of Tutz & Hechenbichler). Also known as the mean absolute error on the ranks
    (aliases ``"mae"``, ``"mean_abs"``).

    Without ``classes=`` the ranks are those of the labels present in either vector: string
    labels are ranked alphabetically ("high" < "low" < "mid"), with an ``OrderGuessWarning``,
    and integer labels with gaps (1 and 5, no 2-4) are adjacent ranks, one apart, with a
    warning; give ``classes=`` (e.g. ``range(1, 6)``) to measure on the full scale.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (a pandas ordered Categorical carries its order).
    y_pred : array-like of shape (n_samples,)
        Predicted class labels, from the same classes.
    classes : sequence, optional
        The class order, lowest to highest. Default: the categories of an ordered Categorical
        among ``y_true`` and ``y_pred``, else the sorted labels of both vectors.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative unit weights; default 1 for every unit.

    Returns
    -------
    distance : float
        The (weighted) mean, in [0, K - 1]; 0 for perfect predictions.

    References
    ----------
    Tutz, G. & Hechenbichler, K. (2003). Aggregating classifiers with ordinal response
    structure, section 4.1.

    Examples
    --------
    >>> y_true = ["low", "mid", "high", "mid"]
    >>> y_pred = ["low", "high", "low", "mid"]
    >>> order = ["low", "mid", "high"]
    >>> mean_absolute_distance(y_true, y_pred, classes=order)
    0.75
    """
    encoding, t, p = _encode_pair(y_true, y_pred, classes)
    if classes is None:
        _warn_rank_gaps(encoding.classes, "mean_absolute_distance")
    return _mean_of(np.abs(t - p), check_sample_weight(sample_weight, len(t)))


def mean_squared_distance(y_true, y_pred, classes=None, sample_weight=None):
    """Mean squared distance between true and predicted class ranks.

    ``(1/n) sum_i (r(y_i) - r(yhat_i))^2``, with r the rank 1..K of a class in the class order
    ("mean squ" of Tutz & Hechenbichler; aliases ``"mse"``, ``"mean_squ"``). Ranks as in
    :func:`mean_absolute_distance` (a warning for integer labels with gaps without
    ``classes=``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (a pandas ordered Categorical carries its order).
    y_pred : array-like of shape (n_samples,)
        Predicted class labels, from the same classes.
    classes : sequence, optional
        The class order, lowest to highest. Default: the categories of an ordered Categorical
        among ``y_true`` and ``y_pred``, else the sorted labels of both vectors.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative unit weights; default 1 for every unit.

    Returns
    -------
    distance : float
        The (weighted) mean, in [0, (K - 1)^2]; 0 for perfect predictions.

    References
    ----------
    Tutz, G. & Hechenbichler, K. (2003). Aggregating classifiers with ordinal response
    structure, section 4.1.

    Examples
    --------
    >>> y_true = ["low", "mid", "high", "mid"]
    >>> y_pred = ["low", "high", "low", "mid"]
    >>> order = ["low", "mid", "high"]
    >>> mean_squared_distance(y_true, y_pred, classes=order)
    1.25
    """
    encoding, t, p = _encode_pair(y_true, y_pred, classes)
    if classes is None:
        _warn_rank_gaps(encoding.classes, "mean_squared_distance")
    return _mean_of((t - p) ** 2.0, check_sample_weight(sample_weight, len(t)))


def _warn_rank_gaps(classes, metric):
    """Warn when the classes found in the labels are whole numbers with gaps: the distance is
    then between ranks of the labels present, not between the label values a user of an
    integer-coded scale expects."""
    c = np.asarray(classes)
    if c.dtype.kind not in "iuf" or len(c) < 2:
        return
    if c.dtype.kind == "f" and not np.all(np.isfinite(c) & (c == np.round(c))):
        return
    steps = np.diff(c)
    if not np.any(steps > 1):
        return
    c = c.astype(np.int64)
    i = int(np.argmax(steps > 1))
    lo, hi = int(c[i]), int(c[i + 1])
    _warn(f"{metric}: the labels are whole numbers with gaps ({lo} and {hi} present, nothing "
          f"between), and without classes= the distance is between the ranks of the labels "
          f"present, so {lo} and {hi} are 1 apart, not {hi - lo}; give classes= (e.g. "
          f"classes=range({c[0]}, {c[-1] + 1})) to measure on the full scale.",
          UserWarning)


def _concordant_discordant(table):
    """Concordant and discordant pair counts of a K x K table in O(K^2) (floats), or of each
    of a stack of tables (..., K, K) (arrays).

    below_right[i, j] = sum of table[i', j'] over i' > i, j' > j;
    below_left[i, j]  = sum of table[i', j'] over i' > i, j' < j.
    """
    k = table.shape[-1]
    padded = np.zeros(table.shape[:-2] + (k + 1, k + 1))
    padded[..., :k, :k] = table
    # suffix sums over rows > i and columns > j
    suffix = padded[..., ::-1, ::-1].cumsum(axis=-2).cumsum(axis=-1)[..., ::-1, ::-1]
    below_right = suffix[..., 1:, 1:]
    # rows > i and columns < j: rows>i total minus rows>i columns>=j
    rows_below = suffix[..., 1:, 0:1]
    below_left = rows_below - suffix[..., 1:, :k]
    if table.ndim == 2:
        return float(np.sum(table * below_right)), float(np.sum(table * below_left))
    return (np.sum(table * below_right, axis=(-2, -1)),
            np.sum(table * below_left, axis=(-2, -1)))


def goodman_kruskal_gamma(y_true, y_pred, classes=None, sample_weight=None):
    """Goodman-Kruskal gamma = (C - D) / (C + D) between true and predicted classes.

    C and D count concordant and discordant pairs of units; pairs tied in either variable are
    excluded. Computed from the K x K table, so it costs O(n + K^2). With ``sample_weight`` a
    pair counts w_i w_j.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (a pandas ordered Categorical carries its order).
    y_pred : array-like of shape (n_samples,)
        Predicted class labels, from the same classes.
    classes : sequence, optional
        The class order, lowest to highest. Default: the categories of an ordered Categorical
        among ``y_true`` and ``y_pred``, else the sorted labels of both vectors.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative unit weights; default 1 for every unit.

    Returns
    -------
    gamma : float
        In [-1, 1], greater is better (1: no discordant pair). NaN, with an
        ``UndefinedMetricWarning``, when there is no untied pair (C + D = 0, e.g. all
        predictions in one class).

    References
    ----------
    Goodman, L. A. & Kruskal, W. H. (1954). Measures of association for cross
    classifications. Journal of the American Statistical Association 49, 732-764.

    Examples
    --------
    >>> y_true = ["low", "mid", "high", "mid"]
    >>> y_pred = ["low", "high", "low", "mid"]
    >>> order = ["low", "mid", "high"]
    >>> goodman_kruskal_gamma(y_true, y_pred, classes=order)
    0.0
    >>> goodman_kruskal_gamma(["a", "b", "c"], ["a", "b", "b"], classes=["a", "b", "c"])
    1.0
    """
    gamma = _gamma_of_table(ordinal_confusion_matrix(y_true, y_pred, classes, sample_weight))
    if np.isnan(gamma):
        _warn(
            "goodman_kruskal_gamma is undefined: no pair of units is untied in both the true "
            "and the predicted class (e.g. every prediction is the same class); returning NaN.",
            UndefinedMetricWarning,
        )
    return gamma


def _gamma_of_table(table):
    """Goodman-Kruskal gamma of a K x K (weighted) table of true (rows) by predicted classes
    (columns): NaN, without a warning, when there is no untied pair."""
    concordant, discordant = _concordant_discordant(table)
    if concordant + discordant == 0:
        return float("nan")
    return (concordant - discordant) / (concordant + discordant)


def _check_border(border, n_classes):
    if isinstance(border, bool) or not isinstance(border, (int, np.integer)) \
            or not 1 <= border <= n_classes - 1:
        raise ValueError(
            f"border must be an integer rank r in 1..{n_classes - 1} (the border between the "
            f"r-th and (r+1)-th class); got {border!r}."
        )
    return int(border)


def _border_counts(y_true, y_pred, classes, sample_weight):
    encoding, t, p = _encode_pair(y_true, y_pred, classes)
    return encoding, t, p, check_sample_weight(sample_weight, len(t))


def _ratio(num, den, what):
    if den == 0:
        _warn(f"{what} is undefined (empty denominator); returning NaN.",
              UndefinedMetricWarning)
        return float("nan")
    return float(num / den)


def _border_rate(y_true, y_pred, border, classes, sample_weight, denominator, lower, what):
    """Share of units on one side of border r (``lower``: rank <= r) that are on that side in
    both the truth and the prediction, among the true (or predicted) units of that side."""
    encoding, t, p, w = _border_counts(y_true, y_pred, classes, sample_weight)
    r = _check_border(border, encoding.n_classes)
    # codes are 0-based: rank <= r  <=>  code < r
    side_t, side_p = (t < r, p < r) if lower else (t >= r, p >= r)
    if denominator not in ("true", "predicted"):
        raise ValueError(f"denominator must be 'true' or 'predicted'; got {denominator!r}.")
    den = w[side_t if denominator == "true" else side_p].sum()
    return _ratio(w[side_t & side_p].sum(), den, f"{what} at border {r}")


def border_rank_sensitivity(y_true, y_pred, border, classes=None, sample_weight=None,
                            denominator="true"):
    """Sensitivity for "rank <= r" between ranks r and r+1 (Waegeman & Boullart, eq. 13).

    With ``denominator="true"`` (default) this is the usual sensitivity,
    ``|{y <= r and yhat <= r}| / |{y <= r}|``. With ``denominator="predicted"`` it is eq. 13 as
    printed, ``|{y <= r and yhat <= r}| / |{yhat <= r}|``, which in the usual terms is the
    positive predictive value of "rank <= r".

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (a pandas ordered Categorical carries its order).
    y_pred : array-like of shape (n_samples,)
        Predicted class labels, from the same classes.
    border : int
        The border r in 1..K-1, between the r-th and the (r+1)-th class of the order.
    classes : sequence, optional
        The class order, lowest to highest. Default: the categories of an ordered Categorical
        among ``y_true`` and ``y_pred``, else the sorted labels of both vectors.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative unit weights; default 1 for every unit.
    denominator : {"true", "predicted"}, default="true"
        Divide by the true count of the side (the usual definition) or by the predicted count
        (the paper's equation as printed, a predictive value).

    Returns
    -------
    sensitivity : float
        In [0, 1]; NaN, with an ``UndefinedMetricWarning``, when the denominator is empty.

    Raises
    ------
    ValueError
        When ``border`` is not an integer in 1..K-1, or ``denominator`` is neither "true" nor
        "predicted".

    See Also
    --------
    border_rank_specificity, border_rank_table

    References
    ----------
    Waegeman, W. & Boullart, L. (2006). An ensemble of weighted support vector machines for
    ordinal regression, eq. 13-14.

    Examples
    --------
    >>> y_true = ["low", "mid", "high", "mid"]
    >>> y_pred = ["low", "high", "low", "mid"]
    >>> order = ["low", "mid", "high"]
    >>> border_rank_sensitivity(y_true, y_pred, border=1, classes=order)
    1.0
    >>> border_rank_sensitivity(y_true, y_pred, border=1, classes=order,
    ...                         denominator="predicted")
    0.5
    """
    return _border_rate(y_true, y_pred, border, classes, sample_weight, denominator,
                        lower=True, what="border_rank_sensitivity")


def border_rank_specificity(y_true, y_pred, border, classes=None, sample_weight=None,
                            denominator="true"):
    """Specificity for "rank <= r" between ranks r and r+1 (Waegeman & Boullart, eq. 14).

    ``denominator="true"``: ``|{y > r and yhat > r}| / |{y > r}|`` (the usual specificity);
    ``denominator="predicted"``: eq. 14 as printed, ``|{y > r and yhat > r}| / |{yhat > r}|``,
    the negative predictive value.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (a pandas ordered Categorical carries its order).
    y_pred : array-like of shape (n_samples,)
        Predicted class labels, from the same classes.
    border : int
        The border r in 1..K-1, between the r-th and the (r+1)-th class of the order.
    classes : sequence, optional
        The class order, lowest to highest. Default: the categories of an ordered Categorical
        among ``y_true`` and ``y_pred``, else the sorted labels of both vectors.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative unit weights; default 1 for every unit.
    denominator : {"true", "predicted"}, default="true"
        Divide by the true count of the side (the usual definition) or by the predicted count
        (the paper's equation as printed, a predictive value).

    Returns
    -------
    specificity : float
        In [0, 1]; NaN, with an ``UndefinedMetricWarning``, when the denominator is empty.

    Raises
    ------
    ValueError
        When ``border`` is not an integer in 1..K-1, or ``denominator`` is neither "true" nor
        "predicted".

    See Also
    --------
    border_rank_sensitivity, border_rank_table

    References
    ----------
    Waegeman, W. & Boullart, L. (2006). An ensemble of weighted support vector machines for
    ordinal regression, eq. 13-14.

    Examples
    --------
    >>> y_true = ["low", "mid", "high", "mid"]
    >>> y_pred = ["low", "high", "low", "mid"]
    >>> order = ["low", "mid", "high"]
    >>> border_rank_specificity(y_true, y_pred, border=1, classes=order)
    0.6666666666666666
    """
    return _border_rate(y_true, y_pred, border, classes, sample_weight, denominator,
                        lower=False, what="border_rank_specificity")


def border_rank_table(y_true, y_pred, classes=None, sample_weight=None):
    """All borders at once: a DataFrame with one row per border r = 1..K-1.

    Note: the paper's Table III is described as eq. 13-14 for rank 1; its discussion (a method
    biased towards the middle ranks has a *lower* sensitivity at the lowest rank) fits the usual
    true-count definition, not the printed one. Its data are not available to settle this.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (a pandas ordered Categorical carries its order).
    y_pred : array-like of shape (n_samples,)
        Predicted class labels, from the same classes.
    classes : sequence, optional
        The class order, lowest to highest. Default: the categories of an ordered Categorical
        among ``y_true`` and ``y_pred``, else the sorted labels of both vectors.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative unit weights; default 1 for every unit.

    Returns
    -------
    table : DataFrame
        Indexed by ``border``; columns ``lower``/``upper`` (the classes on each side),
        ``sensitivity`` and ``specificity`` (true-count denominators), ``sens_printed`` and
        ``spec_printed`` (eq. 13-14 exactly as printed, i.e. predictive values); NaN where a
        denominator is empty.

    See Also
    --------
    border_rank_sensitivity, border_rank_specificity

    References
    ----------
    Waegeman, W. & Boullart, L. (2006). An ensemble of weighted support vector machines for
    ordinal regression, eq. 13-14.

    Examples
    --------
    >>> y_true = ["low", "mid", "high", "mid"]
    >>> y_pred = ["low", "high", "low", "mid"]
    >>> order = ["low", "mid", "high"]
    >>> table = border_rank_table(y_true, y_pred, classes=order)
    >>> table[["lower", "upper", "sensitivity"]]  # doctest: +NORMALIZE_WHITESPACE
           lower upper  sensitivity
    border
    1        low   mid     1.000000
    2        mid  high     0.666667
    """
    encoding, t, p, w = _border_counts(y_true, y_pred, classes, sample_weight)
    rows = []
    for r in range(1, encoding.n_classes):
        lt, lp = t < r, p < r
        ht, hp = ~lt, ~lp
        both_low, both_high = w[lt & lp].sum(), w[ht & hp].sum()
        rows.append({
            "border": r,
            "lower": encoding.classes[r - 1],
            "upper": encoding.classes[r],
            "sensitivity": both_low / w[lt].sum() if w[lt].sum() > 0 else np.nan,
            "specificity": both_high / w[ht].sum() if w[ht].sum() > 0 else np.nan,
            "sens_printed": both_low / w[lp].sum() if w[lp].sum() > 0 else np.nan,
            "spec_printed": both_high / w[hp].sum() if w[hp].sum() > 0 else np.nan,
        })
    return pd.DataFrame(rows).set_index("border")


def absolute_cost_matrix(n_classes):
    """Linear misclassification costs, ``C[g, h] = |g - h|``.

    Parameters
    ----------
    n_classes : int
        The number of classes K, at least 2.

    Returns
    -------
    cost : ndarray of shape (K, K)
        The cost of predicting class h (column) for a unit of class g (row), by rank distance.

    See Also
    --------
    squared_cost_matrix, expected_cost, min_expected_cost_decision

    References
    ----------
    Archer, K. J. & Mas, V. R. (2009). Ordinal response prediction using bootstrap
    aggregation, with application to a high-throughput methylation data set, section 4
    (linear costs of generalized Gini).

    Examples
    --------
    >>> absolute_cost_matrix(3)
    array([[0., 1., 2.],
           [1., 0., 1.],
           [2., 1., 0.]])
    """
    return distance_cost(_check_n_classes(n_classes), 1)


def squared_cost_matrix(n_classes):
    """Quadratic misclassification costs, ``C[g, h] = (g - h)^2``.

    Parameters
    ----------
    n_classes : int
        The number of classes K, at least 2.

    Returns
    -------
    cost : ndarray of shape (K, K)
        The cost of predicting class h (column) for a unit of class g (row).

    See Also
    --------
    absolute_cost_matrix, expected_cost

    References
    ----------
    Archer, K. J. & Mas, V. R. (2009). Ordinal response prediction using bootstrap
    aggregation, with application to a high-throughput methylation data set, section 4
    (quadratic costs of generalized Gini).

    Examples
    --------
    >>> squared_cost_matrix(3)
    array([[0., 1., 4.],
           [1., 0., 1.],
           [4., 1., 0.]])
    """
    return distance_cost(_check_n_classes(n_classes), 2)


def _check_n_classes(n_classes):
    if isinstance(n_classes, bool) or not isinstance(n_classes, (int, np.integer)) \
            or n_classes < 2:
        raise ValueError(f"n_classes must be an integer >= 2; got {n_classes!r}.")
    return int(n_classes)


def _check_cost(cost, n_classes):
    cost = np.asarray(cost, dtype=float)
    if cost.shape != (n_classes, n_classes):
        raise ValueError(
            f"cost must be a {n_classes} x {n_classes} matrix (true class x predicted class); "
            f"got shape {cost.shape}."
        )
    if not np.all(np.isfinite(cost)) or (cost < 0).any():
        raise ValueError("cost must contain finite, non-negative costs.")
    return cost


def expected_cost(y_true, y_pred, cost, classes=None, sample_weight=None):
    """Mean misclassification cost, ``(1/n) sum_i C[y_i, yhat_i]``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (a pandas ordered Categorical carries its order).
    y_pred : array-like of shape (n_samples,)
        Predicted class labels, from the same classes.
    cost : array-like of shape (K, K)
        Finite, non-negative costs, rows the true class and columns the predicted class, in
        the class order (e.g. :func:`absolute_cost_matrix`).
    classes : sequence, optional
        The class order, lowest to highest. Default: the categories of an ordered Categorical
        among ``y_true`` and ``y_pred``, else the sorted labels of both vectors.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative unit weights; default 1 for every unit.

    Returns
    -------
    cost : float
        The (weighted) mean cost of the predictions.

    Raises
    ------
    ValueError
        When ``cost`` is not K x K, or holds negative or non-finite values.

    Examples
    --------
    >>> y_true = ["low", "mid", "high", "mid"]
    >>> y_pred = ["low", "high", "low", "mid"]
    >>> order = ["low", "mid", "high"]
    >>> expected_cost(y_true, y_pred, squared_cost_matrix(3), classes=order)
    1.25

    With absolute costs it is :func:`mean_absolute_distance`; with squared costs,
    :func:`mean_squared_distance`.
    """
    encoding, t, p = _encode_pair(y_true, y_pred, classes)
    cost = _check_cost(cost, encoding.n_classes)
    return _mean_of(cost[t, p], check_sample_weight(sample_weight, len(t)))


def min_expected_cost_decision(proba, cost):
    """Index of the class of least expected cost, ``argmin_h sum_g p_g C[g, h]``, for each row.

    The Bayes decision under a cost matrix: with 0-1 costs the most probable class, with
    absolute costs a median of the predicted distribution.

    Parameters
    ----------
    proba : array-like of shape (n_samples, K)
        Class probabilities, columns in the class order (``predict_proba``'s, whose columns
        follow ``classes_``).
    cost : array-like of shape (K, K)
        Finite, non-negative costs, rows the true class and columns the predicted class.

    Returns
    -------
    decision : ndarray of shape (n_samples,)
        The column index (0..K-1) of the chosen class; ``classes_[decision]`` gives labels.

    Raises
    ------
    ValueError
        When ``proba`` is not 2-D, or ``cost`` is not K x K with finite non-negative values.

    Examples
    --------
    >>> proba = [[0.4, 0.2, 0.4], [0.6, 0.1, 0.3]]
    >>> min_expected_cost_decision(proba, absolute_cost_matrix(3))
    array([1, 0])
    """
    proba = np.asarray(proba, dtype=float)
    if proba.ndim != 2:
        raise ValueError(f"proba must be a 2-D array (n_samples, K); got shape {proba.shape}.")
    cost = _check_cost(cost, proba.shape[1])
    return np.argmin(proba @ cost, axis=1)


#: Registry of named measures used by ``model_selection``, the CLI and the R package:
#: canonical name -> (function, greater_is_better). Other spellings are in ``METRIC_ALIASES``
#: (e.g. the function names, "mae", "mse"); :func:`get_metric` accepts both.
METRICS = {
    "misclassification": (misclassification_rate, False),
    "mean_absolute": (mean_absolute_distance, False),
    "mean_squared": (mean_squared_distance, False),
    "gamma": (goodman_kruskal_gamma, True),
}


def get_metric(name):
    """The canonical name, function and direction of a named measure.

    Parameters
    ----------
    name : str
        A canonical name of ``METRICS`` ("misclassification", "mean_absolute", "mean_squared",
        "gamma") or an alias of ``METRIC_ALIASES`` (e.g. "mean_absolute_distance", "mae",
        "goodman_kruskal_gamma"); case, and "-" or " " for "_", are ignored.

    Returns
    -------
    name : str
        The canonical name (the one ``evaluate`` reports).
    function : callable
        ``function(y_true, y_pred, classes=None, sample_weight=None) -> float``.
    greater_is_better : bool

    Raises
    ------
    ValueError
        For an unknown name; the message lists the names and aliases.

    Examples
    --------
    >>> get_metric("Mean-Absolute-Distance")[0]
    'mean_absolute'
    """
    canonical = metric_name(name, "name")
    function, greater_is_better = METRICS[canonical]
    return canonical, function, greater_is_better


def ordinal_scores(y_true, y_pred, classes=None, sample_weight=None):
    """The four standard measures at once, as a dict name -> value (see ``METRICS``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (a pandas ordered Categorical carries its order).
    y_pred : array-like of shape (n_samples,)
        Predicted class labels, from the same classes.
    classes : sequence, optional
        The class order, lowest to highest. Default: the categories of an ordered Categorical
        among ``y_true`` and ``y_pred``, else the sorted labels of both vectors.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative unit weights; default 1 for every unit.

    Returns
    -------
    scores : dict
        ``"misclassification"``, ``"mean_absolute"``, ``"mean_squared"`` and ``"gamma"``, as
        :func:`misclassification_rate`, :func:`mean_absolute_distance`,
        :func:`mean_squared_distance` and :func:`goodman_kruskal_gamma` give them.

    References
    ----------
    Tutz, G. & Hechenbichler, K. (2003). Aggregating classifiers with ordinal response
    structure, section 4.1.

    Examples
    --------
    >>> y_true = ["low", "mid", "high", "mid"]
    >>> y_pred = ["low", "high", "low", "mid"]
    >>> order = ["low", "mid", "high"]
    >>> ordinal_scores(y_true, y_pred, classes=order)
    {'misclassification': 0.5, 'mean_absolute': 0.75, 'mean_squared': 1.25, 'gamma': 0.0}
    """
    return {name: fn(y_true, y_pred, classes=classes, sample_weight=sample_weight)
            for name, (fn, _) in METRICS.items()}


def _scorer_name(metric, greater_is_better):
    """scikit-learn's convention: losses are negated and named ``neg_<name>``."""
    return metric if greater_is_better else f"neg_{metric}"


def _known_direction(metric):
    """greater_is_better of a function of ``METRICS``, None for any other function."""
    for function, greater_is_better in METRICS.values():
        if metric is function:
            return greater_is_better
    return None


def make_ordinal_scorer(metric, *, greater_is_better=None, classes=None, **kwargs):
    """A scorer for scikit-learn's model selection that ranks by the estimator's class order.

    Parameters
    ----------
    metric : str or callable
        A name of ``METRICS`` or ``METRIC_ALIASES`` (e.g. ``"mean_absolute_distance"``,
        ``"mae"``, ``"gamma"``), or a function
        ``metric(y_true, y_pred, classes=None, sample_weight=None, **kwargs) -> float`` that
        takes the class order as ``classes=`` (every measure of this module does, e.g.
        ``expected_cost`` with ``cost=``).
    greater_is_better : bool, optional
        Whether larger values of ``metric`` are better; the score is negated otherwise (as
        scikit-learn's ``neg_*`` scorers). Known for the measures of ``METRICS`` (a value that
        contradicts it is an error, since the search would then pick the worst model);
        required for any other function.
    classes : sequence, optional
        The class order to score with, lowest to highest. By default the fitted estimator's
        ``classes_``, which ordstat's estimators keep in ordinal order; give it for estimators
        whose ``classes_`` are sorted labels (scikit-learn's own classifiers).
    **kwargs
        Further keyword arguments passed to ``metric`` at every call.

    Returns
    -------
    scorer : OrdinalScorer
        ``scorer(estimator, X, y, sample_weight=None)``, greater is better.

    Raises
    ------
    ValueError
        For an unknown metric name, a ``greater_is_better`` that contradicts a known measure,
        or a missing ``greater_is_better`` for another function.
    TypeError
        When ``metric`` is not callable or does not take ``classes=``.

    Examples
    --------
    >>> scorer = make_ordinal_scorer("mae")
    >>> scorer
    OrdinalScorer('neg_mean_absolute', mean_absolute_distance, greater_is_better=False)
    """
    if isinstance(metric, str):
        name, function, known = get_metric(metric)
    elif callable(metric):
        function, known = metric, _known_direction(metric)
        name = next((n for n, (f, _) in METRICS.items() if f is metric),
                    getattr(metric, "__name__", "metric"))
    else:
        raise TypeError(f"metric must be a metric name or a function; got {metric!r}.")
    if not _takes_classes(function):
        raise TypeError(
            f"metric {name!r} does not take classes=, so it cannot be told the order of the "
            "classes; give it a classes=None keyword (lowest to highest) and use it."
        )
    if greater_is_better is None:
        if known is None:
            raise ValueError(
                f"greater_is_better must be given for the metric {name!r}: True when larger "
                "values are better, False when smaller ones are (the score is then negated)."
            )
        greater_is_better = known
    elif not isinstance(greater_is_better, (bool, np.bool_)):
        raise TypeError(f"greater_is_better must be True or False; got {greater_is_better!r}.")
    elif known is not None and bool(greater_is_better) != known:
        raise ValueError(
            f"greater_is_better={greater_is_better} contradicts the metric {name!r}, for which "
            f"{'larger' if known else 'smaller'} values are better; leave greater_is_better "
            "out."
        )
    if classes is not None:
        classes = _check_classes(classes)
    return OrdinalScorer(function, 1 if greater_is_better else -1,
                         _scorer_name(name, bool(greater_is_better)), classes, kwargs)


def _named_scorers():
    """Every scoring name: each canonical metric name and alias, ``neg_`` before a loss."""
    scorers = {}
    for alias_or_name in [*METRICS, *METRIC_ALIASES]:
        canonical = metric_name(alias_or_name)
        function, greater_is_better = METRICS[canonical]
        scorer = OrdinalScorer(function, 1 if greater_is_better else -1,
                               _scorer_name(canonical, greater_is_better))
        scorers[_scorer_name(alias_or_name, greater_is_better)] = scorer
    return scorers


#: Scorers by scoring name, for ``GridSearchCV(scoring=)`` and ``cross_val_score(scoring=)``:
#: ``"neg_misclassification"``, ``"neg_mean_absolute"``, ``"neg_mean_squared"`` and
#: ``"gamma"``, and the same with every alias of ``METRIC_ALIASES`` (e.g.
#: ``"neg_mean_absolute_distance"``, ``"neg_mae"``, ``"goodman_kruskal_gamma"``). Losses carry
#: scikit-learn's ``neg_`` prefix: their scores are negated, so that greater is always better.
#: Each scores with the fitted estimator's ``classes_`` (see :class:`OrdinalScorer`).
SCORERS = _named_scorers()


def get_scorer(scoring):
    """The scorer of a scoring name, as ``sklearn.metrics.get_scorer`` for ordinal metrics.

    Parameters
    ----------
    scoring : str or callable
        A key of ``SCORERS``: ``neg_`` and a metric name or alias for the measures where
        smaller is better (``"neg_mean_absolute_distance"``, ``"neg_mae"``,
        ``"neg_misclassification_rate"``), the bare name for gamma (``"gamma"``); case, and
        ``-`` or a space for ``_``, are ignored. A callable is returned unchanged.

    Returns
    -------
    scorer : OrdinalScorer or callable
        Pass it as ``scoring=`` (alone or as a value of a dict); scikit-learn cannot be given
        these names as strings.

    Raises
    ------
    ValueError
        For an unknown name, or a loss without ``neg_`` (or gamma with it); the message gives
        the right spelling.

    Examples
    --------
    >>> get_scorer("neg_mean_absolute_distance")
    OrdinalScorer('neg_mean_absolute', mean_absolute_distance, greater_is_better=False)
    """
    if callable(scoring):
        return scoring
    if not isinstance(scoring, str):
        raise TypeError(f"scoring must be a scoring name or a scorer; got {scoring!r}.")
    key = normalize(scoring)
    if key in SCORERS:
        return copy.deepcopy(SCORERS[key])
    bare = key.removeprefix("neg_")
    try:
        canonical = metric_name(bare, "scoring")
    except ValueError:
        raise ValueError(
            f"unknown scoring {scoring!r}; choose from {', '.join(SCORERS)}."
        ) from None
    right = _scorer_name(bare, METRICS[canonical][1])
    raise ValueError(
        f"scoring {scoring!r}: use {right!r} ({'larger' if METRICS[canonical][1] else 'smaller'}"
        f" values of {canonical} are better, and scores are negated when smaller is better, so "
        "that greater is always better, as in scikit-learn)."
    )
