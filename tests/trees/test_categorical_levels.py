"""Unordered categorical features split inside the compiled presorted levels
(``ordstat/trees/_kernels/categorical.py``) against the level loop (``Splitter._categorical``):
the same trees, node for node, in every field, the categories sent left included; where the
compiled levels cannot give the level loop's goodness exactly (entropy, fractional weights)
the level loop grows the tree. First the cut of one node by hand."""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from ordstat.ensemble import OrdinalBaggingClassifier, OrdinalRandomForestClassifier
from ordstat.trees import OrdinalTreeClassifier, _splitter
from ordstat.trees._engine import forced
from ordstat.trees._kernels.categorical import category_mean, make_category_cut, numpy_sum
from ordstat.trees._kernels.scan import criterion_version
from ordstat.trees._splitter import _category_means
from ordstat.trees.criteria import get_criterion

from tests.trees.test_levels import FIELDS, spy_calls


def assert_same_tree(a, b):
    for name in FIELDS:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    assert len(a.left_categories) == len(b.left_categories)
    for x, z in zip(a.left_categories, b.left_categories):
        assert (x is None) == (z is None)
        if x is not None:
            assert x.dtype == z.dtype == np.int64
            np.testing.assert_array_equal(x, z)


def _both(fit):
    """The level loop's fit and the compiled one (``fit`` must make a new estimator: an
    estimator's ``fit`` returns itself, and refitting it would compare a fit with itself)."""
    with forced(levels=False):
        loop = fit()
    compiled = fit()
    assert compiled is not loop
    return loop, compiled


def _cut(name, counts, units, min_bucket, subsets=0):
    """The compiled search's cut of one node (run as Python: the plain functions numba
    compiles), from each category's class weights and rows."""
    criterion = get_criterion(name)
    counts = np.asarray(counts, dtype=np.float64)
    k, n_cat = counts.shape[1], counts.shape[0]
    cut = make_category_cut(*criterion.scan, criterion_version(*criterion.scan))
    total = counts.sum(axis=0)
    sent = np.zeros(n_cat, dtype=bool)
    good = cut(counts, np.asarray(units, dtype=np.int64), n_cat, total, total.sum(),
               int(np.sum(units)), min_bucket, criterion.parameter(k), subsets,
               np.empty((4, k)), np.empty((3, max(n_cat, k))), np.empty(n_cat, dtype=np.int64),
               sent)
    return good, np.flatnonzero(sent).tolist()


def _gini(left, right):
    return float(get_criterion("gini")(np.array([left]), np.array([right]))[0])


def test_one_node_by_hand():
    """Categories a: classes (3, 0) in 3 rows, b: (1, 1), c: (0, 2), d absent. By mean class
    (0, 1/2, 1) the cuts are {a} | {b, c} and {a, b} | {c}; Gini on the count scale (sum of
    squared counts over the weight, children less parent): 9/3 + 10/4 - 25/7 = 27/14 and
    17/5 + 4/2 - 25/7 = 64/35. The first wins; its left child holds 3 of 7, so the absent d
    goes right. min_bucket 3 leaves only the first cut, 4 none."""
    counts = [[3, 0], [1, 1], [0, 2], [0, 0]]
    units = [3, 2, 2, 0]
    good, sent = _cut("gini", counts, units, min_bucket=1)
    assert good == pytest.approx(27 / 14) and sent == [0]
    assert good == _gini([3, 0], [1, 3])  # the level loop's float
    assert _cut("gini", counts, units, min_bucket=3) == (good, [0])
    assert _cut("gini", counts, units, min_bucket=4)[0] == -np.inf
    # a (2, 0) and b (2, 0) tie on mean 0 (a first); c (0, 3): the cut {a, b} | {c}, 16/4 +
    # 9/3 - 25/7, holds 4 of 7 on the left, which takes the absent d
    good, sent = _cut("gini", [[2, 0], [2, 0], [0, 3], [0, 0]], [2, 2, 3, 0], min_bucket=1)
    assert good == pytest.approx(16 / 4 + 9 / 3 - 25 / 7) and sent == [0, 1, 3]


def test_subsets_of_a_nominal_criterion_by_hand():
    """Three classes; a: class 0 (2 rows), b: class 2 (2 rows), c: class 1 (4 rows). By mean
    class (a, c, b) the cuts {a} | {c, b} and {a, c} | {b} both give 4/2 + 20/6 - 24/8 = 7/3
    (the first kept); every subset (c, the last by code, always right) also tries
    {a, b} | {c}: 8/4 + 16/4 - 3 = 3, strictly better."""
    counts = [[2, 0, 0], [0, 0, 2], [0, 4, 0]]
    units = [2, 2, 4]
    good, sent = _cut("gini", counts, units, min_bucket=1)
    assert good == pytest.approx(7 / 3) and sent == [0]
    good, sent = _cut("gini", counts, units, min_bucket=1, subsets=12)
    assert good == 3.0 == _gini([2, 0, 2], [0, 4, 0]) and sent == [0, 1]
    assert _cut("gini", counts, units, min_bucket=1, subsets=2)[1] == [0]  # 3 levels > 2


@pytest.mark.parametrize("k", [2, 3, 5, 8, 9, 17, 40])
def test_category_mean_is_numpys(k):
    """The mean class that orders the categories is the level loop's float (numpy sums rows of
    8 terms and more pairwise)."""
    rng = np.random.default_rng(k)
    counts = rng.integers(0, 50, size=(300, k)).astype(float)
    counts[:, 0] += 1
    counts[::7] = rng.uniform(0, 5, size=(counts[::7].shape))  # fractional too
    buf = np.empty(k)
    ours = np.array([category_mean(c, buf) for c in counts])
    np.testing.assert_array_equal(ours, _category_means(counts))
    np.testing.assert_array_equal([numpy_sum(c, k) for c in counts], counts.sum(axis=1))


def _frame(rng, n, n_cat, n_num, sizes, nan=False):
    """Unordered categorical columns (pandas categoricals with unused categories, and strings)
    and numeric ones; with ``nan``, missing values in both (a missing string is a category of
    its own)."""
    cols = {}
    for j in range(n_cat):
        m = int(sizes[j])
        codes = rng.integers(0, m, size=n)
        labels = [f"c{i:02d}" for i in range(m + 1)]  # the last one never met
        if j % 2:
            cols[f"s{j}"] = np.array(labels, dtype=object)[codes]
            if nan:
                cols[f"s{j}"][rng.random(n) < 0.1] = None
        else:
            cols[f"g{j}"] = pd.Categorical(np.array(labels)[codes], categories=labels)
    for j in range(n_num):
        x = np.round(rng.normal(size=n), 1)
        if nan:
            x[rng.random(n) < 0.2] = np.nan
        cols[f"x{j}"] = x
    return pd.DataFrame(cols)


def _labels(rng, X, k):
    score = rng.normal(size=len(X))
    for name in X.columns:
        col = X[name]
        if name[0] in "gs":
            effect = {v: rng.normal() for v in pd.unique(col)}
            score += 1.5 * col.map(effect).to_numpy(float)
        else:
            score += np.nan_to_num(col.to_numpy(float))
    return np.digitize(score, np.quantile(score, np.linspace(0, 1, k + 1)[1:-1]))


def _case(seed, k, n_cat, n_num, sizes, weighted, nan):
    """The data, labels and weights (None: unweighted) of one case of the grid."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(30, 160))
    X = _frame(rng, n, n_cat, n_num, sizes, nan)
    y = _labels(rng, X, k)
    return X, y, (rng.integers(1, 4, size=n).astype(float) if weighted else None)


# Two criteria test every path of the categorical search (each criterion's kernel of
# categorical features is compiled apart, so each one more costs its compile time): a nominal
# one (gini: every subset, then ordered cuts) and an ordinal one with a parameter (ordinal:
# ordered cuts, score steps); the search calls the criterion only through its scan.
GRID = [  # (criterion, K, categorical, numeric columns, levels, integer weights, nan)
    ("gini", 5, 3, 0, (4, 3, 13), False, False),  # subsets up to 12 levels, then ordered
    ("gini", 3, 2, 2, (6, 12), True, True),
    ("gini", 2, 2, 1, (7, 3), False, False),  # K = 2: ordered cuts only
    ("gini", 4, 2, 1, (6, 4), False, True),
    ("ordinal", 5, 3, 1, (5, 2, 9), False, True),
    ("ordinal", 3, 1, 2, (8,), True, False),
]


@pytest.mark.filterwarnings("ignore:.*in every bootstrap sample")
@pytest.mark.parametrize(("name", "k", "n_cat", "n_num", "sizes", "weighted", "nan"), GRID)
def test_trees_match_the_level_loop(name, k, n_cat, n_num, sizes, weighted, nan,
                                    count_presorted):
    """Single trees (cp 0 and -1, min_bucket up to 3, integer weights or none, features drawn
    or all), a forest and bagging: the compiled levels grow the level loop's trees."""
    for seed in range(4):
        X, y, w = _case(seed, k, n_cat, n_num, sizes, weighted, nan)
        p = X.shape[1]
        for cp, min_bucket, max_features in ((0.0, 1, None), (-1.0, 3, None),
                                             (-1.0, 2, max(1, p - 1))):
            def fit():
                return OrdinalTreeClassifier(
                    criterion=name, min_split=2, min_bucket=min_bucket, cp=cp, xval=0,
                    max_features=max_features, random_state=seed).fit(X, y, sample_weight=w)

            del count_presorted[:]
            loop, compiled = _both(fit)
            assert count_presorted == [f"{name} categorical"]  # the second fit only
            assert_same_tree(loop.tree_, compiled.tree_)
            np.testing.assert_array_equal(loop.predict_proba(X), compiled.predict_proba(X))
        for ensemble in (OrdinalRandomForestClassifier(criterion=name, n_estimators=3,
                                                       max_features=max(1, p // 2 + 1),
                                                       random_state=seed),
                         OrdinalBaggingClassifier(n_estimators=3, random_state=seed)):
            del count_presorted[:]
            loop, compiled = _both(lambda: clone(ensemble).fit(X, y))
            assert len(count_presorted) == 3
            assert all(c.endswith(" categorical") for c in count_presorted)
            for a, b in zip(loop.estimators_, compiled.estimators_):
                assert_same_tree(a.tree_, b.tree_)
            np.testing.assert_array_equal(loop.predict_proba(X), compiled.predict_proba(X))
            np.testing.assert_array_equal(loop.oob_decision_function_,
                                          compiled.oob_decision_function_)
        # no out-of-bag rows to walk: the trees kept by the ensemble's one compiled call, their
        # categories put in preorder
        forest = OrdinalRandomForestClassifier(criterion=name, n_estimators=3, oob_score=False,
                                               random_state=seed)
        loop, compiled = _both(lambda: clone(forest).fit(X, y))
        for a, b in zip(loop.estimators_, compiled.estimators_):
            assert_same_tree(a.tree_, b.tree_)
        np.testing.assert_array_equal(loop.predict_proba(X), compiled.predict_proba(X))
    trees = [t for t in compiled.estimators_ if t.tree_.n_nodes > 1]
    assert any(c is not None for t in trees for c in t.tree_.left_categories)


@pytest.fixture
def count_levels(monkeypatch):
    """The criteria of the trees grown by compiled levels sorting per node, one entry a
    tree."""
    return spy_calls(monkeypatch, "level_grow")


@pytest.fixture
def count_presorted(monkeypatch):
    """The criteria of the trees grown by compiled presorted levels, one entry a tree."""
    return spy_calls(monkeypatch, "presorted_level")


@pytest.mark.filterwarnings("ignore:.*in every bootstrap sample")
@pytest.mark.parametrize(("name", "k", "n_cat", "n_num", "sizes", "weighted", "nan"),
                         [row for row in GRID if row[0] == "gini"])
def test_trees_sorting_per_node_match_the_level_loop(name, k, n_cat, n_num, sizes, weighted,
                                                     nan, count_levels):
    """The compiled levels sorting each node's drawn features (fully grown trees of a
    forest, here forced for few features): the level loop's trees too."""
    for seed in range(4):
        X, y, w = _case(seed, k, n_cat, n_num, sizes, weighted, nan)
        p = X.shape[1]
        with forced(per_node=True):
            for min_bucket, max_features in ((1, None), (3, max(1, p - 1)), (2, 1)):
                def fit():
                    return OrdinalTreeClassifier(
                        criterion=name, min_split=2, min_bucket=min_bucket, cp=-1.0, xval=0,
                        max_features=max_features, random_state=seed).fit(X, y,
                                                                          sample_weight=w)

                del count_levels[:]
                loop, compiled = _both(fit)
                assert count_levels == [f"{name} categorical"]
                assert_same_tree(loop.tree_, compiled.tree_)
                np.testing.assert_array_equal(loop.predict_proba(X), compiled.predict_proba(X))
            forest = OrdinalRandomForestClassifier(criterion=name, n_estimators=3,
                                                   max_features=max(1, p // 2),
                                                   random_state=seed)
            del count_levels[:]
            loop, compiled = _both(lambda: clone(forest).fit(X, y))
            assert count_levels == [f"{name} categorical"] * 3
            for a, b in zip(loop.estimators_, compiled.estimators_):
                assert_same_tree(a.tree_, b.tree_)
            np.testing.assert_array_equal(loop.oob_decision_function_,
                                          compiled.oob_decision_function_)


@pytest.mark.parametrize(("name", "weights"), [("entropy", "integer"), ("gini", "fractional")])
def test_inexact_cases_keep_the_level_loop(name, weights, count_presorted):
    """Entropy's logarithms, or fractional weights: the scan's goodness may differ from the
    numpy goodness in the last bits, so these trees are grown by the level loop (without a
    categorical feature, by the compiled levels)."""
    rng = np.random.default_rng(0)
    X = _frame(rng, 80, 2, 1, (5, 4))
    y = _labels(rng, X, 3)
    w = (rng.integers(1, 4, size=80).astype(float) if weights == "integer"
         else rng.uniform(0.5, 2.0, size=80))
    tree = OrdinalTreeClassifier(criterion=name, min_split=2, cp=0.0, xval=0)
    tree.fit(X, y, sample_weight=w)
    assert count_presorted == []
    tree.fit(X[["x0"]], y, sample_weight=w)
    assert count_presorted == [name]  # the kernel of numeric features


def test_a_large_table_of_categories_keeps_the_level_loop(monkeypatch, count_presorted):
    """The table of the categories sent left holds a byte per category and node: past
    CATEGORY_TABLE_BYTES (here 5 categories x 159 nodes at most) the level loop grows the
    tree, the same one."""
    rng = np.random.default_rng(1)
    X = _frame(rng, 80, 1, 1, (4,))  # 4 categories met, 5 declared
    y = _labels(rng, X, 3)

    def fit():
        return OrdinalTreeClassifier(min_split=2, cp=0.0, xval=0).fit(X, y).tree_

    compiled = fit()
    monkeypatch.setattr(_splitter, "CATEGORY_TABLE_BYTES", 5 * 159 - 1)
    loop = fit()
    assert count_presorted == ["ordinal categorical"]
    assert_same_tree(loop, compiled)
