"""Warnings of ``ordstat compare``: each distinct one once, on one line, with a count."""

import contextlib
import io
import re
import warnings

import numpy as np
import pandas as pd
import pytest

from ordstat import cli
from ordstat.cli._warnings import LIMIT, condense, shorten
from ordstat.exceptions import ConvergenceWarning


def _record(*calls):
    """Warnings recorded as the command records them: (message, category) pairs warned."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for message, category in calls:
            warnings.warn(message, category)
    return caught


def test_repeats_are_counted_once_each():
    caught = _record(("a thing happened", UserWarning), ("a thing happened", UserWarning),
                     ("a thing happened", ConvergenceWarning),  # another class: another line
                     ("size 3 is small", UserWarning), ("size 17 is small", UserWarning),
                     ("a thing happened", UserWarning), ("once", UserWarning))
    lines, shortened = condense(caught)
    assert lines == ["ordstat: UserWarning: a thing happened (3 times)",
                     "ordstat: ConvergenceWarning: a thing happened",
                     "ordstat: UserWarning: size 3 is small (2 times)",  # numbers aside
                     "ordstat: UserWarning: once"]
    assert not shortened


def test_evaluate_counts_become_times_per_method():
    # what evaluate re-issues (ordstat._core.warnings.reemit): per method, with its splits
    caught = _record(
        ("evaluate, method 'edda': singular class '1' (raised in 9 of 10 splits)", UserWarning),
        ("evaluate, method 'polr': did not converge\nafter 200 iterations "
         "(raised in 2 of 10 splits)", ConvergenceWarning),
        ("evaluate, method 'tree': singular class '2' (raised in 1 of 10 splits)", UserWarning),
        ("evaluate, method 'edda': singular class '1' (raised in 4 of 10 splits)", UserWarning))
    lines, _ = condense(caught)
    assert lines == ["ordstat: UserWarning: edda: singular class '1' (13 times)",
                     "ordstat: ConvergenceWarning: polr: did not converge after 200 iterations "
                     "(2 times)",
                     "ordstat: UserWarning: tree: singular class '2'"]


def test_long_warnings_are_cut_at_a_natural_break():
    long = ("EDDA model 'VII': the covariance matrix of class '1' is singular; "
            + "set reg_covar > 0 " * 30)
    assert shorten(long, 100) == ("EDDA model 'VII': the covariance matrix of class '1' is "
                                  "singular ...")
    # a break in the first half would say too little: cut at a space instead
    early = "EDDA: singular; " + "set reg_covar > 0 " * 30
    assert shorten(early, 100) == early[:early.rindex(" ", 0, 100)] + " ..."
    joined = " | ".join(["model 'A': bad in class " + "x" * 40] * 5)
    assert shorten(joined, 150) == "model 'A': bad in class " + "x" * 40 + (
        " | model 'A': bad in class " + "x" * 40) + " ..."
    no_breaks = "word " * 100
    cut = shorten(no_breaks, 50)
    assert cut.endswith("word ...") and len(cut) <= 54
    assert shorten("short\n  text") == "short text"
    lines, shortened = condense(_record((long, UserWarning)))
    assert shortened and len(lines[0]) <= len("ordstat: UserWarning: ") + LIMIT + 4
    lines, shortened = condense(_record((long, UserWarning)), full=True)
    assert not shortened and lines[0] == "ordstat: UserWarning: " + " ".join(long.split())


def _main(argv):
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """EDDA on data where one class has a constant feature: its class-specific models are
    skipped, with a long warning, on every split; the run as is and with --full-warnings."""
    rng = np.random.default_rng(0)
    grade = np.repeat(["low", "mid", "high"], 20)
    x = np.r_[np.round(rng.normal(0, 1, 20)), np.full(20, 1.0), rng.normal(3, 1, 20)]
    path = tmp_path_factory.mktemp("warn") / "edda.csv"
    pd.DataFrame({"x": x, "z": rng.normal(size=60) + (grade == "high"),
                  "grade": grade}).to_csv(path, index=False)
    argv = ["compare", str(path), "--response", "grade", "--order", "low,mid,high",
            "--methods", "polr,edda", "--scheme", "cv5", "--seed", "0",
            "--metrics", "misclassification"]
    return {False: _main(argv), True: _main([*argv, "--full-warnings"])}


def test_compare_prints_each_warning_once_on_one_short_line(runs):
    code, out, err = runs[False]
    assert code == 0, err
    assert err.splitlines() == [
        "ordstat: UserWarning: edda: EDDA: model(s) EVI, VVI, EVE, VVE, EVV, VVV skipped: EDDA "
        "model 'EVI': within class 'mid' these features are constant: feature 0 ('x'); so its "
        "diagonal shape is singular ... (5 times)",
        "ordstat: (long warnings shortened; --full-warnings prints them whole)"]
    assert "mean (sd) over splits" in out


def test_full_warnings_prints_the_same_warnings_whole(runs):
    _, out_short, short = runs[False]
    code, out_full, full = runs[True]
    assert code == 0 and out_full == out_short
    (line,) = full.splitlines()
    assert line.startswith(short.splitlines()[0].removesuffix(" ... (5 times)"))
    assert line.endswith(" (5 times)") and len(line) > 2 * LIMIT
    assert line.count("EDDA model '") == 6  # the six skipped models, each with its reason


def test_wine_warnings_are_short_and_distinct():
    """The user's case: ``ordstat compare --bundled wine`` printed about ten warnings of over
    1 KB each before the results."""
    from ordstat.datasets import load_wine

    try:
        load_wine()
    except ImportError as exc:
        pytest.skip(str(exc))
    code, out, err = _main(["compare", "--bundled", "wine", "--seed", "0"])
    assert code == 0, err
    lines = err.splitlines()
    warned = lines[:-1]
    assert lines[-1] == "ordstat: (long warnings shortened; --full-warnings prints them whole)"
    assert all(line.startswith("ordstat: ") for line in warned)
    assert len(warned) == len(set(warned)) >= 2
    assert max(map(len, warned)) <= LIMIT + 60
    assert "raised in" not in err and "evaluate, method" not in err
    counts = [int(n) for n in re.findall(r"\((\d+) times\)$", err, re.MULTILINE)]
    assert counts and all(1 < n <= 10 for n in counts)  # 10 splits: at most once per split
    assert "mean (sd) over splits" in out
