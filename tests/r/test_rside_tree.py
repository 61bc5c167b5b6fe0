"""The tree functions the R package calls for prune(), snip.rpart() and xpred (no R needed)."""

import numpy as np
import pandas as pd
import pytest

from ordstat.r import _rside
from ordstat.trees import OrdinalTreeClassifier


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=200), "b": rng.uniform(size=200)})
    z = X["a"] + 2 * X["b"] + rng.normal(scale=0.5, size=200)
    y = np.digitize(z, [0.0, 1.0, 2.0]).astype(np.int64)
    folds = np.arange(200) % 5
    est = OrdinalTreeClassifier(min_split=10, cp=0.0, max_depth=5, xval=folds).fit(X, y)
    return X, y, folds, est


def test_snip_at_cp_is_prune_tree_and_cuts_the_table_as_prune_rpart(data):
    X, y, _, est = data
    table = est.cp_table_
    cp = float(np.sqrt(table["CP"].iloc[3] * table["CP"].iloc[4]))
    cx = est.tree_.complexity / est.tree_.risk[0]
    toss = np.flatnonzero((cx <= cp) & (est.tree_.children_left >= 0))
    snipped = _rside.tree_snip(est, toss, cp)
    expected = est.prune_tree(cp)
    np.testing.assert_array_equal(snipped.tree_.children_left, expected.tree_.children_left)
    np.testing.assert_array_equal(snipped.predict(X), expected.predict(X))
    assert snipped.tree_.n_nodes < est.tree_.n_nodes
    # prune.rpart: the rows whose CP raised to cp is distinct (the four above cp and the
    # first below it), the last one's CP set to cp
    assert len(snipped.cp_table_) == 5
    np.testing.assert_array_equal(snipped.cp_table_["CP"].to_numpy()[:4],
                                  table["CP"].to_numpy()[:4])
    assert snipped.cp_table_["CP"].iloc[-1] == cp and snipped.cp_ == cp
    np.testing.assert_array_equal(snipped.cp_table_["nsplit"], table["nsplit"].iloc[:5])
    assert snipped.variable_importance_.sum() < est.variable_importance_.sum()
    # the estimator given is left alone; snipping the root leaves one node
    assert est.tree_.n_nodes > snipped.tree_.n_nodes
    root = _rside.tree_snip(est, [0])
    assert root.tree_.n_nodes == 1 and len(root.cp_table_) == len(table)


def test_xpred_reproduces_the_cross_validated_error_of_the_cp_table(data):
    X, y, folds, est = data
    cps = est.cp_table_["CP"].to_numpy()
    cp = np.sqrt(cps * np.concatenate([[10.0], cps[:-1]]))  # xpred.rpart's default
    cp[0] = (1 + cps[0]) / 2
    levels = [str(c) for c in est.classes_]
    pred = _rside.tree_xpred(est, X, y, levels, folds + 1, cp)
    assert pred.shape == (200, len(cps)) and pred.min() >= 1
    xerror = (pred != (y + 1)[:, None]).sum(axis=0) / est.tree_.risk[0]
    np.testing.assert_allclose(xerror, est.cp_table_["xerror"].to_numpy(), rtol=1e-12)
    # the first column is the training part's root class
    for f in range(5):
        majority = np.bincount(y[folds != f]).argmax()
        assert (pred[folds == f, 0] == majority + 1).all()
