"""``ordstat compare`` with categorical predictors and missing values: the columns each method
gets, the units all methods share, the lines that say so, and the refusals."""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from ordstat.cli._inputs import (NumericCoded, declared_categories, numeric_coding,
                                 plan_inputs)
from ordstat.cli._methods import DEFAULT_METHODS, accepts_table
from ordstat.baseline import ProportionalOddsClassifier
from ordstat.cli import main
from ordstat.trees import OrdinalTreeClassifier



def _grades(n=120, seed=1, na_numeric=(3, 10, 50), na_string=(7, 20), na_response=(30,)):
    """Students: hours of study, age, school (string) and grade C < B < A (string)."""
    rng = np.random.default_rng(seed)
    school = rng.choice(["north", "south", "east"], n)
    hours = rng.normal(10, 3, n).round(1)
    score = hours / 3 + (school == "north") * 1.2 + rng.normal(0, 1, n)
    frame = pd.DataFrame({"hours": hours, "age": rng.integers(15, 19, n).astype(float),
                          "school": school,
                          "grade": np.array(["C", "B", "A"])[np.digitize(score, [3, 4.5])]})
    frame.loc[list(na_numeric), "hours"] = np.nan
    frame.loc[list(na_string), "school"] = np.nan
    frame.loc[list(na_response), "grade"] = np.nan
    return frame


def _compare(capsys, *args):
    code = main(["compare", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


# ----------------------------------------------------------------------- the plan

def test_plan_by_hand():
    X = pd.DataFrame({"a": [np.nan, 1.0, 2.0, 3.0], "g": ["u", None, "v", "u"],
                      "b": [1.0, 2.0, 3.0, 4.0]})
    plan = plan_inputs(X, ["polr", "tree", "fmm"], accepts_table())
    assert plan.coded == ["polr"]  # the tree and fmm take g as it is
    assert plan.coding == {"g": (False, ["u", "v"])}
    assert plan.categorical == ["g"]
    # polr and fmm cannot take missing values: units 0 (a) and 1 (g) left out for all
    assert plan.keep.tolist() == [False, False, True, True]
    assert plan.notes == [
        "polr: categorical column(s) g coded as numbers (an indicator column per level but "
        "the first, as R's model.matrix; ordered columns as their ranks)",
        "2 of 4 units left out for every method: missing values in a, g (polr, fmm cannot "
        "take missing values); all methods are trained and scored on the same 2 units"]
    # the tree alone takes everything; with dropna it gets the complete cases
    alone = plan_inputs(X, ["tree"], accepts_table())
    assert alone.keep.all() and alone.notes == []
    strict = plan_inputs(X, ["tree"], accepts_table(), dropna=True)
    assert strict.keep.tolist() == [False, False, True, True]
    assert "(--dropna)" in strict.notes[0]
    # polr uses g too (coded), so its missing value costs a unit
    only_g = plan_inputs(X[["g", "b"]], ["polr", "tree"], accepts_table())
    assert only_g.keep.tolist() == [True, False, True, True] and only_g.coded == ["polr"]


def test_plan_refuses_discrete_models_given_continuous_columns():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"w": rng.normal(size=30), "k": np.arange(30.0) % 3,
                      "g": rng.choice(["u", "v"], 30), "v": rng.normal(size=30)})
    message = ("method(s) fmm, kernel cannot use the continuous column(s) w, v: they take "
               "every predictor as categories, each distinct value a category of its own; "
               "leave those columns out with --predictors, group them into categories, or "
               "choose other methods")
    with pytest.raises(ValueError) as info:
        plan_inputs(X, ["fmm", "tree", "polr", "kernel"], accepts_table())
    assert str(info.value) == message
    # whole-number and few-valued numeric columns are categories enough: accepted
    plan = plan_inputs(X[["k", "g"]], ["fmm", "foim", "kernel", "tree"], accepts_table())
    assert plan.coded == [] and plan.notes == []
    # the other methods take continuous columns
    assert plan_inputs(X, ["tree", "polr"], accepts_table()).coded == ["polr"]


def test_compare_refuses_discrete_models_before_any_split(tmp_path, capsys):
    path = tmp_path / "grades.csv"
    _grades(na_numeric=(), na_string=()).to_csv(path, index=False)
    code, out, err = _compare(capsys, path, "--response", "grade", "--order", "C,B,A",
                              "--predictors", "school,hours", "--methods", "tree,foim",
                              "--scheme", "cv5", "--seed", "0")
    assert code == 2 and out == ""
    assert err.strip() == ("ordstat: error: method(s) foim cannot use the continuous column(s) "
                           "hours: they take every predictor as categories, each distinct value "
                           "a category of its own; leave those columns out with --predictors, "
                           "group them into categories, or choose other methods")


def test_plan_codes_categorical_columns_when_every_predictor_is_categorical():
    X = pd.DataFrame({"g": ["u", "v", "u"], "h": pd.Categorical(["a", "b", "a"])})
    plan = plan_inputs(X, ["polr", "tree", "edda"], accepts_table())
    assert plan.coded == ["polr", "edda"] and plan.keep.all()
    assert plan.coding == {"g": (False, ["u", "v"]), "h": (False, ["a", "b"])}
    X = pd.DataFrame({"a": [np.nan, np.nan], "b": [1.0, np.nan]})
    with pytest.raises(ValueError, match=r"every unit has a missing value in a, b \(polr "
                                         r"cannot take missing values\); no unit is left"):
        plan_inputs(X, ["polr"], accepts_table())


def test_numeric_coding_by_hand():
    """Unordered: an indicator per level but the first (R's treatment contrasts); ordered: the
    ranks; missing stays missing."""
    X = pd.DataFrame({"x": [1.5, 2.5, 3.5, 4.5], "g": ["u", None, "v", "w"],
                      "h": pd.Categorical(["hi", "lo", "lo", None], categories=["lo", "hi"],
                                          ordered=True)})
    plan = plan_inputs(X, ["polr"], accepts_table())
    coded = numeric_coding(X, plan.coding)
    assert list(coded.columns) == ["x", "g=v", "g=w", "h"]
    np.testing.assert_array_equal(coded["g=v"], [0, np.nan, 1, 0])
    np.testing.assert_array_equal(coded["g=w"], [0, np.nan, 0, 1])
    np.testing.assert_array_equal(coded["h"], [1, 0, 0, np.nan])
    np.testing.assert_array_equal(coded["x"], X["x"])


def test_numeric_coded_is_the_estimator_on_the_coded_columns():
    frame = _grades(na_numeric=(), na_string=(), na_response=())
    X, y = frame[["hours", "school", "age"]], frame["grade"]
    order = ["C", "B", "A"]
    coding = plan_inputs(X, ["polr"], accepts_table()).coding
    wrapped = clone(NumericCoded(ProportionalOddsClassifier(), coding, classes=order)).fit(X, y)
    dummies = pd.get_dummies(X["school"], drop_first=True, prefix="school", prefix_sep="=",
                             dtype=float)
    by_hand = pd.concat([X[["hours"]], dummies, X[["age"]]], axis=1)
    direct = ProportionalOddsClassifier(classes=order).fit(by_hand, y)
    np.testing.assert_allclose(wrapped.predict_proba(X), direct.predict_proba(by_hand))
    assert list(wrapped.classes_) == order
    assert (wrapped.predict(X) == direct.predict(by_hand)).all()
    with pytest.raises(TypeError, match="DataFrame"):
        wrapped.predict(X.to_numpy())


# ----------------------------------------------------------------------- the command line

def test_compare_drops_units_for_all_methods_and_says_so(tmp_path, capsys):
    """Missing values in a numeric column: the units are left out for every method, so the
    result equals a run on the CSV without those rows."""
    frame = _grades(na_string=())
    path = tmp_path / "grades.csv"
    frame.to_csv(path, index=False)
    out_csv = tmp_path / "r.csv"
    code, out, err = _compare(capsys, path, "--response", "grade", "--order", "C,B,A",
                              "--methods", "polr,tree", "--scheme", "cv5", "--seed", "0",
                              "--metrics", "misclassification", "--output", out_csv)
    assert code == 0, err
    assert "116 units, 3 predictors (1 categorical), 3 ordered classes" in out
    assert "note: 1 of 120 units left out: no value of the response 'grade'" in out
    assert "note: polr: categorical column(s) school coded as numbers" in out
    assert ("note: 3 of 119 units left out for every method: missing values in hours (polr "
            "cannot take missing values); all methods are trained and scored on the same 116 "
            "units") in out
    # the same numbers from the complete rows, each method alone
    clean = tmp_path / "clean.csv"
    frame.dropna().to_csv(clean, index=False)
    for method, predictors in [("polr", "hours,age,school"), ("tree", "hours,age,school")]:
        ref_csv = tmp_path / f"{method}.csv"
        code, _, err = _compare(capsys, clean, "--response", "grade", "--order", "C,B,A",
                                "--methods", method, "--predictors", predictors,
                                "--scheme", "cv5", "--seed", "0",
                                "--metrics", "misclassification", "--output", ref_csv)
        assert code == 0, err
        ours = pd.read_csv(out_csv).query("method == @method")["value"].to_numpy()
        np.testing.assert_allclose(ours, pd.read_csv(ref_csv)["value"].to_numpy())


def test_compare_codes_string_predictors_for_numeric_methods(tmp_path, capsys):
    """Every predictor a string column: polr still runs, on indicator columns."""
    path = tmp_path / "grades.csv"
    _grades(na_string=()).to_csv(path, index=False)
    code, out, err = _compare(capsys, path, "--response", "grade", "--order", "C,B,A",
                              "--predictors", "school", "--methods", "polr,tree",
                              "--scheme", "cv5", "--seed", "0", "--metrics", "misclassification")
    assert code == 0, err
    assert "note: polr: categorical column(s) school coded as numbers" in out
    assert "polr" in out[out.index("mean (sd)"):]


def test_compare_discrete_models_take_string_columns(tmp_path, capsys):
    path = tmp_path / "grades.csv"
    _grades(na_numeric=(), na_string=()).to_csv(path, index=False)
    code, out, err = _compare(capsys, path, "--response", "grade", "--order", "C,B,A",
                              "--predictors", "school,age", "--methods", "foim,polr",
                              "--scheme", "cv5", "--seed", "0", "--metrics", "misclassification")
    assert code == 0, err
    assert "note: polr: categorical column(s) school coded as numbers" in out
    assert "foim:" not in out  # foim takes every column


def test_csv_with_strings_and_missing_values_through_compare_defaults(tmp_path, capsys):
    """A user's CSV: string grades, string predictors, missing values, default methods."""
    path = tmp_path / "grades.csv"
    _grades().to_csv(path, index=False)
    code, out, err = _compare(capsys, path, "--response", "grade", "--scheme", "cv5",
                              "--seed", "0")
    assert code == 0, err
    # units missing 'hours' or 'school' are left out for all (polr and edda use both, school
    # coded as numbers)
    assert "114 units, 3 predictors (1 categorical), 3 ordered classes" in out
    assert ("5 of 119 units left out for every method: missing values in hours, school (polr, "
            "edda cannot take missing values)") in out
    for method in DEFAULT_METHODS:
        assert method in out
    for method in ("polr", "edda"):
        assert f"note: {method}: categorical column(s) school coded as numbers" in out


def test_csv_with_strings_and_missing_values_through_the_tree(tmp_path):
    path = tmp_path / "grades.csv"
    _grades(na_response=()).to_csv(path, index=False)
    frame = pd.read_csv(path)
    X, y = frame.drop(columns="grade"), frame["grade"]
    tree = OrdinalTreeClassifier(classes=["C", "B", "A"], random_state=0).fit(X, y)
    assert list(tree.categories_[2]) == ["east", "north", "south"]
    assert set(tree.predict(X)) <= {"A", "B", "C"}
    assert (tree.predict(X) == y).mean() > 0.5


def test_capabilities_name_registered_methods_and_hold():
    """Every accepts_table() entry is a registered method, and a method said to take categorical
    columns fits on a string column as it is."""
    from ordstat.cli._methods import METHODS, make_method

    assert set(accepts_table()) <= set(METHODS)
    assert all(set(flags) <= {"categorical", "missing", "discrete"}
               for flags in accepts_table().values())
    frame = _grades(na_numeric=(), na_string=(), na_response=())
    for method, flags in accepts_table().items():
        if "categorical" in flags:
            est = make_method(method).fit(frame[["school"]], frame["grade"])
            assert len(est.predict(frame[["school"]])) == len(frame)


def test_declared_categories_are_those_of_all_units():
    X = pd.DataFrame({"legs": [0, 2, 4, 5, 2], "g": pd.Categorical(["b", "a", "b", "a", "b"],
                                                                   categories=["b", "a", "c"]),
                      "s": ["x", "z", "y", "x", "x"], "hair": [True, False, True, True, False]})
    cats = declared_categories(X)
    assert [list(c) for c in cats] == [[0, 2, 4, 5], ["b", "a", "c"], ["x", "y", "z"],
                                       [False, True]]


def test_compare_discrete_models_meet_no_unseen_value(tmp_path, capsys):
    # one unit with 5 legs: without the categories of all units, the split that tests it
    # fails ("not seen when fitting") and the method is left out
    rng = np.random.default_rng(3)
    legs = rng.choice([0, 2, 4], 60)
    legs[7] = 5
    grade = np.where(legs >= 4, "high", np.where(rng.random(60) < 0.7, "low", "mid"))
    path = tmp_path / "legs.csv"
    pd.DataFrame({"legs": legs, "hair": rng.random(60) < 0.5, "grade": grade}).to_csv(
        path, index=False)
    code, out, err = _compare(capsys, path, "--response", "grade", "--order", "low,mid,high",
                              "--methods", "fmm,foim,kernel", "--scheme", "cv3", "--seed", "0",
                              "--metrics", "misclassification")
    assert code == 0, err
    assert "left out" not in err and "not seen" not in err
    table = out[out.index("mean (sd)"):]
    assert all(f"\n{m} " in table for m in ("fmm", "foim", "kernel"))
