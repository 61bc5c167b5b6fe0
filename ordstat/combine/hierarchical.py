"""Hierarchical coupling: a binary tree of class dichotomies, each with its own classifier
(Brito, Celeux & Sousa Ferreira 2006, section 4).

The module structure is the following: the estimator ``HierarchicalCoupling`` (growth of the
tree, its errors, prediction and display) here; the tree, its text and the prediction rules in
``_coupling_tree``; the candidates, the partitions of a node's classes and the
cross-validated errors in ``_coupling_candidates``. The public names of both are importable
from here.

The three partitions and the leave-one-out without refits are explained in the documentation,
"How the other methods are computed" (docs/algorithms.md).
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
from joblib import delayed
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from .._core.base import OrdinalClassifierMixin
from .._core.parallel import parallel
from .._core.summary import Summary
from .._core.validation import (N_JOBS, HasMethods, Integral, Interval, StrOptions,
                                base_inputs, check_random_state, validate_fit,
                                validate_predict)
from .._core.warnings import warn as _warn
from ._coupling_candidates import PAIR_SMOOTHING  # noqa: F401 - public here before the split
from ._coupling_candidates import (bipartitions, candidate_set, check_candidates,
                                   contiguous_cuts, describe, empirical_affinities, evaluate,
                                   fix_categories, is_discrete)
from ._coupling_tree import (CouplingNode, goes_right, leaf_masses, mclust_model, rule_leaves,
                             tree_text)

__all__ = ["HierarchicalCoupling", "CouplingNode", "candidate_set", "tree_text"]

_PARTITIONS = ("cv", "affinity", "ordinal")
_NODES = ("select", "committee", "likelihood", "aic", "bic", "integrated")
_RULES = ("sequential", "product")
MAX_EXHAUSTIVE_CLASSES = 12


class HierarchicalCoupling(OrdinalClassifierMixin, BaseEstimator):
    """Hierarchical coupling of classifiers: a tree of class dichotomies.

    At each node the current set of classes is cut in two; the two-class problem between the two
    class unions gets the candidate model (``node="select"``) or the serial combination of the
    candidates (``node="committee"``, ``"likelihood"``, ...) of lowest cross-validated error;
    the procedure recurses until every leaf is one class (Brito, Celeux & Sousa Ferreira 2006,
    section 4). A unit is classified down the tree by hard decisions (``rule="sequential"``)
    or by the largest product of node posteriors (``rule="product"``).

    The paper's discrete methods (Table 9) are ``partition="affinity"`` with a pair of models
    and one weight per node: HIER/CM is ``HierarchicalCoupling("foim+fmm", partition="affinity",
    node="committee")`` (lambda = 1) or ``HierarchicalCoupling("foim+kernel", ...)`` (FOIM with
    KERNEL at lambda = 0.99; another lambda through ``candidate_set("foim+kernel",
    smoothing=...)``); HIER/IL is the same with ``node="integrated"``.

    Parameters
    ----------
    candidates : list of estimators, list of (name, estimator) pairs, or a set name
        The models in competition at each node (cloned, never modified). The set names are
        "edda" (the 14 EDDA models), "discrete" (FOIM, FMM and KERNEL), "foim+fmm" (the pair
        FOIM, FMM) and "foim+kernel" (FOIM and KERNEL at lambda = 0.99), see
        :func:`candidate_set`. A list may also name models: EDDA model names ("EII", ...,
        "VVV") or "fmm", "foim", "kernel".
    partition : {"cv", "affinity", "ordinal"}, default="cv"
        How each node's classes are cut: every bipartition by cross-validated error (the paper's
        continuous procedure; at most 12 classes), the bipartition of smallest basic affinity
        coefficient between the empirical distributions (the full multinomial, FMM) of the two
        class unions among the node's units (the paper's discrete procedure; every candidate
        must then be a discrete model; on sparse data, where the unions share no observed
        state, several bipartitions tie at 0 and the first enumerated wins: the node's first
        class alone), or only the contiguous cuts of ordered classes (needs an ordered
        response).
    node : {"select", "committee", "likelihood", "aic", "bic", "integrated"}, default="select"
        "select" keeps the single candidate of lowest error; the others put a serial
        combination of all candidates (``ordstat.combine.serial.SerialCombiner`` with that
        method) at every node.
    rule : {"sequential", "product"}, default="sequential"
        How ``predict`` classifies a unit. "sequential" (the paper's): down the tree by each
        node's hard decision (its right union when the node posterior exceeds 1/2) until a
        leaf. "product": the class of largest product of the node posteriors along its
        root-to-leaf path, the argmax of ``predict_proba``. ``predict_proba`` gives these
        products under both rules, so with "sequential" ``predict`` need not be its argmax
        (a root posterior .55 for {b, c} and .5/.5 below it: the products favour a (.45),
        the hard decisions b or c). Every reported error (``cv_error_``, node errors) is the
        error of this rule. The model of each node is chosen by its two-class error under
        either rule.
    cv : "loo", int or splitter, default="loo"
        Error estimate at each node: leave-one-out (exact and cheap for one-model EDDA
        candidates), stratified v-fold, or any scikit-learn splitter, an object with ``split``
        and ``get_n_splits`` (e.g. a ``PredefinedSplit`` for a test sample).
    n_jobs : int, optional
        Parallel jobs (joblib) over the (partition, candidate) pairs of a node.
    random_state : int, Generator or None
        Seeds the v-fold splits and stochastic candidates; the same seed gives the same tree for
        any ``n_jobs``.
    classes : sequence, optional
        All class labels (lowest to highest for ``partition="ordinal"``). Otherwise the class
        order plays no part and any labels are accepted (an unordered Categorical's categories
        sorted, as the other nominal estimators do).

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
    tree_ : CouplingNode
        The root; each node holds its two class unions, model, error (under ``rule``),
        affinity and its candidates' two-class errors.
    cv_error_ : float
        Cross-validated error of the tree's prediction under ``rule``, its structure and models
        fixed: each node's posterior of a unit is cross-validated at the nodes holding the
        unit's class (the unit is among their units) and that of the node's fitted model
        elsewhere (the unit was not used). Under "sequential" a unit is misclassified exactly
        when a node on its true path sends it the wrong way.
    n_features_in_ : int

    References
    ----------
    Brito, I., Celeux, G. and Sousa Ferreira, A. (2006). Combining methods in supervised
    classification: a comparative study on discrete and continuous problems. REVSTAT 4,
    201-225, sections 4 and 5.2.
    Friedman, J. H. (1996). Another approach to polychotomous classification. Technical report,
    Stanford University.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from ordstat.combine.hierarchical import HierarchicalCoupling
    >>> X, y = load_iris(return_X_y=True)
    >>> hc = HierarchicalCoupling("edda").fit(X, y)
    >>> hc.tree_.left, hc.tree_.right
    ([0], [1, 2])
    >>> round(hc.cv_error_, 2)
    0.02
    """

    def __init__(self, candidates, partition="cv", node="select", rule="sequential", cv="loo",
                 n_jobs=None, random_state=None, classes=None):
        self.candidates = candidates
        self.partition = partition
        self.node = node
        self.rule = rule
        self.cv = cv
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.classes = classes

    _parameter_constraints = {
        "candidates": [list, tuple, str],
        "partition": [StrOptions(set(_PARTITIONS))],
        "node": [StrOptions(set(_NODES))],
        "rule": [StrOptions(set(_RULES))],
        "cv": [StrOptions({"loo"}), Interval(Integral, 2, None, closed="left"),
               HasMethods(["split", "get_n_splits"])],
        "n_jobs": N_JOBS,
        "random_state": ["random_state", np.random.Generator],
        "classes": ["array-like", None],
    }

    def _missing_values(self):
        """Missing values pass when every candidate takes them (their scikit-learn tags)."""
        try:
            return base_inputs([e for _, e in check_candidates(self.candidates)])[0]
        except (TypeError, ValueError):  # invalid candidates: fit says why
            return True

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = self._missing_values() == "allow-nan"
        return tags

    @property
    def _uses_class_order(self):
        # only the ordinal partition reads the class order (docs/architecture.md, contract 2)
        return self.partition == "ordinal"

    # --- fitting -------------------------------------------------------------------------------

    def fit(self, X, y):
        """Grow the coupling tree.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Predictors as the candidates take them (numeric for EDDA, categories for the
            discrete models).
        y : array-like of shape (n_samples,)
            Class labels (ordered for ``partition="ordinal"``), at least three classes.

        Returns
        -------
        self
        """
        self._validate_params()
        cands = check_candidates(self.candidates)
        if self.partition == "affinity":
            other = [name for name, est in cands if not is_discrete(est)]
            if other:
                raise ValueError(
                    "partition='affinity' compares the empirical distributions of discrete "
                    "predictors, so every candidate must be a discrete model (FullMultinomial, "
                    f"IndependenceModel or KernelMultinomial); got {', '.join(other)}. Use "
                    "partition='cv'.")
        X, codes, _ = validate_fit(self, X, y, classes=self.classes, dtype=None,
                                   ensure_all_finite=base_inputs([e for _, e in cands])[0])
        observed = np.unique(codes)
        if len(observed) < 3:
            raise ValueError(
                f"y has {len(observed)} classes; hierarchical coupling needs at least three "
                "(for two classes use a candidate model directly)."
            )
        if self.partition == "cv" and len(observed) > MAX_EXHAUSTIVE_CLASSES:
            raise ValueError(
                f"partition='cv' searches all 2^(K-1) - 1 bipartitions, too many for K = "
                f"{len(observed)} > {MAX_EXHAUSTIVE_CLASSES} classes; use partition='ordinal' "
                "(ordered classes) or partition='affinity'."
            )
        cands = fix_categories(cands, X)
        seed = int(check_random_state(self.random_state).integers(2**31 - 1))
        # (partition, model name) -> (fit, posteriors, failure) of every evaluation at a node,
        # so that the winning pair's fit and its cross-validation are reused, not redone.
        self._fit_cache = {}
        # id(node) -> posterior of its right union for every training unit (see cv_error_)
        cv_right = {}
        self.tree_ = self._grow(tuple(int(c) for c in observed), X, codes, cands, seed,
                                cv_right)
        del self._fit_cache
        self._set_errors(codes, cv_right)
        return self

    def _grow(self, node_codes, X, codes, cands, seed, cv_right):
        labels = self.classes_[list(node_codes)].tolist()
        if len(node_codes) == 1:
            return CouplingNode(classes=labels)
        in_node = np.isin(codes, node_codes)
        Xn, cn = X[in_node], codes[in_node]
        affinities = None
        if self.partition == "ordinal":
            parts = contiguous_cuts(node_codes)
        else:
            parts = bipartitions(node_codes)
        if self.partition == "affinity":
            affinities = empirical_affinities(parts, Xn, cn)
            best = int(np.argmin(affinities))
            parts, affinities = [parts[best]], [affinities[best]]
        models = ([(self.node, ("combine", self.node, cands))] if self.node != "select"
                  else cands)
        tasks = [(p, m) for p in range(len(parts)) for m in range(len(models))]
        results = parallel(
            (delayed(evaluate)(models[m][0], models[m][1], Xn,
                                np.isin(cn, parts[p][1]).astype(np.intp), self.cv, seed)
             for p, m in tasks), n_jobs=self.n_jobs)
        for (p, m), res in zip(tasks, results):
            self._fit_cache[(parts[p], models[m][0])] = res
        failures = sorted({msg for _, _, msg, _ in results if msg is not None}
                          | {msg for *_, skipped in results for msg in skipped})
        scored = [(float(np.mean(goes_right(res[1]) != np.isin(cn, parts[p][1]))), p, m)
                  for (p, m), res in zip(tasks, results) if res[2] is None]
        if not scored:
            raise ValueError(
                f"Hierarchical coupling: no candidate could be fitted at the node separating "
                f"{labels}:\n" + "\n".join(failures)
            )
        if failures:
            _warn(
                f"Hierarchical coupling, node {labels}: candidate(s) skipped on some "
                "partitions: " + " | ".join(failures), UserWarning,
            )
        err, p, m = min(scored)
        left, right = parts[p]
        fitted, p_right, _, _ = self._fit_cache[(parts[p], models[m][0])]
        cand_err = {models[mm][0]: e for e, pp, mm in scored if pp == p}
        node = CouplingNode(
            classes=labels, left=self.classes_[list(left)].tolist(),
            right=self.classes_[list(right)].tolist(),
            model=describe(fitted, models[m][0]), estimator=fitted, error=err,
            affinity=None if affinities is None else float(affinities[0]),
            candidate_errors=cand_err,
            children=(self._grow(left, X, codes, cands, seed, cv_right),
                      self._grow(right, X, codes, cands, seed, cv_right)),
        )
        # cross-validated for the node's units; the fitted model's for the others, which it
        # never saw (what the product rule needs of every node for every unit)
        full = np.empty(len(codes))
        full[in_node] = p_right
        if not in_node.all():
            with warnings.catch_warnings():  # as in the node's cross-validation (evaluate)
                warnings.simplefilter("ignore")
                full[~in_node] = fitted.predict_proba(X[~in_node])[:, 1]
        cv_right[id(node)] = full
        return node

    def _set_errors(self, codes, cv_right):
        """``cv_error_`` and each node's ``error``: those of ``rule`` on the cross-validated
        node posteriors. A node's error is that of the rule applied to its subtree, among the
        node's units, in telling its left union from its right one (under "sequential" the
        node's own two-class error)."""
        index = self._class_index()
        n = len(codes)

        def right(nd):
            return cv_right[id(nd)]

        self.cv_error_ = float(np.mean(rule_leaves(self.tree_, right, n, index, self.rule)
                                       != codes))
        for nd in self.tree_.walk():
            if nd.is_leaf:
                continue
            units = np.isin(codes, [index[c] for c in nd.classes])
            chosen = rule_leaves(nd, right, n, index, self.rule)[units]
            right_codes = [index[c] for c in nd.right]
            nd.error = float(np.mean(np.isin(chosen, right_codes)
                                     != np.isin(codes[units], right_codes)))

    def _class_index(self):
        return {c: k for k, c in enumerate(self.classes_.tolist())}

    # --- prediction ----------------------------------------------------------------------------

    def _node_posteriors(self, X):
        """``right(node)`` for new data: each node model's posterior of its right union,
        computed once per node."""
        memo = {}

        def right(nd):
            if id(nd) not in memo:
                memo[id(nd)] = nd.estimator.predict_proba(X)[:, 1]
            return memo[id(nd)]

        return right

    def predict_proba(self, X):
        """Class probabilities: products of the node posteriors along each root-to-leaf path.

        The same under both rules; with ``rule="sequential"`` :meth:`predict` follows the hard
        decisions and need not be the argmax of these.

        Returns
        -------
        ndarray of shape (n_samples, K), columns in ``classes_`` order, rows summing to one.
        """
        check_is_fitted(self)
        X = validate_predict(self, X, dtype=None, ensure_all_finite=self._missing_values())
        return leaf_masses(self.tree_, self._node_posteriors(X), X.shape[0],
                            self._class_index())

    def predict(self, X):
        """Classes under ``rule``: down the tree by the nodes' hard decisions ("sequential")
        or the largest product of node posteriors ("product").

        Returns
        -------
        ndarray of shape (n_samples,), the class labels.
        """
        check_is_fitted(self)
        X = validate_predict(self, X, dtype=None, ensure_all_finite=self._missing_values())
        leaves = rule_leaves(self.tree_, self._node_posteriors(X), X.shape[0],
                              self._class_index(), self.rule)
        return self.classes_[leaves]

    # --- display -------------------------------------------------------------------------------

    def summary(self):
        """The coupling tree as indented text, one line per node (Brito et al. 2006, Figure 1).

        Returns
        -------
        ordstat._core.summary.Summary
            Info lines (classes, partition, node rule, prediction rule, error estimate,
            ``tree error``: the cross-validated error of the whole tree under the rule,
            ``cv_error_``); the tree, each internal node with its model, error under the rule
            and affinity, is the notes. :meth:`tree_table` gives the nodes as a DataFrame.
        """
        check_is_fitted(self)
        cv = self.cv
        estimate = ("leave-one-out" if isinstance(cv, str) else
                    f"{cv}-fold cross-validation" if isinstance(cv, numbers.Integral)
                    else type(cv).__name__)
        rule = {"sequential": "sequential (hard decisions down the tree)",
                "product": "product (largest product of node posteriors)"}[self.rule]
        info = [("classes", (" < " if self.partition == "ordinal" else ", ").join(
                     map(str, self.classes_))),
                ("partition", self.partition), ("node", self.node), ("rule", rule),
                ("error estimate", estimate), ("tree error", f"{self.cv_error_:.3f}")]
        return Summary("Hierarchical coupling", info, {}, tree_text(self.tree_))

    def tree_table(self):
        """The tree as a DataFrame, one row per node in depth-first order.

        Columns: ``node`` (0 = root), ``parent`` (-1 for the root), ``depth``, ``classes``,
        ``left``, ``right`` (class labels joined by ", "), ``model`` (as the paper writes
        it), ``mclust`` (mclust's name of it; "" for a leaf), ``error`` (the
        cross-validated error of ``rule`` between the two unions), ``affinity`` (NaN when not
        computed), ``leaf``.
        """
        import pandas as pd

        check_is_fitted(self)
        rows = []

        def visit(nd, parent, depth):
            me = len(rows)
            join = ", ".join
            rows.append({"node": me, "parent": parent, "depth": depth,
                         "classes": join(map(str, nd.classes)), "left": join(map(str, nd.left)),
                         "right": join(map(str, nd.right)), "model": nd.model,
                         "mclust": mclust_model(nd),
                         "error": nd.error,
                         "affinity": np.nan if nd.affinity is None else nd.affinity,
                         "leaf": nd.is_leaf})
            for child in nd.children:
                visit(child, me, depth + 1)

        visit(self.tree_, -1, 0)
        return pd.DataFrame(rows)

    def __str__(self):
        if hasattr(self, "tree_"):
            return str(self.summary())
        return self.__repr__()
