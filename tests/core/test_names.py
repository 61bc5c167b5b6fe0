"""One set of names: metrics and split criteria have one canonical spelling each, the same in
ordstat.metrics, evaluate/compare_methods, the trees, the command line and the R package, and
every other accepted spelling resolves through one table (ordstat._core.names)."""

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ordstat._core import names as _names
from ordstat.cli._methods import METHOD_ALIASES, METHODS, make_method, method_name
from ordstat.metrics import METRICS, get_metric
from ordstat.model_selection import compare_methods, evaluate
from ordstat.trees import criteria
from ordstat.trees import OrdinalTreeClassifier

ROOT = Path(__file__).resolve().parents[2]


# --- metrics ---------------------------------------------------------------------------------

def test_metric_registry_uses_the_canonical_names_in_order():
    assert list(METRICS) == list(_names.METRIC_NAMES)
    assert set(_names.METRIC_ALIASES.values()) <= set(METRICS)
    assert not set(_names.METRIC_ALIASES) & set(METRICS)


@pytest.mark.parametrize("spelling, canonical", [
    ("misclassification", "misclassification"), ("Misclassification_Rate", "misclassification"),
    ("error", "misclassification"), ("mean_absolute_distance", "mean_absolute"),
    ("MAE", "mean_absolute"), ("mean abs", "mean_absolute"), ("mean-squared", "mean_squared"),
    ("mse", "mean_squared"), ("Goodman-Kruskal gamma", "gamma"), (" gamma ", "gamma"),
])
def test_get_metric_resolves_every_spelling(spelling, canonical):
    name, fn, greater = get_metric(spelling)
    assert name == canonical
    assert fn is METRICS[canonical][0] and greater is METRICS[canonical][1]


def test_get_metric_values_by_hand():
    # ranks 1,2,3,3 vs 1,3,3,1: distances 0,1,0,2
    truth, pred = [0, 1, 2, 2], [0, 2, 2, 0]
    assert get_metric("mae")[1](truth, pred, classes=[0, 1, 2]) == pytest.approx(3 / 4)
    assert get_metric("mse")[1](truth, pred, classes=[0, 1, 2]) == pytest.approx(5 / 4)
    assert get_metric("error")[1](truth, pred, classes=[0, 1, 2]) == pytest.approx(2 / 4)
    # units (true, pred) A(0,0) B(1,2) C(2,2) D(2,0): A-B, A-C concordant, B-D discordant,
    # A-D and B-C tied in pred, C-D tied in truth  ->  gamma = (2 - 1) / (2 + 1)
    assert get_metric("gk_gamma")[1](truth, pred, classes=[0, 1, 2]) == pytest.approx(1 / 3)


def test_unknown_metric_lists_names_and_aliases():
    with pytest.raises(ValueError, match=r"unknown metric 'auc' \(argument name\).*"
                                         r"misclassification.*gamma.*mae \(= mean_absolute\)"):
        get_metric("auc")
    with pytest.raises(TypeError, match="must be a string naming a metric"):
        get_metric(3)


def _data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = pd.Categorical(np.digitize(X[:, 0], [-0.5, 0.5]).astype(str), categories=["0", "1", "2"],
                       ordered=True)
    return X, y


def test_evaluate_reports_canonical_names_for_aliases():
    X, y = _data()
    trees = {"a": OrdinalTreeClassifier(max_depth=1), "b": OrdinalTreeClassifier(max_depth=2)}
    res = evaluate(trees, X, y, scheme="cv2", metrics=["MAE", "mean_absolute", "error"],
                   random_state=0)
    assert list(res["metric"].cat.categories) == ["mean_absolute", "misclassification"]
    assert compare_methods(res, "Mean-Absolute-Distance").metric == "mean_absolute"
    with pytest.raises(ValueError, match=r"unknown metric 'auc' \(argument metrics\)"):
        evaluate(trees, X, y, scheme="cv2", metrics=["auc"])


# --- criteria --------------------------------------------------------------------------------

def test_criterion_registry_uses_the_canonical_names():
    assert set(criteria.BUILTIN) == set(_names.CRITERION_NAMES)
    assert criteria.ALIASES is _names.CRITERION_ALIASES
    assert set(_names.CRITERION_ALIASES.values()) <= set(_names.CRITERION_NAMES)


@pytest.mark.parametrize("spelling", [*_names.CRITERION_ALIASES, "GINI", "Gini-Linear",
                                      "ordered twoing", "Generalized-Gini-Quadratic"])
def test_every_criterion_spelling_gives_the_builtin_record(spelling):
    canonical = _names.criterion_name(spelling)
    assert criteria.get_criterion(spelling) is criteria.CRITERIA[canonical]


def test_unknown_criterion_lists_names():
    with pytest.raises(ValueError, match="gini_linear.*linear"):
        criteria.get_criterion("chi2")
    with pytest.raises(ValueError, match=r"unknown criterion 'chi2' \(argument criterion\)"):
        _names.criterion_name("chi2", "criterion")


def test_r_package_criterion_table_is_the_python_one():
    # R's ordinal_split() works without Python, so the R package's aliases.R keeps a copy
    text = (ROOT / "r_bridge/R/aliases.R").read_text()

    def r_vector(name):
        body = re.search(rf"^{re.escape(name)} <- c\((.*?)\)\n", text, re.S | re.M).group(1)
        return re.findall(r'(?:(\w+) = )?"(\w+)"', body)

    assert [v for _, v in r_vector(".criterion_canonical")] == list(_names.CRITERION_NAMES)
    assert dict(r_vector(".criterion_aliases")) == _names.CRITERION_ALIASES


# --- method names of the command line ---------------------------------------------------------

def test_tree_methods_are_named_by_their_criterion():
    for criterion in _names.CRITERION_NAMES:
        name = method_name(f"tree_{criterion}")
        assert make_method(name).criterion == criterion
    assert method_name("tree_linear") == "tree_gini_linear"
    assert method_name("Tree-Ordered-Twoing") == "tree_twoing"
    assert method_name("TREE") == "tree"
    assert set(METHOD_ALIASES.values()) <= set(METHODS)
    with pytest.raises(ValueError, match="unknown method 'tree_chi2'"):
        method_name("tree_chi2")


# --- a fast command line -----------------------------------------------------------------------

HEAVY = ("sklearn", "pandas", "scipy", "numba")


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["methods"], ["methods", "--help"],
                                  ["compare", "--help"]])
def test_cli_help_imports_nothing_heavy(argv):
    script = ("import sys, ordstat.cli\n"
              "try:\n"
              f"    ordstat.cli.main({argv!r})\n"
              "except SystemExit:\n"
              "    pass\n"
              f"print([m for m in {HEAVY!r} if m in sys.modules], file=sys.stderr)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stderr.strip().splitlines()[-1] == "[]"


def test_compare_help_prints_the_canonical_names():
    out = subprocess.run([sys.executable, "-m", "ordstat", "compare", "--help"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0
    for name in [*_names.METRIC_NAMES, *_names.CRITERION_NAMES, *_names.METRIC_ALIASES]:
        assert name in out.stdout


def test_forest_importance_takes_metric_aliases():
    from ordstat.ensemble import OrdinalRandomForestClassifier

    X, y = _data()
    kw = dict(n_estimators=10, max_features=1, random_state=0)
    by_alias = OrdinalRandomForestClassifier(importance="MAE", **kw).fit(X, y)
    by_name = OrdinalRandomForestClassifier(importance="mean_absolute", **kw).fit(X, y)
    np.testing.assert_array_equal(by_alias.permutation_importance_,
                                  by_name.permutation_importance_)
    with pytest.raises(ValueError, match="importance must be one of"):
        OrdinalRandomForestClassifier(importance="mse", **kw).fit(X, y)
