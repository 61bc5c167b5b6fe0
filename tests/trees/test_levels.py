"""Compiled levels (see ``ordstat/trees/_grow.py``) against the level loop: the same trees,
node for node, in every field of the fitted tree; first for trees sorting each node's drawn
features (forests), then for trees keeping every feature presorted (bagging).

With ``numpy_sort_min`` above every node size both paths sort every node in the same compiled
loop and sum the same weights in the same order, so the trees are equal even with fractional
weights; with numpy sorting the larger nodes of the level loop, equal with integer weights.
The level loop itself is checked against a naive splitter in tests/trees/test_splitter.py and
against rpart in tests/trees/test_rpart.py.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ordstat.ensemble import OrdinalBaggingClassifier, OrdinalRandomForestClassifier
from ordstat.trees import OrdinalTreeClassifier, _fast
from ordstat.trees._engine import forced
from ordstat.trees._kernels.levels import SMALL_NODE
from ordstat.trees.criteria import get_criterion

SCANNED = ("gini", "entropy", "ordinal", "twoing", "gini_linear", "gini_quadratic", "loss_linear",
           "loss_quadratic")
FIELDS = ("children_left", "children_right", "feature", "threshold", "value",
          "n_node_samples", "weighted_n_node_samples", "impurity", "improvement", "risk",
          "yval", "complexity", "node_number", "depth", "missing_left", "missing_learned")


def assert_same_tree(a, b):
    for name in FIELDS:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    assert all(c is None for c in b.left_categories)


def spy_calls(monkeypatch, kernel):
    """The criteria of the trees grown by ``_fast.<kernel>`` (``level_grow``: the compiled
    levels sorting per node; ``presorted_level``: the presorted ones), one entry a tree: the
    criterion's name, followed by " categorical" for the kernel of categorical features."""
    calls = []
    original = getattr(_fast, kernel)

    def spy(criterion, categorical=False):
        calls.append(criterion.name + (" categorical" if categorical else ""))
        return original(criterion, categorical)

    monkeypatch.setattr(_fast, kernel, spy)
    return calls


@pytest.fixture
def count_compiled(monkeypatch):
    """Counts the trees grown by compiled levels; trees given max_features sort per node, the
    path these levels grow."""
    calls = spy_calls(monkeypatch, "level_grow")
    with forced(per_node=True):
        yield calls


def _both(fit):
    """(level loop, compiled levels) results of ``fit()``."""
    out = []
    for compiled in (False, True):
        with forced(levels=compiled):
            out.append(fit())
    return out


@pytest.mark.parametrize("name", SCANNED)
def test_compiled_levels_grow_the_level_loop_trees(name, count_compiled):
    rng = np.random.default_rng(11)
    X = rng.normal(size=(300, 12))
    X[:, 2] = np.round(X[:, 2])  # ties
    X[rng.random(300) < 0.25, 4] = np.nan  # missing values: a learned side
    X[rng.random(300) < 0.05, 7] = np.nan
    y = np.digitize(X[:, :3].sum(axis=1) + rng.normal(size=300), [-2, -0.5, 1, 2.5])
    w = rng.integers(1, 4, size=300).astype(float)

    def fit():
        return OrdinalTreeClassifier(criterion=name, min_split=2, cp=-1, xval=0, max_features=3,
                                     random_state=5).fit(X, y, sample_weight=w).tree_

    loop, compiled = _both(fit)
    assert count_compiled == [name]  # only the second fit grew by compiled levels
    assert loop.n_nodes > 60
    assert compiled.missing_learned.any() and compiled.missing_left.any()
    assert_same_tree(loop, compiled)


@pytest.mark.parametrize("name", ["ordinal", "gini"])
def test_forest_trees_are_the_same_with_compiled_levels(name, count_compiled):
    """Bootstrap samples as rows with repeat counts, as the forest fits them."""
    rng = np.random.default_rng(2)
    X = rng.normal(size=(250, 16))
    X[rng.random(250) < 0.1, 3] = np.nan
    y = np.digitize(X[:, 0] + X[:, 3] + rng.normal(size=250), [-1, 0, 1])

    def fit():
        return OrdinalRandomForestClassifier(n_estimators=4, criterion=name, oob_score=False,
                                             random_state=3).fit(X, y)

    loop, compiled = _both(fit)
    assert len(count_compiled) == 4
    for a, b in zip(loop.estimators_, compiled.estimators_):
        assert_same_tree(a.tree_, b.tree_)
    np.testing.assert_array_equal(loop.predict_proba(X), compiled.predict_proba(X))


@pytest.mark.parametrize(("kwargs", "compiled"), [
    ({}, True),
    ({"max_depth": 2}, True),
    ({"min_split": 20, "min_bucket": 3}, True),
    ({"cp": 0.0}, False),  # alpha >= 0: rpart's recursion may collapse nodes
    ({"max_leaf_nodes": 6}, False),  # best first
])
def test_controls_of_compiled_levels(kwargs, compiled, count_compiled):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(200, 9))
    y = (X[:, 0] + rng.normal(size=200) > 0).astype(int) + (X[:, 1] > 0.5)
    params = {"min_split": 2, "cp": -1.0, "xval": 0, "max_features": 3, "random_state": 0}
    params.update(kwargs)

    def fit():
        return OrdinalTreeClassifier(**params).fit(X, y).tree_

    loop, fast = _both(fit)
    assert bool(count_compiled) == compiled
    assert_same_tree(loop, fast)
    if "max_depth" in kwargs:
        assert fast.depth.max() == 2
    if "min_bucket" in kwargs:
        assert fast.n_node_samples.min() >= 3
        assert fast.n_node_samples[fast.children_left >= 0].min() >= 20


def test_unsplit_root_and_categorical_features(count_compiled):
    """A root with fewer units than min_split gives the one-node tree; a categorical feature
    takes the level loop where the compiled levels cannot give its goodness (fractional
    weights; their search of categories: tests/trees/test_categorical_levels.py)."""
    X = np.random.default_rng(0).normal(size=(30, 4))
    y = (X[:, 0] > 0).astype(int)
    tree = OrdinalTreeClassifier(cp=-1, xval=0, max_features=2, min_split=31,
                                 random_state=0).fit(X, y).tree_
    assert tree.n_nodes == 1 and tree.value[0].tolist() == [np.sum(y == 0), np.sum(y == 1)]
    assert count_compiled == ["ordinal"]
    df = pd.DataFrame(X, columns=list("abcd"))
    df["g"] = pd.Categorical(np.arange(30) % 3)
    OrdinalTreeClassifier(cp=-1, xval=0, max_features=2, random_state=0).fit(
        df, y, sample_weight=np.full(30, 0.5))
    assert count_compiled == ["ordinal"]


@st.composite
def datasets(draw, max_k=4):
    n = draw(st.integers(10, 60))
    p = draw(st.integers(1, 5))
    k = draw(st.integers(2, max_k))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    X = rng.integers(0, draw(st.integers(2, 10)), size=(n, p)).astype(float)  # many ties
    missing = draw(st.sampled_from([0.0, 0.0, 0.3]))
    X[rng.random(X.shape) < missing] = np.nan
    y = np.clip((np.nan_to_num(X[:, 0]) / 3 + rng.integers(-1, 2, size=n)).astype(int), 0, k - 1)
    weights = draw(st.sampled_from(["unit", "integer", "fractional"]))
    w = {"unit": np.ones(n), "integer": rng.integers(0, 4, size=n).astype(float),
         "fractional": rng.uniform(0.1, 3.0, size=n)}[weights]
    return X, y, w


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=datasets(), name=st.sampled_from(SCANNED), min_bucket=st.integers(1, 3),
       max_features=st.integers(1, 6), max_depth=st.integers(1, 30))
def test_compiled_levels_match_the_level_loop(data, name, min_bucket, max_features, max_depth):
    """Any weights (both paths sort every node in the same compiled loop), ties, missing
    values, max_features up to p (p: every feature, no random draw; above p is an error)."""
    X, y, w = data
    assume(np.unique(y[w > 0]).size > 1)
    max_features = min(max_features, X.shape[1])

    def fit():
        return OrdinalTreeClassifier(criterion=name, min_split=2, min_bucket=min_bucket,
                                     max_depth=max_depth, cp=-1, xval=0,
                                     max_features=max_features, random_state=1).fit(
            X, y, sample_weight=w).tree_

    with forced(per_node=True, numpy_sort_min=10 ** 9):
        loop, compiled = _both(fit)
    assert_same_tree(loop, compiled)


def test_node_sort_sorts_large_nodes_by_radix():
    """Nodes of at least RADIX_MIN values are radix sorted: ties, signed zeros, infinities and
    NaN (last), the units, codes and weights following their values."""
    from ordstat.trees._kernels import sort

    rng = np.random.default_rng(8)
    n = 3 * sort.RADIX_MIN
    X = np.column_stack([rng.normal(size=n) * 10.0 ** rng.integers(-300, 300, size=n),
                         rng.integers(-3, 3, size=n).astype(float),
                         rng.choice([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-310, -2.5], n)])
    codes = rng.integers(0, 4, size=n)
    w = rng.random(n)
    units = rng.permutation(n)[: n - 7]
    sizes = np.array([5, units.size - 5])  # a small node and a large one
    starts = np.array([0, 5])
    feats = np.array([[0, 0], [1, 1], [2, 2]])
    out = (np.zeros((3, units.size), dtype=np.int64), np.zeros((3, units.size)),
           np.zeros((3, units.size), dtype=np.int64), np.zeros((3, units.size)))
    sort.node_sort(np.ascontiguousarray(X.T), codes, w, units, starts, sizes, feats, *out)
    order, xs, ys, ws = out
    for r in range(3):
        for a, m in zip(starts, sizes):
            u = order[r, a:a + m]
            np.testing.assert_array_equal(np.sort(u), np.sort(units[a:a + m]))
            np.testing.assert_array_equal(xs[r, a:a + m], X[u, r])
            np.testing.assert_array_equal(xs[r, a:a + m], np.sort(X[units[a:a + m], r]))
            np.testing.assert_array_equal(ys[r, a:a + m], codes[u])
            np.testing.assert_array_equal(ws[r, a:a + m], w[u])


def test_large_forest_trees_are_the_same_with_compiled_levels():
    """Nodes large enough for the radix sort (the level loop sorts them with numpy), and levels
    holding both nodes searched one feature at a time across the level and nodes searched node
    by node (below SMALL_NODE units), on distinct and on mostly tied values."""
    n = 3 * SMALL_NODE
    rng = np.random.default_rng(6)
    X = rng.normal(size=(n, 12))
    X[:, 1] = np.round(X[:, 1] * 2)
    y = np.digitize(X[:, 0] + X[:, 1] + rng.normal(size=n), [-1, 0, 1])

    def fit():
        return OrdinalRandomForestClassifier(n_estimators=1, criterion="gini", max_depth=6,
                                             oob_score=False, random_state=1).fit(X, y)

    with forced(per_node=True):
        loop, compiled = _both(fit)
    tree = compiled.estimators_[0].tree_
    assert_same_tree(loop.estimators_[0].tree_, tree)
    # the root's children: one above SMALL_NODE units, one below (a level of both kinds)
    units = np.unique(compiled.estimators_samples_[0])
    left = int(np.sum(X[units, tree.feature[0]] < tree.threshold[0]))
    assert min(left, units.size - left) < SMALL_NODE <= max(left, units.size - left)


@settings(max_examples=60, deadline=None)
@given(values=st.lists(st.sampled_from([0.0, -0.0, 1.0, -2.5, 3.0, np.inf, -np.inf, 1e-300]) |
                       st.floats(allow_nan=False), min_size=0, max_size=300))
def test_node_sort_quicksort_and_insertion(values):
    """Nodes below RADIX_MIN: quicksort (Hoare or three-way partitions) and insertion sort."""
    from ordstat.trees._kernels import sort

    x = np.array(values, dtype=float)
    n = x.size
    order = np.zeros((1, n), dtype=np.int64)
    xs, ys, ws = np.zeros((1, n)), np.zeros((1, n), dtype=np.int64), np.zeros((1, n))
    sort.node_sort(x[None, :].copy(), np.arange(n), np.arange(n) / 2.0, np.arange(n),
                       np.array([0]), np.array([n]), np.array([[0]]), order, xs, ys, ws)
    np.testing.assert_array_equal(xs[0], np.sort(x))
    np.testing.assert_array_equal(np.sort(order[0]), np.arange(n))
    np.testing.assert_array_equal(x[order[0]], xs[0])
    np.testing.assert_array_equal(ys[0], order[0])


# -- trees keeping every feature presorted (bagging) --------------------------------------------

@pytest.fixture
def count_presorted(monkeypatch):
    """Counts the trees grown by compiled presorted levels."""
    return spy_calls(monkeypatch, "presorted_level")


def _level_data(n=300, seed=11):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 12))
    X[:, 2] = np.round(X[:, 2])  # ties
    X[rng.random(n) < 0.25, 4] = np.nan  # missing values: a learned side
    X[rng.random(n) < 0.05, 7] = np.nan
    y = np.digitize(X[:, :3].sum(axis=1) + rng.normal(size=n), [-2, -0.5, 1, 2.5])
    return X, y


@pytest.mark.parametrize("cp", [-1.0, 0.0])
@pytest.mark.parametrize("name", SCANNED)
def test_presorted_levels_grow_the_level_loop_trees(name, cp, count_presorted):
    """Every feature searched in every node, fractional weights (the level loop scans the same
    layout in the same order), missing values; cp 0 (rpart's second pass may collapse nodes)."""
    X, y = _level_data()
    w = np.random.default_rng(3).uniform(0.2, 3.0, size=y.size)

    def fit():
        return OrdinalTreeClassifier(criterion=name, min_split=2, cp=cp, xval=0).fit(
            X, y, sample_weight=w).tree_

    loop, compiled = _both(fit)
    assert count_presorted == [name]  # only the second fit grew by compiled levels
    assert loop.n_nodes > 60
    assert compiled.missing_learned.any() and compiled.missing_left.any()
    assert_same_tree(loop, compiled)


def test_presorted_levels_collapse_as_rpart(count_presorted):
    """With cp 0 and the absolute loss, rpart's second pass collapses splits that do not lower
    the risk: the compiled levels grow the larger tree, the second pass cuts it back."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(400, 6))
    y = np.digitize(X[:, 0] + 2 * rng.normal(size=400), [-1.5, 0, 1.5])

    def fit():
        return OrdinalTreeClassifier(criterion="ordinal", min_split=5, cp=0.0, xval=0,
                                     leaf_rule="median").fit(X, y).tree_

    loop, compiled = _both(fit)
    assert count_presorted == ["ordinal"]
    full = OrdinalTreeClassifier(criterion="ordinal", min_split=5, cp=-1.0, xval=0,
                                 leaf_rule="median").fit(X, y).tree_
    assert compiled.n_nodes < full.n_nodes  # something was collapsed
    assert_same_tree(loop, compiled)


@pytest.mark.parametrize(("kwargs", "compiled"), [
    ({}, True),
    ({"max_depth": 3}, True),
    ({"min_split": 20, "min_bucket": 4}, True),
    ({"max_features": 8}, True),  # 8 of 9: presorted, features drawn from the same keys
    ({"cp": 0.01}, False),  # alpha > 0: left to the level loop
    ({"max_leaf_nodes": 6}, False),  # best first
])
def test_controls_of_presorted_levels(kwargs, compiled, count_presorted):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(200, 9))
    y = (X[:, 0] + rng.normal(size=200) > 0).astype(int) + (X[:, 1] > 0.5)
    params = {"min_split": 2, "cp": -1.0, "xval": 0, "random_state": 0}
    params.update(kwargs)

    def fit():
        return OrdinalTreeClassifier(**params).fit(X, y).tree_

    loop, fast = _both(fit)
    assert bool(count_presorted) == compiled
    assert_same_tree(loop, fast)
    if "max_depth" in kwargs:
        assert fast.depth.max() == 3
    if "min_bucket" in kwargs:
        assert fast.n_node_samples.min() >= 4
        assert fast.n_node_samples[fast.children_left >= 0].min() >= 20


@pytest.mark.parametrize(("tree", "n_trees"), [
    (OrdinalTreeClassifier(criterion="gini", min_split=2, cp=-1.0, xval=0), 4),  # prepared
    (OrdinalTreeClassifier(criterion="twoing", min_split=2, cp=-1.0, xval=0), 4),
    (None, 4),  # Archer & Mas: min_split 5, cp 0, repeated rows
])
def test_bagging_trees_are_the_same_with_presorted_levels(tree, n_trees, count_presorted):
    """Bootstrap samples as rows with repeat counts (prepared once for all trees) or as
    repeated rows."""
    X, y = _level_data(250, seed=2)

    def fit():
        return OrdinalBaggingClassifier(tree, n_estimators=n_trees, oob_score=False,
                                        random_state=3).fit(X, y)

    loop, compiled = _both(fit)
    assert len(count_presorted) == n_trees
    for a, b in zip(loop.estimators_, compiled.estimators_):
        assert_same_tree(a.tree_, b.tree_)
    np.testing.assert_array_equal(loop.predict_proba(X), compiled.predict_proba(X))


def test_presorted_unsplit_root(count_presorted):
    X = np.random.default_rng(0).normal(size=(30, 4))
    y = (X[:, 0] > 0).astype(int)
    tree = OrdinalTreeClassifier(cp=-1, xval=0, min_split=31).fit(X, y).tree_
    assert tree.n_nodes == 1 and tree.value[0].tolist() == [np.sum(y == 0), np.sum(y == 1)]
    assert count_presorted == ["ordinal"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=datasets(max_k=6), name=st.sampled_from(SCANNED), min_bucket=st.integers(1, 3),
       max_features=st.sampled_from([None, None, 4, 5]), max_depth=st.integers(1, 30),
       cp=st.sampled_from([-1.0, 0.0]))
def test_presorted_levels_match_the_level_loop(data, name, min_bucket, max_features, max_depth,
                                               cp):
    """Any weights, ties, missing values, K up to 6, features drawn (more than half of them,
    so presorted) or all, cp -1 or 0."""
    X, y, w = data
    assume(np.unique(y[w > 0]).size > 1)
    if max_features is not None:
        max_features = min(max_features, X.shape[1])  # above p is an error

    def fit():
        return OrdinalTreeClassifier(criterion=name, min_split=2, min_bucket=min_bucket,
                                     max_depth=max_depth, cp=cp, xval=0,
                                     max_features=max_features, random_state=1).fit(
            X, y, sample_weight=w).tree_

    loop, compiled = _both(fit)
    assert_same_tree(loop, compiled)


@pytest.mark.parametrize("name", SCANNED)
def test_few_valued_features_searched_by_value_counts_grow_the_same_trees(name,
                                                                          count_compiled):
    """Item scores (5 values) without missing values, whole weights: the compiled levels
    search the small nodes' few-valued features by their per-value class counts
    (``levels.FEW_VALUES``; for criteria with exact sums), the level loop by sorting."""
    rng = np.random.default_rng(6)
    n = 400
    X = rng.integers(0, 5, size=(n, 8)).astype(float)
    X[:, 7] = rng.normal(size=n)  # a feature of distinct values beside them
    y = np.digitize(X[:, :3].sum(axis=1) + rng.normal(size=n), [4, 6, 8])
    w = rng.integers(0, 4, size=n).astype(float)

    def fit():
        return OrdinalTreeClassifier(criterion=name, min_split=2, min_bucket=2, cp=-1, xval=0,
                                     max_features=3, random_state=2).fit(
            X, y, sample_weight=w).tree_

    loop, compiled = _both(fit)
    assert count_compiled == [name]
    assert loop.n_nodes > 60
    assert_same_tree(loop, compiled)


@pytest.mark.parametrize("name", SCANNED)
def test_few_valued_features_of_many_classes_sorted_by_counting_grow_the_same_trees(
        name, count_compiled):
    """26 classes, 16 values (the letter data's shape), whole weights: nodes of few units
    for their (value, class) cells sort a few-valued feature by counting its values
    (``levels.COUNT_MIN_UNITS`` on), the larger ones search it by its per-value class counts
    (criteria with exact sums); mostly tied keys take the scan that skips ties."""
    rng = np.random.default_rng(7)
    n = 700
    X = rng.integers(0, 16, size=(n, 6)).astype(float)
    X[:, 5] = rng.normal(size=n)
    signal = X[:, :3].sum(axis=1) + 3 * rng.normal(size=n)
    y = np.argsort(np.argsort(signal)) * 26 // n  # 26 classes of about 27 rows
    w = rng.integers(1, 4, size=n).astype(float)

    def fit():
        return OrdinalTreeClassifier(criterion=name, min_split=2, min_bucket=1, cp=-1, xval=0,
                                     max_features=2, random_state=3).fit(
            X, y, sample_weight=w).tree_

    exact = get_criterion(name).exact_sums  # else one compiled sort (see the next test)
    with forced(**({} if exact else {"numpy_sort_min": n + 1})):
        loop, compiled = _both(fit)
    assert count_compiled == [name]
    assert loop.value.shape[1] == 26 and loop.n_nodes > 300
    assert_same_tree(loop, compiled)


@pytest.mark.parametrize("name", SCANNED)
def test_large_nodes_of_few_valued_features_counted_by_value_grow_the_same_trees(
        name, count_compiled):
    """Nodes of at least ``SMALL_NODE`` units (searched one drawn feature at a time across the
    level) count a few-valued feature's class weights by value too, beside a feature of
    distinct values sorted in the same level. Criteria without exact sums (entropy) sort
    them: there both growths sort every node in the same compiled loop (``numpy_sort_min``;
    numpy's sort leaves ties in another order, so other sums of logarithms)."""
    rng = np.random.default_rng(8)
    n = 2 * SMALL_NODE
    X = rng.integers(1, 8, size=(n, 5)).astype(float)
    X[:, 4] = rng.normal(size=n)
    y = np.digitize(X[:, :2].sum(axis=1) + X[:, 4] + rng.normal(size=n), [7, 8, 9])

    def fit():
        return OrdinalRandomForestClassifier(n_estimators=1, criterion=name, max_depth=3,
                                             max_features=2, oob_score=False,
                                             random_state=4).fit(X, y)

    exact = get_criterion(name).exact_sums
    with forced(**({} if exact else {"numpy_sort_min": n + 1})):
        loop, compiled = _both(fit)
    assert count_compiled == [name]
    assert np.unique(compiled.estimators_samples_[0]).size > SMALL_NODE  # the root's units
    assert_same_tree(loop.estimators_[0].tree_, compiled.estimators_[0].tree_)

