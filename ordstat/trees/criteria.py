"""The registry of split criteria (contract 5 of DESIGN.md).

A split criterion is a small vectorised function ``fn(left, right) -> goodness``:

- ``left``, ``right``: arrays of shape (n_candidates, K), the weighted class counts of the left
  and right child of every candidate split of one node (classes in ordinal order, lowest first);
- ``goodness``: array of shape (n_candidates,), larger is better. A candidate is only used when
  its goodness is positive, so a criterion may return negative values (generalized Gini can).

The tree builder knows nothing about any particular criterion: it picks the candidate of largest
goodness. Goodness is on the *count scale*: for an impurity i(.) it is

    N_t i(t) - N_tL i(tL) - N_tR i(tR) = N_t [i(t) - pL i(tL) - pR i(tR)],

with N the (weighted) counts, i.e. the decrease of impurity of eq. (4) of paper 003 times the
weight in the node. This is rpart's ``improve`` for ``method="class"`` (n times the decrease),
so variable importances add up across nodes of different sizes. Impurity-based criteria carry
an ``impurity(counts)`` attribute giving N i(t) for arrays of counts of shape (..., K); the
builder uses it to record node impurities.

Formulas (paper 003, sections 2 and 4, with the equations lost in the extraction restored in
DESIGN.md's "Specification notes"): for node proportions p(g|t) and F_t(g) = sum_{h<=g} p(h|t),

- ``gini``: i(t) = 1 - sum_g p(g|t)^2 (eq. 1);
- ``entropy``: i(t) = -sum_g p(g|t) log p(g|t) (eq. 2);
- generalized Gini (eq. 9): i(t) = sum_g sum_h C(h|g) p(g|t) p(h|t), with C linear |g - h|
  (``gini_linear``), quadratic (g - h)^2 (``gini_quadratic``) or a user cost matrix
  (:func:`generalized_gini`);
- ``ordinal`` (Piccarreta's ordinal impurity, eq. 13; eq. 12 with class scores s_g through
  :func:`ordinal_impurity`): i_OS(t) = sum_{g<G} F_t(g) (1 - F_t(g)) (s_{g+1} - s_g);
- ``twoing`` (ordered twoing, eqs. 10-11): phi(s, t) = max_r pL pR (F_tL(r) - F_tR(r))^2 over
  the superclasses {1..r} vs {r+1..G}, times N_t.

Users add their own with :func:`register_criterion`.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "CRITERIA",
    "register_criterion",
    "get_criterion",
    "generalized_gini",
    "ordinal_impurity",
    "impurity_criterion",
    "gini",
    "entropy",
    "twoing",
]


def _totals(counts):
    return counts.sum(axis=-1)


def _safe_div(num, den):
    """num / den with 0 where den == 0 (an empty child has zero impurity mass)."""
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den > 0)
    return out


def impurity_criterion(impurity, name=None):
    """Goodness of split ``N i(t) - N_L i(tL) - N_R i(tR)`` from a count-scale impurity.

    Parameters
    ----------
    impurity : callable
        ``impurity(counts)`` for counts of shape (..., K) returns N i(t) of shape (...,), where N
        is the total count of the row.
    name : str, optional
        ``__name__`` of the returned function.

    Returns
    -------
    criterion : callable ``(left, right) -> goodness`` with an ``impurity`` attribute.
    """

    def criterion(left, right):
        left = np.asarray(left, dtype=np.float64)
        right = np.asarray(right, dtype=np.float64)
        return impurity(left + right) - impurity(left) - impurity(right)

    criterion.impurity = impurity
    criterion.__name__ = name or getattr(impurity, "__name__", "impurity_criterion")
    criterion.__doc__ = f"Impurity decrease (count scale) of {criterion.__name__}."
    return criterion


# --- impurities on the count scale: N * i(p) -------------------------------------------------

def _gini_impurity(counts):
    counts = np.asarray(counts, dtype=np.float64)
    total = _totals(counts)
    # N (1 - sum p^2) = N - sum n_g^2 / N
    return total - _safe_div(np.einsum("...k,...k->...", counts, counts), total)


def _entropy_impurity(counts):
    counts = np.asarray(counts, dtype=np.float64)
    total = _totals(counts)
    # N * (-sum p log p) = N log N - sum n_g log n_g  (0 log 0 = 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        nlogn = np.where(counts > 0, counts * np.log(np.where(counts > 0, counts, 1.0)), 0.0)
        tlogt = np.where(total > 0, total * np.log(np.where(total > 0, total, 1.0)), 0.0)
    return tlogt - nlogn.sum(axis=-1)


def _cost_impurity(cost):
    cost = np.asarray(cost, dtype=np.float64)

    def impurity(counts):
        counts = np.asarray(counts, dtype=np.float64)
        if counts.shape[-1] != cost.shape[0]:
            raise ValueError(
                f"the cost matrix is {cost.shape[0]} x {cost.shape[0]} but the response has "
                f"{counts.shape[-1]} classes; give one row and column per class."
            )
        total = _totals(counts)
        # N sum_g sum_h C(h|g) p_g p_h = (n' C n) / N
        quad = np.einsum("...g,gh,...h->...", counts, cost.T, counts)
        return _safe_div(quad, total)

    impurity.cost = cost
    return impurity


def _ordinal_impurity(scores=None):
    steps_cache = {}

    def steps(k):
        if scores is None:
            return np.ones(k - 1)
        if k not in steps_cache:
            s = np.asarray(scores, dtype=np.float64)
            if s.shape != (k,):
                raise ValueError(
                    f"scores must have one value per class ({k}); got shape {s.shape}."
                )
            steps_cache[k] = np.diff(s)
        return steps_cache[k]

    def impurity(counts):
        counts = np.asarray(counts, dtype=np.float64)
        k = counts.shape[-1]
        total = _totals(counts)
        cum = np.cumsum(counts, axis=-1)[..., :-1]
        # N sum_g F(g)(1 - F(g)) ds_g = sum_g c_g (N - c_g) / N ds_g, c_g cumulative counts
        inner = cum * (total[..., None] - cum) @ steps(k)
        return _safe_div(inner, total)

    impurity.scores = None if scores is None else np.asarray(scores, dtype=np.float64)
    impurity.steps = steps
    return impurity


def _check_cost_matrix(cost):
    cost = np.asarray(cost, dtype=np.float64)
    if cost.ndim != 2 or cost.shape[0] != cost.shape[1] or cost.shape[0] < 2:
        raise ValueError(
            f"cost must be a square K x K matrix (K >= 2) with C[g, h] the cost of predicting "
            f"class h for a unit of class g; got shape {cost.shape}."
        )
    if not np.all(np.isfinite(cost)):
        raise ValueError("cost must contain only finite values.")
    if (cost < 0).any():
        raise ValueError("cost must be non-negative (paper 003, section 4.1).")
    if np.any(np.diag(cost) != 0):
        raise ValueError("cost must have a zero diagonal: a correct classification costs 0.")
    return cost


def _distance_cost(k, power):
    g = np.arange(k, dtype=np.float64)
    return np.abs(g[:, None] - g[None, :]) ** power


def generalized_gini(cost="linear"):
    """Generalized Gini criterion (paper 003, eq. 9) for a cost matrix.

    Parameters
    ----------
    cost : {"linear", "quadratic"} or array-like of shape (K, K), default="linear"
        ``"linear"``: C(h|g) = |g - h|; ``"quadratic"``: C(h|g) = (g - h)^2; otherwise the
        matrix with ``cost[g, h]`` = C(h|g), the cost of predicting h for true class g
        (non-negative, zero diagonal).

    Returns
    -------
    criterion : callable ``(left, right) -> goodness``
        With attributes ``impurity`` and ``cost`` (the matrix, or ``"linear"``/``"quadratic"``
        which is expanded for the number of classes seen).

    Notes
    -----
    This impurity need not be concave, so the decrease of impurity can be negative; such
    candidates are never used for splitting.
    """
    if isinstance(cost, str):
        if cost not in ("linear", "quadratic"):
            raise ValueError(
                f"cost must be 'linear', 'quadratic' or a K x K matrix; got {cost!r}."
            )
        power = 1 if cost == "linear" else 2
        cache = {}

        def impurity(counts):
            k = np.shape(counts)[-1]
            if k not in cache:
                cache[k] = _cost_impurity(_distance_cost(k, power))
            return cache[k](counts)

        def cost_matrix(k):
            return _distance_cost(k, power)

        crit = _attach(_cost_goodness(cost_matrix), impurity, f"gini_{cost}")
        crit.cost = cost
        crit.cost_matrix = cost_matrix
        return crit
    matrix = _check_cost_matrix(cost)

    def fixed(k):
        return matrix

    crit = _attach(_cost_goodness(fixed), _cost_impurity(matrix), "generalized_gini")
    crit.cost = matrix
    crit.cost_matrix = fixed
    return crit


def ordinal_impurity(scores=None):
    """Piccarreta's ordinal impurity criterion (paper 003, eqs. 12-13).

    Parameters
    ----------
    scores : array-like of shape (K,), optional
        Increasing class scores s_1 < ... < s_K; the term of cut g is weighted by
        s_{g+1} - s_g. None gives eq. 13 (all weights 1).

    Returns
    -------
    criterion : callable ``(left, right) -> goodness`` with an ``impurity`` attribute.
    """
    if scores is not None:
        s = np.asarray(scores, dtype=np.float64)
        if s.ndim != 1 or s.shape[0] < 2 or not np.all(np.isfinite(s)):
            raise ValueError(
                f"scores must be a 1-D array of finite class scores, one per class; got {scores!r}."
            )
        if np.any(np.diff(s) <= 0):
            raise ValueError(f"scores must be strictly increasing; got {list(s)}.")
    impurity = _ordinal_impurity(scores)
    crit = _attach(_ordinal_goodness(impurity), impurity, "ordinal")
    crit.__doc__ = "Piccarreta's ordinal impurity criterion (paper 003, eqs. 12-13, 4)."
    return crit


# --- fast goodness for the built-in criteria ---------------------------------------------------
# Each is algebraically the formula of the module docstring (the tests check them against the
# plain formulas), written as loops over the K classes on whole columns: K is small, columns are
# contiguous in the layout the tree builder passes (a transposed class-major buffer), and no
# BLAS call is involved (threaded BLAS on (n, 5) products is slow and oversubscribes cores).

def _columns(a):
    a = np.asarray(a, dtype=np.float64)
    return [a[:, k] for k in range(a.shape[1])]


def _xlogx(x):
    out = np.zeros(x.shape)
    np.multiply(x, np.log(x, out=np.ones(x.shape), where=x > 0), out=out, where=x > 0)
    return out


def twoing(left, right):
    """Ordered twoing (paper 003, eqs. 10-11): N pL pR max_r (F_L(r) - F_R(r))^2."""
    L, R = _columns(left), _columns(right)
    k = len(L)
    n = L[0].shape[0]
    nl, nr = np.zeros(n), np.zeros(n)
    for a, b in zip(L, R):
        nl += a
        nr += b
    if k < 2:
        return np.zeros(n)
    inv_l = _safe_div(1.0, nl)
    inv_r = _safe_div(1.0, nr)
    cl, cr = np.zeros(n), np.zeros(n)
    best = np.zeros(n)
    for g in range(k - 1):
        cl += L[g]
        cr += R[g]
        d = cl * inv_l - cr * inv_r
        np.maximum(best, d * d, out=best)
    # N pL pR = nl nr / N
    return _safe_div(nl * nr, nl + nr) * best


def _gini_goodness(left, right):
    L, R = _columns(left), _columns(right)
    n = L[0].shape[0]
    nl, nr, sl, sr, slr = (np.zeros(n) for _ in range(5))
    for a, b in zip(L, R):
        nl += a
        nr += b
        sl += a * a
        sr += b * b
        slr += a * b
    # N(1 - sum p^2) per node: the N's cancel, leaving sum n_g^2 / n per node.
    return _safe_div(sl, nl) + _safe_div(sr, nr) - _safe_div(sl + sr + 2.0 * slr, nl + nr)


def _entropy_goodness(left, right):
    L, R = _columns(left), _columns(right)
    n = L[0].shape[0]
    nl, nr, inner = np.zeros(n), np.zeros(n), np.zeros(n)
    for a, b in zip(L, R):
        nl += a
        nr += b
        inner += _xlogx(a + b) - _xlogx(a) - _xlogx(b)
    # N i = N log N - sum_g n_g log n_g for each node
    return _xlogx(nl + nr) - _xlogx(nl) - _xlogx(nr) - inner


def _cost_goodness(cost_of_k):
    def goodness(left, right):
        L, R = _columns(left), _columns(right)
        k = len(L)
        cost = cost_of_k(k)
        if cost.shape != (k, k):
            raise ValueError(
                f"the cost matrix is {cost.shape[0]} x {cost.shape[1]} but the response has "
                f"{k} classes; give one row and column per class."
            )
        n = L[0].shape[0]
        nl, nr, ql, qr, qlr = (np.zeros(n) for _ in range(5))
        for a, b in zip(L, R):
            nl += a
            nr += b
        for g in range(k):
            for h in range(k):
                c = cost[g, h]
                if c != 0.0:
                    ql += c * (L[g] * L[h])
                    qr += c * (R[g] * R[h])
                    qlr += c * (L[g] * R[h] + R[g] * L[h])
        # N i = (n' C n) / N per node; the parent's quadratic form is ql + qr + qlr.
        return _safe_div(ql + qr + qlr, nl + nr) - _safe_div(ql, nl) - _safe_div(qr, nr)

    return goodness


def _ordinal_goodness(impurity):
    def goodness(left, right):
        L, R = _columns(left), _columns(right)
        k = len(L)
        n = L[0].shape[0]
        if k < 2:
            return np.zeros(n)
        ds = impurity.steps(k)
        nl, nr = np.zeros(n), np.zeros(n)
        for a, b in zip(L, R):
            nl += a
            nr += b
        cl, cr, bl, br, blr = (np.zeros(n) for _ in range(5))
        for g in range(k - 1):
            cl += L[g]
            cr += R[g]
            bl += ds[g] * (cl * cl)
            br += ds[g] * (cr * cr)
            blr += ds[g] * (cl * cr)
        # N i = sum_g ds_g c_g (N - c_g) / N = sum ds c - (sum ds c^2) / N; the linear terms
        # of parent and children cancel.
        return _safe_div(bl, nl) + _safe_div(br, nr) - _safe_div(bl + br + 2.0 * blr, nl + nr)

    return goodness


def _attach(goodness, impurity, name):
    goodness.impurity = impurity
    goodness.__name__ = name
    return goodness


gini = _attach(_gini_goodness, _gini_impurity, "gini")
gini.__doc__ = "Gini criterion (paper 003, eqs. 1 and 4) on the count scale."
entropy = _attach(_entropy_goodness, _entropy_impurity, "entropy")
entropy.__doc__ = "Entropy criterion (paper 003, eqs. 2 and 4) on the count scale."

CRITERIA = {
    "gini": gini,
    "entropy": entropy,
    "gini_linear": generalized_gini("linear"),
    "gini_quadratic": generalized_gini("quadratic"),
    "twoing": twoing,
    "ordinal": ordinal_impurity(),
}


def register_criterion(name, fn, *, overwrite=False):
    """Add a split criterion to :data:`CRITERIA`.

    Parameters
    ----------
    name : str
        Registry name, then usable as ``OrdinalTreeClassifier(criterion=name)``.
    fn : callable
        ``fn(left, right) -> goodness`` for arrays of shape (n_candidates, K) of weighted class
        counts; returns shape (n_candidates,), larger is better, on the count scale (see the
        module docstring). Give it an ``impurity(counts)`` attribute to have node impurities
        recorded.
    overwrite : bool, default=False
        Replace an existing entry of that name.
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty string; got {name!r}.")
    if not callable(fn):
        raise TypeError(f"fn must be callable as fn(left, right) -> goodness; got {fn!r}.")
    if name in CRITERIA and not overwrite:
        raise ValueError(
            f"a criterion named {name!r} is already registered; pass overwrite=True to replace it."
        )
    CRITERIA[name] = fn
    return fn


def get_criterion(criterion):
    """The criterion function for a registry name or a callable."""
    if callable(criterion):
        return criterion
    if isinstance(criterion, str):
        if criterion not in CRITERIA:
            raise ValueError(
                f"criterion must be one of {sorted(CRITERIA)} or a callable "
                f"fn(left, right) -> goodness; got {criterion!r}."
            )
        return CRITERIA[criterion]
    raise TypeError(
        f"criterion must be a registered name ({sorted(CRITERIA)}) or a callable; "
        f"got {type(criterion).__name__}."
    )


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
