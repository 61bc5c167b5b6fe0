"""README.md is the landing page of the repository and the long description on the package
index: short (the manual is the documentation site, docs/), with the quick start of two commands
that CI runs (.ci/run), and, since a link or image relative to the repository leads nowhere on
the index, every link absolute (or an anchor within the page)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# [text](target) and ![alt](target); <img src=...>, <a href=...>; [label]: target definitions
_MARKDOWN = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)")
_HTML = re.compile(r"""<(?:img|a|source)\b[^>]*?\b(?:src|href)\s*=\s*["']([^"']+)""", re.I)
_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
_ABSOLUTE = re.compile(r"(https?://|mailto:|#)")


def _outside_code(text):
    """The text without fenced code blocks and inline code (no links there)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def targets(text):
    text = _outside_code(text)
    return [m.group(1) for pattern in (_MARKDOWN, _HTML, _DEFINITION)
            for m in pattern.finditer(text)]


def relative_targets(text):
    return [t for t in targets(text) if not _ABSOLUTE.match(t)]


def test_the_scan_finds_every_kind_of_link():
    text = ("see [a](docs/a.md), ![img](docs/x.png) and <img src='y.png'> or "
            '<a href="https://example.org/z">z</a> and [ok](https://github.com/o/r) and '
            "[top](#install)\n[ref]: docs/ref.md\n`[no](code.md)`\n```\n[no](fenced.md)\n```\n")
    assert relative_targets(text) == ["docs/a.md", "docs/x.png", "y.png", "docs/ref.md"]


def test_readme_has_no_repository_relative_links_or_images():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert targets(text), "the scan found no link at all in README.md"
    assert relative_targets(text) == []


def test_readme_links_into_this_repository_point_at_existing_files():
    # absolute links into the repository's main branch: the file must exist here
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    prefixes = ("https://github.com/ordstat/ordstat/blob/main/",
                "https://raw.githubusercontent.com/ordstat/ordstat/main/")
    paths = [t.split(p, 1)[1] for t in targets(text) for p in prefixes if t.startswith(p)]
    assert paths
    missing = [p for p in paths if not (ROOT / p.split("#")[0]).exists()]
    assert missing == []


def test_readme_is_a_landing_page_under_150_lines():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 150, f"README.md has {len(lines)} lines: move the details to docs/"


def test_readme_quick_start_is_make_demo_and_make_test():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"^```sh\n(.*?)^```", quick, re.S | re.M).group(1)
    commands = [line.split("#")[0].strip() for line in block.splitlines()]
    assert [c for c in commands if c] == ["make demo", "make test"]
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_readme_links_the_documentation_pages():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = {t.rsplit("/", 1)[-1] for t in targets(text)
              if t.startswith("https://github.com/ordstat/ordstat/blob/main/docs/")}
    assert {"quickstart.md", "user_guide.md", "features.md", "r_package.md", "architecture.md",
            "references.md"} <= linked
