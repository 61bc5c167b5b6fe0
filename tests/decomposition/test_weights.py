"""Unit weights in the replica methods: whole-number weights are the counts of a frequency
table, and the fit is that of its rows repeated (where a method's size limits count weights,
not rows); the boosting methods start from the normalised weights."""

import numpy as np
import pytest

from ordstat.decomposition import AdaBoostOR, OrdinalStumpBoost, ReplicatedTreeClassifier


def _table(seed=0, n=70):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.digitize(X[:, 0] + 0.6 * X[:, 1] + rng.normal(scale=0.6, size=n), [-0.7, 0.7])
    w = rng.integers(1, 4, size=n)
    return X, y, w, np.repeat(X, w, axis=0), np.repeat(y, w)


@pytest.mark.parametrize("make, fields", [
    # no unit-count limit (min_samples_leaf 1, no J48 minimum split size, nothing pruned or
    # collapsed): a tree of weight sums
    (lambda: ReplicatedTreeClassifier(min_samples_leaf=1, min_samples_split=2, prune=False,
                                      min_num_obj=None, collapse_tree=False, max_depth=3), ()),
    (lambda: OrdinalStumpBoost(n_estimators=8), ("features_", "thresholds_", "alphas_")),
    (lambda: AdaBoostOR(n_estimators=8, random_state=0), ("alphas_", "errors_")),
])
def test_whole_number_weights_equal_repeated_rows(make, fields):
    X, y, w, Xr, yr = _table()
    weighted, repeated = make().fit(X, y, sample_weight=w), make().fit(Xr, yr)
    for name in fields:
        np.testing.assert_allclose(getattr(weighted, name), getattr(repeated, name),
                                   rtol=1e-9, err_msg=name)
    np.testing.assert_array_equal(weighted.predict(Xr), repeated.predict(Xr))


def test_boosting_starts_from_the_normalised_weights():
    """A single round: oAdaBoost's first errors are the weighted shares of its stumps'
    mistakes under w / sum(w), and AdaBoost.OR's first error is e = sum_i w_i c_i[f(x_i)] /
    sum_i w_i (c_i[1] + c_i[K]) with the absolute-error costs."""
    X, y, w, _, _ = _table(1)
    w = w * 0.37
    stump = OrdinalStumpBoost(n_estimators=1).fit(X, y, sample_weight=w)
    j, thr = stump.features_[0], stump.thresholds_[0]
    for k in range(2):
        side = X[:, j] > thr[k]
        label = np.where(side, stump.right_labels_[0, k], stump.left_labels_[0, k])
        wrong = label != (y > k)
        assert stump.errors_[0, k] == pytest.approx(np.sum(w * wrong) / w.sum())
    ada = AdaBoostOR(n_estimators=1).fit(X, y, sample_weight=w)
    pred = ada.estimators_[0]._predict_codes(X)
    cost = np.abs(y[:, None] - np.arange(3)[None, :])
    e = np.sum(w * cost[np.arange(len(y)), pred]) / np.sum(w * (cost[:, 0] + cost[:, -1]))
    assert ada.errors_[0] == pytest.approx(e)
