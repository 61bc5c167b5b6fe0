"""Bagged ordinal trees and ordinal random forests, with out-of-bag error and gamma."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from .._core.base import OrdinalClassifierMixin
from .._core.summary import Summary, class_info, class_table, one_line
from .._core.validation import (N_JOBS, HasMethods, Integral, Interval, StrOptions,
                                check_positive_int, validate_fit, validate_predict)
from .._core.names import metric_name
from .._core.warnings import warn as _warn
from ..metrics import _concordant_discordant, _gamma_of_table
from ..trees import OrdinalTreeClassifier
from ..trees import _fast
from ..trees._engine import choose as choose_engine
from ..trees._prepared import Sample, prepare
from ..trees._tree import Tree, compact_array
from ._common import (_SEED_MAX, ConstantClassifier, TreeStore, base_predict, base_proba,
                      base_tree, code_predictors, coded_predictors, codes_encoding,
                      compact_tree, fit_base, fit_sample, missing_values,
                      release_freed_memory, run_parallel, spawn_seeds, takes_categories,
                      vote_table, weighted_bootstrap, weighted_mean, weighted_median)
from ._predict import tree_totals
from ._steps import sample_rows
from ._summary import importance_table, oob_class_table, oob_confusion, oob_confusion_table

__all__ = ["OrdinalBaggingClassifier", "OrdinalRandomForestClassifier"]

AGGREGATIONS = ("vote", "median", "proba")
IMPORTANCE_METRICS = ("mean_absolute", "gamma", "misclassification")


def _gamma(true, pred, k, sample_weight=None):
    """:func:`~ordstat.metrics.goodman_kruskal_gamma` of class codes 0..k-1 (NaN, silently,
    without an untied pair), from their table (of summed ``sample_weight`` when given) without
    checking the codes again (a forest scores every tree)."""
    table = np.bincount(np.asarray(true, dtype=np.intp) * k + pred, weights=sample_weight,
                        minlength=k * k)
    return _gamma_of_table(table.reshape(k, k).astype(np.float64))


def _loss(metric, true, pred, k, sample_weight=None):
    """A loss (larger is worse) for the permutation importance, over units weighted by
    ``sample_weight`` (None: unweighted)."""
    if metric == "mean_absolute":
        return weighted_mean(np.abs(true - pred), sample_weight)
    if metric == "misclassification":
        return weighted_mean(true != pred, sample_weight)
    return -_gamma(true, pred, k, sample_weight)


def mean_split_importance(estimators, n_features):
    """Mean over all trees of their normalised split importances: a tree without a split
    (all zeros), or a constant tree standing in for a one-class bootstrap sample (which has
    none), counts as zero importance for every feature rather than being left out."""
    total = np.zeros(n_features)
    for est in estimators:
        imp = getattr(est, "feature_importances_", None)
        if imp is not None:
            total += imp
    return total / max(len(estimators), 1)


def split_importances(estimators, n_features):
    """:func:`mean_split_importance` of an ensemble's trees, or None when its base estimators
    have no ``feature_importances_`` (they are not trees): the one definition of the
    ensembles' ``feature_importances_``."""
    fitted = [e for e in estimators if not isinstance(e, ConstantClassifier)]
    if fitted and not any(hasattr(e, "feature_importances_") for e in fitted):
        return None
    return mean_split_importance(estimators, n_features)


def _fit_one(task):
    """Fit one tree on a bootstrap sample and score it on its out-of-bag units.

    The bootstrap indices and the tree's own seed both come from the tree's seed, so two
    ensembles with the same ``random_state`` draw the same samples whatever their trees are."""
    base, X, codes, k, seed, importance, oob_score, prepared, coding, weight = task
    template = base.estimator
    n = X.shape[0]
    sample, rng = _bootstrap(seed, n, weight)
    tree_seed = int(rng.integers(0, _SEED_MAX))
    wants_oob = bool(oob_score) or importance is not None
    store = None
    if prepared is not None:
        # the same tree from the distinct rows and their repeat counts (fewer to sort), on
        # the sample prepared once for all trees
        data, encoding, params, state = prepared
        rows, repeats, oob, n_present = sample_rows(sample, n, data.codes, data.n_classes)
        # neither the sample nor its counts are kept while the tree grows (8 MB each at
        # n = 10^6); the out-of-bag rows go down the tree as it is made (TreeStore)
        sample = None
        store = TreeStore(data.X, oob if wants_oob else None)
        tree = fit_sample(template, params, Sample(data, rows), repeats, encoding, tree_seed,
                          coding, store, n_present, state)
        del rows, repeats
    elif base.repeats:
        counts = np.bincount(sample, minlength=n)
        rows = np.flatnonzero(counts)
        tree = fit_base(template, X[rows], codes[rows], k, tree_seed, repeats=counts[rows],
                        coding=coding, params=base.params, state=base.state)
    else:
        tree = fit_base(template, X[sample], codes[sample], k, tree_seed, coding=coding,
                        params=base.params, state=base.state)
    # the nodes' classes of a whole tree, which the compact tree computes again for all
    # nodes when read
    yval = (tree.tree_.yval if wants_oob and isinstance(tree, OrdinalTreeClassifier)
            and type(tree.tree_) is Tree else None)
    tree = compact_tree(tree)  # the ensemble keeps every tree: in the smallest types
    release_freed_memory(X.size)  # the tree's temporaries, freed in this thread's heap
    # the bootstrap indices are not kept: the ensemble draws them again from the seed when
    # asked (estimators_samples_), which saves an array of n per tree
    result = {"estimator": tree}
    if not wants_oob:
        return result
    if sample is not None:
        in_bag = np.zeros(n, dtype=bool)
        in_bag[sample] = True
        oob = np.flatnonzero(~in_bag)
    walked = (None if store is None or store.classes is None
              or not isinstance(tree, OrdinalTreeClassifier) else (store.leaves, store.classes))
    result.update(_out_of_bag(tree, yval, X, codes, k, oob, importance, rng, weight,
                              proba=oob_score == "proba", walked=walked))
    return result


def _out_of_bag(tree, yval, X, codes, k, oob, importance, rng, weight=None, proba=True,
                walked=None):
    """A tree's predictions on its out-of-bag units ``oob`` (and, with ``proba``, its class
    probabilities) and, with ``importance``, the permutation importance of each feature on
    them, its losses weighted by the units' ``weight`` (``rng`` draws the permutations;
    ``yval``, ``walked``: see :func:`_outputs`)."""
    result = {"oob": oob}
    if oob.size:
        Xo = X[oob] if walked is None or importance is not None else None
        result["oob_pred"], result["oob_proba"] = _outputs(tree, Xo, k, proba=proba, yval=yval,
                                                           walked=walked)
        if importance is not None:
            if yval is None and isinstance(tree, OrdinalTreeClassifier):
                yval = tree.tree_.yval  # once for every feature's permutation
            truth = codes[oob]
            w = None if weight is None else weight[oob]
            base = _loss(importance, truth, result["oob_pred"], k, w)
            gains = np.zeros(X.shape[1])
            for j in range(X.shape[1]):
                Xp = Xo.copy()
                Xp[:, j] = Xp[rng.permutation(oob.size), j]
                pred = _outputs(tree, Xp, k, proba=False, yval=yval)[0]
                gains[j] = _loss(importance, truth, pred, k, w) - base
            result["importance"] = gains
    return result


def _outputs(tree, X, k, proba=True, yval=None, walked=None):
    """A fitted base estimator's predicted class codes and (``proba``) class probabilities
    on rows of the ensemble's validated, coded ``X``: :func:`base_predict` and
    :func:`base_proba`, an ordinal tree's from one pass down the tree and without checking
    ``X`` again (a forest on a few hundred rows spent a third of its time checking and
    walking each tree's out-of-bag rows twice). ``yval``: the tree's node classes, when held
    (a compact tree computes them for every node when read: at K = 26 that cost as much as
    growing the tree); ``walked``: the rows' leaves and classes, found as the tree was made
    (:class:`~ordstat.ensemble._common.TreeStore`; ``X`` is then not read)."""
    if not isinstance(tree, OrdinalTreeClassifier):
        return base_predict(tree, X), base_proba(tree, X, k) if proba else None
    if walked is not None:
        leaves, pred = walked[0], walked[1].astype(np.intp, copy=False)
    else:
        leaves = tree.tree_.apply(X)
        yval = tree.tree_.yval if yval is None else yval
        pred = np.asarray(tree.classes_[yval[leaves]], dtype=np.intp)
    if not proba:
        return pred, None
    value = tree.tree_.value[leaves]  # as predict_proba
    return pred, np.asarray(value / value.sum(axis=1, keepdims=True), dtype=np.float64)


def _bootstrap(seed, n, sample_weight=None):
    """A tree's bootstrap indices (of 0..n-1, drawn by :func:`weighted_bootstrap` with the
    units' ``sample_weight``) and the generator that drew them (it then draws the tree's own
    seed), from the tree's ``seed``."""
    rng = np.random.default_rng(seed)
    return weighted_bootstrap(rng, sample_weight, n), rng


class _OutOfBag:
    """The out-of-bag votes (and, with ``proba``, the class probabilities) of the trees summed
    over trees, and each tree's own scores (weighted by the units' ``sample_weight`` when
    given), in the trees' order. The votes and scores of a block of trees are computed at once
    (:meth:`_flush`; whole counts, so the same numbers as a tree at a time), the
    probabilities summed a tree at a time (their sums depend on the order)."""

    def __init__(self, n, k, sample_weight=None, proba=True):
        self.k = k
        self.votes = np.zeros((n, k))
        self.proba_sum = np.zeros((n, k)) if proba else None
        self.weight = sample_weight
        self.columns = {name: [] for name in _OOB_COLUMNS}
        self._pending, self._held = [], 0  # trees not yet counted, their out-of-bag units

    def add(self, result, codes):
        oob = result["oob"]
        if self.proba_sum is not None and oob.size:
            self.proba_sum[oob] += result["oob_proba"]
        self._pending.append((oob, result.get("oob_pred")))
        self._held += oob.size
        if self._held >= _OOB_BLOCK:
            self._flush(codes)

    @property
    def rows(self):
        """One row per tree (the DataFrame ``oob_per_estimator_``), once every tree is added."""
        return pd.DataFrame({name: np.concatenate(parts) if parts else np.zeros(0)
                             for name, parts in self.columns.items()})

    def _flush(self, codes):
        """Count the votes and score the trees added since the last flush."""
        pending, self._pending, self._held = self._pending, [], 0
        if not pending:
            return
        k, m0 = self.k, sum(c.size for c in self.columns["estimator"])
        sizes = np.array([oob.size for oob, _ in pending], dtype=np.int64)
        scored = [(oob, pred) for oob, pred in pending if oob.size]
        oob = np.concatenate([o for o, _ in scored]) if scored else np.zeros(0, np.intp)
        pred = (np.concatenate([p for _, p in scored]) if scored
                else np.zeros(0, np.intp)).astype(np.intp)
        truth = np.asarray(codes[oob], dtype=np.intp)
        np.add.at(self.votes, (oob, pred), 1.0)  # (no (n, K) temporary at large n)
        cols = self.columns
        cols["estimator"].append(np.arange(m0, m0 + sizes.size, dtype=np.int64))
        cols["n_oob"].append(sizes)
        empty = sizes == 0
        if self.weight is not None:  # weighted means in each tree's own order of sums
            parts = np.split(np.arange(oob.size), np.cumsum(sizes[~empty])[:-1])
            scores = np.full((3, sizes.size), np.nan)
            for t, at in zip(np.flatnonzero(~empty), parts):
                p, g, w = pred[at], truth[at], self.weight[oob[at]]
                scores[:, t] = (weighted_mean(p != g, w), _gamma(g, p, k, w),
                                weighted_mean(np.abs(p - g), w))
        else:  # whole counts: sums in any order are exact, so a tree's mean is its own
            tree = np.repeat(np.arange(sizes.size), sizes)
            with np.errstate(invalid="ignore", divide="ignore"):
                scores = np.array([
                    np.bincount(tree, weights=pred != truth, minlength=sizes.size) / sizes,
                    _gammas(np.bincount((tree * k + truth) * k + pred,
                                        minlength=sizes.size * k * k).reshape(-1, k, k)),
                    np.bincount(tree, weights=np.abs(pred - truth), minlength=sizes.size)
                    / sizes])
            scores[:, empty] = np.nan
        for name, values in zip(_OOB_COLUMNS[2:], scores):
            cols[name].append(values)


# the columns of oob_per_estimator_
_OOB_COLUMNS = ("estimator", "n_oob", "misclassification", "gamma", "mean_absolute")
_OOB_BLOCK = 1 << 21  # out-of-bag units of the trees held before their votes are counted


def _gammas(tables):
    """:func:`_gamma` of each of the stacked (m, K, K) whole-count tables at once."""
    concordant, discordant = _concordant_discordant(tables.astype(np.float64))
    with np.errstate(invalid="ignore", divide="ignore"):
        gamma = (concordant - discordant) / (concordant + discordant)
    return np.where(concordant + discordant == 0, np.nan, gamma)


def _aggregate(votes, mean, aggregation):
    """Ensemble class codes from the trees' votes (n, k) or, for ``aggregation="proba"``,
    their mean probabilities (n, k)."""
    if aggregation == "median":
        return weighted_median(votes)
    return np.argmax(mean if aggregation == "proba" else votes, axis=1)


def _shares(votes, mean):
    """The ensemble's class probabilities: the vote shares, or the mean probabilities where
    ``votes`` is None."""
    return mean if votes is None else votes / votes.sum(axis=1, keepdims=True)


class _BaseBagging(OrdinalClassifierMixin, BaseEstimator):
    """Bootstrap aggregation of trees fitted on class codes; subclasses choose the tree."""

    # the parameters both ensembles share; each subclass adds its own
    _parameter_constraints: dict = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "aggregation": [StrOptions(set(AGGREGATIONS))],
        "oob_score": ["boolean"],
        "n_jobs": N_JOBS,
        "random_state": ["random_state", np.random.Generator],
        "progress": ["boolean"],
        "classes": ["array-like", None],
    }

    def _template(self):
        raise NotImplementedError

    def _importance(self):
        return None

    def _missing(self):
        return missing_values(self._template())

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = self._missing() == "allow-nan"
        tags.input_tags.categorical = takes_categories(self._template())
        return tags

    def fit(self, X, y, sample_weight=None):
        """Fit ``n_estimators`` trees on bootstrap samples of (X, y).

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Numeric features; missing values (NaN) are kept when the base estimator accepts
            them (the default ordinal trees do, see :class:`~ordstat.trees.OrdinalTreeClassifier`).
            DataFrame columns may also be strings or pandas Categoricals, coded once for all
            trees as the ordinal tree codes them (``ColumnCoding`` of
            :mod:`ordstat._core.predictors`: strings and unordered Categoricals are split as
            categories, with "missing" a category of its own when the column had missing
            values; an ordered Categorical is the numeric scale of its codes). A base
            estimator other than an ordinal tree gets numbers only: ordered Categoricals as
            their codes, unordered columns are refused.
        y : array-like of shape (n_samples,)
            Ordered class labels.
        sample_weight : array-like of shape (n_samples,), optional
            Unit weights (finite, non-negative, not all zero), which act through the bootstrap
            only: each tree is grown, unweighted, on a sample that draws the units with
            probability proportional to their weights. Whole-number weights are read as the
            counts of a frequency table: the sample draws sum(w) rows, the bootstrap of the
            table expanded into repeated rows (drawn from the same random numbers), so the
            ensemble grows exactly the trees of the expanded rows (drawing sum(w) numbers per
            tree: weights that are not counts but sum to far more than n, such as survey
            weights, are better scaled). Other weights draw n units, unit i with probability
            w_i / sum(w). A unit of weight 0 is never in a
            bootstrap sample (it is out of bag for every tree but counts for nothing). The
            out-of-bag scores (of the ensemble, of each tree, and the permutation importance)
            are means over the out-of-bag units weighted by their weights, and
            ``oob_confusion_`` sums their weights.

        Returns
        -------
        self
        """
        self._validate_params()
        importance = self._importance()
        template = self._template()
        # categorical columns coded once for all trees, as the tree codes them
        coding, X = code_predictors(self, X, template)
        X, codes, w = validate_fit(self, X, y, sample_weight, classes=self.classes,
                                   ensure_all_finite=self._missing())
        w = None if sample_weight is None else w
        k = self.n_classes_
        seeds = spawn_seeds(self.random_state, self.n_estimators)
        prepared = self._prepared(template, X, codes, k, coding, self.n_jobs)
        threads = prepared is not None and _fast.kernels() is not None
        # what each tree gives back for the out-of-bag scores: its predictions, and its class
        # probabilities only where they are aggregated
        oob_outputs = self.oob_score and ("proba" if self.aggregation == "proba" else True)
        base = base_tree(template, X.shape[1], k, coding)
        tasks = ((base, X, codes, k, seed, importance, oob_outputs, prepared, coding, w)
                 for seed in seeds)
        # Trees grown on the prepared sample run compiled kernels that release the GIL: in
        # threads (joblib's hint; a backend the user chose, Dask or processes, still decides)
        # they share the sample, the compiled kernels and the fitted trees, where processes
        # would each hold a copy of the sample, load the kernels and send their trees back.
        results = run_parallel(_fit_one, tasks, self.n_jobs, self.progress,
                               desc=type(self).__name__,
                               prefer="threads" if threads else None, lazy=True)
        # each tree's out-of-bag results are summed as the tree comes (in order), not kept
        # for all trees: at n = 10^6 they are 18 MB a tree
        self.estimators_, gains = [], []
        oob = (_OutOfBag(codes.shape[0], k, w, proba=self.aggregation == "proba")
               if self.oob_score else None)
        for r in results:
            self.estimators_.append(r["estimator"])
            if oob is not None:
                oob.add(r, codes)
            if importance is not None:
                gains.append(r.get("importance", np.full(X.shape[1], np.nan)))
            del r
            release_freed_memory(X.size)
        self._bootstrap_seeds, self._n_samples = seeds, codes.shape[0]
        self._sample_weight = w  # the bootstrap samples are drawn again from it
        if oob is not None:
            self._set_oob(oob, codes, k, w)
        if importance is not None:
            gains = np.array(gains)
            self.permutation_importances_ = gains
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                self.permutation_importance_ = np.nanmean(gains, axis=0)
        return self

    @staticmethod
    def _prepared(template, X, codes, k, coding=None, n_jobs=None):
        """(prepared sample, encoding of the codes, tree parameters, the trees'
        ``_sample_state`` for the columns' ``coding``) when the trees are ordinal trees that
        take a bootstrap sample as distinct rows with repeat counts: the trees then share the
        sample prepared here (:mod:`ordstat.trees._prepared`, its features sorted in ``n_jobs``
        threads) and the state made here once; else None."""
        p = X.shape[1]
        if type(template) is not OrdinalTreeClassifier or not template._counts_repeats(p):
            return None
        encoding = codes_encoding(k)
        # the engine the trees will choose (ordstat.trees._engine: at large n, fully grown
        # trees drawing fewer than all features sort per node, on ranks instead of words)
        params = template._tree_params(p)
        presort = template._presorts(p) and not choose_engine(
            params["criterion"], params["max_features"], p, X.shape[0],
            fully_grown=params["cp"] < 0 and params["max_leaf_nodes"] is None).per_node
        data = prepare(X, codes, k, presort=presort, n_jobs=n_jobs)
        return (data, encoding, template.get_params(deep=False),
                template._sample_state(p, k, coding))

    @property
    def estimators_samples_(self):
        """The bootstrap indices (with repeats) of every tree, in the smallest integer type
        that holds them: drawn again from each tree's seed (as :func:`_fit_one` drew them),
        not kept by the fit."""
        check_is_fitted(self)
        weight = getattr(self, "_sample_weight", None)  # absent from older pickles
        return [compact_array(_bootstrap(seed, self._n_samples, weight)[0])
                for seed in self._bootstrap_seeds]

    def _set_oob(self, oob, codes, k, sample_weight=None):
        n = codes.shape[0]
        oob._flush(codes)
        votes, proba_sum = oob.votes, oob.proba_sum
        self.oob_per_estimator_ = oob.rows
        n_trees = votes.sum(axis=1)
        seen = n_trees > 0
        self.oob_n_estimators_ = n_trees.astype(np.int64)
        decision = np.full((n, k), np.nan)
        if self.aggregation == "proba":
            decision[seen] = proba_sum[seen] / n_trees[seen, None]
            oob_pred = np.argmax(decision[seen], axis=1)
        else:
            decision[seen] = votes[seen] / n_trees[seen, None]
            oob_pred = (weighted_median(votes[seen]) if self.aggregation == "median"
                        else np.argmax(votes[seen], axis=1))
        self.oob_decision_function_ = decision
        prediction = np.full(n, -1, dtype=np.intp)
        prediction[seen] = oob_pred
        self.oob_prediction_codes_ = prediction
        self.oob_confusion_ = oob_confusion(codes, prediction, k, sample_weight)
        if not seen.any():
            _warn("No unit was out of bag for any tree; the out-of-bag scores are NaN. "
                  "Use more estimators.", UserWarning)
            self.oob_error_ = self.oob_gamma_ = self.oob_mean_absolute_ = float("nan")
            self.oob_score_ = float("nan")
            return
        if not seen.all():
            _warn(f"{int((~seen).sum())} unit(s) were in every bootstrap sample and "
                  "are left out of the out-of-bag scores.", UserWarning)
        truth = codes[seen]
        w = None if sample_weight is None else sample_weight[seen]
        self.oob_error_ = weighted_mean(oob_pred != truth, w)
        self.oob_score_ = 1.0 - self.oob_error_  # scikit-learn's name: the accuracy
        self.oob_mean_absolute_ = weighted_mean(np.abs(oob_pred - truth), w)
        self.oob_gamma_ = _gamma(truth, oob_pred, k, w)

    # -- summary ---------------------------------------------------------------------------
    def summary(self, digits=4):
        """The ensemble described for reading: its classes, trees and out-of-bag scores.

        Parameters
        ----------
        digits : int, default=4
            Significant digits of the printed numbers (the tables keep full precision).

        Returns
        -------
        Summary
            Printable (``str``, and HTML in Jupyter); its tables are DataFrames:

            - ``summary["classes"]``: training units per class;
            - with ``oob_score``, ``summary["out-of-bag"]``: each metric of the aggregated
              out-of-bag prediction (column ``ensemble``: ``oob_error_``,
              ``oob_mean_absolute_``, ``oob_gamma_``) and the quantiles over trees of each
              tree's own out-of-bag score (columns ``min`` to ``max``, from
              ``oob_per_estimator_``);
            - with ``oob_score``, ``summary["out-of-bag by class"]``: for each true class, in
              the class order, ``n_oob`` (its units out of bag for at least one tree; their
              summed weights when fitted with ``sample_weight``),
              ``error`` (the share of them predicted out of bag as another class) and
              ``mean_absolute`` (their mean rank distance to the predicted class); and
              ``summary["out-of-bag confusion"]``: ``oob_confusion_`` with rows the true and
              columns the predicted classes, by label;
            - ``summary["importance"]``: each feature's ``split`` importance
              (``feature_importances_``) and, with the forest's ``importance``, its
              ``permutation`` importance (``permutation_importance_``), sorted by the last
              column, most important first; absent when the base estimators are not trees.
        """
        check_is_fitted(self)
        digits = check_positive_int(digits, "digits")
        info = class_info(self, digits) + self._summary_info()
        tables = {"classes": class_table(self)}
        if hasattr(self, "oob_error_"):
            seen = self.oob_n_estimators_ > 0
            info.append(("out of bag", f"{int(seen.sum())} of {seen.size} units out of bag for "
                                       "at least one tree"))
            metrics = ["misclassification", "mean_absolute", "gamma"]
            per_tree = self.oob_per_estimator_[metrics]
            table = per_tree.quantile([0.0, 0.25, 0.5, 0.75, 1.0]).T
            table.columns = ["min", "25%", "50%", "75%", "max"]
            table.insert(0, "ensemble", [self.oob_error_, self.oob_mean_absolute_,
                                         self.oob_gamma_])
            table.index.name = "metric"
            tables["out-of-bag"] = table
            tables["out-of-bag by class"] = oob_class_table(self)
            tables["out-of-bag confusion"] = oob_confusion_table(self)
        tables.update(self._summary_tables())
        notes = ("out-of-bag: 'ensemble' scores each unit by the trees whose bootstrap sample "
                 "left it out; min..max are quantiles over trees of each tree's own out-of-bag "
                 "score.\nout-of-bag by class, confusion: the aggregated out-of-bag prediction "
                 "of each unit by its true class (rows) and predicted class (columns)."
                 if "out-of-bag" in tables else "")
        return Summary(self._summary_title(), info, tables, notes, digits)

    def _summary_info(self):
        return [("trees", str(len(self.estimators_))), ("aggregation", self.aggregation)]

    def _summary_tables(self):
        table = importance_table(self)
        return {} if table is None else {"importance": table}

    # -- prediction ------------------------------------------------------------------------
    def _tree_outputs(self, X):
        """The trees' votes (n, K) or, with ``aggregation="proba"``, their mean class
        probabilities (n, K); the other None. Each tree is walked once, by the compiled walk
        in ``n_jobs`` threads where the trees are ordinal trees (:mod:`._predict`)."""
        X = validate_predict(self, coded_predictors(self, X),
                             ensure_all_finite=self._missing())
        k, trees = self.n_classes_, self.estimators_
        mean = self.aggregation == "proba"
        totals = tree_totals(trees, X, k, votes=not mean, proba=mean, n_jobs=self.n_jobs)
        if totals is not None:
            votes, proba_sum = totals
            return votes, (proba_sum / len(trees) if mean else None)
        if mean:
            return None, np.array([base_proba(t, X, k) for t in trees]).mean(axis=0)
        return vote_table(np.array([base_predict(t, X) for t in trees]), k), None

    def predict_proba(self, X):
        """Share of the trees voting for each class (``aggregation`` "vote" or "median"), or
        the mean of the trees' leaf proportions ("proba"); columns follow ``classes_``.

        With ``aggregation="median"`` these shares do not give the prediction: :meth:`predict`
        returns the median of the votes, which differs from the class with the largest share
        whenever the votes are spread over several classes (with many classes, a sizeable
        share of the units). The
        probabilities that go with the median are the cumulative shares of
        :meth:`predict_cumulative_proba`: the median is the first class at which they reach
        one half.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, K)
        """
        check_is_fitted(self)
        return _shares(*self._tree_outputs(X))

    def predict_cumulative_proba(self, X):
        """Cumulative probabilities P(Y <= c_k) for the K-1 cuts k = 1..K-1, as the ensemble
        estimates them: the share of the trees voting for one of the classes c_1..c_k
        (``aggregation`` "vote" or "median"), or the sum of the mean leaf proportions of those
        classes ("proba").

        With ``aggregation="median"`` these are the probabilities that go with
        :meth:`predict`: the median vote is the smallest class c_k whose cumulative share
        reaches 1/2 (c_K when no cut's does), whereas :meth:`predict_proba`'s largest share
        can point elsewhere.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, K - 1)
            Column k-1 is P(Y <= ``classes_[k-1]``); non-decreasing along each row.
        """
        check_is_fitted(self)
        votes, mean = self._tree_outputs(X)
        if self.aggregation == "proba":
            cumulative = np.cumsum(mean, axis=1)
        else:
            # from the integer vote counts, so that a share of exactly 1/2 is exact
            cumulative = np.cumsum(votes, axis=1) / votes.sum(axis=1, keepdims=True)
        return cumulative[:, :-1]

    def predict(self, X):
        """The plurality vote, the median vote or the class of highest mean probability,
        as the user's labels."""
        check_is_fitted(self)
        codes = _aggregate(*self._tree_outputs(X), self.aggregation)
        return self.classes_[codes]


class OrdinalBaggingClassifier(_BaseBagging):
    """Bootstrap aggregation (bagging) of unpruned ordinal classification trees.

    Each of ``n_estimators`` trees is grown on a bootstrap sample of the learning set (drawn
    with replacement, size n) and the trees are combined by plurality vote, by the median of
    the predicted classes, or by averaging their class proportions. The units left out of a
    tree's bootstrap sample (out of bag, OOB) estimate its error, and the ensemble's.

    Parameters
    ----------
    estimator : estimator, optional
        The base classifier, cloned for every bootstrap sample and fitted on class codes
        0..K-1 (its ``classes`` and ``random_state`` are set by the ensemble). Default: an
        unpruned :class:`~ordstat.trees.OrdinalTreeClassifier` with the ordinal impurity,
        ``min_split=5``, ``cp=0`` and no cross-validation, the setting of Archer & Mas (2009).
    n_estimators : int, default=100
        Number of bootstrap samples B.
    aggregation : {"vote", "median", "proba"}, default="vote"
        Plurality vote (Breiman 1996; Archer & Mas 2009, eqs. 6-8), the median of the trees'
        predicted classes (the lower median on an even split), or the class of highest mean
        probability.
    oob_score : bool, default=True
        Compute the out-of-bag scores of the ensemble and of every tree.
    n_jobs : int, optional
        Number of joblib jobs (any joblib backend, Dask included); the result does not depend
        on it.
    random_state : None, int or numpy Generator
        Seeds the bootstrap samples and the trees.
    progress : bool, default=False
        Show a tqdm progress bar while fitting.
    classes : sequence, optional
        All class labels from lowest to highest.

    Attributes
    ----------
    estimators_ : list of fitted base estimators (predicting class codes)
    estimators_samples_ : list of ndarray
        The bootstrap indices (with repeats) of every tree, in the smallest integer type that
        holds them (drawn again from the trees' seeds when read, not stored).
    oob_error_, oob_mean_absolute_, oob_gamma_ : float
        Misclassification rate, mean absolute distance between class ranks and
        Goodman-Kruskal gamma of the aggregated out-of-bag prediction (each unit predicted by
        the trees whose bootstrap sample did not contain it; units in every sample are left
        out).
    oob_score_ : float
        The out-of-bag accuracy, ``1 - oob_error_`` (scikit-learn's ``oob_score_``).
    oob_decision_function_ : ndarray of shape (n_samples, K)
        Out-of-bag vote shares (or mean probabilities); NaN rows for units never out of bag.
    oob_prediction_codes_ : ndarray of shape (n_samples,)
        Out-of-bag predicted class codes (-1 where undefined).
    oob_n_estimators_ : ndarray of shape (n_samples,)
        Number of trees for which each unit was out of bag.
    oob_confusion_ : ndarray of shape (K, K)
        Units by true class (rows) and aggregated out-of-bag predicted class (columns), both
        in ``classes_`` order, over the units out of bag for at least one tree (with
        ``sample_weight``, their summed weights); the summary's out-of-bag errors by class
        come from it.
    oob_per_estimator_ : pandas.DataFrame
        One row per tree: ``estimator``, ``n_oob``, ``misclassification``, ``gamma``
        and ``mean_absolute`` on its own out-of-bag units, as in the boxplots of Archer & Mas
        (2009, Figure 2).
    feature_importances_ : ndarray of shape (n_features,)
        Mean over all trees of their normalised split importances (each tree's
        ``feature_importances_``: its summed goodness of split per feature over their total),
        the definition of :class:`OrdinalRandomForestClassifier`: a tree without a split
        counts as zeros, so they sum to the share of trees with a split (1 unless a bootstrap
        sample held a single class). Only when the base estimators have
        ``feature_importances_`` (trees).
    classes_ : ndarray of shape (K,)
    n_features_in_ : int

    Notes
    -----
    Bag ordinal trees with this class, not with scikit-learn's ``BaggingClassifier``: that one
    fits its trees on integer codes of the *sorted* labels, so string labels are put in
    alphabetical order ("high" < "low" < "mid") and an ordered Categorical loses its order,
    without a warning. ordstat's estimators cannot tell such codes from a user's own integer
    labels, so they do not warn either; if you must use a scikit-learn meta-estimator, give it
    ``y`` as ranks 0..K-1 in the ordinal order (see :mod:`ordstat.ensemble`).

    References
    ----------
    Breiman, L. (1996). Bagging predictors. Machine Learning 24, 123-140.
    Archer, K. J. & Mas, V. R. (2009). Ordinal response prediction using bootstrap
    aggregation, with application to a high-throughput methylation data set, sections 3 and 5.
    Tutz, G. & Hechenbichler, K. (2003). Aggregating classifiers with ordinal response
    structure, section 2.

    Examples
    --------
    >>> import numpy as np
    >>> from ordstat.ensemble import OrdinalBaggingClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(120, 3))
    >>> y = np.digitize(X[:, 0], [-0.5, 0.5])
    >>> bag = OrdinalBaggingClassifier(n_estimators=10, random_state=0).fit(X, y)
    >>> bag.oob_per_estimator_.shape
    (10, 5)
    """

    def __init__(self, estimator=None, n_estimators=100, aggregation="vote", oob_score=True,
                 n_jobs=None, random_state=None, progress=False, classes=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.aggregation = aggregation
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.progress = progress
        self.classes = classes

    _parameter_constraints: dict = {
        **_BaseBagging._parameter_constraints,
        "estimator": [HasMethods(["fit", "predict"]), None],
    }

    def _template(self):
        if self.estimator is None:
            return OrdinalTreeClassifier(criterion="ordinal", min_split=5, cp=0.0, xval=0)
        return self.estimator

    @property
    def feature_importances_(self):
        """Mean over all trees of their normalised split importances (see the class's
        Attributes); an AttributeError when the base estimators are not trees."""
        check_is_fitted(self)
        importances = split_importances(self.estimators_, self.n_features_in_)
        if importances is None:
            raise AttributeError(
                "feature_importances_: the base estimator "
                f"{type(self._template()).__name__} has no feature_importances_; bagged "
                "trees have them.")
        return importances

    def _summary_title(self):
        return "Ordinal bagging"

    def _summary_info(self):
        base = ("ordinal tree (ordinal impurity, min_split=5, cp=0, unpruned)"
                if self.estimator is None else one_line(self.estimator))
        return super()._summary_info() + [("base estimator", base)]


# rpart's surrogate splits: the tree parameters the forest passes on as they are
_SURROGATE_PARAMS = ("missing", "maxsurrogate", "usesurrogate", "surrogatestyle")


class OrdinalRandomForestClassifier(_BaseBagging):
    """Random forest of ordinal trees: bagging with ``max_features`` features drawn at random
    in every node, vote or median aggregation, out-of-bag scores and a permutation importance
    measured with an ordinal metric.

    Parameters
    ----------
    n_estimators : int, default=100
        Number of trees, each grown on its own bootstrap sample.
    criterion : str or callable, default="ordinal"
        Any criterion of :data:`ordstat.trees.criteria.CRITERIA` (e.g. ``"ordinal"``,
        ``"twoing"``, ``"gini_linear"``, ``"gini"``) or a criterion function.
    max_features : int, float, {"sqrt", "log2", "log2+1"} or None, default="sqrt"
        Features drawn in each node (see :class:`~ordstat.trees.OrdinalTreeClassifier`);
        ``"log2+1"``, floor(log2 M) + 1 of the M features, is the dissertation's choice
        (section 5.2, Table 5.3), after Breiman (2001).
    min_split : int, default=2
        A node with fewer units is not split.
    min_bucket : int, default=1
        Minimum number of units in a leaf.
    max_depth : int, default=30
        Maximum depth of every tree (the root has depth 0).
    aggregation : {"median", "vote", "proba"}, default="median"
        Median of the trees' predicted classes (the lower median on an even split), as
        recommended for ordinal forests in the dissertation "Ensemble methods for ordinal data
        classification" (section 5.2), plurality vote, or mean probability. With the median,
        :meth:`predict_proba` (vote shares) can favour another class than :meth:`predict`;
        :meth:`predict_cumulative_proba` gives the cumulative shares the median is read from.
    oob_score : bool, default=True
        Compute the out-of-bag scores of the forest and of every tree (the attributes
        ``oob_*``).
    importance : {None, "mean_absolute", "gamma", "misclassification"}, default=None
        When set, ``permutation_importance_``: for each tree and feature, the increase of the
        out-of-bag loss (mean absolute distance, minus gamma, or misclassification) when that
        feature's out-of-bag values are permuted (Breiman 2001), averaged over trees. The
        aliases of these metric names are accepted (see ``ordstat.metrics.get_metric``).
    n_jobs : int, optional
        Number of joblib jobs (threads for the trees; any joblib backend, Dask included); the
        result does not depend on it.
    random_state : None, int or numpy Generator
        Seeds the bootstrap samples and the features drawn in every node: the same seed gives
        the same forest whatever ``n_jobs``.
    progress : bool, default=False
        Show a tqdm progress bar while fitting.
    classes : sequence, optional
        All class labels from lowest to highest (otherwise those of ``y``: an ordered
        Categorical's categories, or the sorted labels).
    missing : {"learned", "surrogate"}, default="learned"
        How every tree sends units missing a split's feature (see
        :class:`~ordstat.trees.OrdinalTreeClassifier`): the side each node learns, or rpart's
        surrogate splits (computed on all features, not only those drawn in the node). The
        default keeps the learned side: it grows on the compiled engines (the surrogate
        growth runs in numpy, many times slower, docs/trees_engine.md), and Breiman's
        forests (randomForest) have no surrogates either.
    maxsurrogate, usesurrogate, surrogatestyle : int, default=5, 2, 0
        rpart's controls of the surrogates, passed to every tree (with
        ``missing="surrogate"`` only).

    Attributes
    ----------
    estimators_ : list of fitted OrdinalTreeClassifier
        The trees, fitted on class codes 0..K-1.
    estimators_samples_ : list of ndarray
        The bootstrap indices (with repeats) of every tree, in the smallest integer type that
        holds them (drawn again from the trees' seeds when read, not stored).
    oob_error_, oob_mean_absolute_, oob_gamma_ : float
        Misclassification rate, mean absolute distance between class ranks and
        Goodman-Kruskal gamma of the aggregated out-of-bag prediction (each unit predicted by
        the trees whose bootstrap sample did not contain it; units in every sample are left
        out). Only with ``oob_score``, as are the other ``oob_*`` attributes.
    oob_score_ : float
        The out-of-bag accuracy, ``1 - oob_error_`` (scikit-learn's ``oob_score_``).
    oob_decision_function_ : ndarray of shape (n_samples, K)
        Out-of-bag vote shares (or mean probabilities); NaN rows for units never out of bag.
    oob_prediction_codes_ : ndarray of shape (n_samples,)
        Out-of-bag predicted class codes (-1 where undefined).
    oob_n_estimators_ : ndarray of shape (n_samples,)
        Number of trees for which each unit was out of bag.
    oob_confusion_ : ndarray of shape (K, K)
        Units by true class (rows) and aggregated out-of-bag predicted class (columns), both
        in ``classes_`` order, over the units out of bag for at least one tree.
    oob_per_estimator_ : pandas.DataFrame
        One row per tree: ``estimator``, ``n_oob``, ``misclassification``, ``gamma`` and
        ``mean_absolute`` on its own out-of-bag units.
    feature_importances_ : ndarray of shape (n_features,)
        Mean over all trees of their normalised split-goodness importances, a tree without a
        split (e.g. grown on a bootstrap sample of one class) counting as zeros; they sum to
        the share of trees with a split.
    permutation_importance_ : ndarray of shape (n_features,)
        Only with ``importance``.
    permutation_importances_ : ndarray of shape (n_estimators, n_features)
        Per-tree permutation importances (NaN for a tree without out-of-bag units).

    References
    ----------
    Breiman, L. (2001). Random forests. Machine Learning 45, 5-32.
    "Ensemble methods for ordinal data classification" (dissertation), section 5.2.
    Archer, K. J. & Mas, V. R. (2009). Ordinal response prediction using bootstrap
    aggregation, with application to a high-throughput methylation data set.
    """

    def __init__(self, n_estimators=100, criterion="ordinal", max_features="sqrt", min_split=2,
                 min_bucket=1, max_depth=30, aggregation="median", oob_score=True,
                 importance=None, n_jobs=None, random_state=None, progress=False,
                 classes=None, missing="learned", maxsurrogate=5, usesurrogate=2,
                 surrogatestyle=0):
        self.missing = missing
        self.maxsurrogate = maxsurrogate
        self.usesurrogate = usesurrogate
        self.surrogatestyle = surrogatestyle
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_features = max_features
        self.min_split = min_split
        self.min_bucket = min_bucket
        self.max_depth = max_depth
        self.aggregation = aggregation
        self.oob_score = oob_score
        self.importance = importance
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.progress = progress
        self.classes = classes

    def _template(self):
        return OrdinalTreeClassifier(criterion=self.criterion, min_split=self.min_split,
                                     min_bucket=self.min_bucket, max_depth=self.max_depth,
                                     cp=-1.0, max_features=self.max_features, xval=0,
                                     **{name: getattr(self, name) for name in _SURROGATE_PARAMS})

    # the tree's own constraints for the parameters passed on to every tree
    _parameter_constraints: dict = {
        **_BaseBagging._parameter_constraints,
        **{name: OrdinalTreeClassifier._parameter_constraints[name]
           for name in ("criterion", "max_features", "min_split", "min_bucket", "max_depth",
                        *_SURROGATE_PARAMS)},
        "importance": [str, None],
    }

    def _importance(self):
        if self.importance is None:
            return None
        # any spelling of the metric names (ordstat._core.names), e.g. "mae"
        name = metric_name(self.importance, "importance")
        if name not in IMPORTANCE_METRICS:
            raise ValueError(f"importance must be one of {sorted(IMPORTANCE_METRICS)} or one "
                             f"of their aliases; got {self.importance!r}.")
        return name

    def _summary_title(self):
        return "Ordinal random forest"

    def _summary_info(self):
        return super()._summary_info() + [
            ("tree settings", f"criterion={self.criterion!r}, max_features="
                                f"{self.max_features!r}, min_split={self.min_split}, "
                                f"min_bucket={self.min_bucket}, max_depth={self.max_depth}")]

    def fit(self, X, y, sample_weight=None):
        """Grow ``n_estimators`` trees on bootstrap samples of (X, y), each drawing
        ``max_features`` features at random in every node.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Numeric features, missing values (NaN) allowed. DataFrame columns may also be
            strings or pandas Categoricals, coded once for all trees as the ordinal tree codes
            them: strings and unordered Categoricals are split as categories ("missing" a
            category of its own when the column has missing values), an ordered Categorical is
            the numeric scale of its codes.
        y : array-like of shape (n_samples,)
            Ordered class labels: an ordered Categorical, labels with ``classes=``, or sorted
            labels.
        sample_weight : array-like of shape (n_samples,), optional
            Unit weights, which act through the bootstrap and weight the out-of-bag scores,
            as in :meth:`OrdinalBaggingClassifier.fit`: whole-number weights (a frequency
            table) grow exactly the forest of the table expanded into repeated rows; other
            weights draw n units with probability proportional to their weights.

        Returns
        -------
        self
        """
        super().fit(X, y, sample_weight)
        self.feature_importances_ = split_importances(self.estimators_,
                                                      self.n_features_in_)
        return self

