"""The basic affinity coefficient between discrete distributions (Brito et al. 2006, section 4).

rho(F1, F2) = sum_j sqrt(p_j) sqrt(q_j) (Matusita 1955; Bacelar-Nicolau 1985) is 1 for equal
distributions and 0 for distributions on disjoint supports. Hierarchical coupling splits a set
of classes into the two unions of classes with the smallest affinity; the distribution of a union
of classes A under a fitted model is the n_k-weighted mixture
f_A(x) = sum_{k in A} n_k f_k(x) / sum_{k in A} n_k.
"""

from __future__ import annotations

import numpy as np
from sklearn.utils.validation import check_is_fitted

from . import _kernel, _states

__all__ = ["affinity", "class_union_affinity"]

# Models other than FMM need a sum over every state; beyond this many it is refused.
MAX_ENUMERATED_STATES = 2**22
_CHUNK = 2**16


def _check_distribution(p, name):
    try:
        arr = np.asarray(p, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a 1-D array of probabilities; got {p!r}.") from None
    if arr.ndim != 1 or arr.shape[0] == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array of probabilities; got shape "
                         f"{arr.shape}.")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite values; probabilities must be finite.")
    if (arr < 0).any():
        raise ValueError(f"{name} contains negative values; probabilities must be >= 0.")
    if abs(arr.sum() - 1.0) > 1e-6:
        raise ValueError(f"{name} must sum to one (a distribution over the states); it sums to "
                         f"{arr.sum():.6g}.")
    return arr


def affinity(p, q) -> float:
    """Basic affinity coefficient rho = sum_j sqrt(p_j q_j) between two discrete distributions.

    Parameters
    ----------
    p, q : array-like of shape (n_states,)
        Probabilities of the same states, in the same order, each summing to one.

    Returns
    -------
    float in [0, 1]
        1 when p = q, 0 when their supports are disjoint.

    References
    ----------
    Brito, I., Celeux, G. & Sousa Ferreira, A. (2006). REVSTAT 4(3), section 4.
    Matusita, K. (1955). Ann. Inst. Statist. Math. Bacelar-Nicolau, H. (1985).

    Examples
    --------
    >>> from ordstat.discrete import affinity
    >>> affinity([0.5, 0.5, 0.0], [0.5, 0.0, 0.5])
    0.5
    """
    p = _check_distribution(p, "p")
    q = _check_distribution(q, "q")
    if p.shape != q.shape:
        raise ValueError(f"p and q must be distributions on the same states; got {p.shape[0]} "
                         f"and {q.shape[0]} probabilities.")
    return float(min(1.0, np.sum(np.sqrt(p * q))))


def _group_codes(model, group, name):
    values = [group] if np.ndim(group) == 0 else list(group)
    if not values:
        raise ValueError(f"{name} must name at least one class of the model.")
    codes = model._encoding.encode(np.array(values, dtype=object), name=name)
    return np.unique(codes)


def class_union_affinity(model, group_a, group_b) -> float:
    """Affinity between the distributions of two unions of classes under a fitted model.

    Parameters
    ----------
    model : FullMultinomial, IndependenceModel or KernelMultinomial, fitted
    group_a, group_b : label or sequence of labels
        Two disjoint, non-empty sets of classes (labels as in ``model.classes_``).

    Returns
    -------
    float in [0, 1]
        rho(f_A, f_B) with f_A the n_k-weighted mixture of the class distributions in A.

    Notes
    -----
    For FMM only the observed states carry probability, so any s works; FOIM and KERNEL give
    every state positive probability and the sum runs over all s states (at most 2^22).

    References
    ----------
    Brito, I., Celeux, G. & Sousa Ferreira, A. (2006). REVSTAT 4(3), section 4.
    """
    from ._models import (FullMultinomial, IndependenceModel, KernelMultinomial,
                          _DiscreteClassifier)

    if not isinstance(model, _DiscreteClassifier):
        raise TypeError(
            "model must be a fitted FullMultinomial, IndependenceModel or KernelMultinomial; "
            f"got {type(model).__name__}."
        )
    check_is_fitted(model)
    a = _group_codes(model, group_a, "group_a")
    b = _group_codes(model, group_b, "group_b")
    if np.intersect1d(a, b).size:
        raise ValueError(
            f"group_a and group_b must be disjoint; both contain "
            f"{list(model.classes_[np.intersect1d(a, b)])}."
        )
    n = model.class_count_
    for codes, name in ((a, "group_a"), (b, "group_b")):
        if n[codes].sum() <= 0:
            raise ValueError(f"{name} has no training units, so its distribution is undefined.")
    wa, wb = n[a] / n[a].sum(), n[b] / n[b].sum()

    if isinstance(model, FullMultinomial):
        freq = model._counts / np.where(n > 0, n, 1.0)
        return float(min(1.0, np.sum(np.sqrt((freq[:, a] @ wa) * (freq[:, b] @ wb)))))

    s = model.n_states_
    if s > MAX_ENUMERATED_STATES:
        raise ValueError(
            f"class_union_affinity sums over all s = {s} states of {type(model).__name__}, "
            f"more than {MAX_ENUMERATED_STATES}; use fewer variables or categories."
        )
    radices = model._space.radices
    if isinstance(model, KernelMultinomial) and model.n_classes_ * s <= _kernel.MAX_TABLE:
        # The smoothed counts of every state at once (kept by the model when small).
        S = model._table if model._table is not None else _kernel.dense_smooth(
            _kernel.dense_table(model._state_ids, model._counts, s), radices, model.smoothing_)
        freq = S / np.where(n > 0, n, 1.0)[:, None]
        return float(min(1.0, np.sum(np.sqrt((wa @ freq[a]) * (wb @ freq[b])))))
    if isinstance(model, IndependenceModel):
        return _product_affinity(model, a, wa, b, wb)
    total = 0.0
    for start in range(0, s, _CHUNK):
        codes = _states.states_to_codes(np.arange(start, min(s, start + _CHUNK)), radices)
        dens = np.exp(model._log_density_codes(codes))
        total += float(np.sum(np.sqrt((dens[:, a] @ wa) * (dens[:, b] @ wb))))
    return min(1.0, total)


def _product_grid(probs, n_classes):
    """(prod_j r_j, K): every class's probability of every state of the variables whose
    (r_j, K) probability tables are ``probs``, as running outer products."""
    grid = np.ones((1, n_classes))
    for table in probs:
        grid = (grid[:, None, :] * table[None, :, :]).reshape(-1, n_classes)
    return grid


def _product_affinity(model, a, wa, b, wb):
    """:func:`class_union_affinity` of FOIM, where f_k(x) = prod_j p_kj(x_j): the variables are
    split into a head and a tail with at most ``_CHUNK`` states, and the two mixtures on every
    (head, tail) pair of states are matrix products of the two grids (no state is decoded)."""
    radices = model._space.radices
    K = model.n_classes_
    probs = [np.exp(model._log_table[o:o + r]) for o, r in zip(model._offsets, radices)]
    head, tail_states = len(probs), 1
    while head > 0 and tail_states * radices[head - 1] <= _CHUNK:
        head -= 1
        tail_states *= int(radices[head])
    H, T = _product_grid(probs[:head], K), _product_grid(probs[head:], K)
    Ta, Tb = T[:, a], T[:, b]
    rows = max(1, _CHUNK // T.shape[0])  # head states per block: blocks of about _CHUNK
    total = 0.0
    for start in range(0, H.shape[0], rows):
        h = H[start:start + rows]
        fa = Ta @ (h[:, a] * wa).T  # (tail states, head states in the block)
        fb = Tb @ (h[:, b] * wb).T
        total += float(np.sum(np.sqrt(fa * fb)))
    return min(1.0, total)
