"""Categorical predictors and missing values: the one helper that tells them apart, the
messages of the estimators that need complete numeric predictors, the tree's string columns and
the discrete models' warning for continuous columns."""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse

import ordstat
from ordstat.cli._methods import METHODS, accepts_table, make_method
from ordstat._core.predictors import describe_predictors
from ordstat.discrete import FullMultinomial, IndependenceModel, KernelMultinomial
from ordstat.trees import OrdinalTreeClassifier


def _frame(n=36, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "income": rng.normal(size=n),
        "colour": rng.choice(["red", "green", "blue"], n),
        "age": rng.integers(20, 60, n),
    }), np.tile([0, 1, 2], n // 3)


# ----------------------------------------------------------------------- the helper

def test_describe_a_frame_by_hand():
    frame = pd.DataFrame({
        "f": [1.0, np.nan, 3.0, np.nan],
        "i": [1, 2, 3, 4],
        "b": [True, False, True, True],
        "s": pd.Series(["a", "b", None, "a"], dtype="string"),
        "o": pd.Series(["a", "b", "c", None], dtype=object),
        "on": pd.Series([1.0, 2, None, 4], dtype=object),  # numbers stored as objects
        "c": pd.Categorical(["x", "y", "x", np.nan]),
        "oc": pd.Categorical([1, 2, 3, 1], ordered=True),
    })
    kinds = describe_predictors(frame)
    assert kinds.columns(kinds.categorical) == ["s", "o", "c", "oc"]
    assert kinds.n_missing.tolist() == [2, 0, 0, 1, 1, 1, 1, 0]
    assert kinds.n_rows_missing == 3  # rows 1, 2 and 3
    assert kinds.label(3) == "feature 3 ('s')"


def test_rows_with_missing_values_are_counted_once():
    frame = pd.DataFrame({"a": [np.nan, 1.0, np.nan], "b": [np.nan, 2.0, 3.0]})
    kinds = describe_predictors(frame)
    assert kinds.n_missing.tolist() == [2, 1] and kinds.n_rows_missing == 2


def test_describe_arrays():
    a = np.array([[1.0, np.nan], [np.nan, np.nan], [3.0, 4.0]])
    kinds = describe_predictors(a)
    assert not kinds.categorical.any() and kinds.n_missing.tolist() == [1, 2]
    assert kinds.n_rows_missing == 2 and kinds.label(1) == "feature 1"
    assert describe_predictors(np.array([["a", "b"]])).categorical.tolist() == [True, True]
    mixed = np.array([[1.0, "a"], [None, "b"]], dtype=object)
    kinds = describe_predictors(mixed)
    assert kinds.categorical.tolist() == [False, True] and kinds.n_missing.tolist() == [1, 0]
    # objects that are neither numbers nor strings are left to the numeric conversion
    assert not describe_predictors(np.array([[{"a": 1}]], dtype=object)).categorical.any()
    for not_a_table in (np.arange(3.0), sparse.csr_matrix(np.eye(2)), None):
        assert describe_predictors(not_a_table) is None


def test_pandas_string_dtypes_are_categorical():
    for dtype in ("string", object, "category"):
        frame = pd.DataFrame({"g": pd.Series(["u", "v"], dtype=dtype)})
        assert describe_predictors(frame).categorical.tolist() == [True]


# ----------------------------------------------------------------------- the estimators

_OURS = [m for m in METHODS if not m.startswith("peer:")]
NUMERIC_ONLY = sorted(m for m in _OURS if "categorical" not in accepts_table()[m])
NO_MISSING = sorted(m for m in _OURS if not accepts_table()[m])


@pytest.mark.parametrize("method", NUMERIC_ONLY)
def test_numeric_only_methods_name_the_categorical_column(method):
    X, y = _frame()
    est = make_method(method)
    # (hierarchical coupling hands its candidates an array: the column by position only)
    with pytest.raises(TypeError, match=r"categorical .* feature 1( \('colour'\))?; .*needs "
                                        r"numeric predictors.*(get_dummies|OneHotEncoder)"):
        est.fit(X, y)


@pytest.mark.parametrize("method", NO_MISSING)
def test_methods_without_missing_values_name_the_column_and_count(method):
    X, y = _frame()
    X = X[["income", "age"]].astype(float)
    X.iloc[[2, 5, 7], 0] = np.nan
    est = make_method(method)
    with pytest.raises(ValueError, match=r"X contains NaN \(missing values\): feature 0 "
                                         r"\('income'\) \(3 missing\), 3 unit\(s\) in all; .*"
                                         r"Drop or impute"):
        est.fit(X, y)


def test_messages_at_predict_time_and_for_arrays():
    X, y = _frame()
    Xn = X[["income", "age"]].to_numpy(dtype=float)
    est = ordstat.EDDA(model="EII").fit(Xn, y)
    Xn[4, 1] = np.nan
    with pytest.raises(ValueError, match=r"feature 1 \(1 missing\).*cannot predict for units "
                                         "with missing predictor values"):
        est.predict(Xn)
    with pytest.raises(TypeError, match=r"feature 0, feature 1; EDDA needs numeric.*"
                                        "OneHotEncoder"):
        est.predict(np.array([["a", "b"]], dtype=object))


def test_hierarchical_coupling_names_the_missing_column():
    from ordstat.combine.hierarchical import HierarchicalCoupling

    X, y = _frame()
    X = X[["income"]].copy()
    X.iloc[0, 0] = np.nan
    with pytest.raises(ValueError, match=r"feature 0 \('income'\) \(1 missing\).*"
                                         "HierarchicalCoupling cannot fit"):
        HierarchicalCoupling(candidates="edda").fit(X, y)


def test_discrete_models_name_the_missing_column():
    X, y = _frame()
    X = X[["colour"]].copy()
    X.iloc[3, 0] = None
    with pytest.raises(ValueError, match=r"1 NaN/missing value\(s\) in feature 0 \('colour'\)"):
        FullMultinomial().fit(X, y)


def test_numeric_arrays_behave_as_before():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 2))
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    a = ordstat.ProportionalOddsClassifier().fit(X, y).predict_proba(X)
    b = ordstat.ProportionalOddsClassifier().fit(pd.DataFrame(X, columns=["u", "v"]), y)
    np.testing.assert_allclose(a, b.predict_proba(pd.DataFrame(X, columns=["u", "v"])))
    with pytest.raises(ValueError, match="infinity"):  # not a missing value: scikit-learn's
        ordstat.EDDA().fit(np.where(X > 2, np.inf, X), y)


# ----------------------------------------------------------------------- the tree

def test_tree_splits_string_columns_as_categories():
    X, y = _frame(90)
    y = np.where(X["colour"] == "red", 2, np.where(X["income"] > 0, 1, 0))
    tree = OrdinalTreeClassifier(min_split=5, xval=0).fit(X, y)
    assert list(tree.categories_[1]) == ["blue", "green", "red"]  # sorted observed values
    assert "colour=blue,green" in tree.export_text() or "colour=red" in tree.export_text()
    assert (tree.predict(X) == y).mean() > 0.9
    with pytest.raises(ValueError, match=r"feature 1 \('colour'\) has value\(s\) \['pink'\] "
                                         "not seen when fitting"):
        tree.predict(X.assign(colour="pink"))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**16), n_cats=st.integers(2, 5))
def test_tree_on_strings_equals_tree_on_unordered_categoricals(seed, n_cats):
    """A string column, the same column as object dtype, and as an unordered Categorical with
    the sorted values as categories give the same tree."""
    rng = np.random.default_rng(seed)
    n = 60
    g = rng.choice([f"c{k}" for k in range(n_cats)], n)
    x = rng.normal(size=n)
    y = np.digitize(x + (g == "c1") + 0.5 * rng.normal(size=n), [0.0, 1.0])
    frames = [pd.DataFrame({"x": x, "g": pd.Series(g, dtype=dtype)})
              for dtype in ("string", object)]
    cats = sorted(set(g))
    frames.append(pd.DataFrame({"x": x, "g": pd.Categorical(g, categories=cats)}))
    trees = [OrdinalTreeClassifier(min_split=4, xval=0).fit(f, y) for f in frames]
    for t, f in zip(trees[1:], frames[1:]):
        np.testing.assert_array_equal(t.tree_.feature, trees[0].tree_.feature)
        np.testing.assert_array_equal(t.predict_proba(f), trees[0].predict_proba(frames[0]))


def test_tree_takes_a_numpy_array_of_strings():
    X, y = _frame(60)
    arr = X[["colour"]].to_numpy(dtype=object)
    tree = OrdinalTreeClassifier(min_split=4, xval=0).fit(arr, y)
    assert 0 in tree.categories_
    np.testing.assert_array_equal(tree.predict(arr),
                                  OrdinalTreeClassifier(min_split=4, xval=0)
                                  .fit(X[["colour"]], y).predict(X[["colour"]]))


# ----------------------------------------------------------------------- discrete models

@pytest.mark.parametrize("model", [FullMultinomial, IndependenceModel, KernelMultinomial])
def test_discrete_models_take_string_columns(model):
    X, y = _frame()
    fitted = model().fit(X[["colour"]], y)
    assert list(fitted.categories_[0]) == ["blue", "green", "red"]


def test_looks_continuous_by_hand():
    from ordstat._core.predictors import MANY_CATEGORIES, looks_continuous

    halves = np.arange(MANY_CATEGORIES) + 0.5
    assert not looks_continuous(halves)  # ten distinct values: categories
    assert looks_continuous(np.r_[halves, 99.5])  # eleven, not whole
    assert not looks_continuous(np.arange(50.0))  # whole numbers: counts, scores
    assert not looks_continuous(np.arange(50))  # integers
    assert looks_continuous(np.r_[halves, 99.5, np.nan])  # missing values ignored


def test_continuous_float_column_warns_in_discrete_models():
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 20)
    cont = pd.DataFrame({"w": rng.normal(size=40).round(3), "g": rng.choice(["a", "b"], 40)})
    with pytest.warns(ordstat.ManyCategoriesWarning,
                      match=r"feature 0 \('w'\) is a float variable with 40 distinct values "
                            "among 40 units"):
        IndependenceModel().fit(cont, y)
    with pytest.warns(ordstat.ManyCategoriesWarning, match="feature 0 is a float"):
        IndependenceModel().fit(cont[["w"]].to_numpy(), y)
    # whole numbers stored as floats, and at most ten distinct values, are categories
    with warnings.catch_warnings():
        warnings.simplefilter("error", ordstat.ManyCategoriesWarning)
        IndependenceModel().fit(np.floor(cont[["w"]].to_numpy() * 10), y)
        IndependenceModel().fit((np.arange(40) % 10 + 0.5).reshape(-1, 1), y)
