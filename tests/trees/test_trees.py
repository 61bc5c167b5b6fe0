"""OrdinalTreeClassifier: the split search against a naive splitter, the reason for ordinal
splitting (Archer & Mas (2009), "Ordinal response prediction using bootstrap aggregation, with
application to a high-throughput methylation data set", section 7), pruning, weights,
categorical features and input errors."""

import importlib.util
import pickle
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

from ordstat.trees import OrdinalTreeClassifier, criteria
from ordstat.trees._prune import prune_tree


def naive_best_split(X, y, w, k, crit, min_bucket):
    """Every midpoint of every feature, counts by plain loops: (goodness, feature, threshold)."""
    best = (-np.inf, None, None)
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        for a, b in zip(values[:-1], values[1:]):
            thr = (a + b) / 2
            go = X[:, j] < thr
            if go.sum() < min_bucket or (~go).sum() < min_bucket:
                continue
            left = np.zeros(k)
            right = np.zeros(k)
            for yi, wi, g in zip(y, w, go):
                (left if g else right)[yi] += wi
            g = float(crit(left[None], right[None])[0])
            if g > best[0] + 1e-9:
                best = (g, j, thr)
    return best


@pytest.mark.parametrize("name", ["gini", "ordinal", "twoing", "gini_quadratic", "entropy"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_root_split_matches_naive_splitter(name, seed):
    rng = np.random.default_rng(seed)
    n, k = 40, 4
    X = np.round(rng.normal(size=(n, 3)), 1)  # rounding makes ties between values
    y = rng.integers(0, k, size=n)
    w = rng.uniform(0.5, 2.0, size=n)
    tree = OrdinalTreeClassifier(criterion=name, min_split=2, min_bucket=3, cp=-1, xval=0,
                                 max_depth=1).fit(X, y, sample_weight=w)
    g, j, thr = naive_best_split(X, y, w, k, criteria.CRITERIA[name], 3)
    t = tree.tree_
    assert t.improvement[0] == pytest.approx(g, rel=1e-9)
    assert t.feature[0] == j
    assert t.threshold[0] == pytest.approx(thr)


def test_children_counts_partition_the_parent():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 4))
    y = np.digitize(X[:, 0] + rng.normal(scale=0.7, size=300), [-1, 0, 1])
    t = OrdinalTreeClassifier(min_split=10, cp=0.0, xval=0).fit(X, y).tree_
    internal = np.flatnonzero(t.children_left >= 0)
    np.testing.assert_allclose(t.value[internal],
                               t.value[t.children_left[internal]]
                               + t.value[t.children_right[internal]])
    np.testing.assert_array_equal(t.n_node_samples[internal],
                                  t.n_node_samples[t.children_left[internal]]
                                  + t.n_node_samples[t.children_right[internal]])
    # preorder: a left child directly follows its parent; node numbers as rpart's
    np.testing.assert_array_equal(t.children_left[internal], internal + 1)
    np.testing.assert_array_equal(t.node_number[t.children_left[internal]],
                                  2 * t.node_number[internal])
    assert t.n_node_samples[t.is_leaf].min() == 3  # min_bucket = round(10 / 3)


def u_and_monotone_data():
    """Class sizes 8, 14, 8. x0 = class + small noise (monotone); x1 U-shaped: low for the
    middle class, high (classes 0 and 2 interleaved) for the extremes."""
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], [8, 14, 8])
    x0 = y + rng.uniform(0, 0.4, size=y.size)
    x1 = np.empty(y.size)
    x1[y == 1] = np.linspace(0, 0.9, 14)
    ext = np.flatnonzero(y != 1)
    interleave = np.concatenate([ext[y[ext] == 0], ext[y[ext] == 2]]).reshape(2, 8).T.ravel()
    x1[interleave] = 2 + np.arange(16) / 16
    return np.column_stack([x0, x1]), y


def test_gini_prefers_u_shape_and_ordinal_the_monotone_predictor():
    """Archer & Mas (2009), section 7: U-shaped predictors are used by Gini, not by i_OS.

    By hand (counts (8, 14, 8), N = 30):
      Gini, N i: parent 30 (1 - 324/900) = 19.2;
        U split {1} | {0, 2}: children (0,14,0) -> 0, (8,0,8) -> 16 * 1/2 = 8; goodness 11.2
        monotone {0} | {1, 2}: (8,0,0) -> 0, (0,14,8) -> 22 - 260/22; goodness 9.0182
      ordinal, N i = sum_g c_g (N - c_g) / N: parent 2 * 8 * 22 / 30 = 11.7333;
        U split: (0,14,0) -> 0, (8,0,8) -> 2 * 8 * 8 / 16 = 8; goodness 3.7333
        monotone: (8,0,0) -> 0, (0,14,8) -> 14 * 8 / 22 = 5.0909; goodness 6.6424
    """
    X, y = u_and_monotone_data()
    kw = dict(min_split=2, min_bucket=1, cp=-1, xval=0, max_depth=1)
    gini = OrdinalTreeClassifier(criterion="gini", **kw).fit(X, y).tree_
    ordinal = OrdinalTreeClassifier(criterion="ordinal", **kw).fit(X, y).tree_
    parent_os = 2 * 8 * 22 / 30  # 11.7333
    assert gini.feature[0] == 1 and gini.improvement[0] == pytest.approx(11.2)
    assert ordinal.feature[0] == 0
    assert ordinal.improvement[0] == pytest.approx(parent_os - 14 * 8 / 22)  # 6.6424
    # and the competitor of each, from the criterion functions on the hand-built children
    g, o = criteria.CRITERIA["gini"], criteria.CRITERIA["ordinal"]
    mono = (np.array([[8.0, 0, 0]]), np.array([[0.0, 14, 8]]))
    u = (np.array([[0.0, 14, 0]]), np.array([[8.0, 0, 8]]))
    assert g(*mono)[0] == pytest.approx(19.2 - (22 - 260 / 22))
    assert o(*u)[0] == pytest.approx(parent_os - 8)  # 3.7333
    assert gini.improvement[0] > g(*mono)[0] and ordinal.improvement[0] > o(*u)[0]


def test_generalized_gini_without_positive_decrease_does_not_split():
    X = np.array([[0.0]] * 4 + [[1.0]] * 4)
    y = np.array([0, 0, 2, 2, 1, 1, 1, 1])
    cost = np.array([[0, 1, 5], [1, 0, 1], [5, 1, 0]], dtype=float)
    kw = dict(min_split=2, min_bucket=1, cp=-1, xval=0)
    tree = OrdinalTreeClassifier(criterion=criteria.generalized_gini(cost), **kw).fit(X, y)
    assert tree.tree_.n_nodes == 1
    assert OrdinalTreeClassifier(criterion="gini", **kw).fit(X, y).tree_.n_nodes == 3


def test_integer_weights_equal_repeated_units():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(40, 3))
    y = rng.integers(0, 3, size=40)
    w = rng.integers(0, 4, size=40)
    kw = dict(min_split=2, min_bucket=1, cp=0.0, xval=0, criterion="ordinal")
    a = OrdinalTreeClassifier(**kw).fit(X, y, sample_weight=w).tree_
    b = OrdinalTreeClassifier(**kw).fit(np.repeat(X, w, axis=0), np.repeat(y, w)).tree_
    np.testing.assert_array_equal(a.feature, b.feature)
    np.testing.assert_allclose(a.threshold, b.threshold)
    np.testing.assert_allclose(a.value, b.value)


def five_class(n_per=40, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(5), n_per)
    z = rng.multivariate_normal([0, 0], [[4, 2], [2, 4]], size=y.size) + 2 * y[:, None]
    noise = np.column_stack([rng.uniform(size=(y.size, 3)), rng.normal(size=(y.size, 2))])
    return np.column_stack([z, noise]), y


def test_cp_table_is_a_nested_sequence_and_pruning_reproduces_it():
    X, y = five_class()
    est = OrdinalTreeClassifier(criterion="gini", min_split=10, cp=0.001, random_state=0)
    est.fit(X, y)
    tab = est.cp_table_
    assert list(tab.columns) == ["CP", "nsplit", "rel_error", "xerror", "xstd"]
    assert (np.diff(tab["CP"]) < 0).all()
    assert (np.diff(tab["nsplit"]) > 0).all() and tab["nsplit"].iloc[0] == 0
    assert (np.diff(tab["rel_error"]) < 0).all() and tab["rel_error"].iloc[0] == 1.0
    root_risk = est.tree_.risk[0]
    for cp, nsplit, rel in tab[["CP", "nsplit", "rel_error"]].itertuples(index=False):
        pruned = est.prune_tree(cp).tree_
        assert pruned.n_nodes == 2 * nsplit + 1
        assert pruned.risk[pruned.is_leaf].sum() / root_risk == pytest.approx(rel)
    # the table's last row is the fitted tree
    assert est.tree_.n_nodes == 2 * tab["nsplit"].iloc[-1] + 1


def test_prune_rules_choose_rows_of_the_table():
    X, y = five_class(seed=1)
    kw = dict(criterion="ordinal", min_split=10, cp=0.001, random_state=3)
    full = OrdinalTreeClassifier(**kw).fit(X, y)
    tab = full.cp_table_
    best = int(np.argmin(tab["xerror"]))
    one_se = int(np.flatnonzero(tab["xerror"] <= tab["xerror"].iloc[best]
                                + tab["xstd"].iloc[best])[0])
    m = OrdinalTreeClassifier(prune="min", **kw).fit(X, y)
    s = OrdinalTreeClassifier(prune="1se", **kw).fit(X, y)
    assert m.tree_.n_nodes == 2 * tab["nsplit"].iloc[best] + 1
    assert s.tree_.n_nodes == 2 * tab["nsplit"].iloc[one_se] + 1
    assert s.cp_ == tab["CP"].iloc[one_se]
    pd.testing.assert_frame_equal(m.cp_table_, tab)


def test_prune_to_k_leaves_takes_the_largest_subtree_of_the_sequence():
    """prune=k: the last row of the cp table with at most k leaves, without cross-validation
    (Tutz & Hechenbichler (2003), section 4.1: trees pruned to a fixed number of leaves)."""
    X, y = five_class(seed=2)
    kw = dict(criterion="entropy", max_depth=6, cp=0, xval=0)
    full = OrdinalTreeClassifier(**kw).fit(X, y)
    tab = full.cp_table_
    n_leaves = int(full.tree_.is_leaf.sum())
    assert n_leaves == tab["nsplit"].iloc[-1] + 1 and n_leaves > 6
    for k in range(1, n_leaves + 3):
        est = OrdinalTreeClassifier(prune=k, **kw).fit(X, y)
        leaves = int(est.tree_.is_leaf.sum())
        row = int(np.flatnonzero(tab["nsplit"] + 1 <= k)[-1])  # by hand: last row that fits
        assert leaves <= k and leaves == tab["nsplit"].iloc[row] + 1
        assert est.cp_ == tab["CP"].iloc[row]
        # the same tree as pruning the full tree at that cp, a node of the sequence
        same = full.prune_tree(est.cp_).tree_
        np.testing.assert_array_equal(est.tree_.children_left, same.children_left)
        np.testing.assert_array_equal(est.tree_.feature, same.feature)
        pd.testing.assert_frame_equal(est.cp_table_, tab)
        np.testing.assert_array_equal(est.predict(X), full.prune_tree(est.cp_).predict(X))
    root = OrdinalTreeClassifier(prune=1, **kw).fit(X, y)
    assert root.tree_.n_nodes == 1 and root.cp_ == tab["CP"].iloc[0]
    big = OrdinalTreeClassifier(prune=n_leaves, **kw).fit(X, y)
    np.testing.assert_array_equal(big.tree_.threshold, full.tree_.threshold)
    np.testing.assert_array_equal(big.tree_.children_left, full.tree_.children_left)


def test_prune_to_k_leaves_with_cross_validation_and_no_split():
    X, y = five_class(seed=3)
    est = OrdinalTreeClassifier(prune=3, cp=0.001, random_state=0).fit(X, y)
    assert "xerror" in est.cp_table_ and est.tree_.is_leaf.sum() <= 3
    flat = OrdinalTreeClassifier(prune=2, xval=0).fit(np.zeros((10, 2)), np.arange(10) % 2)
    assert flat.tree_.n_nodes == 1 and flat.cp_ == 0.01


def test_cross_validation_by_hand_on_a_stump():
    """xerror of the root row (cp above every split: each held-out unit gets the training
    mode) computed directly."""
    rng = np.random.default_rng(4)
    X = rng.normal(size=(60, 2))
    y = (X[:, 0] > 0).astype(int) + (X[:, 0] > 1)
    folds = np.arange(60) % 3
    est = OrdinalTreeClassifier(criterion="gini", min_split=2, xval=folds).fit(X, y)
    errors = []
    for f in range(3):
        train = folds != f
        counts = np.bincount(y[train], minlength=3)
        mode = int(np.argmax(counts))
        errors.extend(y[~train] != mode)
    errors = np.array(errors, dtype=float)
    root_risk = est.tree_.risk[0]
    assert est.cp_table_["xerror"].iloc[0] == pytest.approx(errors.sum() / root_risk)
    sd = np.sqrt(errors.sum() - errors.sum() ** 2 / 60)
    assert est.cp_table_["xstd"].iloc[0] == pytest.approx(sd / root_risk)


def test_same_seed_same_tree_and_table():
    X, y = five_class(seed=2)
    kw = dict(max_features=2, random_state=7, min_split=5)
    a = OrdinalTreeClassifier(**kw).fit(X, y)
    b = OrdinalTreeClassifier(**kw).fit(X, y)
    pd.testing.assert_frame_equal(a.cp_table_, b.cp_table_)
    np.testing.assert_array_equal(a.tree_.feature, b.tree_.feature)
    c = OrdinalTreeClassifier(max_features=2, random_state=8, min_split=5).fit(X, y)
    assert not (c.tree_.n_nodes == a.tree_.n_nodes
                and np.array_equal(c.tree_.feature, a.tree_.feature))


def test_max_leaf_nodes_gives_that_many_leaves():
    X, y = five_class(seed=3)
    for m in (2, 4, 9):
        t = OrdinalTreeClassifier(max_leaf_nodes=m, cp=-1, min_split=2, xval=0).fit(X, y)
        assert t.tree_.n_leaves == m
    # best first: the stump is the root split of the unrestricted tree
    stump = OrdinalTreeClassifier(max_leaf_nodes=2, cp=-1, xval=0).fit(X, y).tree_
    full = OrdinalTreeClassifier(cp=-1, xval=0).fit(X, y).tree_
    assert stump.feature[0] == full.feature[0] and stump.threshold[0] == full.threshold[0]


def test_predict_apply_decision_path_are_consistent():
    X, y = five_class(seed=4)
    est = OrdinalTreeClassifier(min_split=8, cp=0.005, xval=0).fit(X, y)
    leaves = est.apply(X)
    assert est.tree_.is_leaf[leaves].all()
    proba = est.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    value = est.tree_.value[leaves]
    np.testing.assert_allclose(proba, value / value.sum(axis=1, keepdims=True))
    np.testing.assert_array_equal(est.predict(X), est.classes_[np.argmax(proba, axis=1)])
    path = est.decision_path(X).toarray()
    assert (path[np.arange(len(X)), leaves] == 1).all() and (path[:, 0] == 1).all()
    np.testing.assert_array_equal(path.sum(axis=1), est.tree_.depth[leaves] + 1)
    # training units reach the leaf whose counts they were counted in
    counts = np.zeros_like(est.tree_.value)
    np.add.at(counts, (leaves, y), 1.0)
    np.testing.assert_allclose(counts[est.tree_.is_leaf], est.tree_.value[est.tree_.is_leaf])


def test_leaf_rules():
    X = np.zeros((7, 1))
    X[4:, 0] = 1.0
    y = np.array([0, 2, 2, 0, 0, 0, 0])  # a pure-ish right node; left node counts (2, 0, 2)
    kw = dict(min_split=2, min_bucket=1, cp=-1, xval=0, max_depth=0 + 1)
    mode = OrdinalTreeClassifier(leaf_rule="mode", classes=[0, 1, 2], **kw).fit(X[:4], y[:4])
    med = OrdinalTreeClassifier(leaf_rule="median", classes=[0, 1, 2], **kw).fit(X[:4], y[:4])
    # a single node with counts (2, 0, 2): mode ties -> lowest class; the median minimises
    # sum |g - h| n_g: predicting 0 or 1 or 2 all cost 4, first wins.
    assert mode.tree_.yval[0] == 0 and mode.tree_.risk[0] == 2
    assert med.tree_.risk[0] == 4
    y2 = np.array([0, 1, 2, 2])
    med2 = OrdinalTreeClassifier(leaf_rule="median", classes=[0, 1, 2], **kw).fit(X[:4], y2)
    # counts (1, 1, 2): predicting 0 costs 0 + 1 + 4 = 5, 1 costs 1 + 0 + 2 = 3, 2 costs
    # 2 + 1 + 0 = 3; the lowest minimiser wins
    assert med2.tree_.yval[0] == 1 and med2.tree_.risk[0] == 3
    cost = np.array([[0, 1, 9], [1, 0, 1], [9, 1, 0]], dtype=float)
    c = OrdinalTreeClassifier(criterion=criteria.generalized_gini(cost), leaf_rule="cost",
                              classes=[0, 1, 2], **kw).fit(X[:4], y[:4])
    # counts (2, 0, 2): predicting the middle class costs 2 + 2 = 4 < 18
    assert c.tree_.yval[0] == 1 and c.tree_.risk[0] == 4
    assert c.predict(X[:1])[0] == 1


def test_categorical_feature_split_equals_best_subset_for_two_classes():
    rng = np.random.default_rng(6)
    cats = list("abcdef")
    x = rng.choice(cats, size=120)
    rate = dict(zip(cats, [0.1, 0.8, 0.3, 0.9, 0.5, 0.2]))
    y = (rng.uniform(size=120) < np.vectorize(rate.get)(x)).astype(int)
    X = pd.DataFrame({"c": pd.Categorical(x, categories=cats), "z": rng.normal(size=120)})
    est = OrdinalTreeClassifier(criterion="gini", min_split=2, min_bucket=1, cp=-1, xval=0,
                                max_depth=1).fit(X, y)
    t = est.tree_
    assert t.feature[0] == 0 and np.isnan(t.threshold[0])
    # exhaustive search over all subsets of categories
    best = -np.inf
    codes = X["c"].cat.codes.to_numpy()
    for mask in range(1, 2 ** 6 - 1):
        left_set = [c for c in range(6) if mask >> c & 1]
        go = np.isin(codes, left_set)
        lc = np.bincount(y[go], minlength=2)[None].astype(float)
        rc = np.bincount(y[~go], minlength=2)[None].astype(float)
        best = max(best, criteria.CRITERIA["gini"](lc, rc)[0])
    assert t.improvement[0] == pytest.approx(best)
    left = set(t.left_categories[0].tolist())
    np.testing.assert_array_equal(est.apply(X) == t.children_left[0], np.isin(codes, list(left)))
    assert "c=" in est.export_text()
    with pytest.raises(ValueError, match="not seen when fitting"):
        est.predict(X.assign(c=pd.Categorical(["zz"] * 120)))


def test_ordered_categorical_is_split_like_a_number():
    rng = np.random.default_rng(8)
    levels = ["low", "mid", "high", "top"]
    x = pd.Categorical(rng.choice(levels, size=80), categories=levels, ordered=True)
    y = np.asarray(x.codes) // 2
    X = pd.DataFrame({"g": x})
    est = OrdinalTreeClassifier(min_split=2, xval=0).fit(X, y)
    assert est.tree_.threshold[0] == 1.5 and est.categories_ == {}


def test_export_text_layout():
    X, y = u_and_monotone_data()
    est = OrdinalTreeClassifier(criterion="gini", min_split=2, xval=0, classes=[0, 1, 2])
    text = est.fit(pd.DataFrame(X, columns=["mono", "ushape"]), y).export_text()
    lines = text.splitlines()
    assert lines[2] == "node), split, n, loss, yval, (yprob)"
    body = lines[5:]
    assert len(body) == est.tree_.n_nodes
    assert body[0].startswith("1) root 30 16 1 (")
    assert body[1].strip().startswith("2) ushape< ")
    assert sum(line.endswith("*") for line in body) == est.tree_.n_leaves


def test_pickles_small():
    X, y = five_class(seed=5)
    est = OrdinalTreeClassifier(xval=0).fit(X, y)
    assert len(pickle.dumps(est)) < 50_000
    again = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(again.predict(X), est.predict(X))


def test_feature_importances_sum_improvements():
    X, y = five_class(seed=6)
    est = OrdinalTreeClassifier(xval=0, cp=0.001).fit(X, y)
    t = est.tree_
    imp = np.zeros(X.shape[1])
    for f, g in zip(t.feature, t.improvement):
        if f >= 0:
            imp[f] += g
    np.testing.assert_allclose(est.variable_importance_, imp)
    np.testing.assert_allclose(est.feature_importances_, imp / imp.sum())


@pytest.mark.parametrize("params,err,match", [
    (dict(criterion="nope"), ValueError, "criterion must be one of"),
    (dict(min_split=0), ValueError, "min_split"),
    (dict(min_split=2.5), TypeError, "min_split"),
    (dict(min_bucket=0), ValueError, "min_bucket"),
    (dict(cp="x"), TypeError, "cp"),
    (dict(cp=np.nan), ValueError, "'cp' parameter"),
    (dict(cp=np.inf), ValueError, "'cp' parameter"),
    (dict(criterion=3), TypeError, "'criterion' parameter"),
    (dict(xval=np.zeros((2, 2))), ValueError, "1-D vector of fold ids"),
    (dict(max_depth=0), ValueError, "max_depth"),
    (dict(max_depth=61), ValueError, "max_depth"),
    (dict(max_leaf_nodes=1), ValueError, "max_leaf_nodes"),
    (dict(max_features=0), ValueError, "max_features"),
    (dict(max_features=1.5), ValueError, "max_features"),
    (dict(max_features="half"), ValueError, "max_features"),
    (dict(max_features=[1]), TypeError, "max_features"),
    (dict(xval=-1), ValueError, "xval"),
    (dict(xval=2.5), TypeError, "xval"),
    (dict(xval=[0, 1]), ValueError, "xval"),
    (dict(prune="max"), ValueError, "prune"),
    (dict(prune="min", xval=0), ValueError, "xval"),
    (dict(prune=0), ValueError, "prune"),
    (dict(prune=-2), ValueError, "prune"),
    (dict(prune=2.5), ValueError, "prune"),
    (dict(prune=True), TypeError, "prune"),
    (dict(leaf_rule="mean"), ValueError, "leaf_rule"),
    (dict(leaf_rule="cost"), ValueError, "leaf_rule='cost'"),
    (dict(random_state="seed"), TypeError, "random_state"),
])
def test_bad_parameters_name_the_argument(params, err, match):
    X, y = five_class(n_per=6)
    with pytest.raises(err, match=match):
        OrdinalTreeClassifier(**params).fit(X, y)


def test_every_parameter_is_declared_and_checked_before_the_data():
    """Each constructor parameter has its constraint; the checks those cannot express (two
    parameters together, a vector's shape) come before the data is read (here, an inf)."""
    assert set(OrdinalTreeClassifier._parameter_constraints) == \
        set(OrdinalTreeClassifier().get_params())
    X, y = np.array([[np.inf], [0.0], [1.0]]), np.array([0, 1, 1])
    for params, match in ((dict(leaf_rule="cost"), "leaf_rule='cost'"),
                          (dict(prune="min", xval=0), "xval"),
                          (dict(xval=np.zeros((3, 2))), "1-D vector of fold ids"),
                          (dict(criterion="nope"), "criterion must be one of")):
        with pytest.raises(ValueError, match=match):
            OrdinalTreeClassifier(**params).fit(X, y)


def test_bad_inputs():
    X, y = five_class(n_per=6)
    Xn = X.copy()
    Xn[0, 0] = np.inf  # missing values are supported (tests/trees/test_missing.py), inf not
    with pytest.raises(ValueError, match="infinity"):
        OrdinalTreeClassifier().fit(Xn, y)
    est = OrdinalTreeClassifier(xval=0).fit(X, y)
    with pytest.raises(ValueError, match="infinity"):
        est.predict(Xn)
    with pytest.raises(ValueError, match="features"):
        est.predict(X[:, :2])

    def bad_shape(left, right):
        return np.zeros(3)

    def nan_goodness(left, right):
        return np.full(left.shape[0], np.nan)

    with pytest.raises(ValueError, match="shape"):
        OrdinalTreeClassifier(criterion=bad_shape, xval=0).fit(X, y)
    with pytest.raises(ValueError, match="NaN"):
        OrdinalTreeClassifier(criterion=nan_goodness, xval=0).fit(X, y)


def test_prune_tree_validates_and_keeps_the_original():
    X, y = five_class(seed=7)
    est = OrdinalTreeClassifier(cp=0.001, xval=0).fit(X, y)
    n = est.tree_.n_nodes
    small = est.prune_tree(0.05)
    assert small.tree_.n_nodes < n and est.tree_.n_nodes == n
    with pytest.raises(TypeError, match="cp"):
        est.prune_tree("big")
    pruned = prune_tree(est.tree_, np.inf)
    assert pruned.n_nodes == 1


def test_no_split_possible_gives_a_root_and_a_one_row_table():
    X = np.zeros((10, 2))
    y = np.arange(10) % 2
    est = OrdinalTreeClassifier(random_state=0).fit(X, y)
    assert est.tree_.n_nodes == 1 and len(est.cp_table_) == 1
    assert list(est.cp_table_.columns) == ["CP", "nsplit", "rel_error"]  # rpart: no xval
    assert np.isfinite(est.cp_table_.to_numpy()).all()
    pruned = OrdinalTreeClassifier(prune="1se", random_state=0).fit(X, y)
    assert pruned.tree_.n_nodes == 1
    np.testing.assert_allclose(est.predict_proba(X), 0.5)


def require_kernels():
    """The compiled path must load wherever numba is installed: a broken kernel is a failure,
    not a skip."""
    from ordstat.trees import _fast

    if importlib.util.find_spec("numba") is None:
        pytest.skip("numba is not installed: only the numpy path exists")
    assert _fast.kernels() is not None, "numba is installed but the tree kernels did not load"


def test_numba_missing_falls_back_to_numpy_with_a_warning(monkeypatch):
    from ordstat.trees import _fast

    X, y = five_class(n_per=10)
    kw = dict(xval=0, min_split=2, cp=-1.0)  # cp < 0: the complexities bottom up
    fast = OrdinalTreeClassifier(**kw).fit(X, y).tree_
    monkeypatch.setitem(sys.modules, "numba", None)  # makes "import numba" an ImportError
    monkeypatch.setattr(_fast, "_KERNELS", None)
    monkeypatch.setattr(_fast, "_COMPILED", {})  # the plain loops of pass 2, in Python
    with pytest.warns(RuntimeWarning, match="numba could not be imported"):
        assert _fast.kernels() is None
    assert _fast.level_search(criteria.gini) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # warned once, then the numpy path is used silently
        slow = OrdinalTreeClassifier(**kw).fit(X, y).tree_
    assert slow.n_nodes > 10
    for name in ("children_left", "feature", "threshold", "complexity", "risk"):
        np.testing.assert_array_equal(getattr(slow, name), getattr(fast, name), name)


@pytest.mark.parametrize("name", ["gini", "ordinal", "twoing", "gini_linear", "entropy"])
def test_compiled_and_numpy_paths_grow_the_same_tree(name):
    from ordstat.trees._engine import forced

    require_kernels()
    X, y = five_class(seed=8)
    X[:, 2] = np.round(X[:, 2], 1)  # ties
    # integer weights: cumulative sums are exact in both paths (with fractional weights the
    # paths round differently and may break exact ties between features differently)
    w = np.random.default_rng(0).integers(1, 4, size=len(y)).astype(float)
    kw = dict(criterion=name, min_split=6, cp=0.0, xval=0)
    fast = OrdinalTreeClassifier(**kw).fit(X, y, sample_weight=w).tree_
    best_first = OrdinalTreeClassifier(max_leaf_nodes=12, **kw).fit(X, y).tree_
    with forced(numba=False):
        slow = OrdinalTreeClassifier(**kw).fit(X, y, sample_weight=w).tree_
        best_first_slow = OrdinalTreeClassifier(max_leaf_nodes=12, **kw).fit(X, y).tree_
    for a, b in ((fast, slow), (best_first, best_first_slow)):
        if name == "entropy":
            # logarithms are not exact: the running sums of the compiled scan and the direct
            # sums of numpy may order two exactly tied candidates differently. Up to the first
            # difference (preorder) the trees agree, and there the two splits tie.
            k = min(a.n_nodes, b.n_nodes)
            same = (a.feature[:k] == b.feature[:k]) & (
                (a.threshold[:k] == b.threshold[:k]) | np.isnan(a.threshold[:k]))
            if not same.all():
                first = int(np.argmin(same))
                assert a.improvement[first] == pytest.approx(b.improvement[first], rel=1e-9)
                a = a.pruned(np.arange(a.n_nodes) < first)
                b = b.pruned(np.arange(b.n_nodes) < first)
        np.testing.assert_array_equal(a.feature, b.feature)
        np.testing.assert_array_equal(a.threshold, b.threshold)
        np.testing.assert_allclose(a.improvement, b.improvement, rtol=1e-10)
        np.testing.assert_allclose(a.value, b.value, rtol=1e-12)


def test_category_absent_at_fit_follows_the_heavier_child():
    cats = ["a", "b", "c", "z"]
    x = pd.Categorical(["a"] * 30 + ["b"] * 10 + ["c"] * 10, categories=cats)
    y = np.array([0] * 30 + [1] * 10 + [2] * 10)
    X = pd.DataFrame({"g": x})
    est = OrdinalTreeClassifier(min_split=2, xval=0, max_depth=1).fit(X, y)
    t = est.tree_
    left = set(t.left_categories[0].tolist())
    heavier_left = t.weighted_n_node_samples[t.children_left[0]] >= \
        t.weighted_n_node_samples[t.children_right[0]]
    assert (3 in left) == heavier_left  # "z" (code 3) was never seen
    new = pd.DataFrame({"g": pd.Categorical(["z"], categories=cats)})
    expected = t.children_left[0] if heavier_left else t.children_right[0]
    assert est.apply(new)[0] == expected


def test_deviance_is_an_alias_of_entropy_choosing_the_same_splits():
    """The deviance D(t) = -2 sum_g n_g log(n_g / n_t) of Tutz & Hechenbichler's (2003) trees:
    its decrease D(t) - D(left) - D(right), computed here by hand, is twice the entropy
    goodness, so both pick the same split everywhere."""
    rng = np.random.default_rng(11)
    left = rng.uniform(0, 5, size=(50, 4)) * (rng.uniform(size=(50, 4)) > 0.2)
    right = rng.uniform(0, 5, size=(50, 4)) * (rng.uniform(size=(50, 4)) > 0.2)

    def deviance(counts):
        n = counts.sum(axis=1, keepdims=True)
        p = np.divide(counts, n, out=np.ones_like(counts), where=counts > 0)
        return -2.0 * (counts * np.log(p)).sum(axis=1)

    decrease = deviance(left + right) - deviance(left) - deviance(right)
    np.testing.assert_allclose(decrease, 2.0 * criteria.CRITERIA["entropy"](left, right),
                               rtol=1e-10, atol=1e-10)
    assert criteria.get_criterion("Deviance") is criteria.CRITERIA["entropy"]
    X, y = five_class(seed=4)
    a = OrdinalTreeClassifier(criterion="deviance", max_depth=5, cp=0, xval=0).fit(X, y)
    b = OrdinalTreeClassifier(criterion="entropy", max_depth=5, cp=0, xval=0).fit(X, y)
    np.testing.assert_array_equal(a.tree_.feature, b.tree_.feature)
    np.testing.assert_array_equal(a.tree_.threshold, b.tree_.threshold)


def test_cp_table_is_made_when_first_read_and_kept_through_pickling():
    from ordstat.trees._prune import cp_sequence, cp_table

    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 3))
    y = np.digitize(X[:, 0] + rng.normal(size=120), [-1.0, 0.0, 1.0])
    assert not hasattr(OrdinalTreeClassifier(), "cp_table_")
    est = OrdinalTreeClassifier(cp=0.001, xval=0).fit(X, y)
    full = est._full_tree
    expected = cp_table(*cp_sequence(full, est.cp * full.risk[0]), full.risk[0])
    assert "_cp_table" not in est.__dict__  # not made by the fit
    back = pickle.loads(pickle.dumps(est))
    pd.testing.assert_frame_equal(est.cp_table_, expected)
    pd.testing.assert_frame_equal(back.cp_table_, expected)
    # a table set by hand is the one read (ordstat.r cuts the table of a pruned copy)
    est.cp_table_ = expected.iloc[:2]
    assert len(est.cp_table_) == 2
    # a pickle of an estimator that held its table as an attribute reads it back
    state = back.__getstate__()
    state["cp_table_"] = state.pop("_cp_table")
    old = OrdinalTreeClassifier.__new__(OrdinalTreeClassifier)
    old.__setstate__(state)
    pd.testing.assert_frame_equal(old.cp_table_, expected)


@pytest.mark.parametrize("whole", [True, False])
def test_risks_of_whole_counts_are_those_of_the_loop(whole):
    """With whole counts and losses the risks come from the compiled product over the nonzero
    counts; they must be the loop's numbers exactly (and are the loop's own otherwise)."""
    from ordstat.trees import _fast
    from ordstat.trees._tree import WHOLE_RISKS_K, _risks, _whole_risks

    assert WHOLE_RISKS_K <= 9  # K = 9 and 26 below take the compiled product

    rng = np.random.default_rng(1)
    for k in (2, 5, 9, 26):
        counts = rng.integers(0, 40, size=(300, k)) * (rng.random((300, k)) < 0.4)
        counts = counts.astype(np.float64) + (0.0 if whole else rng.random((300, k)) / 7)
        for loss in (np.abs(np.subtract.outer(np.arange(k), np.arange(k))).astype(float),
                     np.subtract.outer(np.arange(k), np.arange(k)) ** 2.0,
                     1.0 - np.eye(k)):
            loop = np.empty((300, k))
            for h in range(k):
                loop[:, h] = np.sum(counts * loss[h], axis=1)
            taken, product = _fast.compiled(_whole_risks)(counts, loss, float(loss.max()))
            assert taken == whole
            if whole:
                np.testing.assert_array_equal(product, loop)
            np.testing.assert_array_equal(_risks(counts, loss), loop)
    assert not _whole_risks(np.full((1, 2), 2.0 ** 51), np.ones((2, 2)), 1.0)[0]
    assert not _whole_risks(np.array([[1.0, -1.0]]), np.ones((2, 2)), 1.0)[0]
    counts, loss = np.array([[1.0, 2.0]]), np.array([[0.0, 0.5], [0.5, 0.0]])
    np.testing.assert_array_equal(_risks(counts, loss), [[1.0, 0.5]])


def _partition_by_recursion(left, right, risk, alpha):
    """rpart's partition written as rpart's recursion (the reference of the compiled one)."""
    from ordstat.trees._tree import _complexity

    left, right, cx = list(left), list(right), [0.0] * len(left)

    def part(node, bound):
        r = risk[node]
        tempcp = min(r, bound)
        if left[node] < 0 or tempcp <= alpha:
            left[node] = right[node] = -1
            cx[node] = alpha
            return 0, r
        lv, rv = left[node], right[node]
        ls, lr = part(lv, tempcp - alpha)
        t = min(max((r - lr) / (ls + 1), r - risk[lv]), bound)
        rs, rr = part(rv, t - alpha)
        cx[node], ls, lr, rs, rr = _complexity(r, risk[lv], risk[rv], cx[lv], cx[rv], ls, lr,
                                               rs, rr)
        if cx[node] <= alpha:
            left[node] = right[node] = -1
            return 0, r
        return ls + rs + 1, lr + rr

    part(0, risk[0])
    return left, right, cx


def _random_tree(rng, n_splits):
    """Children arrays (parents before children) and node risks that a split never raises."""
    left, right, risk = [-1], [-1], [float(rng.integers(50, 200))]
    for _ in range(n_splits):
        leaves = [v for v in range(len(left)) if left[v] < 0 and risk[v] > 0]
        if not leaves:
            break
        v = leaves[rng.integers(len(leaves))]
        kept = risk[v] * rng.uniform(0.3, 1.0)
        share = rng.uniform(0.1, 0.9)
        left[v], right[v] = len(left), len(left) + 1
        left += [-1, -1]
        right += [-1, -1]
        risk += [np.floor(kept * share), np.floor(kept * (1 - share))]
    return np.array(left), np.array(right), np.array(risk)


def test_compiled_partition_is_rparts_recursion():
    """The compiled partition (a stack of frames) gives the complexities and collapses of
    rpart's recursion, over random trees and complexity bounds alpha."""
    from ordstat.trees import _fast
    from ordstat.trees._node_arrays import _partition_nodes
    from ordstat.trees._tree import _complexity

    partition = _fast.compiled(_partition_nodes, _complexity)
    rng = np.random.default_rng(9)
    collapsed = 0
    for _ in range(200):
        left, right, risk = _random_tree(rng, int(rng.integers(0, 25)))
        for alpha in (0.0, float(rng.uniform(0, 10)), float(rng.uniform(0, 40))):
            want_left, want_right, want_cx = _partition_by_recursion(left, right, risk, alpha)
            got_left, got_right, cx = left.copy(), right.copy(), np.zeros(left.size)
            partition(got_left, got_right, risk, cx, alpha)
            assert got_left.tolist() == want_left and got_right.tolist() == want_right
            assert cx.tolist() == want_cx
            collapsed += int(np.sum((got_left < 0) & (left >= 0)))
    assert collapsed > 0  # the bounds collapsed some splits
