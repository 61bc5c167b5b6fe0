"""C45Classifier against hand-computed toy cases and Weka J48's printed trees.

The hand numbers: entropies in bits, gains as C4.5 defines them (Quinlan 1993, ch. 2; Quinlan
1996 for numeric attributes), pessimistic errors from the upper confidence bound that Weka's
``Stats.addErrs`` computes (values worked out below the tests that use them).
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris

from ordstat.trees import C45Classifier
from ordstat.trees._c45 import (Split, _Data, _Node, add_errs, nominal_split,
                                numeric_split, prune, select_split)

# -- Weka's printed trees ---------------------------------------------------------------------

IRIS_J48 = """\
petalwidth <= 0.6: Iris-setosa (50.0)
petalwidth > 0.6
|   petalwidth <= 1.7
|   |   petallength <= 4.9: Iris-versicolor (48.0/1.0)
|   |   petallength > 4.9
|   |   |   petalwidth <= 1.5: Iris-virginica (3.0)
|   |   |   petalwidth > 1.5: Iris-versicolor (3.0/1.0)
|   petalwidth > 1.7: Iris-virginica (46.0/1.0)

Number of Leaves  : \t5

Size of the tree : \t9"""

WEATHER_NUMERIC_J48 = """\
outlook = sunny
|   humidity <= 75: yes (2.0)
|   humidity > 75: no (3.0)
outlook = overcast: yes (4.0)
outlook = rainy
|   windy = TRUE: no (2.0)
|   windy = FALSE: yes (3.0)

Number of Leaves  : \t5

Size of the tree : \t8"""

WEATHER_NOMINAL_J48 = """\
outlook = sunny
|   humidity = high: no (3.0)
|   humidity = normal: yes (2.0)
outlook = overcast: yes (4.0)
outlook = rainy
|   windy = TRUE: no (2.0)
|   windy = FALSE: yes (3.0)

Number of Leaves  : \t5

Size of the tree : \t8"""


def _categorical(values, categories):
    return pd.Categorical(values.split(), categories=categories)


def _weather(nominal=False):
    """Weka's weather.arff (numeric) or weather.nominal.arff, in the files' row order, with
    the categories in the order the files declare them."""
    X = pd.DataFrame({
        "outlook": _categorical("sunny sunny overcast rainy rainy rainy overcast sunny sunny "
                                "rainy sunny overcast overcast rainy",
                                ["sunny", "overcast", "rainy"]),
        "temperature": [85, 80, 83, 70, 68, 65, 64, 72, 69, 75, 75, 72, 81, 71],
        "humidity": [85, 90, 86, 96, 80, 70, 65, 95, 70, 80, 70, 90, 75, 91],
        "windy": _categorical("FALSE TRUE FALSE FALSE FALSE TRUE TRUE FALSE FALSE FALSE TRUE "
                              "TRUE FALSE TRUE", ["TRUE", "FALSE"]),
    })
    if nominal:
        X["temperature"] = _categorical("hot hot hot mild cool cool cool mild cool mild mild "
                                        "mild hot mild", ["hot", "mild", "cool"])
        X["humidity"] = _categorical("high high high high normal normal normal high normal "
                                     "normal normal high normal high", ["high", "normal"])
    y = "no no yes yes yes no yes no yes yes yes yes yes no".split()
    return X, y


def test_iris_reproduces_weka_j48():
    data = load_iris()
    X = pd.DataFrame(data.data, columns=["sepallength", "sepalwidth", "petallength",
                                         "petalwidth"])
    y = np.array(["Iris-setosa", "Iris-versicolor", "Iris-virginica"])[data.target]
    tree = C45Classifier().fit(X, y)
    assert tree.export_text() == IRIS_J48
    assert (tree.n_leaves_, tree.tree_size_, tree.get_n_leaves(), tree.get_depth()) \
        == (5, 9, 5, 4)
    assert tree.tree_.threshold[0] == 0.6 and tree.tree_.feature[0] == 3


def test_weather_reproduces_weka_j48():
    X, y = _weather()
    tree = C45Classifier(classes=["yes", "no"]).fit(X, y)
    assert tree.export_text() == WEATHER_NUMERIC_J48
    # the best cut of humidity under "sunny" lies between 70 and 85; its midpoint 77.5 moves
    # down to the largest training value below it, 75 (an "overcast" day's humidity)
    sunny = tree.tree_.children[0][0]
    assert tree.tree_.threshold[sunny] == 75.0
    assert tree.predict(X).tolist() == y


def test_weather_nominal_reproduces_weka_j48():
    X, y = _weather(nominal=True)
    tree = C45Classifier(classes=["yes", "no"]).fit(X, y)
    assert tree.export_text() == WEATHER_NOMINAL_J48


# -- split selection --------------------------------------------------------------------------

def _above_average_data():
    """20 units, classes 10/10 (ids 0-9 class 0). A (code 0 for ids 0, 1, else 1) splits off
    two pure units; B has three values: 6+1 / 1+6 / 3+3."""
    codes = np.repeat([0, 1], 10)
    a = np.where(np.arange(20) < 2, 0, 1)
    b = np.array([0] * 6 + [1] + [2] * 3 + [0] + [1] * 6 + [2] * 3)
    return np.column_stack([a, b]).astype(float), codes


def test_gain_and_gain_ratio_by_hand():
    X, codes = _above_average_data()
    w = np.ones(20)
    a = nominal_split(X[:, 0], codes, w, 2, 2, 20.0, 2)
    b = nominal_split(X[:, 1], codes, w, 2, 3, 20.0, 2, feature=1)
    # A: 1 - 18/20 H(8/18) = 1 - 0.9 x 0.99108 = 0.10803; split info H(2/20) = 0.46900
    assert a.gain == pytest.approx(0.10803, abs=1e-5)
    assert a.ratio == pytest.approx(0.10803 / 0.46900, abs=1e-4)
    # B: 1 - (14/20 H(1/7) + 6/20) = 1 - (0.7 x 0.59167 + 0.3) = 0.28583;
    # split info H(7/20, 7/20, 6/20) = 1.58129
    assert b.gain == pytest.approx(0.28583, abs=1e-5)
    assert b.ratio == pytest.approx(0.28583 / 1.58129, abs=1e-4)


def test_largest_gain_ratio_among_splits_of_average_gain_or_more():
    X, codes = _above_average_data()
    w = np.ones(20)
    n_values = np.array([2, 3])
    # A has the larger gain ratio (0.230 > 0.181) but its gain 0.108 is below the average
    # (0.108 + 0.286) / 2 = 0.197: B is chosen
    assert select_split(X, codes, w, 2, n_values, 2).feature == 1
    # alone, A is the average and is chosen
    assert select_split(X[:, :1], codes, w, 2, n_values[:1], 2).feature == 0
    tree = C45Classifier(unpruned=True, collapse_tree=False).fit(
        pd.DataFrame({"A": pd.Categorical(X[:, 0]), "B": pd.Categorical(X[:, 1])}), codes)
    assert tree.tree_.feature[0] == 1


def test_mdl_correction_subtracts_log2_of_the_cuts_over_the_weight():
    x = np.arange(10.0)
    codes = np.repeat([0, 1], 5)
    w = np.ones(10)
    plain = numeric_split(x, codes, w, 2, 10.0, 2, mdl=False)
    mdl = numeric_split(x, codes, w, 2, 10.0, 2, mdl=True)
    # cuts with at least 2 units a side: after the 2nd .. 8th value, 7 of them
    assert mdl.n_cuts == 7 and plain.gain == pytest.approx(1.0)
    assert mdl.gain == pytest.approx(1.0 - np.log2(7) / 10)
    assert plain.threshold == 4.5  # the midpoint; select_split's caller moves it to 4


# -- minimum split sizes ----------------------------------------------------------------------

def test_nominal_split_needs_two_branches_of_min_num_obj():
    x = np.array([0, 1, 1, 1, 1, 1], dtype=float)   # one unit has value 0
    codes = np.array([0, 1, 1, 1, 0, 1])
    w = np.ones(6)
    assert nominal_split(x, codes, w, 2, 2, 6.0, 2) is None
    assert nominal_split(x, codes, w, 2, 2, 6.0, 1) is not None


@pytest.mark.parametrize("n, min_split", [(20, 2), (100, 5), (1000, 25)])
def test_numeric_branch_minimum_is_a_tenth_of_the_weight_per_class_clamped(n, min_split):
    """0.1 x N / K with K = 2: 1 -> min_num_obj 2, 5, 50 -> 25; every cut leaving at least
    min_split units a side is a candidate (n - 1 - 2 (min_split - 1) of them)."""
    x = np.arange(float(n))
    codes = (np.arange(n) < 4).astype(np.int64)   # 4 units of class 1 at the low end
    s = numeric_split(x, codes, np.ones(n), 2, float(n), 2)
    assert s.n_cuts == n - 1 - 2 * (min_split - 1)
    # the pure cut after 4 units is refused when a branch needs 5 or more
    left = s.bags[0].sum()
    assert left == (4 if min_split <= 4 else min_split)


def test_numeric_split_needs_twice_the_minimum_of_known_units():
    x = np.array([1.0, 2.0, 3.0, np.nan, np.nan])
    codes = np.array([0, 1, 1, 0, 1])
    assert numeric_split(x, codes, np.ones(5), 2, 5.0, 2) is None      # 3 known < 4


def test_node_lighter_than_twice_min_num_obj_is_a_leaf():
    X = np.array([[0.0], [1.0], [2.0]])
    tree = C45Classifier(unpruned=True).fit(X, [0, 1, 1])
    assert tree.tree_size_ == 1


# -- collapsing -------------------------------------------------------------------------------

def test_collapse_removes_a_split_that_does_not_reduce_training_errors():
    # node 10/4; A: 6/2 and 4/2, both children predict class 0 (4 errors, as the node)
    # gain = H(4/14) - (8/14 H(2/8) + 6/14 H(2/6)) = 0.0059 > 0, so growth makes the split
    X = pd.DataFrame({"A": pd.Categorical(["a"] * 8 + ["b"] * 6)})
    y = [0] * 6 + [1] * 2 + [0] * 4 + [1] * 2
    grown = C45Classifier(unpruned=True, collapse_tree=False).fit(X, y)
    assert grown.tree_size_ == 3
    collapsed = C45Classifier(unpruned=True).fit(X, y)
    assert collapsed.tree_size_ == 1
    np.testing.assert_allclose(collapsed.tree_.value[0], [10, 4])


# -- pessimistic errors -----------------------------------------------------------------------

@pytest.mark.parametrize("n, e, expected", [
    (2, 0, 1.0),                    # 2 (1 - 0.25^(1/2))
    (6, 0, 1.2377968),              # 6 (1 - 0.25^(1/6)): Quinlan's U_25%(0, 6) = 0.206
    (9, 0, 1.2848042),              # Quinlan's U_25%(0, 9) = 0.143
    (1, 0, 0.75),
    (0.5, 0, 0.46875),              # N < 1: 0.5 (1 - 0.25^2)
    # normal approximation, z = 0.6744898, f = (e + 0.5) / N:
    # N (f + z^2/2N + z sqrt(f/N - f^2/N + z^2/4N^2)) / (1 + z^2/N) - e
    (16, 1, 1.4757146),             # f = 0.09375; r = 0.159136 / 1.028434 = 0.154737
    (6, 1, 1.3035066),              # f = 0.25; r = 0.413028 / 1.075823 = 0.383918
    (2, 1, 0.7914930),              # f = 0.75; r = 1.099506 / 1.227470 = 0.895749
    # e < 1: linear between e = 0 and e = 1
    (6, 0.5, 1.2377968 + 0.5 * (1.3035066 - 1.2377968)),
    (0.5, 0.3, 0.46875 + 0.3 * (0.0 - 0.46875)),   # add_errs(0.5, 1) = max(0.5 - 1, 0)
    # e + 0.5 >= N: max(N - e, 0)
    (3, 2.6, 0.4),
    (2, 2, 0.0),
])
def test_add_errs_by_hand(n, e, expected):
    assert add_errs(n, e, 0.25) == pytest.approx(expected, abs=1e-6)


def test_add_errs_grows_as_the_confidence_falls():
    assert add_errs(20, 3, 0.1) > add_errs(20, 3, 0.25) > add_errs(20, 3, 0.5)


# -- subtree raising --------------------------------------------------------------------------

def _raising_tree():
    """A tree built by hand on 14 units: the root splits on A into a big branch a0 (12 units,
    split by C into 6 of class 0 and 6 of class 1) and a small leaf a1 (one unit of each
    class, one in each value of C)."""
    a = np.array([0] * 12 + [1, 1], dtype=float)
    c = np.array([0] * 6 + [1] * 6 + [0, 1], dtype=float)
    codes = np.array([0] * 6 + [1] * 6 + [0, 1])
    data = _Data(np.column_stack([a, c]), codes, 2, np.array([2, 2]), 2, True, 0.25)
    rows, w = np.arange(14), np.ones(14)

    def node(rows, w, split=None):
        n = _Node(rows, w, data.dist(rows, w))
        if split is not None:
            n.split = split
            n.bags, parts = data.partition(split, rows, w)
            n.children = [_Node(r, cw, data.dist(r, cw)) for r, cw in parts]
        return n

    root = node(rows, w, Split(0, 0.0, 0.0, np.zeros((2, 2))))
    big = root.children[0]
    root.children[0] = node(big.rows, big.w, Split(1, 0.0, 0.0, np.zeros((2, 2))))
    return data, root


def test_subtree_raising_replaces_a_node_by_its_largest_branch():
    # estimated errors: the tree 2 x add(6, 0) + (1 + add(2, 1)) = 2 x 1.2378 + 1.7915 = 4.267;
    # the root as a leaf 7 + add(14, 7) = 8.723; the branch a0 on all 14 units: leaves of 7
    # pure units, 2 x add(7, 0) = 2 x 1.2576 = 2.515 <= 4.267 + 0.1: raised
    data, root = _raising_tree()
    prune(data, root, raising=True)
    assert root.split.feature == 1
    assert [c.children for c in root.children] == [[], []]
    np.testing.assert_allclose([c.dist for c in root.children], [[7, 0], [0, 7]])
    assert sum(data.estimated_errors(c.dist) for c in root.children) \
        == pytest.approx(2 * 7 * (1 - 0.25 ** (1 / 7)))


def test_without_subtree_raising_the_tree_stays():
    # a0 as a leaf: 6 + add(12, 6) > 2 x add(6, 0) = 2.476; the root as a leaf 8.723 > 4.267
    data, root = _raising_tree()
    prune(data, root, raising=False)
    assert root.split.feature == 0
    assert root.children[0].split.feature == 1 and root.children[1].children == []


def test_pruning_makes_a_leaf_when_its_estimate_is_within_0_1_of_the_subtree():
    # 10 units, 6/4, split into 4/1 and 2/3: the leaf 4 + add(10, 4) = 5.5598 exceeds the
    # subtree's (1 + add(5, 1)) + (2 + add(5, 2)) = 5.4723 by less than 0.1: pruned
    X = np.array([[0.0]] * 5 + [[1.0]] * 5)
    y = [0, 0, 0, 0, 1, 0, 0, 1, 1, 1]
    leaf, subtree = 4 + add_errs(10, 4), 1 + add_errs(5, 1) + 2 + add_errs(5, 2)
    assert leaf == pytest.approx(5.5598, abs=1e-4)
    assert subtree == pytest.approx(5.4723, abs=1e-4)
    assert C45Classifier(unpruned=True).fit(X, y).tree_size_ == 3
    assert C45Classifier().fit(X, y).tree_size_ == 1


# -- fractional instances ---------------------------------------------------------------------

def _missing_data():
    """A known for 8 units: a0 six of class 0, a1 two of class 1; one unit of class 1 misses
    A. The known weights split 6:2 = 3:1."""
    X = pd.DataFrame({"A": pd.Categorical(["a0"] * 6 + ["a1"] * 2 + [None],
                                          categories=["a0", "a1"])})
    return X, [0] * 6 + [1] * 3


def test_gain_is_scaled_by_the_known_fraction():
    x = np.array([0] * 6 + [1] * 2 + [np.nan] * 2)
    codes = np.array([0] * 6 + [1] * 4)
    s = nominal_split(x, codes, np.ones(10), 2, 2, 10.0, 2)
    # known: H(2/8) = 0.811278, split perfect, times 8/10; split information over the
    # weights 6, 2 and 2 (unknown) of 10: H(0.6, 0.2, 0.2) = 0.442179 + 2 x 0.464386
    assert s.gain == pytest.approx(0.8 * 0.811278, abs=1e-6)
    assert s.ratio == pytest.approx(0.8 * 0.811278 / 1.370951, abs=1e-5)


def test_missing_unit_goes_down_every_branch_by_known_weight():
    X, y = _missing_data()
    tree = C45Classifier(unpruned=True).fit(X, y)
    t = tree.tree_
    assert t.feature[0] == 0
    left, right = t.children[0]
    np.testing.assert_allclose(t.value[left], [6, 0.75])
    np.testing.assert_allclose(t.value[right], [0, 2.25])
    # a unit missing A: 0.75 (6, 0.75) / 6.75 + 0.25 (0, 1)
    proba = tree.predict_proba(pd.DataFrame({"A": pd.Categorical([None, "a1"],
                                                                 categories=["a0", "a1"])}))
    np.testing.assert_allclose(proba, [[0.75 * 6 / 6.75, 0.75 * 0.75 / 6.75 + 0.25],
                                       [0.0, 1.0]])
    assert tree.export_text().splitlines()[:2] == ["A = a0: 0 (6.75/0.75)",
                                                   "A = a1: 1 (2.25)"]


def test_numeric_missing_values_in_arrays():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    y = (X[:, 0] + 0.3 * rng.normal(size=200) > 0).astype(int)
    X[rng.random(X.shape) < 0.2] = np.nan
    tree = C45Classifier().fit(X, y)
    proba = tree.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert tree.tree_.feature[0] == 0
    assert (tree.predict(X) == y).mean() > 0.7


# -- nominal attributes -----------------------------------------------------------------------

def test_nominal_split_has_a_branch_per_category_and_empty_ones_predict_the_node():
    X = pd.DataFrame({"A": pd.Categorical(["x"] * 4 + ["y"] * 4 + ["x"],
                                          categories=["x", "y", "z"])})
    y = ["lo"] * 4 + ["hi"] * 4 + ["hi"]
    tree = C45Classifier(unpruned=True).fit(X, y)
    assert len(tree.tree_.children[0]) == 3
    z = pd.DataFrame({"A": pd.Categorical(["z", "y"], categories=["x", "y", "z"])})
    np.testing.assert_allclose(tree.predict_proba(z), [[5 / 9, 4 / 9], [1.0, 0.0]])
    assert tree.tree_.empty[tree.apply(z)[0]]
    # Weka prints an empty branch with the node's majority class and no weight
    assert tree.export_text().splitlines()[2] == "A = z: hi (0.0)"


def test_string_columns_are_nominal_and_the_class_order_plays_no_part():
    X = pd.DataFrame({"A": ["u", "v"] * 6})
    y = np.array(["b", "a"] * 6)
    tree = C45Classifier().fit(X, y)
    assert tree.categories_[0].tolist() == ["u", "v"]
    assert tree.predict(X).tolist() == y.tolist()
    unordered = pd.Categorical(y, categories=["b", "a"], ordered=False)
    assert C45Classifier().fit(X, unordered).predict(X).tolist() == y.tolist()


def test_weights_count_as_repeats_except_in_the_known_units_of_a_numeric_split():
    """J48 needs twice the minimum branch size in known *instances* before it tries a numeric
    attribute: in the node (humidity > 80, rainy) two units of weights 2 and 3 are too few
    for temperature, while the same units repeated (5 rows) are enough."""
    X, y = _weather()
    w = np.arange(1, 15) % 3 + 1
    weighted = C45Classifier().fit(X, y, sample_weight=w).export_text().splitlines()
    repeated = C45Classifier().fit(X.loc[X.index.repeat(w)], np.repeat(y, w))
    repeated = repeated.export_text().splitlines()
    assert weighted[:5] == repeated[:5]
    assert weighted[5:7] == ["|   |   windy = TRUE: no (3.0)", "|   |   windy = FALSE: yes (2.0)"]
    assert repeated[5:7] == ["|   |   temperature <= 70: yes (2.0)",
                             "|   |   temperature > 70: no (3.0)"]


# -- parameters -------------------------------------------------------------------------------

@pytest.mark.parametrize("params, name", [
    (dict(confidence_factor=0.0), "confidence_factor"),
    (dict(confidence_factor=0.6), "confidence_factor"),
    (dict(min_num_obj=0), "min_num_obj"),
    (dict(min_num_obj=1.5), "min_num_obj"),
    (dict(unpruned="no"), "unpruned"),
    (dict(subtree_raising=None), "subtree_raising"),
])
def test_bad_parameters_are_refused_naming_them(params, name):
    X, y = _weather()
    with pytest.raises(ValueError, match=name):
        C45Classifier(**params).fit(X, y)


def test_codes_out_of_range_are_refused():
    X, y = _weather()
    tree = C45Classifier().fit(X, y)
    # an array (no column names) given to a tree fitted on a DataFrame holds the codes
    coded = tree._coding.transform(X).to_numpy(dtype=float)
    coded[0, 0] = 7
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # no feature names: expected here
        with pytest.raises(ValueError, match="category codes"):
            tree.predict(coded)


def test_confidence_factor_prunes_more_when_smaller():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 4))
    y = (X[:, 0] + X[:, 1] + rng.normal(size=300) > 0).astype(int)
    sizes = [C45Classifier(confidence_factor=cf).fit(X, y).tree_size_
             for cf in (0.01, 0.25, 0.5)]
    unpruned = C45Classifier(unpruned=True).fit(X, y).tree_size_
    assert sizes[0] <= sizes[1] <= sizes[2] <= unpruned
    assert sizes[0] < unpruned


def test_predict_takes_the_first_class_of_near_equal_probabilities():
    # the leaf x = 1 holds 1 + 1e-9 units of class "a" against 1 of "b" (weights): J48 keeps
    # the first class unless another beats it by more than 1e-6
    X = np.array([[0.0]] * 4 + [[1.0]] * 2)
    y = ["b", "b", "b", "b", "b", "a"]
    w = np.array([1, 1, 1, 1, 1, 1 + 1e-9])
    tree = C45Classifier(min_num_obj=1, unpruned=True, collapse_tree=False,
                         classes=["b", "a"]).fit(X, y, sample_weight=w)
    proba = tree.predict_proba([[1.0]])
    assert proba[0, 1] > proba[0, 0]
    assert tree.predict([[1.0]]).tolist() == ["b"]
