"""The ensembles' compiled prediction (ordstat.ensemble._predict) gives the numbers of the
per-tree numpy prediction exactly: votes, vote shares, mean probabilities (summed in the trees'
order), for every aggregation, column kind and number of jobs; and two ensembles predicted at
once in threads give what they give one after the other."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest

from ordstat.ensemble import (FixedSplitBaggingClassifier, OrdinalBaggingClassifier,
                              OrdinalBoostingClassifier, OrdinalRandomForestClassifier)
from ordstat.ensemble import _predict
from ordstat.ensemble._common import ConstantClassifier, compact_tree
from ordstat.trees import OrdinalTreeClassifier
from ordstat.trees._engine import forced

pytestmark = pytest.mark.filterwarnings("ignore:.*every bootstrap sample:UserWarning")
NAN = np.nan


def _frame(n=300, seed=0):
    """a (numeric, NaN), colour (strings, None), edu (ordered Categorical, NaN), b, region
    (unordered Categorical)."""
    rng = np.random.default_rng(seed)
    colour = rng.choice(["blue", "green", "red"], n).astype(object)
    edu = rng.integers(0, 3, n)
    a = rng.normal(size=n)
    y = np.digitize((colour == "red") + edu / 2 + a + 0.7 * rng.normal(size=n), [0.3, 1.0, 1.8])
    a[rng.random(n) < 0.15] = NAN
    colour[rng.random(n) < 0.1] = None
    edu_cat = pd.Categorical.from_codes(edu, ["low", "mid", "high"], ordered=True)
    edu_cat[rng.random(n) < 0.1] = NAN
    X = pd.DataFrame({"a": a, "colour": colour, "edu": edu_cat, "b": rng.normal(size=n),
                      "region": pd.Categorical(rng.choice(["e", "n", "s"], n))})
    return X, y


def _numeric(n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = np.digitize(X[:, 0] + 0.5 * X[:, 1] + 0.5 * rng.normal(size=n), [-0.7, 0.0, 0.7])
    X[rng.random(X.shape) < 0.05] = NAN
    return X, y


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    """Blocks of 64 rows, so that two jobs split the few rows of a test in two."""
    monkeypatch.setattr(_predict, "_MIN_ROWS", 64)


def _outputs(est, X):
    out = [est.predict(X), est.predict_proba(X)]
    if hasattr(est, "predict_cumulative_proba"):
        out.append(est.predict_cumulative_proba(X))
    return out


def _assert_same_as_numpy(est, X):
    compiled = _outputs(est, X)
    with forced(numba=False):
        numpy = _outputs(est, X)
    for a, b in zip(compiled, numpy):
        np.testing.assert_array_equal(a, b)  # the same numbers, not close ones


@pytest.mark.parametrize("data", [_numeric, _frame], ids=["numeric", "categorical"])
@pytest.mark.parametrize("aggregation", ["vote", "median", "proba"])
@pytest.mark.parametrize("n_jobs", [1, 2])
def test_forest_and_bagging_predict_as_the_numpy_path(data, aggregation, n_jobs):
    X, y = data()
    forest = OrdinalRandomForestClassifier(n_estimators=12, aggregation=aggregation,
                                           oob_score=False, random_state=0, n_jobs=n_jobs)
    bagging = OrdinalBaggingClassifier(n_estimators=12, aggregation=aggregation,
                                       oob_score=False, random_state=0, n_jobs=n_jobs)
    for est in (forest.fit(X, y), bagging.fit(X, y)):
        _assert_same_as_numpy(est, X)


def test_numpy_path_is_the_per_tree_prediction():
    """forced(numba=False) is the reference above: each tree's own predict and predict_proba,
    summed as the ensembles did before the compiled walk."""
    X, y = _numeric()
    est = OrdinalRandomForestClassifier(n_estimators=8, aggregation="proba", oob_score=False,
                                        random_state=0).fit(X, y)
    mean = np.array([t.predict_proba(X) for t in est.estimators_]).mean(axis=0)
    np.testing.assert_array_equal(est.predict_proba(X), mean)
    est.set_params(aggregation="vote")
    votes = np.array([t.predict(X) for t in est.estimators_])
    share = np.stack([(votes == c).sum(axis=0) for c in range(4)], axis=1) / 8
    np.testing.assert_array_equal(est.predict_proba(X), share)


def test_weighted_counts_float_proportions_and_constant_trees():
    """Trees with fractional counts (float proportions, float32 where exact) and one-class
    bootstrap samples (constant trees) among the trees."""
    X, y = _numeric(n=60)
    y = np.where(np.arange(60) < 57, 0, y)  # a few units outside class 0: constant trees
    bag = OrdinalBaggingClassifier(n_estimators=30, aggregation="proba", oob_score=False,
                                   random_state=0).fit(X, y)
    assert any(isinstance(t, ConstantClassifier) for t in bag.estimators_)
    _assert_same_as_numpy(bag, X)
    Xw, yw = _numeric(n=200, seed=3)
    rng = np.random.default_rng(0)
    fitted = []
    for i, weights in enumerate([rng.uniform(0.1, 3.0, size=200),  # float64 counts
                                 rng.choice([0.5, 1.5, 2.5], size=200)] * 2):  # float32
        tree = OrdinalTreeClassifier(cp=0.0, min_split=2, xval=0, max_features=2,
                                     random_state=i, classes=np.arange(4))
        tree.fit(Xw, yw, sample_weight=weights)
        fitted.append(compact_tree(tree) if i >= 2 else tree)
    assert {t.tree_.value.dtype for t in fitted} == {np.dtype(np.float64), np.dtype(np.float32)}
    bag = OrdinalBaggingClassifier(n_estimators=4, aggregation="proba", oob_score=False,
                                   random_state=0).fit(Xw, yw)
    bag.estimators_ = fitted  # fractional leaf counts: proportions from numpy's sums
    _assert_same_as_numpy(bag, Xw)
    bag.set_params(aggregation="vote")
    _assert_same_as_numpy(bag, Xw)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_fixed_split_bagging_and_boosting_predict_as_the_numpy_path(n_jobs):
    X, y = _frame()
    fixed = FixedSplitBaggingClassifier(n_estimators=6, random_state=0, n_jobs=n_jobs).fit(X, y)
    _assert_same_as_numpy(fixed, X)
    for variant in ("ordinal_discrete", "real", "fixed_split_discrete"):
        boost = OrdinalBoostingClassifier(variant=variant, n_estimators=5, random_state=0,
                                          n_jobs=n_jobs).fit(X, y)
        _assert_same_as_numpy(boost, X)
        staged = list(boost.staged_predict_proba(X))
        boost.set_params(n_jobs=1)
        for a, b in zip(staged, boost.staged_predict_proba(X)):
            np.testing.assert_array_equal(a, b)


def test_other_base_estimators_keep_their_own_prediction():
    from sklearn.tree import DecisionTreeClassifier

    X, y = _numeric()
    X = np.nan_to_num(X)
    bag = OrdinalBaggingClassifier(DecisionTreeClassifier(random_state=0), n_estimators=5,
                                   aggregation="proba", oob_score=False, random_state=0)
    bag.fit(X, y)
    assert _predict.tree_totals(bag.estimators_, X, 4, proba=True) is None
    mean = np.array([t.predict_proba(X) for t in bag.estimators_]).mean(axis=0)
    np.testing.assert_array_equal(bag.predict_proba(X), mean)


def test_two_ensembles_predicted_at_once_in_threads():
    X, y = _frame()
    big = pd.concat([X] * 4, ignore_index=True)
    ensembles = [
        OrdinalRandomForestClassifier(n_estimators=10, aggregation="proba", oob_score=False,
                                      random_state=0, n_jobs=2).fit(X, y),
        OrdinalBaggingClassifier(n_estimators=10, oob_score=False, random_state=1,
                                 n_jobs=2).fit(X, y),
    ]
    alone = [e.predict_proba(big) for e in ensembles] * 3
    with ThreadPoolExecutor(max_workers=6) as pool:
        together = list(pool.map(lambda e: e.predict_proba(big), ensembles * 3))
    for a, b in zip(alone, together):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("cost", ["linear", "fractional"])
def test_leaf_classes_of_least_cost(cost):
    """Trees whose leaf classes are computed from the counts and the loss (compact trees): by
    the walk where counts and losses are whole numbers, by numpy otherwise."""
    from ordstat.trees.criteria import generalized_gini

    X, y = _numeric()
    if cost == "fractional":
        g = np.arange(4.0)
        cost = np.abs(g[:, None] - g[None, :]) ** 1.3
    tree = OrdinalTreeClassifier(criterion=generalized_gini(cost), leaf_rule="cost", cp=0.0,
                                 min_split=2, xval=0)
    bag = OrdinalBaggingClassifier(tree, n_estimators=8, aggregation="median",
                                   oob_score=False, random_state=0, n_jobs=2).fit(X, y)
    assert all("yval" not in t.tree_.__dict__ for t in bag.estimators_)  # computed when read
    _assert_same_as_numpy(bag, X)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_ensembles_of_surrogate_trees_predict_as_the_numpy_path(n_jobs):
    """Trees with rpart's surrogate splits (missing="surrogate") in every ensemble: passed by
    the forest's parameters, or as the base estimator; the compiled walk follows the
    surrogates as each tree's numpy walk does."""
    X, y = _frame()
    surrogate_tree = OrdinalTreeClassifier(missing="surrogate", max_depth=3, xval=0,
                                           usesurrogate=1)
    ensembles = [
        OrdinalRandomForestClassifier(n_estimators=5, missing="surrogate", oob_score=False,
                                      random_state=0, n_jobs=n_jobs),
        OrdinalBaggingClassifier(surrogate_tree, n_estimators=5, aggregation="proba",
                                 oob_score=False, random_state=0, n_jobs=n_jobs),
        FixedSplitBaggingClassifier(surrogate_tree, n_estimators=4, random_state=0,
                                    n_jobs=n_jobs),
        OrdinalBoostingClassifier(estimator=surrogate_tree, n_estimators=3, random_state=0,
                                  n_jobs=n_jobs),
    ]
    for est in ensembles:
        est.fit(X, y)
        trees = getattr(est, "estimators_", [])
        assert all(t.tree_.surrogates is not None for t in trees
                   if isinstance(t, OrdinalTreeClassifier)), type(est).__name__
        _assert_same_as_numpy(est, X)


def test_row_counts_around_the_lanes_and_blocks_of_the_walk():
    """The numeric walk's eight lanes take a new row as soon as theirs is at its leaf, in
    blocks of ``_BLOCK`` rows: leaves, votes and proportions as the numpy path for row
    counts below, at and past a multiple of eight and of the block, rows ending at depths far
    apart (fully grown trees, missing values)."""
    from ordstat.trees._kernels.predict import _BLOCK

    X, y = _numeric(n=2 * _BLOCK + 40)
    forest = OrdinalRandomForestClassifier(n_estimators=3, aggregation="proba",
                                           oob_score=False, random_state=0).fit(X, y)
    tree = forest.estimators_[0].tree_
    depths = tree.depth[tree.decision_nodes(X)[-1]]
    assert depths.max() - depths.min() >= 6
    for n in (0, 1, 7, 8, 9, 15, 17, _BLOCK - 1, _BLOCK, _BLOCK + 1, 2 * _BLOCK + 40):
        rows = X[:n]
        np.testing.assert_array_equal(tree.apply(rows), tree.decision_nodes(rows)[-1])
        if n:
            for aggregation in ("vote", "proba"):
                _assert_same_as_numpy(forest.set_params(aggregation=aggregation), rows)


def test_unpickled_trees_keep_the_compact_code_lists_and_predict_the_same():
    """Trees without categorical splits come back from a pickle with their code lists as one
    None seen through a read-only view, as the ensemble held them (the walk then needs not look
    at every node for a categorical split); the same predictions, and trees with categorical
    splits keep their lists."""
    import pickle

    for data in (_numeric, _frame):
        X, y = data()
        forest = OrdinalRandomForestClassifier(n_estimators=4, aggregation="proba",
                                               oob_score=False, random_state=0).fit(X, y)
        loaded = pickle.loads(pickle.dumps(forest))
        for before, after in zip(forest.estimators_, loaded.estimators_):
            for name in ("left_categories", "present_categories"):
                a, b = getattr(before.tree_, name), getattr(after.tree_, name)
                assert (a is None) == (b is None)
                if a is None:
                    continue
                assert [v is None for v in a] == [v is None for v in b]
                if all(v is None for v in a):
                    assert b.strides == (0,) and not b.flags.writeable
        np.testing.assert_array_equal(loaded.predict_proba(X), forest.predict_proba(X))
    assert any(v is not None for t in loaded.estimators_ for v in t.tree_.left_categories)
