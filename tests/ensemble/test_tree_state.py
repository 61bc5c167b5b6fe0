"""The trees an ensemble grows on its prepared sample share what is alike for all of them
(``OrdinalTreeClassifier._sample_state``: the builder's parameters, the loss, the column
coding and the categories' sizes), made once per ensemble: the same trees, out-of-bag
results and importances as trees that each make it again."""

import numpy as np
import pytest

from ordstat.ensemble import OrdinalBaggingClassifier, OrdinalRandomForestClassifier
from ordstat.ensemble import _bagging
from ordstat.trees import OrdinalTreeClassifier

from tests.ensemble.test_categorical import _frame
from tests.trees.test_levels import FIELDS

pytestmark = pytest.mark.filterwarnings("ignore:.*every bootstrap sample:UserWarning")


def _each_tree_its_own_state(monkeypatch):
    """The ensembles' prepared samples and base trees without the state: each tree makes
    its own."""
    prepared, base_tree = _bagging._BaseBagging._prepared, _bagging.base_tree

    def without_state(*args):
        found = prepared(*args)
        return None if found is None else (*found[:3], None)

    monkeypatch.setattr(_bagging._BaseBagging, "_prepared", staticmethod(without_state))
    monkeypatch.setattr(_bagging, "base_tree", lambda *a: base_tree(*a)._replace(state=None))


ENSEMBLES = {
    "forest": lambda: OrdinalRandomForestClassifier(n_estimators=6, random_state=3),
    "forest_cost": lambda: OrdinalRandomForestClassifier(
        n_estimators=4, criterion="gini_quadratic", max_features=None, random_state=1),
    "bagging_median": lambda: OrdinalBaggingClassifier(
        OrdinalTreeClassifier(min_split=2, min_bucket=1, cp=0.0, xval=0, leaf_rule="median"),
        n_estimators=4, random_state=0),
    # the trees fitted on copied rows (min_bucket > 1 counts repeats), pruned at cp 0
    "bagging_copied": lambda: OrdinalBaggingClassifier(n_estimators=4, random_state=0),
    "bagging_copied_cost": lambda: OrdinalBaggingClassifier(
        OrdinalTreeClassifier(criterion="gini_linear", leaf_rule="cost", xval=0),
        n_estimators=3, random_state=2),
}


@pytest.mark.parametrize("make", ENSEMBLES.values(), ids=ENSEMBLES.keys())
def test_shared_state_grows_the_same_trees(make, monkeypatch):
    # a nominal, an ordered and a numeric column with missing values: the coding and the
    # categories' sizes reach the trees
    X, y = _frame()
    shared = make().fit(X, y)
    with monkeypatch.context() as m:
        _each_tree_its_own_state(m)
        own = make().fit(X, y)
    assert len(shared.estimators_) == len(own.estimators_)
    for a, b in zip(shared.estimators_, own.estimators_):
        for name in FIELDS:
            np.testing.assert_array_equal(getattr(a.tree_, name), getattr(b.tree_, name),
                                          err_msg=name)
        assert [None if c is None else list(c) for c in a.tree_.left_categories] == \
            [None if c is None else list(c) for c in b.tree_.left_categories]
        np.testing.assert_array_equal(a._loss_, b._loss_)
        np.testing.assert_array_equal(a._cat_sizes_, b._cat_sizes_)
        assert a.categories_.keys() == b.categories_.keys()
        for j, cats in a.categories_.items():
            np.testing.assert_array_equal(cats, b.categories_[j])
        np.testing.assert_array_equal(a.feature_importances_, b.feature_importances_)
        assert a.cp_ == b.cp_
    np.testing.assert_array_equal(shared.oob_decision_function_, own.oob_decision_function_)
    np.testing.assert_array_equal(shared.predict_proba(X), own.predict_proba(X))


@pytest.mark.parametrize("make", [
    lambda: OrdinalRandomForestClassifier(n_estimators=4, random_state=0),
    lambda: OrdinalBaggingClassifier(n_estimators=4, random_state=0),
], ids=["prepared", "copied"])
def test_state_is_made_once_and_read_by_every_tree(make):
    X, y = _frame()
    forest = make().fit(X, y)
    first, *others = forest.estimators_
    assert all(t._loss_ is first._loss_ and t._cat_sizes_ is first._cat_sizes_ for t in others)
    # the column "colour" (strings, missing values) has 3 categories and "missing"; "region"
    # (unordered) 3; "age" (numeric) and "edu" (ordered) are split as numbers
    np.testing.assert_array_equal(first._cat_sizes_, [0, 0, 4, 3])
    np.testing.assert_array_equal(first._loss_, 1.0 - np.eye(forest.n_classes_))


@pytest.mark.parametrize("make", [
    lambda: OrdinalRandomForestClassifier(n_estimators=5, random_state=2),
    lambda: OrdinalBaggingClassifier(
        OrdinalTreeClassifier(min_split=2, min_bucket=1, cp=-1.0, xval=0), n_estimators=3,
        random_state=0),
])
def test_split_importances_summed_as_the_tree_is_kept(make):
    """The compiled pass that keeps a fully grown tree sums its split importances: the
    numbers the tree sums itself (in the same order, so bit for bit)."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 7))
    X[:, 2] = np.round(X[:, 2])
    y = np.digitize(X[:, 0] + X[:, 2] + rng.normal(size=300), [-1.0, 0.0, 1.0])
    ensemble = make().fit(X, y)
    for tree in ensemble.estimators_:
        kept = tree.variable_importance_, tree.feature_importances_
        tree._set_importances()
        np.testing.assert_array_equal(kept[0], tree.variable_importance_)
        np.testing.assert_array_equal(kept[1], tree.feature_importances_)
        assert kept[0].sum() > 0
