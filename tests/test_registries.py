"""The lists of estimators agree: package exports, the CLI registry, the common checks and the
estimators the R package wraps."""

import importlib
import inspect
import pathlib
import re

from sklearn.base import BaseEstimator

import ordstat
from ordstat.cli._methods import METHODS

ROOT = pathlib.Path(__file__).resolve().parents[1]

# Public estimators the R package does not wrap, with the reason.
NOT_WRAPPED_IN_R = {
    "ProportionalOddsClassifier": "R has MASS::polr and ordinal::clm",
}


def _exported_estimators():
    out = set()
    for name, module in ordstat._EXPORTS.items():
        obj = getattr(importlib.import_module(module), name)
        if inspect.isclass(obj) and issubclass(obj, BaseEstimator):
            out.add(name)
    return out


def _own_methods():
    """CLI entries of our estimators (``peer:`` entries are other packages' comparators)."""
    return {name: entry for name, entry in METHODS.items() if not name.startswith("peer:")}


def _cli_estimators():
    return {target.split(":")[1] for target, _, _ in _own_methods().values()}


def _common_check_estimators():
    from tests import test_common
    return {type(est).__name__ for est in test_common.ESTIMATORS}


def _r_estimators():
    from r_bridge import _rside
    r_code = "\n".join(p.read_text() for p in (ROOT / "r_bridge/rpkg/R").glob("*.R"))
    kinds = {kind for kind in _rside.ESTIMATORS if re.search(rf'"{kind}"', r_code)}
    return {_rside.ESTIMATORS[kind][1] for kind in kinds}


def test_package_cli_and_common_checks_list_the_same_estimators():
    exported = _exported_estimators()
    assert exported, "no estimators found among the exports"
    assert _cli_estimators() == exported
    assert _common_check_estimators() == exported


def test_r_package_wraps_every_estimator():
    exported = _exported_estimators()
    assert set(NOT_WRAPPED_IN_R) <= exported, "stale entry in NOT_WRAPPED_IN_R"
    assert _r_estimators() == exported - set(NOT_WRAPPED_IN_R)


def test_cli_entries_build():
    for name in _own_methods():
        est = ordstat.cli._methods.make_method(name)
        assert type(est).__name__ in _exported_estimators()
