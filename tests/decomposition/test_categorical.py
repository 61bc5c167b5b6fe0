"""The replica methods (oDT, oAdaBoost, AdaBoost.OR) and categorical predictors: an ordered
Categorical is its codes (the model of the integer codes); unordered columns are refused with
an error naming them by the methods that cut at thresholds only (oDT splits them, see
test_odt_nominal.py); missing values are refused as before."""

import pickle

import numpy as np
import pandas as pd
import pytest

from ordstat._core.registry import accepts
from ordstat.decomposition import AdaBoostOR, OrdinalStumpBoost, ReplicatedTreeClassifier

LEVELS = ["primary", "secondary", "tertiary"]
REPLICA_METHODS = {
    "odt": lambda: ReplicatedTreeClassifier(),
    "odt_forest_like": lambda: ReplicatedTreeClassifier(max_features=1, prune=False,
                                                        random_state=0),
    "oadaboost": lambda: OrdinalStumpBoost(n_estimators=8),
    "adaboost_or": lambda: AdaBoostOR(n_estimators=8),
    "adaboost_or_odt": lambda: AdaBoostOR(ReplicatedTreeClassifier(max_depth=1),
                                          n_estimators=4, random_state=0),
}


def _frame(n=200, seed=0):
    rng = np.random.default_rng(seed)
    edu = rng.integers(0, 3, n)
    age = rng.normal(40, 10, n)
    y = np.digitize(edu + (age - 40) / 15 + 0.5 * rng.normal(size=n), [0.5, 1.5, 2.5])
    X = pd.DataFrame({"age": age,
                      "edu": pd.Categorical.from_codes(edu, LEVELS, ordered=True)})
    return X, y


@pytest.mark.parametrize("make", REPLICA_METHODS.values(), ids=REPLICA_METHODS.keys())
def test_ordered_categorical_is_its_codes(make):
    X, y = _frame()
    codes = X.assign(edu=X["edu"].cat.codes.astype(float))
    fitted = make().fit(X, y)
    np.testing.assert_array_equal(fitted.predict(X), make().fit(codes, y).predict(codes))
    if hasattr(fitted, "predict_proba"):  # AdaBoost.OR has none (a weighted median)
        np.testing.assert_array_equal(fitted.predict_proba(X),
                                      make().fit(codes, y).predict_proba(codes))
    back = pickle.loads(pickle.dumps(fitted))
    np.testing.assert_array_equal(back.predict(X.iloc[:9]), fitted.predict(X)[:9])


THRESHOLD_ONLY = {name: make for name, make in REPLICA_METHODS.items()
                  if not name.startswith("odt")}


@pytest.mark.parametrize("make", THRESHOLD_ONLY.values(), ids=THRESHOLD_ONLY.keys())
def test_unordered_columns_are_refused_by_name(make):
    X, y = _frame()
    for nominal in (np.where(np.arange(len(y)) % 2, "a", "b"),
                    pd.Categorical(np.where(np.arange(len(y)) % 3, "x", "y"))):
        with pytest.raises(TypeError, match=r"'colour'.*needs an order.*ordered=True"):
            make().fit(X.assign(colour=nominal), y)


@pytest.mark.parametrize("make", REPLICA_METHODS.values(), ids=REPLICA_METHODS.keys())
def test_missing_values_are_refused(make):
    X, y = _frame()
    X.loc[3, "edu"] = np.nan
    with pytest.raises(ValueError, match=r"'edu'\) \(1 missing\)"):
        make().fit(X, y)


def test_tags_take_neither_categories_nor_missing_values():
    for est in (OrdinalStumpBoost(), AdaBoostOR()):
        assert accepts(est) == frozenset()
    assert accepts(ReplicatedTreeClassifier()) == frozenset({"categorical"})


def test_unknown_ordered_category_at_predict():
    X, y = _frame()
    fitted = ReplicatedTreeClassifier().fit(X, y)
    other = X.assign(edu=pd.Categorical(["none"] * len(y), categories=["none"], ordered=True))
    with pytest.raises(ValueError, match="'edu'.*not seen when fitting"):
        fitted.predict(other)
