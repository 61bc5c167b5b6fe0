"""Reading the CSV file of ``ordstat compare``: --sep and its guess, and --ordered."""

import argparse
import re

import numpy as np
import pandas as pd
import pytest

from ordstat import cli
from ordstat.cli import _data

ARGS = ["--response", "grade", "--order", "low,mid,high", "--methods", "polr,tree",
        "--scheme", "cv3", "--metrics", "mean_absolute", "--seed", "0"]


def _frame(n=60):
    rng = np.random.default_rng(0)
    x = rng.normal(size=n)
    grade = np.array(["low", "mid", "high"])[np.digitize(x + 0.5 * rng.normal(size=n),
                                                          [-0.4, 0.4])]
    edu = np.array(["primary", "secondary", "tertiary"])[np.digitize(x, [-0.3, 0.5])]
    return pd.DataFrame({"age": x.round(3), "income": rng.normal(size=n).round(3),
                         "edu": edu, "grade": grade})


@pytest.fixture
def files(tmp_path):
    frame = _frame()
    paths = {}
    for name, sep in [("comma", ","), ("semicolon", ";"), ("tab", "\t")]:
        paths[name] = tmp_path / f"{name}.csv"
        frame.to_csv(paths[name], sep=sep, index=False)
    return paths


def _run(argv, capsys):
    code = cli.main(["compare", *map(str, argv)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("name, sep, shown", [("semicolon", ";", "';'"), ("tab", "tab", "tab")])
def test_semicolon_and_tab_files_are_read_with_and_without_sep(files, name, sep, shown, capsys):
    code, guessed, err = _run([files[name], *ARGS], capsys)
    assert code == 0, err
    assert "60 units, 3 predictors (1 categorical), 3 ordered classes" in guessed
    assert f"columns separated by {shown} (guessed from the first lines" in guessed
    code, given, err = _run([files[name], "--sep", sep, *ARGS], capsys)
    assert code == 0, err
    assert "guessed" not in given
    # the same table either way, and the same as the comma file's
    code, comma, err = _run([files["comma"], *ARGS], capsys)
    assert code == 0, err
    assert "separated" not in comma
    table = given[given.index("mean (sd)"):]
    assert guessed[guessed.index("mean (sd)"):] == table == comma[comma.index("mean (sd)"):]


@pytest.mark.parametrize("name, wrong, hint", [
    ("semicolon", ",", "the header contains ';': use --sep ';'"),
    ("tab", ",", "the header contains tab: use --sep tab"),
    ("comma", ";", "the header contains ',': use --sep ','"),
])
def test_a_wrong_sep_says_which_to_use(files, name, wrong, hint, capsys):
    code, _, err = _run([files[name], "--sep", wrong, *ARGS], capsys)
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert "response column 'grade' not found; columns are age" in err
    assert err.strip().endswith(hint)


def test_no_sep_hint_when_the_header_has_no_other_separator(files, capsys):
    code, _, err = _run([files["comma"], *ARGS[:1], "nope", *ARGS[2:]], capsys)
    assert code == 2 and "use --sep" not in err


@pytest.mark.parametrize("text, sep", [(";", ";"), ("tab", "\t"), ("\\t", "\t"), ("TAB", "\t"),
                                       ("semicolon", ";"), ("|", "|"), ("\t", "\t")])
def test_sep_spellings(text, sep):
    assert _data.separator(text) == sep


def test_sep_must_be_one_character():
    with pytest.raises(argparse.ArgumentTypeError, match="one character"):
        _data.separator(";;")


def test_sniffing(tmp_path):
    one_column = tmp_path / "one.csv"
    one_column.write_text("x\n1\n2\n3\n")
    assert _data.sniff_separator(one_column) == ","  # the sniffer cannot tell: a comma
    assert _data.sniff_separator(tmp_path / "absent.csv") == ","
    # decimal commas inside a semicolon file
    decimal = tmp_path / "decimal.csv"
    decimal.write_text("a;b;grade\n1,5;2,25;low\n3,0;4,5;high\n2,5;1,75;mid\n")
    assert _data.sniff_separator(decimal) == ";"
    piped = tmp_path / "piped.csv"
    piped.write_text("a|b|grade\n1|2|low\n3|4|high\n")
    assert _data.sniff_separator(piped) == "|"


def test_sep_with_bundled_is_an_error(capsys):
    code, _, err = _run(["--bundled", "wine", "--sep", ";"], capsys)
    assert code == 2 and "--sep is for a CSV file" in err


# ---------------------------------------------------------------------------- --ordered

def test_ordered_spec_parses_column_and_levels():
    assert _data.ordered_spec("edu=primary, secondary,tertiary") == (
        "edu", ["primary", "secondary", "tertiary"])
    for bad in ["edu", "edu=", "=a,b"]:
        with pytest.raises(argparse.ArgumentTypeError, match="COLUMN=lowest"):
            _data.ordered_spec(bad)
    with pytest.raises(argparse.ArgumentTypeError, match="level.s. a given more than once"):
        _data.ordered_spec("edu=a,b,a")


def test_apply_ordered_makes_an_ordered_categorical():
    frame = pd.DataFrame({"edu": ["tertiary", "primary", None, "secondary"],
                          "score": [3.0, 1.0, 2.0, np.nan], "x": [0.1, 0.2, 0.3, 0.4]})
    out = _data.apply_ordered(frame, [("edu", ["primary", "secondary", "tertiary"]),
                                      ("score", ["3", "2", "1"])])
    edu = out["edu"]
    assert edu.cat.ordered and list(edu.cat.categories) == ["primary", "secondary", "tertiary"]
    assert list(edu.cat.codes) == [2, 0, -1, 1]  # the missing value stays missing
    # a numeric column matched by number (3.0 is "3"), in the order given
    assert list(out["score"].cat.categories) == ["3", "2", "1"]
    assert list(out["score"].cat.codes) == [0, 2, 1, -1]
    assert out["x"].dtype == float
    assert not isinstance(frame["edu"].dtype, pd.CategoricalDtype)  # the input is untouched


@pytest.mark.parametrize("specs, message", [
    ([("edu", ["primary", "secondary"])],
     "--ordered edu: value(s) tertiary of column 'edu' are not among its levels "
     "primary,secondary"),
    ([("score", ["1", "2"])],
     "--ordered score: value(s) 3 of column 'score' are not among its levels 1,2"),
    ([("score", ["low", "high"])], "--ordered score: the column holds numbers"),
    ([("edux", ["a"])], "--ordered edux: no column 'edux'; columns are edu, score"),
    ([("edu", ["primary", "secondary", "tertiary"])] * 2,
     "--ordered edu: the column is declared more than once"),
])
def test_apply_ordered_errors_name_the_column_and_values(specs, message):
    frame = pd.DataFrame({"edu": ["tertiary", "primary", "secondary"], "score": [3, 1, 2]})
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        _data.apply_ordered(frame, specs)


def test_ordered_from_the_command_line(files, capsys):
    argv = [files["semicolon"], *ARGS, "--methods", "tree,fmm", "--predictors", "edu",
            "--ordered", "edu=primary,secondary,tertiary"]
    code, out, err = _run(argv, capsys)
    assert code == 0, err
    assert "60 units, 1 predictors (1 categorical)" in out
    assert "tree" in out and "fmm" in out
    # a value left out of the levels: one line naming the column and the value
    bad = [a if not str(a).startswith("edu=") else "edu=primary,secondary" for a in argv]
    code, _, err = _run(bad, capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert ("--ordered edu: value(s) tertiary of column 'edu' are not among its levels "
            "primary,secondary") in err


def test_ordered_is_repeatable_and_reaches_the_methods(files, capsys, monkeypatch):
    seen = {}

    def spy(estimators, X, y, **kwargs):
        seen["X"] = X
        raise SystemExit(0)

    import ordstat.model_selection

    monkeypatch.setattr(ordstat.model_selection, "evaluate", spy)
    frame = _frame().assign(size=lambda f: np.where(f.income > 0, "big", "small"))
    path = files["comma"].with_name("two.csv")
    frame.to_csv(path, index=False)
    with pytest.raises(SystemExit):
        cli.main(["compare", str(path), *ARGS, "--ordered", "edu=primary,secondary,tertiary",
                  "--ordered", "size=small,big"])
    X = seen["X"]
    assert X["edu"].cat.ordered and list(X["edu"].cat.categories) == [
        "primary", "secondary", "tertiary"]
    assert X["size"].cat.ordered and list(X["size"].cat.categories) == ["small", "big"]


def test_ordered_response_is_refused(files, capsys):
    code, _, err = _run([files["comma"], *ARGS, "--ordered", "grade=low,mid,high"], capsys)
    assert code == 2 and "--ordered grade: that is the response; give its order with --order" in err


def test_semicolon_file_with_decimal_commas_gives_numbers(tmp_path, capsys):
    frame = _frame()
    path = tmp_path / "excel.csv"
    frame.to_csv(path, sep=";", decimal=",", index=False)
    assert "," in path.read_text().splitlines()[1]
    read, sep, notes = _data.read_csv(path)
    assert sep == ";" and read["age"].dtype == float and read["income"].dtype == float
    np.testing.assert_allclose(read["age"], frame["age"])
    assert notes[-1] == f"{path}: decimal commas read as numbers in age, income"
    # through the command: the same table as the plain comma file
    code, out, err = _run([path, *ARGS], capsys)
    assert code == 0, err
    assert "60 units, 3 predictors (1 categorical)" in out
    comma = tmp_path / "plain.csv"
    frame.to_csv(comma, index=False)
    _, plain, _ = _run([comma, *ARGS], capsys)
    assert out[out.index("mean (sd)"):] == plain[plain.index("mean (sd)"):]


def test_text_with_commas_is_left_as_text(tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text("code;x;grade\n1,a;1;low\n2,b;2;high\n3,c;3;mid\n")
    read, sep, notes = _data.read_csv(path)
    assert sep == ";" and list(read["code"]) == ["1,a", "2,b", "3,c"]
    assert not any("decimal" in note for note in notes)


# --------------------------------------------------------------- missing-value strings

def _exercise_file(tmp_path, levels=("None", "Some", "Freq")):
    """A survey-like file whose response has a level "None" (MASS::survey's Exer)."""
    rng = np.random.default_rng(1)
    n = 90
    x = rng.normal(size=n)
    exer = np.array(levels)[np.digitize(x + 0.3 * rng.normal(size=n), [-0.4, 0.4])]
    path = tmp_path / "survey.csv"
    pd.DataFrame({"pulse": x.round(3), "height": rng.normal(size=n).round(3),
                  "Exer": exer}).to_csv(path, index=False)
    return path, int(np.sum(exer == levels[0]))


def _compare_args(order):
    return ["--response", "Exer", "--order", order, "--methods", "tree", "--scheme", "cv3",
            "--metrics", "misclassification", "--seed", "0"]


def test_a_response_level_none_is_data_not_missing(tmp_path, capsys):
    path, n_none = _exercise_file(tmp_path)
    assert n_none > 0
    code, out, err = _run([path, *_compare_args("None,Some,Freq")], capsys)
    assert code == 0, err
    assert "90 units, 2 predictors, 3 ordered classes" in out
    assert "left out" not in out
    # without --order too: "None" is not among the default missing-value strings
    frame, _, _ = _data.read_csv(path)
    assert (frame["Exer"] == "None").sum() == n_none


def test_na_values_option_and_order_keeps_its_levels(tmp_path, capsys):
    path, n_none = _exercise_file(tmp_path, levels=("NA", "Some", "Freq"))
    # "NA" is missing by default, but a level named in --order is data
    code, out, err = _run([path, *_compare_args("NA,Some,Freq")], capsys)
    assert code == 0, err
    assert "90 units, 2 predictors, 3 ordered classes" in out
    # --na-values names other strings: here "Some" becomes missing
    code, out, err = _run([path, "--na-values", "Some",
                           *_compare_args("NA,Freq")], capsys)
    assert code == 0, err
    assert "of 90 units left out: no value of the response 'Exer'" in out
    frame, _, _ = _data.read_csv(path, na_values=["", "Some"])
    assert frame["Exer"].isna().sum() == 90 - n_none - (frame["Exer"] == "Freq").sum()
    assert (frame["Exer"] == "NA").sum() == n_none


def test_an_order_level_absent_from_the_data_is_refused(tmp_path, capsys):
    path, _ = _exercise_file(tmp_path)
    code, out, err = _run([path, *_compare_args("Nonee,None,Some,Freq")], capsys)
    assert code == 2
    assert ("--order level(s) Nonee are not values of the response 'Exer'; its values are "
            "Freq, None, Some") in err


# ------------------------------------------------------------------------- --weights

def _table_file(tmp_path):
    """A frequency table as R's as.data.frame(table) writes it: a Freq column of counts."""
    rng = np.random.default_rng(2)
    rows = [(a, b, g) for a in range(4) for b in ("u", "v") for g in ("low", "mid", "high")]
    frame = pd.DataFrame(rows, columns=["age", "sex", "grade"])
    frame["Freq"] = rng.integers(0, 9, size=len(frame))
    path = tmp_path / "table.csv"
    frame.to_csv(path, index=False)
    return path, frame


def test_weights_column_is_not_a_predictor_and_unweighted_methods_are_named(tmp_path, capsys):
    path, frame = _table_file(tmp_path)
    base = ["--response", "grade", "--order", "low,mid,high", "--scheme", "cv3",
            "--metrics", "misclassification", "--seed", "0"]
    code, out, err = _run([path, *base, "--methods", "tree", "--predictors", "age,sex,Freq"],
                          capsys)
    assert code == 0, err
    assert "if it holds the counts of a frequency table, give --weights Freq" in out
    code, out, err = _run([path, *base, "--methods", "tree,forest,committee_edda",
                           "--weights", "Freq"], capsys)
    assert code == 0, err
    assert "24 units, 2 predictors (1 categorical), 3 ordered classes" in out
    assert f"unit weights from column 'Freq' (total {frame['Freq'].sum()} over 24 rows)" in out
    # the ensembles take the weights (a frequency table's counts); the combiners do not
    assert "left out: committee_edda (they take no unit weights)" in out
    assert "\nforest " in out.split("mean (sd) over splits")[1]  # it ran, weighted
    assert "give --weights" not in out
    code, _, err = _run([path, *base, "--methods", "committee_edda", "--weights", "Freq"],
                        capsys)
    assert code == 2
    assert "--weights: none of the methods committee_edda takes unit weights" in err


@pytest.mark.parametrize("column, values, message", [
    ("Fre", None, "--weights: no column 'Fre' (did you mean Freq?)"),
    ("Freq", "text", "--weights Freq: the column must hold numbers"),
    ("Freq", -1, "--weights Freq: weights must be finite and non-negative"),
    ("Freq", np.nan, "--weights Freq: 1 unit(s) have no weight"),
    ("grade", None, "--weights grade: that column is the response or a predictor")])
def test_bad_weights_are_refused(tmp_path, capsys, column, values, message):
    path, frame = _table_file(tmp_path)
    if values is not None:
        frame["Freq"] = frame["Freq"].astype(object)
        frame.loc[3, "Freq"] = values
        frame.to_csv(path, index=False)
    code, _, err = _run([path, "--response", "grade", "--order", "low,mid,high",
                         "--methods", "tree", "--weights", column], capsys)
    assert code == 2
    assert message in err
