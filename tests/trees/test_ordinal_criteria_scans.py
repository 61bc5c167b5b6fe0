"""The scans of the ordinal criteria keep few running sums (for speed in bagging, where every
feature is scanned in every node) but must give the goodness of their formulas exactly:

- ordered twoing (Breiman et al.'s twoing on the ordered superclasses; Piccarreta 2008,
  "Classification trees for ordinal variables") holds the left child's class sums times N; with
  integer weights (bootstrap counts) its goodness is the numpy formula's float, bit for bit;
- generalized Gini with the distance costs computes the node's sums (C + C') T and q(T) from
  cumulative sums or class moments in O(K): they must be the general cost scan's numbers;
- the trees grown with them are the trees of the reference formulas, field by field.
"""

import numpy as np
import pytest

from ordstat.ensemble import OrdinalBaggingClassifier
from ordstat.trees import OrdinalTreeClassifier
from ordstat.trees import criteria as C

from .test_levels import assert_same_tree


def _run(scan, param, ys, ws, k):
    """The scan uncompiled over units in a node: the goodness after each unit."""
    start, add, gain = scan
    total = np.bincount(ys, weights=ws, minlength=k).astype(float)
    state = start(total, param, np.full((4, k), np.nan))  # scratch: any contents
    out, nl = [], 0.0
    for c, w in zip(ys, ws):
        state = add(state, total, param, int(c), float(w))
        nl += w
        out.append(gain(state, total, param, nl, total.sum()))
    return np.array(out), total


@pytest.mark.parametrize("k", [2, 3, 5, 8])
def test_twoing_scan_is_the_formula_bit_for_bit_with_integer_weights(k):
    rng = np.random.default_rng(k)
    ys = rng.integers(0, k, size=300)
    ws = rng.integers(1, 5, size=300).astype(float)
    got, total = _run(C.twoing.scan, None, ys, ws, k)
    left = np.cumsum(np.eye(k)[ys] * ws[:, None], axis=0)[:-1]  # cuts with both children
    want = C.twoing(left, total - left)
    np.testing.assert_array_equal(got[:-1], want)
    assert got[-1] == 0.0  # the whole node on the left: no cut, no division by zero


def test_twoing_scan_by_hand():
    # K = 3, units of classes 0, 2, 1, 0 (weight 1): after the first two, L = (1, 0, 1),
    # R = (1, 1, 0), N = 4: cut r = 0: (1 * 2 - 1 * 2)^2 = 0; r = 1: (1 * 2 - 2 * 2)^2 = 4;
    # goodness 4 / (4 * 2 * 2) = 0.25
    got, _ = _run(C.twoing.scan, None, np.array([0, 2, 1, 0]), np.ones(4), 3)
    assert got[1] == 0.25


@pytest.mark.parametrize("kind", ["linear", "quadratic"])
@pytest.mark.parametrize("k", [2, 3, 4, 6, 11])
def test_distance_node_sums_are_the_general_scans(kind, k):
    rng = np.random.default_rng(k)
    total = rng.integers(0, 50, size=k).astype(float)
    cost = C.CRITERIA[f"gini_{kind}"].parameter(k)
    general = C._cost_start(total, cost, np.full((4, k), np.nan))
    fast = C._DISTANCE_SCANS[kind][0](total, cost, np.full((4, k), np.nan))
    np.testing.assert_array_equal(fast[2 if kind == "linear" else 3], general[3])  # (C + C') T
    assert fast[-1] == general[-1]  # q(T)


def _data(n=400, p=5, k=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    X[:, 0] = np.round(X[:, 0])  # a row of ties: the tied-row scan
    signal = X[:, :3].sum(axis=1) + rng.normal(size=n)
    return X, np.digitize(signal, np.quantile(signal, np.linspace(0, 1, k + 1)[1:-1]))


def _formula_criterion(name):
    """The criterion with the same formula but no scan: the split search then evaluates the
    numpy goodness on all candidates."""
    crit = C.CRITERIA[name]
    return C.Criterion(f"{name}_formula", crit.goodness_fn, crit.impurity_fn, crit.parameter,
                       has_cost=crit.has_cost)


@pytest.mark.parametrize("name", ["twoing", "ordinal", "gini_linear", "gini_quadratic"])
def test_bagged_trees_are_the_formulas_trees(name):
    X, y = _data(seed=len(name))

    def fit(criterion):
        tree = OrdinalTreeClassifier(criterion=criterion, min_split=2, min_bucket=1, cp=-1.0,
                                     xval=0)
        return OrdinalBaggingClassifier(tree, n_estimators=3, oob_score=False,
                                        random_state=2).fit(X, y)

    fast = fit(name).estimators_
    slow = fit(_formula_criterion(name)).estimators_
    assert fast[0].tree_.node_count > 30
    for a, b in zip(fast, slow):
        assert_same_tree(a.tree_, b.tree_)
