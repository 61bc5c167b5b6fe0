"""One encoding of categorical X for the trees and the discrete models, one unknown-category
error."""

import numpy as np
import pandas as pd
import pytest

from ordstat._core.categories import category_codes, feature_label
from ordstat.discrete import FullMultinomial
from ordstat.trees import OrdinalTreeClassifier


def test_codes_by_hand():
    strings = np.array(["b", "a", "c"], dtype=object)
    assert category_codes(strings, ["a", "b", "c"], "f", "").tolist() == [1, 0, 2]
    numbers = np.array([3.0, 1.0])
    assert category_codes(numbers, np.array([1.0, 2.0, 3.0]), "f", "").tolist() == [2, 0]
    # unsorted numeric categories take the generic path
    assert category_codes(np.array([3, 1]), np.array([3, 1, 2]), "f", "").tolist() == [0, 1]
    missing = category_codes(np.array(["a", None], dtype=object), ["a"], "f", "", missing_ok=True)
    assert missing.tolist() == [0, -1]


@pytest.mark.parametrize("values", [np.array(["a", "z"], dtype=object), np.array([1.0, 2.5])])
def test_unknown_value_error(values):
    cats = ["a", "b"] if values.dtype == object else np.array([1.0, 2.0])
    with pytest.raises(ValueError, match=r"X feature 2 \('g'\) has value\(s\) \[('z'|2.5)\] not "
                                         r"seen when fitting \(its categories: .*\); .*HINT"):
        category_codes(values, cats, feature_label(2, ["e", "f", "g"]), "HINT")
    with pytest.raises(ValueError, match="not seen when fitting"):
        category_codes(np.array([None], dtype=object), ["a"], "f", "")


def test_long_category_lists_are_cut():
    with pytest.raises(ValueError, match=r"9, \.\.\. \(20 in all\)"):
        category_codes(np.array([99]), np.arange(20), "f", "")


def test_trees_and_discrete_models_raise_the_same_error():
    rng = np.random.default_rng(0)
    colour = pd.Categorical(rng.choice(["red", "blue"], 40), categories=["red", "blue"])
    X = pd.DataFrame({"colour": colour})
    y = rng.integers(0, 2, 40)
    new = pd.DataFrame({"colour": pd.Categorical(["green"])})
    messages = []
    for est in (OrdinalTreeClassifier(), FullMultinomial()):
        est.fit(X, y)
        with pytest.raises(ValueError) as info:
            est.predict(new)
        messages.append(str(info.value))
    prefix = ("X feature 0 ('colour') has value(s) ['green'] not seen when fitting "
              "(its categories: ['red', 'blue']); a fitted model has no rule for an unknown "
              "category.")
    assert all(m.startswith(prefix) for m in messages), messages
