"""The classical ordinal model as a baseline: proportional odds (cumulative link) regression.

McCullagh (1980): P(Y <= k | x) = F(theta_k - x' beta), k = 1..K-1, with F the logistic (or
normal) distribution function. Fitted by maximum likelihood with statsmodels' ``OrderedModel``.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import stats
from sklearn.base import BaseEstimator

from ._base import OrdinalClassifierMixin
from .exceptions import ConvergenceWarning
from ._validation import (Integral, Interval, StrOptions, check_weighted_classes, validate_fit,
                          validate_predict)
from ._warnings import warn as _warn

__all__ = ["ProportionalOddsClassifier"]

# link name -> the distribution F of the cumulative link
_LINKS = {"logit": stats.logistic, "probit": stats.norm}


class ProportionalOddsClassifier(OrdinalClassifierMixin, BaseEstimator):
    """Proportional-odds (cumulative logit) classifier wrapping statsmodels' ``OrderedModel``.

    Parameters
    ----------
    link : {"logit", "probit"}, default="logit"
        Cumulative link function F.
    classes : sequence, optional
        All class labels from lowest to highest (see ``ordstat._labels``).
    max_iter : int, default=200
        Iterations of the BFGS optimiser.

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
        Class labels, lowest to highest.
    coef_ : ndarray of shape (n_features,)
        beta on the scale of the original features (zero for constant features, which are dropped
        since the thresholds already play the part of an intercept).
    thresholds_ : ndarray of shape (K_observed - 1,)
        theta_k on the scale of the original features, increasing, for the classes present in
        the training data (MASS::polr's ``zeta``).
    converged_ : bool
    n_iter_ : int
        Optimiser iterations.

    Notes
    -----
    Classes absent from the training data get probability zero. Under complete separation the
    likelihood has no finite maximum; the optimiser stops at large coefficients and
    ``converged_`` may be False.

    References
    ----------
    McCullagh, P. (1980). Regression models for ordinal data. JRSS B 42, 109-142.

    Examples
    --------
    >>> import numpy as np
    >>> from ordstat.baseline import ProportionalOddsClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 2))
    >>> y = np.digitize(X[:, 0] + 0.5 * rng.normal(size=200), [-0.5, 0.5])
    >>> ProportionalOddsClassifier().fit(X, y).predict(X[:3]).shape
    (3,)
    """

    _parameter_constraints = {
        "link": [StrOptions(set(_LINKS))],
        "classes": ["array-like", None],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(self, link="logit", classes=None, max_iter=200):
        self.link = link
        self.classes = classes
        self.max_iter = max_iter

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # One linear predictor cannot separate unordered blobs (sklearn's training-score check).
        tags.classifier_tags.poor_score = True
        return tags

    def fit(self, X, y, sample_weight=None):
        """Fit the cumulative link model by maximum likelihood.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features.
        y : array-like of shape (n_samples,)
            Ordered class labels (an ordered Categorical, labels with ``classes=``, or sortable
            labels).
        sample_weight : array-like of shape (n_samples,), optional
            Frequency weights: the log-likelihood is sum_i w_i log P(Y = y_i | x_i), so an integer
            weight m gives the fit of the data with that row repeated m times. Rows of weight zero
            are left out; a class with no positive weight gets probability zero.

        Returns
        -------
        self
        """
        self._validate_params()
        max_iter = int(self.max_iter)
        X, codes, w = validate_fit(self, X, y, sample_weight, classes=self.classes)
        check_weighted_classes(self, codes, w)
        keep_rows = w > 0
        X, codes, w = X[keep_rows], codes[keep_rows], w[keep_rows]

        # Standardise (weighted) for a well-conditioned optimisation; drop constant columns.
        center = np.average(X, axis=0, weights=w)
        spread = np.sqrt(np.average((X - center) ** 2, axis=0, weights=w))
        keep = spread > 1e-12 * np.maximum(1.0, np.abs(center))
        scale = np.where(keep, spread, 1.0)
        Z = ((X - center) / scale)[:, keep]
        self._observed = np.unique(codes)

        # OrderedModel needs observed, consecutive endog levels.
        endog = np.searchsorted(self._observed, codes)
        with warnings.catch_warnings():
            # Separation / collinearity make the Hessian singular; only the MLE is used here.
            warnings.simplefilter("ignore")
            if Z.shape[1] == 0:
                # Threshold-only model: the MLE is the empirical cumulative distribution.
                beta = np.zeros(0)
                freq = np.bincount(endog, weights=w) / w.sum()
                self.thresholds_ = _LINKS[self.link].ppf(np.cumsum(freq)[:-1])
                self.converged_ = True
                self.n_iter_ = 1
            else:
                beta, self.thresholds_, self.converged_, self.n_iter_ = _fit_ordered_model(
                    endog, Z, w, self.link, max_iter)
        if not self.converged_:
            _warn(
                "ProportionalOddsClassifier: the optimiser did not converge within max_iter "
                f"={max_iter} iterations (possibly complete separation); predictions use the "
                "last iterate.",
                ConvergenceWarning,
            )
        coef = np.zeros(X.shape[1])
        coef[keep] = beta / scale[keep]
        self.coef_ = coef
        # back to the original scale: Z b = X coef - center . coef
        self.thresholds_ = self.thresholds_ + center @ coef
        return self

    def predict_proba(self, X):
        """Class probabilities, columns in ``classes_`` order (lowest to highest)."""
        X = validate_predict(self, X)
        eta = X @ self.coef_
        cum = _LINKS[self.link].cdf(self.thresholds_[None, :] - eta[:, None])
        cum = np.hstack([np.zeros((len(eta), 1)), cum, np.ones((len(eta), 1))])
        observed_proba = np.clip(np.diff(cum, axis=1), 0.0, None)
        observed_proba /= observed_proba.sum(axis=1, keepdims=True)
        proba = np.zeros((len(eta), self.n_classes_))
        proba[:, self._observed] = observed_proba
        return proba


def _fit_ordered_model(endog, exog, w, link, max_iter):
    """(beta, thresholds, converged, n_iter) of statsmodels' OrderedModel, frequency-weighted.

    OrderedModel has no weights; its log-likelihood is the sum of ``loglikeobs``, so weighting
    each unit's term gives exactly the likelihood of the data with rows repeated.
    """
    from statsmodels.miscmodels.ordinal_model import OrderedModel

    class _WeightedOrderedModel(OrderedModel):
        def loglikeobs(self, params):
            return w * super().loglikeobs(params)

    model = _WeightedOrderedModel(endog, exog, distr=link)
    result = model.fit(method="bfgs", maxiter=max_iter, disp=False)
    beta = np.asarray(result.params[:exog.shape[1]], dtype=float)
    thresholds = model.transform_threshold_params(result.params)[1:-1]
    converged = bool(result.mle_retvals.get("converged", True))
    return beta, thresholds, converged, max(1, int(result.mle_retvals.get("iterations", 1)))
