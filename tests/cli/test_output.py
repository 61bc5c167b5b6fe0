"""How the command's text looks: aligned listings, no "None" or "NaN" in printed tables."""

import math

from ordstat import cli
from ordstat.cli._methods import METHODS


def _second_column_starts(lines, firsts):
    """Where the second column starts in each line, given the first column's texts."""
    starts = set()
    for line, first in zip(lines, firsts):
        assert line.startswith(first + " ")
        rest = line[len(first):]
        starts.add(len(first) + len(rest) - len(rest.lstrip(" ")))
    return starts


def test_methods_listing_is_aligned(capsys):
    assert cli.main(["methods"]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = sorted(METHODS)
    assert len(lines) == len(names)
    # one column start for every description, past the longest name (some are > 16 chars)
    starts = _second_column_starts(lines, names)
    assert len(starts) == 1
    assert starts.pop() >= max(map(len, names)) + 1
    for line, name in zip(lines, names):
        assert line[len(name):].strip() == METHODS[name][2]


def test_reproduce_list_is_aligned(capsys):
    from ordstat.reproduce import EXPERIMENTS

    assert cli.main(["reproduce", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(_second_column_starts(lines, list(EXPERIMENTS))) == 1


def test_aligned_pads_to_the_longest_first_column():
    assert cli._aligned([("a", "x"), ("abc", "y")]) == ["a    x", "abc  y"]
    assert cli._aligned([]) == []


def test_reproduce_text_table_shows_no_none_or_nan():
    from ordstat.reproduce import Row, Section, render_text

    # all rows unclaimed: pandas keeps the tolerance column as objects (None)
    unclaimed = Section("a", "A", "", rows=[Row("q1", 1.0, 1.25), Row("label", "x", "x")])
    # mixed: the tolerance column becomes float (NaN), and a paper value is missing
    mixed = Section("b", "B", "", rows=[Row("q1", 1.0, 1.25), Row("q2", 0.5, 0.52, 0.05),
                                         Row("q3", math.nan, 0.3, 0.1)])
    for section in (unclaimed, mixed):
        text = render_text(section)
        table = text.splitlines()[1:1 + len(section.rows) + 1]
        assert table[0].split() == ["quantity", "paper", "ordstat", "difference", "tolerance",
                                    "status"]
        assert not any(word in line.split() for line in table for word in ("None", "NaN",
                                                                           "nan"))
    # the values that are there are still shown
    rows = render_text(mixed).splitlines()[2:5]
    assert rows[0].split() == ["q1", "1", "1.25", "0.25", "reported"]
    assert rows[1].split() == ["q2", "0.5", "0.52", "0.02", "0.05", "ok"]
    assert rows[2].split() == ["q3", "0.3", "0.1", "miss"]
