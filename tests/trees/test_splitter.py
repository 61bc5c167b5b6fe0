"""The level-batched split search against a naive splitter at every node of grown trees.

The naive splitter takes the units that reach a node (from ``decision_path``), tries every
midpoint of every feature (for an unordered categorical feature, every prefix of its categories
ordered by mean class code, the documented rule, and, for a criterion that ignores the class
order with more than two classes, then every subset of at most SUBSET_SEARCH_LEVELS present
categories, the last always right) and counts the children by plain loops. Run on
both the compiled and the numpy path, with unit, integer and fractional weights, tied values,
categorical features, ``max_features`` and missing values (NaN): a numeric feature with
missing values in the node is cut with them sent right (first) and sent left (after, taken only
when strictly better), an unordered categorical one has "missing" as a category of its own.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ordstat.trees import OrdinalTreeClassifier, _splitter, criteria
from ordstat.trees._engine import forced
from ordstat.trees._splitter import Splitter

EXACT = ("gini", "ordinal", "twoing", "gini_linear", "gini_quadratic", "loss_linear",
         "loss_quadratic")
CRITS = EXACT + ("entropy",)


def _midpoint(a, b):
    mid = (a + b) / 2.0
    return mid if a < mid else b


def _counts(y, w, mask, k):
    out = np.zeros(k)
    for yi, wi, m in zip(y, w, mask):
        if m:
            out[yi] += wi
    return out


def naive_feature_splits(x, y, w, k, crit, min_bucket, categorical):
    """All admissible cuts of one feature in one node: list of (goodness, (threshold, missing
    left: True, False or None without missing values) or sorted left categories), in the order
    the search meets them: missing values right by increasing threshold, then missing values
    left by decreasing threshold."""
    out = []
    if categorical:
        cats = sorted(set(x.astype(int).tolist()))
        # the documented order: means equal to 9 decimals tie (kept in category order)
        means = [round(float(np.average(y[x == c], weights=w[x == c])), 9) for c in cats]
        seq = [c for _, c in sorted(zip(means, cats), key=lambda t: t[0])]  # stable
        cands = [(np.isin(x, seq[:i + 1]), tuple(sorted(seq[:i + 1])))
                 for i in range(len(seq) - 1)]
        if (getattr(crit, "nominal", False) and k > 2
                and 3 <= len(cats) <= _splitter.SUBSET_SEARCH_LEVELS):
            for mask in range(1, 2 ** (len(cats) - 1)):
                left = [c for i, c in enumerate(cats) if mask >> i & 1]
                cands.append((np.isin(x, left), tuple(left)))
    else:
        nan = np.isnan(x)
        values = np.unique(x[~nan])
        cuts = [_midpoint(a, b) for a, b in zip(values[:-1], values[1:])]
        cands = [(x < c, (c, False if nan.any() else None)) for c in cuts]
        if nan.any():
            cands += [((x < c) | nan, (c, True)) for c in reversed(cuts)]
    for go, where in cands:
        if go.sum() < min_bucket or (~go).sum() < min_bucket:
            continue
        left, right = _counts(y, w, go, k), _counts(y, w, ~go, k)
        out.append((float(crit(left[None], right[None])[0]), where))
    return out


def _first_best(cands, tol):
    best = (-np.inf, None)
    for g, where in cands:
        if g > best[0] + tol:
            best = (g, where)
    return best


def check_every_node(est, Xfit, X, y, w, crit, min_bucket, cat_cols, exact, all_features):
    t = est.tree_
    path = est.decision_path(Xfit).toarray().astype(bool)
    k = t.value.shape[1]
    scale = max(1.0, float(np.abs(t.improvement).max()))
    tol = 1e-9 * scale
    # with integer weights both paths compute the goodness from exact sums with the same
    # operations: the first exact maximum is chosen, as by the naive splitter with no tolerance
    pick = 0.0 if exact else tol
    for v in range(t.n_nodes):
        units = path[:, v] & (w > 0)
        xs, ys, ws = X[units], y[units], w[units]
        per_feature = [naive_feature_splits(xs[:, j], ys, ws, k, crit, min_bucket,
                                            j in cat_cols) for j in range(X.shape[1])]
        bests = [_first_best(c, pick) for c in per_feature]
        if t.children_left[v] < 0:
            if all_features and t.n_node_samples[v] >= 2 * min_bucket and t.depth[v] < 30:
                # a leaf of a tree grown with cp=-1: no admissible cut improves
                assert max(g for g, _ in bests) <= 1e-10 * scale + tol, v
            continue
        j = t.feature[v]
        g_j, where_j = bests[j]
        # the chosen split is the best cut on its feature ...
        assert t.improvement[v] == pytest.approx(g_j, rel=1e-9, abs=tol), v
        if exact:
            if j in cat_cols:
                left = set(t.left_categories[v].tolist()) & set(xs[:, j].astype(int).tolist())
                assert tuple(sorted(left)) == where_j, v
            else:
                thr, missing_left = where_j
                assert t.threshold[v] == thr, v
                assert t.missing_learned[v] == (missing_left is not None), v
                if missing_left is not None:
                    assert t.missing_left[v] == missing_left, v
        if all_features:
            # ... and the best over all features, the first feature on ties
            top = max(g for g, _ in bests)
            assert t.improvement[v] == pytest.approx(top, rel=1e-9, abs=tol), v
            if exact:
                assert j == min(i for i, (g, _) in enumerate(bests) if g >= top - pick), v


@st.composite
def datasets(draw):
    n = draw(st.integers(12, 50))
    p = draw(st.integers(1, 3))
    k = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 2 ** 32 - 1))
    rng = np.random.default_rng(seed)
    X = rng.integers(0, draw(st.integers(2, 12)), size=(n, p)).astype(float)  # many ties
    y = np.clip((X[:, 0] / 3 + rng.integers(-1, 2, size=n)).astype(int), 0, k - 1)
    y = np.unique(y, return_inverse=True)[1]  # class codes of the classes present
    weights = draw(st.sampled_from(["unit", "integer", "fractional"]))
    w = {"unit": np.ones(n), "integer": rng.integers(0, 4, size=n).astype(float),
         "fractional": rng.uniform(0.1, 3.0, size=n)}[weights]
    with_cat = draw(st.booleans())
    cat = rng.integers(0, 5, size=n).astype(float)
    missing = draw(st.sampled_from([0.0, 0.0, 0.2, 0.5]))
    if missing:
        X[rng.random(X.shape) < missing] = np.nan
        cat[rng.random(n) < missing] = np.nan
    return X, y, w, weights, with_cat, cat


# per_node: sort each node's drawn features (a compiled path only)
@pytest.mark.parametrize(("compiled", "per_node"), [(True, False), (False, False), (True, True)])
@pytest.mark.parametrize("name", CRITS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=datasets(), min_bucket=st.integers(1, 3), max_features=st.sampled_from([None, 1, 2]))
def test_every_node_matches_the_naive_splitter(name, compiled, per_node, data, min_bucket,
                                               max_features):
    X, y, w, weights, with_cat, cat = data
    assume(len(np.unique(y[w > 0])) > 1)
    if max_features is not None:  # above p (with the categorical column) is an error
        max_features = min(max_features, X.shape[1] + with_cat)
    # each criterion's compiled kernels of categorical features compile apart (about 12 s a
    # growth): those of gini and ordinal here (test_categorical_levels.py compares them with
    # the level loop on every path), the level loop's search for the other criteria
    engine = {"numba": compiled, **({"levels": False} if with_cat and name not in (
        "gini", "ordinal") else {})}
    if per_node:  # sort per node whenever max_features is given; numpy sorts the larger nodes
        engine.update(per_node=max_features is not None, numpy_sort_min=20)
    cat_cols = set()
    Xfit = X
    if with_cat:
        cat_cols = {X.shape[1]}
        X = np.column_stack([X, np.where(np.isnan(cat), 6, cat)])  # "missing": code 6
        Xfit = pd.DataFrame(X[:, :-1], columns=[f"x{j}" for j in range(X.shape[1] - 1)])
        Xfit["g"] = pd.Categorical(cat, categories=range(6))  # category 5 never occurs
    est = OrdinalTreeClassifier(criterion=name, min_split=2, min_bucket=min_bucket, cp=-1,
                                xval=0, max_features=max_features, random_state=0)
    with forced(**engine):
        est.fit(Xfit, y, sample_weight=w)
    assume(est.tree_.n_nodes > 1)
    exact = weights != "fractional" and name in EXACT
    all_features = max_features is None or max_features >= X.shape[1]
    check_every_node(est, Xfit, X, y, w, criteria.CRITERIA[name], min_bucket, cat_cols, exact,
                     all_features)


@pytest.mark.parametrize("weights", ["unit", "fractional"])
@pytest.mark.parametrize("max_features", [None, 2])
def test_several_categorical_features_of_different_sizes(weights, max_features):
    """The categorical search runs every (categorical feature, node) pair of a level at once:
    three categorical columns of 2, 4 and 7 categories (some absent from the sample, some
    from most nodes) beside a numeric one, each node checked against the naive splitter."""
    rng = np.random.default_rng(3)
    n = 80
    x = rng.normal(size=n)
    cats = {"a": rng.integers(0, 2, n), "b": rng.integers(0, 3, n), "c": rng.integers(0, 6, n)}
    y = np.digitize(x + cats["b"] - 0.5 * cats["c"] + rng.normal(size=n), [-1.0, 0.0, 1.0])
    w = np.ones(n) if weights == "unit" else rng.uniform(0.2, 2.0, size=n)
    Xfit = pd.DataFrame({"x": x, "a": pd.Categorical(cats["a"], categories=range(2)),
                         "b": pd.Categorical(cats["b"], categories=range(4)),
                         "c": pd.Categorical(cats["c"], categories=range(7))})
    X = np.column_stack([x] + [cats[name].astype(float) for name in "abc"])
    for name in ("ordinal", "gini"):
        est = OrdinalTreeClassifier(criterion=name, min_split=2, min_bucket=2, cp=-1, xval=0,
                                    max_features=max_features, random_state=0)
        est.fit(Xfit, y, sample_weight=w)
        assert est.tree_.n_nodes > 7
        check_every_node(est, Xfit, X, y, w, criteria.CRITERIA[name], 2, {1, 2, 3},
                         weights == "unit", max_features is None)


def test_splitter_entry_point_searches_one_level_with_a_mask():
    """The internal entry point the ensembles use: per-(feature, node) gains of a level, the
    mask skipping features, checked by hand on a two-feature stump."""
    X = np.array([[0.0, 5.0], [1.0, 4.0], [2.0, 3.0], [3.0, 2.0]])
    codes = np.array([0, 0, 1, 1])
    sp = Splitter(X, codes, np.ones(4), 2, criteria.gini, min_bucket=1)
    layout, totals = sp.root()
    sizes = np.array([4])
    good, thr, cats = sp.search(layout, totals, sizes)
    # Gini, N i(t): parent 4 (1 - 1/2) = 2; the pure split {0, 1} | {2, 3} gains 2
    np.testing.assert_allclose(good[:, 0], [2.0, 2.0])
    np.testing.assert_allclose(thr[:, 0], [1.5, 3.5])
    assert cats == {}
    good, _, _ = sp.search(layout, totals, sizes, mask=np.array([[False], [True]]))
    assert good[0, 0] == -np.inf and good[1, 0] == 2.0
    (split,) = sp.best_splits(layout, totals, sizes)
    assert (split.feature, split.threshold, split.goodness) == (0, 1.5, 2.0)
    lc, n_left = sp.children(layout, sizes, [split], np.array([True]))
    np.testing.assert_array_equal(lc, [[2.0, 0.0]])
    nxt = sp.partition(layout, sizes, np.array([0]), n_left, np.array([0, 2]))
    np.testing.assert_array_equal(nxt.order[1], [1, 0, 3, 2])  # each child sorted by x1


@pytest.mark.parametrize("name", ["gini", "ordinal", "twoing"])
def test_sorting_per_node_grows_the_presorted_trees(name):
    """With max_features much smaller than p the search sorts each node's drawn features
    instead of keeping all features presorted; with integer weights the trees are the same
    (same features drawn, same cuts, same side for missing values), whichever sort (numpy or
    compiled) a node gets."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 16))
    X[:, 3] = np.round(X[:, 3])  # ties
    X[rng.random(400) < 0.2, 5] = np.nan  # missing values: learned direction
    X[rng.random(400) < 0.05, 0] = np.nan
    y = np.digitize(X[:, :4].sum(axis=1) + rng.normal(size=400), [-2, 0, 2])
    w = rng.integers(1, 3, size=400).astype(float)
    trees = []
    for per_node, numpy_min in ((False, 300), (True, 50), (True, 10 ** 6)):
        with forced(per_node=per_node, numpy_sort_min=numpy_min):
            est = OrdinalTreeClassifier(criterion=name, min_split=2, cp=-1, xval=0,
                                        max_features=4, random_state=7).fit(X, y, sample_weight=w)
        trees.append(est.tree_)
    first = trees[0]
    assert first.n_nodes > 50
    for t in trees[1:]:
        np.testing.assert_array_equal(t.feature, first.feature)
        np.testing.assert_array_equal(t.threshold, first.threshold)
        np.testing.assert_array_equal(t.improvement, first.improvement)
        np.testing.assert_array_equal(t.missing_left, first.missing_left)
    assert first.missing_left[first.feature == 5].any()  # the mirrored search was used


def test_categories_of_equal_mean_class_tie_whatever_the_weights():
    """The categorical search orders categories by mean class code, ties by category code.
    A category of one class has exactly that class as its mean (3 W / W is not 3 in floating
    point for W below), and means equal up to rounding tie: here categories 0 and 1 (both
    all class 3) keep their order behind category 2 (mean 2.5)."""
    W = 1.8592437497248215
    assert (3 * W) / W != 3.0  # the rounding the search must not see
    counts = np.array([[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, W], [0.0, 0.0, 1.0, 1.0]])
    np.testing.assert_array_equal(_splitter._category_means(counts), [3.0, 3.0, 2.5])
    # classes 0 and 2 in equal weight a around class 1's b: mean 1, which the floating
    # point proportions miss by an ulp; means equal to 9 decimals tie
    a, b = 2.8888058616249817, 2.2018908282432474
    mixed = np.array([[a, b, a], [0.0, 1.0, 0.0]])
    assert (mixed / mixed.sum(axis=1, keepdims=True) @ np.arange(3))[0] != 1.0
    np.testing.assert_array_equal(_splitter._category_means(mixed), [1.0, 1.0])
