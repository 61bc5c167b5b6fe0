"""Split criteria against brute-force implementations written from the formulas of Archer & Mas
(2009), "Ordinal response prediction using bootstrap aggregation, with application to a
high-throughput methylation data set" (sections 2 and 4), and Piccarreta (2008), "Classification
trees for ordinal variables"."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ordstat.trees import criteria
from ordstat.trees.criteria import (CRITERIA, generalized_gini, loss_matrix_gini, ordinal_impurity,
                                    register_criterion)


# --- plain formulas on proportions, one node at a time -----------------------------------------

def gini_i(p):
    return 1.0 - sum(q * q for q in p)


def entropy_i(p):
    return -sum(q * np.log(q) for q in p if q > 0)


def cost_i(cost):
    def i(p):
        k = len(p)
        return sum(cost[g][h] * p[g] * p[h] for g in range(k) for h in range(k))
    return i


def ordinal_i(scores=None):
    def i(p):
        k = len(p)
        s = list(range(k)) if scores is None else list(scores)
        total = 0.0
        for g in range(k - 1):
            F = sum(p[: g + 1])
            total += F * (1 - F) * (s[g + 1] - s[g])
        return total
    return i


def props(counts):
    n = sum(counts)
    return [c / n for c in counts] if n > 0 else [0.0] * len(counts)


def brute_decrease(impurity, left, right):
    """N_t [i(t) - pL i(tL) - pR i(tR)] (eq. 4 times the node weight)."""
    parent = [a + b for a, b in zip(left, right)]
    n, nl, nr = sum(parent), sum(left), sum(right)
    return n * (impurity(props(parent)) - nl / n * impurity(props(left))
                - nr / n * impurity(props(right)))


def brute_twoing(left, right):
    nl, nr = sum(left), sum(right)
    n = nl + nr
    best = 0.0
    for r in range(len(left) - 1):
        fl = sum(left[: r + 1]) / nl
        fr = sum(right[: r + 1]) / nr
        best = max(best, (fl - fr) ** 2)
    return n * (nl / n) * (nr / n) * best


def linear_cost(k):
    return [[abs(g - h) for h in range(k)] for g in range(k)]


def quadratic_cost(k):
    return [[(g - h) ** 2 for h in range(k)] for g in range(k)]


def altered(counts, loss):
    """rpart's altered-prior counts: n_g times the row sum of the loss matrix."""
    return [c * sum(row) for c, row in zip(counts, loss)]


def brute(name, left, right):
    k = len(left)
    if name in ("loss_linear", "loss_quadratic"):
        loss = linear_cost(k) if name == "loss_linear" else quadratic_cost(k)
        return brute_decrease(gini_i, altered(left, loss), altered(right, loss))
    if name == "gini":
        return brute_decrease(gini_i, left, right)
    if name == "entropy":
        return brute_decrease(entropy_i, left, right)
    if name == "gini_linear":
        return brute_decrease(cost_i(linear_cost(k)), left, right)
    if name == "gini_quadratic":
        return brute_decrease(cost_i(quadratic_cost(k)), left, right)
    if name == "ordinal":
        return brute_decrease(ordinal_i(), left, right)
    if name == "twoing":
        return brute_twoing(left, right)
    raise KeyError(name)


BUILTIN = ["gini", "entropy", "gini_linear", "gini_quadratic", "loss_linear", "loss_quadratic",
           "ordinal", "twoing"]


def test_every_registered_criterion_is_checked_here():
    assert set(BUILTIN) == set(criteria.BUILTIN)


def random_splits(rng, n_cand, k, weighted):
    """Candidate splits from cumulative weighted counts of a random sorted node."""
    y = rng.integers(0, k, size=n_cand + 1)
    w = rng.uniform(0.2, 3.0, size=y.size) if weighted else np.ones(y.size)
    onehot = np.zeros((y.size, k))
    onehot[np.arange(y.size), y] = w
    cum = np.cumsum(onehot, axis=0)
    left = cum[:-1]
    right = cum[-1] - left
    return left, right


@pytest.mark.parametrize("name", BUILTIN)
@pytest.mark.parametrize("k", [2, 3, 5])
@pytest.mark.parametrize("weighted", [False, True])
def test_criterion_matches_brute_force(name, k, weighted):
    rng = np.random.default_rng(k * 10 + weighted)
    left, right = random_splits(rng, 25, k, weighted)
    fast = CRITERIA[name](left, right)
    ref = np.array([brute(name, list(a), list(b)) for a, b in zip(left, right)])
    np.testing.assert_allclose(fast, ref, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("name", ["gini", "entropy", "gini_linear", "gini_quadratic", "ordinal"])
def test_criterion_accepts_noncontiguous_views(name):
    # The builder passes transposed class-major buffers; results must not depend on layout.
    rng = np.random.default_rng(3)
    left, right = random_splits(rng, 30, 4, True)
    a = CRITERIA[name](left, right)
    b = CRITERIA[name](np.asfortranarray(left), np.asfortranarray(right))
    np.testing.assert_allclose(a, b, rtol=1e-12)


@pytest.mark.parametrize("name,formula", [
    ("gini", gini_i), ("entropy", entropy_i), ("ordinal", ordinal_i()),
    ("gini_linear", cost_i(linear_cost(4))), ("gini_quadratic", cost_i(quadratic_cost(4))),
])
def test_impurity_attribute_is_n_times_i(name, formula):
    rng = np.random.default_rng(7)
    counts = rng.uniform(0, 5, size=(10, 4))
    counts[0] = [0, 3, 0, 0]
    got = CRITERIA[name].impurity(counts)
    ref = np.array([c.sum() * formula(props(list(c))) for c in counts])
    np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-12)


def test_user_cost_matrix_and_scores_match_brute_force():
    rng = np.random.default_rng(11)
    cost = np.array([[0, 1, 3], [2, 0, 1], [5, 1, 0]], dtype=float)
    scores = [0.0, 1.0, 4.0]
    left, right = random_splits(rng, 20, 3, True)
    np.testing.assert_allclose(
        generalized_gini(cost)(left, right),
        [brute_decrease(cost_i(cost.tolist()), list(a), list(b)) for a, b in zip(left, right)],
        rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(
        ordinal_impurity(scores)(left, right),
        [brute_decrease(ordinal_i(scores), list(a), list(b)) for a, b in zip(left, right)],
        rtol=1e-10, atol=1e-10)


def test_empty_child_gives_finite_goodness():
    left = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 2.0]])
    right = np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])
    for name in BUILTIN:
        g = CRITERIA[name](left, right)
        assert np.all(np.isfinite(g)), name
        np.testing.assert_allclose(g, 0.0, atol=1e-12)


# --- Piccarreta's ordinal impurity: properties ORD.1-ORD.3 (appendix of Archer & Mas 2009) -------

proportions = st.lists(st.floats(0, 1), min_size=2, max_size=7).filter(lambda v: sum(v) > 1e-3)


@settings(max_examples=200, deadline=None)
@given(proportions)
def test_ord1_maximum_when_extremes_equally_mixed(v):
    k = len(v)
    p = np.array(v) / sum(v)
    imp = CRITERIA["ordinal"].impurity
    extreme = np.zeros(k)
    extreme[0] = extreme[-1] = 0.5
    # i_OS = sum_{g<G} F(1-F) with F = 1/2 everywhere: (G-1)/4, the largest value.
    assert imp(extreme) == pytest.approx((k - 1) / 4)
    assert imp(p) <= imp(extreme) + 1e-12
    assert imp(p) >= -1e-12


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 8), st.data())
def test_ord2_zero_exactly_for_pure_nodes(k, data):
    g = data.draw(st.integers(0, k - 1))
    pure = np.zeros(k)
    pure[g] = data.draw(st.floats(0.1, 100))
    assert CRITERIA["ordinal"].impurity(pure) == pytest.approx(0.0, abs=1e-12)
    mixed = pure.copy()
    mixed[(g + 1) % k] += 1.0
    assert CRITERIA["ordinal"].impurity(mixed) > 0


counts_pair = st.integers(2, 6).flatmap(lambda k: st.tuples(
    st.lists(st.floats(0, 50), min_size=k, max_size=k),
    st.lists(st.floats(0, 50), min_size=k, max_size=k)))


@settings(max_examples=300, deadline=None)
@given(counts_pair)
def test_ord3_decrease_never_negative(pair):
    left = np.array([pair[0]])
    right = np.array([pair[1]])
    g = CRITERIA["ordinal"](left, right)[0]
    scale = 1.0 + left.sum() + right.sum()
    assert g >= -1e-9 * scale
    # Gini is concave too; the ordered twoing is a non-negative statistic.
    assert CRITERIA["gini"](left, right)[0] >= -1e-9 * scale
    assert CRITERIA["twoing"](left, right)[0] >= 0


def test_generalized_gini_can_decrease_and_gini_does_not():
    # A cost matrix that is not of negative type makes i(t) non-concave (section 4.1):
    # parent (1/4, 1/2, 1/4) -> children (1/2, 0, 1/2) and (0, 1, 0).
    cost = np.array([[0, 1, 5], [1, 0, 1], [5, 1, 0]], dtype=float)
    left = np.array([[2.0, 0.0, 2.0]])
    right = np.array([[0.0, 4.0, 0.0]])
    # i(parent) = 2 (1/8 + 5/16 + 1/8) = 1.125; i(left) = 2 * 5 / 4 = 2.5; i(right) = 0
    # decrease = 8 * (1.125 - 0.5 * 2.5) = -1
    assert generalized_gini(cost)(left, right)[0] == pytest.approx(-1.0)
    assert CRITERIA["gini"](left, right)[0] > 0


# --- registry --------------------------------------------------------------------------------

def test_register_criterion_and_errors():
    def half_gini(left, right):
        return 0.5 * CRITERIA["gini"](left, right)

    name = "test_half_gini"
    try:
        crit = register_criterion(name, half_gini)
        assert criteria.get_criterion(name) is crit and crit.name == name
        left, right = random_splits(np.random.default_rng(0), 10, 3, True)
        np.testing.assert_array_equal(crit(left, right), 0.5 * CRITERIA["gini"](left, right))
        assert np.isnan(crit.impurity(left)).all()  # registered without an impurity
        with pytest.raises(ValueError, match="already registered"):
            register_criterion(name, half_gini)
        register_criterion(name, half_gini, overwrite=True)
    finally:
        CRITERIA.pop(name, None)
    with pytest.raises(TypeError, match="callable"):
        register_criterion("x", 3)
    with pytest.raises(TypeError, match="name"):
        register_criterion("", half_gini)
    with pytest.raises(ValueError, match="criterion must be one of"):
        criteria.get_criterion("nope")
    with pytest.raises(TypeError, match="criterion must be"):
        criteria.get_criterion(3.0)
    with pytest.raises(ValueError, match="already registered"):
        register_criterion("linear", half_gini)  # an alias is taken too


def test_aliases_name_the_same_criterion_everywhere():
    from ordstat.trees import OrdinalTreeClassifier

    assert criteria.get_criterion("linear") is CRITERIA["gini_linear"]
    assert criteria.get_criterion("quadratic") is CRITERIA["gini_quadratic"]
    with pytest.raises(ValueError, match=r"linear \(= gini_linear\)"):
        criteria.get_criterion("cubic")
    rng = np.random.default_rng(1)
    X = rng.normal(size=(80, 3))
    y = np.digitize(X[:, 0] + rng.normal(size=80), [-1, 0, 1])
    a = OrdinalTreeClassifier(criterion="linear", xval=0, leaf_rule="cost").fit(X, y).tree_
    b = OrdinalTreeClassifier(criterion="gini_linear", xval=0, leaf_rule="cost").fit(X, y).tree_
    np.testing.assert_array_equal(a.feature, b.feature)
    np.testing.assert_array_equal(a.yval, b.yval)


def test_registered_impurity_is_recorded_and_twoing_has_none():
    from ordstat.trees import OrdinalTreeClassifier

    def my_gini(left, right):
        return CRITERIA["gini"](left, right)

    rng = np.random.default_rng(2)
    X = rng.normal(size=(60, 2))
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    try:
        register_criterion("test_my_gini", my_gini, impurity=CRITERIA["gini"].impurity)
        mine = OrdinalTreeClassifier(criterion="test_my_gini", xval=0).fit(X, y).tree_
    finally:
        CRITERIA.pop("test_my_gini", None)
    ref = OrdinalTreeClassifier(criterion="gini", xval=0).fit(X, y).tree_
    np.testing.assert_allclose(mine.impurity, ref.impurity)
    # hand check at the root: Gini of the class shares
    p = np.bincount(y) / y.size
    assert ref.impurity[0] == pytest.approx(1 - np.sum(p ** 2))
    twoing = OrdinalTreeClassifier(criterion="twoing", xval=0).fit(X, y).tree_
    assert np.isnan(twoing.impurity).all()  # not impurity-based: no Gini stand-in


def _run_scan(crit, ys, ws, k):
    """The criterion's scan functions run uncompiled over units sorted in a node: the goodness
    after each unit joins the left child."""
    start, add, gain = crit.scan
    param = crit.parameter(k)
    total = np.bincount(ys, weights=ws, minlength=k).astype(float)
    state = start(total.copy(), param, np.full((4, k), np.nan))  # scratch: any contents
    out, nl = [], 0.0
    for c, w in zip(ys[:-1], ws[:-1]):
        state = add(state, total, param, int(c), float(w))
        nl += w
        out.append(gain(state, total, param, nl, total.sum()))
    return np.array(out)


SCANNED = {**{name: CRITERIA[name] for name in BUILTIN},
           "user_cost": generalized_gini(np.array([[0, 1, 4, 2], [1, 0, 1, 3],
                                                   [2, 1, 0, 1], [5, 3, 1, 0.]])),
           "scores": ordinal_impurity([0, 1, 3, 7]),
           "user_loss": loss_matrix_gini(np.array([[0, 1, 4, 2], [1, 0, 1, 3],
                                                   [2, 1, 0, 1], [5, 3, 1, 0.]]))}


@pytest.mark.parametrize("name", sorted(SCANNED))
@pytest.mark.parametrize("weighted", [False, True])
def test_scan_equals_goodness_at_every_candidate(name, weighted):
    crit = SCANNED[name]
    rng = np.random.default_rng(len(name) + weighted)
    ys = rng.integers(0, 4, size=30)
    ws = rng.uniform(0.2, 3.0, size=30) if weighted else np.ones(30)
    onehot = np.zeros((30, 4))
    onehot[np.arange(30), ys] = ws
    left = np.cumsum(onehot, axis=0)[:-1]
    right = onehot.sum(axis=0) - left
    np.testing.assert_allclose(_run_scan(crit, ys, ws, 4), crit(left, right),
                               rtol=1e-10, atol=1e-10)


def test_every_builtin_criterion_has_a_scan_and_user_ones_do_not():
    assert all(CRITERIA[name].scan is not None for name in BUILTIN)

    def f(left, right):
        return CRITERIA["gini"](left, right)

    assert criteria.get_criterion(f).scan is None


def _half_gini(left, right):
    return 0.5 * CRITERIA["gini"](left, right)


def test_pickled_estimator_brings_its_registered_criterion():
    """What a worker process (loky, Dask) does: unpickle with a registry that lacks the name."""
    import pickle

    from ordstat.trees import OrdinalTreeClassifier

    rng = np.random.default_rng(4)
    X = rng.normal(size=(60, 2))
    y = np.digitize(X[:, 1], [-0.5, 0.5])
    try:
        register_criterion("half_gini_pickle", _half_gini)
        blob = pickle.dumps(OrdinalTreeClassifier(criterion="half_gini_pickle", xval=0))
        CRITERIA.pop("half_gini_pickle")
        est = pickle.loads(blob)
        assert est.criterion == "half_gini_pickle"  # the parameter is unchanged
        tree = est.fit(X, y).tree_
    finally:
        CRITERIA.pop("half_gini_pickle", None)
    gini = OrdinalTreeClassifier(criterion="gini", xval=0).fit(X, y).tree_
    np.testing.assert_allclose(tree.improvement, 0.5 * gini.improvement)
    # built-in names are not carried: pickles of ordinary trees are unchanged
    assert b"_user_criterion" not in pickle.dumps(OrdinalTreeClassifier())


def test_unpickling_a_tree_leaves_the_registry_alone():
    """A fitted tree grown with a user criterion, unpickled where the registry lacks it: the
    registry is not written, and the tree predicts, refits, clones and pickles again with the
    record it carries."""
    import pickle

    from sklearn.base import clone

    from ordstat.trees import OrdinalTreeClassifier

    rng = np.random.default_rng(5)
    X = rng.normal(size=(80, 2))
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    try:
        register_criterion("half_gini_unpickled", _half_gini)
        grown = OrdinalTreeClassifier(criterion="half_gini_unpickled", xval=0).fit(X, y)
        blob = pickle.dumps(grown)
    finally:
        CRITERIA.pop("half_gini_unpickled", None)
    before = dict(CRITERIA)
    est = pickle.loads(blob)
    assert CRITERIA == before
    np.testing.assert_array_equal(est.predict(X), grown.predict(X))
    refit = clone(est).fit(X, y)
    assert CRITERIA == before
    np.testing.assert_array_equal(refit.tree_.improvement, grown.tree_.improvement)
    again = pickle.loads(pickle.dumps(refit))
    np.testing.assert_array_equal(again.predict(X), grown.predict(X))
    # another criterion set on it: the carried record no longer applies
    with pytest.raises(ValueError, match="criterion must be one of"):
        est.set_params(criterion="half_gini_unpickled_2").fit(X, y)


@pytest.mark.slow
def test_registered_criterion_reaches_joblib_workers():
    from ordstat.model_selection import evaluate
    from ordstat.trees import OrdinalTreeClassifier

    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 3))
    y = np.digitize(X[:, 0] + 0.5 * rng.normal(size=120), [-1, 0, 1])
    try:
        register_criterion("half_gini", _half_gini)
        ests = {"half": OrdinalTreeClassifier(criterion="half_gini", xval=0),
                "gini": OrdinalTreeClassifier(criterion="gini", xval=0)}
        parallel = evaluate(ests, X, y, scheme="cv5", n_jobs=2, random_state=0)
    finally:
        CRITERIA.pop("half_gini", None)
    serial = evaluate({"gini": OrdinalTreeClassifier(criterion="gini", xval=0)}, X, y,
                      scheme="cv5", random_state=0)
    # half the Gini goodness chooses the same splits (cp works on the risk, not the goodness)
    half = parallel[parallel.method == "half"].value.to_numpy()
    np.testing.assert_allclose(half, parallel[parallel.method == "gini"].value.to_numpy())
    np.testing.assert_allclose(half, serial.value.to_numpy())


@pytest.mark.parametrize("cost,match", [
    ("cubic", "linear"),
    (np.ones((3, 2)), "square"),
    (np.array([[0, -1], [1, 0]]), "non-negative"),
    (np.array([[1, 1], [1, 0]]), "zero diagonal"),
    (np.array([[0, np.nan], [1, 0]]), "finite"),
])
def test_generalized_gini_rejects_bad_costs(cost, match):
    with pytest.raises(ValueError, match=match):
        generalized_gini(cost)


def test_cost_matrix_size_must_match_classes():
    crit = generalized_gini(np.array([[0, 1], [1, 0]], dtype=float))
    with pytest.raises(ValueError, match="classes"):
        crit(np.ones((2, 3)), np.ones((2, 3)))


@pytest.mark.parametrize("scores,match", [
    ([0, 0, 1], "strictly increasing"),
    ([[0, 1]], "1-D"),
    ([0, np.inf], "finite"),
])
def test_ordinal_scores_validated(scores, match):
    with pytest.raises(ValueError, match=match):
        ordinal_impurity(scores)


def test_ordinal_scores_length_must_match_classes():
    crit = ordinal_impurity([0, 1, 2])
    with pytest.raises(ValueError, match="one value per class"):
        crit(np.ones((2, 4)), np.ones((2, 4)))
