"""The reproduction report: its bookkeeping, and the quick run with every section."""

import math
import re

import pandas as pd
import pytest

from ordstat.cli import main

from ordstat.reproduce import EXPERIMENTS, Row, Section, render_text, run, write_html
from ordstat.reproduce import _tutz
from ordstat.reproduce._runner import _resolve


def test_row_status_and_difference():
    assert Row("x", 0.02, 0.024, tolerance=0.005).status == "ok"
    assert Row("x", 0.02, 0.03, tolerance=0.005).status == "miss"
    assert Row("x", 0.02, 0.5).status == "reported"
    assert math.isclose(Row("x", 0.25, 0.2).difference, -0.05)
    assert Row("m", "EEE", "EEE", tolerance=0).status == "ok"
    assert Row("m", "EEE", "VVV", tolerance=0).status == "miss"
    assert Row("x", 0.1, float("nan"), tolerance=1).status == "miss"


def test_html_has_tables_figures_and_misses(tmp_path):
    Figure = pytest.importorskip("matplotlib.figure").Figure

    fig = Figure()
    fig.subplots().plot([0, 1], [1, 0])
    s = Section("a", "Alpha", "Someone (2000)", rows=[Row("q", 1.0, 2.0, tolerance=0.5,
                                                          note="because")],
                figures=[("a line", fig)], notes=["a note"])
    path = tmp_path / "r.html"
    write_html([s], path)
    text = path.read_text()
    assert "data:image/png;base64," in text and "Alpha" in text and "1 miss(es)" in text
    assert "because" in render_text(s)


def test_run_rejects_bad_arguments():
    with pytest.raises(ValueError, match="unknown experiment"):
        run(["nope"])
    with pytest.raises(ValueError, match="n_jobs"):
        run(["edda"], n_jobs=0)


@pytest.mark.slow
@pytest.mark.r  # the continuous data sets come from R packages
def test_quick_report_has_every_section_and_meets_its_claims(tmp_path, capsys):
    out = tmp_path / "report"
    assert main(["reproduce", "--quick", "--out", str(out), "--jobs", "2"]) == 0
    html = (out / "report.html").read_text()
    for name in EXPERIMENTS:
        assert f"id='{name}'" in html, name
    assert len(re.findall("<img ", html)) >= len(EXPERIMENTS)
    rows = pd.read_csv(out / "comparison.csv")
    assert set(rows["experiment"]) == set(EXPERIMENTS)
    # Tutz & Hechenbichler: the twelve methods on each stand-in data set, nothing claimed
    # (the paper's data are not public), and the median figure of each
    tutz = rows[rows["experiment"] == "tutz"]
    for data in _tutz.DATASETS:
        assert tutz["quantity"].str.startswith(f"{data}: test mean squ, ").sum() == 12, data
    assert (tutz["status"] == "reported").all()
    assert html.count("in the manner of Figures 4-7") == len(_tutz.DATASETS)
    assert "as printed in the paper, scapula (Table 1)" in html
    # every claimed number is within its tolerance, or a miss shown with its explanation
    misses = rows[rows["status"] == "miss"]
    unexplained = misses[misses["note"].isna()]
    assert unexplained.empty, unexplained[["experiment", "quantity"]].to_string()
    assert "claimed number(s) missed" in capsys.readouterr().out


def _numbers(section):
    """Every number a section reports: its "ordstat" column and its tables."""
    return (section.comparison()["ordstat"].astype(str).tolist()
            + [frame.to_csv() for _, frame in section.tables])


@pytest.mark.parametrize("name", ["archer", "boosting", "wsvm", "tutz"])
def test_every_seed_of_a_section_comes_from_its_random_state(name, monkeypatch):
    # the same seed gives the same numbers, for any n_jobs; another seed other numbers
    pytest.importorskip("matplotlib")  # every section draws its figures
    if name == "tutz":  # one split of two cycles is enough to see the seeds
        pytest.importorskip("skordinal")  # its data sets
        monkeypatch.setattr(_tutz, "QUICK_SPLITS", 1)
        monkeypatch.setattr(_tutz, "QUICK_CYCLES", 2)
    experiment = _resolve(name)
    first = _numbers(experiment(quick=True, n_jobs=1, random_state=3))
    assert _numbers(experiment(quick=True, n_jobs=2, random_state=3)) == first
    assert _numbers(experiment(quick=True, n_jobs=1, random_state=4)) != first
