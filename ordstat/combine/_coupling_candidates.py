"""The candidates of hierarchical coupling and how a node judges them.

The module structure is the following: the candidate sets and names (``candidate_set``,
``check_candidates``); the ways to cut a node's classes in two (every bipartition, the
contiguous cuts of ordered classes, the empirical affinities of the class unions); and the
cross-validated posteriors and errors of a candidate, or of a serial combination of the
candidates, on a node's two-class problem (``evaluate``).
"""

from __future__ import annotations

import itertools
import numbers
import warnings

import numpy as np
from scipy.special import logsumexp
from sklearn.base import clone
from sklearn.model_selection import LeaveOneOut, StratifiedKFold

from .._core.base import configured_clone
from ..discrete import (FullMultinomial, IndependenceModel, KernelMultinomial,
                        class_union_affinity)
from ..discrete._models import _DiscreteClassifier
from ..gaussian import EDDA, MODELS
from ._coupling_tree import goes_right
from ._naming import model_name
from .serial import SerialCombiner

__all__ = ["candidate_set", "PAIR_SMOOTHING"]

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


def check_candidates(candidates):
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


def is_discrete(est):
    return isinstance(est, _DiscreteClassifier)


# --- partitions ----------------------------------------------------------------------------------

def bipartitions(codes):
    """All 2^(m-1) - 1 ways to cut the sorted class codes in two (the first code on the left)."""
    first, rest = codes[0], codes[1:]
    out = []
    for r in range(0, len(rest)):
        for combo in itertools.combinations(rest, r):
            left = (first, *combo)
            right = tuple(c for c in rest if c not in combo)
            out.append((left, right))
    return out


def contiguous_cuts(codes):
    return [(tuple(codes[:r]), tuple(codes[r:])) for r in range(1, len(codes))]


# --- errors of a candidate on a two-class sub-problem -------------------------------------------

def fix_categories(candidates, X):
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
    return goes_right(_cv_right(est, X, z, cv, seed, fitted)) != z


def evaluate(name, est, X, z, cv, seed):
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


def describe(fitted, name):
    if hasattr(fitted, "describe"):
        return fitted.describe(names="paper")
    return name


def empirical_affinities(parts, Xn, cn):
    """rho between the empirical distributions (FMM's observed frequencies) of the two class
    unions of each bipartition, among the node's units (Brito et al. 2006, section 4); no
    candidate model enters."""
    fmm = FullMultinomial().fit(Xn, cn)
    return [class_union_affinity(fmm, list(a), list(b)) for a, b in parts]
