"""Exact leave-one-out for the EDDA models without an outer loop of refits (Bensmail & Celeux
1996 choose the model by it).

The module structure is the following:

- :func:`leave_one_out`: the n leave-one-out fits of one model as one batched M-step on the
  rank-one down-dated class scatters (closed-form models), or warm-started batched refits
  (VEI, VEE, VEV, EVE, VVE); :func:`cold_refits` makes them refits from scratch (the reference
  of the tests and the benchmark);
- :func:`loo_log_joint`, :func:`loo_log_joint_pairs`: log pi_k f_k at each unit (and pairs of
  units) under the fit without it, by the determinant lemma and Sherman-Morrison for VVV, EEE
  and EVV.

The functions take the model's record (``_models.CovarianceModel``: rank_one, iterative,
multistart), the units (``_core.Sample``), the class statistics (``_core.ClassStats``) and the
fit's settings (``_core.FitOptions``).

The down-dates, the warm starts and when they differ from a refit from scratch are explained
in the documentation, "How the other methods are computed" (docs/algorithms.md).
"""

from __future__ import annotations

import contextlib

import numpy as np
from scipy.linalg import cho_factor, cho_solve

from ._core import (Sample, fit_model, label, log_density, log_normal,
                    one_blas_thread, regularise)

_CHUNK_ELEMENTS = 2_000_000  # batch size target: B * K * d * d floats per chunk
_COLD = False  # see cold_refits


@contextlib.contextmanager
def cold_refits():
    """Within this block the leave-one-out of the iterative models refits from scratch (the
    default starts of each model, no warm start): the reference that the warm-started
    leave-one-out must equal, for the tests and the benchmark."""
    global _COLD
    before, _COLD = _COLD, True
    try:
        yield
    finally:
        _COLD = before


def _priors_after_removal(n, units, priors):
    """(B, K) log priors of each fit without one of the B ``units``: n_k'/N' when estimated,
    else the fixed ``priors``."""
    B, K = len(units.w), len(n)
    if priors is not None:
        with np.errstate(divide="ignore"):
            return np.broadcast_to(np.log(priors), (B, K))
    nb = np.broadcast_to(n, (B, K)).copy()
    nb[np.arange(B), units.codes] -= units.w
    with np.errstate(divide="ignore"):
        return np.log(nb) - np.log(n.sum() - units.w)[:, None]


def _check_loo_units(model, sample, reg_covar):
    need = max(1, model.min_units(sample.X.shape[1])) if reg_covar <= 0 else 1
    n_units = np.bincount(sample.codes[sample.w > 0])
    for k, c in enumerate(n_units):
        if c == 0:
            continue
        if c - 1 < need:
            raise ValueError(
                f"EDDA model {model.name!r}: leave-one-out removes a unit from class "
                f"{label(sample.class_names, k)!r}, which has {int(c)} unit(s); the model needs "
                f"at least {need} per class after the removal. Use a more parsimonious model, "
                "reg_covar > 0, or another error estimate."
            )


def _guard(one_minus):
    """1 - c u'S^-1 u = |S'| / |S|; at (near) zero the down-dated scatter is singular: NaN."""
    return np.where(one_minus > 1e-12, one_minus, np.nan)


def _sm_full(model, units, stats, reg_covar):
    """Leave-one-out log-densities (B, K) at each of the B ``units`` for the rank-one models
    (VVV, EEE and EVV) via rank-one formulas.

    With S = a (W_k + reg n_k I) the class-k covariance (a a scalar) and the down-date
    S' = S - c u u', log|S'| = log|S| + log(1 - c u' S^-1 u) (determinant lemma) and
    v' S'^-1 v = v' S^-1 v + c (v' S^-1 u)^2 / (1 - c u' S^-1 u) (Sherman-Morrison).
    """
    x, k_i, w_i = units.X, units.codes, units.w
    n, means, W = stats
    N = n.sum()
    B, d = x.shape
    K = len(n)
    rows = np.arange(B)
    u = x - means[k_i]                                   # x_i - m_k
    n_new = n[k_i] - w_i
    c = w_i * n[k_i] / n_new                             # down-date weight
    Wr = regularise(W, n, reg_covar)
    if model.pooled:
        bases = [Wr.sum(axis=0)]
    else:
        bases = list(Wr)
    factors = [cho_factor(Sb, lower=True, check_finite=False) for Sb in bases]
    logdets = np.array([2.0 * np.log(np.diag(f[0])).sum() for f in factors])

    # Quadratic forms with the *full-data* factor of the matrix each class uses.
    # diffs to the class means, with class k_i's mean moved: x - m_k' = (n_k/n_k') u.
    diff = x[:, None, :] - means[None, :, :]             # (B, K, d)
    diff[rows, k_i] = u * (n[k_i] / n_new)[:, None]
    if model.pooled:  # EEE
        F = factors[0]
        Sinv_u = cho_solve(F, u.T, check_finite=False).T                     # (B, d)
        Sinv_diff = cho_solve(F, diff.reshape(-1, d).T, check_finite=False).T.reshape(B, K, d)
        uSu = np.einsum("bd,bd->b", u, Sinv_u)
        one_minus = _guard(1.0 - c * uSu)
        q = np.einsum("bkd,bkd->bk", diff, Sinv_diff) \
            + (c / one_minus)[:, None] * np.einsum("bkd,bd->bk", diff, Sinv_u) ** 2
        # pooled S' = (W' + reg (N - w) I) / (N - w): the regulariser shrinks by w reg I, which
        # is not rank one; reg_covar > 0 goes through the batched path instead.
        Nn = N - w_i
        logdet = logdets[0] + np.log(one_minus) - d * np.log(Nn)
        maha = q * Nn[:, None]
        return log_normal(maha, logdet[:, None], d)
    # VVV / EVV: classes j != k_i keep their matrix (EVV: up to the common volume).
    maha = np.empty((B, K))
    raw_logdet = np.broadcast_to(logdets, (B, K)).copy()  # log|W_j| (regularised)
    for j in range(K):
        Sinv_dj = cho_solve(factors[j], diff[:, j, :].T, check_finite=False).T
        maha[:, j] = np.einsum("bd,bd->b", diff[:, j, :], Sinv_dj)
    for k in np.unique(k_i):
        sel = k_i == k
        Sinv_u = cho_solve(factors[k], u[sel].T, check_finite=False).T
        uSu = np.einsum("bd,bd->b", u[sel], Sinv_u)
        one_minus = _guard(1.0 - c[sel] * uSu)
        v = diff[sel, k, :]                              # = (n_k/n_k') u
        vSu = np.einsum("bd,bd->b", v, Sinv_u)
        maha[sel, k] = maha[sel, k] + c[sel] * vSu ** 2 / one_minus
        raw_logdet[sel, k] += np.log(one_minus)
    if model.class_volume:  # VVV: Sigma_j = W_j' / n_j'
        nb = np.broadcast_to(n, (B, K)).copy()
        nb[rows, k_i] = n_new
        logdet = raw_logdet - d * np.log(nb)
        maha = maha * nb
    else:  # EVV: Sigma_j = lambda W_j / |W_j|^(1/d), lambda = sum_j |W_j|^(1/d) / N'
        g = np.exp(raw_logdet / d)                       # |W_j'|^(1/d)
        lam = g.sum(axis=1) / (N - w_i)
        scale = lam[:, None] / g                         # Sigma_j = scale_j W_j'
        logdet = raw_logdet + d * np.log(scale)
        maha = maha / scale
    return log_normal(maha, logdet, d)


def _distinct_orientations(D_all, tol=1e-6):
    """Indices of the end points (S, d, d) that differ as orientations (columns equal up to sign
    and order count once): several starts often reach the same maximum, and following it once
    is enough."""
    keep = []
    for s in range(D_all.shape[0]):
        same = any(np.all(np.abs(D_all[t].T @ D_all[s]).max(axis=0) > 1 - tol) for t in keep)
        if not same:
            keep.append(s)
    return keep


def _warm_starts(model, step):
    """The full-data state an iterative model's leave-one-out fits start from: the volumes
    (VEI, VEE, VEV) or the distinct end points of the orientation starts (EVE, VVE); None for
    the closed-form models and with :func:`cold_refits`."""
    if not model.iterative or _COLD:
        return None
    if model.multistart:
        return step.state[_distinct_orientations(step.state)]
    return step.state


def _fits_without(model, units, stats, options, init):
    """The B fits each without one of the B ``units`` (x_i of class k_i, weight w_i): the
    rank-one down-dates of that class's statistics and one batched M-step, warm-started from
    ``init`` alone (see :func:`_warm_starts`), or from the default starts when ``init`` is None.

    Returns (step, means (B, K, d)).
    """
    x, k_i, w_i = units.X, units.codes, units.w
    n, means, W = stats
    B, d = x.shape
    K = len(n)
    rows = np.arange(B)
    u = x - means[k_i]
    n_new = n[k_i] - w_i
    nb = np.broadcast_to(n, (B, K)).copy()
    nb[rows, k_i] = n_new
    Wb = np.broadcast_to(W, (B, K, d, d)).copy()
    Wb[rows, k_i] -= (w_i * n[k_i] / n_new)[:, None, None] * u[:, :, None] * u[:, None, :]
    mb = np.broadcast_to(means, (B, K, d)).copy()
    mb[rows, k_i] -= (w_i / n_new)[:, None] * u
    start_state = None
    if model.iterative and init is not None:
        start_state = np.broadcast_to(init, (B,) + np.shape(init)).copy()
    step = fit_model(model, Wb, nb, options, init=start_state,
                     class_names=units.class_names, context=" (leave-one-out refit)",
                     warm=True)
    return step, mb


def _floats_per_unit(model, K, d, per_point, init):
    """Floats a batch holds per left-out unit (batches hold about ``_CHUNK_ELEMENTS``)."""
    per_unit = K * d * d * per_point
    if model.multistart:  # each unit runs K + 1 starts, or the followed ones
        per_unit *= K + 1 if init is None else len(init)
    return per_unit


def loo_log_joint(model, sample, stats, options, *, init=None, progress=None):
    """log(pi_k' f_k'(x_i)) of the leave-unit-i-out fit of ``model`` (a
    :class:`~._models.CovarianceModel`), for every unit of ``sample`` of positive weight.

    Every class is present (``stats.n`` > 0). Returns (idx, joint): the unit indices (w > 0)
    and a (len(idx), K) array. ``init``: the warm start (:func:`_warm_starts`).
    ``progress(done, total)``, when given, is called after each chunk with the number of
    leave-one-out fits done so far.
    """
    d, K = sample.X.shape[1], len(stats.n)
    _check_loo_units(model, sample, options.reg_covar)
    idx = np.flatnonzero(sample.w > 0)
    out = np.empty((len(idx), K))
    # With reg_covar > 0 the regulariser of class k shrinks by w reg I, not a rank-one change.
    rank_one = model.rank_one and options.reg_covar <= 0
    per_unit = _floats_per_unit(model, K, d, 1 if rank_one else 3, init)
    chunk = max(64, _CHUNK_ELEMENTS // max(per_unit, 1))
    for start in range(0, len(idx), chunk):
        sel = idx[start:start + chunk]
        units = sample.subset(sel)
        if rank_one:
            with np.errstate(divide="ignore", invalid="ignore"):
                logf = _sm_full(model, units, stats, options.reg_covar)
            # A down-date that makes the class scatter singular shows as 1 - c u'S^-1u <= 0.
            if not np.all(np.isfinite(logf)):
                bad = int(np.flatnonzero(~np.isfinite(logf).all(axis=1))[0])
                raise ValueError(
                    f"EDDA model {model.name!r}: leaving out unit {int(sel[bad])} makes the "
                    f"covariance of class {label(sample.class_names, units.codes[bad])!r} "
                    "singular; set reg_covar > 0 or choose a more parsimonious model."
                )
        else:
            step, mb = _fits_without(model, units, stats, options, init)
            logf = log_density(units.X[:, None, :], mb, step)[:, 0, :]
        out[start:start + len(sel)] = logf + _priors_after_removal(stats.n, units,
                                                                   options.priors)
        if progress is not None:
            progress(start + len(sel), len(idx))
    return idx, out


def loo_log_joint_pairs(model, sample, stats, options, *, at, init=None, progress=None):
    """log(pi_k' f_k'(a_j)) of the leave-unit-i-out fit at every point a_j of ``at``, for every
    unit i of positive weight.

    Every class is present (``stats.n`` > 0). Returns (idx, joint): the unit indices (w > 0)
    and a (len(idx), len(at), K) array. ``init``, ``progress``: as in :func:`loo_log_joint`.
    """
    d, K = sample.X.shape[1], len(stats.n)
    _check_loo_units(model, sample, options.reg_covar)
    idx = np.flatnonzero(sample.w > 0)
    out = np.empty((len(idx), len(at), K))
    chunk = max(1, 2 * _CHUNK_ELEMENTS // max(_floats_per_unit(model, K, d, len(at), init), 1))
    for start in range(0, len(idx), chunk):
        units = sample.subset(idx[start:start + chunk])
        step, mb = _fits_without(model, units, stats, options, init)
        logp = _priors_after_removal(stats.n, units, options.priors)
        out[start:start + len(units.w)] = log_density(at, mb, step) + logp[:, None, :]
        if progress is not None:
            progress(start + len(units.w), len(idx))
    return idx, out


def leave_one_out(model, step, sample, stats, options, *, pairs=False, progress=None):
    """Leave-one-out log joint densities of ``model`` (a :class:`~._models.CovarianceModel`),
    its fit ``step`` on ``sample`` (:class:`~._core.Sample`, the class statistics ``stats``,
    the settings ``options``) given.

    Classes absent from the data (n_k = 0; their units have weight zero) are set aside and get
    -inf; leaving out a unit of weight zero leaves the fit as it is, so its rows are those of
    ``step``. ``options.priors`` are the fixed priors of every class (None: n_k / n).

    Returns an (n_units, K) array, row i at x_i, or with ``pairs`` an (n_units, n_units, K)
    array, [i, j] at x_j, both under the fit without unit i. ``progress(done, total)``, when
    given, hears of the leave-one-out fits done after each chunk (it changes nothing else). Runs
    BLAS on one thread (see :func:`one_blas_thread`).
    """
    with one_blas_thread():
        return _leave_one_out(model, step, sample, stats, options, pairs=pairs,
                              progress=progress)


def _leave_one_out(model, step, sample, stats, options, *, pairs=False, progress=None):
    """:func:`leave_one_out` (BLAS threads as the caller set them)."""
    present = stats.n > 0
    K = len(present)
    keep = present[sample.codes]
    remap = np.cumsum(present) - 1
    priors = options.priors
    fixed = None if priors is None else priors[present] / priors[present].sum()
    kept = Sample(sample.X[keep], remap[sample.codes[keep]], sample.w[keep],
                  np.asarray(sample.class_names)[present])
    args = (model, kept, stats.subset(present), options._replace(priors=fixed))
    kwargs = dict(init=_warm_starts(model, step), progress=progress)
    if pairs:
        idx, joint = loo_log_joint_pairs(*args, at=sample.X, **kwargs)
    else:
        idx, joint = loo_log_joint(*args, **kwargs)
    n_units, n_present = len(sample.codes), int(present.sum())
    part = np.empty((n_units,) * (2 if pairs else 1) + (n_present,))
    rows = np.flatnonzero(keep)[idx]
    part[rows] = joint
    unchanged = np.setdiff1d(np.arange(n_units), rows)
    if unchanged.size:
        n = stats.n
        with np.errstate(divide="ignore"):
            log_p = np.log(n[present] / n.sum() if fixed is None else fixed)
        own = log_density(sample.X, stats.means[present], step) + log_p
        part[unchanged] = own if pairs else own[unchanged]
    if n_present == K:
        return part
    out = np.full(part.shape[:-1] + (K,), -np.inf)
    out[..., present] = part
    return out
