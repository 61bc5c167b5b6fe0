"""Ordinal fixed-split bagging (Tutz & Hechenbichler 2003, section 3.1): each dichotomy
{1..r} | {r+1..k} is bagged separately and the K-1 results are combined by eq. (2)."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from .._core.base import OrdinalClassifierMixin
from .._core.summary import Summary, class_info, class_table, cut_table, one_line
from .._core.validation import (N_JOBS, HasMethods, Integral, Interval, check_positive_int,
                                validate_fit, validate_predict)
from ..trees import OrdinalTreeClassifier
from ._bagging import _fit_one, split_importances
from ._boosting import split_scores
from ._predict import tree_totals
from ._common import (ConstantClassifier, base_predict, base_tree, code_predictors,
                      coded_predictors, missing_values, run_parallel, spawn_seeds,
                      takes_categories)
from ._summary import importance_table

__all__ = ["FixedSplitBaggingClassifier"]


def _fit_split_tree(task):
    base, X, codes, r, seed, coding, weight = task
    task = (base, X, (codes > r).astype(np.intp), 2, seed, None, False, None, coding,
            weight)
    return _fit_one(task)["estimator"]


class FixedSplitBaggingClassifier(OrdinalClassifierMixin, BaseEstimator):
    """Ordinal bagging by fixed splits: bag every dichotomy Y^(r) = [Y > r], r = 1..k-1, and
    combine the K-1 aggregated binary predictions by the second-stage vote of eq. (2), in
    which split r gives 1/r to each of the classes 1..r or 1/(k-r) to each of r+1..k.

    Parameters
    ----------
    estimator : estimator, optional
        Binary base classifier; default a Gini :class:`~ordstat.trees.OrdinalTreeClassifier`
        grown best first to ``max_leaf_nodes`` leaves (the fixed tree size of the paper).
    n_estimators : int, default=50
        Bootstrap samples per dichotomy.
    max_leaf_nodes : int, default=5
        Leaves of every default tree (ignored when ``estimator`` is given).
    weighted : bool, default=False
        Weight split r's contribution by its prediction vote
        PV^(r)(x) = max_j sum_m I(C^(r)(x, L_m) = j) / M (the weighted form C_agg,w).
    n_jobs : int, optional
        Number of joblib jobs (any joblib backend, Dask included); the result does not depend
        on it.
    random_state : None, int or numpy Generator
        Seeds the bootstrap samples and the trees; the bootstrap samples are drawn
        independently for each dichotomy.
    progress : bool, default=False
        Show a tqdm progress bar while fitting.
    classes : sequence, optional
        All class labels from lowest to highest (otherwise those of ``y``: an ordered
        Categorical's categories, or the sorted labels).

    Attributes
    ----------
    estimators_ : list of K-1 lists of fitted binary trees
        ``estimators_[r]`` holds the ``n_estimators`` classifiers of the dichotomy
        [Y > c_(r+1)], each fitted on its own bootstrap sample.
    feature_importances_ : ndarray of shape (n_features,)
        Mean over all (K-1) ``n_estimators`` trees of their normalised split importances, as
        for :class:`~ordstat.ensemble.OrdinalBaggingClassifier`; only when the base estimators
        have ``feature_importances_`` (trees).

    Notes
    -----
    ``predict_proba`` returns the normalised scores s_j / sum_t s_t of the paper (s_w with
    ``weighted``); their argmax is the prediction.

    References
    ----------
    Tutz, G. & Hechenbichler, K. (2003). Aggregating classifiers with ordinal response
    structure, section 3.1, eq. (2).
    """

    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "max_leaf_nodes": [Interval(Integral, 2, None, closed="left")],
        "weighted": ["boolean"],
        "n_jobs": N_JOBS,
        "random_state": ["random_state", np.random.Generator],
        "progress": ["boolean"],
        "classes": ["array-like", None],
    }

    def __init__(self, estimator=None, n_estimators=50, max_leaf_nodes=5, weighted=False,
                 n_jobs=None, random_state=None, progress=False, classes=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.max_leaf_nodes = max_leaf_nodes
        self.weighted = weighted
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.progress = progress
        self.classes = classes

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = missing_values(self.estimator) == "allow-nan"
        tags.input_tags.categorical = takes_categories(self.estimator)
        return tags

    def fit(self, X, y, sample_weight=None):
        """Bag each dichotomy.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Missing values (NaN) are kept when the base estimator accepts them (the default
            ordinal trees do); string and Categorical columns are coded once for all trees as
            in :meth:`OrdinalBaggingClassifier.fit`.
        y : array-like of shape (n_samples,)
            Ordered class labels.
        sample_weight : array-like of shape (n_samples,), optional
            Unit weights, which act through the bootstrap samples only, as in
            :meth:`OrdinalBaggingClassifier.fit`: whole-number weights (a frequency table)
            draw the bootstrap of the table expanded into repeated rows, so the ensemble is
            exactly that of the expanded rows; other weights draw n units with probability
            proportional to their weights. A unit of weight 0 is never drawn.

        Returns
        -------
        self
        """
        self._validate_params()
        m = self.n_estimators
        if self.estimator is None:
            template = OrdinalTreeClassifier(criterion="gini", max_leaf_nodes=self.max_leaf_nodes,
                                             min_split=2, min_bucket=1, cp=-1.0, xval=0)
        else:
            template = self.estimator
        # categorical columns coded once for all trees, as the tree codes them
        coding, X = code_predictors(self, X, template)
        X, codes, w = validate_fit(self, X, y, sample_weight, classes=self.classes,
                                   ensure_all_finite=missing_values(self.estimator))
        w = None if sample_weight is None else w
        k = self.n_classes_
        seeds = spawn_seeds(self.random_state, (k - 1) * m).reshape(k - 1, m)
        base = base_tree(template, X.shape[1])
        tasks = [(base, X, codes, r, seeds[r, b], coding, w) for r in range(k - 1)
                 for b in range(m)]
        trees = run_parallel(_fit_split_tree, tasks, self.n_jobs, self.progress,
                             desc=type(self).__name__)
        self.estimators_ = [trees[r * m:(r + 1) * m] for r in range(k - 1)]
        return self

    def summary(self, digits=4):
        """The ensemble described for reading: its classes and its K-1 bagged dichotomies.

        Parameters
        ----------
        digits : int, default=4
            Significant digits of the printed numbers.

        Returns
        -------
        Summary
            Printable (``str``, and HTML in Jupyter); its tables are DataFrames:
            ``summary["classes"]`` (training units per class), ``summary["dichotomies"]``
            (units below and above each cut, its number of trees and how many of them are
            constant because their bootstrap sample held one side only) and, when the base
            estimators are trees, ``summary["importance"]`` (``split``:
            ``feature_importances_``, most important first).
        """
        check_is_fitted(self)
        digits = check_positive_int(digits, "digits")
        base = (f"tree (Gini, max_leaf_nodes={self.max_leaf_nodes})" if self.estimator is None
                else one_line(self.estimator))
        info = class_info(self, digits) + [
            ("trees per dichotomy", str(self.n_estimators)), ("base estimator", base),
            ("weighted", str(self.weighted))]
        dichotomies = cut_table(
            self, trees=[len(trees) for trees in self.estimators_],
            constant=[sum(isinstance(t, ConstantClassifier) for t in trees)
                      for trees in self.estimators_])
        tables = {"classes": class_table(self), "dichotomies": dichotomies}
        importance = importance_table(self)
        if importance is not None:
            tables["importance"] = importance
        return Summary("Ordinal fixed-split bagging", info, tables, "", digits)

    @property
    def feature_importances_(self):
        """Mean over all trees of every dichotomy of their normalised split importances (see
        the class's Attributes); an AttributeError when the base estimators are not trees."""
        check_is_fitted(self)
        trees = [t for dichotomy in self.estimators_ for t in dichotomy]
        importances = split_importances(trees, self.n_features_in_)
        if importances is None:
            raise AttributeError(
                "feature_importances_: the base estimator "
                f"{type(self.estimator).__name__} has no feature_importances_; bagged trees "
                "have them.")
        return importances

    def split_votes(self, X):
        """Share of the trees of each dichotomy voting for its lower group, (K-1, n)."""
        check_is_fitted(self)
        X = validate_predict(self, coded_predictors(self, X),
                             ensure_all_finite=missing_values(self.estimator))
        return np.array([_lower_share(trees, X, self.n_jobs) for trees in self.estimators_])

    def decision_scores(self, X):
        """The second-stage scores s_j (or s_w,j with ``weighted``) of eq. (2), (n, K)."""
        share = self.split_votes(X)
        low = share >= 0.5
        pv = np.maximum(share, 1.0 - share) if self.weighted else None
        return split_scores(low, self.n_classes_, pv)

    def predict_proba(self, X):
        """Normalised second-stage scores; columns follow ``classes_``."""
        scores = self.decision_scores(X)
        return scores / scores.sum(axis=1, keepdims=True)


def _lower_share(trees, X, n_jobs):
    """Share of the binary ``trees`` (fitted on codes 0/1) voting 0, the lower group: each tree
    walked once, compiled in ``n_jobs`` threads where they are ordinal trees."""
    totals = tree_totals(trees, X, 2, votes=True, n_jobs=n_jobs)
    if totals is None:
        return np.mean([base_predict(t, X) == 0 for t in trees], axis=0)
    return totals[0][:, 0] / len(trees)
