"""Simulation generators of the decomposition papers."""

from __future__ import annotations

import numpy as np

from .._core.validation import check_in_range, check_positive_int, check_random_state

__all__ = ["make_waegeman_synthetic", "make_circle"]

_MEANS = {
    1: np.array([[10.0, 10.0], [20.0, 10.0], [20.0, 20.0], [30.0, 20.0]]),
    2: np.array([[10.0, 10.0], [20.0, 10.0], [30.0, 10.0], [40.0, 10.0]]),
}


def make_waegeman_synthetic(kind=1, n_per_rank=100, noise=None, random_state=None):
    """Four bivariate Gaussian clusters with consecutive ranks (Waegeman & Boullart 2006, V.A).

    Cluster means (10,10), (20,10), (20,20), (30,20) for ``kind=1`` and (10,10), (20,10),
    (30,10), (40,10) for ``kind=2``; standard deviations 3 and 3, correlation 0; ranks 1..4.
    For the second data set the paper adds "10% uniform noise" (train sets of 440 = 400 + 40):
    here ``noise`` times the number of points extra units, uniform on the bounding box of the
    clusters' mean +- 3 sd, with ranks drawn uniformly from 1..4 (our reading of the text).

    Parameters
    ----------
    kind : {1, 2}
    n_per_rank : int, default=100
    noise : float, optional
        Fraction of extra noise units; default 0 for kind 1 and 0.1 for kind 2.
    random_state : int, Generator or None

    Returns
    -------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,), ranks 1..4
    """
    if kind not in _MEANS:
        raise ValueError(f"kind must be 1 or 2; got {kind!r}.")
    n_per_rank = check_positive_int(n_per_rank, "n_per_rank")
    noise = (0.0 if kind == 1 else 0.1) if noise is None else noise
    noise = check_in_range(noise, "noise", 0.0, None)
    rng = check_random_state(random_state)
    means = _MEANS[kind]
    X = np.vstack([rng.normal(mu, 3.0, size=(n_per_rank, 2)) for mu in means])
    y = np.repeat(np.arange(1, 5), n_per_rank)
    n_noise = int(round(noise * X.shape[0]))
    if n_noise:
        low, high = means.min(axis=0) - 9.0, means.max(axis=0) + 9.0
        X = np.vstack([X, rng.uniform(low, high, size=(n_noise, 2))])
        y = np.concatenate([y, rng.integers(1, 5, size=n_noise)])
    return X, y


def make_circle(n=1000, random_state=None):
    """The "Circle" data of the dissertation "Ensemble methods for ordinal data classification"
    (section 2.2.1, Table 2.1): x, y uniform on [0, 1] and label
    floor(6 ((x - 0.5)^2 + (y - 0.5)^2)), i.e. rings 0, 1, 2 around the centre (3 only in the
    measure-zero corners, so in practice three classes).

    Returns
    -------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,), integer labels
    """
    n = check_positive_int(n, "n")
    rng = check_random_state(random_state)
    X = rng.uniform(0.0, 1.0, size=(n, 2))
    y = np.floor(6.0 * ((X[:, 0] - 0.5) ** 2 + (X[:, 1] - 0.5) ** 2)).astype(np.intp)
    return X, y
