"""Split criteria: one :class:`Criterion` record each, in one registry.

The module structure is the following:

- :class:`Criterion`: a goodness of the left and right children's class counts (on the count
  scale, larger is better), an optional impurity, a parameter per number of classes and an
  optional compiled scan ``(start, add, gain)``;
- the built-in criteria, each as numpy functions and a scan: Gini, entropy, generalized Gini
  (:func:`generalized_gini`), rpart's loss matrix (:func:`loss_matrix_gini`), the ordinal
  impurity (:func:`ordinal_impurity`) and ordered twoing (Archer & Mas 2009, sections 2 and 4;
  Piccarreta 2008; Therneau & Atkinson);
- the registry :data:`CRITERIA` with :func:`register_criterion`, :func:`get_criterion` and the
  checks of a user criterion's goodness.

The formulas, the count scale and the scans are explained in the documentation, "How the trees
are grown" (docs/trees_engine.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial

import numpy as np

from .._core.costs import distance_cost
from .._core.names import CRITERION_ALIASES, normalize

__all__ = [
    "Criterion",
    "CRITERIA",
    "ALIASES",
    "register_criterion",
    "get_criterion",
    "generalized_gini",
    "loss_matrix_gini",
    "ordinal_impurity",
    "gini",
    "entropy",
    "twoing",
]


def _no_parameter(k):
    return np.zeros(1)


@dataclasses.dataclass(frozen=True, eq=False)
class Criterion:
    """A split criterion: goodness, impurity, parameter and optional compiled scan.

    Parameters
    ----------
    name : str
        Name shown in messages (and the registry key of the built-in criteria).
    goodness_fn : callable
        ``goodness_fn(left, right, param) -> goodness`` for float arrays of shape
        (n_candidates, K) and the criterion's parameter for K classes.
    impurity_fn : callable or None
        ``impurity_fn(counts, param)``: N i(t) for counts of shape (..., K); None for criteria
        that are not impurity-based.
    parameter : callable
        ``parameter(K) -> ndarray``: the cost matrix, the score steps, or an unused
        placeholder; raises ValueError when the criterion does not fit K classes.
    has_cost : bool
        Whether ``parameter(K)`` is a cost matrix with ``C[g, h]`` the cost of predicting h for
        class g (usable by ``leaf_rule="cost"``).
    scan : tuple of three callables or None
        ``(start, add, gain)`` for the compiled split search: ``state = start(total, param,
        work)`` for the node's class counts ``total``, where ``work`` is a scratch float array
        of shape (4, K) (contents undefined) whose rows the state's arrays may be, so that a
        scan allocates nothing (a tree starts one per feature and node); ``state = add(state,
        total, param, c, w)`` when a unit of class c and weight w joins the left child;
        ``gain(state, total, param, nl, n)`` the goodness of the cut with left weight ``nl``
        out of ``n``. ``gain`` is called after every unit, also where no cut is admissible
        (ties, ``min_bucket``; its value is then discarded without a branch), so it must
        return a number for any state, ``nl = 0`` and ``nl = n`` included (guard divisions).
    nominal : bool
        Whether the criterion ignores the class order (Gini, entropy, rpart's loss matrices):
        an unordered categorical predictor is then searched over every subset of its levels,
        as rpart does, rather than along the levels ordered by their mean class.
    exact_sums : bool
        Whether, with whole-number weights and parameter, the scan's state holds only sums and
        products of whole numbers (exact in floating point while they stay below 2^53), so
        that it does not depend on the order in which units join the left child nor on
        whether units of one class join one at a time or together: the compiled levels may
        then search a node's feature of few distinct values by its per-value class counts
        instead of sorting its units (the same goodness to the bit, so the same trees). True
        for the built-in scans but entropy's (logarithms); False for user criteria.

    Notes
    -----
    Instances are picklable when their functions are (module-level functions, or closures
    under cloudpickle as joblib uses), so a criterion object travels to worker processes.
    """

    name: str
    goodness_fn: Callable
    impurity_fn: Callable | None = None
    parameter: Callable = _no_parameter
    has_cost: bool = False
    scan: tuple | None = None
    nominal: bool = False
    exact_sums: bool = False

    def __call__(self, left, right):
        """Goodness of every candidate split (shape (n_candidates,))."""
        left = np.asarray(left, dtype=np.float64)
        right = np.asarray(right, dtype=np.float64)
        return self.goodness_fn(left, right, self.parameter(left.shape[-1]))

    def impurity(self, counts):
        """N i(t) for counts of shape (..., K); NaN when the criterion has no impurity."""
        counts = np.asarray(counts, dtype=np.float64)
        if self.impurity_fn is None:
            return np.full(counts.shape[:-1], np.nan)
        return self.impurity_fn(counts, self.parameter(counts.shape[-1]))

    def cost_matrix(self, k):
        """The K x K cost matrix of a cost-based criterion (``C[g, h]``: cost of predicting h
        for class g)."""
        if not self.has_cost:
            raise ValueError(f"criterion {self.name!r} has no cost matrix.")
        return self.parameter(k)

    def __repr__(self):
        return f"Criterion({self.name!r})"


# --- shared helpers ---------------------------------------------------------------------------

def _safe_div(num, den):
    """num / den with 0 where den == 0 (an empty child has zero impurity mass)."""
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _columns(a):
    return [a[:, k] for k in range(a.shape[1])]


def _children_totals(L, R):
    nl, nr = np.zeros(L[0].shape[0]), np.zeros(L[0].shape[0])
    for a, b in zip(L, R):
        nl += a
        nr += b
    return nl, nr


def _xlogx(x):
    out = np.zeros(x.shape)
    np.multiply(x, np.log(x, out=np.ones(x.shape), where=x > 0), out=out, where=x > 0)
    return out


# --- Gini (eq. 1) ------------------------------------------------------------------------------
# N (1 - sum p^2) = N - S(n) / N with S(n) = sum_g n_g^2; the N's cancel in the goodness,
# leaving S(L)/nL + S(R)/nR - S(T)/N.

def _gini_goodness(left, right, param):
    L, R = _columns(left), _columns(right)
    nl, nr = _children_totals(L, R)
    sl, sr, slr = (np.zeros(nl.shape[0]) for _ in range(3))
    for a, b in zip(L, R):
        sl += a * a
        sr += b * b
        slr += a * b
    return _safe_div(sl, nl) + _safe_div(sr, nr) - _safe_div(sl + sr + 2.0 * slr, nl + nr)


def _gini_impurity(counts, param):
    total = counts.sum(axis=-1)
    return total - _safe_div(np.einsum("...k,...k->...", counts, counts), total)


def _gini_start(total, param, work):
    # S(L) gains w (2 L_c + w) when a unit joins L; S(R) = S(T) - 2 T'L + S(L)
    left = work[0]
    left[:] = 0.0
    st = 0.0
    for g in range(total.shape[0]):
        st += total[g] * total[g]
    return left, 0.0, 0.0, st


def _gini_add(state, total, param, c, w):
    left, sl, tl, st = state
    sl += w * (2.0 * left[c] + w)
    left[c] += w
    tl += w * total[c]
    return left, sl, tl, st


def _gini_gain(state, total, param, nl, n):
    left, sl, tl, st = state
    nr = n - nl
    sr = st - 2.0 * tl + sl
    return ((sl / nl if nl > 0.0 else 0.0) + (sr / nr if nr > 0.0 else 0.0)
            - (st / n if n > 0.0 else 0.0))


# --- entropy (eq. 2) ---------------------------------------------------------------------------
# N i = N log N - H(n), H(n) = sum_g n_g log n_g (0 log 0 = 0).

def _entropy_goodness(left, right, param):
    L, R = _columns(left), _columns(right)
    nl, nr = _children_totals(L, R)
    inner = np.zeros(nl.shape[0])
    for a, b in zip(L, R):
        inner += _xlogx(a + b) - _xlogx(a) - _xlogx(b)
    return _xlogx(nl + nr) - _xlogx(nl) - _xlogx(nr) - inner


def _entropy_impurity(counts, param):
    return _xlogx(counts.sum(axis=-1)) - _xlogx(counts).sum(axis=-1)


def _entropy_start(total, param, work):
    # H of each child is updated in the class of the unit that moves (two logarithms each)
    left = work[0]
    left[:] = 0.0
    right = work[1]
    n = 0.0
    ht = 0.0
    for g in range(total.shape[0]):
        right[g] = total[g]
        n += total[g]
        ht += total[g] * np.log(total[g]) if total[g] > 0.0 else 0.0
    base = (n * np.log(n) if n > 0.0 else 0.0) - ht
    return left, right, 0.0, ht, base


def _entropy_add(state, total, param, c, w):
    left, right, hl, hr, base = state
    new_l = left[c] + w
    new_r = max(right[c] - w, 0.0)
    hl += ((new_l * np.log(new_l) if new_l > 0.0 else 0.0)
           - (left[c] * np.log(left[c]) if left[c] > 0.0 else 0.0))
    hr += ((new_r * np.log(new_r) if new_r > 0.0 else 0.0)
           - (right[c] * np.log(right[c]) if right[c] > 0.0 else 0.0))
    left[c] = new_l
    right[c] = new_r
    return left, right, hl, hr, base


def _entropy_gain(state, total, param, nl, n):
    left, right, hl, hr, base = state
    nr = n - nl
    return (base - (nl * np.log(nl) if nl > 0.0 else 0.0)
            - (nr * np.log(nr) if nr > 0.0 else 0.0) + hl + hr)


# --- generalized Gini (eq. 9) ------------------------------------------------------------------
# N i = q(n) / N with q(n) = n' C n.

def _cost_goodness(left, right, cost):
    L, R = _columns(left), _columns(right)
    k = len(L)
    _check_cost_size(cost, k)
    nl, nr = _children_totals(L, R)
    ql, qr, qlr = (np.zeros(nl.shape[0]) for _ in range(3))
    for g in range(k):
        for h in range(k):
            c = cost[g, h]
            if c != 0.0:
                ql += c * (L[g] * L[h])
                qr += c * (R[g] * R[h])
                qlr += c * (L[g] * R[h] + R[g] * L[h])
    # the parent's quadratic form is q(L) + q(R) + qLR; the children are summed first so that
    # swapping them gives the same float (the missing-left search swaps them)
    return _safe_div(ql + qr + qlr, nl + nr) - (_safe_div(ql, nl) + _safe_div(qr, nr))


def _cost_impurity(counts, cost):
    _check_cost_size(cost, counts.shape[-1])
    quad = np.einsum("...g,gh,...h->...", counts, cost.T, counts)
    return _safe_div(quad, counts.sum(axis=-1))


def _cost_start(total, cost, work):
    # q(L) gains w ((C + C') L)_c + w^2 C_cc when a unit of class c joins L;
    # q(R) = q(T) - (T'C L + L'C T) + q(L), T'C L + L'C T = ((C + C') T)' L
    K = total.shape[0]
    v, vt = work[0], work[1]  # (C + C') L, (C + C') T
    for g in range(K):
        v[g] = 0.0
        vt[g] = 0.0
        for h in range(K):
            vt[g] += (cost[g, h] + cost[h, g]) * total[h]
    qt = 0.0
    for g in range(K):
        for h in range(K):
            qt += total[g] * (cost[g, h] * total[h])
    # state: (C + C') L, q(L), T'C L + L'C T, and the parent's (C + C') T, q(T)
    return v, 0.0, 0.0, vt, qt


def _cost_add(state, total, cost, c, w):
    v, ql, cross, vt, qt = state
    ql += w * v[c] + w * w * cost[c, c]
    for g in range(total.shape[0]):
        v[g] += w * (cost[g, c] + cost[c, g])
    cross += w * vt[c]
    return v, ql, cross, vt, qt


def _cost_gain(state, total, cost, nl, n):
    v, ql, cross, vt, qt = state
    nr = n - nl
    qr = qt - cross + ql
    return ((qt / n if n > 0.0 else 0.0)
            - ((ql / nl if nl > 0.0 else 0.0) + (qr / nr if nr > 0.0 else 0.0)))


# The distance costs |g - h| and (g - h)^2 need not keep all of (C + C') L (K sums, K updates
# per unit): q(L) and the cross term follow from running sums of the left child that take fewer
# operations per unit. With integer weights every sum is an exact integer, the same as the
# general scan's, so the goodness is the same float and so are the trees (the tests compare
# them); with fractional weights they may differ in the last bits.

def _linear_cost_start(total, cost, work):
    # C = |g - h|: |g - h| counts the cuts r < K - 1 between g and h. With the cumulative sums
    # cL_r of the left child, Q_c = sum_{r>=c} cL_r, CL = sum_r cL_r and S_c = K - 1 - c (the
    # cuts at or above c): ((C + C') L)_c = 2 sum_h |c - h| L_h = 2 (CL + S_c nL - 2 Q_c), so
    # q(L) gains w ((C + C') L)_c as in the general scan, from sums that take O(1) per unit
    # but Q, which gains w min(S_c, S_h) in every Q_h (K independent updates, no branch on
    # the class); q(R) = q(T) - (T'C L + L'C T) + q(L) gains that less w ((C + C') T)_c. The
    # node's (C + C') T and q(T) = 2 sum_r cT_r (N - cT_r) are O(K) the same way (many scans
    # are of small nodes).
    K = total.shape[0]
    q, steps, vt = work[0], work[1], work[2]
    n = 0.0
    for g in range(K):
        q[g] = 0.0
        steps[g] = float(K - 1 - g)
        n += total[g]
    run = 0.0
    ct = 0.0
    qt = 0.0
    for g in range(K - 1):
        run += total[g]
        ct += run
        qt += run * (n - run)
        vt[g] = run  # cT_g for now
    vt[K - 1] = 0.0
    suffix = 0.0  # U_g = sum_{r>=g} cT_r
    for g in range(K - 1, -1, -1):
        suffix += vt[g]
        vt[g] = 2.0 * ((ct + steps[g] * n) - 2.0 * suffix)
    # state: Q, S, (C + C') T, nL, CL, q(L), q(R), q(T)
    return q, steps, vt, 0.0, 0.0, 0.0, 2.0 * qt, 2.0 * qt


def _linear_cost_add(state, total, cost, c, w):
    q, steps, vt, nw, cl, ql, qr, qt = state
    sc = steps[c]
    d = (w + w) * (cl + sc * nw) - (4.0 * w) * q[c]
    ql += d
    qr += d - w * vt[c]  # q(R) = q(T) - (T'C L + L'C T) + q(L)
    nw += w
    cl += w * sc
    for h in range(q.shape[0] - 1):  # Q_{K-1} = 0; S decreases: S_max(c,h) = min(S_c, S_h)
        q[h] += w * min(sc, steps[h])
    return q, steps, vt, nw, cl, ql, qr, qt


def _linear_cost_gain(state, total, cost, nl, n):
    q, steps, vt, nw, cl, ql, qr, qt = state
    nr = n - nl
    return ((qt / n if n > 0.0 else 0.0)
            - ((ql / nl if nl > 0.0 else 0.0) + (qr / nr if nr > 0.0 else 0.0)))


def _quadratic_cost_start(total, cost, work):
    # C = (g - h)^2 is a polynomial in the classes: with the weight N and the class moments
    # T1 = sum_g g T_g, T2 = sum_g g^2 T_g of the node, q(T) = 2 (N T2 - T1^2) and
    # ((C + C') T)_g = 2 (g^2 N - 2 g T1 + T2): O(K), not K^2, per scan (many scans are of
    # small nodes). With integer weights these are the general scan's exact integers.
    K = total.shape[0]
    vt = work[0]
    n = 0.0
    t1 = 0.0
    t2 = 0.0
    for g in range(K):
        x = float(g)
        n += total[g]
        t1 += x * total[g]
        t2 += (x * x) * total[g]
    for g in range(K):
        x = float(g)
        vt[g] = 2.0 * (((x * x) * n - 2.0 * (x * t1)) + t2)
    qt = 2.0 * (n * t2 - t1 * t1)
    # state: the left child's moments M1, M2, T'C L + L'C T, the parent's (C + C') T and q(T)
    return 0.0, 0.0, 0.0, vt, qt


def _quadratic_cost_add(state, total, cost, c, w):
    # two moments and the cross term per unit; q(L) = 2 (nL M2 - M1^2) is left to the gain
    m1, m2, cross, vt, qt = state
    g = float(c)
    m1 += w * g
    m2 += w * (g * g)
    cross += w * vt[c]
    return m1, m2, cross, vt, qt


def _quadratic_cost_gain(state, total, cost, nl, n):
    m1, m2, cross, vt, qt = state
    nr = n - nl
    ql = 2.0 * (nl * m2 - m1 * m1)
    qr = qt - cross + ql
    return ((qt / n if n > 0.0 else 0.0)
            - ((ql / nl if nl > 0.0 else 0.0) + (qr / nr if nr > 0.0 else 0.0)))


def _check_cost_size(cost, k):
    if cost.shape != (k, k):
        raise ValueError(
            f"the cost matrix is {cost.shape[0]} x {cost.shape[-1]} but the response has "
            f"{k} classes; give one row and column per class."
        )


# The name under which pickles made before the one distance_cost hold the distance costs.
_distance_cost = distance_cost


def _fixed_cost(k, matrix):
    return matrix


def _check_cost_matrix(cost, argument="cost"):
    """A valid K x K cost (or loss) matrix as floats; ValueError naming ``argument``."""
    cost = np.asarray(cost, dtype=np.float64)
    if cost.ndim != 2 or cost.shape[0] != cost.shape[1] or cost.shape[0] < 2:
        raise ValueError(
            f"{argument} must be a square K x K matrix (K >= 2) with {argument}[g, h] the cost "
            f"of predicting class h for a unit of class g; got shape {cost.shape}."
        )
    if not np.all(np.isfinite(cost)):
        raise ValueError(f"{argument} must contain only finite values.")
    if (cost < 0).any():
        raise ValueError(f"{argument} must be non-negative (Archer & Mas 2009, section 4.1).")
    if np.any(np.diag(cost) != 0):
        raise ValueError(f"{argument} must have a zero diagonal: a correct classification "
                         "costs 0.")
    return cost


_COST_SCAN = (_cost_start, _cost_add, _cost_gain)
_DISTANCE_SCANS = {"linear": (_linear_cost_start, _linear_cost_add, _linear_cost_gain),
                   "quadratic": (_quadratic_cost_start, _quadratic_cost_add, _quadratic_cost_gain)}


def _matrix_parameter(value, argument, check):
    """``(parameter, kind)`` for "linear" or "quadratic" (distance costs |g - h|^power, kind the
    name) or a K x K matrix (validated by ``check``, kind None)."""
    if isinstance(value, str):
        if value not in ("linear", "quadratic"):
            raise ValueError(
                f"{argument} must be 'linear', 'quadratic' or a K x K matrix; got {value!r}."
            )
        return partial(distance_cost, power=1 if value == "linear" else 2), value
    return partial(_fixed_cost, matrix=check(value)), None


def generalized_gini(cost="linear"):
    """Generalized Gini criterion: eq. 9 of Archer & Mas (2009) for a cost matrix.

    The impurity is i(t) = sum_g sum_h C(h|g) p(g|t) p(h|t), taken literally. For linear
    costs it is twice Piccarreta's ordinal impurity (``sum_{g,h} |g - h| p_g p_h = 2 sum_r F(r)
    (1 - F(r))``), so ``"gini_linear"`` grows the same trees as ``"ordinal"``. rpart's own way
    of using a loss matrix (altered priors, then plain Gini) is :func:`loss_matrix_gini`.

    Parameters
    ----------
    cost : {"linear", "quadratic"} or array-like of shape (K, K), default="linear"
        ``"linear"``: ``C(h|g) = |g - h|``; ``"quadratic"``: ``C(h|g) = (g - h)^2``; otherwise the
        matrix with ``cost[g, h]`` = C(h|g), the cost of predicting h for true class g
        (non-negative, zero diagonal).

    Returns
    -------
    Criterion

    Notes
    -----
    This impurity need not be concave, so the decrease of impurity can be negative; such
    candidates are never used for splitting.
    """
    parameter, kind = _matrix_parameter(cost, "cost", _check_cost_matrix)
    name = f"gini_{kind}" if kind else "generalized_gini"
    return Criterion(name, _cost_goodness, _cost_impurity, parameter, has_cost=True,
                     scan=_DISTANCE_SCANS.get(kind, _COST_SCAN), exact_sums=True)


# --- rpart's loss matrix: altered priors, then Gini -------------------------------------------
# rpart (Therneau & Atkinson, section on altered priors and loss matrices; its gini.c) enters a
# loss matrix L into the split search by altering the priors: pi~_g proportional to
# pi_g sum_h L[g, h], then plain Gini on the counts re-weighted by pi~_g / pi_g. With the
# default priors (the class shares of the sample) that weight is a_g = sum_h L[g, h] divided by
# sum_h pi_h sum_j L[h, j], one constant per tree; it is left out here (the goodness is rpart's
# improve times that constant: the same ranking of splits in every node). Leaves, the risk and
# cp use L with the original counts (leaf_rule="cost"), as rpart does.
# With altered counts m_g = a_g n_g: N~ i(t) = M - S(m) / M, M = sum_g m_g, S(m) = sum_g m_g^2.

def _row_sums(loss):
    return loss.sum(axis=1)


def _loss_goodness(left, right, loss):
    _check_cost_size(loss, left.shape[1])
    a = _row_sums(loss)
    return _gini_goodness(left * a, right * a, None)


def _loss_impurity(counts, loss):
    _check_cost_size(loss, counts.shape[-1])
    return _gini_impurity(counts * _row_sums(loss), None)


def _loss_start(total, loss, work):
    # Gini's running sums on the altered counts a_c w; a = the loss's row sums
    K = total.shape[0]
    left, a = work[0], work[1]
    st = 0.0
    na = 0.0
    for g in range(K):
        left[g] = 0.0
        a[g] = 0.0
        for h in range(K):
            a[g] += loss[g, h]
        m = a[g] * total[g]
        st += m * m
        na += m
    # state: altered left counts, a, S(L~), T~'L~, S(T~), altered left and node totals
    return left, a, 0.0, 0.0, st, 0.0, na


def _loss_add(state, total, loss, c, w):
    left, a, sl, tl, st, nla, na = state
    x = a[c] * w
    sl += x * (2.0 * left[c] + x)
    left[c] += x
    tl += x * (a[c] * total[c])
    nla += x
    return left, a, sl, tl, st, nla, na


def _loss_gain(state, total, loss, nl, n):
    left, a, sl, tl, st, nla, na = state
    nra = na - nla
    sr = st - 2.0 * tl + sl
    return ((sl / nla if nla > 0.0 else 0.0) + (sr / nra if nra > 0.0 else 0.0)
            - (st / na if na > 0.0 else 0.0))


_LOSS_SCAN = (_loss_start, _loss_add, _loss_gain)


def _check_loss_matrix(loss):
    loss = _check_cost_matrix(loss, "loss")
    if np.any(loss.sum(axis=1) == 0):
        raise ValueError(
            "loss must not have a row of zeros (a class that costs nothing when misclassified "
            "would get zero weight in the split search; rpart refuses it too)."
        )
    return loss


def loss_matrix_gini(loss="linear"):
    """rpart's loss matrix (altered priors): Gini on class counts re-weighted by the loss.

    rpart (``rpart(..., method = "class", parms = list(loss = L))``; Therneau & Atkinson, "An
    introduction to recursive partitioning using the RPART routines", section on altered priors)
    does not put a loss matrix into the impurity. It alters the priors to pi~_g proportional to
    pi_g sum_h L[g, h] and splits by plain Gini on the re-weighted counts; leaves are labelled by
    least expected loss and the risk behind ``cp`` is the expected loss, both with the original
    priors. This is how Archer & Mas (2009) grew their "Linear cost" and "Quadratic cost" trees.
    The literal eq. 9 of that paper is :func:`generalized_gini`.

    Parameters
    ----------
    loss : {"linear", "quadratic"} or array-like of shape (K, K), default="linear"
        ``"linear"``: ``L[g, h] = |g - h|``; ``"quadratic"``: ``L[g, h] = (g - h)^2``; otherwise the
        matrix with ``loss[g, h]`` the loss of predicting class h for a unit of true class g
        (rpart's convention): non-negative, zero diagonal, no row of zeros.

    Returns
    -------
    Criterion
        With ``has_cost=True`` and the loss as its cost matrix: use it with
        ``OrdinalTreeClassifier(leaf_rule="cost")`` for rpart's leaves and risk.

    Notes
    -----
    With rpart's default priors (the class shares of the learning set) the altered counts are
    n_g sum_h L[g, h] / sum_h pi_h sum_j L[h, j]. The denominator is one constant per tree; it
    is left out, so this goodness is rpart's ``improve`` times that constant (the same splits).
    Gini on re-weighted counts is concave, so the goodness is never negative.
    """
    parameter, kind = _matrix_parameter(loss, "loss", _check_loss_matrix)
    name = f"loss_{kind}" if kind else "loss_matrix"
    return Criterion(name, _loss_goodness, _loss_impurity, parameter, has_cost=True,
                     scan=_LOSS_SCAN, nominal=True, exact_sums=True)


# --- Piccarreta's ordinal impurity (eqs. 12-13) -------------------------------------------------
# N i = sum_g ds_g c_g (N - c_g) / N with c_g the cumulative counts (g < K): the linear terms of
# parent and children cancel, leaving B(L)/nL + B(R)/nR - B(T)/N, B(n) = sum_g ds_g c_g^2.

def _ordinal_goodness(left, right, steps):
    L, R = _columns(left), _columns(right)
    k = len(L)
    nl, nr = _children_totals(L, R)
    cl, cr, bl, br, blr = (np.zeros(nl.shape[0]) for _ in range(5))
    for g in range(k - 1):
        cl += L[g]
        cr += R[g]
        bl += steps[g] * (cl * cl)
        br += steps[g] * (cr * cr)
        blr += steps[g] * (cl * cr)
    return _safe_div(bl, nl) + _safe_div(br, nr) - _safe_div(bl + br + 2.0 * blr, nl + nr)


def _ordinal_impurity(counts, steps):
    total = counts.sum(axis=-1)
    cum = np.cumsum(counts, axis=-1)[..., :-1]
    return _safe_div(cum * (total[..., None] - cum) @ steps, total)


def _ordinal_start(total, steps, work):
    # B(L) = sum_g ds_g cL_g^2 over the cumulative sums cL_g of the left child. A unit of
    # class c and weight w adds w to cL_g for g >= c, so B(L) gains w (2 Q_c + w S_c) with
    # S_c = sum_{g>=c} ds_g and Q_c = sum_{g>=c} ds_g cL_g, and every Q_h gains w S_max(c,h):
    # K independent updates per unit, no branch on its class. B(R) = B(T) - 2 M + B(L) with
    # M = sum_g ds_g cT_g cL_g, which gains w U_c (U_c = sum_{g>=c} ds_g cT_g): B(R) is kept
    # as a running sum too, gaining B(L)'s gain less 2 w U_c, so the gain adds nothing.
    K = total.shape[0]
    q, suffix, u2 = work[0], work[1], work[2]
    q[:] = 0.0
    run = 0.0
    bt = 0.0
    for g in range(K - 1):
        run += total[g]
        bt += steps[g] * (run * run)
        u2[g] = 2.0 * (steps[g] * run)
    suffix[K - 1] = 0.0
    u2[K - 1] = 0.0
    for g in range(K - 2, -1, -1):
        suffix[g] = suffix[g + 1] + steps[g]
        u2[g] += u2[g + 1]
    # state: Q, S, 2 U, B(L), B(R), B(T)
    return q, suffix, u2, 0.0, bt, bt


def _ordinal_add(state, total, steps, c, w):
    q, suffix, u2, bl, br, bt = state
    sc = suffix[c]
    d = (w + w) * q[c] + (w * w) * sc  # (Q_c, loaded last, is one product from the sum)
    bl += d
    br += d - w * u2[c]
    for h in range(q.shape[0] - 1):  # Q_{K-1} = 0; S decreases: S_max(c,h) = min(S_c, S_h)
        q[h] += w * min(sc, suffix[h])
    return q, suffix, u2, bl, br, bt


def _ordinal_gain(state, total, steps, nl, n):
    q, suffix, u2, bl, br, bt = state
    nr = n - nl
    return ((bl / nl if nl > 0.0 else 0.0) + (br / nr if nr > 0.0 else 0.0)
            - (bt / n if n > 0.0 else 0.0))


def _unit_steps(k):
    return np.ones(k - 1)


def _score_steps(k, scores):
    if scores.shape != (k,):
        raise ValueError(f"scores must have one value per class ({k}); got shape {scores.shape}.")
    return np.diff(scores)


def ordinal_impurity(scores=None):
    """Piccarreta's ordinal impurity criterion (Archer & Mas 2009, eqs. 12-13).

    Parameters
    ----------
    scores : array-like of shape (K,), optional
        Increasing class scores s_1 < ... < s_K; the term of cut g is weighted by
        s_{g+1} - s_g. None gives eq. 13 (all weights 1).

    Returns
    -------
    Criterion
    """
    if scores is None:
        parameter = _unit_steps
    else:
        s = np.asarray(scores, dtype=np.float64)
        if s.ndim != 1 or s.shape[0] < 2 or not np.all(np.isfinite(s)):
            raise ValueError(
                f"scores must be a 1-D array of finite class scores, one per class; got {scores!r}."
            )
        if np.any(np.diff(s) <= 0):
            raise ValueError(f"scores must be strictly increasing; got {list(s)}.")
        parameter = partial(_score_steps, scores=s)
    return Criterion("ordinal", _ordinal_goodness, _ordinal_impurity, parameter,
                     scan=(_ordinal_start, _ordinal_add, _ordinal_gain), exact_sums=True)


# --- ordered twoing (eqs. 10-11) ---------------------------------------------------------------
# N pL pR max_r (F_L(r) - F_R(r))^2 = max_r (cL_r nR - cR_r nL)^2 / (N nL nR): one division, no
# overflow for tiny counts, exact up to it for integer weights.

def _twoing_goodness(left, right, param):
    L, R = _columns(left), _columns(right)
    nl, nr = _children_totals(L, R)
    cl, cr, best = (np.zeros(nl.shape[0]) for _ in range(3))
    for g in range(len(L) - 1):
        cl += L[g]
        cr += R[g]
        d = cl * nr - cr * nl
        np.maximum(best, d * d, out=best)
    return _safe_div(best, (nl + nr) * nl * nr)


def _twoing_start(total, param, work):
    # The state is the left child's class sums times N (one add per unit, no branch on its
    # class); a cut's gain rebuilds the cumulative sums N cL_r from them. Holding them times N
    # saves a product per class in every gain: with integer weights N cL_r is the same exact
    # integer either way.
    left, ct = work[0], work[1]
    run = 0.0
    for g in range(total.shape[0]):
        left[g] = 0.0
        run += total[g]
        ct[g] = run
    return left, ct, run


def _twoing_add(state, total, param, c, w):
    state[0][c] += w * state[2]
    return state


def _twoing_gain(state, total, param, nl, n):
    left, ct, _ = state
    nr = n - nl
    top = 0.0
    run = 0.0
    for g in range(total.shape[0] - 1):
        run += left[g]
        d = run - ct[g] * nl  # cL nR - cR nL = N cL - cT nL
        top = max(top, d * d)
    den = n * nl * nr
    return top / den if den > 0.0 else 0.0


# --- the registry ------------------------------------------------------------------------------

gini = Criterion("gini", _gini_goodness, _gini_impurity,
                 scan=(_gini_start, _gini_add, _gini_gain), nominal=True, exact_sums=True)
entropy = Criterion("entropy", _entropy_goodness, _entropy_impurity,
                    scan=(_entropy_start, _entropy_add, _entropy_gain), nominal=True)
twoing = Criterion("twoing", _twoing_goodness, scan=(_twoing_start, _twoing_add, _twoing_gain),
                   exact_sums=True)

CRITERIA = {
    "gini": gini,
    "entropy": entropy,
    "gini_linear": generalized_gini("linear"),
    "gini_quadratic": generalized_gini("quadratic"),
    "loss_linear": loss_matrix_gini("linear"),
    "loss_quadratic": loss_matrix_gini("quadratic"),
    "twoing": twoing,
    "ordinal": ordinal_impurity(),
}

#: Other accepted spellings of the built-in criteria, shared with the R package and the command
#: line (one table, in ``ordstat._core.names``). Case, and "-" or " " for "_", are ignored as well.
ALIASES = CRITERION_ALIASES

BUILTIN = frozenset(CRITERIA)


def _valid_names():
    return sorted(CRITERIA) + [f"{a} (= {c})" for a, c in sorted(ALIASES.items())]


def _as_criterion(fn, name, impurity=None):
    if isinstance(fn, Criterion):
        return fn if name is None or name == fn.name else dataclasses.replace(fn, name=name)
    name = name or getattr(fn, "__name__", None) or repr(fn)
    imp = None if impurity is None else partial(_user_impurity, impurity)
    return Criterion(name, partial(_user_goodness, fn), imp)


def _user_goodness(fn, left, right, param):
    return fn(left, right)


def _user_impurity(fn, counts, param):
    return fn(counts)


def register_criterion(name, fn, *, impurity=None, overwrite=False):
    """Add a split criterion to :data:`CRITERIA`.

    Parameters
    ----------
    name : str
        Registry name, then usable as ``OrdinalTreeClassifier(criterion=name)``.
    fn : callable or Criterion
        ``fn(left, right) -> goodness`` for arrays of shape (n_candidates, K) of weighted class
        counts; returns shape (n_candidates,), larger is better, on the count scale (the
        decrease of impurity times the node's weight, as rpart's ``improve``). Or a
        :class:`Criterion`.
    impurity : callable, optional
        ``impurity(counts) -> N i(t)`` for counts of shape (..., K), to have node impurities
        recorded (``Tree.impurity``, NaN otherwise). Ignored when ``fn`` is a Criterion.
    overwrite : bool, default=False
        Replace an existing entry of that name.

    Returns
    -------
    Criterion
        The registered record. A tree estimator carries the records of the user criteria it
        names when it is pickled, so worker processes (joblib, Dask) know them too.
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty string; got {name!r}.")
    if not callable(fn):
        raise TypeError(f"fn must be callable as fn(left, right) -> goodness; got {fn!r}.")
    if (name in CRITERIA or name in ALIASES) and not overwrite:
        raise ValueError(
            f"a criterion named {name!r} is already registered; pass overwrite=True to replace it."
        )
    crit = _as_criterion(fn, name, impurity)
    CRITERIA[name] = crit
    return crit


def get_criterion(criterion):
    """The :class:`Criterion` for a registry name (or alias), a Criterion or a callable
    ``fn(left, right) -> goodness``."""
    if isinstance(criterion, str):
        key = criterion if criterion in CRITERIA else canonical_criterion(criterion)
        if key not in CRITERIA:
            raise ValueError(
                f"criterion must be one of {_valid_names()} or a callable "
                f"fn(left, right) -> goodness; got {criterion!r}."
            )
        return CRITERIA[key]
    if callable(criterion):
        return _as_criterion(criterion, None)
    raise TypeError(
        f"criterion must be a registered name ({_valid_names()}) or a callable; "
        f"got {type(criterion).__name__}."
    )


def canonical_criterion(name):
    """The registry name a spelling stands for: itself when registered (user criteria keep their
    exact name), else the canonical name of a built-in criterion (``ordstat._core.names``), else the
    spelling unchanged (which is then not in the registry)."""
    if name in CRITERIA:
        return name
    key = normalize(name)
    key = ALIASES.get(key, key)
    return key if key in CRITERIA else name


def user_registration(criterion):
    """``(name, record)`` when ``criterion`` names a criterion registered by the user in this
    process (not a built-in one), else None: what a pickled estimator must carry."""
    if isinstance(criterion, str) and criterion in CRITERIA and criterion not in BUILTIN:
        return criterion, CRITERIA[criterion]
    return None


def check_goodness(goodness, n_candidates, name):
    """Validate what a (possibly user-supplied) criterion returned."""
    goodness = np.asarray(goodness, dtype=np.float64)
    if goodness.shape != (n_candidates,):
        raise ValueError(
            f"criterion {name!r} returned an array of shape {goodness.shape}; expected "
            f"({n_candidates},), one goodness per candidate split."
        )
    if np.isnan(goodness).any():
        raise ValueError(
            f"criterion {name!r} returned NaN goodness for {int(np.isnan(goodness).sum())} "
            "candidate split(s); a criterion must return finite numbers."
        )
    return goodness
