"""References travel with the package: docstrings, the README, the docs, the vignettes, the R
package and the command line cite papers by authors, year and title (docs/references.md), never
by a file or folder of the team's working copies of the papers."""

import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ["ordstat", "r_bridge", "docs", "vignettes", "benchmarks", "tests", "README.md",
           "pyproject.toml", "Makefile"]
# written by builds (docs/build.py, vignettes/render.py), from the files scanned here
GENERATED = {"__pycache__", "_build", "_generated"}
SUFFIXES = {".py", ".R", ".Rd", ".Rmd", ".md", ".toml", ".txt", ".json", ".csv", ".cfg", ""}

# Built from pieces so that this file does not match itself.
FORBIDDEN = {
    "the team's shared folder": re.compile(r"\bshared" + "/"),
    "the papers folder": re.compile(r"(?<![\w.-])papers" + "/"),
    "a paper by file number": re.compile(r"\bpaper\s+0\d\d\b", re.I),
    "a seed paper by number": re.compile(r"\bseed\s+0\d\d\b", re.I),
    "a paper's file name": re.compile(r"\b\d{3}_[0-9a-f]{16}\b"),
    "the team's design notes": re.compile(r"\b(DESIGN|STYLE)" + r"\.md\b"),
}


@functools.cache
def _texts():
    return [(f, f.read_text(errors="replace").splitlines()) for f in _files()]


def _files():
    for entry in SCANNED:
        path = ROOT / entry
        if path.is_file():
            yield path
        elif path.is_dir():
            for f in sorted(path.rglob("*")):
                if (f.is_file() and f.suffix in SUFFIXES and not GENERATED & set(f.parts)
                        and f.resolve() != Path(__file__).resolve()):
                    yield f


def test_the_scan_sees_the_package_and_its_docs():
    names = {f.relative_to(ROOT).as_posix() for f in _files()}
    for expected in ["README.md", "docs/references.md", "ordstat/cli/__init__.py",
                     "r_bridge/R/tree.R", "r_bridge/man/ordinal_tree.Rd",
                     "r_bridge/vignettes/ordinal-r.Rmd"]:
        assert expected in names


@pytest.mark.parametrize("what", list(FORBIDDEN))
def test_no_reference_to_the_team_folder(what):
    pattern = FORBIDDEN[what]
    hits = []
    for f, lines in _texts():
        for number, line in enumerate(lines, 1):
            if pattern.search(line):
                hits.append(f"{f.relative_to(ROOT)}:{number}: {line.strip()[:90]}")
    assert not hits, f"{what} cited instead of authors, year and title:\n" + "\n".join(hits)


def test_the_patterns_catch_what_they_should():
    examples = {"the team's shared folder": "see shared" + "/papers",
                "the papers folder": "in papers" + "/000_x.txt",
                "a paper by file number": "as in Paper 003, section 7",
                "a seed paper by number": "seed 002 says",
                "a paper's file name": "003_af4cdf0337fe1caa.txt",
                "the team's design notes": "restored in DESIGN" + ".md"}
    for what, text in examples.items():
        assert FORBIDDEN[what].search(text)
    # the legitimate citation of a report series is not caught
    assert not any(p.search("Discussion Paper 359, SFB 386") for p in FORBIDDEN.values())
