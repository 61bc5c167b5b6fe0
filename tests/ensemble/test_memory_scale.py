"""The paths that keep a forest's or bagging's memory low at large n grow the same trees, field
by field: node arrays grown between levels instead of preallocated, no transposed copy of the
features (units sent by their ranks or by their positions in the words), one buffer of words
per tree, bootstrap indices drawn again from the seeds and out-of-bag results summed as the
trees come."""

import pickle

import numpy as np
import pytest

from ordstat.ensemble import OrdinalBaggingClassifier, OrdinalRandomForestClassifier
from ordstat.ensemble._common import fit_sample
from ordstat.trees import OrdinalTreeClassifier, _node_arrays
from ordstat.trees._engine import forced
from ordstat.trees._prepared import Sample, prepare
from ordstat.trees._tree import Tree

from .test_memory import _data as _small_data

FIELDS = [name for name in Tree.__dataclass_fields__ if name != "left_categories"]


def _data(n=600, p=8, seed=0, missing=False):
    return _small_data(n, p, seed, missing)


def _forest(**kw):
    return OrdinalRandomForestClassifier(n_estimators=4, max_features=2, random_state=7,
                                         n_jobs=1, **kw)


def _bagging(**kw):
    tree = OrdinalTreeClassifier(criterion="ordinal", min_split=2, cp=-1.0, xval=0)
    return OrdinalBaggingClassifier(tree, n_estimators=4, random_state=7, n_jobs=1, **kw)


def _trees(est):
    return [e.tree_ for e in est.estimators_]


def assert_same_trees(a, b):
    assert len(a) == len(b)
    for ta, tb in zip(a, b):
        for name in FIELDS:
            np.testing.assert_array_equal(getattr(ta, name), getattr(tb, name), err_msg=name)


@pytest.mark.parametrize("make", [_forest, _bagging])
@pytest.mark.parametrize("missing", [False, True])
def test_node_arrays_grown_between_levels_give_the_same_trees(make, missing, monkeypatch):
    X, y = _data(missing=missing)
    # room for every node from the start (the preallocation of before) ...
    monkeypatch.setattr(_node_arrays, "_FIRST_NODES", 10 ** 6)
    whole = make().fit(X, y)
    # ... against room for one node, grown at every level (not the whole tree at once)
    monkeypatch.setattr(_node_arrays, "_FIRST_NODES", 1)
    monkeypatch.setattr(_node_arrays, "_WHOLE_TREE_BYTES", 0)
    grown = make().fit(X, y)
    assert min(t.n_nodes for t in _trees(whole)) > 100
    assert_same_trees(_trees(whole), _trees(grown))
    np.testing.assert_array_equal(whole.oob_decision_function_, grown.oob_decision_function_)


@pytest.mark.parametrize("make", [_forest, _bagging])
@pytest.mark.parametrize("missing", [False, True])
def test_compiled_levels_give_the_trees_of_the_level_loop(make, missing):
    """The compiled levels send the units by their sort keys (forests) or their positions in
    the words (bagging), reading no transposed features: the level loop's trees, which read
    the values."""
    X, y = _data(seed=3, missing=missing)
    compiled = make().fit(X, y)
    with forced(levels=False):
        loop = make().fit(X, y)
    assert_same_trees(_trees(compiled), _trees(loop))


@pytest.mark.parametrize("presort", [False, True])
def test_no_transposed_copy(presort):
    X, y = _data(seed=5)
    template = (OrdinalTreeClassifier(min_split=2, cp=-1.0, xval=0) if presort else
                OrdinalTreeClassifier(min_split=2, cp=-1.0, xval=0, max_features=1))
    assert template._presorts(X.shape[1]) == presort
    data = prepare(X, y, 4, presort=presort)
    assert not data._made  # nothing transposed
    assert data.XT.base is not None and np.shares_memory(data.XT, data.X)  # a view
    rows = np.flatnonzero(np.bincount(np.arange(0, 600, 3), minlength=600))
    params = template.get_params()
    from ordstat._core.labels import encode_target

    encoding = encode_target(np.arange(4), np.arange(4))[0]
    tree = fit_sample(template, params, Sample(data, rows), np.ones(rows.size, dtype=np.int64),
                      encoding, 3)
    assert tree.tree_.n_nodes > 10
    assert not data._made  # the compiled levels read X as given
    direct = OrdinalTreeClassifier(**{**params, "classes": np.arange(4), "random_state": 3})
    direct._fit(X[rows], y[rows], repeats=np.ones(rows.size, dtype=np.int64))
    assert_same_trees([tree.tree_], [direct.tree_])
    # with missing values neither: the per-node search sorts -x by ranks (4 bytes a unit)
    Xm, ym = _data(seed=5, missing=True)
    with_missing = prepare(Xm, ym, 4, presort=presort)
    assert not with_missing._made
    assert (with_missing.neg_ranks is not None) == (not presort)


@pytest.mark.parametrize("make", [_forest, _bagging])
def test_bootstrap_indices_drawn_again_from_the_seeds(make):
    X, y = _data(n=300)
    est = make().fit(X, y)
    samples = est.estimators_samples_
    assert len(samples) == 4 and all(s.dtype == np.int16 for s in samples)
    # the units out of bag of each tree: those its drawn sample misses
    oob = np.zeros(300, dtype=np.int64)
    for s in samples:
        oob += np.bincount(s, minlength=300) == 0
    np.testing.assert_array_equal(oob, est.oob_n_estimators_)
    for tree, s in zip(est.estimators_, samples):  # each tree grown on its sample
        assert tree.tree_.n_node_samples[0] == s.size
    again = pickle.loads(pickle.dumps(est))
    for a, b in zip(samples, again.estimators_samples_):
        np.testing.assert_array_equal(a, b)
    assert "estimators_samples_" not in vars(est)  # not stored: drawn when asked


@pytest.mark.parametrize("missing", [False, True])
def test_large_samples_sort_per_node_and_grow_the_same_trees(missing, monkeypatch):
    """From PER_NODE_ROWS rows, fully grown trees drawing fewer than all features sort per
    node (ranks, no words): run here at small n by lowering the threshold."""
    from ordstat.ensemble._bagging import _BaseBagging
    from ordstat.trees import _engine

    X, y = _data(n=500, p=12, seed=9, missing=missing)
    make = lambda: OrdinalRandomForestClassifier(  # noqa: E731
        n_estimators=3, max_features=4, random_state=2, n_jobs=1)  # 4 * 6 > 12: presorted
    template = make()._template()
    assert not _engine.choose(template._tree_params(12)["criterion"], 4, 12, 500,
                              fully_grown=True).per_node
    presorted = make().fit(X, y)
    monkeypatch.setattr(_engine, "PER_NODE_ROWS", 400)
    data = _BaseBagging._prepared(template, X, y, 4)[0]
    assert data.words is None and data.ranks is not None  # (with or without missing values)
    per_node = make().fit(X, y)
    assert_same_trees(_trees(presorted), _trees(per_node))
    # not for trees with a complexity bound, nor drawing every feature (bagging)
    crit = template._tree_params(12)["criterion"]
    assert not _engine.choose(crit, 4, 12, 500, fully_grown=False).per_node
    assert not _engine.choose(crit, 12, 12, 500, fully_grown=True).per_node
    bagging = _bagging()
    assert _BaseBagging._prepared(bagging._template(), X, y, 4)[0].presorted


@pytest.mark.parametrize("missing", [False, True])
def test_presorted_trees_on_a_sample_prepared_without_words(missing):
    """A tree keeping every feature presorted on a bootstrap sample prepared without words (as
    for trees sorting per node) sorts the sample's own rows: the trees of a sample prepared
    with words. (It once packed every row of the data into room for the sample's rows only,
    writing past the buffer, when the tree and the preparation chose different engines.)"""
    from ordstat._core.labels import encode_target

    X, y = _data(n=400, p=6, seed=4, missing=missing)
    template = OrdinalTreeClassifier(criterion="ordinal", min_split=2, cp=-1.0, xval=0)
    rng = np.random.default_rng(0)
    rows = np.unique(rng.integers(0, 400, 400))
    repeats = rng.integers(1, 4, rows.size)
    encoding = encode_target(np.arange(4), np.arange(4))[0]
    trees = []
    for presort in (True, False):
        data = prepare(X, y, 4, presort=presort)
        assert (data.words is None) == (not presort)
        with forced(per_node=False):
            est = fit_sample(template, template.get_params(deep=False), Sample(data, rows),
                             repeats, encoding, 0)
        trees.append(est.tree_)
    assert trees[0].n_nodes > 20
    assert_same_trees([trees[0]], [trees[1]])
