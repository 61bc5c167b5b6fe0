"""Frank & Hall's K-1 binary problems and Cardoso & Pinto da Costa's data replication."""

from __future__ import annotations

import numpy as np
import pandas as pd
from joblib import delayed
from sklearn.base import BaseEstimator, is_classifier
from sklearn.linear_model import LogisticRegression
from sklearn.utils.validation import check_is_fitted

from .._core.parallel import parallel
from .._core.summary import Summary, class_info, class_table, cut_table, feature_names, one_line
from .._core.validation import (N_JOBS, HasMethods, Integral, Interval, Real, base_inputs,
                                check_positive_int, check_random_state, validate_fit,
                                validate_predict)
from ._base import (COMBINE_CONSTRAINT, ReplicaClassifierMixin, answer, check_base_estimator,
                    fit_binary, fitted_name)


def _default_binary():
    return LogisticRegression(max_iter=1000)


def _check_binary_learner(estimator):
    """A regressor answers the binary problems with numbers that are never the label 1, so
    every unit would get one class: refused."""
    if is_classifier(estimator) or hasattr(estimator, "predict_proba") \
            or hasattr(estimator, "decision_function"):
        return estimator
    raise TypeError(
        f"estimator must be a classifier (the binary problems Y > C_k have labels 0 and 1); "
        f"{type(estimator).__name__} is not one (no predict_proba or decision_function). Use "
        "e.g. LogisticRegression() instead of LinearRegression()."
    )


def _base_inputs(estimator):
    """What the binary learner takes (missing values, categories), from its tags."""
    return base_inputs([estimator if estimator is not None else _default_binary()])


class FrankHallClassifier(ReplicaClassifierMixin, BaseEstimator):
    """Ordinal classification by K-1 binary problems Y > C_k (Frank & Hall).

    Each binary problem k labels the units of classes above C_k positive and is solved by a
    clone of ``estimator``. Two combinations:

    - ``combine="proba"``: P(C_1) = 1 - P(Y > C_1), P(C_i) = P(Y > C_{i-1}) - P(Y > C_i),
      P(C_K) = P(Y > C_{K-1}). Since the binary models are fitted separately a difference can
      be negative; negative values are set to 0 and the row renormalised to sum to 1.
    - ``combine="count"``: f(x) = C_i with i = 1 + sum_k [f_k(x) = C+], the counting rule on the
      binary predictions (``predict_proba`` then puts probability 1 on that class).

    Parameters
    ----------
    estimator : scikit-learn classifier, default=None
        Binary learner cloned for each problem; ``LogisticRegression(max_iter=1000)`` if None.
        ``combine="proba"`` uses its ``predict_proba`` (its ``predict`` if it has none).
    combine : {"proba", "count"}, default="proba"
    classes : sequence, optional
        All class labels from lowest to highest.
    n_jobs : int, optional
        Binary problems fitted in parallel through joblib.
    random_state : int, Generator or None
        Seeds each clone (when it has ``random_state``); same seed, same fit, for any n_jobs.

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
    estimators_ : list of length K-1
        Fitted binary classifiers (a float 0.0/1.0 for a problem with one class in the data).

    References
    ----------
    Frank, E. and Hall, M. (2001), "A simple approach to ordinal classification", ECML.
    Dissertation "Ensemble methods for ordinal data classification", section 3.1.4.
    """

    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "combine": COMBINE_CONSTRAINT,
        "classes": ["array-like", None],
        "n_jobs": N_JOBS,
        "random_state": ["random_state", np.random.Generator],
    }

    def __init__(self, estimator=None, combine="proba", classes=None, n_jobs=None,
                 random_state=None):
        self.estimator = estimator
        self.combine = combine
        self.classes = classes
        self.n_jobs = n_jobs
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None):
        """Fit the K-1 binary problems.

        Parameters
        ----------
        X : array-like of shape (n, p)
        y : array-like of shape (n,), ordered labels
        sample_weight : array-like of shape (n,), optional
            Passed to every binary fit (whose estimator must take ``sample_weight``).

        Returns
        -------
        self
        """
        self._validate_params()
        est = _check_binary_learner(
            check_base_estimator(self.estimator, _default_binary(), sample_weight))
        finite, categorical = _base_inputs(self.estimator)
        checked, codes, w = validate_fit(self, X, y, sample_weight, classes=self.classes,
                                         ensure_all_finite=finite,
                                         dtype=None if categorical else np.float64)
        # a learner that reads categories gets X as given (a DataFrame keeps its dtypes)
        X = X if categorical else checked
        sw = None if sample_weight is None else w
        seeds = check_random_state(self.random_state).integers(2**31 - 1, size=self.n_classes_)
        self.estimators_ = parallel(
            (delayed(fit_binary)(est, X, (codes > k).astype(np.intp), sw, seeds[k])
             for k in range(self.n_classes_ - 1)), n_jobs=self.n_jobs)
        return self

    def _replica_upper(self, X, hard):
        finite, categorical = _base_inputs(self.estimator)
        checked = validate_predict(self, X, ensure_all_finite=finite,
                                   dtype=None if categorical else np.float64)
        X = X if categorical else checked
        return np.column_stack([answer(e, X, hard) for e in self.estimators_])

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        finite, categorical = _base_inputs(self.estimator)
        tags.input_tags.allow_nan = finite == "allow-nan"
        tags.input_tags.categorical = categorical
        return tags

    def summary(self, digits=4):
        """The model described for reading: its classes and its K-1 binary problems.

        Parameters
        ----------
        digits : int, default=4
            Significant digits of the printed numbers.

        Returns
        -------
        Summary
            Printable (``str``, and HTML in Jupyter); its tables are DataFrames:
            ``summary["classes"]`` (training units per class) and ``summary["replicas"]``
            (units below and above each cut and the ``model`` that answers it).
        """
        check_is_fitted(self)
        digits = check_positive_int(digits, "digits")
        info = class_info(self, digits) + [
            ("binary estimator", one_line(self.estimator if self.estimator is not None
                                          else _default_binary())),
            ("combine", self.combine)]
        replicas = cut_table(self, model=[fitted_name(e) for e in self.estimators_])
        return Summary("Frank & Hall: K-1 binary problems Y > C_k", info,
                       {"classes": class_table(self), "replicas": replicas}, "", digits)


def replicate(X, n_classes, h):
    """Cardoso & Pinto da Costa's full replication: K-1 copies of X, copy q extended by h e_q.

    e_0 is the zero vector of length K-2; e_q (q >= 1) has h at position q-1. Returns the
    (n (K-1), p + K-2) matrix, copies stacked in order q = 0..K-2.
    """
    n = X.shape[0]
    m = n_classes - 1
    extra = np.zeros((m, m - 1))
    if m > 1:
        extra[np.arange(1, m), np.arange(m - 1)] = h
    return np.vstack([np.hstack([X, np.tile(extra[q], (n, 1))]) for q in range(m)])


def replica_members(codes, n_classes, s):
    """Which units enter which replica, (n, K-1) bool (Cardoso & Pinto da Costa 2007).

    Replica q (0-based; it asks Y > C_{q+1}) takes the units of the s classes on each side of
    its boundary, classes C_{q-s+2} .. C_{q+s+1} in the paper's 1-based numbering, i.e. codes
    c with q - s + 1 <= c <= q + s: a unit of code c enters the replicas q with
    c - s <= q <= c + s - 1. s = K-1 is full replication (every unit in every replica)."""
    codes = np.asarray(codes)[:, None]
    q = np.arange(n_classes - 1)[None, :]
    return (codes >= q - s + 1) & (codes <= q + s)


def check_replication_width(s, n_classes):
    """``s`` as the number of classes on each side of a replica's boundary (None: K-1)."""
    if s is None:
        return n_classes - 1
    if s > n_classes - 1:
        raise ValueError(
            f"s must be between 1 and K-1 = {n_classes - 1} (the number of classes on each "
            f"side of a replica's boundary, at most the number of classes minus one); got "
            f"s={s} with {n_classes} classes. Use s=None for full replication."
        )
    return int(s)


class DataReplicationClassifier(ReplicaClassifierMixin, BaseEstimator):
    """Data replication method (Cardoso & Pinto da Costa 2007).

    Every unit x becomes up to K-1 points z_q = (x, e_q) in a space with K-2 extra coordinates,
    point q labelled positive when Y > C_{q+1}; one binary classifier is fitted on all of them.
    For a linear learner (logistic regression, linear SVM) the boundary w x + v e_q + b = 0
    projects to K-1 *parallel* boundaries in the original space, one per replica. ``s`` bounds
    the replicas a unit enters: replica q (boundary between C_{q+1} and C_{q+2}) takes only the
    units of the s classes on each side of its boundary (:func:`replica_members`), so a unit of
    class C_c enters the replicas of the boundaries within s classes of it; s = K-1 is full
    replication, the only case the dissertation uses. A new unit is always replicated K-1
    times to be classified.

    Parameters
    ----------
    estimator : scikit-learn classifier, default=None
        The binary learner; ``LogisticRegression(max_iter=1000)`` if None.
    h : float, default=1.0
        Value of the extra coordinate (the paper's constant h > 0).
    s : int or None, default=None
        Number of classes on each side of a replica's boundary whose units enter the replica,
        1 <= s <= K-1 (the paper's s); None means K-1, full replication. A value above K-1 is
        an error (checked in ``fit``, once K is known).
    combine : {"count", "proba"}, default="count"
        How the K-1 answers give the class (see :class:`FrankHallClassifier`).
    classes : sequence, optional
    random_state : int, Generator or None

    Attributes
    ----------
    estimator_ : the fitted binary classifier.
    n_replicated_ : ndarray of shape (K-1,)
        Units in each replica of the training sample.

    References
    ----------
    Cardoso, J. S. and Pinto da Costa, J. F. (2007), "Learning to classify ordinal data: the
    data replication method", JMLR 8. Dissertation "Ensemble methods for ordinal data
    classification", section 3.1.5.
    """

    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "h": [Interval(Real, 0, None, closed="neither")],
        # the upper bound K-1 is checked in fit
        "s": [Interval(Integral, 1, None, closed="left"), None],
        "combine": COMBINE_CONSTRAINT,
        "classes": ["array-like", None],
        "random_state": ["random_state", np.random.Generator],
    }

    def __init__(self, estimator=None, h=1.0, s=None, combine="count", classes=None,
                 random_state=None):
        self.estimator = estimator
        self.h = h
        self.s = s
        self.combine = combine
        self.classes = classes
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None):
        """Fit the binary classifier on the replicated data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Ordered class labels.
        sample_weight : array-like of shape (n_samples,), optional
            Unit weights, each unit's weight given to all its replicas in the binary fit
            (whose estimator must take ``sample_weight``).

        Returns
        -------
        self
        """
        self._validate_params()
        est = _check_binary_learner(
            check_base_estimator(self.estimator, _default_binary(), sample_weight))
        X, codes, w = validate_fit(self, X, y, sample_weight, classes=self.classes,
                                   ensure_all_finite=_base_inputs(self.estimator)[0])
        s = check_replication_width(self.s, self.n_classes_)
        members = replica_members(codes, self.n_classes_, s)
        # the copies stacked in order q = 0..K-2, each with its members in the units' order
        # (with s = K-1 exactly the full replication)
        unit, copy = np.nonzero(members.T)[::-1]
        Z = replicate(X, self.n_classes_, self.h)[copy * X.shape[0] + unit]
        z = (codes[unit] > copy).astype(np.intp)
        sw = None if sample_weight is None else w[unit]
        seed = check_random_state(self.random_state).integers(2**31 - 1)
        self.estimator_ = fit_binary(est, Z, z, sw, seed)
        self.n_replicated_ = np.bincount(copy, minlength=self.n_classes_ - 1)
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # parallel boundaries cannot separate sklearn's unordered blobs
        tags.classifier_tags.poor_score = True
        # the replicated sample is numeric: missing values pass, categories do not
        tags.input_tags.allow_nan = _base_inputs(self.estimator)[0] == "allow-nan"
        return tags

    def summary(self, digits=4):
        """The model described for reading: its classes, the replicated sample and, for a
        linear binary learner, the K-1 parallel boundaries.

        Parameters
        ----------
        digits : int, default=4
            Significant digits of the printed numbers (the tables keep full precision).

        Returns
        -------
        Summary
            Printable (``str``, and HTML in Jupyter); its tables are DataFrames:
            ``summary["classes"]`` (training units per class), ``summary["replicas"]`` (units
            below and above each cut; with a linear learner its ``intercept``) and, with a
            linear learner (one that has ``coef_`` and ``intercept_``),
            ``summary["coefficients"]`` (w, shared by every replica).
        """
        check_is_fitted(self)
        digits = check_positive_int(digits, "digits")
        k, p = self.n_classes_, self.n_features_in_
        info = class_info(self, digits) + [
            ("binary estimator", one_line(self.estimator if self.estimator is not None
                                          else _default_binary())),
            ("h", f"{self.h:.{digits}g}"), ("combine", self.combine),
            ("s", str(check_replication_width(self.s, k))),
            ("replicated sample", f"{int(self.n_replicated_.sum())} rows, {p + k - 2} columns")]
        tables = {"classes": class_table(self)}
        coef = np.ravel(getattr(self.estimator_, "coef_", []))
        notes = ""
        if coef.shape == (p + k - 2,) and hasattr(self.estimator_, "intercept_"):
            # copy q adds h v_q (v_0 = 0) to the intercept: the same w, K-1 offsets
            b = float(np.ravel(self.estimator_.intercept_)[0])
            intercepts = b + self.h * np.concatenate([[0.0], coef[p:]])
            tables["replicas"] = cut_table(self, intercept=intercepts)
            tables["coefficients"] = pd.DataFrame(
                {"coefficient": coef[:p]}, index=pd.Index(feature_names(self), name="feature"))
            notes = ("Replica k answers 'above' where sum_j coefficient_j x_j + intercept_k > 0: "
                     "K-1 parallel boundaries.")
        else:
            tables["replicas"] = cut_table(self)
            info.append(("binary model", fitted_name(self.estimator_)))
        return Summary("Data replication (Cardoso & Pinto da Costa)", info, tables, notes,
                       digits)

    def _replica_upper(self, X, hard):
        X = validate_predict(self, X, ensure_all_finite=_base_inputs(self.estimator)[0])
        n = X.shape[0]
        Z = replicate(X, self.n_classes_, self.h)
        return answer(self.estimator_, Z, hard).reshape(self.n_classes_ - 1, n).T
