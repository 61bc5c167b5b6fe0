"""configured_clone: the one way sub-estimators are cloned, given their classes and seed."""

from sklearn.linear_model import LogisticRegression
from sklearn.svm import SVC

from ordstat import OrdinalTreeClassifier
from ordstat._core.base import configured_clone


def test_sets_classes_and_seed_only_where_taken():
    tree = OrdinalTreeClassifier(cp=0.05)
    out = configured_clone(tree, classes=[0, 1, 2], random_state=7)
    assert out is not tree and out.cp == 0.05
    assert out.classes == [0, 1, 2] and out.random_state == 7
    assert tree.classes is None and tree.random_state is None  # the original is untouched
    svm = configured_clone(SVC(), classes=[0, 1], random_state=3)  # no classes parameter
    assert svm.random_state == 3 and "classes" not in svm.get_params()


def test_none_leaves_a_value_and_keep_seed_keeps_the_users_seed():
    model = LogisticRegression(random_state=5)
    assert configured_clone(model, random_state=None).random_state == 5
    assert configured_clone(model, random_state=9).random_state == 9
    assert configured_clone(model, random_state=9, keep_seed=True).random_state == 5
    assert configured_clone(LogisticRegression(), random_state=9, keep_seed=True).random_state == 9
