"""Arithmetic shared by the estimator and the leave-one-out: the small records they pass
(``Sample``, ``ClassStats``, ``FitOptions``), class scatter, model fitting with checks, the
Gaussian log-density (batched), and the degenerate-data messages. The models are
:class:`~._models.CovarianceModel` records, given, not looked up by name.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from ..exceptions import ConvergenceWarning, NearSingularWarning
from .._core.categories import feature_label
from .._core.warnings import warn as _warn
from ._models import MStep

_LOG_2PI = np.log(2.0 * np.pi)
# Below this reciprocal condition number a covariance is treated as singular (error); below
# _RCOND_WARN it is usable but the densities lose digits (warning).
_RCOND_ERROR = 1e-13
_RCOND_WARN = 1e-9


class Sample(NamedTuple):
    """Labelled units: ``X`` (n, d), class codes (n,), weights (n,) and the class labels of
    the codes (for messages)."""

    X: np.ndarray
    codes: np.ndarray
    w: np.ndarray
    class_names: object = None

    def subset(self, rows):
        """The units ``rows`` (indices or a mask), with the same classes."""
        return Sample(self.X[rows], self.codes[rows], self.w[rows], self.class_names)


class ClassStats(NamedTuple):
    """The sufficient statistics of the classes: weights n (..., K), means (..., K, d),
    scatter matrices W (..., K, d, d)."""

    n: np.ndarray
    means: np.ndarray
    W: np.ndarray

    def subset(self, classes):
        """The statistics of the classes ``classes`` (a mask or indices)."""
        return ClassStats(self.n[classes], self.means[classes], self.W[classes])


class FitOptions(NamedTuple):
    """The estimator's settings that a model's fit and its leave-one-out refits use."""

    reg_covar: float
    tol: float
    max_iter: int
    priors: np.ndarray | None = None  # fixed class priors; None: n_k / n


def label(names, k):
    """The k-th class label as a plain Python value, for messages (np.int64(1) -> 1)."""
    if names is None:
        return k
    value = np.asarray(names, dtype=object)[k]
    return value.item() if hasattr(value, "item") else value


@functools.lru_cache(maxsize=None)
def _blas_controller():
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def one_blas_thread():
    """A context in which BLAS runs on one thread.

    The model fits and the leave-one-out are thousands of operations on d x d matrices
    (triangular solves with many right-hand sides, small products): a second BLAS thread cannot
    speed them up, and its start-up and waiting cost more than the work, many times over on a
    busy machine (the changelog has the measurement). Results do not depend on it.
    """
    return _blas_controller().limit(limits=1, user_api="blas")


def class_scatter(X, codes, w, K):
    """Weighted class sizes n_k, means m_k and scatter W_k = sum w_i (x_i - m_k)(x_i - m_k)'.

    Returns :class:`ClassStats`: n (K,), means (K, d), W (K, d, d). Classes with zero weight
    get mean 0, W = 0.
    """
    d = X.shape[1]
    n = np.bincount(codes, weights=w, minlength=K).astype(float)
    means = np.zeros((K, d))
    W = np.zeros((K, d, d))
    for k in range(K):
        idx = codes == k
        if n[k] <= 0:
            continue
        wk = w[idx]
        means[k] = wk @ X[idx] / n[k]
        Z = X[idx] - means[k]
        W[k] = (Z * wk[:, None]).T @ Z
    return ClassStats(n, means, W)


def regularise(W, n, reg_covar):
    """W_k + reg_covar n_k I: every model's Sigma_k gains about reg_covar on the diagonal."""
    if reg_covar <= 0:
        return W
    d = W.shape[-1]
    return W + (reg_covar * n)[..., None, None] * np.eye(d)


def as_full(kind, cov, d):
    """Covariances as (..., K, d, d) matrices."""
    if kind == "full":
        return cov
    if kind == "diagonal":
        return cov[..., :, None] * np.eye(d)
    return cov[..., None, None] * np.eye(d)


def rcond(kind, cov):
    """Reciprocal condition number of each class covariance, shape (..., K)."""
    if kind == "spherical":
        return np.where(cov > 0, 1.0, 0.0)
    if kind == "diagonal":
        lo, hi = cov.min(axis=-1), cov.max(axis=-1)
    else:
        ev = np.linalg.eigvalsh(cov)
        lo, hi = ev[..., 0], ev[..., -1]
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(hi > 0, lo / hi, 0.0)
    return np.nan_to_num(r, nan=0.0)


def check_class_scatter(model, W, class_names, reg_covar, feature_names=None):
    """ValueError when a class scatter is too degenerate for the class-specific shape of
    ``model`` (a :class:`~._models.CovarianceModel`); features are named by ``feature_names``
    (a DataFrame's columns) when given.

    A class-specific shape needs spread in every direction within the class: every feature for
    the diagonal models (EVI, VVI), a non-singular W_k for the others (EVE, VVE, EVV, VVV); a
    class-specific volume alone (VII, VEI, VEE, VEV) needs some spread.
    """
    if reg_covar > 0:
        return
    diag = np.diagonal(W, axis1=-2, axis2=-1)
    scale = np.maximum(diag.max(axis=-1, keepdims=True), np.finfo(float).tiny)
    shape = model.class_shape
    for k in range(W.shape[0]):
        name = label(class_names, k)
        if shape == "diagonal":
            flat = np.flatnonzero(diag[k] <= 1e-12 * scale[k])
            if flat.size:
                features = ", ".join(feature_label(j, feature_names) for j in flat)
                raise ValueError(
                    f"EDDA model {model.name!r}: within class {name!r} these features are "
                    f"constant: {features}; so its diagonal shape is singular; choose a model "
                    "with a common shape (e.g. 'VEI' or 'EEI') or set reg_covar > 0."
                )
        elif shape == "full":
            ev, vectors = np.linalg.eigh(W[k])
            if ev[0] <= 1e-12 * max(ev[-1], np.finfo(float).tiny):
                # the features along which the class has no spread
                flat = vectors[:, 0]
                involved = np.flatnonzero(np.abs(flat) > 1e-6 * np.abs(flat).max())
                features = ", ".join(feature_label(j, feature_names) for j in involved)
                raise ValueError(
                    f"EDDA model {model.name!r}: the scatter matrix of class {name!r} is "
                    f"singular (no spread within the class along a combination of {features}), "
                    "so its class-specific shape cannot be estimated; choose a model with a "
                    "common shape (e.g. 'VEE', 'EEV' or 'EEE') or set reg_covar > 0."
                )
        elif model.class_volume and not diag[k].sum() > 0:
            raise ValueError(
                f"EDDA model {model.name!r}: class {name!r} has no spread at all, so its volume "
                "cannot be estimated; choose a model with a common volume or set reg_covar > 0."
            )


def check_min_units(model, counts, d, class_names, reg_covar):
    """ValueError when a class has fewer units than the model's class-specific parameters need."""
    if reg_covar > 0:
        return
    need = model.min_units(d)
    for k, c in enumerate(counts):
        if 0 < c < need:
            what = ("a class-specific full covariance needs d + 1 = " f"{need}" if need > 2
                    else "a class-specific volume or shape needs 2")
            raise ValueError(
                f"EDDA model {model.name!r}: class {label(class_names, k)!r} has {int(c)} "
                f"unit(s) but {what}; choose a more parsimonious model (e.g. 'EEE', 'EEI' or "
                "'EII'), or set reg_covar > 0."
            )


def fit_model(model, W, n, options, *, init=None, class_names=None, context="", warm=False):
    """Run the M-step of ``model`` (a :class:`~._models.CovarianceModel`) on (possibly batched)
    scatter matrices with the ``options`` (:class:`FitOptions`), then check the result.

    ``warm``: an iterative model starts from ``init`` only (its ``followed`` M-step), not also
    from its default starts.

    Raises ValueError naming the class and model when a covariance is singular; warns when one
    is near-singular or when an iterative M-step reached ``max_iter``.
    """
    mstep = model.followed if warm and init is not None and model.iterative else model.mstep
    tol, max_iter = options.tol, options.max_iter
    try:
        # A singular class scatter makes some M-steps divide by zero on the way; the result is
        # then non-finite or singular and reported below, with the class and model named.
        with np.errstate(all="ignore"):
            step = mstep(regularise(W, n, options.reg_covar), n, tol=tol, max_iter=max_iter,
                         init=init)
            r = rcond(step.kind, step.cov)
    except np.linalg.LinAlgError:
        step, r = None, np.zeros(n.shape)
    if step is None:
        raise ValueError(
            f"EDDA model {model.name!r}{context}: the M-step failed on a singular class "
            "scatter. Set reg_covar > 0 or choose a more parsimonious model."
        )
    if not np.all(np.isfinite(step.cov)) or np.any(r < _RCOND_ERROR):
        k = int(np.argwhere(~(r >= _RCOND_ERROR))[0][-1])
        which = ("the common covariance matrix (pooled over the classes)" if model.pooled
                 else f"the covariance matrix of class {label(class_names, k)!r}")
        raise ValueError(
            f"EDDA model {model.name!r}{context}: {which} is singular "
            f"(reciprocal condition number {float(np.min(r)):.2g}); the class scatter has too "
            "little spread in some direction. Set reg_covar > 0 (e.g. 1e-6 times the feature "
            "variances) or choose a more parsimonious model."
        )
    if np.any(r < _RCOND_WARN):
        k = int(np.argwhere(r < _RCOND_WARN)[0][-1])
        which = ("the common covariance matrix (pooled over the classes)" if model.pooled
                 else f"the covariance matrix of class {label(class_names, k)!r}")
        _warn(
            f"EDDA model {model.name!r}{context}: {which} is nearly singular (reciprocal "
            f"condition number {float(np.min(r)):.2g}); densities may be "
            "inaccurate. Consider reg_covar > 0 or a more parsimonious model.",
            NearSingularWarning,
        )
    if model.iterative and not step.converged:
        _warn(
            f"EDDA model {model.name!r}{context}: the iterative M-step did not converge within "
            f"max_iter={max_iter} iterations (tol={tol}); the last iterate is used. Increase "
            "max_iter or tol.",
            ConvergenceWarning,
        )
    return step


def logsumexp_rows(a):
    """log sum_k exp(a_ik) per row, stable, for rows with at least one finite entry.

    (scipy.special.logsumexp does the same with more generality and more overhead, which
    showed in the fit of all 14 models.)
    """
    top = a.max(axis=1)
    with np.errstate(divide="ignore"):
        return top + np.log(np.exp(a - top[:, None]).sum(axis=1))


def log_normal(maha, logdet, d):
    """log of the d-variate normal density from the squared Mahalanobis distance and the log
    determinant of the covariance: -(d log(2 pi) + log|Sigma| + maha) / 2."""
    return -0.5 * (d * _LOG_2PI + logdet + maha)


def log_density(X, means, step: MStep):
    """log f_k(x_i) for every unit and class: the one Gaussian log-density of the package.

    ``X`` (..., n, d), ``means`` (..., K, d) and ``step.cov`` (..., K[, d[, d]]) with leading
    (batch) axes that broadcast, e.g. one covariance set for all units (no batch axis), one per
    unit (``X`` (B, 1, d), means (B, K, d)) or B sets for all units (``X`` (n, d)). Returns
    (..., n, K).
    """
    d = X.shape[-1]
    if step.kind == "full":
        # Whitening by the inverse Cholesky factors, z_k = L_k^-1 (x - m_k), as one broadcast
        # (..., K, n, d) product; in-place squares keep the temporaries few. Centring at the
        # mean of the class means first avoids cancellation for features far from zero.
        L = np.linalg.cholesky(step.cov)                             # (..., K, d, d)
        Lt = np.swapaxes(np.linalg.inv(L), -1, -2)
        centre = means.mean(axis=-2, keepdims=True)                  # (..., 1, d)
        z = (X - centre)[..., None, :, :] @ Lt                       # (..., K, n, d)
        z -= (means - centre)[..., :, None, :] @ Lt
        z *= z
        maha = np.swapaxes(z.sum(axis=-1), -1, -2)
        logdet = 2.0 * np.log(np.diagonal(L, axis1=-2, axis2=-1)).sum(axis=-1)
    else:
        sq = X[..., :, None, :] - means[..., None, :, :]             # (..., n, K, d)
        sq *= sq
        if step.kind == "spherical":
            maha = sq.sum(axis=-1) / step.cov[..., None, :]
            logdet = d * np.log(step.cov)
        else:
            sq /= step.cov[..., None, :, :]
            maha = sq.sum(axis=-1)
            logdet = np.log(step.cov).sum(axis=-1)
    return log_normal(maha, logdet[..., None, :], d)
