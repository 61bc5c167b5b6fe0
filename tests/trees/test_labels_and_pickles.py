"""Split labels of ordered Categoricals (export_text, summary, plot_tree), the shared coding
of categorical columns, and the compact pickles of fitted trees."""

import copy
import pickle

import numpy as np
import pandas as pd
import pytest

from ordstat._core.predictors import ColumnCoding
from ordstat.ensemble import OrdinalRandomForestClassifier
from ordstat.trees import OrdinalTreeClassifier
from ordstat.trees import _tree
from ordstat.trees._tree import compact_array

LEVELS = ["primary", "secondary", "tertiary"]


def _edu_tree(missing=False):
    edu = pd.Categorical.from_codes(np.repeat([0, 1, 2], 10), LEVELS, ordered=True)
    y = np.repeat([0, 1, 2], 10)
    if missing:  # two units of class 2 without edu: "missing" goes with tertiary
        edu = edu.add_categories([]).copy()
        edu[[28, 29]] = np.nan
    X = pd.DataFrame({"edu": edu})
    return OrdinalTreeClassifier(min_split=2, min_bucket=1, cp=0.0, xval=0).fit(X, y)


def test_ordered_split_printed_by_categories():
    tree = _edu_tree()
    text = tree.export_text()
    assert "2) edu<=primary 10" in text and "3) edu>=secondary 20" in text
    assert "6) edu<=secondary 10" in text and "7) edu>=tertiary 10" in text
    assert "< 0.5" not in text and "1.5" not in text
    splits = tree.summary()["nodes"]["split"]
    assert splits.loc[1] == "edu<=primary" and splits.loc[3] == "edu<=secondary"
    assert "split     edu<=primary" in str(tree.summary())


def test_ordered_split_with_learned_missing_side():
    text = _edu_tree(missing=True).export_text()
    assert "edu>=tertiary or NA" in text


def test_plot_tree_labels_ordered_splits():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from ordstat.plotting import plot_tree

    ax = plot_tree(_edu_tree())
    texts = {t.get_text() for t in ax.texts}
    assert {"edu<=primary", "edu<=secondary"} <= texts


def test_nominal_split_still_lists_categories():
    colour = np.tile(["blue", "green", "red"], 10)
    y = (colour == "green").astype(int)
    tree = OrdinalTreeClassifier(min_split=2, cp=0.0, xval=0).fit(
        pd.DataFrame({"colour": colour}), y)
    text = tree.export_text()
    assert "colour=blue,red" in text and "colour=green" in text


def _absent_level_tree():
    """x splits first; on x >= 0.5 (no unit of colour "grey" there) colour splits red off."""
    x = np.repeat([0.0, 1.0], 12)
    colour = np.array(["blue", "grey", "red"] * 4 + ["blue", "blue", "red"] * 4)
    y = np.where(x < 0.5, 0, np.where(colour == "red", 2, 1))
    X = pd.DataFrame({"x": x, "colour": pd.Categorical(colour)})
    return OrdinalTreeClassifier(min_split=2, min_bucket=1, cp=0.0, xval=0).fit(X, y), X


def test_nominal_split_names_only_the_categories_present_in_the_node():
    tree, X = _absent_level_tree()
    t = tree.tree_
    v = int(np.flatnonzero(t.feature == 1)[0])  # the colour split
    np.testing.assert_array_equal(t.present_categories[v], [0, 2])  # blue, red; not grey
    assert all(t.present_categories[i] is None for i in range(t.n_nodes) if i != v)
    text = tree.export_text()
    # grey, absent from the node, is sent with the heavier child (blue: 8 of 12), not named
    assert "colour=blue 8" in text and "colour=red 4" in text and "grey" not in text
    assert "colour=blue" in set(tree.summary()["nodes"]["split"])
    # prediction still sends grey to the heavier child
    new = pd.DataFrame({"x": [1.0], "colour": pd.Categorical(["grey"],
                                                              categories=X["colour"].cat.categories)})
    assert tree.predict(new)[0] == 1


def test_plot_tree_names_only_present_categories():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from ordstat.plotting import plot_tree

    texts = {t.get_text() for t in plot_tree(_absent_level_tree()[0]).texts}
    assert "colour=blue" in texts and not any("grey" in t for t in texts)


def test_present_categories_survive_pickles_pruning_and_old_pickles():
    tree, X = _absent_level_tree()
    back = pickle.loads(pickle.dumps(tree))
    assert back.export_text() == tree.export_text()
    for a, b in zip(tree.tree_.present_categories, back.tree_.present_categories):
        assert (a is None and b is None) or np.array_equal(a, b)
    pruned = tree.tree_.pruned(tree.tree_.children_left >= 0)
    assert pruned.present_categories[1] is None and pruned.present_categories[2] is not None
    # a tree pickled before the field existed: every category taken as present
    state = tree.tree_.__getstate__()
    del state["present_categories"]
    old = object.__new__(_tree.Tree)
    old.__setstate__(state)
    assert old.present_categories is None
    aged = copy.deepcopy(tree)
    aged.tree_ = old
    assert "colour=blue,grey 8" in aged.export_text()
    assert pickle.loads(pickle.dumps(aged)).tree_.present_categories is None


# -- the shared coding -------------------------------------------------------------------------
def test_column_coding_by_hand():
    X = pd.DataFrame({"x": [1.0, 2.0, np.nan, 4.0],
                      "s": ["b", None, "a", "b"],
                      "o": pd.Categorical(["lo", "hi", None, "lo"], categories=["lo", "hi"],
                                          ordered=True),
                      "u": pd.Categorical(["q", "p", "q", "q"])})
    coding, coded = ColumnCoding.learn(X)
    assert list(coding.nominal) == [1, 3] and list(coding.ordered) == [2]
    assert coding.missing_category == {1}
    np.testing.assert_array_equal(coded["s"], [1.0, 2.0, 0.0, 1.0])  # "missing" is code 2
    np.testing.assert_array_equal(coded["o"], [0.0, 1.0, np.nan, 0.0])
    np.testing.assert_array_equal(coded["u"], [1.0, 0.0, 1.0, 1.0])
    np.testing.assert_array_equal(coded["x"], X["x"])
    assert coding.cat_sizes(4).tolist() == [0, 3, 0, 2]
    again = coding.transform(X.iloc[[3, 1]])
    np.testing.assert_array_equal(again.to_numpy(), coded.iloc[[3, 1]].to_numpy())
    numeric = np.ones((2, 4))
    assert coding.transform(numeric) is numeric  # codes already


def test_numeric_input_is_not_coded():
    X = np.arange(6.0).reshape(3, 2)
    coding, same = ColumnCoding.learn(X)
    assert coding.is_empty and same is X


# -- compact pickles ---------------------------------------------------------------------------
def test_compact_array_is_exact():
    a = np.array([-1, 0, 5, 300], dtype=np.int64)
    assert compact_array(a).dtype == np.int16
    counts = np.array([[3.0, 0.0], [120.0, 7.0]])
    assert compact_array(counts).dtype == np.int8
    halves = np.array([0.5, 1.25, np.nan])
    assert compact_array(halves).dtype == np.float32  # exact in float32, NaN included
    third = np.array([1.0 / 3.0, 2.0])
    assert compact_array(third).dtype == np.float64  # not exact in float32: kept
    for arr in (a, counts, halves, third):
        np.testing.assert_array_equal(compact_array(arr).astype(arr.dtype), arr)


def _forest_data(n=600, p=8, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    X[rng.random((n, p)) < 0.02] = np.nan
    s = np.nansum(X[:, :3], axis=1) + rng.normal(size=n)
    return X, np.digitize(s, np.quantile(s, [0.25, 0.5, 0.75]))


def _widened(a):
    if isinstance(a, np.ndarray) and a.dtype.kind in "iu":
        return a.astype(np.int64)
    if isinstance(a, np.ndarray) and a.dtype.kind == "f":
        return a.astype(np.float64)
    return a


def test_forest_pickles_compactly_and_predicts_the_same(monkeypatch):
    X, y = _forest_data()
    forest = OrdinalRandomForestClassifier(n_estimators=10, random_state=0,
                                           oob_score=False).fit(X, y)
    small = pickle.dumps(forest)
    back = pickle.loads(small)
    np.testing.assert_array_equal(back.predict_proba(X), forest.predict_proba(X))
    for a, b in zip(forest.estimators_, back.estimators_):
        for name in a.tree_.__dataclass_fields__:
            x, z = getattr(a.tree_, name), getattr(b.tree_, name)
            if x is None:  # no surrogate splits
                assert z is None, name
                continue
            assert x.dtype == z.dtype, name  # restored in their own types
            if x.dtype != object:
                np.testing.assert_array_equal(x, z, err_msg=name)
        assert b._full_tree is b.tree_  # still one object
    # the same forest with its trees' arrays as a tree grows them (int64, float64; an
    # ensemble keeps them compact in memory too), every array pickled as it is
    wide = copy.deepcopy(forest)
    for est in wide.estimators_:
        fields = est.tree_.__dataclass_fields__
        est.tree_ = est._full_tree = _tree.Tree(
            **{name: _widened(getattr(est.tree_, name)) for name in fields})
    monkeypatch.setattr(_tree, "compact_array", lambda a: a)
    monkeypatch.setattr(_tree.np, "packbits", lambda a: a)
    monkeypatch.setattr(_tree.np, "unpackbits", lambda a, count: a)
    full = pickle.dumps(wide)
    assert len(small) < 0.55 * len(full), (len(small), len(full))


def test_compiled_float_kind_is_the_numpy_reading():
    """compact_array reads a float64 array in one compiled pass: the same kind (whole
    numbers, exact in float32, neither) as the numpy reading on the edge cases."""
    from ordstat.trees import _fast
    from ordstat.trees._tree import _WHOLE, _WHOLE_BOUND, _float_kind, _float_kind_numpy

    if _fast.kernels() is None:
        pytest.skip("numba is not installed")
    big = float(2 ** 62)
    cases = [[0.0, -0.0, 3.0], [1.5, np.nan], [np.nan], [np.inf, 1.0], [-np.inf, 2.0],
             [1.0 / 3.0], [big, 1.0], [2.0 * big], [-big, 5.0], [1e300], [0.1, 2.0],
             [1.0, np.nan, 2.0], [2.0 ** -149, 0.25]]
    for values in cases:
        a = np.array(values)
        kind, lo, hi = _fast.compiled(_float_kind)(a, _WHOLE_BOUND)
        expected = _float_kind_numpy(a)
        assert kind == expected[0], values
        if kind == _WHOLE:
            assert (lo, hi) == (expected[1], expected[2]), values
        np.testing.assert_array_equal(compact_array(a).astype(np.float64), a)


def test_risks_of_compact_counts_are_those_of_the_float_counts():
    """A compact tree's integer class counts give the node risks of the same counts as
    floats, by one exact product with whole losses and the summed loop otherwise."""
    from ordstat._core.costs import distance_cost
    from ordstat.trees._tree import _risks

    counts = np.random.default_rng(4).integers(0, 120, size=(40, 6))
    for loss in (distance_cost(6), distance_cost(6, 2), 1.0 - np.eye(6),
                 distance_cost(6) * 0.3):
        for small in (counts.astype(np.int8), counts.astype(np.int32)):
            np.testing.assert_array_equal(_risks(small, loss),
                                          _risks(counts.astype(np.float64), loss))
