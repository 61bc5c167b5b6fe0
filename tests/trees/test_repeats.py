"""A bootstrap sample given to a tree as distinct rows with repeat counts (what the forests
and bagging do with our trees) grows the tree of the repeated rows."""

import numpy as np
import pytest

from ordstat.ensemble import OrdinalBaggingClassifier, OrdinalRandomForestClassifier
from ordstat.trees import OrdinalTreeClassifier

FIELDS = ("children_left", "children_right", "feature", "threshold", "value", "n_node_samples",
          "improvement", "complexity", "missing_left", "missing_learned", "yval", "depth")


def _data(seed=0, n=300, p=12):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    X[:, 1] = np.round(X[:, 1])  # ties
    X[rng.random(n) < 0.15, 2] = np.nan
    y = np.digitize(np.nan_to_num(X[:, :3]).sum(axis=1) + rng.normal(size=n), [-1.5, 0, 1.5])
    return X, y, rng.integers(0, n, size=n)


@pytest.mark.parametrize("kw", [
    dict(criterion="gini", max_features=3),  # sorted per node
    dict(criterion="ordinal", max_features=None),  # presorted
    dict(criterion="twoing", max_features=6, min_split=7, max_depth=6),
    dict(criterion="ordinal", max_leaf_nodes=15, cp=0.0),  # best first
])
def test_repeat_counts_grow_the_tree_of_the_repeated_rows(kw):
    X, y, sample = _data()
    counts = np.bincount(sample, minlength=y.size)
    rows = np.flatnonzero(counts)
    assert rows.size < sample.size  # the sample has repeats
    params = dict(min_split=2, min_bucket=1, cp=-1.0, xval=0, random_state=5, classes=[0, 1, 2, 3])
    params.update(kw)
    tree = OrdinalTreeClassifier(**params)
    assert tree._counts_repeats(X.shape[1])
    repeated = OrdinalTreeClassifier(**params).fit(X[sample], y[sample]).tree_
    counted = OrdinalTreeClassifier(**params)._fit(X[rows], y[rows], repeats=counts[rows]).tree_
    assert repeated.n_nodes > 10
    for name in FIELDS:
        np.testing.assert_array_equal(getattr(counted, name), getattr(repeated, name), name)


def test_repeat_counts_only_where_they_give_the_same_tree():
    p = 4
    assert not OrdinalTreeClassifier(min_bucket=2, xval=0)._counts_repeats(p)
    assert not OrdinalTreeClassifier(min_split=20, xval=0)._counts_repeats(p)  # min_bucket 7
    assert not OrdinalTreeClassifier(min_bucket=1, xval=5)._counts_repeats(p)
    assert OrdinalTreeClassifier(min_split=2, xval=1)._counts_repeats(p)
    with pytest.raises(ValueError, match="min_bucket 1"):
        OrdinalTreeClassifier(min_bucket=2, xval=0)._fit(np.zeros((4, 1)), [0, 1, 0, 1],
                                                         repeats=np.ones(4, dtype=int))


@pytest.mark.parametrize("make", [
    lambda: OrdinalRandomForestClassifier(n_estimators=4, criterion="gini", random_state=3,
                                          oob_score=False),
    lambda: OrdinalBaggingClassifier(
        OrdinalTreeClassifier(min_split=2, min_bucket=1, cp=-1.0, xval=0), n_estimators=4,
        random_state=3, oob_score=False),
])
def test_ensembles_grow_their_trees_on_the_bootstrap_sample(make):
    """Each tree of the ensemble is the tree of its bootstrap sample, rows repeated."""
    X, y, _ = _data(1)
    ens = make().fit(X, y)
    for est, sample in zip(ens.estimators_, ens.estimators_samples_):
        ref = OrdinalTreeClassifier(**est.get_params()).fit(X[sample], y[sample]).tree_
        for name in FIELDS:
            np.testing.assert_array_equal(getattr(est.tree_, name), getattr(ref, name), name)


@pytest.mark.parametrize("criterion", ["gini", "ordinal"])
def test_bottom_up_complexities_are_rparts_recursion(criterion, monkeypatch):
    """With cp < 0 (alpha < 0) nothing is collapsed and the complexities are computed a level
    at a time; rpart's recursion gives the same numbers."""
    from ordstat.trees._grow import TreeBuilder

    X, y, _ = _data(2, n=400, p=5)
    X = np.round(X, 1)  # ties: splits that do not lower the misclassification risk
    params = dict(criterion=criterion, min_split=2, cp=-1.0, xval=0, random_state=0)
    fast = OrdinalTreeClassifier(**params).fit(X, y).tree_
    monkeypatch.setattr(TreeBuilder, "_complexities_bottom_up",
                        lambda self: self._partition(0, bound=self.nodes.risk[0]))
    slow = OrdinalTreeClassifier(**params).fit(X, y).tree_
    assert fast.n_nodes == slow.n_nodes > 50
    np.testing.assert_array_equal(fast.complexity, slow.complexity)
    assert len(np.unique(fast.complexity)) > 10
