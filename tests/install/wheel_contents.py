"""What the wheel and the sdist of ordstat must hold, checked against their file lists.

Used by tests/test_packaging.py (on the file list setuptools would build, or on a built wheel)
and by tests/install/check_wheel.sh (``python tests/install/wheel_contents.py WHEEL SDIST``).

The wheel: only ``ordstat/**`` and ``ordstat-VERSION.dist-info/**`` (nothing of the R
package, ``r_bridge/``, but the R files ``ordstat.r`` sources, ``ordstat/r/R/``); every module
of the source tree; every file the code reads at run time (each data file under ``ordstat/``);
no compiled bytecode. The sdist: the same package files, the metadata and the documents, and no
tests (they need the repository's R set-up).
"""

from __future__ import annotations

import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "ordstat"


def _relative(path, root):
    return path.relative_to(root).as_posix()


def source_modules(root=ROOT):
    """Every ``.py`` file of the package."""
    return {_relative(p, root) for p in (root / PACKAGE).rglob("*.py")
            if "__pycache__" not in p.parts}


def runtime_files(root=ROOT):
    """The non-Python files the package reads at run time: every other file under
    ``ordstat/`` (data sets, and the R files ``ordstat.r`` sources, links to ``r_bridge/R``)."""
    return {_relative(p, root) for p in (root / PACKAGE).rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts}


def wheel_problems(names, version, root=ROOT):
    """What is wrong with a wheel's file list (empty when nothing is)."""
    names = set(names)
    dist_info = f"{PACKAGE}-{version}.dist-info/"
    problems = []
    outside = sorted(n for n in names if not n.startswith((PACKAGE + "/", dist_info)))
    if outside:
        problems.append(f"files outside {PACKAGE}/ and {dist_info}: {outside}")
    for what, expected in (("modules", source_modules(root)),
                           ("files read at run time", runtime_files(root))):
        missing = sorted(expected - names)
        if missing:
            problems.append(f"{what} missing from the wheel: {missing}")
    compiled = sorted(n for n in names if n.endswith((".pyc", ".pyo")) or "__pycache__" in n)
    if compiled:
        problems.append(f"compiled files: {compiled}")
    if dist_info + "METADATA" not in names:
        problems.append(f"no {dist_info}METADATA")
    return problems


def sdist_problems(names, version, root=ROOT):
    """What is wrong with an sdist's file list (names relative to its top folder)."""
    names = set(names)
    problems = []
    for what, expected in (("modules", source_modules(root)),
                           ("files read at run time", runtime_files(root)),
                           ("documents", {"pyproject.toml", "README.md", "LICENSE",
                                          "CHANGELOG.md", "CITATION.cff",
                                          "docs/references.md"})):
        missing = sorted(expected - names)
        if missing:
            problems.append(f"{what} missing from the sdist: {missing}")
    tests = sorted(n for n in names if n.split("/")[0] == "tests")
    if tests:
        problems.append(f"tests in the sdist (they need the repository's R set-up): {tests}")
    return problems


def wheel_names(path):
    with zipfile.ZipFile(path) as wheel:
        return [n for n in wheel.namelist() if not n.endswith("/")]


def sdist_names(path):
    with tarfile.open(path) as sdist:
        return [m.name.split("/", 1)[1] for m in sdist.getmembers()
                if m.isfile() and "/" in m.name]


def _version(root=ROOT):
    namespace = {}
    exec((root / PACKAGE / "_version.py").read_text(), namespace)
    return namespace["__version__"]


def main(argv):
    """``python tests/install/wheel_contents.py WHEEL [SDIST]``: print the problems, exit 1
    when there are any."""
    version = _version()
    problems = wheel_problems(wheel_names(argv[0]), version)
    if len(argv) > 1:
        problems += sdist_problems(sdist_names(argv[1]), version)
    for problem in problems:
        print(f"wheel_contents: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
