"""Ordinal ensembles: bagging and forests (OOB bookkeeping, median vote), fixed-split bagging,
and each boosting variant against hand computations on toy sets."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.neighbors import KNeighborsClassifier

from ordstat.datasets import make_archer_simulation
from ordstat.ensemble import (FixedSplitBaggingClassifier, OrdinalBaggingClassifier,
                              OrdinalBoostingClassifier, OrdinalRandomForestClassifier)
from ordstat.reproduce import bagged_criteria_oob
from ordstat.ensemble._boosting import (discrete_weight, real_scores, split_probability_scores,
                                        split_scores)
from ordstat.ensemble._bagging import mean_split_importance
from ordstat.ensemble._common import (ConstantClassifier, base_predict, vote_table,
                                      weighted_median)
from ordstat.model_selection import compare_methods
from ordstat.trees import OrdinalTreeClassifier


def _ordinal_data(n=200, k=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    cuts = np.linspace(-1.5, 1.5, k - 1)
    y = np.digitize(X[:, 0] + X[:, 1] + 0.3 * rng.normal(size=n), cuts)
    return X, y


# -- median aggregation -----------------------------------------------------------------------
def test_weighted_median_by_hand():
    votes = np.array([[3, 0, 0, 2, 5],    # cumulative 3 3 3 5 10: half (5) reached at class 3
                      [0, 4, 0, 0, 4],    # an even split: the lower median
                      [1, 0, 0, 0, 0]], dtype=float)
    assert weighted_median(votes).tolist() == [3, 1, 0]
    # plurality and median differ on the first row
    assert np.argmax(votes[0]) == 4


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=15))
def test_weighted_median_is_the_lower_median_of_the_votes(preds):
    votes = vote_table(np.array(preds)[:, None], 5)
    assert weighted_median(votes)[0] == sorted(preds)[(len(preds) - 1) // 2]


def test_bagging_median_prediction_matches_the_trees_by_hand():
    X, y = _ordinal_data()
    bag = OrdinalBaggingClassifier(n_estimators=9, aggregation="median", random_state=1).fit(X, y)
    per_tree = np.array([base_predict(t, X) for t in bag.estimators_])
    expected = np.sort(per_tree, axis=0)[4]  # the median of 9 votes
    assert np.array_equal(bag.predict(X), bag.classes_[expected])


# -- out-of-bag bookkeeping -------------------------------------------------------------------
def test_oob_votes_use_only_trees_that_did_not_see_the_unit():
    X, y = _ordinal_data(n=80)
    bag = OrdinalBaggingClassifier(n_estimators=15, random_state=0).fit(X, y)
    k = bag.n_classes_
    votes = np.zeros((len(y), k))
    for tree, sample in zip(bag.estimators_, bag.estimators_samples_):
        out = np.setdiff1d(np.arange(len(y)), sample)
        votes[out, base_predict(tree, X[out])] += 1
    seen = votes.sum(axis=1) > 0
    np.testing.assert_allclose(bag.oob_decision_function_[seen],
                               votes[seen] / votes[seen].sum(axis=1, keepdims=True))
    assert np.isnan(bag.oob_decision_function_[~seen]).all()
    # per-tree rows, by hand for the first tree
    out = np.setdiff1d(np.arange(len(y)), bag.estimators_samples_[0])
    pred = base_predict(bag.estimators_[0], X[out])
    row = bag.oob_per_estimator_.iloc[0]
    assert row["n_oob"] == out.size
    assert row["misclassification"] == pytest.approx(np.mean(pred != y[out]))
    assert row["mean_absolute"] == pytest.approx(np.mean(np.abs(pred - y[out])))
    oob = np.argmax(votes[seen], axis=1)
    assert bag.oob_error_ == pytest.approx(np.mean(oob != y[seen]))
    assert bag.oob_score_ == pytest.approx(np.mean(oob == y[seen]))  # scikit-learn's accuracy


def test_oob_error_of_a_memorising_learner_is_not_its_training_error():
    # 1-NN reproduces every unit it saw; on labels independent of X its honest OOB error is
    # near 1 - 1/K, while a tree that saw the unit would predict it perfectly.
    rng = np.random.default_rng(3)
    X = rng.normal(size=(150, 2))
    y = rng.integers(0, 3, size=150)
    bag = OrdinalBaggingClassifier(KNeighborsClassifier(n_neighbors=1), n_estimators=25,
                                   random_state=0).fit(X, y)
    assert np.mean(bag.predict(X) != y) < 0.1
    assert bag.oob_error_ > 0.45
    assert (bag.oob_per_estimator_["misclassification"] > 0.4).all()


@pytest.mark.slow  # starts joblib worker processes
def test_same_seed_same_model_for_any_n_jobs():
    X, y = _ordinal_data(n=120)
    a = OrdinalBaggingClassifier(n_estimators=6, random_state=5, n_jobs=1).fit(X, y)
    b = OrdinalBaggingClassifier(n_estimators=6, random_state=5, n_jobs=2).fit(X, y)
    pd.testing.assert_frame_equal(a.oob_per_estimator_, b.oob_per_estimator_)
    assert np.array_equal(a.predict_proba(X), b.predict_proba(X))
    for sa, sb in zip(a.estimators_samples_, b.estimators_samples_):
        assert np.array_equal(sa, sb)


@pytest.mark.slow
def test_bagging_on_a_dask_cluster_equals_n_jobs_1():
    distributed = pytest.importorskip("distributed")
    from joblib import parallel_backend

    X, y = _ordinal_data(n=100)
    ref = OrdinalBaggingClassifier(n_estimators=4, random_state=3, n_jobs=1).fit(X, y)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster):
        with parallel_backend("dask"):
            bag = OrdinalBaggingClassifier(n_estimators=4, random_state=3, n_jobs=2).fit(X, y)
    assert np.array_equal(bag.predict_proba(X), ref.predict_proba(X))
    pd.testing.assert_frame_equal(bag.oob_per_estimator_, ref.oob_per_estimator_)


def test_archer_design_small_is_deterministic_with_shared_bootstrap_samples():
    X, y = make_archer_simulation(n_per_class=8, random_state=0)
    results, fits = bagged_criteria_oob(X, y, n_estimators=5, random_state=11)
    again, _ = bagged_criteria_oob(X, y, n_estimators=5, random_state=11)
    pd.testing.assert_frame_equal(results, again)
    assert set(results["method"]) == {"Gini", "Linear cost", "Quadratic cost", "Ordinal",
                                      "Ordered Twoing"}
    samples = [f.estimators_samples_ for f in fits.values()]
    for other in samples[1:]:
        for s0, s1 in zip(samples[0], other):
            assert np.array_equal(s0, s1)
    comparison = compare_methods(results, "misclassification")
    assert comparison.n_blocks == 5 and len(comparison.pairwise) == 10


def test_aggregation_proba_averages_leaf_proportions():
    X, y = _ordinal_data(n=100)
    bag = OrdinalBaggingClassifier(n_estimators=4, aggregation="proba", random_state=0).fit(X, y)
    mean = np.mean([t.predict_proba(X) for t in bag.estimators_], axis=0)
    np.testing.assert_allclose(bag.predict_proba(X), mean)
    assert np.array_equal(bag.predict(X), bag.classes_[np.argmax(mean, axis=1)])
    plain = OrdinalBaggingClassifier(n_estimators=2, oob_score=False, random_state=0).fit(X, y)
    assert not hasattr(plain, "oob_error_") and not hasattr(plain, "oob_per_estimator_")


def test_progress_bar_is_off_by_default_and_shown_on_request(capsys):
    X, y = _ordinal_data(n=60, k=3)
    OrdinalBaggingClassifier(n_estimators=3, random_state=0).fit(X, y)
    assert capsys.readouterr().err == ""
    OrdinalBaggingClassifier(n_estimators=3, random_state=0, progress=True).fit(X, y)
    assert "3/3" in capsys.readouterr().err


def test_labels_come_back_as_given():
    X, y = _ordinal_data(n=90, k=3)
    labels = np.array(["low", "mid", "high"])[y]
    bag = OrdinalBaggingClassifier(n_estimators=3, random_state=0,
                                   classes=["low", "mid", "high"]).fit(X, labels)
    assert list(bag.classes_) == ["low", "mid", "high"]
    assert set(bag.predict(X)) <= {"low", "mid", "high"}


# -- random forest -----------------------------------------------------------------------------
def test_forest_permutation_importance_finds_the_informative_features():
    X, y = make_archer_simulation(n_per_class=20, random_state=1)
    for metric in ("mean_absolute", "gamma"):
        forest = OrdinalRandomForestClassifier(n_estimators=25, importance=metric,
                                               random_state=0).fit(X, y)
        top = set(np.argsort(forest.permutation_importance_)[-2:])
        assert top == {0, 1}, (metric, forest.permutation_importance_)
        assert forest.permutation_importances_.shape == (25, 8)
    assert forest.feature_importances_.sum() == pytest.approx(1.0)


def test_forest_draws_max_features_per_node():
    X, y = _ordinal_data(n=100)
    forest = OrdinalRandomForestClassifier(n_estimators=3, max_features=1, criterion="twoing",
                                           random_state=0).fit(X, y)
    assert all(t.max_features == 1 and t.criterion == "twoing" for t in forest.estimators_)


@pytest.mark.parametrize("m, drawn", [(1, 1), (2, 2), (3, 2), (4, 3), (7, 3), (8, 4), (9, 4),
                                      (15, 4), (16, 5), (100, 7), (1024, 11)])
def test_max_features_log2_plus_one_is_the_dissertations_count(m, drawn):
    """floor(log2 M) + 1, capped at M (the dissertation "Ensemble methods for ordinal data
    classification", section 5.2, Table 5.3); "log2" stays floor(log2 M), at least 1."""
    tree = OrdinalTreeClassifier(max_features="log2+1")
    assert tree._n_features_drawn(m) == drawn == min(m, math.floor(math.log2(m)) + 1)
    assert OrdinalTreeClassifier(max_features="log2")._n_features_drawn(m) == \
        max(1, math.floor(math.log2(m)))


def test_max_features_log2_plus_one_grows_the_trees_of_that_count():
    """Same seeds: "log2+1" grows the same forest as the count it names (3 of 5 features)."""
    rng = np.random.default_rng(3)
    X = np.column_stack([_ordinal_data(n=120)[0], rng.normal(size=(120, 2))])
    y = _ordinal_data(n=120)[1]
    kw = dict(n_estimators=5, random_state=1, oob_score=False)
    named = OrdinalRandomForestClassifier(max_features="log2+1", **kw).fit(X, y)
    count = OrdinalRandomForestClassifier(max_features=3, **kw).fit(X, y)
    assert all(t.max_features == "log2+1" for t in named.estimators_)
    for a, b in zip(named.estimators_, count.estimators_):
        np.testing.assert_array_equal(a.tree_.feature, b.tree_.feature)
        np.testing.assert_array_equal(a.tree_.threshold, b.tree_.threshold)
    assert not np.array_equal(
        OrdinalRandomForestClassifier(max_features="log2", **kw).fit(X, y)
        .estimators_[0].tree_.feature, named.estimators_[0].tree_.feature)
    with pytest.raises(ValueError, match="max_features"):
        OrdinalRandomForestClassifier(max_features="log2+2").fit(X, y)


def test_forest_importance_counts_constant_trees_as_zero():
    """Tiny data: some bootstrap samples hold one class and give constant trees (no
    feature_importances_), some trees have no split (zeros); all count in the mean."""
    X = np.array([[0.0, 5.0], [1.0, 3.0], [2.0, 4.0], [3.0, 1.0], [4.0, 2.0]])
    y = np.array([0, 0, 0, 0, 1])
    forest = OrdinalRandomForestClassifier(n_estimators=30, max_features=None, random_state=0,
                                           oob_score=False).fit(X, y)
    constant = [not hasattr(t, "feature_importances_") for t in forest.estimators_]
    assert 0 < sum(constant) < 30
    by_hand = np.zeros(2)
    for t, c in zip(forest.estimators_, constant):
        if not c:
            imp = t.variable_importance_
            by_hand += imp / imp.sum() if imp.sum() > 0 else 0.0
    np.testing.assert_allclose(forest.feature_importances_, by_hand / 30)
    n_split = sum(not c and t.tree_.n_nodes > 1 for t, c in zip(forest.estimators_, constant))
    assert forest.feature_importances_.sum() == pytest.approx(n_split / 30)


def test_mean_split_importance_by_hand():
    class Tree:
        def __init__(self, imp):
            self.feature_importances_ = np.array(imp)

    trees = [Tree([0.5, 0.5, 0.0]), Tree([0.0, 0.0, 0.0]), ConstantClassifier(1, 3),
             Tree([1.0, 0.0, 0.0])]
    np.testing.assert_allclose(mean_split_importance(trees, 3), [1.5 / 4, 0.5 / 4, 0.0])
    np.testing.assert_array_equal(mean_split_importance([ConstantClassifier(0, 2)], 2), 0.0)


# -- fixed-split boosting: early stop ------------------------------------------------------------
def _one_dichotomy_uninformative(c=5):
    """x = 0 or 1; classes low (x = 0), mid (x = 1), high (c units at each x). The cut mid|high
    is uninformative: at each x its two sides weigh the same, so any classifier's weighted
    error is exactly 1/2 (>= the stop level (1 - 1/n) / 2) and it stops at once; low|mid is
    learnable (its first error is 1/4) and runs on for a few cycles."""
    x = np.concatenate([np.zeros(c), np.ones(c), np.zeros(c), np.ones(c)])
    y = np.array(["low"] * c + ["mid"] * c + ["high"] * (2 * c))
    return x[:, None], y


def test_fixed_split_boosting_warns_when_any_dichotomy_stops_early():
    X, y = _one_dichotomy_uninformative()
    boost = OrdinalBoostingClassifier(variant="fixed_split_discrete", n_estimators=6,
                                      boost_by="weight", classes=["low", "mid", "high"])
    with pytest.warns(UserWarning, match=r"stopped early in 1 of 2 dichotomies "
                                         r"\(mid\|high after 1 of 6 cycles\)") as record:
        boost.fit(X, y)
    assert len(record) == 1 and "low|mid" not in str(record[0].message)
    assert [len(run) for run in boost.estimators_] == [6, 1]
    assert boost.estimator_errors_[1][0] == pytest.approx(0.5)
    np.testing.assert_allclose(boost.estimator_errors_[0][:2], [0.25, 0.25 / 1.375])
    assert boost.n_estimators_ == 6  # the longest run, as before


def test_fixed_split_boosting_is_silent_when_no_dichotomy_stops():
    X, y = _ordinal_data(n=150, k=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        boost = OrdinalBoostingClassifier(variant="fixed_split_discrete", n_estimators=4,
                                          random_state=0).fit(X, y)
    assert [len(run) for run in boost.estimators_] == [4, 4]


# -- fixed-split bagging -------------------------------------------------------------------------
def test_split_scores_eq2_by_hand():
    # k = 4; split 1 says {1} (low), split 2 says {3,4} (high), split 3 says {1,2,3} (low)
    low = np.array([[1], [0], [1]])
    scores = split_scores(low, 4)
    np.testing.assert_allclose(scores[0], [1 + 1 / 3, 1 / 3, 1 / 2 + 1 / 3, 1 / 2])
    pv = np.array([[0.5], [1.0], [0.8]])
    np.testing.assert_allclose(split_scores(low, 4, pv)[0],
                               [0.5 + 0.8 / 3, 0.8 / 3, 0.5 + 0.8 / 3, 0.5])


def test_fixed_split_bagging_combines_the_split_votes():
    X, y = _ordinal_data(n=150, k=4)
    for weighted in (False, True):
        fsb = FixedSplitBaggingClassifier(n_estimators=7, weighted=weighted,
                                          random_state=0).fit(X, y)
        share = np.array([np.mean([base_predict(t, X) == 0 for t in trees], axis=0)
                          for trees in fsb.estimators_])
        pv = np.maximum(share, 1 - share) if weighted else None
        expected = np.argmax(split_scores(share >= 0.5, 4, pv), axis=1)
        assert np.array_equal(fsb.predict(X), expected)
        np.testing.assert_allclose(fsb.predict_proba(X).sum(axis=1), 1.0)
    assert np.mean(fsb.predict(X) != y) < 0.35


# -- boosting: one step by hand -------------------------------------------------------------------
X2 = np.arange(10.0)[:, None]
Y2 = np.array([0, 0, 1, 0, 0, 1, 1, 1, 1, 1])  # a stump at 4.5 misses unit 2 only
X3 = np.arange(9.0)[:, None]
Y3 = np.array([0, 2, 0, 1, 1, 1, 2, 2, 2])  # unit 1 is two classes away from its neighbours


def _one_step(variant, X, y, **kw):
    return OrdinalBoostingClassifier(variant=variant, n_estimators=1, max_leaf_nodes=2,
                                     boost_by="weight", **kw).fit(X, y)


def test_discrete_adaboost_one_step_by_hand():
    m = _one_step("discrete", X2, Y2)
    # e = 0.1, c = log((1 - e)(k - 1) / (e + 1/n)) = log(0.9 / 0.2)
    assert m.estimator_weights_[0] == pytest.approx(math.log(4.5))
    expected = np.full(10, 0.1 / 1.35)
    expected[2] = 0.45 / 1.35
    np.testing.assert_allclose(m.boost_weights_[1], expected)


def test_k_class_correction_of_c_m():
    # the error of the trivial rule, (k - 1)/k, gives c_m = 0 (up to the 1/n_L term)
    assert discrete_weight(2 / 3, 3, 10 ** 12) == pytest.approx(0.0, abs=1e-9)
    assert discrete_weight(0.25, 3, 10) == pytest.approx(math.log(0.75 * 2 / 0.35))
    # the ordinal correction 1/(n_L (k - 1)) and the standardised distance
    assert discrete_weight(0.0, 5, 10, "distance", ordinal=True) == pytest.approx(math.log(40))
    assert discrete_weight(0.4, 5, 10, "unstandardized", ordinal=True) == pytest.approx(
        math.log(0.9 / (0.1 + 1 / 40)))


def test_real_adaboost_one_step_by_hand():
    m = _one_step("real", X2, Y2)
    # left leaf {0,0,1,0,0}: p0 = 0.8; right leaf {1 x 5}: p0 = 0; +1/n = 0.1 everywhere
    f_left_0 = 0.5 * math.log(0.9 / 0.3)
    f_right_1 = 0.5 * math.log(1.1 / 0.1)
    raw = np.array([math.exp(-f_left_0)] * 5 + [math.exp(-f_right_1)] * 5)
    raw[2] = math.exp(f_left_0)  # true class 1 in the left leaf: f_1 = -f_0
    np.testing.assert_allclose(m.boost_weights_[1], raw / raw.sum())


def test_fixed_split_discrete_one_step_by_hand():
    m = _one_step("fixed_split_discrete", X3, Y3)
    # split r = 1 ([Y > 1]): the stump at 2.5 misses unit 1; e = 1/9, c = log((8/9)/(2/9))
    assert m.estimator_weights_[0][0] == pytest.approx(math.log(4.0))
    expected = np.full(9, 1 / 12)
    expected[1] = 4 / 12
    np.testing.assert_allclose(m.boost_weights_[0][1], expected)


@pytest.mark.parametrize("error, c, exponent", [
    ("distance", math.log((8 / 9) / (1 / 9 + 1 / 18)), 1.0),
    ("squared", math.log((8 / 9) / (1 / 9 + 1 / 18)), 1.0),
    ("unstandardized", math.log((8 / 9) / (1 / 9 + 1 / 18)), 2.0),
    ("zero_one", math.log((8 / 9) * 2 / (1 / 9 + 1 / 18)), 1.0),
])
def test_ordinal_discrete_one_step_by_hand(error, c, exponent):
    m = _one_step("ordinal_discrete", X3, Y3, error=error)
    # stumps: [Y > 0] at 2.5, [Y > 1] at 5.5; eq. (2) gives 0 0 0 1 1 1 2 2 2: unit 1 (true 2)
    # is predicted 0, at distance 2 (standardised 1)
    preds = [base_predict(t, X3) for t in m.estimators_[0]]
    assert preds[0].tolist() == [0, 0, 0, 1, 1, 1, 1, 1, 1]
    assert preds[1].tolist() == [0, 0, 0, 0, 0, 0, 1, 1, 1]
    assert m.estimator_weights_[0] == pytest.approx(c)
    raw = np.ones(9)
    raw[1] = math.exp(c * exponent)
    np.testing.assert_allclose(m.boost_weights_[1], raw / raw.sum())


def _hand_scores():
    """Scores (6) of the toy: leaf P(Y <= r) of the two stumps, per group of units."""
    s_low, s_mid, s_high = (np.array([2 / 3 + 5 / 6, 1 / 3 + 5 / 6, 1 / 3 + 1 / 6]),
                            np.array([5 / 6, 11 / 6, 7 / 6]), np.array([0.0, 1.0, 2.0]))
    return np.array([s_low] * 3 + [s_mid] * 3 + [s_high] * 3)


@pytest.mark.parametrize("error", ["misclassification", "distance"])
def test_ordinal_real_one_step_by_hand(error):
    m = _one_step("ordinal_real", X3, Y3, error=error)
    scores = _hand_scores() + 1 / 9
    f = []
    for i, yi in enumerate(Y3):
        others = [scores[i, j] for j in range(3) if j != yi]
        if error == "misclassification":
            denominator = math.prod(others) ** 0.5
        else:
            d = [abs(j - yi) for j in range(3) if j != yi]
            denominator = sum(a * b for a, b in zip(d, others)) / sum(d)
        f.append(0.5 * math.log(scores[i, yi] / denominator))
    raw = np.exp(-np.array(f))
    np.testing.assert_allclose(m.boost_weights_[1], raw / raw.sum())
    p_low = np.array([[2 / 3] * 3 + [0.0] * 6, [5 / 6] * 6 + [0.0] * 3])
    np.testing.assert_allclose(split_probability_scores(p_low, 3), _hand_scores())


def test_real_scores_two_classes_is_the_binary_formula():
    p = np.array([[0.8, 0.2]])
    assert real_scores(p, 10)[0, 0] == pytest.approx(0.5 * math.log(0.9 / 0.3))


ALL_VARIANTS = [("discrete", None), ("real", None), ("fixed_split_discrete", None),
                ("fixed_split_real", None), ("ordinal_discrete", "zero_one"),
                ("ordinal_discrete", "distance"), ("ordinal_discrete", "unstandardized"),
                ("ordinal_discrete", "squared"), ("ordinal_real", "misclassification"),
                ("ordinal_real", "distance")]


@pytest.mark.parametrize("variant, error", ALL_VARIANTS)
def test_training_error_falls_over_cycles(variant, error):
    X, y = _ordinal_data(n=300, seed=1)
    m = OrdinalBoostingClassifier(variant=variant, error=error, n_estimators=25,
                                  boost_by="weight", random_state=0).fit(X, y)
    errors = [np.mean(p != y) for p in m.staged_predict(X)]
    assert len(errors) == m.n_estimators_
    assert errors[-1] < errors[0], errors


@pytest.mark.parametrize("variant, error", ALL_VARIANTS)
def test_boosting_same_seed_same_model(variant, error):
    X, y = _ordinal_data(n=120, seed=2)
    fits = [OrdinalBoostingClassifier(variant=variant, error=error, n_estimators=4,
                                      random_state=7, n_jobs=j).fit(X, y) for j in (1, 2)]
    np.testing.assert_array_equal(fits[0].predict_proba(X), fits[1].predict_proba(X))
    w0, w1 = fits[0].boost_weights_, fits[1].boost_weights_
    for a, b in zip(w0 if isinstance(w0, list) else [w0], w1 if isinstance(w1, list) else [w1]):
        np.testing.assert_array_equal(a, b)


def test_staged_predict_proba_ends_at_predict_proba():
    X, y = _ordinal_data(n=100)
    m = OrdinalBoostingClassifier(variant="real", n_estimators=5, random_state=0).fit(X, y)
    stages = list(m.staged_predict_proba(X))
    assert len(stages) == 5
    np.testing.assert_allclose(stages[-1], m.predict_proba(X))
    np.testing.assert_allclose(stages[-1].sum(axis=1), 1.0)


# -- the simulation generator ------------------------------------------------------------------
def test_archer_simulation_design():
    X, y = make_archer_simulation(n_per_class=400, random_state=0)
    assert X.shape == (2000, 8) and np.bincount(y).tolist() == [0] + [400] * 5
    for w in range(1, 6):
        np.testing.assert_allclose(X[y == w, :2].mean(axis=0), [2 * w, 2 * w], atol=0.15)
        assert np.corrcoef(X[y == w, 0], X[y == w, 1])[0, 1] == pytest.approx(0.5, abs=0.1)
    assert X[:, 2:5].min() >= 0 and X[:, 2:5].max() <= 1
    np.testing.assert_array_equal(make_archer_simulation(random_state=3)[0],
                                  make_archer_simulation(random_state=3)[0])


# -- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize("make, exc, match", [
    (lambda: OrdinalBaggingClassifier(n_estimators=0), ValueError, "n_estimators"),
    (lambda: OrdinalBaggingClassifier(aggregation="mean"), ValueError, "aggregation"),
    (lambda: OrdinalBaggingClassifier(oob_score="yes"), TypeError, "oob_score"),
    (lambda: OrdinalBaggingClassifier(estimator="tree"), TypeError, "estimator"),
    (lambda: OrdinalRandomForestClassifier(importance="auc"), ValueError, "importance"),
    (lambda: OrdinalRandomForestClassifier(criterion="nope", n_estimators=2), ValueError,
     "criterion"),
    (lambda: OrdinalBoostingClassifier(variant="gentle"), ValueError, "variant"),
    (lambda: OrdinalBoostingClassifier(boost_by="both"), ValueError, "boost_by"),
    (lambda: OrdinalBoostingClassifier(variant="discrete", error="distance"), ValueError,
     "error is only used"),
    (lambda: OrdinalBoostingClassifier(variant="ordinal_real", error="squared"), ValueError,
     "error"),
    (lambda: OrdinalBoostingClassifier(variant="real", weighted=True), ValueError, "weighted"),
    (lambda: OrdinalBoostingClassifier(max_leaf_nodes=1), ValueError, "max_leaf_nodes"),
    (lambda: OrdinalBoostingClassifier(estimator=object()), TypeError, "estimator"),
    (lambda: FixedSplitBaggingClassifier(weighted=1), TypeError, "weighted"),
    (lambda: OrdinalBaggingClassifier(n_jobs=0), ValueError, "n_jobs"),
])
def test_bad_parameters_are_named(make, exc, match):
    X, y = _ordinal_data(n=60, k=3)
    with pytest.raises(exc, match=match):
        make().fit(X, y)


def test_make_archer_simulation_rejects_bad_size():
    with pytest.raises(ValueError, match="n_per_class"):
        make_archer_simulation(n_per_class=0)
    with pytest.raises(TypeError, match="n_per_class"):
        make_archer_simulation(n_per_class=2.5)


# -- parameter constraints ---------------------------------------------------------------------
@pytest.mark.parametrize("estimator", [
    OrdinalBaggingClassifier(n_estimators=2),
    OrdinalRandomForestClassifier(n_estimators=2),
    OrdinalBoostingClassifier(n_estimators=2),
    FixedSplitBaggingClassifier(n_estimators=2),
], ids=lambda e: type(e).__name__)
def test_every_parameter_is_declared_and_checked(estimator):
    """scikit-learn's own check: a constraint for every constructor parameter, and fit refuses
    a value of the wrong type or out of range naming the parameter."""
    from sklearn.utils.estimator_checks import check_param_validation

    check_param_validation(type(estimator).__name__, estimator)


def test_random_state_constraint_takes_a_generator_and_refuses_a_string():
    X, y = _ordinal_data(n=60, k=3)
    OrdinalBaggingClassifier(n_estimators=2, oob_score=False,
                             random_state=np.random.default_rng(0)).fit(X, y)
    with pytest.raises(ValueError, match="'random_state' parameter of OrdinalBaggingClassifier"):
        OrdinalBaggingClassifier(n_estimators=2, random_state="seed").fit(X, y)


# -- summaries ---------------------------------------------------------------------------------
def _renders(summary, title):
    from ordstat._core.summary import Summary

    assert isinstance(summary, Summary)
    text = str(summary)
    assert text.startswith(title)
    html = summary._repr_html_()
    assert "<table" in html and title.split(" (")[0] in html
    return text


def test_bagging_summary_holds_classes_and_out_of_bag_scores():
    X, y = _ordinal_data(n=120, k=4)
    bag = OrdinalBaggingClassifier(n_estimators=8, random_state=1).fit(X, y)
    summary = bag.summary()
    text = _renders(summary, "Ordinal bagging")
    assert "8" in dict(summary.info)["trees"] and "vote" in text
    np.testing.assert_array_equal(summary["classes"]["units"], np.bincount(y))
    assert list(summary["classes"].index) == ["0", "1", "2", "3"]
    oob = summary["out-of-bag"]
    np.testing.assert_allclose(oob.loc[["misclassification", "mean_absolute", "gamma"],
                                       "ensemble"],
                               [bag.oob_error_, bag.oob_mean_absolute_, bag.oob_gamma_])
    per_tree = bag.oob_per_estimator_["mean_absolute"].to_numpy()
    np.testing.assert_allclose(oob.loc["mean_absolute", ["min", "50%", "max"]],
                               [per_tree.min(), np.median(per_tree), per_tree.max()])
    # without oob_score there is no out-of-bag table
    plain = OrdinalBaggingClassifier(n_estimators=3, oob_score=False, random_state=1).fit(X, y)
    assert "out-of-bag" not in plain.summary().tables


def test_forest_summary_importance_by_feature_name():
    X, y = _ordinal_data(n=120, k=3)
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    forest = OrdinalRandomForestClassifier(n_estimators=6, importance="mae",
                                           random_state=0).fit(frame, y)
    summary = forest.summary(digits=3)
    _renders(summary, "Ordinal random forest")
    imp = summary["importance"]
    assert imp["permutation"].is_monotonic_decreasing
    for j, name in enumerate("abc"):
        assert imp.loc[name, "split"] == forest.feature_importances_[j]
        assert imp.loc[name, "permutation"] == forest.permutation_importance_[j]


def test_boosting_summary_cycles_and_chosen_error():
    X, y = _ordinal_data(n=150, k=4)
    boost = OrdinalBoostingClassifier(n_estimators=6, random_state=0).fit(X, y)
    summary = boost.summary()
    _renders(summary, "Ordinal boosting (ordinal_discrete)")
    info = dict(summary.info)
    assert info["error"] == "distance" and info["variant"] == "ordinal_discrete"
    assert info["cycles"].startswith(f"{boost.n_estimators_} of")
    np.testing.assert_array_equal(summary["cycles"]["error"], boost.estimator_errors_)
    np.testing.assert_array_equal(summary["cycles"]["weight"], boost.estimator_weights_)
    np.testing.assert_array_equal(summary["classes"]["units"], np.bincount(y))
    real = OrdinalBoostingClassifier(variant="real", n_estimators=3, random_state=0).fit(X, y)
    assert list(real.summary()["cycles"].columns) == ["error"]  # no c_m for real boosting
    assert "error" not in dict(real.summary().info)


def test_fixed_split_boosting_summary_one_column_pair_per_dichotomy():
    X, y = _ordinal_data(n=150, k=3)
    boost = OrdinalBoostingClassifier(variant="fixed_split_discrete", n_estimators=4,
                                      random_state=0).fit(X, y)
    summary = boost.summary()
    _renders(summary, "Ordinal boosting (fixed_split_discrete)")
    cycles = summary["cycles"]
    for r, cut in enumerate(["0|1", "1|2"]):
        m = len(boost.estimator_errors_[r])
        np.testing.assert_array_equal(cycles[f"error {cut}"].to_numpy()[:m],
                                      boost.estimator_errors_[r])
        np.testing.assert_array_equal(cycles[f"weight {cut}"].to_numpy()[:m],
                                      boost.estimator_weights_[r])
        assert cycles[f"error {cut}"].iloc[m:].isna().all()
    counts = np.bincount(y)
    dichotomies = summary["dichotomies"]
    np.testing.assert_array_equal(dichotomies["below"], [counts[0], counts[:2].sum()])
    np.testing.assert_array_equal(dichotomies["above"], [counts[1:].sum(), counts[2]])
    np.testing.assert_array_equal(dichotomies["cycles"],
                                  [len(e) for e in boost.estimators_])


def test_fixed_split_bagging_summary_dichotomies():
    X, y = _ordinal_data(n=90, k=4)
    bag = FixedSplitBaggingClassifier(n_estimators=3, random_state=0).fit(X, y)
    summary = bag.summary()
    _renders(summary, "Ordinal fixed-split bagging")
    counts = np.bincount(y)
    table = summary["dichotomies"]
    assert list(table.index) == ["0|1", "1|2", "2|3"]
    np.testing.assert_array_equal(table["below"], np.cumsum(counts)[:-1])
    np.testing.assert_array_equal(table["below"] + table["above"], [len(y)] * 3)
    np.testing.assert_array_equal(table["trees"], [3, 3, 3])
    assert (table["constant"] == 0).all()


def test_out_of_bag_outputs_and_gamma_are_those_of_predict_and_the_metric():
    """A forest scores each tree on its out-of-bag rows from one pass down the tree and
    without checking the rows again; the codes and probabilities are ``predict``'s and
    ``predict_proba``'s, before and after the tree is made compact, and the per-tree gamma
    is ``goodman_kruskal_gamma``'s (NaN without an untied pair)."""
    from ordstat.ensemble._bagging import _gamma, _outputs
    from ordstat.ensemble._common import base_proba, compact_tree
    from ordstat.metrics import goodman_kruskal_gamma

    X, y = _ordinal_data(n=150, k=4)
    tree = OrdinalTreeClassifier(min_split=2, cp=-1.0, xval=0, max_features=2,
                                 classes=np.arange(4), random_state=0).fit(X[:100], y[:100])
    for compact in (False, True):
        est = compact_tree(tree) if compact else tree  # (made compact in place)
        pred, proba = _outputs(est, X[100:], 4)
        np.testing.assert_array_equal(pred, base_predict(est, X[100:]))
        np.testing.assert_array_equal(proba, base_proba(est, X[100:], 4))
        assert pred.dtype == np.intp and proba.dtype == np.float64
    knn = KNeighborsClassifier(3).fit(X[:100], y[:100])
    np.testing.assert_array_equal(_outputs(knn, X[100:], 4)[0], knn.predict(X[100:]))
    for truth, guess in ((y[100:], pred), (y[100:], np.full(50, 2))):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = goodman_kruskal_gamma(truth, guess, classes=np.arange(4))
        assert _gamma(truth, guess, 4) == expected or (np.isnan(expected)
                                                       and np.isnan(_gamma(truth, guess, 4)))


@pytest.mark.parametrize("block", [1, 1 << 21])
@pytest.mark.parametrize("weighted", [False, True])
def test_out_of_bag_scores_of_each_tree_are_those_of_its_own_units(block, weighted,
                                                                   monkeypatch):
    """The trees' out-of-bag votes and scores are counted for a block of trees at once (every
    tree alone with a block of one unit): each tree's row is its own out-of-bag units
    scored by their definitions, and the votes those of every tree's predictions."""
    from ordstat.ensemble import _bagging
    from ordstat.ensemble._common import weighted_mean
    from ordstat.metrics import goodman_kruskal_gamma

    monkeypatch.setattr(_bagging, "_OOB_BLOCK", block)
    X, y = _ordinal_data(n=60, k=4, seed=3)
    w = np.random.default_rng(3).random(60) if weighted else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        forest = OrdinalRandomForestClassifier(n_estimators=12, random_state=2).fit(
            X, y, sample_weight=w)
    votes = np.zeros((60, 4))
    for m, (est, sample) in enumerate(zip(forest.estimators_, forest.estimators_samples_)):
        oob = np.setdiff1d(np.arange(60), sample)
        pred = est.predict(X[oob])
        votes[oob, pred] += 1
        wo = None if w is None else w[oob]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            gamma = goodman_kruskal_gamma(y[oob], pred, classes=np.arange(4),
                                          sample_weight=wo)
        row = forest.oob_per_estimator_.iloc[m]
        assert row["estimator"] == m and row["n_oob"] == oob.size
        assert row["misclassification"] == weighted_mean(pred != y[oob], wo)
        assert row["mean_absolute"] == weighted_mean(np.abs(pred - y[oob]), wo)
        assert row["gamma"] == pytest.approx(gamma, rel=1e-12, nan_ok=True)
    np.testing.assert_array_equal(forest.oob_n_estimators_, votes.sum(axis=1))
    seen = votes.sum(axis=1) > 0
    np.testing.assert_array_equal(forest.oob_decision_function_[seen],
                                  votes[seen] / votes[seen].sum(axis=1, keepdims=True))
