"""Simulation generators from the papers."""

from __future__ import annotations

import numpy as np

from .._core.validation import check_positive_int, check_random_state

__all__ = ["make_archer_simulation"]


def make_archer_simulation(n_per_class=20, random_state=None):
    """The simulation design of Archer & Mas (2009), section 5: five ordered classes, two
    informative features and six noise features.

    In class w = 1..5, (X1, X2) is bivariate normal with mean (2w, 2w); the noise features are
    X3, X4, X5 ~ U(0, 1) and X6, X7, X8 ~ N(0, 1), independent of the class.

    The covariance matrix of (X1, X2) and the law of X8 did not survive in the available text
    of the paper. This generator uses unit variances with correlation 0.5 and X8 ~ N(0, 1);
    results from it are therefore a reading of the design, not a reproduction of its data.

    Parameters
    ----------
    n_per_class : int, default=20
        Units per class (the paper: 20, so n = 100).
    random_state : None, int or numpy Generator

    Returns
    -------
    X : ndarray of shape (5 * n_per_class, 8)
        Columns X1..X8.
    y : ndarray of shape (5 * n_per_class,)
        Classes 1..5, ordered by class.

    References
    ----------
    Archer, K. J. & Mas, V. R. (2009). Ordinal response prediction using bootstrap
    aggregation, with application to a high-throughput methylation data set. Statistics in
    Medicine 28, section 5.
    """
    n_per_class = check_positive_int(n_per_class, "n_per_class")
    rng = check_random_state(random_state)
    cov = np.array([[1.0, 0.5], [0.5, 1.0]])
    y = np.repeat(np.arange(1, 6), n_per_class)
    n = y.size
    informative = np.vstack([rng.multivariate_normal([2.0 * w, 2.0 * w], cov, size=n_per_class)
                             for w in range(1, 6)])
    uniform = rng.uniform(0.0, 1.0, size=(n, 3))
    normal = rng.normal(size=(n, 3))
    return np.hstack([informative, uniform, normal]), y
