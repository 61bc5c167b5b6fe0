"""The classical ordinal model as a baseline: proportional odds (cumulative link) regression.

McCullagh (1980): P(Y <= k | x) = F(theta_k - x' beta), k = 1..K-1, with F the logistic (or
normal) distribution function. Fitted by maximum likelihood with statsmodels' ``OrderedModel``.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import stats
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from ._core.base import OrdinalClassifierMixin
from .exceptions import ConvergenceWarning, NearSingularWarning
from ._core.validation import (Integral, Interval, StrOptions, check_positive_int,
                               check_weighted_classes, validate_fit, validate_predict)
from ._core.warnings import warn as _warn

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
        All class labels from lowest to highest (see ``ordstat._core.labels``).
    max_iter : int, default=200
        Iterations of the BFGS optimiser.

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
        Class labels, lowest to highest.
    coef_ : ndarray of shape (n_features,)
        beta on the scale of the original features (zero for constant features, which are dropped
        since the thresholds already play the part of an intercept, and for columns that are
        linear combinations of earlier ones, dropped with a ``NearSingularWarning`` naming the
        collinear columns, as MASS::polr drops aliased coefficients).
    thresholds_ : ndarray of shape (K_observed - 1,)
        theta_k on the scale of the original features, increasing, for the classes present in
        the training data (MASS::polr's ``zeta``).
    covariance_ : ndarray of shape (n_features + K_observed - 1, n_features + K_observed - 1)
        Inverse of the observed information of (``coef_``, ``thresholds_``), MASS::polr's
        ``vcov``; rows and columns of dropped constant or collinear features are NaN, and so
        is the whole matrix when the information is singular (e.g. under separation).
    log_likelihood_ : float
        Weighted log-likelihood sum_i w_i log P(Y = y_i | x_i) at the estimate.
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
        Z, keep = self._drop_aliased(Z, w, keep)
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
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            # a unit of probability zero (separation) gives -inf / NaN, reported as such
            self.covariance_ = _covariance(X, endog, w, coef, self.thresholds_, keep,
                                           self.link)
            self.log_likelihood_ = float(
                w @ np.log(self._proba(X)[np.arange(len(codes)), codes]))
        self._n_fit = (len(codes), float(w.sum()))
        return self

    def _drop_aliased(self, Z, w, keep):
        """Drop the columns of the (centred, scaled) design that are linear combinations of
        earlier ones, warning which columns are collinear; as MASS::polr, the model of the
        remaining columns is fitted and the dropped ones get coefficient 0 and standard error
        NaN. Without this the optimiser "converges" along a flat ridge of the likelihood and
        every standard error is NaN."""
        aliased = _aliased_columns(Z * np.sqrt(w)[:, None])
        if not aliased:
            return Z, keep
        from ._core.summary import feature_names

        names = feature_names(self)
        columns = np.flatnonzero(keep)
        lines = [f"{names[columns[j]]!r} = a combination of "
                 f"{', '.join(repr(names[columns[i]]) for i in parts)}"
                 for j, parts in aliased.items()]
        _warn(
            "ProportionalOddsClassifier: the columns of X are collinear (the design is "
            f"rank-deficient), so their coefficients are not identified: {'; '.join(lines)} "
            "(the thresholds act as the intercept, so a full set of dummy variables is "
            f"collinear too). Dropped {', '.join(repr(names[columns[j]]) for j in aliased)} "
            "(coefficient 0, standard error NaN); drop a column yourself to choose which "
            "(e.g. pd.get_dummies(..., drop_first=True)).",
            NearSingularWarning,
        )
        keep = keep.copy()
        keep[columns[list(aliased)]] = False
        return np.delete(Z, list(aliased), axis=1), keep

    def predict_proba(self, X):
        """Class probabilities, columns in ``classes_`` order (lowest to highest)."""
        return self._proba(validate_predict(self, X))

    def _proba(self, X):
        eta = X @ self.coef_
        cum = _LINKS[self.link].cdf(self.thresholds_[None, :] - eta[:, None])
        cum = np.hstack([np.zeros((len(eta), 1)), cum, np.ones((len(eta), 1))])
        observed_proba = np.clip(np.diff(cum, axis=1), 0.0, None)
        observed_proba /= observed_proba.sum(axis=1, keepdims=True)
        proba = np.zeros((len(eta), self.n_classes_))
        proba[:, self._observed] = observed_proba
        return proba

    def summary(self, digits=4):
        """Coefficients and thresholds with standard errors, z statistics and p-values.

        The layout of MASS::polr's ``summary`` with two-sided Wald p-values added: for each
        parameter theta with standard error se (square root of the diagonal of ``covariance_``),
        ``z = theta / se`` and ``p = 2 (1 - Phi(|z|))``. Thresholds are named ``"a|b"`` for the cut
        between consecutive observed classes a and b, as polr prints ``zeta``.

        Parameters
        ----------
        digits : int, default=4
            Significant digits of the printed numbers (the tables keep full precision).

        Returns
        -------
        Summary
            Printable (``str``, and HTML in Jupyter); its tables ``summary["coefficients"]``
            and ``summary["thresholds"]`` are DataFrames with columns ``estimate``,
            ``std_error``, ``z``, ``p_value``.

        References
        ----------
        McCullagh, P. (1980). Regression models for ordinal data. JRSS B 42, 109-142.
        Venables, W. N. and Ripley, B. D. (2002). Modern Applied Statistics with S, section 7.3
        (MASS::polr).
        """
        from ._core.summary import Summary, feature_names

        check_is_fitted(self)
        digits = check_positive_int(digits, "digits")
        se = np.sqrt(np.diag(self.covariance_))
        p = len(self.coef_)
        observed = self.classes_[self._observed]
        cut_names = [f"{a}|{b}" for a, b in zip(observed[:-1], observed[1:])]
        coefficients = _wald_table(self.coef_, se[:p], feature_names(self))
        thresholds = _wald_table(self.thresholds_, se[p:], cut_names)
        n, total = self._n_fit
        n_params = int(np.count_nonzero(np.isfinite(se[:p]))) + len(self.thresholds_)
        info = [
            ("model", f"{_LINK_FORMULA[self.link]} = zeta_k - x'beta (MASS::polr's "
                      "parametrisation)"),
            ("link", self.link),
            ("classes", " < ".join(map(str, self.classes_))),
            ("units", f"{n}" + ("" if total == n else f" (total weight {total:.{digits}g})")),
            ("log-likelihood", f"{self.log_likelihood_:.{digits + 2}g}"),
            ("AIC", f"{2 * n_params - 2 * self.log_likelihood_:.{digits + 2}g}"),
            ("converged", str(self.converged_)),
        ]
        notes = ("p-values: two-sided Wald tests, 2 * (1 - Phi(|z|)); NaN marks a dropped "
                 "constant or collinear feature, or a singular information matrix.")
        return Summary(f"Proportional-odds model ({self.link} link)", info,
                       {"coefficients": coefficients, "thresholds": thresholds}, notes, digits)


_LINK_FORMULA = {"logit": "logit P(Y <= k | x)", "probit": "probit P(Y <= k | x)"}

# link name -> derivative of its density, f'(z)
_DENSITY_SLOPE = {
    "logit": lambda z: stats.logistic.pdf(z) * (1.0 - 2.0 * stats.logistic.cdf(z)),
    "probit": lambda z: -z * stats.norm.pdf(z),
}


def _wald_table(estimate, se, names):
    import pandas as pd

    z = estimate / se
    return pd.DataFrame({"estimate": estimate, "std_error": se, "z": z,
                         "p_value": 2.0 * stats.norm.sf(np.abs(z))}, index=pd.Index(names))


def _information(X, endog, w, beta, zeta, link):
    """Observed information -d^2 l / d theta^2 of theta = (beta, zeta).

    With a_i = zeta_{y_i} - x_i'beta and b_i = zeta_{y_i - 1} - x_i'beta (infinite at the
    ends), l_i = log(F(a_i) - F(b_i)) and P_i = F(a_i) - F(b_i):
    d2 l_i / da2 = f'(a)/P - f(a)^2/P^2, d2 l_i / db2 = -f'(b)/P - f(b)^2/P^2,
    d2 l_i / da db = f(a) f(b) / P^2, and da/dtheta = (-x_i, e_{y_i}),
    db/dtheta = (-x_i, e_{y_i - 1}).
    """
    dist, slope = _LINKS[link], _DENSITY_SLOPE[link]
    n, p = X.shape
    m = len(zeta)
    eta = X @ beta
    cuts = np.concatenate([[-np.inf], zeta, [np.inf]])
    upper, lower = cuts[endog + 1] - eta, cuts[endog] - eta
    prob = dist.cdf(upper) - dist.cdf(lower)

    def density_and_slope(z):
        finite = np.isfinite(z)
        zf = np.where(finite, z, 0.0)
        return np.where(finite, dist.pdf(zf), 0.0), np.where(finite, slope(zf), 0.0)

    fa, dfa = density_and_slope(upper)
    fb, dfb = density_and_slope(lower)
    l_aa = dfa / prob - (fa / prob) ** 2
    l_bb = -dfb / prob - (fb / prob) ** 2
    l_ab = fa * fb / prob ** 2
    rows = np.arange(n)
    da = np.hstack([-X, np.zeros((n, m))])
    db = da.copy()
    top, bottom = endog < m, endog > 0
    da[rows[top], p + endog[top]] = 1.0
    db[rows[bottom], p + endog[bottom] - 1] = 1.0
    cross = (da * (w * l_ab)[:, None]).T @ db
    hessian = ((da * (w * l_aa)[:, None]).T @ da + (db * (w * l_bb)[:, None]).T @ db
               + cross + cross.T)
    return -hessian


def _covariance(X, endog, w, coef, thresholds, keep, link):
    """``covariance_``: the inverse information over the kept features and the thresholds,
    NaN for dropped features (or everywhere if the information is singular)."""
    size = len(coef) + len(thresholds)
    index = np.concatenate([np.flatnonzero(keep), len(coef) + np.arange(len(thresholds))])
    cov = np.full((size, size), np.nan)
    info = _information(X[:, keep], endog, w, coef[keep], thresholds, link)
    try:
        inverse = np.linalg.inv(info)
    except np.linalg.LinAlgError:
        return cov
    if np.all(np.isfinite(inverse)) and np.all(np.diag(inverse) > 0):
        cov[np.ix_(index, index)] = inverse
    return cov


#: relative size below which a column's part outside the span of the earlier columns counts
#: as zero (the tolerance of R's lm and glm, 1e-7)
_ALIAS_TOL = 1e-7


def _aliased_columns(A):
    """{j: earlier columns it is a combination of} for the columns of ``A`` (centred, so the
    intercept is implied) that lie in the span of the earlier kept ones, found by Gram-Schmidt
    in column order: the numerical rank of ``A`` is its number of columns minus their count."""
    basis = np.zeros((A.shape[0], 0))
    kept, aliased = [], {}
    for j in range(A.shape[1]):
        column = A[:, j]
        norm = np.linalg.norm(column)
        residual = column.copy()
        for _ in range(2):  # classical Gram-Schmidt twice: orthogonal to working precision
            residual -= basis @ (basis.T @ residual)
        size = np.linalg.norm(residual)
        if norm > 0 and size > _ALIAS_TOL * norm:
            basis = np.column_stack([basis, residual / size])
            kept.append(j)
            continue
        weights = np.linalg.lstsq(A[:, kept], column, rcond=None)[0] if kept else np.zeros(0)
        big = np.abs(weights) > 1e-6 * max(np.abs(weights).max(initial=0.0), 1e-300)
        aliased[j] = [kept[i] for i in np.flatnonzero(big)]
    return aliased


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
