"""Estimators behind two of the peer methods of :mod:`ordstat.cli._peers`."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.base import BaseEstimator

from .._core.base import OrdinalClassifierMixin
from .._core.validation import validate_fit, validate_predict
from .._extras import MissingExtraError, missing_extra


def frank_hall(**params):
    """Frank & Hall's decomposition with entropy trees, skordinal's ``OrdinalDecomposition``.

    Frank, E. & Hall, M. (2001). A simple approach to ordinal classification. ECML, 145-156;
    with C4.5 trees in the dissertation "Ensemble methods for ordinal data classification"
    (Table 4.2); scikit-learn's entropy CART stands in for C4.5 here.
    """
    from skordinal.classifiers import OrdinalDecomposition
    from sklearn.tree import DecisionTreeClassifier

    defaults = {"decomposition": "ordered_partitions", "decision_method": "frank_hall",
                "estimator": DecisionTreeClassifier(criterion="entropy")}
    return OrdinalDecomposition(**{**defaults, **params})


_POLR = None


def _r_polr():
    global _POLR
    if _POLR is None:
        try:
            from .._core.rpy import ro  # starts R
        except Exception as exc:  # ImportError, or R failing to start
            detail = "" if missing_extra(exc) == "rpy2" else f"{type(exc).__name__}: {exc}"
            raise MissingExtraError("rpy2", "MassPolr (R's MASS::polr)", detail) from exc
        if not ro.r["requireNamespace"]("MASS", quietly=True)[0]:
            raise ImportError("MassPolr needs the R package MASS (Debian: apt-get install "
                              "r-cran-mass).")
        _POLR = ro.r("function(d) { fit <- MASS::polr(y ~ ., data = d, method = 'logistic'); "
                     "list(coef = unname(coef(fit)), zeta = unname(fit$zeta)) }")
    return _POLR


class MassPolr(OrdinalClassifierMixin, BaseEstimator):
    """R's ``MASS::polr`` (proportional odds, logit link) as a scikit-learn classifier.

    A peer for benchmarks: ``fit`` calls R through rpy2; predictions are computed in Python from
    the fitted coefficients and thresholds, P(Y <= k | x) = F(zeta_k - x'beta) with the logistic
    F (the same parametrisation as :class:`ordstat.baseline.ProportionalOddsClassifier`).

    Parameters
    ----------
    classes : sequence, optional
        All class labels from lowest to highest.

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
    coef_ : ndarray of shape (n_features,)
    thresholds_ : ndarray of shape (K_observed - 1,)
        polr's ``zeta``, for the classes present in the training data.

    References
    ----------
    Venables, W. N. & Ripley, B. D. (2002). Modern Applied Statistics with S, 4th ed. Springer
    (MASS::polr). McCullagh, P. (1980). Regression models for ordinal data. JRSS B 42, 109-142.
    """

    def __init__(self, classes=None):
        self.classes = classes

    def fit(self, X, y):
        from .._core.rpy import to_r

        X, codes, _ = validate_fit(self, X, y, classes=self.classes)
        polr = _r_polr()
        self._observed = np.unique(codes)
        if len(self._observed) < 3:
            raise ValueError("MASS::polr needs at least 3 observed classes in y; got "
                             f"{len(self._observed)}.")
        frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])])
        # string levels: an integer-category factor would not survive as a factor in R
        levels = [f"c{k}" for k in self._observed]
        frame["y"] = pd.Categorical.from_codes(np.searchsorted(self._observed, codes), levels,
                                               ordered=True)
        result = polr(to_r(frame))
        self.coef_ = np.asarray(result.rx2("coef"), dtype=float)
        self.thresholds_ = np.asarray(result.rx2("zeta"), dtype=float)
        return self

    def predict_proba(self, X):
        """Class probabilities, columns in ``classes_`` order."""
        X = validate_predict(self, X)
        eta = X @ self.coef_
        cum = stats.logistic.cdf(self.thresholds_[None, :] - eta[:, None])
        cum = np.hstack([np.zeros((len(eta), 1)), cum, np.ones((len(eta), 1))])
        proba = np.zeros((len(eta), self.n_classes_))
        proba[:, self._observed] = np.clip(np.diff(cum, axis=1), 0.0, None)
        return proba / proba.sum(axis=1, keepdims=True)
