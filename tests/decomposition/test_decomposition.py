"""Decompositions into binary replicas: hand computations on tiny data, invariants, and small
versions of the papers' experiments (full runs: benchmarks/repro_decomposition.py)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import SVC

from ordstat.datasets import make_circle, make_waegeman_synthetic
from ordstat.decomposition import (
    REPLICA_RULES,
    AdaBoostOR,
    DataReplicationClassifier,
    FrankHallClassifier,
    OrdinalStumpBoost,
    ReplicatedTreeClassifier,
    WeightedSVMEnsemble,
    frank_hall_proba,
    get_replica_rule,
    register_replica_rule,
    replica_threshold_search,
    svm_grid_search,
    waegeman_weights,
)
from ordstat.decomposition._boosting import mae_costs, update_costs, weighted_median
from ordstat.decomposition._frank_hall import replicate
from ordstat.decomposition._odt import pessimistic_errors
from ordstat.decomposition._replicas import count_rank, resolve_rank
from ordstat.trees.criteria import get_criterion


# --- Frank & Hall ---------------------------------------------------------------------------

def test_frank_hall_proba_by_hand():
    upper = np.array([[0.8, 0.3], [0.3, 0.6]])
    proba = frank_hall_proba(upper)
    # monotone row: 1 - 0.8, 0.8 - 0.3, 0.3
    np.testing.assert_allclose(proba[0], [0.2, 0.5, 0.3])
    # non-monotone row: 0.7, -0.3 -> 0, 0.6; renormalised by 1.3
    np.testing.assert_allclose(proba[1], [0.7 / 1.3, 0.0, 0.6 / 1.3])


def test_frank_hall_classifier_with_prior_estimator():
    # DummyClassifier(prior) answers P(Y > C_k) = share of the data above C_k
    X = np.zeros((4, 1))
    y = np.array(["a", "a", "b", "c"])
    fh = FrankHallClassifier(DummyClassifier(strategy="prior"), classes=["a", "b", "c"])
    proba = fh.fit(X, y).predict_proba(X)
    np.testing.assert_allclose(proba, np.tile([0.5, 0.25, 0.25], (4, 1)))
    assert list(fh.predict(X)) == ["a"] * 4


def test_frank_hall_counting_rule():
    # constant binary answers: P(Y > a) = 3/4 -> C+, P(Y > b) = 1/2 -> most_frequent tie -> 0
    X = np.zeros((4, 1))
    y = np.array([0, 1, 2, 2])
    fh = FrankHallClassifier(DummyClassifier(strategy="most_frequent"), combine="count")
    pred = fh.fit(X, y).predict(X)
    answers = [e.predict(X)[0] for e in fh.estimators_]
    assert pred[0] == sum(answers)
    assert count_rank(np.array([[1, 0, 1]])).tolist() == [2]


def test_frank_hall_seed_and_jobs():
    X, y = make_circle(200, random_state=0)
    from sklearn.ensemble import RandomForestClassifier
    base = RandomForestClassifier(n_estimators=5)
    a = FrankHallClassifier(base, random_state=3).fit(X, y).predict_proba(X)
    from joblib import parallel_config
    with parallel_config(backend="threading"):
        b = FrankHallClassifier(base, random_state=3, n_jobs=2).fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(a, b)


def test_frank_hall_errors():
    X, y = make_circle(50, random_state=0)
    with pytest.raises(ValueError, match="'combine' parameter of FrankHallClassifier must be"):
        FrankHallClassifier(combine="vote").fit(X, y)
    with pytest.raises(TypeError, match="'estimator' parameter of FrankHallClassifier must be"):
        FrankHallClassifier(estimator="tree").fit(X, y)
    from sklearn.neighbors import KNeighborsClassifier
    with pytest.raises(TypeError, match="does not accept sample_weight"):
        FrankHallClassifier(KNeighborsClassifier()).fit(X, y, sample_weight=np.ones(50))


# --- data replication -------------------------------------------------------------------------

def test_replicate_layout_by_hand():
    X = np.array([[1.0], [2.0]])
    Z = replicate(X, 4, h=5.0)
    expected = np.array([
        [1, 0, 0], [2, 0, 0],      # replica 0: e_0 = (0, 0)
        [1, 5, 0], [2, 5, 0],      # replica 1: e_1 = (h, 0)
        [1, 0, 5], [2, 0, 5],      # replica 2: e_2 = (0, h)
    ], dtype=float)
    np.testing.assert_array_equal(Z, expected)


def test_data_replication_parallel_and_consistent():
    rng = np.random.default_rng(0)
    x = rng.uniform(0, 3, size=300)
    y = np.floor(x + rng.normal(0, 0.2, 300)).clip(0, 2).astype(int)
    X = np.column_stack([x, rng.normal(size=300)])
    model = DataReplicationClassifier(LogisticRegression(C=100.0, max_iter=5000)).fit(X, y)
    coef = model.estimator_.coef_.ravel()
    # one normal vector for both boundaries: w x + v_q + b, the boundaries differ only in offset
    assert coef.shape == (X.shape[1] + 1,)
    grid = np.column_stack([np.linspace(0, 3, 200), np.zeros(200)])
    pred = model.predict(grid)
    assert np.all(np.diff(pred) >= 0)  # parallel cuts along x give ordered regions
    with pytest.raises(ValueError, match=r"'h' parameter of DataReplicationClassifier must "
                                         r"be a float in the range \(0.0, inf\)"):
        DataReplicationClassifier(h=0.0).fit(X, y)


# --- replica rules ----------------------------------------------------------------------------

def test_each_rule_on_a_toy_example():
    values = np.array([[0.5, 0.2, 0.0]])
    active = np.array([[True, True, False]])
    expected = {
        "sum": 0.7,
        "average": 0.35,
        "product": 1 - 0.5 * 0.8,
        "geometric": np.sqrt(0.1),
        "min": 0.2,
        "max": 0.5,
        "dist_min": np.sqrt(0.25 + 0.04),
        "dist_max": np.sqrt(2) - np.sqrt(0.25 + 0.64),
    }
    assert set(expected) <= set(REPLICA_RULES)
    for name, value in expected.items():
        np.testing.assert_allclose(get_replica_rule(name)(values, active), [value], err_msg=name)
    # no active replica: every rule scores 0
    none = np.zeros((1, 3), dtype=bool)
    for name in expected:
        np.testing.assert_allclose(get_replica_rule(name)(values, none), [0.0], err_msg=name)


def test_rule_registry_errors_and_user_rule():
    with pytest.raises(ValueError, match="rule must be one of"):
        get_replica_rule("median")
    with pytest.raises(ValueError, match="already registered"):
        register_replica_rule("sum", lambda v, a: v.sum(1))
    fn = register_replica_rule("_test_first", lambda v, a: v[:, 0])
    try:
        assert get_replica_rule("_test_first") is fn
    finally:
        REPLICA_RULES.pop("_test_first")


# --- threshold search -------------------------------------------------------------------------

def _cut_goodness(x, codes, W, k, crit, t):
    """Goodness of replica k's cut ``x < t`` over its units of positive weight, by hand."""
    mine, pos, left = W[:, k] > 0, codes > k, x < t
    L = np.array([[W[mine & left & ~pos, k].sum(), W[mine & left & pos, k].sum()]])
    R = np.array([[W[mine & ~left & ~pos, k].sum(), W[mine & ~left & pos, k].sum()]])
    return crit(L, R)[0], int((mine & left).sum()), int((mine & ~left).sum())


def _naive_search(x, codes, W, crit, min_leaf):
    """Every midpoint between consecutive distinct values of each replica's units (weight > 0),
    one criterion call per candidate: the best goodness per replica and the goodness of every
    admissible threshold (both children with at least ``min_leaf`` of the replica's units)."""
    m = W.shape[1]
    best_g, table = np.zeros(m), [{} for _ in range(m)]
    for k in range(m):
        values = np.unique(x[W[:, k] > 0])
        for a, b in zip(values[:-1], values[1:]):
            t = 0.5 * (a + b)
            g, n_left, n_right = _cut_goodness(x, codes, W, k, crit, t)
            if n_left < min_leaf or n_right < min_leaf:
                continue
            if g > 1e-12:
                table[k][t] = g
                best_g[k] = max(best_g[k], g)
    return best_g, table


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["entropy", "gini", "ordinal"]),
       st.integers(1, 4))
def test_threshold_search_matches_naive(seed, criterion, min_leaf):
    rng = np.random.default_rng(seed)
    n, K = 25, 4
    x = rng.integers(0, 8, n).astype(float)
    codes = rng.integers(0, K, n)
    W = rng.uniform(0, 2, size=(n, K - 1)) * (rng.uniform(size=(n, K - 1)) > 0.2)
    crit = get_criterion(criterion)
    t, g = replica_threshold_search(x, codes, W, criterion, min_leaf=min_leaf)
    g0, table = _naive_search(x, codes, W, crit, min_leaf)
    np.testing.assert_allclose(g, g0, rtol=1e-9, atol=1e-12)
    for k in range(K - 1):
        if np.isfinite(t[k]):  # a best cut (ties up to round-off may pick either)
            assert table[k][t[k]] == pytest.approx(g0[k], rel=1e-9)
        else:
            assert not table[k]


# --- oDT --------------------------------------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=3, max_size=5), st.integers(0, 1000))
def test_odt_monotone_thresholds_ordered(sizes, seed):
    # appendix B, Theorem 1: noise-free increasing data -> theta_1 <= ... <= theta_{K-1}, and
    # each threshold at its class boundary
    rng = np.random.default_rng(seed)
    x = np.sort(rng.permutation(200)[: sum(sizes)].astype(float))
    y = np.repeat(np.arange(len(sizes)), sizes)
    tree = ReplicatedTreeClassifier(max_depth=1, min_samples_leaf=1, min_num_obj=None,
                                    prune=False).fit(x[:, None], y)
    thr = tree.tree_["threshold"][0]
    bounds = np.cumsum(sizes)[:-1]
    np.testing.assert_allclose(thr, 0.5 * (x[bounds - 1] + x[bounds]))
    assert np.all(np.diff(thr) >= 0)
    np.testing.assert_array_equal(tree.predict(x[:, None]), y)


def test_odt_concave_non_symmetric_thresholds_ordered():
    # appendix B, Theorem 3: concave data whose left negative part is the larger one in every
    # replica (delta_k > 0) -> every cut on the increasing side, in increasing order
    x = np.linspace(0.0, 1.0, 401)
    up = np.array([0.1, 0.2, 0.3])  # class boundaries on the way up
    down = np.array([0.95, 0.9, 0.85])  # and on the way down (replica k positive in between)
    y = ((x[:, None] > up) & (x[:, None] < down)).sum(axis=1)
    tree = ReplicatedTreeClassifier(max_depth=1, prune=False).fit(x[:, None], y)
    thr = tree.tree_["threshold"][0]
    np.testing.assert_allclose(thr, up, atol=0.0026)
    assert np.all(np.diff(thr) > 0)


def test_odt_decreasing_data_thresholds_decrease():
    x = np.arange(12.0)
    y = np.repeat([3, 2, 1, 0], 3)
    thr = ReplicatedTreeClassifier(max_depth=1, prune=False).fit(x[:, None], y).tree_[
        "threshold"][0]
    assert np.all(np.diff(thr) <= 0)


def test_odt_infinite_threshold_when_replica_needs_no_cut():
    # class 2 <=> b = 1 whatever a is, so a cut on a gains nothing for replica Y > 1
    a = np.tile(np.repeat([0.0, 1.0], 10), 2)
    b = np.repeat([0.0, 1.0], 20)
    y = np.where(b == 1, 2, np.where(a == 0, 0, 1))
    X = np.column_stack([a, b])
    thr, gain = replica_threshold_search(a, y, np.ones((40, 2)), "entropy")
    assert thr[0] == 0.5 and thr[1] == np.inf and gain[1] == 0
    tree = ReplicatedTreeClassifier(prune=False).fit(X, y)
    assert np.isinf(tree.tree_["threshold"][tree.tree_["feature"] >= 0]).any()
    text = tree.export_text(feature_names=["a", "b"])
    assert "inf]" in text and text.count("leaf [") == int((tree.tree_["feature"] < 0).sum())
    np.testing.assert_array_equal(tree.predict(X), y)


def test_odt_pruning_shrinks_noisy_tree():
    X, y = make_circle(300, random_state=1)
    rng = np.random.default_rng(0)
    y = np.where(rng.uniform(size=300) < 0.2, rng.integers(0, 3, 300), y)
    full = ReplicatedTreeClassifier(prune=False).fit(X, y)
    pruned = ReplicatedTreeClassifier(prune=True).fit(X, y)
    assert pruned.node_count_ < full.node_count_


def test_pessimistic_errors_zero_errors_closed_form():
    # no errors: the upper limit solves (1 - U)^n = CF
    assert pessimistic_errors(0.0, 10.0, 0.25) == pytest.approx(10 * (1 - 0.25 ** 0.1))


def test_odt_parameter_errors():
    X, y = make_circle(60, random_state=0)
    with pytest.raises(ValueError, match="rule must be one of"):
        ReplicatedTreeClassifier(rule="mean").fit(X, y)
    with pytest.raises(ValueError, match="criterion must be one of"):
        ReplicatedTreeClassifier(criterion="nope").fit(X, y)
    with pytest.raises(ValueError, match="'confidence' parameter of ReplicatedTreeClassifier"):
        ReplicatedTreeClassifier(confidence=0.9).fit(X, y)
    with pytest.raises(ValueError, match="'min_samples_leaf' parameter of ReplicatedTree"):
        ReplicatedTreeClassifier(min_samples_leaf=-1).fit(X, y)
    with pytest.raises(TypeError, match="'prune' parameter of ReplicatedTreeClassifier must be"):
        ReplicatedTreeClassifier(prune="yes").fit(X, y)


def test_odt_proba_combination_sums_to_one():
    X, y = make_circle(200, random_state=2)
    p = ReplicatedTreeClassifier(combine="proba").fit(X, y).predict_proba(X)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    assert (p >= 0).all()


# --- boosting ---------------------------------------------------------------------------------

def test_adaboost_or_cost_vectors_by_hand():
    codes = np.array([1, 1, 2])
    costs = mae_costs(codes, 4)
    np.testing.assert_array_equal(costs, [[1, 0, 1, 2], [1, 0, 1, 2], [2, 1, 0, 1]])
    new = update_costs(costs, codes, pred=np.array([2, 1, 0]), beta=2.0)
    # unit 0 (y=1, f=2): binary weights [1, 1, 1]; threshold 1 wrong -> [1, 2, 1] -> costs
    np.testing.assert_array_equal(new[0], [1, 0, 2, 3])
    # unit 1 correct: unchanged
    np.testing.assert_array_equal(new[1], [1, 0, 1, 2])
    # unit 2 (y=2, f=0): thresholds 0 and 1 wrong -> weights [2, 2, 1] -> costs [4, 2, 0, 1]
    np.testing.assert_array_equal(new[2], [4, 2, 0, 1])


def test_weighted_median_by_hand():
    preds = np.array([[0, 2, 2], [0, 1, 2]])
    # lower weighted median: the first class whose cumulative alpha reaches half the total
    np.testing.assert_array_equal(weighted_median(preds, np.array([0.6, 0.3, 0.3]), 3), [0, 0])
    np.testing.assert_array_equal(weighted_median(preds, np.array([0.2, 0.3, 0.3]), 3), [2, 1])


def test_adaboost_or_first_error_is_normalised_mae():
    X, y = make_circle(200, random_state=3)
    model = AdaBoostOR(n_estimators=3).fit(X, y)
    first = model.estimators_[0]._predict_codes(X)
    assert model.errors_[0] == pytest.approx(np.abs(first - y).sum() / (200 * 2))
    assert np.all(model.alphas_ > 0)


def test_adaboost_or_other_ordinal_learner_and_errors():
    X, y = make_circle(150, random_state=4)
    weak = FrankHallClassifier(combine="count")
    model = AdaBoostOR(weak, n_estimators=3).fit(X, y)
    assert set(model.predict(X)) <= set(np.unique(y))
    with pytest.raises(ValueError, match="'n_estimators' parameter of AdaBoostOR must be"):
        AdaBoostOR(n_estimators=0).fit(X, y)
    with pytest.raises(TypeError, match="'estimator' parameter of AdaBoostOR must be"):
        AdaBoostOR(estimator=3).fit(X, y)


def test_oadaboost_separable_data_settles_in_one_round():
    x = np.arange(30.0)
    y = np.repeat([0, 1, 2], 10)
    X = np.column_stack([x, np.sin(x)])
    model = OrdinalStumpBoost(n_estimators=20).fit(X, y)
    assert len(model.features_) == 1 and model.features_[0] == 0
    np.testing.assert_array_equal(model.errors_[0], [0.0, 0.0])
    np.testing.assert_array_equal(model.predict(X), y)


def test_oadaboost_stops_replicas_and_alpha_formula():
    X, y = make_circle(200, random_state=5)
    model = OrdinalStumpBoost(n_estimators=15).fit(X, y)
    e, a = model.errors_, model.alphas_
    used = np.isfinite(e) & (e <= 0.5) & (e > 0)
    np.testing.assert_allclose(a[used], 0.5 * np.log((1 - e[used]) / e[used]))
    assert np.all(a[~np.isfinite(e)] == 0)
    with pytest.raises(ValueError, match="rule must be one of"):
        OrdinalStumpBoost(rule="nope").fit(X, y)


# --- weighted SVM ensemble --------------------------------------------------------------------

def test_waegeman_weights_by_hand():
    W = waegeman_weights(np.array([0, 0, 1, 2]), 3)
    np.testing.assert_allclose(W[:, 0], [1, 1, 2 / 3, 4 / 3])
    np.testing.assert_allclose(W[:, 1], [6 / 5, 6 / 5, 3 / 5, 1])
    np.testing.assert_allclose(W.sum(axis=0), 4)  # eq. 5


def test_resolve_rank_by_hand():
    d = np.array([[1.0, -1.0, 1.0], [2.0, 1.0, -1.0], [-1.0, -2.0, -3.0]])
    # row 0 non-monotone: ranks 1 and 3 both contradict by 1 -> lower rank 1 (counting says 2)
    np.testing.assert_array_equal(resolve_rank(d), [1, 2, 0])


def test_unweighted_ensemble_is_plain_svcs():
    X, y = make_waegeman_synthetic(1, n_per_rank=30, random_state=0)
    model = WeightedSVMEnsemble(C=2.0, gamma=0.1, weighted=False).fit(X, y)
    for k in range(3):
        ref = SVC(C=2.0, gamma=0.1).fit(X, np.where(y > k + 1, 1, -1))
        np.testing.assert_allclose(model.replica_decision(X)[:, k], ref.decision_function(X),
                                   atol=1e-6)
    with pytest.raises(TypeError, match="'weighted' parameter of WeightedSVMEnsemble must be"):
        WeightedSVMEnsemble(weighted="yes").fit(X, y)


def test_grid_search_small():
    X, y = make_waegeman_synthetic(1, n_per_rank=20, random_state=0)
    best, table = svm_grid_search(X, y, log2_C=[0, 3], log2_gamma=[-3, 0], cv=3, random_state=0)
    assert table.shape == (4, 3)
    assert best["error"] == table[:, 2].min()
    with pytest.raises(ValueError, match="at least one value"):
        svm_grid_search(X, y, log2_C=[], random_state=0)


# --- generators -------------------------------------------------------------------------------

def test_generators():
    X, y = make_circle(500, random_state=0)
    r2 = (X[:, 0] - 0.5) ** 2 + (X[:, 1] - 0.5) ** 2
    np.testing.assert_array_equal(y, np.floor(6 * r2))
    assert X.min() >= 0 and X.max() <= 1
    X, y = make_waegeman_synthetic(1, n_per_rank=2000, random_state=0)
    for r, mu in zip(range(1, 5), [(10, 10), (20, 10), (20, 20), (30, 20)]):
        np.testing.assert_allclose(X[y == r].mean(axis=0), mu, atol=0.2)
        np.testing.assert_allclose(X[y == r].std(axis=0), 3, atol=0.15)
    X2, y2 = make_waegeman_synthetic(2, random_state=0)
    assert X2.shape == (440, 2)
    with pytest.raises(ValueError, match="kind must be 1 or 2"):
        make_waegeman_synthetic(3)
    with pytest.raises(ValueError, match="n must be"):
        make_circle(0)


# --- small versions of the papers' experiments (full runs in the repro script) ----------------

def _cv_error(model, X, y, folds=10, seed=0):
    errs = []
    for tr, te in StratifiedKFold(folds, shuffle=True, random_state=seed).split(X, y):
        errs.append(np.mean(model.fit(X[tr], y[tr]).predict(X[te]) != y[te]))
    return 100 * np.mean(errs)


def test_odt_circle_small_version():
    X, y = make_circle(1000, random_state=0)
    err = _cv_error(ReplicatedTreeClassifier(), X, y)
    print(f"oDT Circle, one 10-fold CV: {err:.2f} % (dissertation Table 4.2: 5.48 %)")
    assert abs(err - 5.48) < 3.0


@pytest.mark.slow
def test_oadaboost_circle_small_version():
    X, y = make_circle(1000, random_state=0)
    err = _cv_error(OrdinalStumpBoost(n_estimators=100), X, y, folds=5)
    print(f"oAdaBoost Circle, one 5-fold CV: {err:.2f} % (dissertation Table 5.2: 6.87 %)")
    assert abs(err - 6.87) < 4.0


def test_weighted_svm_synthetic1_small_version():
    accs, maes = [], []
    for s in range(3):
        X, y = make_waegeman_synthetic(1, random_state=2 * s)
        Xt, yt = make_waegeman_synthetic(1, random_state=2 * s + 1)
        pred = WeightedSVMEnsemble(C=1.0, gamma=1 / 8).fit(X, y).predict(Xt)
        accs.append(np.mean(pred == yt))
        maes.append(np.mean(np.abs(pred - yt)))
    acc, mae = 100 * np.mean(accs), np.mean(maes)
    print(f"weighted SVM, synthetic 1, 3 pairs: acc {acc:.2f} % MAE {mae:.3f} "
          "(Table I: 91.25 %, 0.092)")
    assert abs(acc - 91.25) < 2.5


@pytest.mark.parametrize("name", ["frank_hall", "data_replication", "odt", "oadaboost",
                                  "adaboost_or", "wsvm"])
def test_cli_registry_entries_fit(name):
    from ordstat.cli._methods import make_method
    X, y = make_circle(120, random_state=7)
    labels = np.array(["low", "mid", "high", "corner"])[y]
    model = make_method(name, classes=["low", "mid", "high", "corner"]).fit(X, labels)
    assert list(model.classes_) == ["low", "mid", "high", "corner"]
    assert set(model.predict(X)) <= {"low", "mid", "high", "corner"}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=6))
def test_frank_hall_proba_is_a_distribution(upper):
    p = frank_hall_proba(np.array([upper]))
    assert p.shape == (1, len(upper) + 1)
    assert (p >= 0).all() and p.sum() == pytest.approx(1.0)
    if np.all(np.diff(upper) <= 0):  # monotone: no clipping, plain differences
        np.testing.assert_allclose(p[0], -np.diff(np.r_[1.0, upper, 0.0]), atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 5), st.integers(0, 5),
       st.lists(st.floats(0.01, 10), min_size=10, max_size=10))
def test_resolve_rank_is_the_count_for_monotone_signs(n_pos, n_neg, mags):
    d = np.array(mags[:n_pos] + [-m for m in mags[5:5 + n_neg]])[None, :]
    if d.size == 0:
        return
    assert resolve_rank(d)[0] == count_rank(d > 0)[0] == n_pos


def test_threshold_search_on_several_attributes_is_columnwise():
    rng = np.random.default_rng(11)
    X = rng.integers(0, 6, size=(40, 3)).astype(float)
    codes = rng.integers(0, 4, 40)
    W = rng.uniform(size=(40, 3))
    thr, good = replica_threshold_search(X, codes, W, "entropy")
    assert thr.shape == good.shape == (3, 3)
    for j in range(3):
        t, g = replica_threshold_search(X[:, j], codes, W, "entropy")
        np.testing.assert_array_equal(thr[j], t)
        np.testing.assert_allclose(good[j], g)


# --- parameter constraints ----------------------------------------------------------------------

@pytest.mark.parametrize("estimator", [
    FrankHallClassifier(), DataReplicationClassifier(), ReplicatedTreeClassifier(),
    OrdinalStumpBoost(n_estimators=2), AdaBoostOR(n_estimators=2), WeightedSVMEnsemble(),
], ids=lambda e: type(e).__name__)
def test_every_parameter_is_declared_and_checked(estimator):
    """scikit-learn's own check: a constraint for every constructor parameter, and fit refuses
    a value of the wrong type or out of range naming the parameter."""
    from sklearn.utils.estimator_checks import check_param_validation

    check_param_validation(type(estimator).__name__, estimator)


def test_odt_size_limits_are_what_the_tree_needs():
    X, y = make_circle(60, random_state=0)
    # 0 is allowed (AdaBoost.OR's one-cut weak learner), an infinite split minimum never splits
    ReplicatedTreeClassifier(min_samples_split=0, min_samples_leaf=0).fit(X, y)
    assert ReplicatedTreeClassifier(min_samples_split=np.inf).fit(X, y).node_count_ == 1
    with pytest.raises(ValueError, match="'min_samples_leaf' parameter"):
        ReplicatedTreeClassifier(min_samples_leaf=np.inf).fit(X, y)  # rounded up to units
    with pytest.raises(ValueError, match="'min_gain' parameter"):
        ReplicatedTreeClassifier(min_gain=1.5).fit(X, y)
    with pytest.raises(ValueError, match="'h' parameter"):
        DataReplicationClassifier(h=np.inf).fit(X, y)


# --- summaries ----------------------------------------------------------------------------------

def _renders(summary, title):
    from ordstat._core.summary import Summary

    assert isinstance(summary, Summary)
    assert str(summary).startswith(title)
    assert "<table" in summary._repr_html_()


def _below_above(y, weights=None):
    counts = np.bincount(y, weights=weights)
    below = np.cumsum(counts)[:-1]
    return below, counts.sum() - below


def test_frank_hall_summary_weights_and_constant_replica():
    X, y = make_circle(120, random_state=1)
    w = np.random.default_rng(0).uniform(0.5, 2.0, size=len(y))
    classes = np.arange(y.max() + 2)  # one class more than the data has: its replica is constant
    model = FrankHallClassifier(classes=classes).fit(X, y, sample_weight=w)
    summary = model.summary()
    _renders(summary, "Frank & Hall")
    table = summary["classes"]
    np.testing.assert_array_equal(table["units"], np.bincount(y, minlength=len(classes)))
    np.testing.assert_allclose(table["weight"], np.bincount(y, weights=w,
                                                            minlength=len(classes)))
    assert dict(summary.info)["units"] == f"{len(y)} (total weight {w.sum():.4g})"
    replicas = summary["replicas"]
    below, above = _below_above(np.append(y, classes[-1]))  # the last class as one unit more
    np.testing.assert_array_equal(replicas["below"], below)
    np.testing.assert_array_equal(replicas["above"][:-1], above[:-1] - 1)
    assert replicas["above"].iloc[-1] == 0
    assert replicas["model"].tolist() == (["LogisticRegression"] * (len(classes) - 2)
                                          + ["constant: all below"])
    np.testing.assert_allclose(replicas["below weight"] + replicas["above weight"], w.sum())


def test_data_replication_summary_gives_the_parallel_boundaries():
    X, y = make_circle(150, random_state=2)
    model = DataReplicationClassifier(h=2.0).fit(X, y)
    summary = model.summary()
    _renders(summary, "Data replication")
    coef = summary["coefficients"]["coefficient"].to_numpy()
    intercepts = summary["replicas"]["intercept"].to_numpy()
    k = model.n_classes_
    decision = model.estimator_.decision_function(replicate(X, k, 2.0)).reshape(k - 1, -1)
    for q in range(k - 1):
        np.testing.assert_allclose(X @ coef + intercepts[q], decision[q], atol=1e-10)
    below, above = _below_above(y)
    np.testing.assert_array_equal(summary["replicas"]["below"], below)
    assert dict(summary.info)["replicated sample"] == \
        f"{len(y) * (k - 1)} rows, {X.shape[1] + k - 2} columns"
    # a learner without coefficients: no boundary tables
    tree = DataReplicationClassifier(DummyClassifier()).fit(X, y).summary()
    assert "coefficients" not in tree.tables and "intercept" not in tree["replicas"]


def _depth(tree, node=0):
    if tree["left"][node] < 0:
        return 0
    return 1 + max(_depth(tree, tree["left"][node]), _depth(tree, tree["right"][node]))


def test_odt_summary_size_and_cuts():
    X, y = make_circle(200, random_state=3)
    model = ReplicatedTreeClassifier().fit(X, y)
    summary = model.summary()
    _renders(summary, "Ordinal decision tree on the replicated data (oDT)")
    tree = model.tree_
    leaves = int(np.sum(tree["left"] < 0))
    assert dict(summary.info)["size"] == \
        f"{model.node_count_} nodes, {leaves} leaves, depth {_depth(tree)}"
    # cuts of replica k: the branch lines of export_text whose k-th threshold is not inf
    lines = [line for line in model.export_text().splitlines() if " <  [" in line]
    cuts = [sum(line.split("[")[1].rstrip("]:").split(", ")[k] != "inf" for line in lines)
            for k in range(model.n_classes_ - 1)]
    np.testing.assert_array_equal(summary["replicas"]["cuts"], cuts)
    assert summary.notes == model.export_text()


def test_oadaboost_summary_rounds():
    X, y = make_circle(200, random_state=5)
    model = OrdinalStumpBoost(n_estimators=6).fit(X, y)
    summary = model.summary()
    _renders(summary, "oAdaBoost")
    rounds = summary["rounds"]
    assert rounds["feature"].tolist() == [f"x{j}" for j in model.features_]
    for k in range(model.n_classes_ - 1):
        np.testing.assert_array_equal(rounds.iloc[:, 1 + k], model.alphas_[:, k])
    replicas = summary["replicas"]
    np.testing.assert_allclose(replicas["alpha sum"], model.alphas_.sum(axis=0))
    np.testing.assert_array_equal(replicas["rounds"], (~np.isnan(model.errors_)).sum(axis=0))


def test_adaboost_or_summary_rounds():
    X, y = make_circle(150, random_state=4)
    model = AdaBoostOR(n_estimators=4).fit(X, y)
    summary = model.summary()
    _renders(summary, "AdaBoost.OR")
    np.testing.assert_array_equal(summary["rounds"]["error"], model.errors_)
    np.testing.assert_array_equal(summary["rounds"]["alpha"], model.alphas_)
    assert dict(summary.info)["rounds"] == f"{len(model.estimators_)} of n_estimators=4"
    np.testing.assert_array_equal(summary["classes"]["units"], np.bincount(y))


def test_weighted_svm_summary_support_vectors():
    X, y = make_waegeman_synthetic(1, n_per_rank=20, random_state=0)
    model = WeightedSVMEnsemble(C=2.0, gamma=0.5).fit(X, y)
    summary = model.summary()
    _renders(summary, "Ensemble of weighted SVMs")
    replicas = summary["replicas"]
    np.testing.assert_array_equal(replicas["support vectors"],
                                  [len(e.support_) for e in model.estimators_])
    codes = np.searchsorted(model.classes_, y)
    below, above = _below_above(codes)
    np.testing.assert_array_equal(replicas["below"], below)
    np.testing.assert_array_equal(replicas["above"], above)
    assert dict(summary.info)["gamma"] == "0.5"


def test_weighted_svm_scale_is_the_svm_of_standardised_predictors():
    """``scale=True`` (R's default, as e1071::svm) equals standardising by hand with the training
    means and sample standard deviations, at fit and at prediction; a constant column is only
    centred; predictors in other units give the same fit."""
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.normal(0, 1, 90), rng.normal(500, 80, 90), np.full(90, 3.0)])
    y = np.digitize(X[:, 0] + (X[:, 1] - 500) / 80, [-1.0, 1.0])
    fit = WeightedSVMEnsemble(scale=True).fit(X, y)
    mean, sd = X.mean(axis=0), X.std(axis=0, ddof=1)
    sd[2] = 1.0
    assert np.allclose(fit.center_, mean) and np.allclose(fit.scale_, sd)
    by_hand = WeightedSVMEnsemble().fit((X - mean) / sd, y)
    X_new = X[:30] * 1.1
    assert np.allclose(fit.replica_decision(X_new), by_hand.replica_decision((X_new - mean) / sd))
    in_grams = X * np.array([1.0, 1000.0, 1.0])
    assert np.array_equal(WeightedSVMEnsemble(scale=True).fit(in_grams, y).predict(in_grams),
                          fit.predict(X))
    assert not hasattr(WeightedSVMEnsemble().fit(X, y), "center_")
    assert "standardised" in str(fit.summary())
