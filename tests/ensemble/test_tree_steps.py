"""A forest's compiled steps per tree (ordstat/ensemble/_steps.py) against the numpy
definitions they replace: the bootstrap's rows, repeats and out-of-bag units; the compact
types of a fully grown tree's arrays and the leaves and classes of its out-of-bag rows
(TreeStore); the node arrays sized for the whole tree at once."""

import warnings

import numpy as np
import pytest

from ordstat.ensemble import OrdinalRandomForestClassifier
from ordstat.ensemble._common import TreeStore
from ordstat.ensemble._steps import bootstrap_rows, sample_rows
from ordstat.trees import OrdinalTreeClassifier, _fast
from ordstat.trees._node_arrays import NodeArrays
from ordstat.trees._tree import _risks, compact_array

# what the store keeps of a fully grown tree of the compiled levels (numeric splits, preorder)
STORED = ("children_left", "children_right", "feature", "threshold", "improvement",
          "missing_left", "missing_learned", "value")


def _grown(tree, spare=3):
    """``tree``'s arrays as the compiled levels hand them to the store: node arrays in
    another order than preorder (the root first, the others shuffled) with room for
    ``spare`` more nodes (blank), the count of nodes, the side of missing values -1 where
    the node met none."""
    m = tree.n_nodes
    order = np.concatenate([[0], np.random.default_rng(m).permutation(np.arange(1, m))])
    position = np.argsort(order)  # new index of each node of the tree

    def moved(name, a):
        a = np.asarray(a)[order]
        return np.where(a >= 0, position[np.maximum(a, 0)], -1) if name in (
            "left", "right") else a

    arrays = {name: np.concatenate([moved(name, a), np.full((spare,) + a.shape[1:], fill,
                                                            dtype=a.dtype)])
              for name, a, fill in (
                  ("value", tree.value, 0.0), ("n_units", tree.n_node_samples, 0),
                  ("left", tree.children_left, -1), ("right", tree.children_right, -1),
                  ("feature", tree.feature, -1), ("threshold", tree.threshold, np.nan),
                  ("goodness", tree.improvement, 0.0),
                  ("missing", np.where(tree.missing_learned, tree.missing_left, -1)
                   .astype(np.int8), -1),
                  ("depth", tree.depth, 0), ("number", tree.node_number, 1))}
    return NodeArrays(**arrays, categories=np.zeros((arrays["left"].size, 0), dtype=bool),
                      count=np.array([m]), iscale=np.zeros(1))


def _data(n, p, k, seed, missing=False):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, p)), 1)  # ties
    y = np.digitize(X[:, 0] + X[:, 1] + rng.normal(size=n), np.linspace(-2, 2, k - 1))
    if missing:
        X[rng.random(X.shape) < 0.1] = np.nan
    return X, y


@pytest.mark.parametrize("weighted", [False, True])
def test_bootstrap_rows_are_the_counts_of_the_sample(weighted, monkeypatch):
    rows_of = _fast.compiled(bootstrap_rows)
    rng = np.random.default_rng(0)
    for n, size, k in ((1, 1, 2), (7, 7, 3), (50, 50, 4), (40, 97, 5), (30, 4, 3)):
        sample = rng.integers(0, n, size=size)
        if weighted:  # the units of weight 0 never drawn
            sample = sample[sample % 3 != 0] if n > 1 else sample
        codes = rng.integers(0, k, size=n)
        rows, repeats, oob, n_present = rows_of(sample, n, codes, k)
        with monkeypatch.context() as m:  # without numba: numpy's calls
            m.setattr(_fast, "kernels", lambda: None)
            for got, want in zip((rows, repeats, oob, n_present),
                                 sample_rows(sample, n, codes, k)):
                np.testing.assert_array_equal(got, want)
        counts = np.bincount(sample, minlength=n)
        np.testing.assert_array_equal(rows, np.flatnonzero(counts))
        np.testing.assert_array_equal(repeats, counts[counts > 0])
        np.testing.assert_array_equal(oob, np.flatnonzero(counts == 0))
        assert n_present == np.unique(codes[rows]).size
        assert rows.dtype == repeats.dtype == oob.dtype == np.int64


def _whole_tree(X, y, k, criterion="ordinal", weights=None):
    tree = OrdinalTreeClassifier(criterion=criterion, min_split=2, cp=-1.0, xval=0,
                                 max_features=2, classes=np.arange(k), random_state=1)
    return tree.fit(X, y, sample_weight=weights)


@pytest.mark.parametrize("k, missing, weighted, criterion", [
    (4, False, False, "ordinal"), (5, True, False, "twoing"), (9, False, False, "gini"),
    (26, True, False, "ordinal"), (4, True, True, "ordinal")])
def test_tree_store_keeps_the_compact_arrays_and_walks_the_rows(k, missing, weighted,
                                                                 criterion):
    """Each array in compact_array's type and values, the rows' leaves those of
    Tree.apply, their classes the tree's yval there (the counts are whole unless weighted:
    then no classes, the caller reads yval)."""
    X, y = _data(400, 5, k, seed=k, missing=missing)
    w = np.random.default_rng(2).uniform(0.5, 2.0, 300) if weighted else None
    est = _whole_tree(X[:300], y[:300], k, criterion, w)
    tree = est.tree_
    rows = np.arange(250, 400)  # rows of X, some seen at fit and most not
    store = TreeStore(_fast.read_only(np.ascontiguousarray(X)), rows)
    kept = store.arrays(_grown(tree), est._loss_)
    for name in STORED:
        want = compact_array(getattr(tree, name)) if name not in (
            "missing_left", "missing_learned") else getattr(tree, name)
        assert kept[name].dtype == want.dtype, name
        np.testing.assert_array_equal(kept[name], want, err_msg=name)
    assert kept["left_categories"].shape == (tree.n_nodes,)
    assert all(c is None for c in kept["left_categories"])
    leaves = tree.apply(X[rows])
    np.testing.assert_array_equal(store.leaves, leaves)
    if weighted:
        assert store.classes is None
    else:
        np.testing.assert_array_equal(store.classes, tree.yval[leaves])
    # losses that are not whole numbers: no classes either
    half = TreeStore(_fast.read_only(np.ascontiguousarray(X)), rows)
    half.arrays(_grown(tree), est._loss_ + 0.5)
    assert half.classes is None
    np.testing.assert_array_equal(half.leaves, leaves)


def test_tree_store_classes_are_the_first_of_equal_risks():
    """A leaf of tied risks predicts the first class of least risk, as np.argmin of the
    node risks: here two leaves, each of two classes of equal counts (0/1 loss)."""
    X = np.array([[0.0], [0.0], [1.0], [1.0]])
    y = np.array([2, 1, 0, 3])
    est = OrdinalTreeClassifier(criterion="gini", leaf_rule="mode", min_split=2, cp=-1.0,
                                xval=0, classes=np.arange(4)).fit(X, y)
    tree = est.tree_
    store = TreeStore(_fast.read_only(X), np.arange(4))
    store.arrays(_grown(tree, spare=0), est._loss_)
    np.testing.assert_array_equal(store.classes, [1, 1, 0, 0])
    np.testing.assert_array_equal(store.classes, np.argmin(_risks(tree.value, est._loss_),
                                                           axis=1)[store.leaves])


@pytest.mark.parametrize("aggregation", ["median", "proba"])
def test_forest_out_of_bag_outputs_are_those_of_its_trees(aggregation):
    """The out-of-bag votes (or summed class probabilities) and the permutation importance's
    base predictions come from the leaves and classes found as each tree was made: the
    same as each fitted tree's predict and predict_proba on its out-of-bag rows."""
    X, y = _data(200, 4, 5, seed=3, missing=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        forest = OrdinalRandomForestClassifier(n_estimators=8, aggregation=aggregation,
                                               importance="mean_absolute",
                                               random_state=0).fit(X, y)
    total = np.zeros((200, 5))
    for est, sample in zip(forest.estimators_, forest.estimators_samples_):
        oob = np.setdiff1d(np.arange(200), sample)
        if aggregation == "proba":
            total[oob] += est.predict_proba(X[oob])
        else:
            total[oob, est.predict(X[oob])] += 1
    seen = forest.oob_n_estimators_ > 0
    np.testing.assert_allclose(forest.oob_decision_function_[seen],
                               total[seen] / forest.oob_n_estimators_[seen, None],
                               rtol=1e-14, atol=0)
    assert np.isfinite(forest.permutation_importances_).all()


def test_node_arrays_for_the_whole_tree_grow_the_trees_of_growing_arrays(monkeypatch):
    """A fully grown tree's node arrays made for its largest size at once (where small)
    hold the tree grown in arrays enlarged as it grows."""
    from ordstat.trees import _node_arrays

    X, y = _data(3000, 4, 6, seed=4)
    fits = []
    for most in (_node_arrays._WHOLE_TREE_BYTES, 0):
        monkeypatch.setattr(_node_arrays, "_WHOLE_TREE_BYTES", most)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fits.append(OrdinalRandomForestClassifier(n_estimators=2, random_state=5).fit(X, y))
    whole, grown = fits
    assert grown.estimators_[0].tree_.n_nodes > _node_arrays._FIRST_NODES  # it grew
    for a, b in zip(whole.estimators_, grown.estimators_):
        for name in STORED:
            np.testing.assert_array_equal(getattr(a.tree_, name), getattr(b.tree_, name),
                                          err_msg=name)
    np.testing.assert_array_equal(whole.oob_decision_function_, grown.oob_decision_function_)
