"""Every public estimator is in the one registry (``ordstat._core.registry``), and every route
that derives from it reaches it: the package's exports, the command line's methods, the common
checks, the R package and the feature list of the documentation (docs/features.md)."""

import importlib
import inspect
import pathlib
import pkgutil
import re

import pytest
from sklearn.base import BaseEstimator

import ordstat
from ordstat._core.registry import ESTIMATORS, accepts, by_name, estimator_class, taking
from ordstat.cli._methods import METHODS, make_method

ROOT = pathlib.Path(__file__).resolve().parents[1]
REGISTERED = {entry.name for entry in ESTIMATORS}


def _public_estimator_classes():
    """Estimator classes reachable under a public name of a public module of ordstat (not the
    R bridge ordstat.r: it holds no estimator, and its public names start R through rpy2)."""
    found = {}
    modules = [ordstat] + [importlib.import_module(m.name) for m in
                           pkgutil.walk_packages(ordstat.__path__, "ordstat.")
                           if not any(part.startswith("_") for part in m.name.split("."))
                           and m.name.split(".")[:2] != ["ordstat", "r"]]
    for module in modules:
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if inspect.isclass(obj) and issubclass(obj, BaseEstimator) \
                    and obj.__module__.startswith("ordstat."):
                found[obj.__name__] = obj
    return found


def test_every_public_estimator_is_registered():
    public = _public_estimator_classes()
    assert public, "no estimator classes found"
    assert set(public) == REGISTERED


def test_registry_entries_are_exported_from_their_module_and_from_ordstat():
    for entry in ESTIMATORS:
        cls = estimator_class(entry)
        assert cls.__name__ == entry.name
        assert getattr(ordstat, entry.name) is cls
        assert entry.name in ordstat.__all__
        assert by_name(entry.name) is entry


@pytest.mark.parametrize("entry", ESTIMATORS, ids=lambda e: e.name)
def test_every_estimator_has_a_command_line_method_that_builds_it(entry):
    assert entry.methods, f"{entry.name} has no method of the ordstat command"
    for method in entry.methods:
        assert type(make_method(method)).__name__ == entry.name
    assert all(METHODS[m][0] == f"{entry.module}:{entry.name}" for m in entry.methods)


def test_method_names_are_unique_across_estimators():
    names = [m for entry in ESTIMATORS for m in entry.methods]
    assert len(names) == len(set(names))


def test_common_checks_cover_every_estimator():
    from tests import test_common

    assert {type(est).__name__ for est in test_common.ESTIMATORS} == REGISTERED


def test_r_package_wraps_every_estimator_or_says_why_not():
    from ordstat.r import _rside

    r_code = "\n".join(p.read_text() for p in (ROOT / "r_bridge/R").glob("*.R"))
    for entry in ESTIMATORS:
        if entry.r_kind is None:
            assert entry.r_note, f"{entry.name}: not wrapped in R and no reason given"
            continue
        assert re.search(rf'"{entry.r_kind}"', r_code), \
            f"no R wrapper passes the kind {entry.r_kind!r} ({entry.name})"
        assert _rside.ESTIMATORS[entry.r_kind] == (entry.module, entry.name)
    assert len(_rside.ESTIMATORS) == sum(entry.r_kind is not None for entry in ESTIMATORS)


def feature_items(text):
    """The items of docs/features.md: each bullet, its continuation lines joined."""
    items = []
    for line in text.splitlines():
        if line.startswith("- "):
            items.append(line[2:])
        elif line.startswith("  ") and items:
            items[-1] += " " + line.strip()
    return items


def test_feature_items_are_read_whole():
    text = "# F\n\n- `A`: one\n  two. *Source*: X (2001).\n- `B`: three.\n\nprose\n"
    assert feature_items(text) == ["`A`: one two. *Source*: X (2001).", "`B`: three."]


# a paper by authors and year, or the dissertation (docs/references.md)
_CITATION = re.compile(r"\*Source\*:.*(\b[A-Z][\w-]+\b.*\(\d{4}\)|dissertation)")


def test_features_page_gives_every_estimator_an_item_with_its_paper():
    items = feature_items((ROOT / "docs" / "features.md").read_text(encoding="utf-8"))
    for entry in ESTIMATORS:
        # its own item: the first that names it (later ones name it among others)
        mine = next((item for item in items if f"`{entry.name}`" in item), None)
        assert mine is not None, f"{entry.name} has no item in docs/features.md"
        assert _CITATION.search(mine), f"{entry.name}: its item in docs/features.md cites no paper"


def test_accepts_reads_the_tags():
    assert accepts(ordstat.OrdinalTreeClassifier()) == {"categorical", "missing"}
    assert accepts(ordstat.FullMultinomial()) == {"categorical", "discrete"}
    assert accepts(ordstat.EDDA()) == frozenset()
    # an ensemble takes missing values when its trees do
    assert "missing" in accepts(ordstat.OrdinalBaggingClassifier())
    assert "missing" not in accepts(ordstat.FrankHallClassifier())
    assert "OrdinalTreeClassifier" in taking("missing") and "EDDA" not in taking("missing")
