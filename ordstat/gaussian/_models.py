"""The 14 Gaussian covariance models of EDDA: their M-step functions and their records.

The module structure is the following: the M-step functions by family (spherical, diagonal,
ellipsoidal, the common-orientation pair with its rotations); ``CovarianceModel``, the record
of one model (its names, M-step, warm start, letters and leave-one-out route), from which its
parameter count and the units a class needs follow; ``COVARIANCE_MODELS``, the one registry of
the records (adding a model is adding its record there); and ``MODELS`` and ``PAPER_NAMES``,
read-only views of the registry by name.

Sigma_k = lambda_k D_k A_k D_k' (Banfield & Raftery 1993; Celeux & Govaert 1995); the
three-letter names are mclust's. The module structure is the following:

- :class:`MStep`: the maximum likelihood covariances of one model, in their cheapest
  representation (spherical, diagonal or full);
- the M-step functions, one signature ``mstep(W, n, *, tol, max_iter, init=None) -> MStep``
  batched over leading axes (one fit, or the n leave-one-out fits at once), closed form or
  iterative (:data:`ITERATIVE`; the FG-type rotations of Flury & Gautschi 1986 for EVE, VVE);
- :data:`MODELS` (name -> M-step), :data:`PAPER_NAMES` (Bensmail & Celeux 1996's notation),
  :func:`n_covariance_parameters`, :func:`min_units_per_class`, :func:`followed`.

The decomposition and the estimators are explained in the documentation, "How the other
methods are computed" (docs/algorithms.md).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

__all__ = ["CovarianceModel", "COVARIANCE_MODELS", "MODELS", "PAPER_NAMES", "MStep",
           "n_covariance_parameters"]


class MStep(NamedTuple):
    kind: str                 # "spherical", "diagonal" or "full"
    cov: np.ndarray           # (..., K), (..., K, d) or (..., K, d, d)
    state: object = None      # warm-start state of the iterative models
    n_iter: int = 0
    converged: bool = True


def _diag(W):
    return np.diagonal(W, axis1=-2, axis2=-1)


def _geomean(a):
    """|diag(a)|^(1/d) computed on the log scale, over the last axis."""
    with np.errstate(divide="ignore"):
        return np.exp(np.mean(np.log(a), axis=-1))


def _total(n):
    return n.sum(axis=-1)


def _sym_eig_desc(W):
    """Eigenvalues (descending, clipped at 0) and eigenvectors of symmetric matrices."""
    vals, vecs = np.linalg.eigh(W)
    return np.clip(vals[..., ::-1], 0.0, None), vecs[..., ::-1]


def _converged(obj, old, tol):
    return np.all(np.abs(obj - old) <= tol * np.maximum(1.0, np.abs(obj)))


# --- spherical -------------------------------------------------------------------------------

def _eii(W, n, *, tol, max_iter, init=None):
    d = W.shape[-1]
    var = _diag(W).sum(axis=(-1, -2)) / (_total(n) * d)
    return MStep("spherical", np.broadcast_to(var[..., None], n.shape).copy())


def _vii(W, n, *, tol, max_iter, init=None):
    d = W.shape[-1]
    return MStep("spherical", _diag(W).sum(axis=-1) / (n * d))


# --- diagonal --------------------------------------------------------------------------------

def _eei(W, n, *, tol, max_iter, init=None):
    diag = _diag(W).sum(axis=-2) / _total(n)[..., None]
    return MStep("diagonal", np.broadcast_to(diag[..., None, :], n.shape + diag.shape[-1:]).copy())


def _vei(W, n, *, tol, max_iter, init=None):
    # [lambda_k B]: alternate B = diag(sum_k W_k / lambda_k) / |.|^(1/d) and
    # lambda_k = tr(W_k B^-1) / (n_k d) (Celeux & Govaert 1995, model [lambda_k B]).
    d = W.shape[-1]
    dw = _diag(W)
    lam = dw.sum(axis=-1) / (n * d) if init is None else np.array(init, dtype=float)
    obj = np.full(n.shape[:-1], np.inf)
    converged, it = False, 0
    for it in range(1, max_iter + 1):
        s = (dw / lam[..., None]).sum(axis=-2)
        B = s / _geomean(s)[..., None]
        lam = (dw / B[..., None, :]).sum(axis=-1) / (n * d)
        new = (n * np.log(lam)).sum(axis=-1)  # the -2 log-likelihood up to constants, / d
        converged = _converged(new, obj, tol)
        obj = new
        if converged:
            break
    return MStep("diagonal", lam[..., None] * B[..., None, :], lam, it, bool(converged))


def _evi(W, n, *, tol, max_iter, init=None):
    dw = _diag(W)
    g = _geomean(dw)
    lam = g.sum(axis=-1) / _total(n)
    return MStep("diagonal", lam[..., None, None] * dw / g[..., None])


def _vvi(W, n, *, tol, max_iter, init=None):
    return MStep("diagonal", _diag(W) / n[..., None])


# --- ellipsoidal ---------------------------------------------------------------------------

def _eee(W, n, *, tol, max_iter, init=None):
    S = W.sum(axis=-3) / _total(n)[..., None, None]
    return MStep("full", np.broadcast_to(S[..., None, :, :], W.shape).copy())


def _vee(W, n, *, tol, max_iter, init=None):
    # [lambda_k D A D']: alternate C = sum_k W_k / lambda_k normalised to |C| = 1 and
    # lambda_k = tr(W_k C^-1) / (n_k d).
    d = W.shape[-1]
    lam = _diag(W).sum(axis=-1) / (n * d) if init is None else np.array(init, dtype=float)
    obj = np.full(n.shape[:-1], np.inf)
    converged, it = False, 0
    for it in range(1, max_iter + 1):
        C = (W / lam[..., None, None]).sum(axis=-3)
        _, logdet = np.linalg.slogdet(C)
        C = C / np.exp(logdet / d)[..., None, None]
        Cinv = np.linalg.inv(C)
        lam = np.einsum("...kij,...ji->...k", W, Cinv) / (n * d)
        new = (n * np.log(lam)).sum(axis=-1)
        converged = _converged(new, obj, tol)
        obj = new
        if converged:
            break
    cov = lam[..., None, None] * C[..., None, :, :]
    return MStep("full", cov, lam, it, bool(converged))


# Over-relaxation of the rotation angles (as in SOR): the alternation between Delta and D
# converges linearly and slowly where the likelihood is flat in D; rotating by omega times the
# best angle, 1 < omega < 2, still decreases f at fixed Delta (f is a cosine in 2 theta,
# symmetric about the best angle), so the iterations stay monotone, and it cut the iterations
# about five-fold on the benchmark data (omega = 1.5 was best over iris and simulated data).
_OMEGA = 1.5


@functools.lru_cache(maxsize=None)
def _round_robin(d):
    """Rounds of disjoint column pairs covering every pair once (the circle method)."""
    players = list(range(d)) + ([-1] if d % 2 else [])
    m = len(players)
    rounds = []
    for _ in range(m - 1):
        pairs = [tuple(sorted((players[i], players[m - 1 - i]))) for i in range(m // 2)]
        pairs = [p for p in pairs if -1 not in p]
        rounds.append((np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])))
        players = [players[0], players[-1]] + players[1:-1]
    return rounds


@functools.lru_cache(maxsize=None)
def _round_indices(d):
    """Per round: the columns (J then L), the flat indices of B_jj, B_ll, B_jl and of the four
    entries jj, ll, lj, jl of the rotation, and the number of pairs P."""
    out = []
    for J, L in _round_robin(d):
        out.append((np.concatenate([J, L]), np.concatenate([J * d + J, L * d + L, J * d + L]),
                    np.concatenate([J * d + J, L * d + L, L * d + J, J * d + L]), len(J)))
    return out


def _rotation_sweep(D, B, a):
    """One sweep of exact plane rotations of the columns of D (Flury & Gautschi 1986).

    Minimises f(D) = sum_k sum_j a_kj (D' W_k D)_jj over orthogonal D, one pair of columns (j, l)
    at a time: rotating them by theta changes f by beta cos(2 theta) + gamma sin(2 theta) with
    beta = sum_k (a_kj - a_kl)(B_kjj - B_kll)/2 and gamma = sum_k (a_kj - a_kl) B_kjl
    (B_k = D' W_k D), so the best angle is 2 theta = atan2(-gamma, -beta), in (-pi, pi]; the
    rotation applied is _OMEGA times it. B is kept current.

    The pairs are visited in rounds of disjoint pairs (the circle method), a whole round at once:
    a rotation of columns (p, q) leaves the entries (j, j), (l, l), (j, l) of B untouched for
    {j, l} disjoint from {p, q}, so this equals one pair after the other. A round is one
    block-Givens matrix R: D <- D R, B_k <- R' B_k R (few numpy calls, over the whole batch).
    """
    d = D.shape[-1]
    eye = np.broadcast_to(np.eye(d).ravel(), D.shape[:-2] + (d * d,))
    flat = B.shape[:-2] + (d * d,)
    for JL, b_idx, r_idx, P in _round_indices(d):
        ajl = a[..., :, JL]                                                  # (m, K, 2P)
        diff = ajl[..., :P] - ajl[..., P:]
        b = B.reshape(flat)[..., b_idx]                                      # jj, ll, jl
        beta2 = (diff * (b[..., :P] - b[..., P:2 * P])).sum(axis=-2)         # 2 beta
        gamma = (diff * b[..., 2 * P:]).sum(axis=-2)
        theta = (0.5 * _OMEGA) * np.arctan2(-2.0 * gamma, -beta2)
        c, s = np.cos(theta), np.sin(theta)
        R = eye.copy()
        R[..., r_idx] = np.concatenate([c, c, s, -s], axis=-1)               # jj, ll, lj, jl
        R = R.reshape(D.shape)
        D = D @ R
        B[...] = np.swapaxes(R, -1, -2)[..., None, :, :] @ B @ R[..., None, :, :]
    return D


def _common_orientation(W, n, *, tol, max_iter, init, equal_volume):
    """EVE ([lambda D A_k D']) and VVE ([lambda_k D A_k D']).

    Given D, the eigenvalues Delta_k = diag(D' W_k D) give A_k and lambda(_k) in closed form
    (Celeux & Govaert 1995); given Delta_k, D is improved by one sweep of the Flury & Gautschi
    (1986) pairwise rotations on f(D) = sum_k tr(W_k D Delta_k^-1 D'). Both steps increase the
    likelihood. D starts from ``init`` (see :func:`_multistart_orientation`) or else from the
    eigenvectors of the pooled scatter. In a batch, members that have converged stop iterating
    (the others continue).
    """
    d, K = W.shape[-1], W.shape[-3]
    lead = n.shape[:-1]
    Wf = W.reshape((-1, K, d, d))
    nf = n.reshape((-1, K))
    if init is None:
        _, D = _sym_eig_desc(Wf.sum(axis=1))
        D = np.ascontiguousarray(D)
    else:
        D = np.array(np.broadcast_to(init, lead + (d, d)), dtype=float).reshape((-1, d, d))
    M = Wf.shape[0]
    delta = np.empty((M, K, d))
    obj = np.full(M, np.inf)
    n_iter = np.zeros(M, dtype=int)
    active = np.arange(M)
    Bf = np.swapaxes(D, -1, -2)[:, None] @ Wf @ D[:, None]           # D' W_k D, (M, K, d, d)
    for it in range(1, max_iter + 1):
        # The sweep keeps B = D' W D current; recompute it now and then against drift.
        if it % 25 == 0:
            Bf[active] = (np.swapaxes(D[active], -1, -2)[:, None] @ Wf[active]
                          @ D[active][:, None])
        every = active.size == M  # avoid gathers while no member has converged
        Ba, na = (Bf, nf) if every else (Bf[active], nf[active])
        T = np.clip(_diag(Ba), 0.0, None)
        if equal_volume:
            g = _geomean(T)
            lam = g.sum(axis=-1) / na.sum(axis=-1)
            da = lam[:, None, None] * T / g[..., None]
            new = na.sum(axis=-1) * d * np.log(lam)
        else:
            da = T / na[..., None]
            with np.errstate(divide="ignore"):
                new = (na * np.log(da).sum(axis=-1)).sum(axis=-1)
        sel = slice(None) if every else active
        delta[sel] = da
        n_iter[sel] = it
        done = np.abs(new - obj[sel]) <= tol * np.maximum(1.0, np.abs(new))
        obj[sel] = new
        if d == 1:
            done[:] = True
        if done.all():
            active = active[:0]
            break
        if every and not done.any():
            D = _rotation_sweep(D, Bf, 1.0 / da)                       # updates Bf in place
        else:
            keep = ~done
            idx = active[keep]
            Bk = Ba[keep]
            D[idx] = _rotation_sweep(D[idx], Bk, 1.0 / da[keep])
            Bf[idx] = Bk
            active = idx
    converged = active.size == 0
    D = D.reshape(lead + (d, d))
    delta = delta.reshape(lead + (K, d))
    cov = (D[..., None, :, :] * delta[..., :, None, :]) @ np.swapaxes(D, -1, -2)[..., None, :, :]
    return MStep("full", cov, D, int(n_iter.max()), bool(converged))


def _multistart_orientation(W, n, *, tol, max_iter, init, equal_volume, default_starts=True):
    """EVE/VVE from several starting orientations, keeping the highest likelihood.

    The common-orientation likelihood often has several local maxima on small or overlapping
    classes, so one start is not enough. The default starts are the eigenvectors of the pooled
    scatter (the EEE solution) and of each class scatter; they run as one batch, so K + 1
    starts cost little more than one for small d. ``init`` adds starts after those: one
    orientation (..., d, d) or several (..., S, d, d). With ``default_starts`` false only the
    starts of ``init`` run (the warm-started leave-one-out: the ``followed`` M-step of
    :class:`CovarianceModel`).

    The returned state holds the end points of all starts, (..., S, d, d), the retained one
    first (ties go to the earlier start).
    """
    d, K = W.shape[-1], W.shape[-3]
    lead = n.shape[:-1]
    starts = []
    if default_starts or init is None:
        _, pooled = _sym_eig_desc(W.sum(axis=-3))                   # (..., d, d)
        _, per_class = _sym_eig_desc(W)                             # (..., K, d, d)
        starts = [pooled[..., None, :, :], per_class]
    if init is not None:
        extra = np.asarray(init, dtype=float)
        if extra.ndim == len(lead) + 2:
            extra = extra[..., None, :, :]
        starts.append(np.broadcast_to(extra, lead + extra.shape[-3:]))
    D0 = np.concatenate(starts, axis=-3)                            # (..., S, d, d)
    S = D0.shape[-3]
    Ws = np.broadcast_to(W[..., None, :, :, :], lead + (S, K, d, d))
    ns = np.broadcast_to(n[..., None, :], lead + (S, K))
    step = _common_orientation(Ws, ns, tol=tol, max_iter=max_iter, init=D0,
                               equal_volume=equal_volume)
    # -2 log-likelihood up to constants: sum_k n_k log|Sigma_k| + tr(W_k Sigma_k^-1)
    _, logdet = np.linalg.slogdet(step.cov)
    tr = np.einsum("...kij,...kji->...k", Ws, np.linalg.inv(step.cov))
    crit = (ns * logdet + tr).sum(axis=-1)                          # (..., S)
    best = np.argmin(crit, axis=-1)                                 # first start wins ties
    cov = np.take_along_axis(step.cov, best[..., None, None, None, None], axis=-4)[..., 0, :, :, :]
    # state: the end points with the retained one moved to the front
    order = np.argsort(np.arange(S) != best[..., None], axis=-1, kind="stable")
    D_all = np.take_along_axis(step.state, order[..., None, None], axis=-3)
    return MStep("full", cov, D_all, step.n_iter, step.converged)


def _eve(W, n, *, tol, max_iter, init=None):
    return _multistart_orientation(W, n, tol=tol, max_iter=max_iter, init=init,
                                   equal_volume=True)


def _vve(W, n, *, tol, max_iter, init=None):
    return _multistart_orientation(W, n, tol=tol, max_iter=max_iter, init=init,
                                   equal_volume=False)


def _eev(W, n, *, tol, max_iter, init=None):
    # [lambda D_k A D_k']: D_k = eigenvectors of W_k, A and lambda from sum_k Omega_k.
    omega, L = _sym_eig_desc(W)
    s = omega.sum(axis=-2)
    g = _geomean(s)
    lam = g / _total(n)
    A = s / g[..., None]
    cov = np.einsum("...kij,...j,...klj->...kil", L, lam[..., None] * A, L)
    return MStep("full", cov)


def _vev(W, n, *, tol, max_iter, init=None):
    # [lambda_k D_k A D_k']: D_k = eigenvectors of W_k; alternate A and lambda_k.
    d = W.shape[-1]
    omega, L = _sym_eig_desc(W)
    lam = omega.sum(axis=-1) / (n * d) if init is None else np.array(init, dtype=float)
    obj = np.full(n.shape[:-1], np.inf)
    converged, it = False, 0
    for it in range(1, max_iter + 1):
        s = (omega / lam[..., None]).sum(axis=-2)
        A = s / _geomean(s)[..., None]
        lam = (omega / A[..., None, :]).sum(axis=-1) / (n * d)
        new = (n * np.log(lam)).sum(axis=-1)
        converged = _converged(new, obj, tol)
        obj = new
        if converged:
            break
    cov = np.einsum("...kij,...kj,...klj->...kil", L, lam[..., None] * A[..., None, :], L)
    return MStep("full", cov, lam, it, bool(converged))


def _evv(W, n, *, tol, max_iter, init=None):
    # [lambda D_k A_k D_k']: C_k = W_k / |W_k|^(1/d), lambda = sum_k |W_k|^(1/d) / n.
    d = W.shape[-1]
    sign, logdet = np.linalg.slogdet(W)
    g = np.where(sign > 0, np.exp(logdet / d), 0.0)
    lam = g.sum(axis=-1) / _total(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        cov = W * (lam[..., None] / g)[..., None, None]
    return MStep("full", cov)


def _vvv(W, n, *, tol, max_iter, init=None):
    return MStep("full", W / n[..., None, None])


def _eve_followed(W, n, *, tol, max_iter, init):
    return _multistart_orientation(W, n, tol=tol, max_iter=max_iter, init=init,
                                   equal_volume=True, default_starts=False)


def _vve_followed(W, n, *, tol, max_iter, init):
    return _multistart_orientation(W, n, tol=tol, max_iter=max_iter, init=init,
                                   equal_volume=False, default_starts=False)


# --- the records -----------------------------------------------------------------------------

@dataclass(frozen=True)
class CovarianceModel:
    """One covariance model: every fact about it that the estimator and the leave-one-out use.

    Parameters
    ----------
    name : str
        The model's name (mclust's three letters for the 14), upper case: the estimator
        matches the names it is given in upper case.
    paper_name : str
        The model in the notation of Bensmail & Celeux (1996).
    mstep : callable
        ``mstep(W, n, *, tol, max_iter, init=None) -> MStep``, batched over leading axes (see
        the module docstring).
    followed : callable or None, default=None
        For an iterative M-step: the M-step that starts from ``init`` only, the warm start of
        its leave-one-out refits (VEI, VEE and VEV alternate from given volumes whatever the
        start, so it is their M-step; EVE and VVE run only the given orientations, not their
        K + 1 default starts, and keep the best: started from the full-data end points, a fit
        without one unit follows each full-data maximum to its nearby maximum, which is where a
        refit from the default starts arrives as long as no start crosses into another basin
        as the unit is removed). None: a closed-form M-step.
    letters : str, optional
        Volume, shape and orientation, each E (common to the classes), V (varies) or I (the
        identity; none for the volume); default ``name``. The parameter count, the units a
        class needs and the checks of the class scatter follow from them.
    rank_one : bool, default=False
        Each class covariance is a multiple of its class scatter (EVV, VVV) or of the pooled
        scatter (EEE): the leave-one-out densities follow from the full-data Cholesky factors
        (determinant lemma, Sherman-Morrison), without batched M-steps.
    multistart : bool, default=False
        The M-step runs several starting orientations and its state holds their end points
        (..., S, d, d), the retained one first (EVE, VVE): the leave-one-out follows the
        distinct ones, and the retained one is the common orientation.
    """

    name: str
    paper_name: str
    mstep: Callable
    followed: Callable | None = None
    letters: str | None = None
    rank_one: bool = False
    multistart: bool = False

    def __post_init__(self):
        letters = self.name if self.letters is None else self.letters
        if len(letters) != 3 or letters[0] not in "EV" or any(c not in "EVI" for c in letters):
            raise ValueError(f"covariance model {self.name!r}: letters must be volume, shape "
                             f"and orientation, each E, V or I (no I volume); got {letters!r}.")
        object.__setattr__(self, "letters", letters)
        if self.rank_one and letters not in ("EEE", "EVV", "VVV"):
            raise ValueError(f"covariance model {self.name!r}: rank-one leave-one-out needs a "
                             "multiple of the class or pooled scatter (EEE, EVV, VVV).")
        if self.multistart and self.followed is None:
            raise ValueError(f"covariance model {self.name!r}: a multistart M-step is "
                             "iterative; give its followed M-step.")

    @property
    def iterative(self):
        """Whether the M-step iterates (it then reports n_iter and converged)."""
        return self.followed is not None

    @property
    def pooled(self):
        """Whether one covariance matrix serves all classes (nothing varies: EII, EEI, EEE)."""
        return "V" not in self.letters

    @property
    def class_volume(self):
        """Whether each class has its own volume lambda_k."""
        return self.letters[0] == "V"

    @property
    def class_shape(self):
        """What a class-specific shape is: "diagonal" (EVI, VVI), "full" (with its own or a
        common orientation: EVE, VVE, EVV, VVV) or None."""
        if self.letters[1] != "V":
            return None
        return "diagonal" if self.letters[2] == "I" else "full"

    def n_parameters(self, K, d):
        """Free parameters of the K covariance matrices (Celeux & Govaert 1995, Table 1).

        A volume costs 1, a shape d - 1, an orientation d (d - 1) / 2; each counted once when
        common (E) and K times when free (V); I costs nothing.
        """
        per_part = (1, d - 1, d * (d - 1) // 2)
        return sum({"E": 1, "V": K, "I": 0}[letter] * cost
                   for letter, cost in zip(self.letters, per_part))

    def min_units(self, d):
        """Units a class needs for the model's class-specific parameters to be estimable.

        A class-specific full covariance (EVV, VVV) needs a non-singular W_k, so d + 1 units;
        any other class-specific volume or shape needs some spread within the class, so 2
        units; models with only common volume and shape (EII, EEI, EEE, EEV) borrow it from
        the other classes.
        """
        if self.letters[1:] == "VV":
            return d + 1
        return 2 if "V" in self.letters[:2] else 1


COVARIANCE_MODELS = {m.name: m for m in (
    CovarianceModel("EII", "[lambda I]", _eii),
    CovarianceModel("VII", "[lambda_k I]", _vii),
    CovarianceModel("EEI", "[lambda B]", _eei),
    CovarianceModel("VEI", "[lambda_k B]", _vei, followed=_vei),
    CovarianceModel("EVI", "[lambda B_k]", _evi),
    CovarianceModel("VVI", "[lambda_k B_k]", _vvi),
    CovarianceModel("EEE", "[lambda D A D']", _eee, rank_one=True),
    CovarianceModel("VEE", "[lambda_k D A D']", _vee, followed=_vee),
    CovarianceModel("EVE", "[lambda D A_k D']", _eve, followed=_eve_followed, multistart=True),
    CovarianceModel("VVE", "[lambda_k D A_k D']", _vve, followed=_vve_followed,
                    multistart=True),
    CovarianceModel("EEV", "[lambda D_k A D_k']", _eev),
    CovarianceModel("VEV", "[lambda_k D_k A D_k']", _vev, followed=_vev),
    CovarianceModel("EVV", "[lambda D_k A_k D_k']", _evv, rank_one=True),
    CovarianceModel("VVV", "[lambda_k D_k A_k D_k']", _vvv, rank_one=True),
)}
"""Model name -> :class:`CovarianceModel`, in mclust's order of increasing complexity by
family: the one registry of the covariance models (adding a model is adding its record)."""


class _Field(Mapping):
    """One field of every record of :data:`COVARIANCE_MODELS`, by name, in its order: a
    read-only view that follows the registry."""

    def __init__(self, field):
        self._field = field

    def __getitem__(self, name):
        return getattr(COVARIANCE_MODELS[name], self._field)

    def __iter__(self):
        return iter(COVARIANCE_MODELS)

    def __len__(self):
        return len(COVARIANCE_MODELS)

    def __repr__(self):
        return repr(dict(self))


MODELS = _Field("mstep")
"""Model name -> M-step function (a view of :data:`COVARIANCE_MODELS`)."""

PAPER_NAMES = _Field("paper_name")
"""Model name -> the notation of Bensmail & Celeux (1996) and Brito et al. (2006) (a view of
:data:`COVARIANCE_MODELS`)."""


def n_covariance_parameters(model: str, K: int, d: int) -> int:
    """Free parameters of the K covariance matrices of ``model`` (see
    :meth:`CovarianceModel.n_parameters`)."""
    return COVARIANCE_MODELS[model].n_parameters(K, d)
