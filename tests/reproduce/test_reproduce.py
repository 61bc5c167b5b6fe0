"""The reproduction report: its bookkeeping, and the quick run with every section."""

import math
import re

import pandas as pd
import pytest

from ordstat.cli import main

from ordstat.reproduce import EXPERIMENTS, Row, Section, render_text, run, write_html


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
    # every claimed number is within its tolerance, or a miss shown with its explanation
    misses = rows[rows["status"] == "miss"]
    unexplained = misses[misses["note"].isna()]
    assert unexplained.empty, unexplained[["experiment", "quantity"]].to_string()
    assert "claimed number(s) missed" in capsys.readouterr().out
