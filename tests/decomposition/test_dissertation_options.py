"""The decompositions' options that follow the dissertation "Ensemble methods for ordinal data
classification" and the methods it builds on, each checked against a hand computation: the oDT's
gain ratio (Quinlan 1993, as Weka's J48 applies it) and J48's pruning bound, AdaBoost.OR's weak
learner (Lin & Li 2009), oAdaBoost's stop (Algorithm 5.1), the data replication's s (Cardoso &
Pinto da Costa 2007) and the forests of oDT trees (section 5.2)."""

import itertools
import math
from statistics import NormalDist

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression

from ordstat.datasets import make_circle
from ordstat.decomposition import (AdaBoostOR, DataReplicationClassifier, OrdinalStumpBoost,
                                   ReplicatedTreeClassifier)
from ordstat.decomposition._boosting import OrderedCut
from ordstat.decomposition._frank_hall import replicate
from ordstat.decomposition._odt import (_gain_ratios, _replica_gains, normal_errors,
                                        pessimistic_errors)
from ordstat.decomposition._replica_search import ReplicaSearch
from ordstat.ensemble import OrdinalBaggingClassifier
from ordstat.trees._classes import n_features_drawn


def _bits(q):
    """Binary entropy in bits, by hand."""
    return -sum(v * math.log2(v) for v in (q, 1 - q) if v > 0)


# --- oDT: gain ratio ---------------------------------------------------------------------------
# Ten units, 6 below and 4 above (one replica). Attribute a puts 3 of the 4 "above" units right
# (gain 0.557, gain ratio 0.632), b a balanced 5/5 cut (gain 0.610, gain ratio 0.610), c one
# unit right (gain 0.144). Each attribute has a single cut.
_Y = np.array([0] * 6 + [1] * 4)
_A = np.array([0] * 7 + [1] * 3, dtype=float)
_B = np.array([0] * 5 + [1] * 5, dtype=float)
_C = np.array([0] * 9 + [1], dtype=float)
_H = _bits(0.4)
_GAIN = {"a": _H - 0.7 * _bits(1 / 7), "b": _H - 0.5 * _bits(0.2), "c": _H - 0.9 * _bits(1 / 3)}
_SPLIT_INFO = {"a": _bits(0.3), "b": _bits(0.5), "c": _bits(0.1)}


def _root_feature(X, **kw):
    # a toy of 10 units: J48's minimum split size (2 units a branch) would refuse c's cut
    tree = ReplicatedTreeClassifier(max_depth=1, prune=False, min_samples_leaf=1,
                                    min_num_obj=None, collapse_tree=False, **kw)
    return int(tree.fit(X, _Y).tree_["feature"][0])


def test_gain_ratio_of_a_toy_node_by_hand():
    X = np.column_stack([_A, _B, _C])
    search = ReplicaSearch(X, _Y, np.ones((10, 1)), "entropy", min_bucket=1)
    good, thr = search.search()
    counts = search.counts()
    gains = _replica_gains(good, counts, math.log(2.0))[0, :, 0]
    ratios = _gain_ratios(_replica_gains(good, counts, math.log(2.0)),
                          search.left_weights(thr), counts)[0, :, 0]
    for j, name in enumerate("abc"):
        assert gains[j] == pytest.approx(_GAIN[name], rel=1e-12)
        assert ratios[j] == pytest.approx(_GAIN[name] / _SPLIT_INFO[name], rel=1e-12)
    assert _GAIN["a"] / _SPLIT_INFO["a"] == pytest.approx(0.63178, abs=1e-5)


def test_gain_ratio_chooses_among_attributes_of_at_least_average_gain():
    # information gain prefers b; the gain ratio prefers a, which competes because c pulls the
    # average gain (0.437) below a's gain (0.557)
    X = np.column_stack([_A, _B, _C])
    assert _root_feature(X, split_score="gain") == 1
    assert _root_feature(X, split_score="gain_ratio") == 0
    # without c the average gain of a and b is 0.583: a falls below it (J48's slack is 1e-3)
    assert (_GAIN["a"] + _GAIN["b"]) / 2 - 1e-3 > _GAIN["a"]
    assert _root_feature(X[:, :2], split_score="gain_ratio") == 1


def test_gain_is_the_former_tree_and_gain_ratio_a_different_one():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 5))
    X[:, 3] = rng.integers(0, 2, 300)
    y = np.digitize(X[:, 0] + 0.5 * X[:, 1] + X[:, 3] + 0.5 * rng.normal(size=300),
                    [-1, 0.5, 1.5])
    gain = ReplicatedTreeClassifier(split_score="gain", prune=False).fit(X, y)
    ratio = ReplicatedTreeClassifier(prune=False).fit(X, y)
    assert ratio.split_score == "gain_ratio"
    assert gain.node_count_ != ratio.node_count_ or \
        not np.array_equal(gain.tree_["feature"], ratio.tree_["feature"])


# --- oDT: J48's pruning bound -----------------------------------------------------------------

def _j48_by_hand(N, e, CF):
    """e + Weka's Stats.addErrs(N, e, CF), written out from the formula."""
    if e < 1:
        base = N * (1 - CF ** (1 / N))
        if e == 0:
            return base
        return e + base + e * (_j48_by_hand(N, 1, CF) - 1 - base)
    if e + 0.5 >= N:
        return max(N, e)
    z = NormalDist().inv_cdf(1 - CF)
    f = (e + 0.5) / N
    r = (f + z * z / (2 * N) + z * math.sqrt(f / N - f * f / N + z * z / (4 * N * N))) \
        / (1 + z * z / N)
    return r * N


@pytest.mark.parametrize("N, e, CF", [(10, 2, 0.25), (16, 1, 0.25), (20, 3.4, 0.1),
                                      (6, 0, 0.25), (9, 0, 0.25), (1, 0, 0.25),
                                      (10, 0.5, 0.25), (3, 2.6, 0.25), (4, 4, 0.25),
                                      (2.5, 1.0, 0.5)])
def test_j48_error_bound_by_hand(N, e, CF):
    assert normal_errors(e, N, CF) == pytest.approx(_j48_by_hand(N, e, CF), rel=1e-12)


def test_j48_error_bound_reference_values():
    # (10, 2, 25 %): z = 0.6744898, f = 0.25, upper limit 0.3518578 -> 3.518578 errors
    assert normal_errors(2.0, 10.0, 0.25) == pytest.approx(3.518578, abs=1e-6)
    # no errors: C4.5's exact value, U_25%(0, 6) = 0.206 (Quinlan 1993) -> 1.2378
    assert normal_errors(0.0, 6.0, 0.25) == pytest.approx(6 * (1 - 0.25 ** (1 / 6)))
    # one error in 16: the normal approximation (0.1547) is below the exact limit (0.1596)
    assert normal_errors(1.0, 16.0, 0.25) / 16 == pytest.approx(0.15473, abs=1e-5)
    assert pessimistic_errors(1.0, 16.0, 0.25) / 16 == pytest.approx(0.1596, abs=1e-4)
    # vectorised as the exact bound, 0 for an empty node
    out = normal_errors(np.array([0.0, 2.0, 0.0]), np.array([6.0, 10.0, 0.0]), 0.25)
    np.testing.assert_allclose(out, [_j48_by_hand(6, 0, 0.25), _j48_by_hand(10, 2, 0.25), 0])


def test_error_bound_is_used_by_pruning():
    X, y = make_circle(300, random_state=1)
    noisy = np.where(np.random.default_rng(0).uniform(size=300) < 0.2, 1, y)
    sizes = {b: ReplicatedTreeClassifier(error_bound=b).fit(X, noisy).node_count_
             for b in ("normal", "exact")}
    full = ReplicatedTreeClassifier(prune=False).fit(X, noisy).node_count_
    assert max(sizes.values()) < full
    assert ReplicatedTreeClassifier().error_bound == "normal"
    with pytest.raises(ValueError, match="'error_bound' parameter"):
        ReplicatedTreeClassifier(error_bound="wilson").fit(X, y)


# --- AdaBoost.OR's weak learner ---------------------------------------------------------------

def _weighted_binary_error(answers, codes, W):
    """sum over replicas k and units i of W[i, k] [replica k's answer is on the wrong side]."""
    truth = codes[:, None] > np.arange(W.shape[1])[None, :]
    return float(np.sum(W * (answers != truth)))


def _all_ordered_cuts(X, m):
    """Every (attribute, orientation, ordered thresholds) of an ordered one-cut learner."""
    for j in range(X.shape[1]):
        v = np.unique(X[:, j])
        cuts = np.r_[-np.inf, (v[:-1] + v[1:]) / 2, np.inf]
        for t in itertools.combinations_with_replacement(cuts, m):
            yield j, 1, np.array(t)  # increasing: "above" right of the cut
            yield j, -1, np.array(t[::-1])  # decreasing: "above" left of the cut


def _answers(X, j, sign, thr):
    x = X[:, j][:, None]
    return (x >= thr[None, :]) if sign == 1 else (x < thr[None, :])


def test_adaboost_or_weak_learner_minimises_the_weighted_binary_error():
    # K = 3; attribute 0 orders replica 0 (Y > C_1) perfectly and not replica 1, attribute 1
    # the other way round; replica 1 carries about ten times replica 0's weight
    X = np.column_stack([[0, 1, 2, 5, 3, 4], [1, 3, 0, 2, 4, 5]]).astype(float)
    codes = np.array([0, 0, 1, 1, 2, 2])
    W = np.column_stack([[1.0, 2.0, 1.0, 1.0, 0.5, 1.0], 10 * np.array([1, 1, 3, 1, 2, 1.0])])
    learner = OrderedCut().fit(X, codes, W)
    hand = {(j, s, tuple(t)): _weighted_binary_error(_answers(X, j, s, t), codes, W)
            for j, s, t in _all_ordered_cuts(X, 2)}
    chosen = _weighted_binary_error(learner.replica_answers(X), codes, W)
    assert learner.error_ == pytest.approx(chosen)
    assert chosen == pytest.approx(min(hand.values()))
    # the replicas' answers are monotone, so the class induces exactly these answers
    answers = learner.replica_answers(X)
    assert np.all(answers[:, 0] >= answers[:, 1])
    np.testing.assert_array_equal(learner._predict_codes(X), answers.sum(axis=1))
    # the weights decide for attribute 1 (the heavy replica's), where a one-cut oDT scaling
    # each replica by its own weight counts both replicas alike and takes attribute 0
    assert learner.feature_ == 1 and learner.error_ == pytest.approx(2.0)
    odt = ReplicatedTreeClassifier(split_score="gain", max_depth=1, prune=False,
                                   min_samples_split=0, min_samples_leaf=0)
    odt.classes_, odt.n_classes_, odt.n_features_in_ = np.arange(3), 3, 2
    assert odt._fit_replicas(X, codes, W).tree_["feature"][0] == 0


def test_adaboost_or_round_error_is_the_weak_learners_binary_error():
    X, y = make_circle(120, random_state=3)
    w = np.random.default_rng(0).uniform(0.5, 2.0, size=120)
    model = AdaBoostOR(n_estimators=5).fit(X, y, sample_weight=w)
    # round 1: binary weights |c_i[k+1] - c_i[k]| = w_i in every replica
    W = np.repeat(w[:, None], 2, axis=1)
    first = model.estimators_[0]
    assert isinstance(first, OrderedCut)
    err = _weighted_binary_error(first.replica_answers(X), y, W)
    assert model.errors_[0] == pytest.approx(err / W.sum())
    assert first.error_ == pytest.approx(err)
    assert len(model.estimators_) == 5 and np.all(model.alphas_ > 0)


# --- oAdaBoost's stop -------------------------------------------------------------------------

def test_oadaboost_stops_a_replica_for_which_the_attribute_is_useless():
    # one attribute (the choice is forced). Replica 1 (Y > C_2) has one unit of each side at
    # each value: no cut beats chance, its error is 1/2 and it stops in round 1; replica 0
    # (Y > C_1) errs on 1/4 and goes on.
    X = np.array([[0.0], [0.0], [1.0], [1.0]])
    y = np.array([0, 2, 1, 2])
    model = OrdinalStumpBoost(n_estimators=6).fit(X, y)
    assert model.errors_[0, 1] == pytest.approx(0.5)
    assert np.all(np.isnan(model.errors_[1:, 1])) and np.all(model.alphas_[:, 1] == 0)
    assert model.errors_[0, 0] == pytest.approx(0.25)
    assert model.alphas_[0, 0] == pytest.approx(0.5 * np.log(3.0))
    assert len(model.features_) > 1
    # a replica stopped before any stump answers "not above C_2": no unit is predicted C_3
    assert not np.any(model.predict(X) == 2)


def test_oadaboost_ends_when_every_replica_has_stopped():
    # a constant attribute: replica 1 is balanced (error 1/2 at once); replica 0 errs on 1/4,
    # after which AdaBoost's update balances it (error 1/2 in round 2): two rounds, not 50
    X = np.zeros((4, 1))
    y = np.array([0, 1, 2, 2])
    model = OrdinalStumpBoost(n_estimators=50).fit(X, y)
    assert len(model.features_) == 2
    np.testing.assert_allclose(model.errors_, [[0.25, 0.5], [0.5, np.nan]])
    assert model.alphas_[1, 0] == 0 and model.alphas_[0, 1] == 0


# --- data replication's s ---------------------------------------------------------------------

class _Recorder(ClassifierMixin, BaseEstimator):
    """A binary classifier that keeps what it was fitted on."""

    def fit(self, X, y, sample_weight=None):
        self.X_, self.y_, self.w_ = np.asarray(X), np.asarray(y), sample_weight
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.zeros(len(X), dtype=int)


def test_data_replication_s_by_hand():
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0]])
    y = np.array([0, 1, 2, 3, 3])  # K = 4: replicas q = 0, 1, 2
    # s = 1: replica q takes classes q and q+1 (codes): units {0,1}, {1,2}, {2,3,4}
    model = DataReplicationClassifier(_Recorder(), s=1, h=2.0).fit(X, y)
    np.testing.assert_array_equal(model.n_replicated_, [2, 2, 3])
    Z = model.estimator_.X_
    np.testing.assert_array_equal(Z, [[0, 0, 0], [1, 0, 0],
                                      [1, 2, 0], [2, 2, 0],
                                      [2, 0, 2], [3, 0, 2], [4, 0, 2]])
    np.testing.assert_array_equal(model.estimator_.y_, [0, 1, 0, 1, 0, 1, 1])
    # s = 2: codes q-1 .. q+2: units {0,1,2}, all five, {1,2,3,4}
    two = DataReplicationClassifier(_Recorder(), s=2).fit(X, y, sample_weight=np.arange(1, 6))
    np.testing.assert_array_equal(two.n_replicated_, [3, 5, 4])
    np.testing.assert_array_equal(two.estimator_.w_, [1, 2, 3, 1, 2, 3, 4, 5, 2, 3, 4, 5])


def test_data_replication_full_s_is_the_former_method():
    X, y = make_circle(150, random_state=2)
    full = DataReplicationClassifier(s=2, random_state=0).fit(X, y)
    default = DataReplicationClassifier(random_state=0).fit(X, y)
    # the former fit: every unit in each of the K-1 copies
    k = 3
    Z = replicate(X, k, 1.0)
    z = np.concatenate([(y > q).astype(int) for q in range(k - 1)])
    former = LogisticRegression(max_iter=1000).fit(Z, z)
    for model in (full, default):
        np.testing.assert_array_equal(model.estimator_.coef_, former.coef_)
        np.testing.assert_array_equal(model.estimator_.intercept_, former.intercept_)
        np.testing.assert_array_equal(model.n_replicated_, [150, 150])
    assert dict(DataReplicationClassifier(s=1).fit(X, y).summary().info)["s"] == "1"


def test_data_replication_s_errors():
    X, y = make_circle(60, random_state=0)
    with pytest.raises(ValueError, match=r"s must be between 1 and K-1 = 2 .*got s=3"):
        DataReplicationClassifier(s=3).fit(X, y)
    with pytest.raises(ValueError, match="'s' parameter of DataReplicationClassifier"):
        DataReplicationClassifier(s=0).fit(X, y)
    with pytest.raises(ValueError, match="'s' parameter of DataReplicationClassifier"):
        DataReplicationClassifier(s=1.5).fit(X, y)


# --- forests of oDT trees ---------------------------------------------------------------------

@pytest.mark.parametrize("max_features, p, drawn", [
    (None, 8, 8), ("log2+1", 8, 4), ("log2+1", 5, 3), ("log2+1", 1, 1), ("log2", 8, 3),
    ("sqrt", 8, 2), ("sqrt", 1, 1), (0.5, 8, 4), (0.01, 8, 1), (3, 8, 3), (8, 8, 8)])
def test_attributes_drawn(max_features, p, drawn):
    assert n_features_drawn(max_features, p) == drawn


def _forest_data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 8))
    y = np.digitize(X[:, :4].sum(axis=1) + 0.5 * rng.normal(size=150), [-1.0, 1.0])
    return X, y


def test_odt_draws_attributes_per_node():
    X, y = _forest_data()
    tree = ReplicatedTreeClassifier(max_features=1, prune=False, random_state=0).fit(X, y)
    used = tree.tree_["feature"][tree.tree_["feature"] >= 0]
    # one attribute per node: a draw per tree would use one attribute throughout
    assert np.unique(used).size > 3
    again = ReplicatedTreeClassifier(max_features=1, prune=False, random_state=0).fit(X, y)
    np.testing.assert_array_equal(again.tree_["feature"], tree.tree_["feature"])
    other = ReplicatedTreeClassifier(max_features=1, prune=False, random_state=1).fit(X, y)
    assert not np.array_equal(other.tree_["feature"], tree.tree_["feature"])
    # every attribute drawn: the tree does not depend on the seed
    a = ReplicatedTreeClassifier(max_features=8, random_state=0).fit(X, y)
    b = ReplicatedTreeClassifier(random_state=5).fit(X, y)
    np.testing.assert_array_equal(a.tree_["threshold"], b.tree_["threshold"])


@pytest.mark.parametrize("aggregation", ["vote", "median"])
def test_forest_of_odt_trees(aggregation):
    X, y = _forest_data()
    tree = ReplicatedTreeClassifier(max_features="log2+1", prune=False)
    forest = OrdinalBaggingClassifier(tree, n_estimators=6, aggregation=aggregation,
                                      oob_score=False, random_state=0).fit(X, y)
    seeds = [est.random_state for est in forest.estimators_]
    assert len(set(seeds)) == 6 and all(isinstance(s, int) for s in seeds)
    same = OrdinalBaggingClassifier(tree, n_estimators=6, aggregation=aggregation,
                                    oob_score=False, random_state=0).fit(X, y)
    np.testing.assert_array_equal(forest.predict(X), same.predict(X))
    for a, b in zip(forest.estimators_, same.estimators_):
        np.testing.assert_array_equal(a.tree_["threshold"], b.tree_["threshold"])
    assert np.mean(forest.predict(X) == y) > 0.8
