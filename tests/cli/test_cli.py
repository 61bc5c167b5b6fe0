import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from ordstat import __version__


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "ordstat", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=300)


@pytest.fixture
def csv(tmp_path):
    rng = np.random.default_rng(0)
    n = 90
    x = rng.normal(size=n)
    grade = np.array(["low", "mid", "high"])[np.digitize(x + 0.5 * rng.normal(size=n),
                                                          [-0.4, 0.4])]
    frame = pd.DataFrame({"x": x, "z": rng.normal(size=n), "grade": grade,
                          "site": rng.choice(["A", "B"], n)})
    path = tmp_path / "d.csv"
    frame.to_csv(path, index=False)
    return path


def test_version():
    out = run("--version")
    assert out.returncode == 0 and __version__ in out.stdout


def test_methods_lists_registry():
    out = run("methods")
    assert out.returncode == 0 and "polr" in out.stdout


def test_compare_prints_table_and_writes_results(csv, tmp_path):
    results = tmp_path / "r.csv"
    out = run("compare", str(csv), "--response", "grade", "--order", "low,mid,high",
              "--predictors", "x,z", "--methods", "polr", "--scheme", "cv5", "--seed", "1",
              "--output", str(results))
    assert out.returncode == 0, out.stderr
    assert "3 ordered classes" in out.stdout and "polr" in out.stdout
    tidy = pd.read_csv(results)
    assert set(tidy.columns) == {"split", "method", "metric", "value"}
    assert len(tidy) == 5 * 4
    # reproducible with the seed
    again = run("compare", str(csv), "--response", "grade", "--order", "low,mid,high",
                "--predictors", "x,z", "--methods", "polr", "--scheme", "cv5", "--seed", "1")
    assert again.stdout.split("\n")[:6] == out.stdout.split("\n")[:6]


def test_compare_two_methods_prints_tests(csv):
    out = run("compare", str(csv), "--response", "grade", "--order", "low,mid,high",
              "--predictors", "x,z", "--methods", "polr,polr_probit", "--scheme", "cv5",
              "--metrics", "misclassification", "--seed", "0")
    assert out.returncode == 0, out.stderr
    assert "Wilcoxon" in out.stdout


@pytest.mark.parametrize("args, message", [
    (["missing.csv", "--response", "grade"], "no such file"),
    (["{csv}", "--response", "nope"], "response column 'nope' not found"),
    (["{csv}", "--response", "grade", "--predictors", "x", "--order", "low,mid"],
     "not in --order"),
    (["{csv}", "--response", "grade", "--predictors", "x", "--methods", "magic"],
     "unknown method"),
    (["{csv}", "--response", "grade", "--predictors", "x", "--scheme", "cvx"], "scheme"),
    (["{csv}", "--response", "site", "--predictors", "x", "--metrics", "auc"],
     "unknown metric"),
    (["{csv}"], "--response is required"),
])
def test_bad_input_one_line_exit_2(csv, args, message, capsys):
    # in this process (an exception escaping main() fails the test): no interpreter start-up
    from ordstat import cli

    try:
        code = cli.main(["compare", *[a.format(csv=csv) for a in args]])
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_bad_input_exits_2_with_one_line_from_the_command(csv):
    out = run("compare", str(csv), "--response", "nope")
    assert out.returncode == 2
    assert "response column 'nope' not found" in out.stderr
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_single_class_response(tmp_path):
    path = tmp_path / "one.csv"
    pd.DataFrame({"x": [1.0, 2.0, 3.0], "y": ["a", "a", "a"]}).to_csv(path, index=False)
    out = run("compare", str(path), "--response", "y")
    assert out.returncode == 2 and "fewer than two classes" in out.stderr


def test_missing_values_leave_units_out_for_every_method(tmp_path):
    path = tmp_path / "na.csv"
    frame = pd.DataFrame({"x": np.r_[np.arange(29.0), np.nan], "y": [0, 1, 2] * 10})
    frame.to_csv(path, index=False)
    out = run("compare", str(path), "--response", "y", "--scheme", "cv3")
    assert out.returncode == 0, out.stderr
    assert "29 units" in out.stdout
    assert ("1 of 30 units left out for every method: missing values in x (polr, edda cannot "
            "take missing values)") in out.stdout
    out = run("compare", str(path), "--response", "y", "--scheme", "cv3", "--dropna")
    assert out.returncode == 0, out.stderr
    assert "29 units" in out.stdout and "(--dropna)" in out.stdout


def test_bundled_dataset_with_default_methods():
    from ordstat.cli._methods import DEFAULT_METHODS

    # balance_scale: the quickest bundled ordinal data set for every default method
    pytest.importorskip("skordinal")
    out = run("compare", "--bundled", "balance_scale", "--scheme", "half", "--seed", "0")
    assert out.returncode == 0, out.stderr
    assert "625 units" in out.stdout and "3 ordered classes" in out.stdout
    assert all(m in out.stdout for m in DEFAULT_METHODS)
    assert "Friedman" in out.stdout


def test_compare_leaves_out_a_method_that_fails_and_says_why(tmp_path):
    # class "top" has 2 units: EDDA's leave-one-out model choice cannot leave one out in a
    # learning half, while the trees fit
    rng = np.random.default_rng(1)
    x = rng.normal(size=60)
    grade = np.where(x < 0, "low", "mid")
    grade[:2] = "top"
    path = tmp_path / "small.csv"
    pd.DataFrame({"x": x, "z": rng.normal(size=60), "grade": grade}).to_csv(path, index=False)
    out = run("compare", str(path), "--response", "grade", "--order", "low,mid,top",
              "--methods", "tree_gini,edda", "--scheme", "half", "--seed", "0")
    assert out.returncode == 0, out.stderr
    assert ("ordstat: UserWarning: evaluate: method 'edda' is left out of the results: it "
            "failed on split") in out.stderr
    assert "Traceback" not in out.stderr and "sys.exit" not in out.stderr
    assert "tree_gini" in out.stdout and "edda " not in out.stdout
    alone = run("compare", str(path), "--response", "grade", "--order", "low,mid,top",
                "--methods", "edda", "--scheme", "half", "--seed", "0")
    assert alone.returncode == 2 and "every method failed; 'edda'" in alone.stderr
