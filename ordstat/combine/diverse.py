"""Choosing the models to combine: the most different ones by correspondence analysis.

Brito, Celeux & Sousa Ferreira (2006, section 5.1, Table 3) combine only "the more different"
EDDA models, found from a correspondence analysis (CA) of the models described by their
posterior probabilities p_k^m(x_i). The paper gives no algorithm for reading the CA map; here it
is made a deterministic procedure:

1. Table N (M x nK): row m holds the posteriors p_k^m(x_i) of every training unit i and class k
   (each row sums to n, so the models have equal masses).
2. CA of N: row principal coordinates on the first ``n_components`` axes (columns of zero mass,
   i.e. a class no model gives any probability at a unit, are dropped).
3. In that map, the two models farthest apart are chosen first (or, with ``first=``, a given
   model, e.g. the one EDDA selects); then, while more are asked for, the model whose distance
   to the nearest chosen one is largest (farthest-point order). Ties go to the model listed
   first.

On iris, crabs and thyroid this does not reproduce the paper's Table 3, which pairs the model
EDDA selects with a very different one (often [lambda I]): the paper's reading of the CA map is
not fully specified (``benchmarks/bench_combine.py`` prints both choices).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from sklearn.base import clone

from .._core.validation import check_positive_int
from .._core.warnings import warn as _warn
from ..gaussian import EDDA, MODELS
from ._naming import model_name

__all__ = ["diverse_models", "ModelChoice", "correspondence_coordinates", "EDDA_ALL"]

#: The 14 EDDA models, in the order of ``ordstat.gaussian.MODELS``.
EDDA_ALL = "edda"


class ModelChoice:
    """The result of :func:`diverse_models`.

    Attributes
    ----------
    chosen : list of fitted estimators
        The most different models, in the order they were picked.
    indices : list of int
        Their positions among the candidate models.
    coordinates : pandas.DataFrame
        CA row coordinates of every candidate (index: the model names).
    inertia : ndarray
        Share of the total inertia of each CA axis kept.
    """

    def __init__(self, chosen, indices, coordinates, inertia):
        self.chosen = chosen
        self.indices = indices
        self.coordinates = coordinates
        self.inertia = inertia

    @property
    def names(self):
        return [model_name(e) for e in self.chosen]

    def __repr__(self):
        share = ", ".join(f"{v:.0%}" for v in self.inertia)
        return f"ModelChoice({', '.join(self.names)}; CA axes inertia {share})"


def class_columns(est, classes, what, allow_missing=False):
    """Where each of ``classes`` is among ``est.classes_`` (-1 when absent), matched by label.

    The models combined need not list the classes in one order (scikit-learn's sort them,
    ordstat's ordinal ones do not), so their probability columns are matched by label. A
    model that knows a class the combination does not, or (unless ``allow_missing``, for a
    refit on part of the data) lacks one of its classes, is an error naming it.
    """
    theirs = np.asarray(getattr(est, "classes_", []), dtype=object).tolist()
    ours = np.asarray(classes, dtype=object).tolist()   # plain labels in messages
    index = pd.Index(theirs, dtype=object).get_indexer(ours)
    extra = [c for c in theirs if c not in set(ours)]
    lacking = [c for c, i in zip(ours, index) if i < 0]
    if extra or (lacking and not allow_missing):
        problem = (f"lacks the class(es) {lacking}" if lacking and not allow_missing
                   else f"has the class(es) {extra} the combination does not know")
        raise ValueError(
            f"{what} ({model_name(est, 'short')}) {problem}: its classes_ are "
            f"{theirs}, the combination's {ours}; fit every model on the "
            "same classes (pass classes= to the combination)."
        )
    return index


def aligned_proba(est, X, classes, what="estimator", allow_missing=False):
    """``est.predict_proba(X)`` with its columns in the order of ``classes`` (matched by label,
    see :func:`class_columns`; an absent class gets probability 0 when ``allow_missing``)."""
    proba = np.asarray(est.predict_proba(X))
    index = class_columns(est, classes, what, allow_missing)
    if np.array_equal(index, np.arange(proba.shape[1])):
        return proba
    out = np.zeros((proba.shape[0], len(classes)))
    out[:, index >= 0] = proba[:, index[index >= 0]]
    return out


def correspondence_coordinates(table, n_components=2):
    """Row principal coordinates of a correspondence analysis of a non-negative table.

    Returns (coordinates (M, n_components), inertia share of each axis).
    """
    N = np.asarray(table, dtype=float)
    N = N[:, N.sum(axis=0) > 0]
    P = N / N.sum()
    r, c = P.sum(axis=1), P.sum(axis=0)
    S = (P - np.outer(r, c)) / np.sqrt(np.outer(r, c))
    U, sv, _ = np.linalg.svd(S, full_matrices=False)
    total = float(np.sum(sv ** 2))
    k = min(n_components, len(sv))
    # A fixed sign per axis (largest |loading| positive) makes the map reproducible.
    signs = np.sign(U[np.argmax(np.abs(U[:, :k]), axis=0), np.arange(k)])
    signs[signs == 0] = 1.0
    coords = U[:, :k] * sv[:k] * signs / np.sqrt(r)[:, None]
    share = sv[:k] ** 2 / total if total > 0 else np.zeros(k)
    return coords, share


def _farthest_points(coords, n_models, first=None):
    dist = np.sqrt(((coords[:, None, :] - coords[None, :, :]) ** 2).sum(axis=-1))
    M = len(coords)
    if n_models >= M:
        return list(range(M)) if first is None else [first] + [m for m in range(M) if m != first]
    if first is None:
        i, j = divmod(int(np.argmax(dist)), M)  # first maximum: lowest indices on ties
        chosen = sorted([i, j])
    else:
        chosen = [first]
    while len(chosen) < n_models:
        nearest = dist[:, chosen].min(axis=1)
        nearest[chosen] = -np.inf
        chosen.append(int(np.argmax(nearest)))
    return chosen


def _candidates(estimators):
    if isinstance(estimators, str):
        if estimators.lower() != EDDA_ALL:
            raise ValueError(
                f"estimators must be a list of estimators or {EDDA_ALL!r} (the 14 EDDA "
                f"models); got {estimators!r}."
            )
        return [EDDA(model=m) for m in MODELS]
    if not isinstance(estimators, (list, tuple)) or len(estimators) == 0:
        raise ValueError(
            "estimators must be a non-empty list of estimators or 'edda'; got "
            f"{estimators!r}."
        )
    return list(estimators)


def diverse_models(estimators, X, y=None, n_models=2, *, n_components=2, first=None,
                   classes=None):
    """The ``n_models`` most different models by a correspondence analysis of their posteriors.

    Parameters
    ----------
    estimators : list of estimators or "edda"
        Fitted estimators (then ``y`` may be None), unfitted ones (fitted on ``X, y``), or
        "edda" for the 14 EDDA covariance models. Models that cannot be fitted (e.g. a singular
        covariance) are left out with a warning.
    X : array-like of shape (n_samples, n_features)
        The units whose posteriors describe the models (normally the training data).
    y : array-like of shape (n_samples,), optional
        Labels, needed when some estimator is not fitted.
    n_models : int, default=2
    n_components : int, default=2
        CA axes used for the distances (2: the factorial plane a reader looks at).
    first : int, optional
        Position of a candidate to choose first (e.g. the model EDDA selects); by default the
        two models farthest apart start the choice.
    classes : sequence, optional
        Passed to unfitted estimators whose ``classes`` is None.

    Returns
    -------
    ModelChoice

    References
    ----------
    Brito, I., Celeux, G. and Sousa Ferreira, A. (2006). Combining methods in supervised
    classification: a comparative study on discrete and continuous problems. REVSTAT 4,
    201-225, section 5.1 and Table 3.
    """
    n_models = check_positive_int(n_models, "n_models", 2)
    n_components = check_positive_int(n_components, "n_components")
    candidates = _candidates(estimators)
    if first is not None:
        first = check_positive_int(first, "first", 0)
        if first >= len(candidates):
            raise ValueError(f"first must be the position of a candidate (0 to "
                             f"{len(candidates) - 1}); got {first}.")
    fitted, names, positions = [], [], []
    for m, est in enumerate(candidates):
        if not hasattr(est, "classes_"):
            if y is None:
                raise ValueError(
                    f"estimators[{m}] ({type(est).__name__}) is not fitted and y is None; "
                    "pass y or fitted estimators."
                )
            est = clone(est)
            if classes is not None and est.get_params().get("classes", 0) is None:
                est.set_params(classes=classes)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    est.fit(X, y)
            except ValueError as exc:
                _warn(f"diverse_models: {model_name(est)} left out: {exc}",
                      UserWarning)
                continue
        fitted.append(est)
        names.append(model_name(est))
        positions.append(m)
    if len(fitted) < 2:
        raise ValueError("diverse_models needs at least two models that could be fitted; got "
                         f"{len(fitted)}.")
    table = np.vstack([aligned_proba(est, X, classes if classes is not None else
                                     fitted[0].classes_, f"estimators[{m}]").reshape(-1)
                       for est, m in zip(fitted, positions)])
    coords, share = correspondence_coordinates(table, n_components)
    if first is not None and first not in positions:
        raise ValueError(f"first={first}: that model could not be fitted.")
    chosen = _farthest_points(coords, n_models,
                              None if first is None else positions.index(first))
    frame = pd.DataFrame(coords, index=names,
                         columns=[f"axis{a + 1}" for a in range(coords.shape[1])])
    return ModelChoice([fitted[i] for i in chosen], [positions[i] for i in chosen], frame,
                       share)
