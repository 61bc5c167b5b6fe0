"""Missing predictor values (NaN) inside the ordinal tree: the side learned at fitting, the
majority rule for nodes that saw none, "missing" as a category, and the parts of the tree
(min_bucket, cp table, pruning, cross-validation, weights, max_features, importances) that must
keep working. Every node of random trees is checked against a naive splitter in
tests/trees/test_splitter.py."""

import numpy as np
import pandas as pd
import pytest

from ordstat.ensemble import (
    FixedSplitBaggingClassifier,
    OrdinalBaggingClassifier,
    OrdinalBoostingClassifier,
    OrdinalRandomForestClassifier,
)
from ordstat.trees import OrdinalTreeClassifier, criteria
from ordstat.trees._engine import forced
from ordstat.trees._splitter import Splitter

NAN = np.nan

# Six units; the two with a missing x are of class 0, as are x = 1, 2.
TOY_X = np.array([[1.0], [2.0], [3.0], [4.0], [NAN], [NAN]])
TOY_Y = np.array([0, 0, 1, 1, 0, 0])


@pytest.fixture(params=[True, False], ids=["compiled", "numpy"])
def path(request):
    with forced(numba=request.param):
        yield request.param


def _stump(X, y, **kw):
    params = dict(criterion="gini", min_split=2, min_bucket=1, xval=0, max_depth=1)
    params.update(kw)
    return OrdinalTreeClassifier(**params).fit(X, y)


def test_toy_best_split_only_found_by_sending_missing_left(path):
    # Gini on the count scale, N i(t) = N (1 - sum p^2): the root (4 of class 0, 2 of class 1)
    # has 6 (1 - 20/36) = 8/3. Missing values sent right, the cuts of x = 1..4 gain
    #   x < 1.5: L {0}       R {0, 1, 1, 0, 0}: 8/3 - 0 - 5 (1 - 13/25) = 4/15
    #   x < 2.5: L {0, 0}    R {1, 1, 0, 0}:    8/3 - 0 - 4 (1 - 1/2)   = 2/3
    #   x < 3.5: L {0, 0, 1} R {1, 0, 0}:       8/3 - 4/3 - 4/3         = 0
    # Sent left, x < 2.5 gives two pure children and gains all 8/3.
    t = _stump(TOY_X, TOY_Y).tree_
    assert t.feature[0] == 0 and t.threshold[0] == 2.5
    assert t.improvement[0] == pytest.approx(8 / 3)
    assert t.missing_learned[0] and t.missing_left[0]
    np.testing.assert_array_equal(t.n_node_samples, [6, 4, 2])
    est = _stump(TOY_X, TOY_Y)
    np.testing.assert_array_equal(est.predict(np.array([[NAN], [1.0], [3.0]])), [0, 0, 1])
    assert "x0< 2.5 or NA" in est.export_text()
    # the same units with missing values of class 1 send them right: x < 2.5 | x >= 2.5, NaN
    y = np.array([0, 0, 1, 1, 1, 1])
    t = _stump(TOY_X, y).tree_
    assert t.threshold[0] == 2.5 and t.improvement[0] == pytest.approx(6 * (1 - 20 / 36))
    assert t.missing_learned[0] and not t.missing_left[0]


def test_user_criterion_that_is_not_symmetric_in_the_children(path):
    # goodness = class-0 weight minus class-1 weight of the LEFT child: the best split sends
    # the two missing units (class 0) left with x < 2.5 (4), sending them right gives 2.
    def left_zeros(left, right):
        return left[:, 0] - left[:, 1]

    t = _stump(TOY_X, TOY_Y, criterion=left_zeros).tree_
    assert t.improvement[0] == pytest.approx(4.0)
    assert t.threshold[0] == 2.5 and t.missing_left[0]


@pytest.mark.parametrize("name", ["gini", "entropy", "ordinal", "twoing", "gini_linear",
                                  "gini_quadratic", "loss_linear", "loss_quadratic"])
def test_built_in_criteria_are_symmetric_in_the_children(name):
    # the compiled scans evaluate "missing left" on the mirrored feature with the children
    # swapped, which relies on this
    rng = np.random.default_rng(1)
    left = rng.integers(0, 6, size=(50, 4)).astype(float)
    right = rng.integers(0, 6, size=(50, 4)).astype(float)
    crit = criteria.CRITERIA[name]
    np.testing.assert_allclose(crit(left, right), crit(right, left), rtol=1e-12, atol=1e-12)


def test_nodes_without_missing_values_send_them_to_the_heavier_child(path):
    # fitted without NaN: x < 2.5 has 2 units, x >= 2.5 has 4; with weights 5, 5 | 1, 1, 1, 1
    # the left child is heavier
    X = np.array([[1.0], [2.0], [3.0], [4.0], [5.0], [6.0]])
    y = np.array([0, 0, 1, 1, 1, 1])
    t = _stump(X, y).tree_
    assert not t.missing_learned[0] and not t.missing_left[0]
    assert _stump(X, y).predict(np.array([[NAN]]))[0] == 1
    w = np.array([5.0, 5.0, 1.0, 1.0, 1.0, 1.0])
    est = OrdinalTreeClassifier(criterion="gini", min_split=2, min_bucket=1, xval=0,
                                max_depth=1).fit(X, y, sample_weight=w)
    assert est.tree_.threshold[0] == 2.5
    assert est.tree_.missing_left[0] and not est.tree_.missing_learned[0]
    assert est.predict(np.array([[NAN]]))[0] == 0
    assert "NA" not in est.export_text()  # printed as rpart prints it


def test_data_without_missing_values_grow_the_same_tree_as_before():
    # no mirrored rows are searched without NaN; a unit of zero weight is left out of the
    # tree, so adding one with missing values changes nothing
    rng = np.random.default_rng(3)
    X = rng.normal(size=(80, 3))
    y = np.digitize(X[:, 0] + 0.5 * rng.normal(size=80), [-0.5, 0.5])
    sp = Splitter(X, y, np.ones(80), 3, criteria.gini, min_bucket=1)
    assert sp.root()[0].order.shape[0] == 3
    a = OrdinalTreeClassifier(min_split=4, xval=0).fit(X, y).tree_
    Xn = np.vstack([X, [[NAN, NAN, NAN]]])
    b = OrdinalTreeClassifier(min_split=4, xval=0).fit(
        Xn, np.append(y, 0), sample_weight=np.append(np.ones(80), 0.0)).tree_
    for name in ("children_left", "feature", "threshold", "value", "improvement",
                 "missing_left", "missing_learned"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    assert not a.missing_learned.any()


def _nan_data(n=120, seed=0, rate=0.25):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.digitize(X[:, 0] + X[:, 1] + 0.5 * rng.normal(size=n), [-1.0, 0.0, 1.0])
    X[rng.random(X.shape) < rate] = NAN
    return X, y


def test_min_bucket_and_leaf_counts_with_missing_values(path):
    X, y = _nan_data()
    est = OrdinalTreeClassifier(min_split=10, min_bucket=4, cp=-1, xval=0).fit(X, y)
    t = est.tree_
    assert t.n_nodes > 3 and t.missing_learned.any()
    assert t.n_node_samples[t.children_left < 0].min() >= 4
    # every unit reaches exactly one leaf and the leaves' counts add up
    leaves = est.apply(X)
    np.testing.assert_array_equal(np.bincount(leaves, minlength=t.n_nodes)[t.children_left < 0],
                                  t.n_node_samples[t.children_left < 0])
    path_ = est.decision_path(X).toarray()
    assert (path_[np.arange(len(y)), leaves] == 1).all()


def test_integer_weights_equal_repeated_rows_with_missing_values():
    X, y = _nan_data(n=60, seed=4)
    w = np.random.default_rng(5).integers(1, 4, size=60)
    a = OrdinalTreeClassifier(min_split=2, min_bucket=1, cp=-1, xval=0).fit(
        X, y, sample_weight=w.astype(float)).tree_
    idx = np.repeat(np.arange(60), w)
    b = OrdinalTreeClassifier(min_split=2, min_bucket=1, cp=-1, xval=0).fit(X[idx], y[idx]).tree_
    # min_bucket counts units, so only the root's split is sure to be the same
    assert a.children_left[0] >= 0
    for name in ("feature", "threshold", "missing_left", "missing_learned", "improvement"):
        assert getattr(a, name)[0] == pytest.approx(getattr(b, name)[0]), name
    np.testing.assert_allclose(a.value[0], b.value[0])


def test_cp_table_pruning_cross_validation_and_importances_with_missing_values():
    X, y = _nan_data(n=200, seed=6)
    est = OrdinalTreeClassifier(min_split=8, cp=0.001, xval=5, prune="1se",
                                random_state=0).fit(X, y)
    table = est.cp_table_
    assert np.isfinite(table["xerror"]).all() and np.isfinite(table["xstd"]).all()
    assert table["rel_error"].is_monotonic_decreasing
    assert est.feature_importances_.sum() == pytest.approx(1.0)
    smaller = est.prune_tree(float(table["CP"].iloc[1]))
    assert smaller.tree_.n_nodes <= est.tree_.n_nodes
    # pruning keeps each remaining node's missing side
    full = est._full_tree
    kept = {int(k): i for i, k in enumerate(full.node_number)}
    for v in np.flatnonzero(smaller.tree_.children_left >= 0):
        u = kept[int(smaller.tree_.node_number[v])]
        assert smaller.tree_.missing_left[v] == full.missing_left[u]
    assert np.isin(est.predict(X), est.classes_).all()


def test_max_features_with_missing_values():
    X, y = _nan_data(n=100, seed=7)
    a = OrdinalTreeClassifier(max_features=1, cp=-1, min_split=4, xval=0, random_state=3)
    b = OrdinalTreeClassifier(max_features=1, cp=-1, min_split=4, xval=0, random_state=3)
    np.testing.assert_array_equal(a.fit(X, y).tree_.threshold, b.fit(X, y).tree_.threshold)
    assert a.tree_.n_nodes > 1


def test_best_first_growth_with_missing_values(path):
    X, y = _nan_data(n=150, seed=10)
    est = OrdinalTreeClassifier(max_leaf_nodes=5, cp=-1, min_split=4, xval=0).fit(X, y)
    level = OrdinalTreeClassifier(max_depth=1, cp=-1, min_split=4, xval=0).fit(X, y)
    assert est.tree_.n_leaves == 5
    # the root split does not depend on the order of growth
    for name in ("feature", "threshold", "missing_left", "missing_learned"):
        assert getattr(est.tree_, name)[0] == getattr(level.tree_, name)[0], name
    assert est.tree_.missing_learned.any()


def test_a_column_that_is_all_missing_is_never_split(path):
    X, y = _nan_data(n=80, seed=8, rate=0.1)
    X[:, 1] = NAN
    est = OrdinalTreeClassifier(min_split=2, min_bucket=1, cp=-1, xval=0).fit(X, y)
    assert 1 not in est.tree_.feature
    assert est.feature_importances_[1] == 0.0
    only = OrdinalTreeClassifier(xval=0).fit(np.full((20, 1), NAN), np.arange(20) % 2)
    assert only.tree_.n_nodes == 1


def test_infinite_values_are_still_an_error():
    X, y = _nan_data(n=40)
    X[0, 0] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        OrdinalTreeClassifier().fit(X, y)
    with pytest.raises(ValueError, match="infinity"):
        OrdinalRandomForestClassifier(n_estimators=2).fit(X, y)


def test_missing_is_a_category_of_its_own():
    # the missing category holds class 2 units: it is ordered after "a" (0) and "b" (1)
    g = pd.Categorical(["a"] * 6 + ["b"] * 6 + [None] * 6, categories=["a", "b", "c"])
    y = np.repeat([0, 1, 2], 6)
    X = pd.DataFrame({"g": g})
    est = OrdinalTreeClassifier(criterion="gini", min_split=2, min_bucket=1, xval=0).fit(X, y)
    t = est.tree_
    assert t.n_leaves == 3
    # categories ordered by mean class: a, b, missing (code 3, after the three categories);
    # the first of the two equally good cuts is {a} | {b, missing}
    np.testing.assert_array_equal(t.left_categories[0], [0])
    assert est.predict(pd.DataFrame({"g": pd.Categorical([None, "a", "b"],
                                                         categories=["a", "b", "c"])})
                       ).tolist() == [2, 0, 1]
    text = est.export_text()
    assert "g=NA" in text


def test_categorical_without_missing_values_at_fit_sends_them_by_majority():
    g = pd.Categorical(["a"] * 3 + ["b"] * 9, categories=["a", "b"])
    y = np.array([0] * 3 + [1] * 9)
    est = OrdinalTreeClassifier(criterion="gini", min_split=2, min_bucket=1, xval=0).fit(
        pd.DataFrame({"g": g}), y)
    new = pd.DataFrame({"g": pd.Categorical([None], categories=["a", "b"])})
    assert est.predict(new)[0] == 1  # "b", the heavier side


@pytest.mark.filterwarnings("ignore:.*in every bootstrap sample")
def test_bagging_and_forest_pass_missing_values_to_the_trees():
    X, y = _nan_data(n=100, seed=9)
    for cls in (OrdinalBaggingClassifier, OrdinalRandomForestClassifier):
        est = cls(n_estimators=10, random_state=0).fit(X, y)
        assert est.predict_proba(X).shape == (100, 4)
        assert np.isfinite(est.oob_error_)
    forest = OrdinalRandomForestClassifier(n_estimators=3, random_state=0, importance="gamma")
    assert np.isfinite(forest.fit(X, y).permutation_importance_).all()


@pytest.mark.parametrize("variant", ["ordinal_discrete", "ordinal_real", "fixed_split_discrete"])
def test_boosting_and_fixed_split_bagging_pass_missing_values_to_the_trees(variant):
    X, y = _nan_data(n=100, seed=11)
    est = OrdinalBoostingClassifier(variant=variant, n_estimators=5, random_state=0).fit(X, y)
    proba = est.predict_proba(X)
    assert proba.shape == (100, 4) and np.isfinite(proba).all()
    fixed = FixedSplitBaggingClassifier(n_estimators=3, random_state=0).fit(X, y)
    assert np.isin(fixed.predict(X), fixed.classes_).all()


def test_ensembles_of_a_base_estimator_without_missing_value_support_refuse_them():
    from sklearn.linear_model import LogisticRegression

    X, y = _nan_data(n=60, seed=12)
    with pytest.raises(ValueError, match="NaN"):
        OrdinalBaggingClassifier(estimator=LogisticRegression(), n_estimators=2).fit(X, y)
    with pytest.raises(ValueError, match="NaN"):
        OrdinalBoostingClassifier(estimator=LogisticRegression(), n_estimators=2).fit(X, y)
