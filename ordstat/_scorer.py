"""Scorers for scikit-learn's model selection that keep the estimator's class order.

scikit-learn's ``make_scorer(metric)`` calls ``metric(y_true, y_pred)``: an ordinal metric then
finds the order of the classes on its own (sorted labels, "high" < "low" < "mid" for strings)
and scores distances between the wrong ranks, without a word. :class:`OrdinalScorer` passes the
fitted estimator's ``classes_`` (lowest to highest) as ``classes=`` instead. The named scorers and
:func:`ordstat.metrics.make_ordinal_scorer` that builds them live in :mod:`ordstat.metrics`.
"""

from __future__ import annotations

import inspect

import joblib
import sklearn

from ._core.warnings import attributed_past

__all__ = ["OrdinalScorer"]


def _takes_classes(function):
    """Whether ``function`` accepts a ``classes=`` keyword (or any keyword)."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):  # builtins without a signature: let the call decide
        return True
    return any(p.name == "classes" or p.kind is inspect.Parameter.VAR_KEYWORD
               for p in parameters)


class OrdinalScorer:
    """A scorer ``scorer(estimator, X, y, sample_weight=None)`` for an ordinal metric.

    It predicts with ``estimator.predict(X)`` and calls
    ``metric(y, y_pred, classes=estimator.classes_, sample_weight=sample_weight, **kwargs)``, so
    the ranks are those of the order the estimator was fitted with (an ordered Categorical,
    ``classes=``), not the sorted labels; the score is negated when smaller is better, as
    scikit-learn's ``neg_*`` scorers are. Usable as ``scoring=`` of ``GridSearchCV``,
    ``cross_val_score`` and ``cross_validate`` (alone or in a dict). Warnings raised while
    scoring point at the line that called scikit-learn, not at scikit-learn's internals.

    Build it with :func:`ordstat.metrics.make_ordinal_scorer` or take a named one from
    :func:`ordstat.metrics.get_scorer` / ``ordstat.metrics.SCORERS``.

    Parameters
    ----------
    metric : callable
        ``metric(y_true, y_pred, classes=..., sample_weight=..., **kwargs) -> float``.
    sign : {1, -1}
        1 when greater is better, -1 otherwise (the score is ``sign * metric(...)``).
    name : str
        The scorer's name (e.g. ``"neg_mean_absolute"``), shown by ``repr``.
    classes : sequence, optional
        The class order to score with (lowest to highest), instead of the estimator's
        ``classes_``; for estimators whose ``classes_`` are sorted, such as scikit-learn's.
    kwargs : dict, optional
        Further keyword arguments of ``metric`` (e.g. ``cost=`` of ``expected_cost``).
    """

    def __init__(self, metric, sign, name, classes=None, kwargs=None):
        self.metric = metric
        self.sign = sign
        self.name = name
        self.classes = classes
        self.kwargs = dict(kwargs or {})

    def _classes(self, estimator):
        if self.classes is not None:
            return self.classes
        classes = getattr(estimator, "classes_", None)
        if classes is None:
            raise TypeError(
                f"The scorer {self.name!r} needs a fitted classifier with classes_ (its classes "
                f"in ordinal order); {type(estimator).__name__} has none. Give the order with "
                "make_ordinal_scorer(..., classes=[lowest, ..., highest])."
            )
        return classes

    def __call__(self, estimator, X, y_true, sample_weight=None):
        """The score of ``estimator`` on ``(X, y_true)``, greater is better.

        Parameters
        ----------
        estimator : fitted classifier
            Its ``predict(X)`` is scored; its ``classes_`` give the class order (unless the
            scorer was given ``classes``).
        X : array-like of shape (n_samples, n_features)
        y_true : array-like of shape (n_samples,)
            True labels, all among the classes.
        sample_weight : array-like of shape (n_samples,), optional

        Returns
        -------
        float
            ``sign * metric(y_true, estimator.predict(X), classes=..., ...)``.
        """
        with attributed_past(sklearn, joblib):
            classes = self._classes(estimator)
            y_pred = estimator.predict(X)
            value = self.metric(y_true, y_pred, classes=classes, sample_weight=sample_weight,
                                **self.kwargs)
        return self.sign * value

    def __repr__(self):
        extra = "".join(f", {k}={v!r}" for k, v in self.kwargs.items())
        if self.classes is not None:
            extra += f", classes={list(self.classes)!r}"
        return (f"OrdinalScorer({self.name!r}, {self.metric.__name__}, "
                f"greater_is_better={self.sign > 0}{extra})")
