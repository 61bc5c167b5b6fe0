"""Hierarchical coupling: a binary tree of class dichotomies, each with its own classifier
(Brito, Celeux & Sousa Ferreira 2006, section 4).

The module structure is the following:

- :func:`candidate_set`: the candidate models of a node by name (EDDA, discrete models);
- :class:`CouplingNode` and :func:`tree_text`: the fitted tree and its text;
- :class:`HierarchicalCoupling`: the estimator; the cut of each node chosen by
  cross-validated error over all bipartitions (``"cv"``), by the affinity of the class unions
  (``"affinity"``) or among contiguous cuts of ordered classes (``"ordinal"``), classified by
  the sequential or the product rule.

The three partitions and the leave-one-out without refits are explained in the documentation,
"How the other methods are computed" (docs/algorithms.md).
"""

from __future__ import annotations

import itertools
import numbers
import warnings
from dataclasses import dataclass, field

import numpy as np
from joblib import Parallel, delayed
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, clone
from sklearn.model_selection import LeaveOneOut, StratifiedKFold
from sklearn.utils.validation import check_is_fitted

from .._core.base import OrdinalClassifierMixin, configured_clone
from .._core.summary import Summary
from .._core.validation import (N_JOBS, HasMethods, Integral, Interval, StrOptions,
                                base_inputs, check_random_state, validate_fit,
                                validate_predict)
from .._core.warnings import warn as _warn
from ..discrete import (FullMultinomial, IndependenceModel, KernelMultinomial,
                        class_union_affinity)
from ..discrete._models import _DiscreteClassifier
from ..gaussian import EDDA, MODELS
from ._naming import model_name
from .serial import SerialCombiner

__all__ = ["HierarchicalCoupling", "CouplingNode", "candidate_set", "tree_text"]

_PARTITIONS = ("cv", "affinity", "ordinal")
_NODES = ("select", "committee", "likelihood", "aic", "bic", "integrated")
_RULES = ("sequential", "product")
MAX_EXHAUSTIVE_CLASSES = 12

# --- candidates and their names ------------------------------------------------------------------

#: KERNEL's lambda in the pair "foim+kernel": the value of Brito et al. (2006), Table 9.
PAIR_SMOOTHING = 0.99
_CANDIDATE_SETS = ("edda", "discrete", "foim+fmm", "foim+kernel")


def candidate_set(name, smoothing=None):
    """A named list of candidate models.

    Parameters
    ----------
    name : {"edda", "discrete", "foim+fmm", "foim+kernel"}
        ``"edda"``: the 14 EDDA models, EII ... VVV, in mclust's order; ``"discrete"``: FOIM,
        FMM and KERNEL (lambda chosen by leave-one-out); ``"foim+fmm"``: the pair FOIM, FMM
        (KERNEL at lambda = 1); ``"foim+kernel"``: the pair FOIM, KERNEL at a fixed lambda.
        The two pairs with ``node="committee"`` / ``"integrated"`` are the paper's HIER/CM and
        HIER/IL (Brito et al. 2006, Table 9).
    smoothing : float in (0, 1], optional
        KERNEL's lambda in ``"foim+kernel"`` (default :data:`PAIR_SMOOTHING` = 0.99, Table 9;
        the serial Tables 6-7 use 0.95). Not taken by the other sets.

    Returns
    -------
    list of unfitted estimators
    """
    if smoothing is not None and name != "foim+kernel":
        raise ValueError(f"smoothing is KERNEL's lambda of the set 'foim+kernel'; the set "
                         f"{name!r} takes none.")
    if name == "edda":
        return [EDDA(model=m) for m in MODELS]
    if name == "discrete":
        return [IndependenceModel(), FullMultinomial(), KernelMultinomial()]
    if name == "foim+fmm":
        return [IndependenceModel(), FullMultinomial()]
    if name == "foim+kernel":
        lam = PAIR_SMOOTHING if smoothing is None else smoothing
        if isinstance(lam, bool) or not isinstance(lam, numbers.Real) or not 0 < lam <= 1:
            raise ValueError(f"smoothing must be a number in (0, 1]; got {lam!r}.")
        return [IndependenceModel(), KernelMultinomial(smoothing=float(lam))]
    raise ValueError(f"candidates must be a list of estimators, or one of "
                     f"{', '.join(map(repr, _CANDIDATE_SETS))}; got {name!r}.")


def _named_candidate(name):
    """An estimator from a name: an EDDA model (EII ... VVV) or fmm, foim, kernel."""
    discrete = {"fmm": FullMultinomial, "foim": IndependenceModel, "kernel": KernelMultinomial}
    if name.upper() in MODELS:
        return EDDA(model=name.upper())
    if name.lower() in discrete:
        return discrete[name.lower()]()
    raise ValueError(f"unknown candidate name {name!r}; use an EDDA model name "
                     f"({', '.join(MODELS)}), 'fmm', 'foim' or 'kernel', a candidate set "
                     f"({', '.join(map(repr, _CANDIDATE_SETS))}), or an estimator.")


def _check_candidates(candidates):
    if isinstance(candidates, str):
        candidates = (candidate_set(candidates) if candidates in _CANDIDATE_SETS
                      else [candidates])
    if not isinstance(candidates, (list, tuple)) or len(candidates) == 0:
        raise TypeError("candidates must be a non-empty list of estimators (or (name, estimator) "
                        f"pairs), or one of {', '.join(map(repr, _CANDIDATE_SETS))}; got "
                        f"{candidates!r}.")
    out = []
    for c in candidates:
        name, est = (c if isinstance(c, tuple) and len(c) == 2 else (None, c))
        if isinstance(est, str):
            est = _named_candidate(est)
        if not (hasattr(est, "fit") and hasattr(est, "predict_proba")):
            raise TypeError(f"every candidate must be an estimator with fit and predict_proba; "
                            f"got {est!r}.")
        out.append((name or model_name(est), est))
    names = [n for n, _ in out]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ValueError(f"candidate names must be distinct; {dup} repeat. Pass (name, estimator) "
                         "pairs to name them.")
    return out


def _is_discrete(est):
    return isinstance(est, _DiscreteClassifier)


# --- the tree ------------------------------------------------------------------------------------

@dataclass
class CouplingNode:
    """One node of the coupling tree.

    Attributes
    ----------
    classes : list
        The class labels at this node (one label for a leaf).
    left, right : list
        The two unions of classes the node separates (empty for a leaf).
    model : str
        The chosen model ("[lambda I]", "FOIM") or combination ("0.52 FOIM + 0.48 FMM").
    estimator : fitted estimator or None
        The two-class classifier: class 0 = ``left``, class 1 = ``right``.
    error : float
        The cross-validated (or test-sample) misclassification rate between the two unions,
        among the node's units, of the coupling's prediction rule applied to this subtree:
        under ``rule="sequential"`` the node model's own two-class error; under
        ``rule="product"`` a unit counts as wrong when the largest product of posteriors
        below the node lies in the other union.
    affinity : float or None
        rho between the empirical distributions of the two unions (``partition="affinity"``
        only).
    candidate_errors : dict
        {candidate name: two-class error} for the chosen partition, the hard decision of each
        candidate alone (the model is chosen by these); candidates that failed are absent.
    children : tuple of CouplingNode
        (left child, right child); empty for a leaf.
    """

    classes: list
    left: list = field(default_factory=list)
    right: list = field(default_factory=list)
    model: str = ""
    estimator: object = None
    error: float = float("nan")
    affinity: float | None = None
    candidate_errors: dict = field(default_factory=dict)
    children: tuple = ()

    @property
    def is_leaf(self):
        return not self.children

    def walk(self):
        """The nodes of the subtree, depth first (this node first)."""
        yield self
        for child in self.children:
            yield from child.walk()


def _set_text(labels):
    return str(labels[0]) if len(labels) == 1 else "{" + ", ".join(map(str, labels)) + "}"


def tree_text(node, digits=3):
    """The coupling tree as indented text (Brito et al. 2006, Figure 1 style)."""
    lines = []

    def visit(nd, prefix, head):
        text = _set_text(nd.classes)
        if not nd.is_leaf:
            parts = [nd.model, f"error {nd.error:.{digits}f}"]
            if nd.affinity is not None:
                parts.append(f"affinity {nd.affinity:.{digits}f}")
            text += "  " + "  ".join(parts)
        lines.append(head + text)
        for i, child in enumerate(nd.children):
            last = i == len(nd.children) - 1
            visit(child, prefix + ("   " if last else "|  "), prefix + ("`- " if last else "|- "))

    visit(node, "", "")
    return "\n".join(lines)


# --- partitions ----------------------------------------------------------------------------------

def _bipartitions(codes):
    """All 2^(m-1) - 1 ways to cut the sorted class codes in two (the first code on the left)."""
    first, rest = codes[0], codes[1:]
    out = []
    for r in range(0, len(rest)):
        for combo in itertools.combinations(rest, r):
            left = (first, *combo)
            right = tuple(c for c in rest if c not in combo)
            out.append((left, right))
    return out


def _contiguous_cuts(codes):
    return [(tuple(codes[:r]), tuple(codes[r:])) for r in range(1, len(codes))]


# --- errors of a candidate on a two-class sub-problem -------------------------------------------

def _fix_categories(candidates, X):
    """Discrete candidates with ``categories="auto"`` get the categories of the whole sample,
    so that a cross-validation fold never meets a category its training part lacked."""
    out = []
    for name, est in candidates:
        if est.get_params(deep=False).get("categories", None) == "auto":
            from ..discrete._states import fit_space

            space, _, _ = fit_space(X)
            est = clone(est).set_params(categories=[list(c) for c in space.categories])
        out.append((name, est))
    return out


def _binary_clone(est, seed):
    """A clone of ``est`` for a two-class sub-problem: classes 0 (left) and 1 (right), seeded
    with ``seed`` when it is stochastic."""
    return configured_clone(est, classes=[0, 1], random_state=seed)


def _splits(cv, X, z, seed):
    if isinstance(cv, str):  # "loo"
        return list(LeaveOneOut().split(X, z))
    if isinstance(cv, numbers.Integral):
        folds = min(int(cv), int(np.bincount(z).min()))
        if folds < 2:
            raise ValueError(f"cv={cv}: a class union has a single unit, too few for v-fold "
                             "cross-validation.")
        return list(StratifiedKFold(folds, shuffle=True, random_state=seed).split(X, z))
    return list(cv.split(X, z))


def _goes_right(p_right):
    """A node's hard decision: the right union when its posterior exceeds 1/2 (ties go left,
    as the argmax of a two-class ``predict_proba`` does)."""
    return p_right > 0.5


def _cv_right(est, X, z, cv, seed, fitted):
    """Each unit's cross-validated posterior of the right union (class 1) under ``est`` on
    (X, z): from the fit without the unit's fold."""
    if cv == "loo" and hasattr(fitted, "loo_log_joint"):  # exact, without refits (EDDA)
        joint = fitted.loo_log_joint(X, z)
        return np.exp(joint[:, 1] - logsumexp(joint, axis=1))
    p_right = np.empty(len(z))
    for train, test in _splits(cv, X, z, seed):
        if len(np.unique(z[train])) < 2:
            raise ValueError("a cross-validation training set holds a single class union")
        model = _binary_clone(est, seed).fit(X[train], z[train])
        p_right[test] = model.predict_proba(X[test])[:, 1]
    return p_right


def _cv_mistakes(est, X, z, cv, seed, fitted):
    """Per-unit cross-validated mistakes of the hard two-class decision of ``est`` on (X, z)."""
    return _goes_right(_cv_right(est, X, z, cv, seed, fitted)) != z


def _evaluate(name, est, X, z, cv, seed):
    """Fit ``est`` on (X, z) and cross-validate it.

    ``est`` is an estimator or ``("combine", method, candidates)``: the serial combination of
    the candidates that can be fitted on (X, z). Returns (fitted, p_right, failure, skipped):
    p_right the cross-validated posteriors of the right union (:func:`_cv_right`), failure a
    message when ``est`` could not be evaluated (else None), skipped the messages of the
    candidates left out of a combination.
    """
    skipped = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if isinstance(est, tuple):
                est, skipped = _combination(est[1], est[2], X, z, cv, seed)
            fitted = _binary_clone(est, seed).fit(X, z)
            p_right = _cv_right(est, X, z, cv, seed, fitted)
        return fitted, p_right, None, skipped
    except (ValueError, np.linalg.LinAlgError, ArithmeticError) as exc:
        return None, None, f"{name}: {exc}", skipped


def _combination(method, candidates, X, z, cv, seed):
    """SerialCombiner over the candidates that fit (X, z) and every cross-validation training
    part of it, and the messages of those that do not (a candidate failing on a small
    sub-problem must not sink the whole node)."""
    usable, skipped = [], []
    trains = [np.arange(len(z))] + [train for train, _ in _splits(cv, X, z, seed)]
    for name, est in candidates:
        try:
            for train in trains:
                _binary_clone(est, seed).fit(X[train], z[train])
            usable.append(clone(est))
        except (ValueError, np.linalg.LinAlgError, ArithmeticError) as exc:
            skipped.append(f"{name}: {exc}")
    if not usable:
        raise ValueError("no candidate of the combination could be fitted (" +
                         " | ".join(skipped) + ")")
    return SerialCombiner(usable, method=method), skipped


def _describe(fitted, name):
    if hasattr(fitted, "describe"):
        return fitted.describe(names="paper")
    return name


def _empirical_affinities(parts, Xn, cn):
    """rho between the empirical distributions (FMM's observed frequencies) of the two class
    unions of each bipartition, among the node's units (Brito et al. 2006, section 4); no
    candidate model enters."""
    fmm = FullMultinomial().fit(Xn, cn)
    return [class_union_affinity(fmm, list(a), list(b)) for a, b in parts]


# --- the two prediction rules --------------------------------------------------------------------
# Both read the node posteriors through ``right(node)``: the posterior of the node's right union
# for every unit (the fitted node model's for new data; the cross-validated one in the fit).

def _leaf_masses(node, right, n, index, fill=0.0):
    """(n, K) products of the node posteriors along each path from ``node`` down to its leaves
    (columns by class code; ``fill`` for the classes outside the subtree)."""
    out = np.full((n, len(index)), fill)

    def visit(nd, mass):
        if nd.is_leaf:
            out[:, index[nd.classes[0]]] = mass
            return
        p_right = right(nd)
        visit(nd.children[0], mass * (1.0 - p_right))
        visit(nd.children[1], mass * p_right)

    visit(node, np.ones(n))
    return out


def _sequential_leaves(node, right, n, index):
    """(n,) class codes reached from ``node`` by the nodes' hard decisions (Brito et al. 2006,
    section 4: a unit stops at the first node that sends it to a single class)."""
    out = np.empty(n, dtype=np.intp)

    def visit(nd, units):
        if nd.is_leaf:
            out[units] = index[nd.classes[0]]
            return
        to_right = _goes_right(right(nd)[units])
        visit(nd.children[0], units[~to_right])
        visit(nd.children[1], units[to_right])

    visit(node, np.arange(n))
    return out


def _rule_leaves(node, right, n, index, rule):
    """(n,) class codes the rule chooses among the leaves under ``node``."""
    if rule == "sequential":
        return _sequential_leaves(node, right, n, index)
    # -1 outside the subtree, so that a leaf of it wins even when every product is 0
    return np.argmax(_leaf_masses(node, right, n, index, fill=-1.0), axis=1)


# --- the estimator -------------------------------------------------------------------------------

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
            return base_inputs([e for _, e in _check_candidates(self.candidates)])[0]
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
        cands = _check_candidates(self.candidates)
        if self.partition == "affinity":
            other = [name for name, est in cands if not _is_discrete(est)]
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
        cands = _fix_categories(cands, X)
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
            parts = _contiguous_cuts(node_codes)
        else:
            parts = _bipartitions(node_codes)
        if self.partition == "affinity":
            affinities = _empirical_affinities(parts, Xn, cn)
            best = int(np.argmin(affinities))
            parts, affinities = [parts[best]], [affinities[best]]
        models = ([(self.node, ("combine", self.node, cands))] if self.node != "select"
                  else cands)
        tasks = [(p, m) for p in range(len(parts)) for m in range(len(models))]
        results = Parallel(n_jobs=self.n_jobs)(
            delayed(_evaluate)(models[m][0], models[m][1], Xn,
                               np.isin(cn, parts[p][1]).astype(np.intp), self.cv, seed)
            for p, m in tasks
        )
        for (p, m), res in zip(tasks, results):
            self._fit_cache[(parts[p], models[m][0])] = res
        failures = sorted({msg for _, _, msg, _ in results if msg is not None}
                          | {msg for *_, skipped in results for msg in skipped})
        scored = [(float(np.mean(_goes_right(res[1]) != np.isin(cn, parts[p][1]))), p, m)
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
            model=_describe(fitted, models[m][0]), estimator=fitted, error=err,
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
            with warnings.catch_warnings():  # as in the node's cross-validation (_evaluate)
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

        self.cv_error_ = float(np.mean(_rule_leaves(self.tree_, right, n, index, self.rule)
                                       != codes))
        for nd in self.tree_.walk():
            if nd.is_leaf:
                continue
            units = np.isin(codes, [index[c] for c in nd.classes])
            chosen = _rule_leaves(nd, right, n, index, self.rule)[units]
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
        return _leaf_masses(self.tree_, self._node_posteriors(X), X.shape[0],
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
        leaves = _rule_leaves(self.tree_, self._node_posteriors(X), X.shape[0],
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
        ``left``, ``right`` (class labels joined by ", "), ``model``, ``error`` (the
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
