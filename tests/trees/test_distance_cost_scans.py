"""The scans of generalized Gini with the built-in distance costs (``gini_linear``: |g - h|,
``gini_quadratic``: (g - h)^2) keep fewer running sums than the scan of any cost matrix
(``criteria._COST_SCAN``, what these criteria used before): they must give the same goodness
as that scan, to the bit with integer weights, and so the same trees, field by field, in every
engine (level loop, compiled levels of forests, presorted levels of bagging). The reference is
``generalized_gini(matrix)`` with the same matrix, which keeps the general scan.
"""

import numpy as np
import pytest

from ordstat.ensemble import OrdinalBaggingClassifier, OrdinalRandomForestClassifier
from ordstat.trees import OrdinalTreeClassifier
from ordstat.trees import criteria as C

from .test_levels import assert_same_tree
from .test_ordinal_criteria_scans import _run

KINDS = {"gini_linear": 1, "gini_quadratic": 2}


def _matrix(kind, k):
    g = np.arange(k, dtype=float)
    return np.abs(g[:, None] - g[None, :]) ** KINDS[kind]


def _gains(scan, ys, ws, cost):
    """The scan run uncompiled over units in a node: the goodness after each unit."""
    return _run(scan, cost, ys, ws, cost.shape[0])[0]


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("k", [2, 3, 5, 9])
def test_distance_scan_equals_the_general_scan_bit_for_bit(kind, k):
    rng = np.random.default_rng(k)
    ys = rng.integers(0, k, size=200)
    ws = rng.integers(1, 4, size=200).astype(float)  # bootstrap counts
    cost = _matrix(kind, k)
    assert C.CRITERIA[kind].scan is not C._COST_SCAN
    np.testing.assert_array_equal(_gains(C.CRITERIA[kind].scan, ys, ws, cost),
                                  _gains(C._COST_SCAN, ys, ws, cost))
    # fractional weights: the same up to rounding (but after the last unit, where no cut is
    # made: there both divide rounding noise by an nR of rounding noise)
    wf = rng.uniform(0.1, 3.0, size=200)
    np.testing.assert_allclose(_gains(C.CRITERIA[kind].scan, ys, wf, cost)[:-1],
                               _gains(C._COST_SCAN, ys, wf, cost)[:-1], rtol=1e-9, atol=1e-9)


def test_a_cost_matrix_keeps_the_general_scan():
    assert C.generalized_gini(_matrix("gini_linear", 4)).scan is C._COST_SCAN
    assert C.generalized_gini("linear").scan is C.CRITERIA["gini_linear"].scan


def _data(n=300, p=6, k=5, seed=0, ties=False):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    if ties:
        X[:, ::2] = np.round(X[:, ::2])  # few distinct values: the tied-row scans
    signal = X[:, :3].sum(axis=1) + rng.normal(size=n)
    y = np.digitize(signal, np.quantile(signal, np.linspace(0, 1, k + 1)[1:-1]))
    return X, y


def _trees(model):
    return [e.tree_ for e in model.estimators_] if hasattr(model, "estimators_") \
        else [model.tree_]


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("engine", ["tree", "bagging", "forest"])
def test_same_trees_as_the_general_scan(kind, engine):
    X, y = _data(seed=len(kind), ties=engine != "forest")
    general = C.generalized_gini(_matrix(kind, 5))

    def fit(criterion):
        tree = OrdinalTreeClassifier(criterion=criterion, min_split=2, min_bucket=1, cp=-1.0,
                                     xval=0)
        if engine == "tree":
            return tree.fit(X, y)
        if engine == "bagging":
            return OrdinalBaggingClassifier(tree, n_estimators=4, oob_score=False,
                                            random_state=1).fit(X, y)
        return OrdinalRandomForestClassifier(n_estimators=4, criterion=criterion,
                                             max_features=2, oob_score=False,
                                             random_state=1).fit(X, y)

    new, old = _trees(fit(kind)), _trees(fit(general))
    assert len(new) == len(old) and new[0].node_count > 20
    for a, b in zip(new, old):
        assert_same_tree(a, b)
