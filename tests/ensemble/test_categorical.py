"""Categorical predictors and missing values in the tree ensembles: the columns are coded once
per ensemble, as the single tree codes them (ordstat._core.predictors.ColumnCoding), and the
model is the one fitted on the equivalent coded data."""

import pickle

import numpy as np
import pandas as pd
import pytest

from ordstat._core.registry import accepts
from ordstat.decomposition import OrdinalStumpBoost, ReplicatedTreeClassifier
from ordstat.ensemble import (FixedSplitBaggingClassifier, OrdinalBaggingClassifier,
                              OrdinalBoostingClassifier, OrdinalRandomForestClassifier)
from ordstat.trees import OrdinalTreeClassifier

LEVELS = ["primary", "secondary", "tertiary"]
pytestmark = pytest.mark.filterwarnings("ignore:.*every bootstrap sample:UserWarning")


def _frame(n=240, seed=0, missing=True):
    """age (numeric, NaN), edu (ordered Categorical, NaN), colour (strings, None) and region
    (unordered Categorical), and a response driven by edu, colour and age."""
    rng = np.random.default_rng(seed)
    edu = rng.integers(0, 3, n)
    colour = rng.choice(["blue", "green", "red"], n).astype(object)
    region = rng.choice(["east", "north", "south"], n)
    age = rng.normal(40, 10, n)
    y = np.digitize(edu + (colour == "red") + (age - 40) / 15 + 0.5 * rng.normal(size=n),
                    [0.5, 1.5, 2.5])
    edu_cat = pd.Categorical.from_codes(edu, LEVELS, ordered=True)
    if missing:
        age[rng.random(n) < 0.1] = np.nan
        colour[rng.random(n) < 0.1] = None
        edu_cat[rng.random(n) < 0.1] = np.nan
    X = pd.DataFrame({"age": age, "edu": edu_cat, "colour": colour,
                      "region": pd.Categorical(region)})
    return X, y


ENSEMBLES = {
    "forest": lambda: OrdinalRandomForestClassifier(n_estimators=8, random_state=0),
    "forest_presorted": lambda: OrdinalRandomForestClassifier(n_estimators=5, max_features=None,
                                                              random_state=1),
    "bagging": lambda: OrdinalBaggingClassifier(n_estimators=6, random_state=0),
    "bagging_repeats": lambda: OrdinalBaggingClassifier(
        OrdinalTreeClassifier(min_split=2, min_bucket=1, cp=0.0, xval=0), n_estimators=6,
        random_state=0),
    "fixed_split": lambda: FixedSplitBaggingClassifier(n_estimators=4, random_state=0),
    "boosting": lambda: OrdinalBoostingClassifier(n_estimators=4, random_state=0),
    "boosting_weight": lambda: OrdinalBoostingClassifier(variant="fixed_split_real",
                                                         boost_by="weight", n_estimators=3,
                                                         random_state=0),
}


def _same(a, b, X_a, X_b):
    np.testing.assert_array_equal(a.predict(X_a), b.predict(X_b))
    np.testing.assert_array_equal(a.predict_proba(X_a), b.predict_proba(X_b))


@pytest.mark.parametrize("make", ENSEMBLES.values(), ids=ENSEMBLES.keys())
def test_fits_predicts_and_pickles_mixed_columns(make):
    X, y = _frame()
    est = make().fit(X, y)
    proba = est.predict_proba(X)
    assert proba.shape == (len(y), 4) and np.allclose(proba.sum(axis=1), 1.0)
    assert list(est.feature_names_in_) == ["age", "edu", "colour", "region"]
    back = pickle.loads(pickle.dumps(est))
    _same(est, back, X, X)
    # the trees split the nominal columns as categories, the ordered one as a scale
    trees = [t for t in np.ravel(np.array(est.estimators_, dtype=object))
             if isinstance(t, OrdinalTreeClassifier)]
    assert trees and all(set(t.categories_) == {2, 3} and set(t._ordered_categories) == {1}
                         for t in trees)
    assert all(t._cat_sizes_.tolist() == [0, 0, 4, 3] for t in trees)  # colour has "missing"
    # predicting on a few rows (other categories absent) codes them the same way
    np.testing.assert_array_equal(est.predict_proba(X.iloc[:7]), proba[:7])


@pytest.mark.parametrize("make", ENSEMBLES.values(), ids=ENSEMBLES.keys())
def test_ordered_categorical_is_its_codes(make):
    """An ordered Categorical gives the model of its integer codes (NaN where missing)."""
    X, y = _frame()
    X = X.drop(columns=["colour", "region"])
    codes = X.assign(edu=X["edu"].cat.codes.replace(-1, np.nan).astype(float))
    _same(make().fit(X, y), make().fit(codes, y), X, codes)


@pytest.mark.parametrize("make", ENSEMBLES.values(), ids=ENSEMBLES.keys())
def test_strings_and_unordered_categorical_are_the_same_model(make):
    """Strings are coded by their sorted values: the same model as the unordered Categorical
    with those categories, and as strings renamed in the same sorted order."""
    X, y = _frame()
    as_cat = X.assign(colour=pd.Categorical(X["colour"], categories=["blue", "green", "red"]))
    renamed = X.assign(colour=X["colour"].map({"blue": "a", "green": "b", "red": "c"}))
    fitted = make().fit(X, y)
    _same(fitted, make().fit(as_cat, y), X, as_cat)
    _same(fitted, make().fit(renamed, y), X, renamed)


@pytest.mark.parametrize("make", ENSEMBLES.values(), ids=ENSEMBLES.keys())
def test_two_categories_are_the_model_of_a_binary_number(make):
    """A nominal column of two categories splits the units as its 0/1 codes do (any split of
    two categories is the cut between them): the same predictions."""
    X, y = _frame(missing=False)
    two = np.where(X["colour"] == "red", "red", "other")
    nominal = X.drop(columns=["region"]).assign(colour=two)
    number = nominal.assign(colour=(two == "red").astype(float))
    _same(make().fit(nominal, y), make().fit(number, y), nominal, number)


@pytest.mark.parametrize("make", [
    lambda t: OrdinalBaggingClassifier(t, n_estimators=3, random_state=0),
    lambda t: OrdinalBoostingClassifier(variant="discrete", estimator=t, n_estimators=2,
                                        random_state=0),
    lambda t: FixedSplitBaggingClassifier(t, n_estimators=2, random_state=0)])
def test_nominal_columns_are_split_as_categories(make):
    """{blue, red} against green is one split of the categories but no cut of their sorted
    codes (blue 0, green 1, red 2): stumps separate the classes only as categories."""
    colour = np.tile(["blue", "green", "red"], 40)
    y = (colour != "green").astype(int)
    stump = OrdinalTreeClassifier(max_depth=1, min_split=2, cp=0.0, xval=0)
    X = pd.DataFrame({"colour": colour})
    np.testing.assert_array_equal(make(stump).fit(X, y).predict(X), y)
    coded = pd.DataFrame({"colour": pd.Categorical(colour).codes.astype(float)})
    assert np.mean(make(stump).fit(coded, y).predict(coded) == y) < 1.0


def test_numeric_data_unchanged():
    """No categorical column: the ensemble keeps the numeric path (no coding)."""
    X, y = _frame(missing=False)
    X = X[["age"]].assign(z=np.arange(len(y)) % 7)
    forest = OrdinalRandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    assert forest._column_coding.is_empty
    assert all(t.categories_ == {} for t in forest.estimators_)


def test_unknown_category_at_predict_names_the_column():
    X, y = _frame()
    forest = OrdinalRandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="'colour'.*not seen when fitting"):
        forest.predict(X.assign(colour="purple"))


def test_tags_say_categorical_and_missing():
    for make in (OrdinalRandomForestClassifier, OrdinalBaggingClassifier,
                 FixedSplitBaggingClassifier, OrdinalBoostingClassifier):
        assert accepts(make()) == {"categorical", "missing"}
    # another base estimator takes numbers: ordered Categoricals as codes, nominal refused
    bag = OrdinalBaggingClassifier(OrdinalStumpBoost(n_estimators=3), n_estimators=2,
                                   random_state=0)
    assert "categorical" not in accepts(bag)
    X, y = _frame(missing=False)
    with pytest.raises(TypeError, match=r"'colour'.*OrdinalStumpBoost on numbers"):
        bag.fit(X, y)
    bag.fit(X[["age", "edu"]], y)
    codes = X[["age"]].assign(edu=X["edu"].cat.codes.astype(float))
    np.testing.assert_array_equal(bag.predict(X[["age", "edu"]]),
                                  OrdinalBaggingClassifier(OrdinalStumpBoost(n_estimators=3),
                                                           n_estimators=2, random_state=0)
                                  .fit(codes, y).predict(codes))
    # oDT splits nominal columns itself (tests/decomposition/test_odt_nominal.py)
    assert "categorical" in accepts(OrdinalBaggingClassifier(ReplicatedTreeClassifier()))


def test_what_an_ensemble_takes_is_read_from_its_base_tags():
    """A base estimator other than a tree whose tags say it takes categories (the discrete
    models) gets the nominal columns as their codes, as a tree does; one whose tags do not
    (OrdinalStumpBoost, above) has them refused."""
    from ordstat.discrete import FullMultinomial

    rng = np.random.default_rng(1)
    X = pd.DataFrame({"a": rng.choice(["x", "y", "z"], 90), "b": rng.choice(["u", "v"], 90)})
    y = (X.a == "z").astype(int) + (X.b == "v").astype(int)
    bag = OrdinalBaggingClassifier(FullMultinomial(), n_estimators=3, random_state=0)
    assert "categorical" in accepts(bag)
    with pytest.warns(UserWarning, match="every bootstrap sample"):
        bag.fit(X, y)
    codes = X.apply(lambda col: pd.Categorical(col).codes)
    with pytest.warns(UserWarning, match="every bootstrap sample"):
        numeric = OrdinalBaggingClassifier(FullMultinomial(), n_estimators=3,
                                           random_state=0).fit(codes, y)
    np.testing.assert_array_equal(bag.predict_proba(X), numeric.predict_proba(codes))
