"""The shared estimator skeleton of the decompositions: fitted replicas answer P(Y > C_k), and
``combine`` turns the K-1 answers into one class."""

from __future__ import annotations

import numpy as np
from sklearn.base import ClassifierMixin
from sklearn.utils.validation import has_fit_parameter

from .._core.base import configured_clone
from .._core.predictors import ColumnCoding
from .._core.validation import StrOptions
from ._replicas import count_rank, frank_hall_proba

COMBINE = ("count", "proba")
#: the constraint of every ``combine`` parameter
COMBINE_CONSTRAINT = [StrOptions(set(COMBINE))]


class ReplicaClassifierMixin(ClassifierMixin):
    """``predict_proba``/``predict`` from ``_replica_upper(X, hard)`` of shape (n, K-1).

    ``combine="proba"``: Frank & Hall's differences of P(Y > C_k) (:func:`frank_hall_proba`);
    ``combine="count"``: the counting rule i = 1 + sum_k [f_k(x) = C+] on hard replica answers;
    its ``predict_proba`` puts probability 1 on the counted class, so that ``predict`` is always
    the arg-max of ``predict_proba``.
    """

    def predict_proba(self, X):
        if self.combine == "proba":
            return frank_hall_proba(self._replica_upper(X, hard=False))
        rank = count_rank(self._replica_upper(X, hard=True) > 0.5)
        proba = np.zeros((rank.shape[0], self.n_classes_))
        proba[np.arange(rank.shape[0]), rank] = 1.0
        return proba

    def predict(self, X):
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


def positive_column(estimator, X, hard):
    """P(label 1) (or the hard 0/1 answer) of a fitted binary scikit-learn classifier."""
    if hard or not hasattr(estimator, "predict_proba"):
        return (np.asarray(estimator.predict(X)) == 1).astype(np.float64)
    classes = list(estimator.classes_)
    return estimator.predict_proba(X)[:, classes.index(1)]


def fit_binary(estimator, X, z, sample_weight, seed):
    """Clone, seed and fit one binary sub-estimator (a constant when ``z`` has one value)."""
    if np.all(z == z[0]):
        return float(z[0])
    est = configured_clone(estimator, random_state=int(seed))
    if sample_weight is None:
        return est.fit(X, z)
    return est.fit(X, z, sample_weight=sample_weight)


def fitted_name(fitted):
    """What answers a binary problem, for summaries: the class name of the fitted estimator,
    or the constant that stands for it when the problem had one side only."""
    if isinstance(fitted, float):
        return "constant: all " + ("above" if fitted > 0 else "below")
    return type(fitted).__name__


def answer(fitted, X, hard):
    if isinstance(fitted, float):
        return np.full(X.shape[0], fitted)
    return positive_column(fitted, X, hard)


def check_base_estimator(estimator, default, sample_weight, name="estimator"):
    """``estimator`` (``default`` when None), refused when ``sample_weight`` is given and its
    ``fit`` takes none (its methods are checked by the ``_parameter_constraints``)."""
    est = default if estimator is None else estimator
    if sample_weight is not None and not has_fit_parameter(est, "sample_weight"):
        raise TypeError(
            f"sample_weight was given but {name} {type(est).__name__} does not accept "
            "sample_weight in fit; use a classifier that does or drop the weights."
        )
    return est


#: why the replica methods take no unordered categories (for :func:`code_ordered`'s error)
_THRESHOLDS = ("cuts an attribute at thresholds (K-1 per node or round), which needs an order "
               "of its values")


def code_ordered(estimator, X, nominal=False):
    """``X`` of a replica method (oDT, oAdaBoost, AdaBoost.OR) for fitting: an ordered pandas
    Categorical becomes its codes 0..c-1, a numeric scale (as in rpart and the ordinal tree,
    :class:`~ordstat._core.predictors.ColumnCoding`), remembered for prediction; unordered
    columns (strings, unordered Categoricals) become their category codes where the method
    splits them by category (``nominal``: oDT), else they are a TypeError naming them, since
    a threshold on arbitrary category codes would depend on how the categories happen to be
    numbered."""
    coding, coded = ColumnCoding.learn(X)
    if coding.nominal and not nominal:
        raise coding.nominal_error(estimator, X, _THRESHOLDS)
    estimator._column_coding = coding
    return coded


def coded_ordered(estimator, X):
    """``X`` coded as the training ``X`` was (:func:`code_ordered`), for prediction."""
    coding = getattr(estimator, "_column_coding", None)
    return X if coding is None else coding.transform(X)
