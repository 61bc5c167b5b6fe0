"""One version everywhere: ordstat/_version.py (read by pyproject.toml), ``ordstat.__version__``,
``ordstat --version``, the R package's DESCRIPTION and NEWS.md, CITATION.cff, CHANGELOG.md and
the README's R tarball; and one release date (CITATION.cff and CHANGELOG.md)."""

import ast
import re
import tomllib
from pathlib import Path

import pytest

import ordstat
from ordstat import cli

ROOT = Path(__file__).resolve().parents[1]
RPKG = ROOT / "r_bridge"


def _static_version():
    """The version as setuptools reads it (``attr``, without importing the package): the one
    assignment of ordstat/_version.py, which must stay a plain string literal."""
    tree = ast.parse((ROOT / "ordstat" / "_version.py").read_text())
    values = [node.value.value for node in tree.body
              if isinstance(node, ast.Assign) and [t.id for t in node.targets] == ["__version__"]
              and isinstance(node.value, ast.Constant)]
    assert len(values) == 1, "ordstat/_version.py must assign __version__ one string literal"
    return values[0]


VERSION = _static_version()


def _first(pattern, path):
    match = re.search(pattern, path.read_text(encoding="utf-8"), re.MULTILINE)
    assert match, f"{path.relative_to(ROOT)}: nothing matches {pattern!r}"
    return match


def test_the_version_is_a_release_number():
    assert re.fullmatch(r"\d+\.\d+\.\d+", VERSION)


def test_pyproject_reads_the_version_from_the_package():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"]
    assert "version" in project["project"]["dynamic"]
    attr = project["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "ordstat._version.__version__"


def test_package_and_command_show_it(capsys):
    assert ordstat.__version__ == VERSION
    with pytest.raises(SystemExit) as stop:
        cli.main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"ordstat {VERSION}"


def test_r_package_description_has_it():
    assert _first(r"^Version:\s*(\S+)\s*$", RPKG / "DESCRIPTION").group(1) == VERSION


def test_r_package_news_newest_heading_has_it():
    news = RPKG / "NEWS.md"
    if not news.exists():
        pytest.skip("r_bridge/NEWS.md does not exist yet")
    assert _first(r"^#\s+ordstat\s+(\S+)\s*$", news).group(1) == VERSION


def test_citation_has_it():
    assert _first(r"^version:\s*\"?([^\"\s]+)\"?\s*$", ROOT / "CITATION.cff").group(1) == VERSION


def _changelog_release():
    """(version, date) of CHANGELOG.md's newest release heading ("Unreleased" is not one)."""
    match = _first(r"^## \[(\d[^\]]*)\] - (\d{4}-\d{2}-\d{2})\s*$", ROOT / "CHANGELOG.md")
    return match.group(1), match.group(2)


def test_changelog_newest_release_has_it_and_the_citation_date():
    version, date = _changelog_release()
    assert version == VERSION
    cited = _first(r"^date-released:\s*\"?(\d{4}-\d{2}-\d{2})\"?\s*$", ROOT / "CITATION.cff")
    assert cited.group(1) == date


def test_changelog_keeps_its_link_for_the_release():
    text = (ROOT / "CHANGELOG.md").read_text()
    assert f"[{VERSION}]: https://github.com/ordstat/ordstat/releases/tag/v{VERSION}" in text


@pytest.mark.parametrize("page", ["README.md", "docs/quickstart.md"])
def test_install_instructions_use_the_r_tarball_of_this_version(page):
    tarballs = set(re.findall(r"ordstat_(\d[\w.]*)\.tar\.gz", (ROOT / page).read_text()))
    assert tarballs == {VERSION}
