"""Every ``ordstat`` subcommand in an ordinary pip install, without any optional package (the
extras plot, r, compare, dask; simulated by hiding them in a fresh Python): it works, or says in
one line which extra to install; never a traceback."""

import pytest

from ordstat._version import __version__
from tests._hidden import no_traceback, run_ordstat


def _ok(result):
    assert no_traceback(result), result.stderr
    assert result.returncode == 0, result.stderr
    return result.stdout


def _one_line_error(result, expected):
    assert no_traceback(result), result.stderr
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [f"ordstat: error: {expected}"]


def test_version_and_methods_need_no_extra():
    assert _ok(run_ordstat(["--version"])).strip() == f"ordstat {__version__}"
    methods = _ok(run_ordstat(["methods"]))
    assert "tree " in methods and "edda " in methods
    assert "peer:svorim" not in methods and "peer:mass_polr" not in methods  # not installed
    assert "peer:cart_entropy" in methods  # scikit-learn is a dependency


def test_reproduce_list_needs_no_extra():
    listing = _ok(run_ordstat(["reproduce", "--list"]))
    assert listing.splitlines()[0].startswith("edda ")


def test_list_data_says_which_extra_each_set_needs():
    lines = _ok(run_ordstat(["compare", "--list-data"])).splitlines()
    rows = {line.split()[0]: line for line in lines[1:]}
    # shipped with ordstat or with its dependencies
    assert rows["anes96"].split()[1:4] == ["944", "8", "7"]
    assert rows["bupa"].split()[1:4] == ["345", "6", "2"]
    assert rows["haberman"].split()[1:4] == ["306", "3", "2"]
    assert rows["iris"].endswith('not available: the iris data set (read from R) needs rpy2: '
                                 'pip install "ordstat[r]" (and R itself)')
    assert rows["esl"].endswith('not available: the ESL data set needs skordinal: '
                                'pip install "ordstat[compare]"')


@pytest.mark.slow
def test_compare_runs_on_a_shipped_set_without_extras():
    out = _ok(run_ordstat(["compare", "--bundled", "haberman", "--methods", "polr,tree",
                           "--scheme", "cv3", "--seed", "0", "--metrics", "misclassification"]))
    assert "306 units, 3 predictors, 2 ordered classes" in out


@pytest.mark.parametrize("argv, expected", [
    (["compare", "--bundled", "iris", "--methods", "polr"],
     'the iris data set (read from R) needs rpy2: pip install "ordstat[r]" (and R itself)'),
    (["compare", "--bundled", "anes96", "--methods", "peer:mass_polr"],
     'method peer:mass_polr needs rpy2: pip install "ordstat[r]" (and R itself); it also '
     "needs the R package MASS"),
    (["compare", "--bundled", "anes96", "--methods", "peer:mord_at"],
     'method peer:mord_at needs mord: pip install "ordstat[compare]"'),
])
def test_compare_names_the_missing_extra_in_one_line(argv, expected):
    _one_line_error(run_ordstat(argv), expected)
