"""Serial combining: one convex weight per model (Brito, Celeux & Sousa Ferreira 2006, section 3).

The combined classifier is p(x) = sum_m beta_m p^m(x), beta_m >= 0, sum_m beta_m = 1 (eq. 1.1),
with p^m the posterior probabilities of model m (eq. 1.2). The weights come from one of five
rules, a table of small functions ``name -> weights``:

- ``committee``: the committee of methods (Bishop 1995): beta minimises beta' C beta on the
  simplex, C the error matrix of eq. 3.6 estimated from posteriors of the training units
  (resubstitution, as in the paper; exact leave-one-out or out-of-fold on request);
- ``likelihood``, ``aic``, ``bic``: beta_m proportional to L_m, L_m exp(-nu_m), L_m n^(-nu_m/2)
  (eq. 3.8, 3.10, 3.13), with L_m the complete-data likelihood prod_i pi_{k_i} f^m_{k_i}(x_i);
- ``integrated``: beta_m proportional to the integrated likelihood (eq. 3.12), exact for the
  discrete models (eq. 3.14-3.16) and its BIC approximation (eq. 3.13) otherwise.

All likelihood weights are computed in log space (a softmax of log-scores), so likelihoods far
below the smallest double (1e-5000) still give correct weights.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from joblib import delayed
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, clone
from sklearn.model_selection import LeaveOneOut, StratifiedKFold
from sklearn.utils import _safe_indexing
from sklearn.utils.validation import check_is_fitted

from .._core.base import OrdinalClassifierMixin
from .._core.parallel import parallel
from .._core.labels import is_numeric_labels, uses_class_order
from .._core.summary import Summary
from .._core.validation import (N_JOBS, Integral, Interval, StrOptions, check_random_state,
                                validate_fit, validate_predict)
from .._core.warnings import warn as _warn
from ..exceptions import OrderGuessWarning
from ._naming import describe_weights, model_name
from .diverse import aligned_proba, class_columns, diverse_models

# model_name stays importable from here (the R side's serial_info imports it from this module).
__all__ = ["SerialCombiner", "committee_weights", "serial_loo_error", "model_name"]

_METHODS = ("committee", "likelihood", "aic", "bic", "integrated")
_POSTERIORS = ("resubstitution", "loo", "cv")
_ENUMERATE_MAX = 14  # exact committee weights by enumerating faces up to 2^14 - 1 supports


# --- weight rules -----------------------------------------------------------------------------

def _kkt_on_face(C, support):
    """Minimiser of b' C b on the affine hull {sum b = 1} of a face (min-norm if not unique)."""
    s = len(support)
    A = np.zeros((s + 1, s + 1))
    A[:s, :s] = C[np.ix_(support, support)]
    A[:s, s] = A[s, :s] = 1.0
    rhs = np.zeros(s + 1)
    rhs[s] = 1.0
    sol = np.linalg.lstsq(A, rhs, rcond=None)[0]
    return sol[:s], float(np.abs(A @ sol - rhs).max())


def committee_weights(C, tol=1e-10):
    """The convex weights minimising beta' C beta on the simplex (committee of methods).

    Eq. 3.5 of Brito et al. (2006), beta = C^-1 1 / (1' C^-1 1), when C is well conditioned and
    that beta is non-negative; otherwise the exact constrained minimiser, found by solving the
    Lagrange conditions on every face of the simplex and keeping the best feasible point (among
    equally good points, the one of smallest norm, so that identical models share the weight).

    Parameters
    ----------
    C : array-like of shape (M, M)
        Symmetric positive semi-definite error matrix (eq. 3.6).
    tol : float
        Relative tolerance for feasibility and ties.

    Returns
    -------
    ndarray of shape (M,)
    """
    C = np.asarray(C, dtype=float)
    C = 0.5 * (C + C.T)
    M = C.shape[0]
    scale = max(float(np.abs(np.diag(C)).max()), np.finfo(float).tiny)
    ones = np.ones(M)
    if np.linalg.cond(C) < 1e10:
        b = np.linalg.solve(C, ones)
        b = b / b.sum()
        if np.all(b >= 0):
            return b
    if M > _ENUMERATE_MAX:
        return _committee_slsqp(C)
    best, best_obj = None, np.inf
    for size in range(1, M + 1):
        for support in itertools.combinations(range(M), size):
            b_s, residual = _kkt_on_face(C, list(support))
            if residual > 1e-8 or np.any(b_s < -tol):
                continue
            b = np.zeros(M)
            b[list(support)] = np.clip(b_s, 0.0, None)
            b /= b.sum()
            obj = float(b @ C @ b)
            if obj < best_obj - tol * scale or (
                    obj <= best_obj + tol * scale and b @ b < best @ best):
                best, best_obj = b, min(obj, best_obj)
    return best


def _committee_slsqp(C):
    from scipy.optimize import minimize

    M = C.shape[0]
    res = minimize(lambda b: b @ C @ b, np.full(M, 1.0 / M), jac=lambda b: 2 * C @ b,
                   bounds=[(0.0, 1.0)] * M, method="SLSQP",
                   constraints=[{"type": "eq", "fun": lambda b: b.sum() - 1.0}])
    b = np.clip(res.x, 0.0, None)
    return b / b.sum()


def error_matrix(posteriors, codes):
    """C-hat of eq. 3.6: (1/n) sum_i (y_i - c^m(x_i))'(y_i - c^l(x_i)), posteriors (M, n, K)."""
    M, n, K = posteriors.shape
    E = -posteriors.copy()
    E[:, np.arange(n), codes] += 1.0
    return np.einsum("mik,lik->ml", E, E) / n


def _log_score(method, loglik, nu, n):
    """log of the unnormalised weight of a likelihood rule: log L (eq. 3.8), log L - nu
    (eq. 3.10), or log L - nu log(n) / 2 (BIC, eq. 3.13; also the integrated likelihood's
    approximation)."""
    if method == "likelihood":
        return loglik
    if method == "aic":
        return loglik - nu
    return loglik - 0.5 * nu * np.log(n)


def _softmax(scores):
    return np.exp(scores - logsumexp(scores))


# --- posteriors of the training units ---------------------------------------------------------

def _fit_predict(estimator, X, y, train, test, classes, what):
    est = clone(estimator).fit(_safe_indexing(X, train), y[train])
    # a fold may lack a class: probability 0 for it
    return test, aligned_proba(est, _safe_indexing(X, test), classes, what, allow_missing=True)


def _posteriors(estimators, fitted, X, y, codes, kind, cv, seed, n_jobs, classes=None):
    """(M, n, K) posteriors of the training units under each model, columns in ``classes``
    order (by default the first model's)."""
    if classes is None:
        classes = fitted[0].classes_
    if kind == "resubstitution":
        return np.stack([aligned_proba(est, X, classes, f"estimators[{m}]")
                         for m, est in enumerate(fitted)])
    n = len(codes)
    out = []
    for m, (est, fit) in enumerate(zip(estimators, fitted)):
        if kind == "loo" and hasattr(fit, "loo_log_joint"):  # exact, without refits (EDDA)
            joint = fit.loo_log_joint(X, y)[:, class_columns(fit, classes, f"estimators[{m}]")]
            out.append(np.exp(joint - logsumexp(joint, axis=1, keepdims=True)))
            continue
        splitter = LeaveOneOut() if kind == "loo" else StratifiedKFold(
            n_splits=cv, shuffle=True, random_state=seed)
        parts = parallel(
            (delayed(_fit_predict)(est, X, y, train, test, classes, f"estimators[{m}]")
             for train, test in splitter.split(np.zeros((n, 1)), codes)), n_jobs=n_jobs)
        P = np.empty((n, len(classes)))
        for test, proba in parts:
            P[test] = proba
        out.append(P)
    return np.stack(out)


def _no_likelihood(m, est, what):
    return (f"estimators[{m}] ({type(est).__name__}) has no log_likelihood(X, y) or "
            f"n_parameters_, which method={what!r} needs; use method='committee' or a "
            "generative model (EDDA, FMM, FOIM, KERNEL).")


def _log_likelihoods(fitted, X, y, what):
    """Log-scores of each model for the likelihood rules, and whether each was exact."""
    n = len(y)
    scores, exact = [], []
    for m, est in enumerate(fitted):
        if what == "integrated" and hasattr(est, "log_integrated_likelihood"):
            s = est.log_integrated_likelihood(X, y)
            exact.append(True)
        else:
            if not hasattr(est, "log_likelihood") or not hasattr(est, "n_parameters_"):
                raise TypeError(_no_likelihood(m, est, what))
            ll = est.log_likelihood(X, y)
            nu = float(est.n_parameters_)
            s = _log_score(what, ll, nu, n)
            exact.append(what != "integrated")
        if not np.isfinite(s):
            raise ValueError(
                f"estimators[{m}] ({model_name(est, 'short')}) has a non-finite "
                f"log-likelihood ({s}) on the training data, so method={what!r} cannot weight "
                "it; a model giving some training unit probability zero needs smoothing (e.g. "
                "KernelMultinomial) or method='committee'."
            )
        scores.append(float(s))
    return np.array(scores), exact


def _guessed_order(y):
    """Whether sorting the labels of ``y`` would guess their order: string labels that are not
    an ordered Categorical."""
    dtype = getattr(y, "dtype", None)
    if isinstance(dtype, pd.CategoricalDtype):
        return not dtype.ordered and not is_numeric_labels(dtype.categories)
    return not is_numeric_labels(np.asarray(y))


def _check_estimators(estimators, method):
    """The models to combine: "edda", or classifiers (with a likelihood for the likelihood
    rules)."""
    if isinstance(estimators, str):
        if estimators.lower() != "edda":
            raise ValueError(
                "estimators must be a non-empty list of classifiers to combine or 'edda' "
                f"(the 14 EDDA models); got {estimators!r}."
            )
        return
    if len(estimators) == 0:
        raise ValueError("estimators must be a non-empty list of classifiers to combine; got "
                         f"{estimators!r}.")
    for m, est in enumerate(estimators):
        if not hasattr(est, "fit") or not hasattr(est, "predict_proba"):
            raise TypeError(
                f"estimators[{m}] ({type(est).__name__}) must be a classifier with fit and "
                "predict_proba."
            )
    for m, est in enumerate(estimators):
        if method != "committee" and not hasattr(est, "log_likelihood"):
            raise TypeError(_no_likelihood(m, est, method))


# --- the estimator ----------------------------------------------------------------------------

class SerialCombiner(OrdinalClassifierMixin, BaseEstimator):
    """Convex serial combination of classifiers with one weight per model.

    predict_proba(x) = sum_m weights_[m] p^m(x) (Brito et al. 2006, eq. 1.1), the weights given
    by the committee of methods (eq. 3.5-3.6) or by likelihood ratios (eq. 3.8, 3.10, 3.13,
    3.16). The class order plays no part: any labels are accepted.

    Parameters
    ----------
    estimators : list of estimators or "edda"
        The models to combine (fitted when ``prefit=True``), or "edda" for the 14 EDDA
        covariance models. Each needs ``predict_proba``; the likelihood rules also need
        ``log_likelihood(X, y)`` and ``n_parameters_`` (EDDA, FMM, FOIM, KERNEL).
    method : {"committee", "likelihood", "aic", "bic", "integrated"}, default="committee"
        How the weights are computed (see the module description).
    posteriors : {"resubstitution", "loo", "cv"}, default="resubstitution"
        For the committee: the posteriors of the training units entering C-hat. The paper uses
        the fitted models (resubstitution); "loo" uses exact leave-one-out posteriors (for a
        single-model EDDA by rank-one down-dates, otherwise by refits), "cv" out-of-fold ones
        from ``cv`` stratified folds.
    prefit : bool, default=False
        Use the estimators as fitted instead of fitting clones of them.
    n_models : int, optional
        When given, only the ``n_models`` most different of the estimators are combined, chosen
        on the training data by :func:`ordstat.combine.diverse_models` (the correspondence
        analysis of Brito et al. 2006, Table 3). With ``estimators="edda"`` and no
        ``n_models`` all 14 models that can be fitted are combined.
    cv : int, default=5
        Number of folds for ``posteriors="cv"``.
    random_state : int, Generator or None, default=None
        Seeds the fold assignment of ``posteriors="cv"``.
    n_jobs : int, optional
        joblib workers for the refits of ``posteriors="loo"``/``"cv"`` and of the
        leave-one-out error.
    classes : sequence, optional
        All class labels (their order is kept; otherwise the sorted labels). Passed to every
        estimator whose own ``classes`` is None, so that all agree.

    Attributes
    ----------
    estimators_ : list of fitted estimators
    weights_ : ndarray of shape (M,)
        On the simplex.
    classes_ : ndarray of shape (K,)
    log_scores_ : ndarray of shape (M,) or None
        The log of the unnormalised likelihood weights (None for the committee).
    error_matrix_ : ndarray of shape (M, M) or None
        C-hat of eq. 3.6 (committee only). Its diagonal is each model's Brier score on the
        posteriors that entered it: the mean over units of the squared distance between the
        model's class probabilities and the unit's class indicator, from 0 to 2.
    model_errors_ : ndarray of shape (M,) or None
        The misclassification rate of each model's posteriors entering C-hat (committee only;
        resubstitution, leave-one-out or cross-validated as ``posteriors`` says).
    chosen_ : ModelChoice
        With ``n_models`` or ``estimators="edda"``: the choice of models and the CA map.
    loo_error_ : float
        Set by :meth:`loo_error`: the leave-one-out misclassification rate of the whole
        procedure.

    Notes
    -----
    The paper estimates C by "plug-in empirical values" (eq. 3.6), read here as the fitted
    models' posteriors of the training units (``posteriors="resubstitution"``). On iris this
    gives 0.84 [lambda B] + 0.16 [lambda I] (paper, Table 4: .82/.18) with the same
    leave-one-out error .04; on thyroid 0.76/0.24 with error .0977 (paper .73/.27, .0930).
    With leave-one-out posteriors (``posteriors="loo"``) thyroid gives exactly the paper's
    .73/.27 and .0930, and iris .83/.17 and .04: the paper's posteriors were probably
    cross-validated.

    References
    ----------
    Brito, I., Celeux, G. and Sousa Ferreira, A. (2006). Combining methods in supervised
    classification: a comparative study on discrete and continuous problems. REVSTAT 4,
    201-225, section 3.
    Bishop, C. M. (1995). Neural Networks for Pattern Recognition. Oxford University Press
    (the committee of methods).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from ordstat.combine import SerialCombiner
    >>> from ordstat.gaussian import EDDA
    >>> X, y = load_iris(return_X_y=True)
    >>> comb = SerialCombiner([EDDA(model="EEI"), EDDA(model="EII")]).fit(X, y)
    >>> comb.describe()
    '0.84 [lambda B] + 0.16 [lambda I]'
    """

    _uses_class_order = False

    def __init__(self, estimators, method="committee", posteriors="resubstitution",
                 prefit=False, n_models=None, cv=5, random_state=None, n_jobs=None,
                 classes=None):
        self.estimators = estimators
        self.n_models = n_models
        self.method = method
        self.posteriors = posteriors
        self.prefit = prefit
        self.cv = cv
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.classes = classes

    _parameter_constraints = {
        "estimators": [list, tuple, str],
        "method": [StrOptions(set(_METHODS))],
        "posteriors": [StrOptions(set(_POSTERIORS))],
        "prefit": ["boolean"],
        "n_models": [Interval(Integral, 2, None, closed="left"), None],
        "cv": [Interval(Integral, 2, None, closed="left")],
        "random_state": ["random_state", np.random.Generator],
        "n_jobs": N_JOBS,
        "classes": ["array-like", None],
    }

    def fit(self, X, y):
        """Fit the models (unless ``prefit``) and compute their weights.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Whatever the estimators take (numbers, or categories for the discrete models).
        y : array-like of shape (n_samples,)
            Class labels.

        Returns
        -------
        self
        """
        self._validate_params()
        _check_estimators(self.estimators, self.method)
        classes = self.classes
        if classes is None and self.prefit and not isinstance(self.estimators, str):
            classes = getattr(self.estimators[0], "classes_", None)
        # Checked only: the estimators get X as given (e.g. a DataFrame of categories); the
        # EDDA models of "edda" need complete numeric predictors.
        numeric = isinstance(self.estimators, str)
        _, codes, _ = validate_fit(self, X, y, classes=classes,
                                   dtype=np.float64 if numeric else None,
                                   ensure_all_finite=numeric)
        labels = self.classes_[codes]
        self._order_guessed = classes is None and _guessed_order(y)
        if isinstance(self.estimators, str) or self.n_models is not None:
            candidates = self.estimators if isinstance(self.estimators, str) else [
                e if self.prefit else self._with_classes(e) for e in self.estimators]
            choice = diverse_models(candidates, X, labels, self.n_models or 14,
                                    classes=self.classes_)
            fitted = choice.chosen
            models = [self._with_classes(clone(e)) for e in fitted]
            self.chosen_ = choice
        elif self.prefit:
            for m, est in enumerate(self.estimators):
                check_is_fitted(est)
            fitted = list(self.estimators)
            models = [self._with_classes(clone(e)) for e in fitted]
        else:
            models = [self._with_classes(e) for e in self.estimators]
            fitted = [clone(e).fit(X, labels) for e in models]
        self._check_classes(fitted)
        seed = int(check_random_state(self.random_state).integers(2**31 - 1))
        self.estimators_ = fitted
        self.log_scores_ = self.error_matrix_ = self.model_errors_ = None
        self._exact = None
        if self.method == "committee":
            P = _posteriors(models, fitted, X, labels, codes, self.posteriors, self.cv, seed,
                            self.n_jobs, self.classes_)
            self.error_matrix_ = error_matrix(P, codes)
            self.model_errors_ = np.mean(P.argmax(axis=2) != codes, axis=1)
            self.weights_ = committee_weights(self.error_matrix_)
        else:
            self.log_scores_, self._exact = _log_likelihoods(fitted, X, labels, self.method)
            self.weights_ = _softmax(self.log_scores_)
        return self

    def _with_classes(self, est):
        if "classes" in est.get_params() and est.get_params()["classes"] is None:
            if uses_class_order(est) and getattr(self, "_order_guessed", False):
                # the combination sorted the labels; an ordinal member would take that as the
                # order without its own warning
                _warn(f"SerialCombiner: {model_name(est, 'short')} uses the order of the "
                      f"classes, which was guessed by sorting the labels: "
                      f"{list(self.classes_)}. Pass classes= (lowest to highest) or an "
                      "ordered Categorical y to state it.", OrderGuessWarning)
            return clone(est).set_params(classes=self.classes_)
        return est

    def _check_classes(self, fitted):
        """Every model knows the combination's classes, in any order (matched by label)."""
        for m, est in enumerate(fitted):
            class_columns(est, self.classes_, f"estimators[{m}]")

    def predict_proba(self, X):
        """sum_m weights_[m] p^m(x); columns follow ``classes_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, K)
        """
        validate_predict(self, X, dtype=None, ensure_all_finite=False)
        out = None
        for w, est in zip(self.weights_, self.estimators_):
            if w == 0:
                continue  # a weight-0 model may be undefined at x (e.g. an unseen state)
            p = w * aligned_proba(est, X, self.classes_)
            out = p if out is None else out + p
        return out

    def describe(self, names="paper", digits=2):
        """The combination as the paper writes it, e.g. "0.79 [lambda B] + 0.21 [lambda I]".

        Parameters
        ----------
        names : {"paper", "mclust", "short"}
            How EDDA models are named: Bensmail & Celeux's notation, mclust's three letters, or
            "EDDA(EEI)". Other models use their short name (FMM, FOIM, KERNEL, class name).
        digits : int
            Decimals of the weights; models whose weight rounds to zero are left out.
        """
        check_is_fitted(self)
        return describe_weights(self.weights_, [model_name(e, names) for e in self.estimators_],
                                digits)

    def summary(self, names="paper"):
        """The fitted combination: its formula, weights and per-model statistics.

        Parameters
        ----------
        names : {"paper", "mclust", "short"}
            How EDDA models are named (see :meth:`describe`).

        Returns
        -------
        ordstat._core.summary.Summary
            The info line ``combination`` (the formula as the paper writes it, e.g.
            "0.82 [lambda B] + 0.18 [lambda I]") and the table ``"models"``
            (``summary()["models"]``), indexed by model name, with the columns ``weight``,
            and for the committee ``misclassification`` (:attr:`model_errors_`) and ``brier``
            (the diagonal of C-hat, eq. 3.6: a squared error of probabilities, not a
            misclassification rate); for the likelihood rules ``log_score`` (the log of the
            unnormalised weight), ``nu`` (parameters) and for ``method="integrated"``
            ``exact`` (whether the integrated likelihood is exact or its BIC approximation).
            The notes say what each column is.
        """
        check_is_fitted(self)
        index = pd.Index([model_name(e, names) for e in self.estimators_], name="model")
        table = pd.DataFrame({"weight": self.weights_}, index=index)
        if self.method == "committee":
            errors = getattr(self, "model_errors_", None)  # None: pickled before it existed
            table["misclassification"] = np.nan if errors is None else errors
            table["brier"] = np.diag(self.error_matrix_)
            notes = [f"misclassification: the share of training units each model's "
                     f"{self.posteriors} posteriors misclassify.",
                     "brier: the mean squared distance between each model's class "
                     "probabilities and the true class's indicator (the diagonal of the error "
                     "matrix C, eq. 3.6 of Brito, Celeux & Sousa Ferreira 2006), from 0 (sure "
                     "and right) to 2 (sure and wrong); the weights minimise the combination's "
                     "own such error."]
            if self.weights_.max() > 1 - 1e-9:
                notes.append(f"All the weight is on {index[int(self.weights_.argmax())]}: no "
                             "convex combination of these models has a smaller squared error "
                             "on these posteriors (a finding, not a failure; models that err "
                             "differently, or posteriors='loo', may combine).")
        else:
            table["log_score"] = self.log_scores_
            table["nu"] = [getattr(e, "n_parameters_", np.nan) for e in self.estimators_]
            notes = [f"log_score: the log of each model's unnormalised {self.method} weight; "
                     "nu: its number of free parameters."]
            if self.method == "integrated":
                table["exact"] = self._exact
                notes.append("integrated likelihood: " + ", ".join(
                    f"{name} {'exact' if ex else 'BIC approximation'}"
                    for name, ex in zip(table.index, self._exact)))
        title = f"Serial combination by {self.method}"
        if self.method == "committee":
            title += f" ({self.posteriors} posteriors)"
        info = [("combination", self.describe(names)),
                ("classes", ", ".join(map(str, self.classes_)))]
        return Summary(title, info, {"models": table}, "\n".join(notes), digits=6)

    def loo_error(self, X, y):
        """Leave-one-out misclassification rate of the whole procedure (see
        :func:`serial_loo_error`); also stored as ``loo_error_``."""
        check_is_fitted(self)
        self.loo_error_ = serial_loo_error(self, X, y)
        return self.loo_error_

    def __repr__(self, N_CHAR_MAX=700):
        if hasattr(self, "weights_"):
            return f"SerialCombiner({self.method}: {self.describe()})"
        return super().__repr__(N_CHAR_MAX)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags


# --- leave-one-out error of the whole procedure ------------------------------------------------

def _loo_one(combiner, X, labels, i):
    n = len(labels)
    train = np.delete(np.arange(n), i)
    c = clone(combiner).set_params(prefit=False, n_jobs=None)
    c.fit(_safe_indexing(X, train), labels[train])
    return c.predict(_safe_indexing(X, [i]))[0]


def serial_loo_error(combiner, X, y, *, n_jobs=None):
    """Leave-one-out misclassification rate of a serial combination, weights included.

    For each unit i the models are refitted without it, their weights recomputed from the
    n - 1 remaining units by the combiner's rule, and unit i is classified by the combination:
    the error of the whole procedure, as in Tables 4 and 5 of Brito et al. (2006). When every
    model gives its leave-one-out fits itself (``loo_log_joint_pairs``: a single-model EDDA,
    by rank-one down-dates of the class scatter matrices and one batched M-step) and the rule
    does not itself need leave-one-out or out-of-fold posteriors, no model is refitted.

    Parameters
    ----------
    combiner : SerialCombiner
        Fitted or not; its parameters define the procedure (``prefit`` is ignored: the
        procedure refits the models).
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    n_jobs : int, optional
        joblib workers for the refits (default: the combiner's ``n_jobs``).

    Returns
    -------
    float
    """
    if not isinstance(combiner, SerialCombiner):
        raise TypeError(f"combiner must be a SerialCombiner; got {type(combiner).__name__}.")
    full = clone(combiner).set_params(prefit=False)
    if combiner.prefit and not isinstance(combiner.estimators, str):
        full.set_params(estimators=[clone(e) for e in combiner.estimators])
    full.fit(X, y)
    codes = full._encoding.encode(y)
    labels = full.classes_[codes]
    # The choice of models (n_models, "edda") is part of the procedure: refit it for each unit.
    fast = (full.posteriors == "resubstitution" or full.method != "committee") and \
        full.n_models is None and not isinstance(full.estimators, str) and \
        all(_downdates(e, full.method) for e in full.estimators_)
    if fast:
        predicted = _loo_predictions(full, X, codes)
        return float(np.mean(predicted != codes))
    n_jobs = combiner.n_jobs if n_jobs is None else n_jobs
    preds = parallel((delayed(_loo_one)(full, X, labels, i) for i in range(len(labels))),
                     n_jobs=n_jobs)
    return float(np.mean(np.asarray(preds, dtype=object) != labels.astype(object)))


def _downdates(est, method):
    """Whether ``est`` gives every leave-one-out fit at every unit itself (EDDA's down-dates),
    and its weight under ``method`` follows from them: the integrated likelihood of a model
    that has one of its own is not its BIC approximation."""
    return hasattr(est, "loo_log_joint_pairs") and not (
        method == "integrated" and hasattr(est, "log_integrated_likelihood"))


def _loo_predictions(full, X, codes):
    """Leave-one-out predicted codes of a combination of models that give their leave-one-out
    fits themselves: the weights are recomputed from the units other than i, no refit."""
    n = len(codes)
    labels = full.classes_[codes]
    # M x (n, n, K), the classes in the combination's order
    joints = [e.loo_log_joint_pairs(X, labels)[..., class_columns(e, full.classes_, "estimator")]
              for e in full.estimators_]
    post = np.stack([np.exp(j - logsumexp(j, axis=2, keepdims=True)) for j in joints])
    nus = np.array([float(e.n_parameters_) for e in full.estimators_])
    pred = np.empty(n, dtype=np.intp)
    for i in range(n):
        keep = np.delete(np.arange(n), i)
        if full.method == "committee":
            weights = committee_weights(error_matrix(post[:, i, keep], codes[keep]))
        else:
            ll = np.array([j[i, keep, codes[keep]].sum() for j in joints])
            scores = _log_score(full.method, ll, nus, n - 1)
            weights = _softmax(scores)
        pred[i] = int(np.argmax(weights @ post[:, i, i]))
    return pred
