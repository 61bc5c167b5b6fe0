"""README.md is the long description on the package index, where a link or image relative to
the repository leads nowhere: every one must be absolute (or an anchor within the page)."""

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
