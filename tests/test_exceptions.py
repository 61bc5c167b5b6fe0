"""The public warning classes: one home, importable from ``ordstat``, raised where documented."""

import ast
import pathlib
import warnings

import numpy as np
import pytest
import sklearn.exceptions

import ordstat
from ordstat import exceptions
from ordstat.discrete import FullMultinomial
from ordstat.gaussian import EDDA

ROOT = pathlib.Path(ordstat.__file__).parent


def test_exported_from_package_and_subpackages():
    for name in exceptions.__all__:
        assert getattr(ordstat, name) is getattr(exceptions, name)
    from ordstat.discrete import ZeroDensityWarning
    from ordstat.gaussian import ConvergenceWarning
    assert ZeroDensityWarning is exceptions.ZeroDensityWarning
    assert ConvergenceWarning is exceptions.ConvergenceWarning


def test_convergence_warning_is_sklearns():
    assert issubclass(exceptions.ConvergenceWarning, sklearn.exceptions.ConvergenceWarning)
    for name in exceptions.__all__:
        expected = UserWarning if name.endswith("Warning") else ImportError
        assert issubclass(getattr(exceptions, name), expected), name


def test_warning_classes_are_defined_only_in_exceptions():
    """Every module imports its warning and error classes from ordstat.exceptions, none defines
    its own."""
    offenders = []
    for path in ROOT.rglob("*.py"):
        # _extras.py: MissingExtraError, re-exported by ordstat.exceptions, lives beside the
        # extras table in a module that imports nothing heavy
        if path.name in ("exceptions.py", "_extras.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and any(
                    getattr(b, "id", getattr(b, "attr", "")).endswith(("Warning", "Error"))
                    for b in node.bases):
                offenders.append(f"{path.relative_to(ROOT)}:{node.name}")
    assert offenders == []


def test_filters_on_public_classes_work():
    X = np.array([[0, 0], [0, 1], [1, 1]])
    model = FullMultinomial(categories="binary").fit(X[:2], [0, 1])
    with pytest.warns(ordstat.ZeroDensityWarning, match="1 of 3 unit"):
        model.predict_proba(X)  # state (1, 1) was never seen in training
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", ordstat.ZeroDensityWarning)
        model.predict_proba(X)


def test_edda_convergence_warning_caught_by_sklearn_filter():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3)) * [1.0, 2.0, 0.5]
    y = np.repeat([0, 1, 2], 20)
    with pytest.warns(sklearn.exceptions.ConvergenceWarning, match="'VVE'.*max_iter=1"):
        EDDA(model="VVE", max_iter=1, tol=1e-14).fit(X, y)


def test_order_guess_warning_public():
    from ordstat.trees import OrdinalTreeClassifier
    X = np.arange(8.0).reshape(-1, 1)
    with pytest.warns(ordstat.OrderGuessWarning, match="guessed"):
        OrdinalTreeClassifier().fit(X, list("aabbccdd"))
