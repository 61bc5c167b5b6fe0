"""The memory-saving paths of forests and bagging grow the same trees: in threads or worker
processes (the prepared sample memory-mapped), the prepared order read back from the words,
the fitted trees kept in compact types."""

import copy
import pickle

import numpy as np
import pandas as pd
import pytest
from joblib import parallel_config

from ordstat.ensemble import OrdinalBaggingClassifier, OrdinalRandomForestClassifier
from ordstat.ensemble._common import compact_tree
from ordstat.trees import OrdinalTreeClassifier
from ordstat.trees._engine import forced
from ordstat.trees._prepared import prepare
from ordstat.trees._tree import DerivedTree, Tree

# the node arrays (not the records or lists of codes: surrogates, present_categories)
FIELDS = [name for name in Tree.__dataclass_fields__
          if name not in ("surrogates", "present_categories")]


def _data(n=240, p=6, seed=0, missing=False):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    X[:, 1] = np.round(X[:, 1])  # ties
    y = np.digitize(X[:, 0] + X[:, 1] + rng.normal(size=n), [-1.0, 0.0, 1.0])
    if missing:
        X[rng.random(X.shape) < 0.05] = np.nan
    return X, y


def assert_same_trees(a, b):
    assert len(a.estimators_) == len(b.estimators_)
    for ea, eb in zip(a.estimators_, b.estimators_):
        ta, tb = ea.tree_, eb.tree_
        for name in FIELDS:
            if name == "left_categories":
                assert all(x is None for x in ta.left_categories)
                assert all(x is None for x in tb.left_categories)
                continue
            np.testing.assert_array_equal(getattr(ta, name), getattr(tb, name), err_msg=name)


def _forest(**kw):
    return OrdinalRandomForestClassifier(n_estimators=6, max_features=3, random_state=4, **kw)


def _bagging(**kw):
    tree = OrdinalTreeClassifier(criterion="ordinal", min_split=2, cp=-1.0, xval=0)
    return OrdinalBaggingClassifier(tree, n_estimators=6, random_state=4, **kw)


@pytest.mark.parametrize("make", [_forest, _bagging])
@pytest.mark.parametrize("missing", [False, True])
def test_threads_and_memory_mapped_processes_grow_the_same_trees(make, missing):
    X, y = _data(missing=missing)
    one = make(n_jobs=1).fit(X, y)
    threads = make(n_jobs=2).fit(X, y)  # the default for prepared samples: threads
    assert_same_trees(one, threads)
    # worker processes, every array of the prepared sample memory-mapped (max_nbytes=1)
    with parallel_config(backend="loky", max_nbytes=1):
        processes = make(n_jobs=2).fit(X, y)
    assert_same_trees(one, processes)
    np.testing.assert_array_equal(one.oob_decision_function_, processes.oob_decision_function_)
    np.testing.assert_array_equal(one.predict_proba(X), threads.predict_proba(X))


@pytest.mark.parametrize("make", [_forest, _bagging])
def test_level_loop_reads_the_order_back_from_the_words(make):
    """The level loop on a prepared sample takes each feature's order from the words (no
    order is stored beside them): the trees of the compiled levels."""
    X, y = _data(seed=2)
    compiled = make(n_jobs=1).fit(X, y)
    with forced(levels=False):
        loop = make(n_jobs=1).fit(X, y)
    assert_same_trees(compiled, loop)


def test_prepared_sample_holds_words_or_ranks_not_the_order():
    X, y = _data(n=500, seed=3)
    XT = np.ascontiguousarray(X.T)
    pre = prepare(X, y, 4, presort=True)
    assert pre.order is None and pre.words is not None and pre.presorted
    order = pre.unit_order()
    assert order.dtype == np.int32
    # each feature's units in increasing value (the words' order)
    assert np.all(np.diff(np.take_along_axis(XT, order.astype(np.int64), axis=1), axis=1) >= 0)
    np.testing.assert_array_equal(np.sort(order, axis=1), np.tile(np.arange(500), (6, 1)))
    per_node = prepare(X, y, 4, presort=False)
    assert per_node.order is None and per_node.words is None and not per_node.presorted
    # dense ranks: equal values equal ranks, 0 the smallest
    for j in range(X.shape[1]):
        want = np.unique(X[:, j], return_inverse=True)[1]
        np.testing.assert_array_equal(per_node.ranks[j], want)
    assert per_node.ranks.dtype == np.int32


@pytest.mark.parametrize("criterion, weighted, missing", [
    ("ordinal", False, False), ("twoing", True, False), ("gini", True, True),
    ("gini_quadratic", False, True)])
def test_compact_tree_keeps_every_value_and_prediction(criterion, weighted, missing):
    X, y = _data(n=400, seed=5)
    rng = np.random.default_rng(1)
    if missing:
        X = np.where(rng.random(X.shape) < 0.1, np.nan, X)
    w = rng.uniform(0.5, 2.0, size=y.size) if weighted else None
    tree = OrdinalTreeClassifier(criterion=criterion, min_split=2, cp=-1.0, xval=0).fit(
        X, y, sample_weight=w)
    small = compact_tree(copy.deepcopy(tree))
    assert small._full_tree is small.tree_
    # depths, node numbers, total weights and impurities are computed when read (twoing's
    # impurity: NaN), in the types of the full tree
    assert isinstance(small.tree_, DerivedTree)
    assert not set(DerivedTree._DERIVED) & set(vars(small.tree_))
    # the checked arrays are dropped where computing them gives them back exactly: the risks,
    # classes and complexities of a fully grown tree; unit counts only without weights
    stored = set(DerivedTree._CHECKED) & set(vars(small.tree_))
    assert stored == ({"n_node_samples"} if weighted else set())
    unpickled = pickle.loads(pickle.dumps(small.tree_))
    for name in FIELDS:
        if name != "left_categories":
            a, b = getattr(tree.tree_, name), getattr(small.tree_, name)
            np.testing.assert_array_equal(a, b, err_msg=name)
            np.testing.assert_array_equal(a, getattr(unpickled, name), err_msg=name)
            assert b.itemsize <= a.itemsize
            if name in DerivedTree._DERIVED:
                assert b.dtype == a.dtype, name
    assert small.tree_.children_left.itemsize < 8
    assert weighted or small.tree_.value.itemsize < 8  # weighted counts: fractions
    np.testing.assert_array_equal(tree.predict_proba(X), small.predict_proba(X))
    np.testing.assert_array_equal(tree.predict(X), small.predict(X))
    # the ensembles keep their trees compact
    forest = _forest(n_jobs=1).fit(X, y)
    assert forest.estimators_[0].tree_.feature.itemsize == 1


@pytest.mark.parametrize("per_node", [False, True])
def test_forest_trees_come_compact_with_the_arrays_of_the_whole_tree(per_node):
    """A forest's fully grown trees are made compact straight from the compiled growth
    (``DerivedTree.from_arrays``, no whole tree made first): every array read from them, the
    derived ones included, and the cp table are those of the same tree grown whole on the
    bootstrap rows with their repeat counts."""
    from ordstat._core.base import configured_clone
    from ordstat.ensemble._bagging import _bootstrap

    X, y = _data(n=300, seed=6)
    with forced(per_node=per_node):
        forest = _forest(n_jobs=1).fit(X, y)
        for est, seed in zip(forest.estimators_, forest._bootstrap_seeds):
            sample, rng = _bootstrap(seed, X.shape[0])
            tree_seed = int(rng.integers(0, np.iinfo(np.int32).max))
            counts = np.bincount(sample, minlength=X.shape[0])
            rows = np.flatnonzero(counts)
            whole = configured_clone(forest._template(), classes=np.arange(4),
                                     random_state=tree_seed)
            whole._fit(X[rows], y[rows], repeats=counts[rows])
            assert type(whole.tree_) is Tree
            assert isinstance(est.tree_, DerivedTree)
            # only what cannot be computed again is stored
            assert not (set(DerivedTree._DERIVED) | set(DerivedTree._CHECKED)) & set(
                vars(est.tree_))
            for name in FIELDS:
                if name != "left_categories":
                    a, b = getattr(whole.tree_, name), getattr(est.tree_, name)
                    np.testing.assert_array_equal(a, b, err_msg=name)
                    assert b.itemsize <= a.itemsize, name
            assert est._full_tree is est.tree_
            pd.testing.assert_frame_equal(est.cp_table_, whole.cp_table_)
            np.testing.assert_array_equal(est.feature_importances_,
                                          whole.feature_importances_)


def test_two_ensembles_fitted_at_once_in_threads_equal_sequential_fits():
    """The trees' compiled growth releases the GIL and the ensembles share the codes'
    encoding: fits running side by side in threads grow what they grow one after the other."""
    from concurrent.futures import ThreadPoolExecutor

    X, y = _data(n=300, seed=7)
    makes = [lambda: _forest(n_jobs=1), lambda: _bagging(n_jobs=2),
             lambda: OrdinalBaggingClassifier(n_estimators=6, random_state=5)]
    alone = [make().fit(X, y) for make in makes]
    with ThreadPoolExecutor(max_workers=3) as pool:
        together = list(pool.map(lambda make: make().fit(X, y), makes))
    for a, b in zip(alone, together):
        assert_same_trees(a, b)
        np.testing.assert_array_equal(a.oob_decision_function_, b.oob_decision_function_)


def test_tied_rows_are_the_rows_of_mostly_repeated_values():
    """The presorted growth's rows of mostly tied values (one compiled pass over the words):
    more than half of a row's words repeat the value bits of the word before."""
    from ordstat.trees import _fast
    from ordstat.trees._grow_presorted import _tied_rows

    rng = np.random.default_rng(8)
    n, rs = 30_000, 20
    values = np.sort(rng.integers(0, [[3], [n], [10], [2 * n], [n // 2]], size=(5, n)), axis=1)
    words = (values << rs) | rng.integers(0, 1 << rs, size=(5, n))
    tied = _fast.compiled(_tied_rows)
    for block in (words, np.ascontiguousarray(words[:, ::40]), words[:3, :3].copy()):
        want = [np.count_nonzero((row[1:] >> rs) == (row[:-1] >> rs)) > block.shape[1] // 2
                for row in block]
        np.testing.assert_array_equal(tied(block, rs), want)
    assert tied(words, rs).tolist() == [True, False, True, False, True]
    # exactly half repeated is not most: 0 0 1 1 (two of four)
    two = np.array([[0, 0, 1, 1], [0, 0, 0, 0]], dtype=np.int64) << rs
    assert tied(two, rs).tolist() == [False, True]
