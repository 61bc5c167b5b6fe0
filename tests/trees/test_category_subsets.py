"""Unordered categorical predictors under the criteria that ignore the class order (Gini,
entropy, rpart's loss matrices): every subset of the levels present in a node is tried, as
rpart does with more than two classes; the ordinal criteria cut the levels ordered by their
mean class."""

import itertools

import numpy as np
import pandas as pd
import pytest

from ordstat.trees import OrdinalTreeClassifier, _splitter
from ordstat.trees._engine import forced
from ordstat.trees.criteria import get_criterion
from tests._reference import FACTOR_DATA, factor_data, load

CONTROLS = dict(min_split=20, min_bucket=7, cp=0.0, xval=0)


def _frame(name):
    d = factor_data(name)
    return d[["g", "h"]].astype("category"), d["y"].to_numpy()


def _leaves_as_sets(leaf_of_unit):
    return sorted(tuple(np.flatnonzero(leaf_of_unit == v)) for v in np.unique(leaf_of_unit))


@pytest.mark.parametrize("name", sorted(FACTOR_DATA))
@pytest.mark.parametrize("criterion, split", [("gini", "gini"), ("entropy", "information")])
def test_trees_on_many_level_factors_equal_rparts(name, criterion, split):
    """The stored rpart trees (tests/reference/rpart_factors.R): the same node sizes, the same
    units in every leaf and the same predictions (left and right may be swapped: rpart orders
    a factor split's children its own way)."""
    ref = load("rpart_factors")[f"{name}_{split}"]
    X, y = _frame(name)
    tree = OrdinalTreeClassifier(criterion=criterion, **CONTROLS).fit(X, y)
    assert sorted(tree.tree_.n_node_samples.tolist()) == sorted(ref["n"].tolist())
    assert _leaves_as_sets(tree.apply(X)) == _leaves_as_sets(ref["where"])
    np.testing.assert_array_equal(tree.predict(X), ref["predicted"])


def _root_split(tree):
    return set(tree.tree_.left_categories[0].tolist())


def _best_subset_by_hand(g, y, k, criterion):
    """The largest goodness over every subset of g's levels sent left, by brute force."""
    levels = np.unique(g)
    counts = np.array([np.bincount(y[g == v], minlength=k) for v in levels], dtype=float)
    best = -np.inf
    for r in range(1, len(levels)):
        for left in itertools.combinations(range(len(levels)), r):
            lc = counts[list(left)].sum(axis=0)
            goodness = get_criterion(criterion)(lc[None], (counts.sum(0) - lc)[None])
            best = max(best, float(goodness[0]))
    return best


def _middle_level_data():
    """Levels a (class 0), b (class 2), c (half 0, half 2: mean class 1) and d (class 1): by
    mean class a < c = d < b, whose best cut ({a, c} | {d, b}, Gini decrease 0.21875) is
    worse than sending d alone (0.28125), which the ordering never tries."""
    g = np.repeat(list("abcd"), 100)
    y = np.concatenate([np.zeros(100), np.full(100, 2), np.tile([0, 2], 50), np.ones(100)])
    return pd.DataFrame({"g": pd.Categorical(g)}), y.astype(int)


def test_the_root_split_is_the_best_subset_where_the_ordering_is_not():
    X, y = _middle_level_data()
    g = X["g"].cat.codes.to_numpy()
    best = _best_subset_by_hand(g, y, 3, "gini")
    tree = OrdinalTreeClassifier(criterion="gini", max_depth=1, **CONTROLS).fit(X, y)
    assert _root_split(tree) in ({3}, {0, 1, 2})  # d alone
    # the tree's improvement is the goodness per unit of the root
    assert tree.tree_.improvement[0] * len(y) == pytest.approx(best, rel=1e-9) or \
        tree.tree_.improvement[0] == pytest.approx(best, rel=1e-9)
    # the other criteria by the level loop's search: each criterion's compiled kernel of
    # categorical features compiles apart (about 12 s), and test_categorical_levels.py
    # compares that kernel with the level loop on every path of the search
    for criterion in ("entropy", "loss_linear"):
        with forced(levels=False):
            tree = OrdinalTreeClassifier(criterion=criterion, max_depth=1, **CONTROLS).fit(X, y)
        assert _root_split(tree) in ({3}, {0, 1, 2}), criterion


def test_ordinal_criteria_and_many_levels_keep_the_ordering(monkeypatch):
    """The ordinal criteria cut the levels ordered by mean class (a | c, d, b or a, c | d, b,
    ...), and so does Gini past SUBSET_SEARCH_LEVELS present levels."""
    X, y = _middle_level_data()
    prefixes = [{0}, {0, 2}, {0, 2, 3}, {0, 3}, {0, 3, 2}]

    def ordered_cut(left):
        return left in prefixes or {0, 1, 2, 3} - left in prefixes

    for criterion in ("ordinal", "twoing", "gini_linear"):
        with forced(levels=False):  # (as above)
            tree = OrdinalTreeClassifier(criterion=criterion, max_depth=1, **CONTROLS).fit(X, y)
        assert ordered_cut(_root_split(tree)), criterion
    monkeypatch.setattr(_splitter, "SUBSET_SEARCH_LEVELS", 3)
    gini = OrdinalTreeClassifier(criterion="gini", max_depth=1, **CONTROLS).fit(X, y)
    assert ordered_cut(_root_split(gini))


def test_two_classes_need_no_subset_search():
    """With two classes the ordering by mean class finds the best subset (Breiman et al.
    1984): the same goodness as the brute force."""
    X, y = _frame("factors3")
    y2 = (y > 0).astype(int)
    g = X["g"].cat.codes.to_numpy()
    tree = OrdinalTreeClassifier(criterion="gini", max_depth=1, **CONTROLS).fit(X[["g"]], y2)
    best = _best_subset_by_hand(g, y2, 2, "gini")
    assert tree.tree_.improvement[0] == pytest.approx(best, rel=1e-12) or \
        tree.tree_.improvement[0] == pytest.approx(best / len(y2), rel=1e-12)
    assert pd.Series(y2).nunique() == 2
