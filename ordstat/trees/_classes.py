"""The rpart-style ordinal classification tree estimator."""

from __future__ import annotations

import copy
import numbers
from typing import NamedTuple

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from .._core.base import OrdinalClassifierMixin
from .._core.costs import distance_cost
from .._core.predictors import ColumnCoding
from .._core.validation import (
    Integral,
    Interval,
    Options,
    Real,
    RealNotInt,
    StrOptions,
    check_in_range,
    check_X_given,
    check_positive_int,
    check_random_state,
    validate_fit,
    validate_predict,
)
from ._engine import choose as choose_engine
from ._grow import TreeBuilder
from ._export import category_levels, tree_to_text
from ._prune import (
    cp_sequence,
    cp_table,
    cross_validated_risk,
    make_folds,
    prune_tree,
    select_cp,
    select_leaves,
)
from ._surrogate import SurrogateRule
from ._tree import with_present_categories
from .criteria import get_criterion, user_registration

__all__ = ["OrdinalTreeClassifier"]

_LEAF_RULES = ("mode", "median", "cost")
_MAX_DEPTH_LIMIT = 60  # rpart stops at 30; node numbers 2^depth must fit in int64


class SampleState(NamedTuple):
    """The parameters as the builder uses them (:meth:`OrdinalTreeClassifier._tree_params`),
    the loss matrix, the column coding and the categories of each column of the trees that
    an ensemble grows on its prepared sample
    (:meth:`OrdinalTreeClassifier._sample_state`)."""

    params: dict
    loss: np.ndarray
    coding: ColumnCoding
    cat_sizes: np.ndarray


def _floor_log2(p):
    return int(p).bit_length() - 1  # exact, unlike a floating-point log


#: max_features by name: the number of features drawn out of p >= 1 (between 1 and p)
_FEATURE_RULES = {
    "sqrt": lambda p: max(1, int(np.sqrt(p))),
    "log2": lambda p: max(1, _floor_log2(p)),
    "log2+1": lambda p: min(p, _floor_log2(p) + 1),
}


MAX_FEATURES_CONSTRAINT = [Interval(Integral, 1, None, closed="left"),
                           Interval(RealNotInt, 0.0, 1.0, closed="right"),
                           StrOptions(set(_FEATURE_RULES)), None]


def n_features_drawn(max_features, p):
    """How many of ``p`` features a node draws for ``max_features`` (None: all of them): a
    name of ``_FEATURE_RULES``, an int (at most p) or a fraction of p (at least 1). Shared by
    the tree and the replicated tree (oDT); an int above p is an error (it would silently
    mean every feature)."""
    if max_features is None:
        return p
    if isinstance(max_features, str):
        return _FEATURE_RULES[max_features](p)
    if isinstance(max_features, (numbers.Integral, np.integer)):
        if max_features > p:
            raise ValueError(
                f"max_features={int(max_features)} is larger than the number of features "
                f"({p}); give at most {p}, a fraction of them (e.g. 0.5), or None for all."
            )
        return int(max_features)
    return min(p, max(1, int(max_features * p)))


class OrdinalTreeClassifier(OrdinalClassifierMixin, BaseEstimator):
    """Classification tree for an ordered response, grown and pruned the way rpart does.

    Splits maximise a criterion from :data:`ordstat.trees.criteria.CRITERIA` (by default
    Piccarreta's ordinal impurity); growth, the ``cp`` rule and cross-validated
    cost-complexity pruning follow rpart (Therneau & Atkinson).

    Parameters
    ----------
    criterion : str, Criterion or callable, default="ordinal"
        A registered criterion name (``"ordinal"``, ``"gini"``, ``"entropy"`` (alias
        ``"deviance"``: a node's deviance -2 sum_g n_g log p_g is 2 n times its entropy, so it
        chooses the same splits), ``"gini_linear"`` (alias ``"linear"``), ``"gini_quadratic"``
        (alias ``"quadratic"``), ``"loss_linear"``, ``"loss_quadratic"`` (rpart's loss matrix,
        altered priors; use with ``leaf_rule="cost"``), ``"twoing"`` or one added with
        :func:`~ordstat.trees.criteria.register_criterion`), a
        :class:`~ordstat.trees.criteria.Criterion` such as
        ``criteria.generalized_gini(cost_matrix)`` or ``criteria.ordinal_impurity(scores)``, or
        a function ``fn(left, right) -> goodness`` over arrays of shape (n_candidates, K) of
        weighted class counts. A pickled estimator carries the record of a user-registered
        name, so worker processes (``n_jobs``, Dask) know it.
    min_split : int, default=20
        A node with fewer units is not split (rpart's ``minsplit``).
    min_bucket : int, optional
        Minimum number of units in a leaf (rpart's ``minbucket``); default
        ``max(1, round(min_split / 3))``.
    cp : float, default=0.01
        Complexity parameter: a split is kept only if it lowers the risk of the tree, relative
        to the root's, by at least ``cp`` (per split, in the weakest-link sense). ``cp=0`` still
        drops splits that do not lower the risk at all; a negative value (e.g. -1) keeps them.
    max_depth : int, default=30
        Maximum depth of a node, the root counting as depth 0 (at most 60).
    max_leaf_nodes : int, optional
        Grow best first (largest goodness of split) up to this many leaves, for the fixed tree
        sizes of Tutz & Hechenbichler (2003); the ``cp`` rule is applied afterwards (use
        ``cp=-1`` to keep every split).
    max_features : int, float, {"sqrt", "log2", "log2+1"} or None, default=None
        Number of features drawn at random in each node (for forests) out of the M features:
        an int, a fraction of M, floor(sqrt M), floor(log2 M), or floor(log2 M) + 1 (capped
        at M; as in Breiman (2001) and Weka's random forest, and the dissertation "Ensemble
        methods for ordinal data classification", section 5.2), each at least 1; None uses
        all. A node none of whose drawn features admits a split becomes a leaf.
    xval : int or array-like of shape (n_samples,), default=10
        Number of cross-validation folds for the cp table (0 or 1: none), or the fold id of every
        unit (rpart's ``xval`` vector).
    prune : {None, "min", "1se"} or int, default=None
        Prune the fitted tree to the row of ``cp_table_`` with the smallest cross-validated
        error, or to the smallest tree within one standard error of it (both need ``xval``);
        or, given a positive int k, to the largest subtree of the table's sequence with at
        most k leaves. The sequence is ordered by the resubstitution risk of ``leaf_rule``, so
        k needs no cross-validation (``xval=0`` is fine): with the default ``leaf_rule`` and
        ``criterion="entropy"`` this is the tree of fixed size of Tutz & Hechenbichler (2003),
        section 4.1 (grown by the deviance to a maximum depth, pruned by resubstitution
        misclassification to k leaves). Splits of equal complexity go together, so the tree
        can have fewer than k leaves; a tree with at most k leaves is left as grown.
    leaf_rule : {"mode", "median", "cost"}, default="mode"
        Class predicted in a leaf and the loss behind the risk used by ``cp`` and the cp table:
        the mode (misclassification loss, rpart's default), the weighted median (absolute
        distance ``|g - h|`` between class ranks), or the class of least expected cost under the
        cost (loss) matrix of a generalized-Gini or loss-matrix criterion (rpart's leaves and
        risk for ``parms = list(loss = L)``).
    random_state : None, int or numpy Generator, default=None
        Seeds the cross-validation folds and ``max_features``.
    classes : sequence, optional
        All class labels from lowest to highest (see ``ordstat._core.labels``).
    missing : {"learned", "surrogate"}, default="learned"
        How units missing a split's feature (NaN) go down the tree. ``"learned"``: each node
        learns their side at fitting (see Notes). ``"surrogate"``: rpart's surrogate splits
        (Therneau & Atkinson, "Missing data"; Breiman et al. 1984, section 5.3), with
        ``maxsurrogate``, ``usesurrogate`` and ``surrogatestyle`` as in ``rpart.control``:
        each split's goodness is computed on the node's units not missing its feature, and
        the units missing it go by the splits of other features that best agree with it; the
        tree and its variable importance are rpart's (tests compare them on data with missing
        values). The default stays ``"learned"``: it runs on the compiled engines (the
        surrogate growth runs in numpy, several times slower, docs/trees_engine.md), and
        changing it would change every fitted tree on data with missing values; on data
        without missing values both grow the same splits.
    maxsurrogate : int, default=5
        With ``missing="surrogate"``: surrogate splits kept per node (rpart's
        ``maxsurrogate``; 0 computes none, then ``usesurrogate=2`` sends the units by the
        majority only when predicting, as rpart does). Ignored with ``"learned"``.
    usesurrogate : {0, 1, 2}, default=2
        With ``missing="surrogate"`` (rpart's ``usesurrogate``): 0, a unit missing the split's
        feature stays in the node (at fitting, and when predicting it gets that node's
        prediction); 1, it goes by the first surrogate it is not missing, else stays; 2, then
        to the majority side (at fitting the side the split sent more weight to, when
        predicting the child with more training units; it stays on a tie). Ignored with
        ``"learned"``.
    surrogatestyle : {0, 1}, default=0
        With ``missing="surrogate"`` (rpart's ``surrogatestyle``): 0, a surrogate's agreement
        is counted over all units the split sent (units missing the surrogate count as
        disagreeing), which favours surrogates with few missing values; 1, over the units
        that have both values (CART's percent agreement). Ignored with ``"learned"``.

    Attributes
    ----------
    tree_ : Tree
        The fitted tree as flat arrays of length ``n_nodes``, node 0 the root, nodes in
        depth-first preorder (left subtree before right, as the rows of rpart's ``frame``):
        ``children_left``, ``children_right`` (int64, -1 at leaves), ``feature`` (int64, -1 at
        leaves), ``threshold`` (float64; for a numeric split units with ``x < threshold`` go
        LEFT, rpart's ``"x< c"``; the midpoint of consecutive distinct values; NaN at leaves and
        categorical splits), ``left_categories`` (object array: for a categorical split the
        sorted int64 codes of the categories that go LEFT, None otherwise), ``value``
        (n_nodes x K weighted class counts), ``n_node_samples``, ``weighted_n_node_samples``,
        ``impurity``, ``improvement`` (goodness of the node's split on the count scale, rpart's
        ``improve``; 0 at leaves), ``risk`` (rpart's ``dev``), ``yval`` (predicted class code),
        ``complexity`` (absolute; / ``risk[0]`` gives rpart's CP), ``node_number`` (rpart's
        numbering), ``depth``, ``missing_left`` (bool: missing values of the split feature go
        LEFT), ``missing_learned`` (bool: that side was learned from training units with
        missing values, else the majority rule; see Notes) and ``present_categories`` (object
        array: for a categorical split the sorted codes of the categories present among the
        node's training units, which the printed splits name, as rpart does; None otherwise);
        with ``missing="surrogate"``, ``surrogates`` (the surrogate splits of every node:
        :class:`~ordstat.trees._surrogate.Surrogates`).
        Note: rpart puts the child with the *lower* mean class first, which can be the
        ``x >= c`` side; here the left child is always ``x < c`` (``export_text`` too), while
        ``ordstat.r.to_rpart`` and the R package order and number the nodes as rpart.
    cp_table_ : pandas.DataFrame
        rpart's ``printcp`` table, one row per nested subtree (largest CP first), with columns
        ``CP``, ``nsplit``, ``rel_error`` and, with cross-validation, ``xerror``, ``xstd``
        (as in rpart, not when the tree has no split).
    cp_ : float
        The cp the returned tree is pruned at: the ``CP`` of the chosen row of ``cp_table_``
        when ``prune`` is given (``prune_tree(cp_)`` gives the same tree), ``cp`` when
        ``prune`` is None or the tree has no split.
    feature_importances_ : ndarray of shape (n_features,)
        Sum of the goodness of split of the splits on each feature, and with
        ``missing="surrogate"`` of ``adj`` times the goodness of each split that the feature
        is a surrogate of (rpart's variable importance), normalised to sum to 1 (all zeros
        without splits).
    variable_importance_ : ndarray of shape (n_features,)
        The same sums, not normalised.
    classes_ : ndarray of shape (K,)
        Class labels, lowest to highest.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` is a DataFrame.
    categories_ : dict
        ``{feature index: categories}`` for unordered pandas Categorical columns and for
        string or object-of-strings columns (their sorted observed values, no encoding
        needed). With a criterion that ignores the class order (``"gini"``, ``"entropy"``,
        the ``loss_*`` criteria) and more than two classes, every subset of the categories
        present in the node (at most ``SUBSET_SEARCH_LEVELS`` = 12 of them) is tried, as rpart
        does; otherwise (two classes, where it is exact, the ordinal criteria, user criteria,
        or more categories) the categories are ordered by their mean class rank in the node
        (means equal to 9 decimals tie and keep the order of the categories) and cut as a
        numeric scale. Ordered Categoricals are treated as numeric codes, as rpart does. At
        predict time DataFrame columns (and arrays of strings) are matched by category value;
        a numeric array must hold the category codes.

    Notes
    -----
    Parameters are checked at the start of ``fit`` (scikit-learn's ``_parameter_constraints``).
    The split search is compiled with numba for the built-in criteria (numpy otherwise, and
    for user criteria); both give the same tree (up to how exact ties between candidate splits
    are broken by rounding, with fractional weights). Candidates with non-positive goodness
    are never used, so a generalized-Gini split that would increase impurity is not made
    (Archer & Mas 2009, section 4.1). Units with zero weight are left out of the tree. ``min_split``
    and ``min_bucket`` count units, not weights, as in rpart.

    Missing values (NaN) in ``X`` are kept, not dropped: every unit takes part in the node's
    class counts, ``min_bucket``, the cp table and cross-validation, and the split search
    learns, in each node, the side missing values go to. A numeric feature's cuts are
    evaluated twice when the node has missing values on it, with them sent left and sent
    right, and the better is kept (right on ties), as scikit-learn (>= 1.3) and XGBoost do. A
    node that had no missing values on its split feature at fitting sends them at prediction
    to the child with the larger training weight (left on ties), rpart's majority rule. In an
    unordered Categorical column with missing values, "missing" is a category of its own,
    ordered with the others; if the column had none at fitting, missing values follow the
    majority rule. A column that is all NaN is never split on; ``inf`` is an error. rpart
    (Therneau & Atkinson, sections on missing data) instead ranks surrogate splits on other
    variables and sends a unit without any usable surrogate the majority way
    (``usesurrogate = 2``); ``missing="surrogate"`` does that (see ``missing``).
    ``max_leaf_nodes`` (best-first growth) is not available with surrogates. An ordered
    Categorical's cut with surrogates is put where rpart's levels put it (a level absent from
    the node between two present ones goes to the lower side).

    Pruning a fitted tree at a chosen cp (rpart's ``prune(fit, cp)``) is the method
    :meth:`prune_tree`: the name ``prune`` is taken by the constructor parameter, and an
    instance attribute cannot be both a parameter and a method in scikit-learn.

    References
    ----------
    Archer & Mas (2009), "Ordinal response prediction using bootstrap aggregation, with
    application to a high-throughput methylation data set", sections 2 and 4, eqs. (1)-(4),
    (9)-(13). Breiman, Friedman, Olshen & Stone (1984), Classification and Regression Trees.
    Therneau & Atkinson, An Introduction to Recursive Partitioning Using the RPART Routines.
    Piccarreta (2008), Classification trees for ordinal variables, Comput. Stat. 23, 407-427.

    Examples
    --------
    >>> import numpy as np
    >>> from ordstat.trees import OrdinalTreeClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 3))
    >>> y = np.digitize(X[:, 0] + 0.3 * rng.normal(size=300), [-1, 0, 1])
    >>> tree = OrdinalTreeClassifier(random_state=0).fit(X, y)
    >>> tree.predict(X[:2]).shape
    (2,)
    """

    def __init__(self, criterion="ordinal", min_split=20, min_bucket=None, cp=0.01,
                 max_depth=30, max_leaf_nodes=None, max_features=None, xval=10, prune=None,
                 leaf_rule="mode", random_state=None, classes=None, missing="learned",
                 maxsurrogate=5, usesurrogate=2, surrogatestyle=0):
        self.criterion = criterion
        self.min_split = min_split
        self.min_bucket = min_bucket
        self.cp = cp
        self.max_depth = max_depth
        self.max_leaf_nodes = max_leaf_nodes
        self.max_features = max_features
        self.xval = xval
        self.prune = prune
        self.leaf_rule = leaf_rule
        self.random_state = random_state
        self.classes = classes
        self.missing = missing
        self.maxsurrogate = maxsurrogate
        self.usesurrogate = usesurrogate
        self.surrogatestyle = surrogatestyle

    _parameter_constraints: dict = {
        "criterion": [str, callable],
        "min_split": [Interval(Integral, 1, None, closed="left")],
        "min_bucket": [Interval(Integral, 1, None, closed="left"), None],
        "cp": [Interval(Real, None, None, closed="neither")],
        "max_depth": [Interval(Integral, 1, _MAX_DEPTH_LIMIT, closed="both")],
        "max_leaf_nodes": [Interval(Integral, 2, None, closed="left"), None],
        "max_features": MAX_FEATURES_CONSTRAINT,
        "xval": [Interval(Integral, 0, None, closed="left"), "array-like"],
        "prune": [StrOptions({"min", "1se"}), Interval(Integral, 1, None, closed="left"), None],
        "leaf_rule": [StrOptions(set(_LEAF_RULES))],
        "random_state": ["random_state", np.random.Generator],
        "classes": ["array-like", None],
        "missing": [StrOptions({"learned", "surrogate"})],
        "maxsurrogate": [Interval(Integral, 0, None, closed="left")],
        "usesurrogate": [Options(Integral, {0, 1, 2})],
        "surrogatestyle": [Options(Integral, {0, 1})],
    }

    # -- parameters ------------------------------------------------------------------------
    def _validate_params(self):
        """scikit-learn's check of each parameter against ``_parameter_constraints``, then what
        those cannot say: a registered criterion, ``leaf_rule="cost"`` with a cost criterion,
        ``xval`` as a vector of fold ids, ``prune`` by a rule with cross-validation."""
        super()._validate_params()
        crit = self._criterion_record()
        if self.leaf_rule == "cost" and not crit.has_cost:
            raise ValueError(
                "leaf_rule='cost' needs a criterion with a cost matrix, e.g. "
                "criterion='gini_linear', 'gini_quadratic', 'loss_linear', 'loss_quadratic', "
                "criteria.generalized_gini(C) or criteria.loss_matrix_gini(L); "
                f"got criterion={self.criterion!r}."
            )
        xval = self.xval
        if not isinstance(xval, (numbers.Integral, np.integer)) and np.ndim(xval) != 1:
            raise ValueError(f"xval must be an int >= 0 or a 1-D vector of fold ids; got {xval!r}.")
        if isinstance(self.prune, bool):  # an Integral to scikit-learn's check
            raise TypeError(f"prune must be 'min', '1se', a number of leaves >= 1 or None; got "
                            f"{self.prune!r}.")
        for name in ("maxsurrogate", "usesurrogate", "surrogatestyle"):
            if isinstance(getattr(self, name), bool):  # an Integral to scikit-learn's check
                raise TypeError(f"{name} must be an int; got {getattr(self, name)!r}.")
        if self.missing == "surrogate" and self.max_leaf_nodes is not None:
            raise ValueError(
                "missing='surrogate' grows depth first as rpart does and cannot grow best first "
                f"to max_leaf_nodes={self.max_leaf_nodes}; use missing='learned', or prune to a "
                "number of leaves with prune=k.")
        if isinstance(self.prune, str) and isinstance(xval, (numbers.Integral, np.integer)) \
                and xval < 2:
            raise ValueError(
                f"prune={self.prune!r} chooses the subtree by cross-validation; set xval to a "
                f"number of folds >= 2 (got xval={xval}), or give prune a number of leaves."
            )

    def _tree_params(self, n_features):
        """Parameters as the builder uses them (after :meth:`_validate_params`): the criterion
        record, the default min_bucket, max_features as a count of the ``n_features``."""
        min_bucket = (max(1, int(round(self.min_split / 3))) if self.min_bucket is None
                      else int(self.min_bucket))
        return dict(criterion=self._criterion_record(), min_split=int(self.min_split),
                    min_bucket=min_bucket, cp=float(self.cp), max_depth=int(self.max_depth),
                    max_leaf_nodes=self.max_leaf_nodes,
                    max_features=self._n_features_drawn(n_features),
                    surrogate=self._surrogate_rule())

    def _surrogate_rule(self):
        """The :class:`~ordstat.trees._surrogate.SurrogateRule` of ``missing="surrogate"``,
        else None."""
        if self.missing != "surrogate":
            return None
        return SurrogateRule(int(self.maxsurrogate), int(self.usesurrogate),
                             int(self.surrogatestyle))

    def _n_features_drawn(self, p):
        return None if self.max_features is None else n_features_drawn(self.max_features, p)

    # -- pickling: user criteria travel with the estimator --------------------------------
    def _criterion_record(self):
        """The :class:`~ordstat.trees.criteria.Criterion` that ``criterion`` names: the record
        this estimator carries from its pickle when it names that, else the registry's."""
        carried = self._carried_criterion()
        return get_criterion(self.criterion) if carried is None else carried[1]

    def _carried_criterion(self):
        """``(name, record)`` of the user criterion carried from a pickle, when ``criterion``
        still names it (the registry of this process need not know it), else None."""
        carried = self.__dict__.get("_user_criterion")
        return carried if carried is not None and carried[0] == self.criterion else None

    def _carried_by(self, other):
        """This estimator, given the user criterion record that ``other`` carries: its clones
        and the trees an ensemble builds from it need the record where the registry lacks it."""
        carried = other.__dict__.get("_user_criterion")
        if carried is not None:
            self._user_criterion = carried
        return self

    def __getstate__(self):
        state = super().__getstate__()
        state.pop("_user_criterion", None)
        registration = self._carried_criterion() or user_registration(self.criterion)
        if registration is not None:
            # a worker process (joblib, Dask) has a fresh registry: carry the record along;
            # unpickling keeps it on the estimator and leaves the registry alone
            state["_user_criterion"] = registration
        return state

    def __sklearn_clone__(self):
        return super().__sklearn_clone__()._carried_by(self)

    def __setstate__(self, state):
        state = dict(state)
        if "cp_table_" in state:  # pickled before the table was made on first read
            state["_cp_table"] = state.pop("cp_table_")
        super().__setstate__(state)

    def _loss(self, crit, k):
        if self.leaf_rule == "mode":
            return 1.0 - np.eye(k)
        if self.leaf_rule == "median":
            return distance_cost(k)
        cost = np.asarray(crit.cost_matrix(k), dtype=np.float64)
        if cost.shape != (k, k):
            raise ValueError(
                f"the criterion's cost matrix is {cost.shape[0]} x {cost.shape[1]} but the "
                f"response has {k} classes."
            )
        return cost.T  # loss[h, g] = C(h|g) = cost[g, h]

    # -- categorical columns ---------------------------------------------------------------
    def _encode_columns(self, X, fit):
        """Categorical columns -> float category codes (``ColumnCoding`` of
        :mod:`ordstat._core.predictors`, the reading shared with the ensembles): unordered
        pandas Categoricals and string/object columns are split as categories; ordered
        Categoricals become codes treated as numbers (rpart's handling of ordered factors)."""
        check_X_given(X)
        if fit:
            coding, X = ColumnCoding.learn(X, missing_category=self.missing != "surrogate")
            self._set_coding(coding)
            return X
        return self._coding().transform(X)

    def _set_coding(self, coding):
        """The fitted attributes of the categorical columns, from a :class:`ColumnCoding`
        (its own, or its ensemble's)."""
        self.categories_ = coding.nominal
        self._ordered_categories = coding.ordered
        self._missing_category = coding.missing_category

    def _coding(self):
        return ColumnCoding(self.categories_, self._ordered_categories,
                            getattr(self, "_missing_category", set()))

    # -- fitting ---------------------------------------------------------------------------
    def _builder(self, params, rng, alpha=None):
        return TreeBuilder(
            params["criterion"], self._loss_,
            min_split=params["min_split"], min_bucket=params["min_bucket"],
            max_depth=params["max_depth"], cp=params["cp"],
            max_features=params["max_features"], max_leaf_nodes=params["max_leaf_nodes"],
            rng=rng, cat_sizes=self._cat_sizes_, alpha=alpha, surrogate=params["surrogate"],
            ordered=sorted(self._ordered_categories),
        )

    def fit(self, X, y, sample_weight=None):
        """Grow the tree, compute its cp table and prune as asked.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Numeric features; DataFrame columns may also be pandas Categoricals or strings
            (split as categories, see ``categories_``).
        y : array-like of shape (n_samples,)
            Ordered class labels.
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative case weights (rpart's ``weights``).

        Returns
        -------
        self
        """
        return self._fit(X, y, sample_weight)

    def _counts_repeats(self, n_features):
        """Whether :meth:`_fit` may take a bootstrap sample as distinct rows with their
        repeat counts (same tree as the repeated rows, a third fewer units to sort): without
        cross-validation (its folds split repeats) and with min_bucket 1 (a cut never
        separates repeats, but min_bucket would count them)."""
        self._validate_params()
        xval = self.xval
        no_folds = isinstance(xval, (numbers.Integral, np.integer)) and xval < 2
        # the surrogate growth counts each repeated row as the units it stands for
        return (no_folds and self.missing != "surrogate"
                and self._tree_params(n_features)["min_bucket"] == 1)

    def _presorts(self, n_features):
        """Whether the split search keeps every feature presorted (after :meth:`_counts_repeats`,
        which validates the parameters)."""
        params = self._tree_params(n_features)
        return not choose_engine(params["criterion"], params["max_features"], n_features).per_node

    def _fit(self, X, y, sample_weight=None, repeats=None, coding=None, encoding=None,
             checked=False, state=None):
        """:meth:`fit`; ``repeats`` (ints): each row stands for that many identical units
        (only when :meth:`_counts_repeats`); ``coding``: the :class:`ColumnCoding` an
        ensemble learned once from its training ``X``, whose rows ``X`` then are (coded);
        ``encoding``: of the class codes 0..K-1 that ``y`` then is, ``X`` (float64) and ``y``
        checked by the ensemble and taken as they are, unweighted (as :meth:`_fit_sample`
        takes its sample: a bagged tree spent a third of its time checking them again);
        ``checked``: the parameters are those of a tree the ensemble validated; ``state``:
        with ``encoding``, the :meth:`_sample_state` for ``coding`` of the tree this one is a
        copy of, made once for the ensemble's trees (None: made here)."""
        if not checked:
            self._validate_params()
        if encoding is not None:
            self._set_coding(
                state.coding if state is not None else ColumnCoding() if coding is None
                else coding)
            self._adopt_codes(encoding, X.shape[1])
            codes, w = y, np.ones(X.shape[0])
            # as validate_fit records them (for summary())
            self._class_units = np.bincount(codes, minlength=encoding.n_classes)
            self._class_weight = None
        else:
            if coding is None:
                X = self._encode_columns(X, fit=True)
            else:
                self._set_coding(coding)
            X, codes, w = validate_fit(self, X, y, sample_weight, classes=self.classes,
                                       ensure_all_finite="allow-nan")
        k = self.n_classes_
        if state is None or encoding is None:
            state = self._sample_state(X.shape[1], k, self._coding())
        params = state.params
        # an ensemble's trees share them and only read them
        self._loss_, self._cat_sizes_ = state.loss, state.cat_sizes
        rng = check_random_state(self.random_state)
        folds = make_folds(self.xval, X.shape[0], rng)

        full = self._builder(params, rng).build(X, codes, w, k, repeats=repeats)
        if coding is None and repeats is None and self._cat_sizes_.any():
            # a tree of its own with categorical columns: its printed splits name the
            # categories its units had, as rpart
            full = with_present_categories(full, X, w)
        if checked and folds is None:  # an ensemble's tree: its cp table made when read
            return self._set_tree(full, params)
        alpha = params["cp"] * full.risk[0]
        cps, nsplit, risk = cp_sequence(full, alpha)
        xrisk = xstd = None
        # As rpart, no cross-validation when the tree has no split (the table has one row).
        if folds is not None and full.n_nodes > 1:
            def grow(Xf, cf, wf, alpha_f):
                return self._builder(params, rng, alpha=alpha_f).build(Xf, cf, wf, k)

            xrisk, xstd = cross_validated_risk(grow, X, codes, w, folds, cps, alpha,
                                               self._loss_)
        return self._set_tree(full, params, cps, nsplit, risk, xrisk, xstd)

    def _fit_sample(self, sample, repeats, encoding, coding=None, store=None, state=None):
        """:meth:`_fit` on the rows of a sample prepared once for an ensemble
        (:mod:`ordstat.trees._prepared`; numeric features, class codes 0..K-1 validated by
        the ensemble) with their ``repeats``, as ``_fit(X[rows], codes[rows],
        repeats=repeats)`` with ``classes`` 0..K-1 (``encoding``: theirs) grows it, without
        checking or copying the data again. Only when :meth:`_counts_repeats` (checked by the
        caller on the estimator this one is a copy of). ``coding``: the ensemble's
        :class:`ColumnCoding` of the prepared features (None: all numeric); ``store``: an
        ensemble's compact type of the arrays (see
        :meth:`~ordstat.trees._grow.TreeBuilder.build_sample`); ``state``: the
        :meth:`_sample_state` of the tree this one is a copy of, made once for all the
        ensemble's trees (None: made here, from ``coding``)."""
        data = sample.data
        p = data.XT.shape[0]
        if state is None:
            state = self._sample_state(p, data.n_classes, coding)
        self._adopt_codes(encoding, p)
        self._set_coding(state.coding)
        # shared by the ensemble's trees, which only read them
        self._loss_, self._cat_sizes_ = state.loss, state.cat_sizes
        rng = check_random_state(self.random_state)
        full = self._builder(state.params, rng).build_sample(sample, repeats, store=store)
        # the split importances, where the store summed them as it kept the tree
        return self._set_tree(full, state.params,
                              importance=getattr(store, "importance", None))

    def _sample_state(self, n_features, n_classes, coding=None):
        """What :meth:`_fit_sample` sets up alike for every tree of an ensemble (the copies of
        this tree, see ``ordstat.ensemble._common.tree_copy``): a :class:`SampleState` for
        ``n_features`` features (coded by ``coding``, None: all numeric) and ``n_classes``
        classes, made once per ensemble (a forest of small trees spent about 2 % of its
        time making it again for each tree)."""
        coding = ColumnCoding() if coding is None else coding
        params = self._tree_params(n_features)
        return SampleState(params, self._loss(params["criterion"], n_classes), coding,
                           coding.cat_sizes(n_features))

    def _adopt_codes(self, encoding, n_features):
        """The label state of a fit on class codes that an ensemble checked (``encoding``:
        theirs), as :func:`~ordstat._core.validation.validate_fit` sets it."""
        self._encoding = encoding
        self.classes_ = encoding.classes
        self.n_classes_ = encoding.n_classes
        self.n_features_in_ = n_features

    def _set_tree(self, full, params, cps=None, nsplit=None, risk=None, xrisk=None,
                  xstd=None, importance=None):
        """The fitted state from the grown tree and its cp sequence (end of :meth:`_fit`;
        without ``cps``, the sequence is computed when the table is first read);
        ``importance``: the split importances of ``full``, when summed already (see
        :meth:`_set_importances`)."""
        # the table is made when first read (cp_table_): a forest's trees seldom are
        self.__dict__.pop("_cp_table", None)
        self._cp_rows = (params["cp"] if cps is None
                         else (cps, nsplit, risk, full.risk[0], xrisk, xstd))
        self._full_tree = full
        if self.prune is not None and full.n_nodes > 1:
            self.cp_ = (select_cp(self.cp_table_, self.prune) if isinstance(self.prune, str)
                        else select_leaves(self.cp_table_, int(self.prune)))
            self.tree_ = prune_tree(full, self.cp_)
        else:
            self.cp_ = params["cp"]
            self.tree_ = full
        self._set_importances(importance if self.tree_ is full else None)
        return self

    @property
    def cp_table_(self):
        """rpart's ``printcp`` table (see the class docstring), made when first read."""
        d = self.__dict__
        if "_cp_table" not in d:
            if "_cp_rows" not in d:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute "
                                     "'cp_table_'")
            rows = d.pop("_cp_rows")
            if not isinstance(rows, tuple):  # the cp the full tree was grown with
                full = d["_full_tree"]
                rows = (*cp_sequence(full, rows * full.risk[0]), full.risk[0], None, None)
            d["_cp_table"] = cp_table(*rows)
        return d["_cp_table"]

    @cp_table_.setter
    def cp_table_(self, table):
        self.__dict__.pop("_cp_rows", None)
        self.__dict__["_cp_table"] = table

    def _set_importances(self, split=None):
        """``variable_importance_`` and ``feature_importances_`` of ``tree_``; ``split``: the
        sums of its splits' improvements by feature, added in node order (an ensemble's
        compiled pass over a tree without surrogates sums them as it keeps the tree), or None
        (summed here)."""
        tree = self.tree_
        if split is None:
            internal = tree.children_left >= 0
            # summed in node order as np.add.at sums (a forest makes hundreds of these);
            # float64 also without a split (an empty bincount is int)
            split = np.bincount(tree.feature[internal],
                                weights=tree.improvement[internal].astype(np.float64),
                                minlength=self.n_features_in_).astype(np.float64)
        imp = split
        sur = tree.surrogates
        if sur is not None:  # rpart: each surrogate adds adj times its primary's improvement
            node = np.repeat(np.arange(tree.n_nodes), sur.n_surrogates())
            np.add.at(imp, sur.feature, sur.adj * tree.improvement[node])
        self.variable_importance_ = imp
        total = imp.sum()
        self.feature_importances_ = imp / total if total > 0 else imp

    def prune_tree(self, cp):
        """A copy of this fitted estimator with its tree pruned at ``cp`` (rpart's ``prune``):
        every split whose CP (complexity / root risk) is at most ``cp`` is snipped off. The
        pruning starts from the tree grown at fit, so a larger tree can be recovered after
        ``prune="1se"`` as long as ``cp`` is at least the ``cp`` used for growing."""
        check_is_fitted(self)
        cp = check_in_range(cp, "cp")
        pruned = copy.deepcopy(self)
        pruned.tree_ = prune_tree(self._full_tree, cp)
        pruned.cp_ = cp
        pruned._set_importances()
        return pruned

    # -- prediction ------------------------------------------------------------------------
    def _prepare(self, X):
        check_is_fitted(self)
        X = self._encode_columns(X, fit=False)
        return validate_predict(self, X, ensure_all_finite="allow-nan")

    def apply(self, X):
        """Index (into ``tree_`` arrays) of the leaf each row of ``X`` falls into; with
        ``missing="surrogate"`` and ``usesurrogate`` < 2 (or on a tie of the majority rule),
        the internal node where a row that nothing can send on stops, as in rpart's
        ``predict`` (:meth:`predict` and :meth:`predict_proba` then use that node's classes).

        Returns
        -------
        ndarray of shape (n_samples,), int64
        """
        X = self._prepare(X)
        return self.tree_.apply(X)

    def decision_path(self, X):
        """Sparse indicator (n_samples, n_nodes) of the nodes each row passes through (CSR)."""
        X = self._prepare(X)
        path = np.stack(self.tree_.decision_nodes(X), axis=1)
        n, d = path.shape
        rows = np.repeat(np.arange(n), d)
        ind = sparse.csr_matrix((np.ones(n * d, dtype=np.int8), (rows, path.ravel())),
                                shape=(n, self.tree_.n_nodes))
        ind.data[:] = 1  # leaf-padded paths repeat the leaf; keep a 0/1 indicator
        return ind

    def predict_proba(self, X):
        """Class proportions (weighted) of the leaf of each row; columns follow ``classes_``.

        Returns
        -------
        ndarray of shape (n_samples, K)
        """
        leaves = self.apply(X)
        value = self.tree_.value[leaves]
        return value / value.sum(axis=1, keepdims=True)

    def predict(self, X):
        """The leaf rule's class (``leaf_rule``) of the leaf of each row, as user labels."""
        leaves = self.apply(X)
        return self.classes_[self.tree_.yval[leaves]]

    def export_text(self, digits=4):
        """The tree as text, laid out like rpart's ``print``:
        ``node), split, n, loss, yval, (yprob)``, ``*`` marking leaves."""
        check_is_fitted(self)
        names = (list(self.feature_names_in_) if hasattr(self, "feature_names_in_")
                 else [f"x{j}" for j in range(self.n_features_in_)])
        nominal, ordered = category_levels(self)
        return tree_to_text(self.tree_, self.classes_, names, nominal, digits, ordered)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        return tags

    def summary(self, digits=4):
        """A description of the fitted tree, in the spirit of rpart's ``summary.rpart``.

        Lists the estimator's parameters, the cp table, the variable importance and, for every
        node: its number of units (and weight), predicted class, expected loss (the leaf
        rule's mean loss in the node), share of the weight, weighted class counts and
        proportions and, for internal nodes, the complexity (CP scale), the primary split with
        its improvement, the sizes of the two children and the side that missing values of
        the split feature go to.

        Parameters
        ----------
        digits : int, default=4
            Significant digits of the printed numbers (the tables keep full precision).

        Returns
        -------
        Summary
            Printable (``str``, and HTML in Jupyter); its tables ``summary["cp table"]``
            (``cp_table_``), ``summary["variable importance"]`` (``importance`` as in
            ``variable_importance_``, ``percent`` of their sum; features with a split only)
            and ``summary["nodes"]`` (one row per node of ``tree_``, indexed by rpart's node
            number: ``n``, ``weight``, ``cp``, ``predicted``, ``expected_loss``, ``prob_node``,
            ``split`` (the condition sending units left), ``improvement``, ``left``,
            ``right``); with ``missing="surrogate"`` also ``summary["surrogates"]`` (one row per
            surrogate split, in the order they are tried: ``node``, ``feature``, ``split``,
            ``agree``, ``adj``, ``count``, as rpart's summary lists them).

        References
        ----------
        Therneau & Atkinson, An Introduction to Recursive Partitioning Using the RPART Routines.
        """
        from ._summary import tree_summary

        check_is_fitted(self)
        return tree_summary(self, check_positive_int(digits, "digits"))
