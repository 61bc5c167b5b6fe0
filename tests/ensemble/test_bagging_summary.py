"""The bagged ensembles' summaries (out-of-bag errors by class, importances), the bagged trees'
feature_importances_ and the cumulative vote shares that go with the median vote, against
recomputations from the trees themselves."""

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression

from ordstat.ensemble import (FixedSplitBaggingClassifier, OrdinalBaggingClassifier,
                              OrdinalRandomForestClassifier)
from ordstat.ensemble._bagging import mean_split_importance
from ordstat.ensemble._common import ConstantClassifier, base_predict
from ordstat.ensemble._summary import oob_confusion


def _data(n=90, k=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.digitize(X[:, 0] + 0.5 * X[:, 1] + 0.6 * rng.normal(size=n),
                    np.linspace(-1.2, 1.2, k - 1))
    return X, y


def _oob_votes(ensemble, X, k):
    """The out-of-bag votes recomputed from the bootstrap samples and the trees."""
    n = X.shape[0]
    votes = np.zeros((n, k))
    for tree, sample in zip(ensemble.estimators_, ensemble.estimators_samples_):
        oob = np.setdiff1d(np.arange(n), sample)
        votes[oob, base_predict(tree, X[oob])] += 1
    return votes


# -- out-of-bag errors by class -------------------------------------------------------------------
def test_oob_confusion_by_hand():
    codes = np.array([0, 0, 1, 2, 2, 2])
    prediction = np.array([0, 1, -1, 2, 1, 0])  # unit 2 never out of bag: left out
    assert oob_confusion(codes, prediction, 3).tolist() == [[1, 1, 0], [0, 0, 0], [1, 1, 1]]


def test_summary_oob_by_class_is_recomputed_from_the_trees():
    X, y = _data()
    labels = np.array(["low", "mid", "high", "top"])[y]  # not in alphabetical order
    bag = OrdinalBaggingClassifier(n_estimators=7, random_state=3,
                                   classes=["low", "mid", "high", "top"]).fit(X, labels)
    votes = _oob_votes(bag, X, 4)
    seen = votes.sum(axis=1) > 0
    pred = np.argmax(votes, axis=1)  # plurality vote, ties to the lower class
    summary = bag.summary()
    by_class = summary["out-of-bag by class"]
    confusion = summary["out-of-bag confusion"]
    assert list(by_class.index) == ["low", "mid", "high", "top"]
    assert list(confusion.index) == list(confusion.columns) == ["low", "mid", "high", "top"]
    for k, label in enumerate(["low", "mid", "high", "top"]):
        mine = seen & (y == k)
        assert by_class.loc[label, "n_oob"] == mine.sum()
        assert by_class.loc[label, "error"] == pytest.approx(np.mean(pred[mine] != k))
        assert by_class.loc[label, "mean_absolute"] == pytest.approx(
            np.mean(np.abs(pred[mine] - k)))
        for j, other in enumerate(["low", "mid", "high", "top"]):
            assert confusion.loc[label, other] == np.sum(pred[mine] == j)
    # the classes' errors weighted by their sizes give the ensemble's error
    assert np.sum(by_class["error"] * by_class["n_oob"]) / by_class["n_oob"].sum() \
        == pytest.approx(bag.oob_error_)
    assert "out-of-bag by class" in str(summary) and "out-of-bag confusion" in str(summary)


def test_forest_median_oob_by_class_uses_the_median_vote():
    X, y = _data(n=70, k=3, seed=2)
    forest = OrdinalRandomForestClassifier(n_estimators=6, random_state=0).fit(X, y)
    votes = _oob_votes(forest, X, 3)
    seen = votes.sum(axis=1) > 0
    cumulative = np.cumsum(votes[seen], axis=1) / votes[seen].sum(axis=1, keepdims=True)
    median = np.argmax(cumulative >= 0.5, axis=1)
    expected = np.zeros((3, 3), dtype=int)
    np.add.at(expected, (y[seen], median), 1)
    np.testing.assert_array_equal(forest.oob_confusion_, expected)
    by_class = forest.summary()["out-of-bag by class"]
    np.testing.assert_allclose(by_class["error"], 1 - np.diag(expected) / expected.sum(axis=1))


def test_a_class_never_out_of_bag_gets_nan():
    X, y = _data(n=40, k=3, seed=1)
    bag = OrdinalBaggingClassifier(n_estimators=5, random_state=0).fit(X, y)
    bag.oob_confusion_ = bag.oob_confusion_.copy()
    bag.oob_confusion_[1] = 0  # as if no unit of the middle class were ever out of bag
    row = bag.summary()["out-of-bag by class"].loc["1"]
    assert row["n_oob"] == 0 and np.isnan(row["error"]) and np.isnan(row["mean_absolute"])


def test_no_oob_tables_without_oob_score():
    X, y = _data(n=50, k=3)
    bag = OrdinalBaggingClassifier(n_estimators=3, oob_score=False, random_state=0).fit(X, y)
    tables = bag.summary().tables
    assert "out-of-bag by class" not in tables and "out-of-bag confusion" not in tables
    assert not hasattr(bag, "oob_confusion_")


# -- importances ----------------------------------------------------------------------------------
def test_bagging_feature_importances_are_the_mean_of_the_trees():
    X, y = _data()
    bag = OrdinalBaggingClassifier(n_estimators=6, random_state=0).fit(X, y)
    per_tree = np.array([t.feature_importances_ for t in bag.estimators_])
    np.testing.assert_allclose(per_tree.sum(axis=1), 1.0)  # each tree normalised
    np.testing.assert_allclose(bag.feature_importances_, per_tree.mean(axis=0))
    assert bag.feature_importances_.sum() == pytest.approx(1.0)
    # the one definition the forest uses
    np.testing.assert_array_equal(bag.feature_importances_,
                                  mean_split_importance(bag.estimators_, 3))
    table = bag.summary()["importance"]
    assert list(table.columns) == ["split"] and table["split"].is_monotonic_decreasing
    for j in range(3):
        assert table.loc[f"x{j}", "split"] == bag.feature_importances_[j]


def test_forest_and_bagging_agree_on_the_same_trees():
    """A forest drawing every feature grows the bagged trees of the same seed (same bootstrap
    samples): both ensembles then report the same importances."""
    X, y = _data(n=60, k=3, seed=4)
    tree = OrdinalRandomForestClassifier()._template().set_params(max_features=None)
    bag = OrdinalBaggingClassifier(estimator=tree, n_estimators=5, random_state=2).fit(X, y)
    forest = OrdinalRandomForestClassifier(n_estimators=5, max_features=None,
                                           random_state=2).fit(X, y)
    np.testing.assert_allclose(bag.feature_importances_, forest.feature_importances_)


def test_constant_trees_count_as_zero_in_the_bagging_importance():
    X = np.array([[0.0, 5.0], [1.0, 3.0], [2.0, 4.0], [3.0, 1.0], [4.0, 2.0]])
    y = np.array([0, 0, 0, 0, 1])
    bag = OrdinalBaggingClassifier(n_estimators=30, oob_score=False, random_state=0).fit(X, y)
    split = [not isinstance(t, ConstantClassifier) and t.feature_importances_.sum() > 0
             for t in bag.estimators_]
    assert 0 < sum(split) < 30
    assert bag.feature_importances_.sum() == pytest.approx(np.mean(split))


def test_bagging_of_non_trees_has_no_feature_importances():
    X, y = _data(n=60, k=3)
    bag = OrdinalBaggingClassifier(estimator=LogisticRegression(), n_estimators=2,
                                   oob_score=False, random_state=0).fit(X, y)
    assert not hasattr(bag, "feature_importances_")
    with pytest.raises(AttributeError, match="LogisticRegression has no feature_importances_"):
        bag.feature_importances_
    assert "importance" not in bag.summary().tables


def test_forest_summary_importance_keeps_both_columns():
    X, y = _data(n=80, k=3)
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    forest = OrdinalRandomForestClassifier(n_estimators=5, importance="gamma",
                                           random_state=0).fit(frame, y)
    table = forest.summary()["importance"]
    assert list(table.columns) == ["split", "permutation"]
    for j, name in enumerate("abc"):
        assert table.loc[name, "permutation"] == forest.permutation_importance_[j]


def test_fixed_split_bagging_importances_average_every_dichotomy():
    X, y = _data(n=80, k=3)
    bag = FixedSplitBaggingClassifier(n_estimators=3, random_state=0).fit(X, y)
    trees = [t for dichotomy in bag.estimators_ for t in dichotomy]
    expected = np.mean([getattr(t, "feature_importances_", np.zeros(3)) for t in trees], axis=0)
    np.testing.assert_allclose(bag.feature_importances_, expected)
    np.testing.assert_allclose(bag.summary()["importance"].loc[["x0", "x1", "x2"], "split"],
                               expected)


# -- cumulative vote shares -----------------------------------------------------------------------
@pytest.mark.parametrize("n_estimators", [4, 7])  # even: shares of exactly 1/2 occur
def test_median_prediction_is_the_first_class_whose_cumulative_share_reaches_half(n_estimators):
    X, y = _data(n=150, k=5, seed=5)
    forest = OrdinalRandomForestClassifier(n_estimators=n_estimators, random_state=1).fit(X, y)
    cumulative = forest.predict_cumulative_proba(X)
    assert cumulative.shape == (150, 4)
    assert np.all(np.diff(cumulative, axis=1) >= 0)
    reached = np.column_stack([cumulative >= 0.5, np.ones(150, dtype=bool)])
    np.testing.assert_array_equal(forest.predict(X), forest.classes_[np.argmax(reached, axis=1)])
    # by hand: the share of the trees voting at most class k
    per_tree = np.array([base_predict(t, X) for t in forest.estimators_])
    for k in range(4):
        np.testing.assert_array_equal(cumulative[:, k], np.mean(per_tree <= k, axis=0))
    if n_estimators == 4:
        assert np.any(cumulative == 0.5)
    # the plurality of predict_proba is not the median on every row
    plurality = forest.classes_[np.argmax(forest.predict_proba(X), axis=1)]
    assert np.any(plurality != forest.predict(X))


@pytest.mark.parametrize("aggregation", ["vote", "proba"])
def test_cumulative_proba_is_the_running_sum_of_predict_proba(aggregation):
    X, y = _data(n=60, k=4)
    bag = OrdinalBaggingClassifier(n_estimators=5, aggregation=aggregation,
                                   random_state=0).fit(X, y)
    np.testing.assert_allclose(bag.predict_cumulative_proba(X),
                               np.cumsum(bag.predict_proba(X), axis=1)[:, :-1])
