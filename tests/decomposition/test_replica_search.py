"""The oDT's per-replica split search on the tree package's Splitter: a level's search against
independent one-node searches, the node counts by hand, and the ``x < threshold`` convention."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ordstat.decomposition import ReplicatedTreeClassifier, replica_threshold_search
from ordstat.decomposition._odt import pessimistic_errors
from ordstat.decomposition._replica_search import ReplicaSearch
from ordstat.trees.criteria import get_criterion


def _counts_by_hand(codes, W, members):
    """(K-1, 2) weights of C- and C+ of each replica over the units in ``members`` (n, K-1)."""
    m = W.shape[1]
    pos = codes[:, None] > np.arange(m)[None, :]
    w = np.where(members, W, 0.0)
    return np.stack([np.where(pos, 0.0, w).sum(axis=0), np.where(pos, w, 0.0).sum(axis=0)],
                    axis=1)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 3))
def test_second_level_search_matches_one_node_searches(seed, min_bucket):
    # split the root on a random attribute with random per-replica thresholds (some +inf), then
    # each child's search must be the one-node search on the units the replica sent there
    rng = np.random.default_rng(seed)
    n, p, K = 30, 3, 4
    X = rng.integers(0, 6, size=(n, p)).astype(float)
    codes = rng.integers(0, K, n)
    W = rng.uniform(0.5, 2.0, size=(n, K - 1)) * (rng.uniform(size=(n, K - 1)) > 0.15)
    search = ReplicaSearch(X, codes, W, "gini", min_bucket=min_bucket)
    np.testing.assert_allclose(search.counts()[0], _counts_by_hand(codes, W, W > 0))
    j = int(rng.integers(p))
    thr = rng.choice([0.5, 1.5, 2.5, 3.5, np.inf], size=K - 1)
    search.split(np.array([j]), thr[None, :])
    assert search.n_nodes == 2
    good, t = search.search()
    left = X[:, j][:, None] < thr[None, :]
    for node, members in enumerate((left & (W > 0), ~left & (W > 0))):
        np.testing.assert_allclose(search.counts()[node], _counts_by_hand(codes, W, members),
                                   atol=1e-12)
        t0, g0 = replica_threshold_search(X, codes, np.where(members, W, 0.0), "gini",
                                          min_leaf=min_bucket)
        found = good[node] > 1e-12
        np.testing.assert_array_equal(found, np.isfinite(t0))
        # goodness is a difference of sums of order 10: absolute rounding about 1e-14
        np.testing.assert_allclose(np.where(found, good[node], 0.0), g0, rtol=1e-9, atol=1e-12)
        for f, k in zip(*np.nonzero(found)):  # our cut has that goodness (ties may differ)
            goes = members[:, k] & (X[:, f] < t[node, f, k])
            stays = members[:, k] & ~goes
            hand = _counts_by_hand(codes, W, np.column_stack([goes] * (K - 1)))[k], \
                _counts_by_hand(codes, W, np.column_stack([stays] * (K - 1)))[k]
            assert get_criterion("gini")(hand[0][None], hand[1][None])[0] == \
                pytest.approx(good[node, f, k], rel=1e-9)


def test_split_of_pure_and_empty_replicas():
    # replica 0 (y > 0) is pure right of x = 1.5, replica 1 has no units right of its +inf cut
    X = np.arange(6.0)[:, None]
    codes = np.array([0, 0, 1, 2, 2, 2])
    search = ReplicaSearch(X, codes, np.ones((6, 2)), "entropy")
    search.split(np.array([0]), np.array([[1.5, np.inf]]))
    counts = search.counts()
    np.testing.assert_array_equal(counts[0], [[2, 0], [3, 3]])  # x in {0, 1}; all of replica 1
    np.testing.assert_array_equal(counts[1], [[0, 4], [0, 0]])  # x in {2..5}
    good, _ = search.search()
    assert np.all(np.isneginf(good[1]))  # pure or empty: nothing to search
    assert np.isneginf(good[0, 0, 0])  # replica 0 is pure on the left too
    assert good[0, 0, 1] > 0  # replica 1 still has both classes there


def test_units_at_the_threshold_go_right():
    # thresholds are midpoints and a replica sends x < threshold left, as the tree package does
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 0, 1, 1])
    tree = ReplicatedTreeClassifier(max_depth=1, prune=False, min_samples_leaf=1).fit(X, y)
    assert tree.tree_["threshold"][0, 0] == 1.5
    np.testing.assert_array_equal(tree.predict([[1.4999], [1.5], [1.5001]]), [0, 1, 1])
    assert "x0 <  [1.5]" in tree.export_text()


def test_min_samples_leaf_counts_units():
    # one heavy unit cannot make a child on its own when min_samples_leaf = 2 (units, not weight)
    X = np.arange(5.0)[:, None]
    y = np.array([0, 1, 1, 1, 1])
    w = np.array([10.0, 1.0, 1.0, 1.0, 1.0])
    kw = dict(max_depth=1, prune=False, min_gain=0.0, min_num_obj=None)
    two = ReplicatedTreeClassifier(min_samples_leaf=2, **kw).fit(X, y, sample_weight=w)
    one = ReplicatedTreeClassifier(min_samples_leaf=1, **kw).fit(X, y, sample_weight=w)
    assert one.tree_["threshold"][0, 0] == 0.5
    assert two.tree_["threshold"][0, 0] == 1.5


def test_pessimistic_errors_vectorised_matches_scalar():
    errors = np.array([0.0, 1.0, 2.5, 4.0, 3.0])
    n = np.array([10.0, 10.0, 7.0, 4.0, 0.0])
    out = pessimistic_errors(errors, n, 0.25)
    assert out[0] == pytest.approx(10 * (1 - 0.25 ** 0.1))  # closed form with no errors
    assert out[3] == 4.0 and out[4] == 0.0
    for e, m, o in zip(errors, n, out):
        assert pessimistic_errors(float(e), float(m), 0.25) == pytest.approx(o)


def test_compiled_and_numpy_searches_grow_the_same_tree():
    # Gini sums are exact with unit weights, so both paths of the Splitter choose the same cuts;
    # a user criterion (no compiled scan) goes through the numpy path
    from ordstat.datasets import make_circle
    from ordstat.trees._engine import forced

    X, y = make_circle(300, random_state=2)
    kw = dict(criterion="gini", prune=False, min_gain=0.0)  # user gains have another scale
    compiled = ReplicatedTreeClassifier(**kw).fit(X, y).tree_
    with forced(numba=False):
        plain = ReplicatedTreeClassifier(**kw).fit(X, y).tree_
    for key in ("feature", "left", "right", "counts", "labels", "threshold"):
        np.testing.assert_array_equal(compiled[key], plain[key])
    gini = get_criterion("gini")
    user = ReplicatedTreeClassifier(**{**kw, "criterion": lambda L, R: gini(L, R)}).fit(X, y)
    np.testing.assert_array_equal(user.tree_["threshold"], plain["threshold"])
