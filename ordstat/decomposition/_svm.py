"""Waegeman & Boullart's ensemble of K-1 weighted binary SVMs for ordinal regression."""

from __future__ import annotations

import itertools

import numpy as np
from joblib import delayed
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import SVC
from sklearn.utils.validation import check_is_fitted

from .._core.labels import encode_target
from .._core.parallel import parallel
from .._core.summary import Summary, class_info, class_table, cut_table
from .._core.validation import (N_JOBS, check_positive_int, check_random_state, validate_fit,
                                validate_predict)
from ._base import fitted_name
from ._replicas import resolve_rank


def waegeman_weights(codes, n_classes):
    """Object weights v_pi of Waegeman & Boullart (2006), eqs. 4-5, shape (n, K-1).

    For binary problem p (ranks 1..r, p = 1..r-1; here code k = p - 1), a unit of rank y <= p
    gets ``(p + 1 - y) |{y <= p}| / sum_{y_i <= p} (p + 1 - y_i)``, a unit of rank y > p gets
    ``(y - p) |{y > p}| / sum_{y_i > p} (y_i - p)``. So the weight grows with the distance of the
    rank from the cut, and each side's weights add up to its number of units: the total is n
    (eq. 5) and the balance between the two classes is that of the unweighted problem.
    """
    codes = np.asarray(codes)
    rank = codes + 1
    out = np.empty((codes.shape[0], n_classes - 1))
    for k in range(n_classes - 1):
        p = k + 1
        low = rank <= p
        raw = np.where(low, p + 1 - rank, rank - p).astype(np.float64)
        w = np.zeros_like(raw)
        for side in (low, ~low):
            if side.any():
                w[side] = raw[side] * side.sum() / raw[side].sum()
        out[:, k] = w
    return out


def _fit_one(svc, X, z, w):
    if np.all(z == z[0]):
        return float(1.0 if z[0] == 1 else -1.0)
    return clone(svc).fit(X, z, sample_weight=w)


class WeightedSVMEnsemble(ClassifierMixin, BaseEstimator):
    """K-1 binary SVMs on Y > C_k, each with object weights that grow with the rank distance.

    Binary SVM p separates ranks <= p from ranks > p (eq. 2) and is fitted by scikit-learn's
    ``SVC`` with the weights v_pi of eq. 4, scaled by eq. 5 to sum to n, as ``sample_weight``
    (an SVM with object weights is the usual SVM with box constraints 0 <= alpha_i <= C v_i,
    eqs. 6-10). ``weighted=False`` gives the same ensemble without weights.

    Ranks: rank k when the SVMs below k answer "higher" and the others "not higher", i.e. the
    number of positive decisions plus one. When the signs are not monotone (an ambiguity the
    paper leaves open) the rank whose sign pattern the decision values contradict least is used:
    cost(i) = sum_{k<i} max(0, -d_k) + sum_{k>=i} max(0, d_k), ties to the lower rank; for
    monotone signs this is exactly the count.

    Parameters
    ----------
    C : float, default=1.0
    kernel : str, default="rbf"
    gamma : float or {"scale", "auto"}, default="scale"
    weighted : bool, default=True
    scale : bool, default=False
        Standardise every predictor with the training mean and standard deviation (n - 1 in
        the denominator; a constant predictor is only centred) before the SVMs, at fit and at
        prediction, as ``scale=TRUE`` of R's ``e1071::svm``: the RBF kernel and ``C`` then do not
        depend on the units of the predictors.
    classes : sequence, optional
    n_jobs : int, optional
        The K-1 SVMs fitted in parallel through joblib.
    **no randomness**: SVC is deterministic without probability estimates.

    Attributes
    ----------
    estimators_ : list of K-1 fitted ``SVC`` (a float +-1 for a problem with one class).
    weights_ : ndarray of shape (n, K-1), the object weights used (ones if not weighted).
    center_, scale_ : ndarray of shape (n_features,), with ``scale=True``: the training means
        and the standard deviations the predictors are divided by.

    References
    ----------
    Waegeman, W. and Boullart, L. (2006), "An ensemble of weighted support vector machines for
    ordinal regression", sections III-IV, eqs. 2-5.
    """

    _parameter_constraints: dict = {
        # what SVC itself accepts, checked before any SVC is fitted
        **{name: SVC._parameter_constraints[name] for name in ("C", "kernel", "gamma")},
        "weighted": ["boolean"],
        "scale": ["boolean"],
        "classes": ["array-like", None],
        "n_jobs": N_JOBS,
    }

    def __init__(self, C=1.0, kernel="rbf", gamma="scale", weighted=True, scale=False,
                 classes=None, n_jobs=None):
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.weighted = weighted
        self.scale = scale
        self.classes = classes
        self.n_jobs = n_jobs

    def fit(self, X, y, sample_weight=None):
        """Fit the K-1 SVMs.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Ordered class labels.
        sample_weight : array-like of shape (n_samples,), optional
            Unit weights (finite, non-negative, not all zero), multiplying the object weights
            of every SVM.

        Returns
        -------
        self
        """
        self._validate_params()
        X, codes, w = validate_fit(self, X, y, sample_weight, classes=self.classes)
        if self.scale:
            self.center_ = X.mean(axis=0)
            sd = X.std(axis=0, ddof=1) if X.shape[0] > 1 else np.zeros(X.shape[1])
            self.scale_ = np.where(sd > 0, sd, 1.0)
            X = self._standardised(X)
        m = self.n_classes_ - 1
        self.weights_ = waegeman_weights(codes, self.n_classes_) if self.weighted \
            else np.ones((X.shape[0], m))
        svc = SVC(C=self.C, kernel=self.kernel, gamma=self.gamma)
        self.estimators_ = parallel(
            (delayed(_fit_one)(svc, X, np.where(codes > k, 1, -1), self.weights_[:, k] * w)
             for k in range(m)), n_jobs=self.n_jobs)
        return self

    def replica_decision(self, X):
        """Decision values of the K-1 SVMs, shape (n, K-1); positive means "rank above k"."""
        X = self._standardised(validate_predict(self, X))
        return np.column_stack([
            np.full(X.shape[0], e) if isinstance(e, float) else e.decision_function(X)
            for e in self.estimators_
        ])

    def _standardised(self, X):
        return (X - self.center_) / self.scale_ if self.scale else X

    def predict(self, X):
        rank = resolve_rank(self.replica_decision(X))
        return self.classes_[rank]

    def summary(self, digits=4):
        """The ensemble described for reading: the SVM settings and, per binary problem, its
        model and number of support vectors.

        Parameters
        ----------
        digits : int, default=4
            Significant digits of the printed numbers.

        Returns
        -------
        Summary
            Printable (``str``, and HTML in Jupyter); its tables are DataFrames:
            ``summary["classes"]`` (training units per class) and ``summary["replicas"]``
            (units below and above each cut, the ``model`` and its ``support vectors``, 0 for
            a constant).
        """
        check_is_fitted(self)
        digits = check_positive_int(digits, "digits")
        gamma = self.gamma if isinstance(self.gamma, str) else f"{self.gamma:.{digits}g}"
        info = class_info(self, digits) + [
            ("C", f"{self.C:.{digits}g}"), ("kernel", str(self.kernel)), ("gamma", gamma),
            ("object weights", "Waegeman & Boullart (eqs. 4-5)" if self.weighted else "none")]
        if self.scale:
            info.append(("predictors", "standardised (training means and standard deviations)"))
        replicas = cut_table(
            self, model=[fitted_name(e) for e in self.estimators_],
            **{"support vectors": [0 if isinstance(e, float) else int(np.sum(e.n_support_))
                                   for e in self.estimators_]})
        title = "Ensemble of " + ("weighted" if self.weighted else "unweighted") + " SVMs"
        return Summary(title, info, {"classes": class_table(self), "replicas": replicas}, "",
                       digits)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # Ordinal by construction: on sklearn's unordered blobs the class order is arbitrary.
        tags.classifier_tags.poor_score = True
        return tags


def _cv_score(X, codes, classes, params, weighted, folds):
    errors = []
    for train, test in folds:
        est = WeightedSVMEnsemble(weighted=weighted, classes=classes, **params)
        pred = est.fit(X[train], classes[codes[train]]).predict(X[test])
        errors.append(np.mean(pred != classes[codes[test]]))
    return float(np.mean(errors))


def svm_grid_search(X, y, *, weighted=True, log2_C=range(-5, 11), log2_gamma=range(-10, 6),
                    cv=5, classes=None, n_jobs=None, random_state=None):
    """The grid search of Waegeman & Boullart (2006, section V.A) for C and the RBF gamma.

    Every (C, gamma) = (2^a, 2^b) of the grid is scored by the misclassification rate of
    stratified ``cv``-fold cross-validation on (X, y); the points run in parallel through joblib.

    Parameters
    ----------
    log2_C, log2_gamma : iterables of numbers, default -5..10 and -10..5 (step 1)
    cv : int, default=5
    random_state : int, Generator or None
        Shuffles the folds (the same folds for every grid point).

    Returns
    -------
    best : dict with ``C``, ``gamma`` and ``error`` (cross-validated misclassification).
    table : ndarray of shape (n_points, 3): log2 C, log2 gamma, error.
    """
    X = np.asarray(X, dtype=np.float64)
    enc, codes = encode_target(y, classes)
    seed = int(check_random_state(random_state).integers(2**31 - 1))
    folds = list(StratifiedKFold(cv, shuffle=True, random_state=seed).split(X, codes))
    grid = list(itertools.product(list(log2_C), list(log2_gamma)))
    if not grid:
        raise ValueError("log2_C and log2_gamma must each hold at least one value.")
    errors = parallel(
        (delayed(_cv_score)(X, codes, enc.classes, {"C": 2.0 ** a, "gamma": 2.0 ** b},
                            weighted, folds) for a, b in grid), n_jobs=n_jobs)
    table = np.array([[a, b, e] for (a, b), e in zip(grid, errors)], dtype=np.float64)
    i = int(np.argmin(table[:, 2]))  # first best point in grid order
    return {"C": 2.0 ** table[i, 0], "gamma": 2.0 ** table[i, 1], "error": table[i, 2]}, table
