"""Unit weights in the ensembles: a frequency table need not be expanded.

Whole-number weights are the counts of a frequency table: bagging, forests and fixed-split
bagging then grow exactly the trees of the expanded rows (the bootstrap of the expanded rows,
drawn from the same random numbers), and boosting with ``boost_by="weight"`` is the boosting
of the expanded rows. Other weights draw units with probability proportional to them."""

import numpy as np
import pytest

from ordstat.ensemble import (FixedSplitBaggingClassifier, OrdinalBaggingClassifier,
                              OrdinalBoostingClassifier, OrdinalRandomForestClassifier)
from ordstat.ensemble._common import learning_size, weighted_bootstrap
from ordstat.trees import OrdinalTreeClassifier


def _table(seed=0, n=60):
    """A small data set with whole-number weights 0..3 (a frequency table) and its expansion."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    X[:, 1] = np.round(X[:, 1])  # ties
    y = np.digitize(X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.7, size=n), [-0.8, 0.8])
    w = rng.integers(0, 4, size=n)
    w[:3] = [0, 3, 2]
    return X, y, w, np.repeat(X, w, axis=0), np.repeat(y, w)


def _same_trees(a, b):
    assert len(a) == len(b)
    for ta, tb in zip(a, b):
        if not hasattr(ta, "tree_"):  # a constant tree (one class in its sample)
            assert ta.code == tb.code
            continue
        for name in ("children_left", "feature", "threshold", "value", "n_node_samples"):
            np.testing.assert_array_equal(getattr(ta.tree_, name), getattr(tb.tree_, name),
                                          name)


# ------------------------------------------------------------------------- the bootstrap
def test_whole_number_weights_draw_the_bootstrap_of_the_expanded_rows():
    w = np.array([2.0, 0.0, 1.0, 3.0])
    rows_unit = np.repeat(np.arange(4), [2, 0, 1, 3])  # the unit of each expanded row
    drawn = weighted_bootstrap(np.random.default_rng(7), w, 4)
    expanded = np.random.default_rng(7).integers(0, 6, size=6)
    np.testing.assert_array_equal(drawn, rows_unit[expanded])
    assert learning_size(w, 4) == 6


def test_weights_of_one_draw_what_no_weights_draw():
    drawn = weighted_bootstrap(np.random.default_rng(3), np.ones(50), 50)
    np.testing.assert_array_equal(drawn, np.random.default_rng(3).integers(0, 50, size=50))


def test_bootstrap_counts_have_the_expected_value_of_the_weights():
    """Whole numbers: E[count_i] = w_i (n_L = sum w draws with probabilities w_i / n_L);
    other weights: E[count_i] = n w_i / sum w (n draws); weight 0: never drawn."""
    rng = np.random.default_rng(0)
    for w, expected in [(np.array([0.0, 1, 2, 5]), np.array([0.0, 1, 2, 5])),
                        (np.array([0.0, 0.5, 1.5, 2.0]), np.array([0.0, 0.5, 1.5, 2.0]))]:
        counts = np.array([np.bincount(weighted_bootstrap(rng, w, 4), minlength=4)
                           for _ in range(4000)])
        assert counts[:, 0].max() == 0
        np.testing.assert_allclose(counts.mean(axis=0), expected, atol=0.08)
    assert learning_size(np.array([0.0, 0.5, 1.5, 2.0]), 4) == 4


# ------------------------------------------------------------------------- bagging, forests
@pytest.mark.parametrize("make", [
    lambda: OrdinalRandomForestClassifier(n_estimators=6, max_features=2, random_state=4),
    lambda: OrdinalBaggingClassifier(n_estimators=6, random_state=4),
    # not a repeat-counting tree (min_bucket 3): the trees get the drawn rows themselves
    lambda: OrdinalBaggingClassifier(OrdinalTreeClassifier(min_bucket=3, xval=0),
                                     n_estimators=4, random_state=4, oob_score=False),
])
def test_bagging_with_counts_grows_the_trees_of_the_repeated_rows(make):
    X, y, w, Xr, yr = _table()
    weighted = make().fit(X, y, sample_weight=w)
    repeated = make().fit(Xr, yr)
    _same_trees(weighted.estimators_, repeated.estimators_)
    np.testing.assert_array_equal(weighted.predict(X), repeated.predict(X))
    np.testing.assert_array_equal(weighted.predict_proba(X), repeated.predict_proba(X))
    # the drawn units are those of the expanded rows' samples
    unit = np.repeat(np.arange(len(y)), w)
    for a, b in zip(weighted.estimators_samples_, repeated.estimators_samples_):
        np.testing.assert_array_equal(a, unit[b])


def test_fixed_split_bagging_with_counts_is_that_of_the_repeated_rows():
    X, y, w, Xr, yr = _table(1)
    weighted = FixedSplitBaggingClassifier(n_estimators=5, random_state=2).fit(X, y, w)
    repeated = FixedSplitBaggingClassifier(n_estimators=5, random_state=2).fit(Xr, yr)
    for a, b in zip(weighted.estimators_, repeated.estimators_):
        _same_trees(a, b)
    np.testing.assert_array_equal(weighted.predict_proba(X), repeated.predict_proba(X))


def test_weights_of_one_are_no_weights_and_any_n_jobs_gives_the_same_forest():
    X, y, w, _, _ = _table(2)
    make = lambda **kw: OrdinalRandomForestClassifier(n_estimators=5, random_state=1, **kw)  # noqa: E731
    plain, ones = make().fit(X, y), make().fit(X, y, sample_weight=np.ones(len(y)))
    _same_trees(plain.estimators_, ones.estimators_)
    assert plain.oob_error_ == ones.oob_error_
    a, b = make().fit(X, y, w * 0.7), make(n_jobs=2).fit(X, y, w * 0.7)
    _same_trees(a.estimators_, b.estimators_)
    np.testing.assert_array_equal(a.oob_decision_function_, b.oob_decision_function_)
    _same_trees(a.estimators_, make().fit(X, y, w * 0.7).estimators_)  # same seed, same model


def test_a_unit_of_weight_zero_is_never_in_bag():
    X, y, w, _, _ = _table(3)
    forest = OrdinalRandomForestClassifier(n_estimators=8, random_state=0).fit(X, y, w * 0.5)
    for sample in forest.estimators_samples_:
        assert np.all(w[sample] > 0)
    assert np.all(forest.oob_n_estimators_[w == 0] == 8)


def test_out_of_bag_scores_are_weighted_by_the_units_weights():
    X, y, w, _, _ = _table(4)
    w = w + 0.25  # not a frequency table: n draws, weights proportional
    forest = OrdinalRandomForestClassifier(n_estimators=10, random_state=0,
                                           importance="mae").fit(X, y, w)
    codes = forest._encoding.encode(y, "y")
    pred = forest.oob_prediction_codes_
    seen = pred >= 0
    wrong = pred[seen] != codes[seen]
    assert forest.oob_error_ == pytest.approx(np.sum(w[seen] * wrong) / np.sum(w[seen]))
    assert forest.oob_error_ != pytest.approx(np.mean(wrong))
    assert forest.oob_mean_absolute_ == pytest.approx(
        np.sum(w[seen] * np.abs(pred[seen] - codes[seen])) / np.sum(w[seen]))
    assert forest.oob_confusion_.sum() == pytest.approx(w[seen].sum())
    assert forest.oob_confusion_[0, 0] == pytest.approx(
        w[seen & (codes == 0) & (pred == 0)].sum())
    # each tree's own out-of-bag error, weighted
    row = forest.oob_per_estimator_.iloc[0]
    oob = np.setdiff1d(np.arange(len(y)), forest.estimators_samples_[0])
    tree_pred = forest.estimators_[0].predict(X[oob])
    assert row["n_oob"] == oob.size
    assert row["misclassification"] == pytest.approx(
        np.sum(w[oob] * (tree_pred != codes[oob])) / np.sum(w[oob]))
    assert np.all(np.isfinite(forest.permutation_importance_))


@pytest.mark.parametrize("make", [OrdinalBaggingClassifier, OrdinalRandomForestClassifier,
                                  FixedSplitBaggingClassifier, OrdinalBoostingClassifier])
@pytest.mark.parametrize("bad, message", [
    (-1.0, "negative"), (np.nan, "NaN or infinite"), ("zero", "sums to zero")])
def test_bad_weights_are_refused(make, bad, message):
    X, y, w, _, _ = _table(5)
    w = w.astype(float)
    if bad == "zero":
        w[:] = 0.0
    else:
        w[4] = bad
    with pytest.raises(ValueError, match=message):
        make(n_estimators=2).fit(X, y, sample_weight=w)
    with pytest.raises(ValueError, match="one weight per unit"):
        make(n_estimators=2).fit(X, y, sample_weight=np.ones(len(y) - 1))


# ------------------------------------------------------------------------- boosting
@pytest.mark.parametrize("variant", ["discrete", "real", "fixed_split_discrete",
                                     "ordinal_discrete", "ordinal_real"])
def test_boosting_by_weight_with_counts_is_the_boosting_of_the_repeated_rows(variant):
    """After the first cycle the weights are no longer whole numbers, and a tree's sums over a
    unit's weight or over its repeated rows differ in the last bits: two splits of exactly
    the same goodness (frequent in small nodes) can then be chosen differently, splits that
    differ only between training values, which change no training unit's prediction (so
    not the boosting) but can change a few predictions elsewhere."""
    X, y, w, Xr, yr = _table(6, n=80)
    unit = np.repeat(np.arange(len(y)), w)
    make = lambda: OrdinalBoostingClassifier(variant=variant, n_estimators=6,  # noqa: E731
                                             boost_by="weight", random_state=0)
    weighted = make().fit(X, y, sample_weight=w)
    repeated = make().fit(Xr, yr)
    for name in ("estimator_errors_", "estimator_weights_"):
        a, b = getattr(weighted, name), getattr(repeated, name)
        if a is not None:
            np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float),
                                       rtol=1e-9, err_msg=name)
    for a, b in zip(np.reshape(weighted.boost_weights_, (-1, len(y))),
                    np.reshape(repeated.boost_weights_, (-1, len(yr)))):
        # a unit's weight is that of its rows together
        np.testing.assert_allclose(a[unit] / w[unit], b, rtol=1e-9)
    assert np.mean(weighted.predict(Xr) == repeated.predict(Xr)) > 0.97


def test_boosting_starts_from_the_normalised_weights():
    X, y, w, _, _ = _table(7)
    for boost_by in ("weight", "resample"):
        fit = OrdinalBoostingClassifier(n_estimators=3, boost_by=boost_by,
                                        random_state=0).fit(X, y, sample_weight=w * 0.3)
        np.testing.assert_allclose(fit.boost_weights_[0], w / w.sum())
        assert np.all(fit.boost_weights_[:, w == 0] == 0)  # weight 0 stays 0


def test_boosting_with_weights_of_one_is_unweighted():
    X, y, _, _, _ = _table(8)
    for boost_by in ("weight", "resample"):
        make = lambda: OrdinalBoostingClassifier(n_estimators=4, boost_by=boost_by,  # noqa: E731
                                                 random_state=3)
        a, b = make().fit(X, y), make().fit(X, y, sample_weight=np.ones(len(y)))
        np.testing.assert_array_equal(a.boost_weights_, b.boost_weights_)
        np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))


def test_boosting_resamples_n_l_units_from_a_frequency_table():
    """With resampling each learning set has n_L = sum(w) units, as the expanded rows'."""
    X, y, w, _, _ = _table(9)
    fit = OrdinalBoostingClassifier(variant="discrete", n_estimators=2, random_state=0,
                                    estimator=OrdinalTreeClassifier(max_depth=1, xval=0,
                                                                    min_split=2, min_bucket=1)
                                    ).fit(X, y, sample_weight=w)
    assert fit.estimators_[0].tree_.n_node_samples[0] == w.sum()
