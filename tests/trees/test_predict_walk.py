"""The compiled walk of a fitted tree (ordstat.trees._kernels.predict) against the numpy level
loop (Tree.decision_nodes) and a row-by-row walk written from the rules of the Tree's
docstring: numeric, categorical and ordered categorical splits, missing values, codes the
tree never saw, a tree that is one leaf, no rows."""

import numpy as np
import pandas as pd
import pytest

from ordstat.trees import OrdinalTreeClassifier
from ordstat.trees._engine import forced
from ordstat.trees._tree import Tree

NAN = np.nan


def _reference_leaves(tree, X):
    """Each row walked from the root by the rules, one node at a time."""
    leaves = []
    for row in X:
        v = 0
        while tree.children_left[v] >= 0:
            x = row[tree.feature[v]]
            cats = tree.left_categories[v]
            if np.isnan(x):
                left = tree.missing_left[v]
            elif cats is not None:
                code = int(np.trunc(x))  # numpy's cast of a category code to integers
                left = code in set(int(c) for c in cats)
            else:
                left = x < tree.threshold[v]
            v = tree.children_left[v] if left else tree.children_right[v]
        leaves.append(v)
    return np.array(leaves, dtype=np.int64)


def _hand_tree():
    """Root: category codes {1, 3} of x0 left, missing x0 left; its right child: x1 < 0.5
    left, missing x1 right. Leaves 1, 3, 4."""
    n = 5
    lc = np.empty(n, dtype=object)
    lc[0] = np.array([1, 3], dtype=np.int64)
    return Tree(
        children_left=np.array([1, -1, 3, -1, -1]), children_right=np.array([2, -1, 4, -1, -1]),
        feature=np.array([0, -1, 1, -1, -1]),
        threshold=np.array([NAN, NAN, 0.5, NAN, NAN]), left_categories=lc,
        value=np.ones((n, 2)), n_node_samples=np.ones(n, dtype=np.int64),
        weighted_n_node_samples=np.ones(n), impurity=np.zeros(n), improvement=np.zeros(n),
        risk=np.zeros(n), yval=np.zeros(n, dtype=np.int64), complexity=np.zeros(n),
        node_number=np.array([1, 2, 3, 6, 7]), depth=np.array([0, 1, 1, 2, 2]),
        missing_left=np.array([True, False, False, False, False]),
        missing_learned=np.zeros(n, dtype=bool))


def test_hand_made_tree_sends_categories_and_missing_values_by_the_rules():
    tree = _hand_tree()
    X = np.array([
        [1.0, 9.0],   # code 1: left -> leaf 1
        [3.0, 9.0],   # code 3: left
        [NAN, 9.0],   # missing category: missing_left -> leaf 1
        [0.0, 0.0],   # code 0: right, then 0 < 0.5 -> leaf 3
        [2.0, 0.7],   # code 2: right, 0.7 -> leaf 4
        [7.0, NAN],   # code past the table: right, missing x1 right -> leaf 4
        [-1.0, 0.2],  # negative code: right -> leaf 3
        [1.7, 9.0],   # truncated to code 1: left
        [-0.5, 9.0],  # truncated to code 0: right -> leaf 4
    ])
    expected = np.array([1, 1, 1, 3, 4, 4, 3, 1, 4])
    np.testing.assert_array_equal(tree.apply(X), expected)
    np.testing.assert_array_equal(tree.decision_nodes(X)[-1], expected)
    np.testing.assert_array_equal(_reference_leaves(tree, X), expected)


def _mixed_frame(n=600, seed=0):
    rng = np.random.default_rng(seed)
    colour = rng.choice(["blue", "green", "red", "white"], n).astype(object)
    edu = rng.integers(0, 3, n)
    a = rng.normal(size=n)
    b = rng.normal(size=n)
    y = np.digitize(np.isin(colour, ["red", "white"]) + edu / 2 + a + 0.5 * rng.normal(size=n),
                    [0.3, 1.0, 1.8])
    a[rng.random(n) < 0.15] = NAN
    colour[rng.random(n) < 0.1] = None
    edu_cat = pd.Categorical.from_codes(edu, ["low", "mid", "high"], ordered=True)
    edu_cat[rng.random(n) < 0.1] = NAN
    X = pd.DataFrame({"a": a, "colour": colour, "edu": edu_cat, "b": b,
                      "region": pd.Categorical(rng.choice(["e", "n", "s", "w"], n))})
    return X, y


@pytest.mark.parametrize("criterion", ["ordinal", "gini"])
def test_fitted_trees_walk_as_the_level_loop_on_every_kind_of_column(criterion):
    X, y = _mixed_frame()
    est = OrdinalTreeClassifier(criterion=criterion, cp=0.0, min_split=2, xval=0).fit(X, y)
    tree = est.tree_
    assert any(lc is not None for lc in tree.left_categories)
    assert tree.missing_left.any()
    Xc = est._prepare(X)
    expected = tree.decision_nodes(Xc)[-1]
    np.testing.assert_array_equal(tree.apply(Xc), expected)
    np.testing.assert_array_equal(_reference_leaves(tree, Xc), expected)
    # codes the tree never saw (negative, past every table, between codes) and missing values
    rng = np.random.default_rng(1)
    odd = Xc.copy()
    odd[:, 1] = rng.uniform(-3.0, 9.0, size=odd.shape[0])
    odd[rng.random(odd.shape[0]) < 0.3, 2] = NAN
    expected = tree.decision_nodes(odd)[-1]
    np.testing.assert_array_equal(tree.apply(odd), expected)
    np.testing.assert_array_equal(_reference_leaves(tree, odd), expected)


def test_estimator_predictions_equal_the_numpy_path():
    X, y = _mixed_frame()
    est = OrdinalTreeClassifier(cp=0.0, min_split=2, xval=0).fit(X, y)
    compiled = est.apply(X), est.predict(X), est.predict_proba(X)
    with forced(numba=False):
        numpy = est.apply(X), est.predict(X), est.predict_proba(X)
    for a, b in zip(compiled, numpy):
        np.testing.assert_array_equal(a, b)


def test_a_tree_that_is_one_leaf_and_no_rows():
    X = np.random.default_rng(0).normal(size=(30, 2))
    y = np.arange(30) % 3
    est = OrdinalTreeClassifier(min_split=100, xval=0).fit(X, y)  # too few units to split
    assert est.tree_.n_nodes == 1
    np.testing.assert_array_equal(est.apply(X), np.zeros(30, dtype=np.int64))
    np.testing.assert_array_equal(est.predict_proba(X), np.full((30, 3), 1 / 3))
    empty = est.tree_.apply(np.empty((0, 2)))
    assert empty.shape == (0,) and empty.dtype == np.int64
    assert _hand_tree().apply(np.empty((0, 2))).shape == (0,)


def _reference_surrogate_nodes(tree, X):
    """Each row walked from the root by the rules of a tree with surrogate splits, one node
    and one surrogate at a time: the final node (a leaf, or where nothing sends the row)."""
    sur = tree.surrogates
    out = []
    for row in X:
        v = 0
        while tree.children_left[v] >= 0:
            x = row[tree.feature[v]]
            d = 0
            if not np.isnan(x):
                met = sur.primary_categories[v]
                if met is None:
                    d = 1 if x < tree.threshold[v] else -1
                elif int(np.trunc(x)) in set(met.tolist()):
                    d = 1 if int(np.trunc(x)) in set(tree.left_categories[v].tolist()) else -1
            for e in range(sur.start[v], sur.start[v + 1]):
                if d != 0 or sur.use == 0:
                    break
                xs = row[sur.feature[e]]
                if np.isnan(xs):
                    continue
                if sur.left_categories[e] is None:
                    less_left = sur.direction[e] < 0
                    d = 1 if (xs < sur.threshold[e]) == less_left else -1
                else:
                    code = int(np.trunc(xs))
                    d = (1 if code in set(sur.left_categories[e].tolist()) else
                         -1 if code in set(sur.right_categories[e].tolist()) else 0)
            if d == 0 and sur.use == 2:
                d = int(np.sign(tree.n_node_samples[tree.children_left[v]]
                                - tree.n_node_samples[tree.children_right[v]]))
            if d == 0:
                break
            v = tree.children_left[v] if d > 0 else tree.children_right[v]
        out.append(v)
    return np.array(out, dtype=np.int64)


@pytest.mark.parametrize("use", [0, 1, 2])
def test_surrogate_trees_walk_as_the_level_loop_and_the_rules(use):
    X, y = _mixed_frame()
    rng = np.random.default_rng(5)
    X = X.copy()
    for col in X.columns:
        X.loc[rng.random(len(X)) < 0.15, col] = NAN
    est = OrdinalTreeClassifier(criterion="gini", cp=0.0, min_split=4, xval=0,
                                missing="surrogate", usesurrogate=use).fit(X, y)
    tree = est.tree_
    assert tree.surrogates.start[-1] > 0
    assert any(lc is not None for lc in tree.surrogates.left_categories)
    Xc = est._prepare(X)
    odd = Xc.copy()
    odd[:, 1] = rng.uniform(-3.0, 9.0, size=odd.shape[0])  # codes never seen, between codes
    odd[rng.random(odd.shape[0]) < 0.5, 0] = NAN
    for data in (Xc, odd):
        expected = tree.decision_nodes(data)[-1]
        np.testing.assert_array_equal(tree.apply(data), expected)
        np.testing.assert_array_equal(_reference_surrogate_nodes(tree, data), expected)
    if use < 2:  # some rows end at an internal node
        assert (tree.children_left[tree.apply(odd)] >= 0).any()
    compiled = est.apply(X), est.predict(X), est.predict_proba(X)
    with forced(numba=False):
        numpy = est.apply(X), est.predict(X), est.predict_proba(X)
    for a, b in zip(compiled, numpy):
        np.testing.assert_array_equal(a, b)


def test_surrogate_tree_without_categorical_splits_walks_as_the_rules():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(400, 3))
    X[:, 1] = X[:, 0] + 0.4 * rng.normal(size=400)
    y = np.digitize(X[:, 0] + 0.3 * rng.normal(size=400), [-0.5, 0.5])
    X[rng.random(400) < 0.3, 0] = NAN
    X[rng.random(400) < 0.3, 1] = NAN
    for use in (1, 2):
        tree = OrdinalTreeClassifier(missing="surrogate", usesurrogate=use, xval=0,
                                     cp=0.0).fit(X, y).tree_
        expected = _reference_surrogate_nodes(tree, X)
        np.testing.assert_array_equal(tree.apply(X), expected)
        np.testing.assert_array_equal(tree.decision_nodes(X)[-1], expected)
