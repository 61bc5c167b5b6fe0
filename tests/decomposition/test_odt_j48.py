"""oDT with J48's minimum split size, collapsing and subtree raising (pieces of C45Classifier)."""

import numpy as np
import pytest

from ordstat.datasets import make_circle
from ordstat.decomposition import ReplicatedTreeClassifier
from ordstat.decomposition._odt import _compact, _prune
from ordstat.trees._c45 import add_errs, min_split_size

OFF = dict(min_num_obj=None, collapse_tree=False, subtree_raising=False)


@pytest.mark.parametrize("total, k, min_num_obj, expected", [
    (10, 3, 2, 2.0),      # 0.1 * 10 / 3 = 0.33, raised to min_num_obj
    (60, 2, 2, 3.0),      # 0.1 * 60 / 2
    (600, 2, 2, 25.0),    # 30, capped at 25
    (100, 2, 7, 7.0),
])
def test_min_split_size_by_hand(total, k, min_num_obj, expected):
    assert min_split_size(total, k, min_num_obj) == pytest.approx(expected)
    np.testing.assert_allclose(min_split_size(np.array([total]), k, min_num_obj), [expected])


def test_split_refused_for_size():
    # 60 units, one replica (K = 2): J48's rule asks 0.1 * 60 / 2 = 3 units a branch; the only
    # cut leaves 2 on its right, which min_samples_leaf=2 alone allows
    X = np.r_[np.zeros(58), np.ones(2)][:, None]
    y = np.r_[np.zeros(58, int), np.ones(2, int)]
    kw = dict(prune=False, collapse_tree=False)
    assert ReplicatedTreeClassifier(min_num_obj=None, **kw).fit(X, y).node_count_ == 3
    assert ReplicatedTreeClassifier(min_num_obj=2, **kw).fit(X, y).node_count_ == 1
    # with 40 units the rule asks only min_num_obj = 2
    X40, y40 = np.r_[np.zeros(38), np.ones(2)][:, None], np.r_[np.zeros(38, int), np.ones(2, int)]
    assert ReplicatedTreeClassifier(min_num_obj=2, **kw).fit(X40, y40).node_count_ == 3


def test_subtree_collapsed():
    # the cut separates 10 units of class 0 from 7 of class 0 and 3 of class 1: both leaves
    # predict class 0, so the subtree makes the root's 3 training errors and collapses
    X = np.r_[np.zeros(10), np.ones(10)][:, None]
    y = np.r_[np.zeros(17, int), np.ones(3, int)]
    kw = dict(prune=False, min_num_obj=None)
    assert ReplicatedTreeClassifier(collapse_tree=False, **kw).fit(X, y).node_count_ == 3
    tree = ReplicatedTreeClassifier(collapse_tree=True, **kw).fit(X, y)
    assert tree.node_count_ == 1
    np.testing.assert_allclose(tree.tree_["counts"][0], [[17, 3]])


def _raising_case():
    """A hand-made tree (one replica): the root cuts x0 at 0.5, its heavy left branch cuts x1 at
    0.5; the light right leaf holds 3 units of class 0 and 1 of class 1."""
    X = np.array([[0, 0]] * 20 + [[0, 1]] * 20 + [[1, 0]] * 3 + [[1, 1]], dtype=float)
    codes = np.array([0] * 20 + [1] * 20 + [0] * 3 + [1])
    inf = np.inf
    tree = {"feature": [0, 1, -1, -1, -1], "threshold": [np.array([0.5]), np.array([0.5]),
                                                         np.array([inf]), np.array([inf]),
                                                         np.array([inf])],
            "children": [np.array(c, dtype=np.intp) for c in ([1, 2], [3, 4], [], [], [])],
            "counts": [np.zeros((1, 2))] * 5, "labels": [np.zeros(1, int)] * 5}
    return X, codes, tree


def test_subtree_raised():
    X, codes, tree = _raising_case()
    params = dict(confidence=0.25, error_bound="normal", collapse_tree=False, prune=True,
                  subtree_raising=True)
    # J48's comparison by hand: the left branch on all 44 units has leaves of 23 (class 0)
    # and 21 (class 1) units, no errors; the subtree has leaves of 20, 20 and 4 units (1 error)
    branch = add_errs(23, 0) + add_errs(21, 0)
    subtree = 2 * add_errs(20, 0) + 1 + add_errs(4, 1)
    assert branch <= subtree + 0.1
    _prune(tree, X, codes, np.ones((44, 1)), params)
    out = _compact(tree)
    assert out["feature"].tolist() == [1, -1, -1]
    np.testing.assert_allclose(out["counts"][:, 0], [[23, 21], [23, 0], [0, 21]])
    np.testing.assert_array_equal(out["labels"][:, 0], [0, 0, 1])
    # without raising the subtree stays (the root as a leaf, 21 errors of 44, is far worse)
    X, codes, tree = _raising_case()
    _prune(tree, X, codes, np.ones((44, 1)), {**params, "subtree_raising": False})
    assert _compact(tree)["feature"].tolist() == [0, 1, -1, -1, -1]


def test_raised_branch_routes_each_replica_by_its_own_threshold():
    # K = 3: replica 0 cuts x1 at 0.5, replica 1 at 1.5; after raising, each replica's counts
    # are those of the units routed by its own threshold
    X = np.array([[0, 0]] * 20 + [[0, 1]] * 20 + [[0, 2]] * 20 + [[1, 0]] * 2 + [[1, 2]],
                 dtype=float)
    codes = np.array([0] * 20 + [1] * 20 + [2] * 20 + [0, 0, 2])
    inf = np.inf
    tree = {"feature": [0, 1, -1, -1, -1],
            "threshold": [np.array([0.5, 0.5]), np.array([0.5, 1.5])] + [np.full(2, inf)] * 3,
            "children": [np.array(c, dtype=np.intp) for c in ([1, 2], [3, 4], [], [], [])],
            "counts": [np.zeros((2, 2))] * 5, "labels": [np.zeros(2, int)] * 5}
    _prune(tree, X, codes, np.ones((63, 2)), dict(confidence=0.25, error_bound="normal",
                                                 collapse_tree=False, prune=True,
                                                 subtree_raising=True))
    out = _compact(tree)
    assert out["feature"].tolist() == [1, -1, -1]
    # replica 0 (y > class 0): left x1 < 0.5 holds 22 units of class 0; replica 1 (y > class
    # 1): left x1 < 1.5 holds 42 units of classes 0 and 1
    np.testing.assert_allclose(out["counts"][1], [[22, 0], [42, 0]])
    np.testing.assert_allclose(out["counts"][2], [[0, 41], [0, 21]])


def test_switched_off_gives_the_trees_before():
    # node counts, first attributes and probability sums of ordstat's oDT before these options
    X, y = make_circle(300, random_state=1)
    for rule, features, sums in [("sum", [1, 1, 0, 1, -1, 0, -1, -1], [167.0, 116.0, 17.0]),
                                 ("min", [0, 1, -1, 1, -1, -1, 0, 0], [169.0, 114.0, 17.0])]:
        tree = ReplicatedTreeClassifier(rule=rule, **OFF).fit(X, y)
        assert tree.node_count_ == 33
        assert tree.tree_["feature"].tolist()[:8] == features
        np.testing.assert_allclose(tree.predict_proba(X).sum(axis=0), sums)


@pytest.mark.parametrize("param, value", [("min_num_obj", 0), ("min_num_obj", 1.5),
                                          ("collapse_tree", "yes"),
                                          ("subtree_raising", None)])
def test_bad_j48_options_are_refused(param, value):
    X, y = make_circle(50, random_state=0)
    with pytest.raises((ValueError, TypeError), match=param):
        ReplicatedTreeClassifier(**{param: value}).fit(X, y)


def test_replica_errors_by_hand():
    # a leaf with replica 1 at (8 C-, 2 C+) and replica 2 at (10, 0): "pooled" bounds 2
    # errors out of 20, "per_replica" bounds 2 of 10 and 0 of 10 and sums them
    from ordstat.decomposition._odt import _ReplicaView

    counts = np.array([[8.0, 2.0], [10.0, 0.0]])
    tree = {"feature": [-1], "threshold": [np.full(2, np.inf)],
            "children": [np.zeros(0, dtype=np.intp)], "counts": [counts],
            "labels": [np.zeros(2, int)]}
    X, codes, W = np.zeros((1, 1)), np.zeros(1, int), np.ones((1, 2))
    pooled = _ReplicaView(dict(tree), X, codes, W, 0.25, "normal", "pooled")
    apart = _ReplicaView(dict(tree), X, codes, W, 0.25, "normal", "per_replica")
    assert pooled._leaf_errors(counts) == pytest.approx(2 + add_errs(20, 2))
    assert apart._leaf_errors(counts) == pytest.approx(2 + add_errs(10, 2) + add_errs(10, 0))
    assert apart._leaf_errors(counts) > pooled._leaf_errors(counts)


def test_per_replica_errors_prune_more():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(200, 3))
    y = np.digitize(X[:, 0] + X[:, 1] + rng.normal(size=200), [-1, 0, 1])
    pooled = ReplicatedTreeClassifier().fit(X, y)
    apart = ReplicatedTreeClassifier(replica_errors="per_replica").fit(X, y)
    assert apart.node_count_ < pooled.node_count_
    unpruned = dict(prune=False)
    assert ReplicatedTreeClassifier(replica_errors="per_replica", **unpruned).fit(X, y) \
        .node_count_ == ReplicatedTreeClassifier(**unpruned).fit(X, y).node_count_
