"""The wheel holds the package and what it reads at run time, and nothing else
(tests/install/wheel_contents.py says what that is).

The fast test takes the file list setuptools would build from pyproject.toml (its package
discovery and package-data globs, as configured there); the slow one builds the wheel with
``python -m build --no-isolation`` when this environment's setuptools can (>= 77, which reads
the SPDX ``license``). tests/install/check_wheel.sh builds both distributions in isolation and
checks them with the same rules."""

import ast
import fnmatch
import importlib.util
import re
import subprocess
import sys
import tomllib
import zipfile

import pytest
from setuptools import find_packages

from tests.install.wheel_contents import (PACKAGE, ROOT, runtime_files, source_modules,
                                          wheel_names, wheel_problems)
from tests.test_version import VERSION

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def _packages():
    found = SETUPTOOLS["packages"]["find"]
    assert found.get("namespaces") is False  # the R package's source is not a Python package
    return find_packages(where=str(ROOT), include=found["include"],
                         exclude=found.get("exclude", ()))


def _would_build():
    """The wheel's package files as setuptools would collect them: the discovered packages'
    modules and the package-data globs (include-package-data is off, so nothing else)."""
    assert SETUPTOOLS["include-package-data"] is False
    names = set()
    for package in _packages():
        folder = ROOT.joinpath(*package.split("."))
        names |= {f"{package.replace('.', '/')}/{p.name}" for p in folder.glob("*.py")}
        for pattern in SETUPTOOLS["package-data"].get(package, ()):
            names |= {p.relative_to(ROOT).as_posix() for p in folder.glob(pattern)
                      if p.is_file()}
    return names | {f"{PACKAGE}-{VERSION}.dist-info/METADATA"}


def test_what_the_code_reads_is_known():
    files = runtime_files()
    # the two UCI data sets and the R files ordstat.r sources (R_FILES of ordstat/r/_rpart.py,
    # read without importing it: it starts R)
    r_files = ast.literal_eval(re.search(r"^R_FILES = (\(.*?\))$", (
        ROOT / "ordstat/r/_rpart.py").read_text(), re.M).group(1))
    assert {"ordstat/datasets/data/bupa.csv", "ordstat/datasets/data/haberman.csv"} <= files
    assert {f"ordstat/r/R/{name}" for name in r_files} <= files
    assert "ordstat/cli/__init__.py" in source_modules()


def test_every_folder_of_modules_is_a_package():
    # a folder of modules without __init__.py would be left out of the wheel silently
    packages = {p.replace(".", "/") for p in _packages()}
    folders = {m.rsplit("/", 1)[0] for m in source_modules()}
    assert folders - packages == set()


def test_the_wheel_setuptools_would_build_has_what_it_needs_and_nothing_else():
    assert wheel_problems(_would_build(), VERSION) == []


def test_package_data_entries_all_match_files():
    # a dead entry (a glob that matches nothing) is a file someone expected to ship; but for
    # the kernels' machine code, which only a build that ships it makes first
    # (ordstat._compile.ship_kernels)
    for package, patterns in SETUPTOOLS["package-data"].items():
        folder = ROOT.joinpath(*package.split("."))
        for pattern in patterns:
            if (package, pattern.split("/")[0]) == ("ordstat.trees._kernels", "_machine_code"):
                continue
            assert list(folder.glob(pattern)), f"{package}: {pattern} matches no file"


def test_the_check_catches_a_missing_data_file_and_a_stray_file():
    names = _would_build()
    assert wheel_problems(names - {"ordstat/datasets/data/bupa.csv"}, VERSION)
    assert wheel_problems(names | {"tests/conftest.py"}, VERSION)
    assert wheel_problems(names | {"r_bridge/__init__.py"}, VERSION)
    assert wheel_problems(names | {"r_bridge/DESCRIPTION"}, VERSION)
    assert wheel_problems(names - {"ordstat/r/R/split.R"}, VERSION)


def _setuptools_can_build():
    if importlib.util.find_spec("build") is None:
        return "the build package is not installed"
    import setuptools

    major = int(setuptools.__version__.split(".")[0])
    if major < 77:
        return (f"setuptools {setuptools.__version__} < 77 cannot read the SPDX license "
                "without isolation (tests/install/check_wheel.sh builds in isolation)")
    return None


@pytest.mark.slow
def test_built_wheel(tmp_path):
    why = _setuptools_can_build()
    if why:
        pytest.skip(why)
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir",
                    str(tmp_path), str(ROOT)], check=True, capture_output=True)
    wheel, = tmp_path.glob("*.whl")
    names = wheel_names(wheel)
    assert wheel_problems(names, VERSION) == []
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read(f"{PACKAGE}-{VERSION}.dist-info/METADATA").decode()
    assert f"Version: {VERSION}" in metadata
    assert not fnmatch.filter(names, "*keel*")
