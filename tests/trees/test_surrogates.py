"""rpart's surrogate splits in OrdinalTreeClassifier (``missing="surrogate"``) on small data
computed by hand: the surrogate list, the units each sends, the walk of new rows (an internal
node as the final node when nothing can send a row), the parameters' errors, and the trees
that do not change. rpart's own trees are the reference of test_surrogates_rpart.py."""

import pickle

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from ordstat.trees import OrdinalTreeClassifier

NAN = np.nan


def _hand_data():
    """x0 separates the classes at 4.5 (units 9, 10 miss it); x1 agrees with it on 7 of the 8
    units that have it (cut 3.5, "<" left); x2 on 6 (cut 2.5, "<" left); x3 is noise."""
    X = np.array([
        [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 5, 1], [4, 7, 6, 2],
        [5, 4, 3, 1], [6, 5, 4, 2], [7, 6, 7, 1], [8, 8, 8, 2],
        [NAN, 1.5, NAN, 1], [NAN, 9, NAN, 2]], dtype=float)
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1, 0, 1])
    return X, y


def _hand_tree(**kw):
    X, y = _hand_data()
    return OrdinalTreeClassifier(criterion="gini", missing="surrogate", min_split=2,
                                 min_bucket=1, xval=0, **kw).fit(X, y)


def test_surrogate_list_computed_by_hand():
    tree = _hand_tree()
    t, sur = tree.tree_, tree.tree_.surrogates
    assert t.feature[0] == 0 and t.threshold[0] == 4.5
    # goodness on the 8 units that have x0: Gini 8 * (1 - 2 * 0.5^2) = 4, children pure
    assert t.improvement[0] == pytest.approx(4.0)
    assert sur.primary_count[0] == 8
    assert sur.start[1] - sur.start[0] == 2  # x3 agrees no better than the majority
    first = sur.split(0)
    assert (first.feature, first.threshold, first.direction) == (1, 3.5, -1)
    # agreement 7/8, majority 4/8: adj = (7/8 - 1/2) / (1 - 1/2)
    assert first.agree == pytest.approx(7 / 8) and first.adj == pytest.approx(0.75)
    assert first.count == 2  # units 9 (x1 = 1.5: left) and 10 (x1 = 9: right)
    second = sur.split(1)
    assert (second.feature, second.threshold, second.direction) == (2, 2.5, -1)
    assert second.agree == pytest.approx(6 / 8) and second.adj == pytest.approx(0.5)
    assert second.count == 0
    np.testing.assert_array_equal(t.n_node_samples, [10, 5, 5])
    np.testing.assert_array_equal(t.value[1:], [[5, 0], [0, 5]])


def test_surrogatestyle_1_counts_only_units_with_both_values():
    X, y = _hand_data()
    X[0, 2] = NAN
    # x2 on the 7 units with x0 and x2: 2L 3R 4R 5L 6L 7R 8R; the cut 6.5 ("<" left) agrees on
    # 5; the majority of those 7 is 4 (right), of the 8 units with x0 4 too
    for style, total in ((1, 7), (0, 8)):
        tree = OrdinalTreeClassifier(criterion="gini", missing="surrogate", min_split=2,
                                     min_bucket=1, xval=0, surrogatestyle=style).fit(X, y)
        s = tree.tree_.surrogates.split(1)
        assert (s.feature, s.threshold, s.direction) == (2, 6.5, -1)
        assert s.agree == pytest.approx(5 / total)
        assert s.adj == pytest.approx((5 / total - 4 / total) / (1 - 4 / total))


def test_rows_walk_by_surrogates_then_majority_or_stay():
    tree = _hand_tree()
    X = np.array([[NAN, 2, NAN, 1],     # x1 < 3.5: left
                  [NAN, NAN, 7, 1],     # x2 >= 2.5: right
                  [NAN, NAN, NAN, 1],   # nothing tells; children of 5 and 5 units: stays
                  [1, NAN, NAN, 1]])    # the split itself: left
    np.testing.assert_array_equal(tree.apply(X), [1, 2, 0, 1])
    np.testing.assert_allclose(tree.predict_proba(X)[2], [0.5, 0.5])
    stay = _hand_tree(usesurrogate=0)
    np.testing.assert_array_equal(stay.apply(X), [0, 0, 0, 1])
    np.testing.assert_array_equal(stay.predict(X), tree.classes_[stay.tree_.yval[[0, 0, 0, 1]]])


def test_usesurrogate_0_keeps_units_missing_the_split_in_the_node():
    X, y = _hand_data()
    tree = _hand_tree(usesurrogate=0)
    np.testing.assert_array_equal(tree.tree_.n_node_samples, [10, 4, 4])
    # rpart still lists (and counts in the importance) the surrogates it does not use
    assert tree.tree_.surrogates.split(0).count == 0
    assert tree.variable_importance_[1] == pytest.approx(0.75 * 4.0)


def test_majority_side_of_usesurrogate_2_at_fitting():
    """A unit no surrogate can send goes where the primary sent more weight."""
    X, y = _hand_data()
    X = np.vstack([X, [NAN, NAN, NAN, 1], [3.5, 1, 1, 1]])
    y = np.append(y, [1, 0])  # 5 left, 4 right by x0: the unit missing everything goes left
    tree = OrdinalTreeClassifier(criterion="gini", missing="surrogate", min_split=2,
                                 min_bucket=1, xval=0, cp=0.1).fit(X, y)
    t = tree.tree_
    assert t.feature[0] == 0
    np.testing.assert_array_equal(t.n_node_samples[[0, 1, 2]], [12, 7, 5])
    use1 = OrdinalTreeClassifier(criterion="gini", missing="surrogate", min_split=2,
                                 min_bucket=1, xval=0, cp=0.1, usesurrogate=1).fit(X, y)
    np.testing.assert_array_equal(use1.tree_.n_node_samples[[0, 1, 2]], [12, 6, 5])


def test_importance_adds_adj_times_the_primary_improvement():
    tree = _hand_tree()
    np.testing.assert_allclose(tree.variable_importance_, [4.0, 0.75 * 4, 0.5 * 4, 0.0])
    learned = OrdinalTreeClassifier(criterion="gini", min_split=2, min_bucket=1,
                                    xval=0).fit(*_hand_data())
    assert learned.tree_.surrogates is None
    assert learned.variable_importance_[2:].sum() == 0.0


@pytest.mark.parametrize("criterion", ["ordinal", "gini"])
def test_without_missing_values_the_splits_are_the_learned_rule_s(criterion):
    rng = np.random.default_rng(3)
    X = pd.DataFrame(rng.normal(size=(250, 3)), columns=["a", "b", "c"])
    X["g"] = pd.Categorical(rng.choice(list("pqrs"), 250))
    y = np.digitize(X["a"] + 0.5 * (X["g"] == "q") + 0.4 * rng.normal(size=250), [-0.5, 0.5])
    learned = OrdinalTreeClassifier(criterion=criterion, random_state=0).fit(X, y)
    sur = OrdinalTreeClassifier(criterion=criterion, random_state=0,
                                missing="surrogate").fit(X, y)
    a, b = learned.tree_, sur.tree_
    for name in ("children_left", "feature", "threshold", "n_node_samples", "value",
                 "improvement", "complexity"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    for u, v in zip(a.left_categories, b.left_categories):
        assert (u is None and v is None) or np.array_equal(u, v)
    np.testing.assert_array_equal(learned.predict(X), sur.predict(X))
    pd.testing.assert_frame_equal(learned.cp_table_, sur.cp_table_)
    assert b.surrogates.start[-1] > 0  # computed though nothing is missing, as rpart does


def test_pickle_clone_and_pruning_keep_the_surrogates():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    X[:, 1] = X[:, 0] + 0.3 * rng.normal(size=300)
    y = np.digitize(X[:, 0] + 0.3 * rng.normal(size=300), [-1, 0, 1])
    X[rng.random(300) < 0.2, 0] = NAN
    tree = OrdinalTreeClassifier(missing="surrogate", cp=0.001, random_state=0).fit(X, y)
    back = pickle.loads(pickle.dumps(tree))
    np.testing.assert_array_equal(back.apply(X), tree.apply(X))
    np.testing.assert_array_equal(back.tree_.surrogates.adj, tree.tree_.surrogates.adj)
    assert clone(tree).get_params()["missing"] == "surrogate"
    pruned = tree.prune_tree(0.05)
    p = pruned.tree_
    assert p.n_nodes < tree.tree_.n_nodes
    assert p.surrogates.start.size == p.n_nodes + 1
    # the pruned tree's surrogates are the full tree's at the same nodes
    full = {int(n): i for i, n in enumerate(tree.tree_.node_number)}
    for i in np.flatnonzero(p.children_left >= 0):
        j = full[int(p.node_number[i])]
        s = slice(p.surrogates.start[i], p.surrogates.start[i + 1])
        r = slice(tree.tree_.surrogates.start[j], tree.tree_.surrogates.start[j + 1])
        np.testing.assert_array_equal(p.surrogates.feature[s], tree.tree_.surrogates.feature[r])
    assert "xerror" in tree.cp_table_.columns


@pytest.mark.parametrize("params, error, match", [
    ({"missing": "rpart"}, ValueError, "missing"),
    ({"maxsurrogate": -1}, ValueError, "maxsurrogate"),
    ({"maxsurrogate": True}, TypeError, "maxsurrogate"),
    ({"usesurrogate": 3}, ValueError, "usesurrogate"),
    ({"usesurrogate": 1.0}, ValueError, "usesurrogate"),
    ({"surrogatestyle": 2}, ValueError, "surrogatestyle"),
    ({"missing": "surrogate", "max_leaf_nodes": 4}, ValueError, "max_leaf_nodes"),
])
def test_bad_surrogate_parameters_are_errors_naming_them(params, error, match):
    X, y = _hand_data()
    with pytest.raises(error, match=match):
        OrdinalTreeClassifier(**params).fit(X, y)


def test_nominal_missing_values_are_missing_with_surrogates():
    X = pd.DataFrame({"g": pd.Categorical(["a", "b", None, "a", "b", None] * 5),
                      "x": np.arange(30.0)})
    y = np.array([0, 1, 0, 0, 1, 1] * 5)
    learned = OrdinalTreeClassifier(min_split=4, xval=0).fit(X, y)
    sur = OrdinalTreeClassifier(min_split=4, xval=0, missing="surrogate").fit(X, y)
    assert learned._missing_category == {0}
    assert sur._missing_category == set()
    assert sur.tree_.surrogates.primary_count[0] == 20


def test_summary_lists_the_surrogates():
    tree = _hand_tree()
    s = tree.summary()
    table = s["surrogates"]
    assert list(table["split"]) == ["x1< 3.5", "x2< 2.5"]
    np.testing.assert_allclose(table["adj"], [0.75, 0.5])
    assert list(table["count"]) == [2, 0]
    text = str(s)
    assert "2 training units missing the split feature" in text
    assert "x1< 3.5  (agree 0.875, adj 0.75, 2 sent)" in text
    assert "surrogates" not in OrdinalTreeClassifier(xval=0).fit(*_hand_data()).summary().tables


def test_cross_validation_sends_unsendable_rows_by_the_majority_found_at_fitting():
    """rpart's cross-validation (its branch.c) sends a held-out unit that no surrogate sends to
    the side the split sent more weight to, right on a tie; its predict() to the child with
    more units, nowhere on a tie."""
    X = np.array([[NAN, NAN, NAN, 1]])
    tree = _hand_tree()  # the split sent 4 units each way, its children hold 5 and 5
    assert tree.tree_.surrogates.majority[0] == 0
    assert tree.apply(X)[0] == 0
    assert tree.tree_.decision_nodes(X, cross_validation=True)[-1][0] == 2
    Xs, y = _hand_data()
    Xs = np.vstack([Xs, [3.5, 1, 1, 1]])  # 5 sent left by x0, 4 right
    y = np.append(y, 0)
    five = OrdinalTreeClassifier(criterion="gini", missing="surrogate", min_split=2,
                                 min_bucket=1, xval=0).fit(Xs, y)
    assert five.tree_.surrogates.majority[0] == 1
    assert five.tree_.decision_nodes(X, cross_validation=True)[-1][0] == 1
