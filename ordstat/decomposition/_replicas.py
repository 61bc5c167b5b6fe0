"""What every decomposition shares: the K-1 binary replicas Y > C_k, the ways of turning K-1
binary answers back into one class, and the registry of rules that combine per-replica scores.

Replica k (k = 0..K-2 in code, C_{k+1} in the papers) asks "is the class above the k-th one?":
its positive class C+ is {C_{k+2}, ..., C_K}, its negative class C- is {C_1, ..., C_{k+1}}
(Frank & Hall 2001; Waegeman & Boullart 2006, eq. 2).
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "REPLICA_RULES",
    "register_replica_rule",
    "get_replica_rule",
    "replica_targets",
    "frank_hall_proba",
    "count_rank",
    "resolve_rank",
]


def replica_targets(codes, n_classes):
    """Binary labels of the K-1 replicas, shape (n, K-1): column k is 1 where code > k."""
    codes = np.asarray(codes)
    return (codes[:, None] > np.arange(n_classes - 1)[None, :]).astype(np.intp)


def frank_hall_proba(upper):
    """Class probabilities from P(Y > C_k) by differences (Frank & Hall 2001).

    P(C_1) = 1 - P(Y > C_1), P(C_i) = P(Y > C_{i-1}) - P(Y > C_i), P(C_K) = P(Y > C_{K-1}).
    The K-1 binary models are fitted separately, so P(Y > C_k) need not decrease in k and a
    difference can be negative; negative values are set to 0 and each row is renormalised to
    sum to 1 (the rows sum to 1 before clipping, so after clipping the sum is >= 1, never 0).

    Parameters
    ----------
    upper : array-like of shape (n, K-1)
        Column k is the estimated P(Y > C_{k+1}).

    Returns
    -------
    proba : ndarray of shape (n, K)
    """
    upper = np.asarray(upper, dtype=np.float64)
    n = upper.shape[0]
    cum = np.hstack([np.ones((n, 1)), upper, np.zeros((n, 1))])
    proba = np.clip(cum[:, :-1] - cum[:, 1:], 0.0, None)
    return proba / proba.sum(axis=1, keepdims=True)


def count_rank(positive):
    """The counting rule f(x) = C_i, i = 1 + sum_k [f_k(x) = C+], as codes 0..K-1."""
    return np.asarray(positive, dtype=bool).sum(axis=1).astype(np.intp)


def resolve_rank(decision):
    """Rank from K-1 real decision values (positive means Y > C_k), non-monotone signs resolved.

    Rank i (code 0..K-1) claims d_k > 0 for k < i and d_k <= 0 for k >= i. We pick the rank whose
    claims the decision values contradict least, measured by the size of the contradicting
    values: cost(i) = sum_{k<i} max(0, -d_k) + sum_{k>=i} max(0, d_k); ties go to the lower rank.
    When the signs are monotone (+ ... + - ... -) exactly one rank has cost 0 and it is the
    counting rule's rank, so this only changes the answer for the ambiguous objects that
    Waegeman & Boullart (2006, section III) mention and leave open.
    """
    d = np.asarray(decision, dtype=np.float64)
    n, m = d.shape
    neg_part = np.maximum(-d, 0.0)  # contradiction if rank is above k
    pos_part = np.maximum(d, 0.0)  # contradiction if rank is at or below k
    below = np.hstack([np.zeros((n, 1)), np.cumsum(neg_part, axis=1)])
    above = np.hstack([np.cumsum(pos_part[:, ::-1], axis=1)[:, ::-1], np.zeros((n, 1))])
    return np.argmin(below + above, axis=1).astype(np.intp)


# --- combination rules for per-replica scores (dissertation, section 4.3) -----------------------
# A rule maps values (n_candidates, K-1) in [0, 1], larger better, and a boolean mask ``active``
# of the same shape (False = the replica makes no cut, a threshold at +infinity) to one score per
# candidate, larger better. Inactive entries hold value 0.

def _n_active(active):
    return active.sum(axis=1)


def _rule_sum(values, active):
    return np.where(active, values, 0.0).sum(axis=1)


def _rule_average(values, active):
    n = _n_active(active)
    total = np.where(active, values, 0.0).sum(axis=1)
    return np.divide(total, n, out=np.zeros(len(n)), where=n > 0)


def _rule_product(values, active):
    # 1 - prod(1 - v) over all replicas: a replica without a cut (v = 0) leaves the product alone,
    # where a plain product would be 0 and discard the candidate.
    return 1.0 - np.prod(1.0 - np.where(active, values, 0.0), axis=1)


def _rule_geometric(values, active):
    n = _n_active(active)
    with np.errstate(divide="ignore"):
        logs = np.where(active, np.log(np.where(active, values, 1.0)), 0.0).sum(axis=1)
    return np.where(n > 0, np.exp(logs / np.maximum(n, 1)), 0.0)


def _rule_min(values, active):
    out = np.where(active, values, np.inf).min(axis=1)
    return np.where(np.isfinite(out), out, 0.0)


def _rule_max(values, active):
    return np.where(active, values, 0.0).max(axis=1)


def _rule_dist_min(values, active):
    # Euclidean distance of the active values from the worst point (0, ..., 0)
    return np.sqrt((np.where(active, values, 0.0) ** 2).sum(axis=1))


def _rule_dist_max(values, active):
    # sqrt(|AS|) - distance from the best point (1, ..., 1): the largest possible distance minus
    # the distance to the ideal, so that larger is better
    n = _n_active(active)
    gap = np.sqrt((np.where(active, 1.0 - values, 0.0) ** 2).sum(axis=1))
    return np.sqrt(n) - gap


REPLICA_RULES = {
    "sum": _rule_sum,
    "average": _rule_average,
    "product": _rule_product,
    "geometric": _rule_geometric,
    "min": _rule_min,
    "max": _rule_max,
    "dist_min": _rule_dist_min,
    "dist_max": _rule_dist_max,
}


def register_replica_rule(name, fn, *, overwrite=False):
    """Add a rule ``fn(values, active) -> score`` to :data:`REPLICA_RULES`.

    ``values`` and ``active`` have shape (n_candidates, K-1); the rule returns shape
    (n_candidates,), larger is better.
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty string; got {name!r}.")
    if not callable(fn):
        raise TypeError(f"fn must be callable as fn(values, active) -> score; got {fn!r}.")
    if name in REPLICA_RULES and not overwrite:
        raise ValueError(
            f"a replica rule named {name!r} is already registered; pass overwrite=True."
        )
    REPLICA_RULES[name] = fn
    return fn


def get_replica_rule(rule):
    """The rule function for a registry name or a callable."""
    if callable(rule):
        return rule
    if isinstance(rule, str) and rule in REPLICA_RULES:
        return REPLICA_RULES[rule]
    raise ValueError(
        f"rule must be one of {sorted(REPLICA_RULES)} or a callable "
        f"fn(values, active) -> score; got {rule!r}."
    )


def apply_rule(rule, values, active):
    """Score candidates with ``rule``, checking what a user rule returns."""
    values = np.atleast_2d(np.asarray(values, dtype=np.float64))
    active = np.atleast_2d(np.asarray(active, dtype=bool))
    score = np.asarray(get_replica_rule(rule)(values, active), dtype=np.float64)
    if score.shape != (values.shape[0],):
        raise ValueError(
            f"the replica rule returned shape {score.shape}; expected ({values.shape[0]},)."
        )
    return score
