"""Combiners match their members' classes by label and take what their members take."""

import numpy as np
import pytest
from sklearn.ensemble import RandomForestClassifier
from sklearn.utils import get_tags

from ordstat import (EDDA, HierarchicalCoupling, OrdinalTreeClassifier,
                     ProportionalOddsClassifier, SerialCombiner)

ORDER = ["low", "mid", "high"]


def _data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(90, 2))
    y = np.array(ORDER)[np.digitize(X[:, 0] + 0.3 * rng.normal(size=90), [-0.5, 0.5])]
    return X, y


def test_serial_combiner_reorders_sorted_member_columns_by_label():
    # RandomForestClassifier sorts its classes (high, low, mid) and has no classes=; before,
    # the fit failed asking for classes=
    X, y = _data()
    forest = RandomForestClassifier(n_estimators=10, random_state=0)
    combo = SerialCombiner([ProportionalOddsClassifier(), forest], classes=ORDER).fit(X, y)
    assert list(combo.classes_) == ORDER
    polr, rf = combo.estimators_
    assert list(rf.classes_) == sorted(ORDER)
    expected = (combo.weights_[0] * polr.predict_proba(X)
                + combo.weights_[1] * rf.predict_proba(X)[:, [1, 2, 0]])
    np.testing.assert_allclose(combo.predict_proba(X), expected)


def test_serial_combiner_cv_posteriors_reorder_members_too():
    X, y = _data()
    forest = RandomForestClassifier(n_estimators=10, random_state=0)
    combo = SerialCombiner([forest, forest], classes=ORDER, posteriors="cv",
                           random_state=0).fit(X, y)
    # two copies of one model share the weight, whatever the column order
    np.testing.assert_allclose(combo.weights_, [0.5, 0.5])


def test_serial_combiner_names_a_member_lacking_a_class():
    X, y = _data()
    partial = RandomForestClassifier(n_estimators=5, random_state=0).fit(X[y != "high"],
                                                                         y[y != "high"])
    edda = EDDA(model="EII", classes=ORDER).fit(X, y)
    with pytest.raises(ValueError, match=r"estimators\[1\].*lacks the class\(es\) \['high'\]"):
        SerialCombiner([edda, partial], prefit=True, classes=ORDER).fit(X, y)


def test_hierarchical_coupling_passes_missing_values_to_trees():
    X, y = _data()
    X[::9, 1] = np.nan
    model = HierarchicalCoupling([OrdinalTreeClassifier(random_state=0)],
                                 partition="ordinal", classes=ORDER).fit(X, y)
    assert get_tags(model).input_tags.allow_nan
    assert set(model.predict(X)) <= set(ORDER)
    np.testing.assert_allclose(model.predict_proba(X).sum(axis=1), 1.0)
    # a candidate that cannot take them: refused up front, naming the column
    with pytest.raises(ValueError, match="feature 1"):
        HierarchicalCoupling([OrdinalTreeClassifier(), EDDA(model="EII")],
                             partition="ordinal", classes=ORDER).fit(X, y)


def test_serial_combiner_warns_when_an_ordinal_member_gets_a_guessed_order():
    # before: the combination sorted the labels (high < low < mid) and handed that order to
    # the proportional-odds member as classes=, so that nobody warned
    import warnings

    from ordstat import OrderGuessWarning

    X, y = _data()
    with pytest.warns(OrderGuessWarning, match="POLR uses the order of the classes"):
        SerialCombiner([ProportionalOddsClassifier(), EDDA(model="EII")]).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", OrderGuessWarning)
        SerialCombiner([ProportionalOddsClassifier(), EDDA(model="EII")],
                       classes=ORDER).fit(X, y)
        SerialCombiner([EDDA(model="EEI"), EDDA(model="EII")]).fit(X, y)   # nominal members
