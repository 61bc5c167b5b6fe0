"""Ordinal boosting on the replicas: oAdaBoost (one shared attribute per round) and
AdaBoost.OR (cost vectors, weighted-median combination)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from .._core.base import configured_clone
from .._core.summary import (Summary, class_info, class_table, cut_names, cut_table,
                             feature_names, one_line)
from .._core.validation import (HasMethods, Integral, Interval, check_positive_int, validate_fit,
                                validate_predict)
from ..trees.criteria import get_criterion
from ._base import ReplicaClassifierMixin, code_ordered, coded_ordered
from ._odt import ReplicatedTreeClassifier
from ._replicas import apply_rule, get_replica_rule
from ._replica_search import replica_threshold_search

_EPS = 1e-10
# oAdaBoost's stop: an error within round-off of 1/2 counts as 1/2 (after AdaBoost's update the
# previous stump has error exactly 1/2 in exact arithmetic)
_HALF = 0.5 - 1e-12


def _stump_predictions(x, thresholds, left_labels, right_labels):
    """(n, K-1) 0/1 answers of K-1 stumps on one attribute."""
    go_left = x[:, None] < thresholds[None, :]
    return np.where(go_left, left_labels[None, :], right_labels[None, :])


def _fit_stumps(X, codes, pos, W, criterion):
    """Per-replica stumps on every attribute: threshold by ``criterion`` (+inf: a constant),
    each side labelled by its weighted majority (``x < threshold`` goes left). Returns thresholds,
    left and right labels and weighted errors, each of shape (p, K-1)."""
    thr, _ = replica_threshold_search(X, codes, W, criterion, min_leaf=1)
    go_left = X[:, :, None] < thr[None]  # (n, p, K-1)
    wpos, wneg = np.where(pos, W, 0.0)[:, None], np.where(pos, 0.0, W)[:, None]
    left = (np.where(go_left, wpos, 0.0).sum(0) > np.where(go_left, wneg, 0.0).sum(0))
    right = (np.where(~go_left, wpos, 0.0).sum(0) > np.where(~go_left, wneg, 0.0).sum(0))
    pred = np.where(go_left, left[None], right[None])
    err = np.where(pred != pos[:, None], W[:, None], 0.0).sum(axis=0) / W.sum(axis=0)
    return thr, left.astype(int), right.astype(int), err


class OrdinalStumpBoost(ReplicaClassifierMixin, BaseEstimator):
    """oAdaBoost: AdaBoost on the K-1 replicas with one shared attribute per round (Algorithm 5.1
    of the dissertation "Ensemble methods for ordinal data classification").

    Each replica k (Y > C_k) has its own unit weights (summing to 1). In every round a decision
    stump is trained for each attribute and each active replica (threshold by ``criterion``,
    sides labelled by weighted majority); the attribute is chosen by combining the replicas'
    weighted accuracies 1 - error with ``rule`` (the registry of the oDT; with "sum" this is
    the attribute of least summed error); each active replica then keeps its stump on that
    attribute, with weight alpha = 0.5 log((1 - e) / e), unless its error e is not below 1/2,
    which stops that replica for good (Algorithm 5.1's "active_k := false"; a replica stopped
    in its first round has no stump and answers C-). Misclassified units' weights are
    multiplied by (1 - e) / e and each replica renormalised. Boosting ends when no replica is
    active or after ``n_estimators`` rounds. Replica k answers sign(sum_t alpha_t f_t(x));
    the class comes by counting.

    The stop: Algorithm 5.1 stops a replica whose error exceeds 50 %, but a stump whose sides
    are labelled by their weighted majority never errs on more than half the weight (each side
    errs on its minority, at most half of it), so "exceeds" could never happen. Its error
    reaches exactly 1/2 when no cut on the chosen attribute beats chance: when the attribute
    says nothing about that replica under the current weights, e.g. when the best cut is the
    one just used, whose error AdaBoost's update has set to 1/2. Such a stump gets alpha = 0
    and changes no weight, so the replica would repeat it for ever; we stop it there, as
    AdaBoost.M1 stops at an error of at least 1/2 (Freund & Schapire 1996; Weka's AdaBoostM1).
    A perfect stump (e = 0) settles its replica, which then stops too.

    Parameters
    ----------
    n_estimators : int, default=100
    rule : str or callable, default="sum"
    criterion : str or callable, default="entropy"
    classes : sequence, optional

    Attributes
    ----------
    features_ : ndarray (n_rounds,), the shared attribute of each round.
    thresholds_, left_labels_, right_labels_ : ndarrays (n_rounds, K-1)
    alphas_ : ndarray (n_rounds, K-1), 0 where a replica was inactive.
    errors_ : ndarray (n_rounds, K-1), weighted errors (nan where inactive).

    Notes
    -----
    Categorical predictors: an ordered pandas Categorical is read as its codes 0..c-1, a numeric
    scale cut by the thresholds (as rpart and :class:`~ordstat.trees.OrdinalTreeClassifier`
    read ordered factors; the same coding, :class:`ordstat._core.predictors.ColumnCoding`), and
    matched by category at prediction. Unordered columns (strings, unordered Categoricals) are
    refused with a TypeError naming them: each round's stumps cut one attribute at K-1
    thresholds, which needs an order of its values, and thresholds on arbitrary category codes
    would depend on how the categories happen to be numbered. Give such a column an order,
    encode it as dummies, or use the ordinal tree and its ensembles, which split categories.
    Missing values are refused (drop or impute those units).

    References
    ----------
    Dissertation "Ensemble methods for ordinal data classification", section 5.1, Algorithm
    5.1 (oAdaBoost); Freund & Schapire (1996) for AdaBoost.
    """

    _parameter_constraints: dict = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        # names are looked up in the rule and criterion registries in fit
        "rule": [str, callable],
        "criterion": [str, callable],
        "classes": ["array-like", None],
    }

    def __init__(self, n_estimators=100, rule="sum", criterion="entropy", classes=None):
        self.n_estimators = n_estimators
        self.rule = rule
        self.criterion = criterion
        self.classes = classes

    combine = "count"

    def fit(self, X, y, sample_weight=None):
        """Boost the stumps of the K-1 replicas.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Numeric predictors or ordered Categoricals (see Notes).
        y : array-like of shape (n_samples,)
            Ordered class labels.
        sample_weight : array-like of shape (n_samples,), optional
            Unit weights (finite, non-negative, not all zero). Every replica's boosting weights
            start from them, normalised to sum to 1, instead of the uniform 1/n of Algorithm
            5.1 (AdaBoost's usual generalisation); whole-number weights then give the fit of
            the rows repeated that many times.

        Returns
        -------
        self
        """
        self._validate_params()
        n_rounds = self.n_estimators
        get_replica_rule(self.rule)
        crit = get_criterion(self.criterion)
        X, codes, w = validate_fit(self, code_ordered(self, X), y, sample_weight,
                                   classes=self.classes)
        m = self.n_classes_ - 1
        pos = codes[:, None] > np.arange(m)[None, :]
        W = np.repeat((w / w.sum())[:, None], m, axis=1)
        active = np.ones(m, dtype=bool)
        rounds = []
        for _ in range(n_rounds):
            if not active.any():
                break
            thr_all, left_all, right_all, err_all = _fit_stumps(X, codes, pos, W, crit)
            p = X.shape[1]
            score = apply_rule(self.rule, 1.0 - err_all, np.repeat(active[None], p, axis=0))
            j = int(np.argmax(score))
            thr, left, right, err = thr_all[j], left_all[j], right_all[j], err_all[j]
            alpha = np.zeros(m)
            step_err = np.where(active, err, np.nan)
            stop = active & (err >= _HALF)
            use = active & ~stop
            e = np.clip(err, _EPS, None)
            alpha[use] = 0.5 * np.log((1.0 - e[use]) / e[use])
            pred = _stump_predictions(X[:, j], thr, left, right)
            wrong = pred != pos
            W = np.where(wrong & use[None, :], W * ((1.0 - e) / e)[None, :], W)
            W = W / W.sum(axis=0, keepdims=True)
            active = use & (err > 0.0)  # a perfect stump settles its replica
            rounds.append((j, thr, left, right, alpha, step_err))
        self.features_ = np.array([r[0] for r in rounds], dtype=np.intp)
        self.thresholds_ = np.array([r[1] for r in rounds]).reshape(-1, m)
        self.left_labels_ = np.array([r[2] for r in rounds]).reshape(-1, m)
        self.right_labels_ = np.array([r[3] for r in rounds]).reshape(-1, m)
        self.alphas_ = np.array([r[4] for r in rounds]).reshape(-1, m)
        self.errors_ = np.array([r[5] for r in rounds]).reshape(-1, m)
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # Ordinal by construction: on sklearn's unordered blobs the class order is arbitrary.
        tags.classifier_tags.poor_score = True
        return tags

    def replica_decision(self, X):
        """sum_t alpha_t f_t(x) per replica (f in {-1, +1}), shape (n, K-1)."""
        X = validate_predict(self, coded_ordered(self, X))
        out = np.zeros((X.shape[0], self.n_classes_ - 1))
        for t, j in enumerate(self.features_):
            pred = _stump_predictions(X[:, j], self.thresholds_[t], self.left_labels_[t],
                                      self.right_labels_[t])
            out += self.alphas_[t][None, :] * (2.0 * pred - 1.0)
        return out

    def _replica_upper(self, X, hard):
        return (self.replica_decision(X) > 0).astype(np.float64)

    def summary(self, digits=4):
        """The boosting run described for reading: the rounds, their shared attribute and
        each replica's stump weights.

        Parameters
        ----------
        digits : int, default=4
            Significant digits of the printed numbers (the tables keep full precision).

        Returns
        -------
        Summary
            Printable (``str``, and HTML in Jupyter); its tables are DataFrames:
            ``summary["classes"]`` (training units per class), ``summary["replicas"]`` (units
            below and above each cut, ``rounds``: the rounds in which the replica was active,
            ``alpha sum``: the total weight of its stumps) and ``summary["rounds"]`` (one row
            per round: its ``feature`` and each replica's ``alpha``, 0 where it was inactive).
        """
        check_is_fitted(self)
        digits = check_positive_int(digits, "digits")
        info = class_info(self, digits) + [
            ("rule", str(self.rule)), ("criterion", str(self.criterion)),
            ("rounds", f"{len(self.features_)} of n_estimators={self.n_estimators}")]
        replicas = cut_table(self, rounds=np.isfinite(self.errors_).sum(axis=0),
                             **{"alpha sum": self.alphas_.sum(axis=0)})
        names = np.asarray(feature_names(self), dtype=object)
        rounds = pd.DataFrame({"feature": names[self.features_],
                               **{f"alpha {cut}": self.alphas_[:, k]
                                  for k, cut in enumerate(cut_names(self))}},
                              index=pd.RangeIndex(1, len(self.features_) + 1, name="round"))
        tables = {"classes": class_table(self), "replicas": replicas, "rounds": rounds}
        return Summary("oAdaBoost (boosted stumps on the replicas)", info, tables, "", digits)


def _midpoints(lower, upper):
    """Cut values between consecutive distinct values (the upper value where the midpoint
    rounds down to the lower one, so that ``x < cut`` still separates them)."""
    mid = 0.5 * (lower + upper)
    return np.where(mid > lower, mid, upper)


def _ordered_path(err):
    """Cut positions t_0 <= t_1 <= ... <= t_{m-1} minimising sum_k err[t_k, k], by dynamic
    programming over the positions (err: (T, m)); the positions and the minimum."""
    T, m = err.shape
    best = err[:, 0].copy()
    back = []
    positions = np.arange(T)
    for k in range(1, m):
        prefix = np.minimum.accumulate(best)
        # a position reaching the prefix minimum, for the way back
        back.append(np.maximum.accumulate(np.where(best == prefix, positions, 0)))
        best = err[:, k] + prefix
    path = [int(np.argmin(best))]
    for k in range(m - 2, -1, -1):
        path.append(int(back[k][path[-1]]))
    return np.array(path[::-1]), float(best.min())


class OrderedCut:
    """AdaBoost.OR's default weak learner: one cut per replica on one shared attribute, the
    dissertation's "decision tree limited to one cut" with its K-1 thresholds kept in order and
    one orientation, chosen to minimise the total weighted binary error of the induced binary
    problems, sum_k sum_i W[i, k] [replica k answers wrong on unit i] (Lin & Li 2009).

    With orientation +1 replica k answers "above C_k" where x >= threshold_k and the thresholds
    increase in k; with -1 where x < threshold_k and they decrease. The answers of the K-1
    replicas are therefore monotone, the class is 1 + the number of "above" answers, and the
    binary answers that class induces are the replicas' own, so the weighted binary error
    minimised here is exactly AdaBoost.OR's cost-weighted error of the class prediction (a
    one-cut oDT with free thresholds and majority labels has no such guarantee: where its
    replicas disagree the class contradicts some of them). The minimum over the ordered
    thresholds of an attribute and orientation is found exactly by dynamic programming over
    the cut positions (+-inf, no cut, included); the first attribute, then orientation +1,
    wins ties.

    Attributes (after :meth:`fit`)
    ------------------------------
    feature_ : int
    orientation_ : {+1, -1}
    thresholds_ : ndarray of shape (K-1,)
    error_ : float
        The weighted binary error sum_k sum_i W[i, k] [wrong] of the chosen cut.
    """

    def fit(self, X, codes, W):
        """Fit on the replicas' weights ``W`` (n, K-1) for class codes 0..K-1."""
        # units of weight 0 everywhere place no cuts (as if they were not there)
        keep = W.sum(axis=1) > 0
        X, codes, W = X[keep], codes[keep], W[keep]
        pos = codes[:, None] > np.arange(W.shape[1])[None, :]
        best = None
        for j in range(X.shape[1]):
            order = np.argsort(X[:, j], kind="stable")
            x = X[order, j]
            ends = np.flatnonzero(np.r_[x[1:] != x[:-1], True])  # last unit of each value
            # weight of each replica's C+ and C- units left of cut position t = 0..U
            # (position t: the first t distinct values go left)
            zero = np.zeros((1, W.shape[1]))
            left_pos = np.vstack([zero, np.cumsum(np.where(pos, W, 0.0)[order], 0)[ends]])
            left_neg = np.vstack([zero, np.cumsum(np.where(pos, 0.0, W)[order], 0)[ends]])
            cuts = np.r_[-np.inf, _midpoints(x[ends[:-1]], x[ends[1:]]), np.inf]
            for sign in (1, -1):
                if sign == 1:  # C- left, C+ right; thresholds increase with k
                    err = left_pos + (left_neg[-1] - left_neg)
                    path, total = _ordered_path(err)
                else:  # C+ left, C- right; thresholds decrease with k
                    err = left_neg + (left_pos[-1] - left_pos)
                    path, total = _ordered_path(err[::-1])
                    path = len(cuts) - 1 - path
                if best is None or total < best[0] - 1e-12 * max(best[0], 1.0):
                    best = (total, j, sign, cuts[path])
        self.error_, self.feature_, self.orientation_, self.thresholds_ = best
        return self

    def replica_answers(self, X):
        """(n, K-1) 0/1: replica k answers "above C_k"."""
        x = np.asarray(X, dtype=np.float64)[:, self.feature_][:, None]
        if self.orientation_ == 1:
            return (x >= self.thresholds_[None, :]).astype(np.intp)
        return (x < self.thresholds_[None, :]).astype(np.intp)

    def _predict_codes(self, X):
        """Class codes for validated X: 1 + the number of "above" answers, less 1."""
        return self.replica_answers(X).sum(axis=1).astype(np.intp)

    def __repr__(self):
        return "OrderedCut()"


def mae_costs(codes, n_classes):
    """Absolute-error cost vectors c_i[k] = |y_i - k|, shape (n, K)."""
    return np.abs(np.asarray(codes)[:, None] - np.arange(n_classes)[None, :]).astype(np.float64)


def update_costs(costs, codes, pred, beta):
    """AdaBoost.OR's cost update (Lin & Li 2009; Algorithm 3.3 of the dissertation).

    In the reduction to binary problems, threshold k of unit i has weight |c_i[k+1] - c_i[k]|
    and is misclassified by prediction f exactly when k lies between y_i and f. Binary AdaBoost
    multiplies those weights by beta = (1 - e) / e; back in cost-vector form, for f > y:
    c[k] unchanged for k <= y, c[k] *= beta for y <= k <= f, c[k] += (beta - 1) c[f] for
    k > f (mirrored for f < y; nothing changes when f = y).
    """
    costs = costs.copy()
    k = np.arange(costs.shape[1])[None, :]
    y, f = codes[:, None], pred[:, None]
    cf = costs[np.arange(costs.shape[0]), pred][:, None]
    up, down = f > y, f < y
    inside = (up & (k >= y) & (k <= f)) | (down & (k <= y) & (k >= f))
    beyond = (up & (k > f)) | (down & (k < f))
    costs = np.where(inside, beta * costs, costs)
    costs = np.where(beyond, costs + (beta - 1.0) * cf, costs)
    return costs


def weighted_median(preds, alphas, n_classes):
    """Per row, the smallest class whose cumulative alpha reaches half the total (lower
    weighted median of the rounds' predictions)."""
    votes = np.zeros((preds.shape[0], n_classes))
    for t in range(preds.shape[1]):
        votes[np.arange(preds.shape[0]), preds[:, t]] += alphas[t]
    cum = np.cumsum(votes, axis=1)
    return np.argmax(cum >= 0.5 * cum[:, -1:] - 1e-12, axis=1).astype(np.intp)


class AdaBoostOR(ClassifierMixin, BaseEstimator):
    """AdaBoost.OR (Lin & Li 2009): boosting an ordinal learner with cost vectors.

    Each unit carries a cost vector c_i (absolute-error costs ``|y_i - k|`` at the start). A round
    fits the ordinal weak learner on the binary replicas with weights ``|c_i[k+1] - c_i[k]|``,
    measures e = sum_i c_i[f(x_i)] / sum_i (c_i[1] + c_i[K]) (its weighted binary error),
    gives it alpha = 0.5 log((1 - e) / e) and updates the costs (:func:`update_costs`). Boosting
    stops when e >= 0.5 (that learner is dropped) or e = 0 (it is kept), or after
    ``n_estimators`` rounds. The prediction is the alpha-weighted median of the rounds' classes.

    Parameters
    ----------
    estimator : ordinal classifier, default=None
        If None, :class:`OrderedCut`: the dissertation's "decision tree limited to one cut"
        (K-1 parallel cuts on one attribute), with its thresholds in order, chosen to minimise
        the total weighted binary error ``sum_k sum_i |c_i[k+1] - c_i[k]| [replica k answers
        wrong on unit i]`` of the induced binary problems, the binary learner of Lin & Li
        (2009): every replica counts by its cost weight, and the error minimised is the
        round's error e. (ordstat before this used a one-cut ``ReplicatedTreeClassifier``,
        which scales each replica's gain by the replica's own weight, so that every replica
        counted alike whatever its cost.) A ``ReplicatedTreeClassifier`` receives the
        per-replica weights. Any other ordinal classifier is fitted with ``sample_weight`` =
        c_i[1] + c_i[K], each unit's total binary weight (the per-threshold detail is then
        lost).
    n_estimators : int, default=100
    classes : sequence, optional
    random_state : int, Generator or None
        Seeds estimators that take ``random_state``.

    Attributes
    ----------
    estimators_ : list of fitted weak learners; ``alphas_``, ``errors_`` : ndarrays.

    Notes
    -----
    Categorical predictors: an ordered pandas Categorical is read as its codes 0..c-1, a numeric
    scale cut by the thresholds (as rpart and :class:`~ordstat.trees.OrdinalTreeClassifier`
    read ordered factors; the same coding, :class:`ordstat._core.predictors.ColumnCoding`), and
    matched by category at prediction. Unordered columns (strings, unordered Categoricals) are
    refused with a TypeError naming them: the weak learners cut one attribute at ordered
    thresholds, which needs an order of its values, and thresholds on arbitrary category codes
    would depend on how the categories happen to be numbered. Give such a column an order,
    encode it as dummies, or use the ordinal tree and its ensembles, which split categories.
    Missing values are refused (drop or impute those units).

    References
    ----------
    Lin, H.-T. and Li, L. (2009), "Combining ordinal preferences by boosting"; dissertation
    "Ensemble methods for ordinal data classification", section 3.2.4.1, Algorithm 3.3.
    """

    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "classes": ["array-like", None],
        "random_state": ["random_state", np.random.Generator],
    }

    def __init__(self, estimator=None, n_estimators=100, classes=None, random_state=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.classes = classes
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None):
        """Boost the weak learner.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Numeric predictors or ordered Categoricals (see Notes).
        y : array-like of shape (n_samples,)
            Ordered class labels.
        sample_weight : array-like of shape (n_samples,), optional
            Unit weights (finite, non-negative, not all zero): the first cost vectors are the
            absolute-error costs times the unit's weight, so the first round's binary weights
            are proportional to them (uniform without); whole-number weights give the fit of
            the rows repeated that many times.

        Returns
        -------
        self
        """
        from .._core.validation import check_random_state

        self._validate_params()
        n_rounds = self.n_estimators
        base = OrderedCut() if self.estimator is None else self.estimator
        X, codes, w = validate_fit(self, code_ordered(self, X), y, sample_weight,
                                   classes=self.classes)
        rng = check_random_state(self.random_state)
        K = self.n_classes_
        costs = mae_costs(codes, K) * w[:, None]
        self.estimators_, alphas, errors = [], [], []
        for _ in range(n_rounds):
            est = (OrderedCut() if self.estimator is None
                   else configured_clone(base, random_state=int(rng.integers(2**31 - 1))))
            pred = self._fit_weak(est, X, codes, costs)
            err = costs[np.arange(len(codes)), pred].sum() / (costs[:, 0] + costs[:, -1]).sum()
            if err >= 0.5:
                break
            e = max(err, _EPS)
            self.estimators_.append(est)
            alphas.append(0.5 * np.log((1.0 - e) / e))
            errors.append(err)
            if err <= 0.0:
                break
            costs = update_costs(costs, codes, pred, (1.0 - e) / e)
            # rescale (only against overflow): total binary weight back to (K-1) sum(w)
            costs *= (K - 1) * w.sum() / (costs[:, 0] + costs[:, -1]).sum()
        if not self.estimators_:
            raise ValueError(
                "AdaBoost.OR: the first weak learner has a weighted error of at least 0.5, so "
                "boosting cannot start; use a stronger estimator."
            )
        self.alphas_ = np.asarray(alphas)
        self.errors_ = np.asarray(errors)
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # Ordinal by construction: on sklearn's unordered blobs the class order is arbitrary.
        tags.classifier_tags.poor_score = True
        return tags

    def _fit_weak(self, est, X, codes, costs):
        K = self.n_classes_
        if isinstance(est, OrderedCut):
            return est.fit(X, codes, np.abs(np.diff(costs, axis=1)))._predict_codes(X)
        if isinstance(est, ReplicatedTreeClassifier):
            W = np.abs(np.diff(costs, axis=1))
            est.classes_, est.n_classes_ = self.classes_, K
            est.n_features_in_ = X.shape[1]
            est._fit_replicas(X, codes, W)
            return est._predict_codes(X)
        labels = self.classes_[codes]
        est.set_params(**({"classes": self.classes_} if "classes" in est.get_params() else {}))
        est.fit(X, labels, sample_weight=costs[:, 0] + costs[:, -1])
        return self._encoding.encode(est.predict(X), "weak learner prediction")

    def _round_codes(self, X):
        X = validate_predict(self, coded_ordered(self, X))
        out = np.empty((X.shape[0], len(self.estimators_)), dtype=np.intp)
        for t, est in enumerate(self.estimators_):
            if isinstance(est, (OrderedCut, ReplicatedTreeClassifier)):
                out[:, t] = est._predict_codes(X)
            else:
                out[:, t] = self._encoding.encode(est.predict(X), "weak learner prediction")
        return out

    def predict(self, X):
        codes = self._round_codes(X)
        return self.classes_[weighted_median(codes, self.alphas_, self.n_classes_)]

    def summary(self, digits=4):
        """The boosting run described for reading: the weak learner and each round's error
        and weight.

        Parameters
        ----------
        digits : int, default=4
            Significant digits of the printed numbers (the tables keep full precision).

        Returns
        -------
        Summary
            Printable (``str``, and HTML in Jupyter); its tables are DataFrames:
            ``summary["classes"]`` (training units per class) and ``summary["rounds"]`` (one
            row per round: its cost-weighted ``error`` e and ``alpha``).
        """
        check_is_fitted(self)
        digits = check_positive_int(digits, "digits")
        weak = ("ordered one-cut oDT of least weighted binary error (OrderedCut)"
                if self.estimator is None
                else one_line(self.estimator))
        info = class_info(self, digits) + [
            ("weak learner", weak),
            ("rounds", f"{len(self.estimators_)} of n_estimators={self.n_estimators}")]
        rounds = pd.DataFrame({"error": self.errors_, "alpha": self.alphas_},
                              index=pd.RangeIndex(1, len(self.alphas_) + 1, name="round"))
        return Summary("AdaBoost.OR (cost-vector boosting, weighted median)", info,
                       {"classes": class_table(self), "rounds": rounds}, "", digits)


__all__ = ["OrdinalStumpBoost", "AdaBoostOR", "OrderedCut", "mae_costs", "update_costs",
           "weighted_median"]
