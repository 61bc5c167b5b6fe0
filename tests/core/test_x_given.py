"""X that is no table (None, a string, a number) is refused by a message naming X, at fit and
at predict, through the common validation path (ordstat._core.validation.check_X_given)."""

import numpy as np
import pytest

from ordstat import EDDA
from ordstat._core.registry import ESTIMATORS, estimator_class
from ordstat._core.validation import check_X_given

BAD = [(None, "X is None"), ("data.csv", r"X is a string \('data.csv'\)"),
       (3.0, r"X is a single value \(3.0\)")]


def test_check_x_given():
    for X, message in BAD:
        with pytest.raises(TypeError, match=message):
            check_X_given(X)
    table = [[1.0, 2.0]]
    assert check_X_given(table) is table


# estimators that need constructor arguments
SETTINGS = {"SerialCombiner": lambda: dict(estimators=[EDDA(model="EII"), EDDA(model="EEE")]),
            "HierarchicalCoupling": lambda: dict(candidates=[EDDA(model="EII")])}


@pytest.mark.parametrize("entry", ESTIMATORS, ids=lambda e: e.name)
@pytest.mark.parametrize("X, message", BAD)
def test_fit_names_x(entry, X, message):
    with pytest.raises(TypeError, match=message):
        settings = SETTINGS.get(entry.name, dict)()
        estimator_class(entry)(**settings).fit(X, [0, 1, 2])


def test_predict_names_x():
    from ordstat import FrankHallClassifier, ProportionalOddsClassifier

    X = np.arange(12.0).reshape(6, 2)
    for model in (ProportionalOddsClassifier(), FrankHallClassifier()):
        model.fit(X, [0, 0, 1, 1, 2, 2])
        for bad, message in BAD:
            with pytest.raises(TypeError, match=message):
                model.predict(bad)
