"""The boosting family of Tutz & Hechenbichler (2003): nominal Discrete and Real AdaBoost,
fixed-split boosting, and Ordinal Discrete and Real AdaBoost, as one estimator whose variant is
a parameter. The arithmetic lives in small module functions (error indicators, the weights c_m,
the real-valued f_j, the second-stage combination of dichotomies); the estimator only loops.
"""

from __future__ import annotations


import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from .._core.base import OrdinalClassifierMixin
from .._core.summary import Summary, class_info, class_table, cut_names, cut_table, one_line
from .._core.validation import (N_JOBS, HasMethods, Integral, Interval, StrOptions,
                                check_positive_int, validate_fit, validate_predict)
from .._core.warnings import warn as _warn
from ..trees import OrdinalTreeClassifier
from ._common import (base_predict, base_proba, code_predictors, coded_predictors, fit_base,
                      learning_size, missing_values, run_parallel, spawn_seeds,
                      takes_categories)

__all__ = ["OrdinalBoostingClassifier", "ERROR_INDICATORS", "VARIANTS"]

VARIANTS = ("discrete", "real", "fixed_split_discrete", "fixed_split_real",
            "ordinal_discrete", "ordinal_real")
BOOST_BY = ("resample", "weight")


# -- error indicators epsilon_i of Ordinal Discrete AdaBoost (section 3.2) --------------------
def _zero_one(pred, true, k):
    return (pred != true).astype(np.float64)  # eq. (5)


def _distance(pred, true, k):
    return np.abs(pred - true) / (k - 1.0)  # eq. (3), standardised


def _unstandardized(pred, true, k):
    return np.abs(pred - true).astype(np.float64)  # eq. (4)


def _squared(pred, true, k):
    return ((pred - true) / (k - 1.0)) ** 2


#: name -> epsilon_i(predicted codes, true codes, K)
ERROR_INDICATORS = {"zero_one": _zero_one, "distance": _distance,
                    "unstandardized": _unstandardized, "squared": _squared}
REAL_CRITERIA = ("misclassification", "distance")
#: variant -> (the errors it takes, its default); the other variants take none
_ERRORS = {"ordinal_discrete": (tuple(ERROR_INDICATORS), "distance"),
           "ordinal_real": (REAL_CRITERIA, "misclassification")}


def discrete_weight(e, k, n, error="zero_one", ordinal=False):
    """c_m of Discrete AdaBoost from the weighted error e_m = sum_i w_i epsilon_i.

    The 0-1 error gets the k-class correction c_m = log((1 - e)(k - 1) / e) (zero when e
    reaches (k - 1)/k, the error of always predicting the dominant class); the distance
    errors keep c_m = log((1 - e) / e), the unstandardised distance (4) through its
    standardised value e / (k - 1) ("the same value results for the standardized form").
    The denominator gets 1/n_L in nominal boosting and 1/(n_L (k - 1)) in Ordinal AdaBoost,
    so that c_m stays finite when e_m = 0 (Tutz & Hechenbichler 2003, sections 2 and 3.2).
    """
    correction = 1.0 / (n * (k - 1)) if ordinal else 1.0 / n
    if error == "zero_one":
        return float(np.log((1.0 - e) * (k - 1) / (e + correction)))
    if error == "unstandardized":
        e = e / (k - 1.0)
    return float(np.log((1.0 - e) / (e + correction)))


def real_scores(scores, n):
    """f_j = 0.5 log(s_j / (prod_{l != j} s_l)^(1/(k-1))) with every score s raised by 1/n_L
    (Real AdaBoost's multi-class f, Tutz & Hechenbichler 2003, section 3.2; for two classes
    0.5 log((p + 1/n_L) / (1 - p + 1/n_L)), section 2). ``scores``: (n_units, k)."""
    logs = np.log(np.asarray(scores, dtype=np.float64) + 1.0 / n)
    k = logs.shape[1]
    return 0.5 * (logs - (logs.sum(axis=1, keepdims=True) - logs) / (k - 1))


def real_true_class_distance(scores, true, n):
    """f_{Y_i} of Ordinal Real AdaBoost with the distance criterion:
    0.5 log(s_Y / (sum_{l != Y} d_l s_l / sum_{l != Y} d_l)), d_l = |l - Y_i|."""
    s = np.asarray(scores, dtype=np.float64) + 1.0 / n
    k = s.shape[1]
    d = np.abs(np.arange(k)[None, :] - true[:, None]).astype(np.float64)
    rows = np.arange(s.shape[0])
    return 0.5 * np.log(s[rows, true] / ((d * s).sum(axis=1) / d.sum(axis=1)))


def split_scores(low, k, weights=None):
    """Second-stage aggregation of the K-1 dichotomies (Tutz & Hechenbichler 2003, eq. 2).

    ``low`` (K-1, n) is 1 where split r (classes 0..r against r+1..K-1) predicts the lower
    group. Split r gives 1/(r+1) to each class of the predicted lower group, or 1/(K-1-r) to
    each class of the upper group; ``weights`` (K-1, n), e.g. the prediction votes PV^(r),
    multiply the contributions. Returns the scores (n, K); argmax is the class."""
    low = np.asarray(low, dtype=np.float64)
    n = low.shape[1]
    scores = np.zeros((n, k))
    for r in range(k - 1):
        w = np.ones(n) if weights is None else weights[r]
        scores[:, : r + 1] += (w * low[r] / (r + 1))[:, None]
        scores[:, r + 1:] += (w * (1.0 - low[r]) / (k - 1 - r))[:, None]
    return scores


def split_probability_scores(p_low, k):
    """Class scores (6) of Ordinal Real AdaBoost from p^(r)(x) = P(Y <= r | x), (K-1, n):
    y_j = sum_r [j <= r] p^(r) + [j > r] (1 - p^(r))."""
    p_low = np.asarray(p_low, dtype=np.float64)
    scores = np.zeros((p_low.shape[1], k))
    for r in range(k - 1):
        scores[:, : r + 1] += p_low[r][:, None]
        scores[:, r + 1:] += (1.0 - p_low[r])[:, None]
    return scores


# -- one cycle: a k-class tree, or the K-1 dichotomy trees of the ordinal variants ----------
def _fit_cycle(template, X, codes, k, w, rng, boost_by, ordinal, coding=None, n_l=None):
    """One cycle's model from the current weights ``w`` (summing to 1) of the units: a
    resample of size ``n_l`` (n_L, the learning set's size; default the rows) or the weights
    scaled to sum to n_L."""
    n = X.shape[0]
    n_l = n if n_l is None else n_l
    seed = int(rng.integers(0, np.iinfo(np.int32).max))
    if boost_by == "resample":
        rows = rng.choice(n, size=n_l, replace=True, p=w)
        Xs, ys, ws = X[rows], codes[rows], None
    else:
        Xs, ys, ws = X, codes, w * n_l
    if not ordinal:
        return fit_base(template, Xs, ys, k, seed, ws, coding=coding)
    return [fit_base(template, Xs, (ys > r).astype(np.intp), 2, seed + r, ws, coding=coding)
            for r in range(k - 1)]


def _cycle_output(model, X, k, real, ordinal):
    """Discrete: predicted codes (n,); real: class scores (n, k)."""
    if not ordinal:
        return base_proba(model, X, k) if real else base_predict(model, X)
    if real:
        p_low = np.array([base_proba(t, X, 2)[:, 0] for t in model])
        return split_probability_scores(p_low, k)
    low = np.array([base_predict(t, X) == 0 for t in model])
    return np.argmax(split_scores(low, k), axis=1)


def _boost(template, X, codes, k, n_cycles, seed, boost_by, real, ordinal, error,
           coding=None, sample_weight=None):
    """The boosting loop; returns models, c_m (None for real boosting), e_m and the weights
    w before every cycle (one row per cycle plus the final weights). ``coding``: of the
    categorical columns of ``X`` (see :func:`fit_base`). The first weights are the units'
    ``sample_weight`` normalised (uniform without), and n_L is :func:`learning_size`."""
    rng = np.random.default_rng(seed)
    n = X.shape[0]
    w = np.full(n, 1.0 / n) if sample_weight is None else sample_weight / sample_weight.sum()
    n_l = learning_size(sample_weight, n)
    models, c, errors, history = [], [], [], [w]
    for _ in range(n_cycles):
        model = _fit_cycle(template, X, codes, k, w, rng, boost_by, ordinal, coding, n_l)
        out = _cycle_output(model, X, k, real, ordinal)
        if real:
            if ordinal and error == "distance":
                f_true = real_true_class_distance(out, codes, n_l)
            else:
                f_true = real_scores(out, n_l)[np.arange(n), codes]
            errors.append(float(np.sum(w * (np.argmax(out, axis=1) != codes))))
            update = w * np.exp(-f_true)
        else:
            eps = ERROR_INDICATORS[error](out, codes, k)
            e = float(np.sum(w * eps))
            cm = discrete_weight(e, k, n_l, error, ordinal)
            if cm <= 0:
                if not models:  # no better than the trivial rule: keep one tree, unweighted
                    models.append(model)
                    c.append(1.0)
                    errors.append(e)
                break
            errors.append(e)
            c.append(cm)
            update = w * np.exp(cm * eps)
        models.append(model)
        w = update / update.sum()
        history.append(w)
    return {"models": models, "c": None if real else np.array(c), "errors": np.array(errors),
            "weights": np.array(history)}


def _run_split(task):
    """Binary boosting of dichotomy r (fixed-split boosting), for joblib."""
    template, X, codes, r, n_cycles, seed, boost_by, real, coding, weight = task
    return _boost(template, X, (codes > r).astype(np.intp), 2, n_cycles, seed, boost_by, real,
                  False, "zero_one", coding, weight)


def _stage_contributions(run, X, k, real, n_train, n_jobs=None):
    """Per-cycle contributions (M, n, k) to the final argmax: c_m I(C_m(x) = j) or f_j. The
    cycles' trees predict in ``n_jobs`` threads (their compiled walk releases the GIL)."""
    out = []
    outputs = Parallel(n_jobs=n_jobs, require="sharedmem")(
        delayed(_cycle_output)(model, X, k, real, run["ordinal"]) for model in run["models"])
    for m, o in enumerate(outputs):
        if real:
            out.append(real_scores(o, n_train))
        else:
            one_hot = np.zeros((X.shape[0], k))
            one_hot[np.arange(X.shape[0]), o] = run["c"][m]
            out.append(one_hot)
    return np.array(out)


class OrdinalBoostingClassifier(OrdinalClassifierMixin, BaseEstimator):
    """Boosting of classification trees for an ordered response, after Tutz & Hechenbichler
    (2003): nominal and ordinal, discrete and real, the variant a parameter.

    Parameters
    ----------
    variant : str, default="ordinal_discrete"
        - ``"discrete"``: nominal Discrete AdaBoost with K-class trees and the k-class
          correction c_m = log((1 - e_m)(k - 1) / (e_m + 1/n_L)) (section 2 and 3.2);
        - ``"real"``: nominal Real AdaBoost with the multi-class f_j (section 3.2);
        - ``"fixed_split_discrete"``, ``"fixed_split_real"``: each dichotomy
          {1..r} | {r+1..k} boosted separately (binary Discrete / Real AdaBoost), the K-1
          results combined by eq. (2), optionally weighted by the prediction votes PV^(r)
          (``weighted``; section 3.1);
        - ``"ordinal_discrete"``: Ordinal Discrete AdaBoost: in every cycle the K-1
          dichotomy trees are combined by eq. (2), the weights updated with an ordinal
          error indicator (``error``);
        - ``"ordinal_real"``: Ordinal Real AdaBoost with the scores (6) and the
          misclassification or distance criterion (``error``).
    error : str, optional
        ``"ordinal_discrete"``: ``"zero_one"`` (5), ``"distance"`` (3, standardised; the
        default), ``"unstandardized"`` (4) or ``"squared"``. ``"ordinal_real"``:
        ``"misclassification"`` (default) or ``"distance"``. Must be None for the other
        variants.
    n_estimators : int, default=50
        Number of boosting cycles M (per dichotomy for fixed-split boosting). Discrete
        boosting stops early when c_m <= 0, with a warning (for fixed-split boosting, naming
        every dichotomy that stopped and its cycles).
    max_leaf_nodes : int, default=5
        Size of the default base tree (Gini, grown best first to this many leaves).
    estimator : estimator, optional
        Base classifier instead of the default tree (cloned, fitted on class codes, with
        ``sample_weight`` when ``boost_by="weight"``).
    boost_by : {"resample", "weight"}, default="resample"
        Draw each learning set L_m from the current weights (with replacement), or fit the
        base tree with the weights (scaled to sum to n_L).
    weighted : bool, default=False
        Fixed-split discrete boosting: weight the second-stage vote by PV^(r).
    n_jobs : int, optional
        Jobs for the K-1 independent runs of fixed-split boosting (other variants are
        sequential). Same result for any value.
    random_state : None, int or numpy Generator
    progress : bool, default=False
        tqdm progress bar over the fixed-split runs.
    classes : sequence, optional
        All class labels from lowest to highest.

    Attributes
    ----------
    estimators_ : list
        Per cycle the fitted tree, or the list of K-1 dichotomy trees; for fixed-split
        variants a list (one per dichotomy) of lists of trees.
    estimator_weights_ : ndarray or list of ndarray
        c_m of the discrete variants (per dichotomy for fixed-split); None for real ones.
    estimator_errors_ : ndarray or list of ndarray
        Weighted error e_m of each cycle (the weighted misclassification for real variants).
    boost_weights_ : ndarray of shape (M + 1, n_samples), or a list of them
        The weights w_i before each cycle and after the last one.
    n_estimators_ : int
        Number of cycles kept (the largest over dichotomies for fixed-split).

    Notes
    -----
    Readings of the paper where it leaves a choice:

    - the unstandardised distance (4) updates the weights with ``epsilon_i = |C - Y|`` but takes
      c_m from the standardised error e_m / (k - 1) (for e_m > 1 the formula
      log((1 - e_m) / e_m) is undefined; the paper says the standardised form gives the same
      value);
    - Ordinal Real AdaBoost with the distance criterion needs the true class in f_j, so it
      changes only the weight update; predictions use argmax_j sum_m f_j with the
      misclassification form of f_j;
    - discrete boosting stops when c_m <= 0 (a weighted error no better than the trivial rule),
      keeping the first tree if it is the first cycle;
    - ``predict_proba`` normalises the final scores; the paper only defines the argmax.

    References
    ----------
    Tutz, G. & Hechenbichler, K. (2003). Aggregating classifiers with ordinal response
    structure. Discussion Paper 359, SFB 386, LMU Munich; sections 2-4.
    Freund, Y. & Schapire, R. (1996). Experiments with a new boosting algorithm.
    Friedman, J., Hastie, T. & Tibshirani, R. (2000). Additive logistic regression: a
    statistical view of boosting. Annals of Statistics 28, 337-374.

    Examples
    --------
    >>> import numpy as np
    >>> from ordstat.ensemble import OrdinalBoostingClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(150, 2))
    >>> y = np.digitize(X[:, 0] + X[:, 1], [-1, 0, 1])
    >>> boost = OrdinalBoostingClassifier(n_estimators=10, random_state=0).fit(X, y)
    >>> len(list(boost.staged_predict(X[:3])))
    10
    """

    _parameter_constraints: dict = {
        "variant": [StrOptions(set(VARIANTS))],
        # which error goes with which variant is checked in fit
        "error": [StrOptions(set(ERROR_INDICATORS) | set(REAL_CRITERIA)), None],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "max_leaf_nodes": [Interval(Integral, 2, None, closed="left")],
        "estimator": [HasMethods(["fit", "predict_proba"]), None],
        "boost_by": [StrOptions(set(BOOST_BY))],
        "weighted": ["boolean"],
        "n_jobs": N_JOBS,
        "random_state": ["random_state", np.random.Generator],
        "progress": ["boolean"],
        "classes": ["array-like", None],
    }

    def __init__(self, variant="ordinal_discrete", error=None, n_estimators=50,
                 max_leaf_nodes=5, estimator=None, boost_by="resample", weighted=False,
                 n_jobs=None, random_state=None, progress=False, classes=None):
        self.variant = variant
        self.error = error
        self.n_estimators = n_estimators
        self.max_leaf_nodes = max_leaf_nodes
        self.estimator = estimator
        self.boost_by = boost_by
        self.weighted = weighted
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.progress = progress
        self.classes = classes

    def _error_indicator(self):
        """The error of the variant (its default when ``error`` is None): the check that
        involves two parameters, after ``_validate_params``."""
        if self.variant not in _ERRORS:
            if self.error is not None:
                raise ValueError(f"error is only used by variant='ordinal_discrete' or "
                                 f"'ordinal_real'; got error={self.error!r} with "
                                 f"variant={self.variant!r}. Leave it None.")
            return "zero_one"
        choices, default = _ERRORS[self.variant]
        error = default if self.error is None else self.error
        if error not in choices:
            raise ValueError(f"error must be one of {list(choices)} with "
                             f"variant={self.variant!r}; got {self.error!r}.")
        return error

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = missing_values(self.estimator) == "allow-nan"
        tags.input_tags.categorical = takes_categories(self.estimator)
        return tags

    def fit(self, X, y, sample_weight=None):
        """Run the boosting cycles.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Missing values (NaN) are kept when the base estimator accepts them (the default
            ordinal trees do, see :class:`~ordstat.trees.OrdinalTreeClassifier`). String and
            Categorical columns are coded once for all cycles as in
            :meth:`~ordstat.ensemble.OrdinalBaggingClassifier.fit`.
        y : array-like of shape (n_samples,)
            Ordered class labels.
        sample_weight : array-like of shape (n_samples,), optional
            Unit weights (finite, non-negative, not all zero). The boosting weights start
            from them, normalised to sum to 1, instead of the uniform 1/n of Tutz &
            Hechenbichler (2003): the usual generalisation of AdaBoost, whose multiplicative
            updates then act on them (a unit of weight 0 keeps weight 0 and is never drawn).
            Whole-number weights are read as the counts of a frequency table: n_L (the size
            of each resample, the sum the weights are scaled to with ``boost_by="weight"``,
            and the 1/n_L of c_m and f_j) is then their sum, so that with
            ``boost_by="weight"`` the ensemble is that of the table expanded into repeated
            rows (with resampling, it draws as that one would, in distribution). Other
            weights keep n_L = n.

        Returns
        -------
        self
        """
        self._validate_params()
        error = self._error_indicator()
        if self.weighted and self.variant != "fixed_split_discrete":
            raise ValueError("weighted=True (prediction-vote weights PV^(r)) applies to "
                             f"variant='fixed_split_discrete' only; got {self.variant!r}.")
        n_cycles = self.n_estimators
        template = self.estimator if self.estimator is not None else OrdinalTreeClassifier(
            criterion="gini", max_leaf_nodes=self.max_leaf_nodes, min_split=2, min_bucket=1,
            cp=-1.0, xval=0)
        # categorical columns coded once for all trees, as the tree codes them
        coding, X = code_predictors(self, X, template)
        X, codes, w = validate_fit(self, X, y, sample_weight, classes=self.classes,
                                   ensure_all_finite=missing_values(self.estimator))
        w = None if sample_weight is None else w
        k = self.n_classes_
        self._n_train = learning_size(w, X.shape[0])  # n_L of the f_j at prediction
        real = self.variant.endswith("real")
        self._error = error
        if self.variant.startswith("fixed_split"):
            seeds = spawn_seeds(self.random_state, k - 1)
            tasks = [(template, X, codes, r, n_cycles, seeds[r], self.boost_by, real, coding,
                      w) for r in range(k - 1)]
            runs = run_parallel(_run_split, tasks, self.n_jobs, self.progress,
                                desc="dichotomies")
            for run in runs:
                run["ordinal"] = False
            self._runs = runs
            self.estimators_ = [run["models"] for run in runs]
            self.estimator_weights_ = None if real else [run["c"] for run in runs]
            self.estimator_errors_ = [run["errors"] for run in runs]
            self.boost_weights_ = [run["weights"] for run in runs]
            self.n_estimators_ = max(len(run["models"]) for run in runs)
        else:
            seed = spawn_seeds(self.random_state, 1)[0]
            ordinal = self.variant.startswith("ordinal")
            run = _boost(template, X, codes, k, n_cycles, seed, self.boost_by, real, ordinal,
                         error, coding, w)
            run["ordinal"] = ordinal
            self._runs = [run]
            self.estimators_ = run["models"]
            self.estimator_weights_ = run["c"]
            self.estimator_errors_ = run["errors"]
            self.boost_weights_ = run["weights"]
            self.n_estimators_ = len(run["models"])
        if not real:
            self._warn_early_stop(n_cycles)
        return self

    def _warn_early_stop(self, n_cycles):
        """Warn when a discrete run stopped before ``n_cycles``: for fixed-split boosting when
        any dichotomy did (the others may run on), naming each and its cycles."""
        reason = "the weighted error reached the level of the trivial rule (c_m <= 0)."
        if not self.variant.startswith("fixed_split"):
            if self.n_estimators_ < n_cycles:
                _warn(f"boosting stopped after {self.n_estimators_} of {n_cycles} cycles: "
                      f"{reason}", UserWarning)
            return
        stopped = [f"{cut} after {len(run['models'])} of {n_cycles} cycles"
                   for cut, run in zip(cut_names(self), self._runs)
                   if len(run["models"]) < n_cycles]
        if stopped:
            _warn(f"boosting stopped early in {len(stopped)} of {len(self._runs)} dichotomies "
                  f"({', '.join(stopped)}): {reason}", UserWarning)

    # -- summary ---------------------------------------------------------------------------
    def summary(self, digits=4):
        """The boosting run described for reading: the variant and its error, the cycles kept,
        and each cycle's weighted error and weight c_m.

        Parameters
        ----------
        digits : int, default=4
            Significant digits of the printed numbers (the tables keep full precision).

        Returns
        -------
        Summary
            Printable (``str``, and HTML in Jupyter); its tables are DataFrames:
            ``summary["classes"]`` (training units per class), ``summary["cycles"]`` (one row
            per cycle: ``error`` e_m and, for discrete variants, ``weight`` c_m; for
            fixed-split variants one such pair of columns per dichotomy, NaN after a dichotomy
            stopped) and, for fixed-split variants, ``summary["dichotomies"]`` (units below
            and above each cut, and its number of cycles).
        """
        check_is_fitted(self)
        digits = check_positive_int(digits, "digits")
        info = class_info(self, digits) + [("variant", self.variant)]
        if self.variant in _ERRORS:
            info.append(("error", self._error))
        base = (f"tree (Gini, max_leaf_nodes={self.max_leaf_nodes})" if self.estimator is None
                else one_line(self.estimator))
        info += [("boost_by", self.boost_by), ("base estimator", base),
                 ("cycles", f"{self.n_estimators_} of n_estimators={self.n_estimators}")]
        if self.variant == "fixed_split_discrete":
            info.append(("weighted", str(self.weighted)))
        tables = {"classes": class_table(self)}
        index = pd.RangeIndex(1, self.n_estimators_ + 1, name="cycle")
        if self.variant.startswith("fixed_split"):
            columns = {}
            for cut, run in zip(cut_names(self), self._runs):
                for name, values in (("error", run["errors"]), ("weight", run["c"])):
                    if values is not None:
                        padded = np.full(self.n_estimators_, np.nan)
                        padded[:len(values)] = values
                        columns[f"{name} {cut}"] = padded
            tables["cycles"] = pd.DataFrame(columns, index=index)
            tables["dichotomies"] = cut_table(
                self, cycles=[len(run["models"]) for run in self._runs])
        else:
            columns = {"error": self.estimator_errors_}
            if self.estimator_weights_ is not None:
                columns["weight"] = self.estimator_weights_
            tables["cycles"] = pd.DataFrame(columns, index=index)
        notes = ("error: the weighted error e_m of the cycle (for real variants the weighted "
                 "misclassification); weight: c_m, the cycle's weight in the final vote.")
        return Summary(f"Ordinal boosting ({self.variant})", info, tables, notes, digits)

    # -- prediction ------------------------------------------------------------------------
    def _staged_scores(self, X):
        """Class scores after each cycle m = 1..M: an iterator of (n, K) arrays."""
        check_is_fitted(self)
        X = validate_predict(self, coded_predictors(self, X),
                             ensure_all_finite=missing_values(self.estimator))
        k = self.n_classes_
        real = self.variant.endswith("real")
        if not self.variant.startswith("fixed_split"):
            cum = np.cumsum(_stage_contributions(self._runs[0], X, k, real, self._n_train,
                                                 self.n_jobs), axis=0)
            yield from cum
            return
        cums = [np.cumsum(_stage_contributions(run, X, 2, real, self._n_train, self.n_jobs),
                          axis=0) for run in self._runs]
        for m in range(self.n_estimators_):
            low, pv = [], []
            for r, cum in enumerate(cums):
                total = cum[min(m, cum.shape[0] - 1)]
                low.append(total[:, 0] >= total[:, 1])
                if self.weighted:
                    c_sum = self._runs[r]["c"][: min(m, cum.shape[0] - 1) + 1].sum()
                    pv.append(total.max(axis=1) / c_sum)
            yield split_scores(np.array(low), k, np.array(pv) if self.weighted else None)

    @staticmethod
    def _to_proba(scores, variant):
        if variant in ("real", "ordinal_real"):
            z = scores - scores.max(axis=1, keepdims=True)
            e = np.exp(z)
            return e / e.sum(axis=1, keepdims=True)
        return scores / scores.sum(axis=1, keepdims=True)

    def _final_scores(self, X):
        check_is_fitted(self)
        last = None
        for last in self._staged_scores(X):
            pass
        return last

    def predict_proba(self, X):
        """Normalised final scores: the c_m-weighted vote shares (discrete), the normalised
        second-stage scores s_j / sum s (fixed-split) or the softmax of sum_m f_j (real).

        Returns
        -------
        ndarray of shape (n_samples, K)
        """
        return self._to_proba(self._final_scores(X), self.variant)

    def predict(self, X):
        """argmax_j of the final aggregation, as the user's labels."""
        scores = self._final_scores(X)
        return self.classes_[np.argmax(scores, axis=1)]

    def staged_predict(self, X):
        """Predictions after each cycle (for error-versus-cycles curves)."""
        check_is_fitted(self)
        for scores in self._staged_scores(X):
            yield self.classes_[np.argmax(scores, axis=1)]

    def staged_predict_proba(self, X):
        """Probabilities after each cycle."""
        check_is_fitted(self)
        for scores in self._staged_scores(X):
            yield self._to_proba(scores, self.variant)

