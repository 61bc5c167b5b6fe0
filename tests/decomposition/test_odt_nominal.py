"""oDT and nominal attributes: one branch per category in every replica, as C4.5 splits them
(the dissertation, section 4.2), scored per replica by C4.5's gain and gain ratio."""

import pickle

import numpy as np
import pandas as pd
import pytest

from ordstat.decomposition import ReplicatedTreeClassifier
from ordstat.ensemble import OrdinalBaggingClassifier
from ordstat.trees._c45 import bags_split

# 30 units, three values of a nominal attribute; classes 0 < 1 < 2
#   a: 8 of class 0, 2 of class 1;  b: 2, 6, 2;  c: 0, 1, 9
VALUES = ["a"] * 10 + ["b"] * 10 + ["c"] * 10
Y = np.array([0] * 8 + [1] * 2 + [0] * 2 + [1] * 6 + [2] * 2 + [1] + [2] * 9)
NO_PRUNING = dict(prune=False, collapse_tree=False)


def _frame(values=VALUES, categories=("a", "b", "c"), z=None):
    X = pd.DataFrame({"x": pd.Categorical(values, categories=list(categories))})
    X["z"] = 0.0 if z is None else z  # a constant admits no cut
    return X


def test_replica_gains_by_hand():
    # replica 1 (Y > 0): C-/C+ per value a (8, 2), b (2, 8), c (0, 10); replica 2 (Y > 1):
    # a (10, 0), b (8, 2), c (1, 9). Gain = H(root) - sum_v n_v / n H(v), bits;
    # split information = H(10, 10, 10) = log2 3.
    h = 0.7219280948873623  # H(0.2, 0.8)
    gain1 = 0.9182958340544896 - (10 * h + 10 * h) / 30
    gain2 = 0.9480782435939055 - (10 * h + 10 * 0.4689955935892812) / 30
    assert gain1 == pytest.approx(0.43701043746291474)
    for bags, gain in (([[8, 2], [2, 8], [0, 10]], gain1), ([[10, 0], [8, 2], [1, 9]], gain2)):
        split = bags_split(np.array(bags, dtype=float), 30.0, 2)
        assert split.gain == pytest.approx(gain)
        assert split.ratio == pytest.approx(gain / np.log2(3))


def test_one_branch_per_value_with_its_counts():
    tree = ReplicatedTreeClassifier(**NO_PRUNING).fit(_frame(), Y)
    t = tree.tree_
    assert tree.node_count_ == 4 and tree.n_leaves_ == 3
    assert t["feature"].tolist() == [0, -1, -1, -1]
    assert np.isnan(t["threshold"][0]).all()
    assert [c.tolist() for c in t["children"]] == [[1, 2, 3], [], [], []]
    np.testing.assert_allclose(t["counts"][1:], [[[8, 2], [10, 0]], [[2, 8], [8, 2]],
                                                 [[0, 10], [1, 9]]])
    np.testing.assert_array_equal(t["labels"][1:], [[0, 0], [1, 0], [1, 1]])
    np.testing.assert_array_equal(tree.predict(_frame(["a", "b", "c"])), [0, 1, 2])
    assert list(tree.categories_) == [0] and list(tree.categories_[0]) == ["a", "b", "c"]
    text = tree.export_text()
    assert "x = a:" in text and "x = c:" in text and "leaf [+ -] -> 1" in text


def test_strings_are_the_same_as_an_unordered_categorical():
    X = _frame()
    strings = X.assign(x=np.array(VALUES, dtype=object))
    a = ReplicatedTreeClassifier().fit(X, Y)
    b = ReplicatedTreeClassifier().fit(strings, Y)
    np.testing.assert_array_equal(a.tree_["counts"], b.tree_["counts"])
    np.testing.assert_array_equal(a.predict(X), b.predict(strings))


def test_numeric_cut_of_larger_gain_wins():
    # z separates class 2: replica 2's cut gains H(19, 11) = 0.9481 bits, replica 1's
    # H(10, 20) - 19/30 H(10, 9) = 0.2863; summed 1.2357 against the nominal split's
    # 0.4370 + 0.5511 = 0.9881, below the average 1.1119 - 0.001: only z competes
    z = (Y == 2).astype(float)
    tree = ReplicatedTreeClassifier(**NO_PRUNING).fit(_frame(z=z), Y)
    assert tree.tree_["feature"][0] == 1
    np.testing.assert_allclose(tree.tree_["threshold"][0], [0.5, 0.5])


def test_min_num_obj_needs_two_branches():
    # one unit of value c: with min_num_obj=2 only a and b hold 2 units, enough; with
    # min_num_obj=11 no two branches hold 11, so there is no split
    assert ReplicatedTreeClassifier(min_num_obj=11, **NO_PRUNING).fit(_frame(), Y) \
        .node_count_ == 1
    assert ReplicatedTreeClassifier(min_num_obj=10, **NO_PRUNING).fit(_frame(), Y) \
        .node_count_ == 4


def test_category_without_training_units_takes_its_parents_labels():
    # "d" is a category of the dtype with no training unit: its branch is an empty leaf with
    # the root's labels (replica 1: 10 C- vs 20 C+, replica 2: 19 vs 11), class 1
    X = _frame(categories=("a", "b", "c", "d"))
    tree = ReplicatedTreeClassifier(**NO_PRUNING).fit(X, Y)
    assert tree.node_count_ == 5
    empty = tree.tree_["children"][0][3]
    np.testing.assert_array_equal(tree.tree_["counts"][empty], np.zeros((2, 2)))
    np.testing.assert_array_equal(tree.tree_["labels"][empty], [1, 0])
    new = _frame(["d", "a"], categories=("a", "b", "c", "d"))
    np.testing.assert_array_equal(tree.predict(new), [1, 0])


def test_category_not_seen_when_fitting_is_an_error():
    X = _frame().assign(x=np.array(VALUES, dtype=object))
    tree = ReplicatedTreeClassifier().fit(X, Y)
    with pytest.raises(ValueError, match="'x'.*not seen when fitting"):
        tree.predict(X.assign(x="e"))


def test_missing_nominal_value_is_a_branch_of_its_own():
    values = np.array(VALUES, dtype=object)
    values[20:] = None  # value c missing
    tree = ReplicatedTreeClassifier(**NO_PRUNING).fit(_frame().assign(x=values), Y)
    assert len(tree.tree_["children"][0]) == 3
    assert "x = missing:" in tree.export_text()
    np.testing.assert_array_equal(
        tree.predict(pd.DataFrame({"x": [None, "a"], "z": 0.0})), [2, 0])


def test_codes_out_of_range_are_an_error():
    tree = ReplicatedTreeClassifier().fit(_frame(), Y)
    with pytest.raises(ValueError, match="column 0 holds the codes of 3 categories"):
        tree.predict(np.array([[3.0, 0.0]]))
    with pytest.raises(ValueError, match="column 0 holds the codes of 3 categories"):
        tree.predict(np.array([[0.5, 0.0]]))


def test_numeric_missing_values_still_refused():
    X = _frame().assign(z=np.r_[np.nan, np.zeros(29)])
    with pytest.raises(ValueError, match=r"'z'.*\(1 missing\)"):
        ReplicatedTreeClassifier().fit(X, Y)


def test_pruning_and_pickling_with_nominal_splits():
    rng = np.random.default_rng(0)
    n = 300
    colour = rng.choice(["red", "green", "blue", "grey"], n)
    size = rng.normal(size=n)
    y = np.clip((colour == "blue") + (colour == "grey") * 2 + (size > 1), 0, 3)
    y = np.where(rng.random(n) < 0.1, rng.integers(0, 4, n), y)
    X = pd.DataFrame({"colour": colour, "size": size})
    full = ReplicatedTreeClassifier(**NO_PRUNING).fit(X, y)
    pruned = ReplicatedTreeClassifier().fit(X, y)
    assert pruned.node_count_ < full.node_count_
    assert pruned.tree_["feature"][0] == 0  # colour
    back = pickle.loads(pickle.dumps(pruned))
    np.testing.assert_array_equal(back.predict(X), pruned.predict(X))
    assert np.mean(pruned.predict(X) == y) > 0.8
    assert "colour = blue:" in str(pruned.summary())


def test_forest_of_odt_splits_nominal_columns():
    X, y = _frame(), Y
    forest = OrdinalBaggingClassifier(ReplicatedTreeClassifier(prune=False), n_estimators=3,
                                      random_state=0).fit(X, y)
    for tree in forest.estimators_:
        assert list(tree.categories_) == [0]
        assert tree.tree_["feature"][0] in (-1, 0)
    assert forest.predict(X).shape == (30,)
