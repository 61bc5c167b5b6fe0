"""The R package's metadata agrees with the Python package (no R needed): the same version in
DESCRIPTION and NEWS.md, and a citation whose year comes from the DESCRIPTION's Date."""

import re
from pathlib import Path

import ordstat

RPKG = Path(__file__).resolve().parents[2] / "r_bridge"


def description():
    fields, key = {}, None
    for line in (RPKG / "DESCRIPTION").read_text(encoding="utf-8").splitlines():
        if line[:1].isspace() and key:
            fields[key] += " " + line.strip()
        elif ":" in line:
            key, value = line.split(":", 1)
            fields[key] = value.strip()
    return fields


def test_description_version_is_the_python_version():
    assert description()["Version"] == ordstat.__version__


def test_news_starts_with_this_version():
    first = (RPKG / "NEWS.md").read_text(encoding="utf-8").splitlines()[0]
    assert first == f"# ordstat {ordstat.__version__}"


def test_description_fields_for_cran():
    fields = description()
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", fields["Date"])
    assert fields["URL"] == "https://github.com/ordstat/ordstat"
    assert fields["BugReports"] == "https://github.com/ordstat/ordstat/issues"
    assert "Python (>= 3.11)" in fields["SystemRequirements"]
    assert '"cre"' in fields["Authors@R"] and "email" in fields["Authors@R"]


def test_citation_year_is_not_written_in():
    text = (RPKG / "inst" / "CITATION").read_text(encoding="utf-8")
    package_entry = text[:text.index('bibtype = "Article"')]
    assert "meta$Date" in package_entry
    assert not re.search(r"\b(19|20)\d\d\b", package_entry)
