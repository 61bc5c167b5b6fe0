"""``ordstat reproduce`` in an ordinary pip install: without matplotlib (the ``plot`` extra) the
report leaves the figures out and says so once; an experiment whose data cannot be loaded
(rpy2 and R, skordinal) is reported as not run, with why, in the text and in the HTML report,
never counted among those that met their claims, and never with a traceback.

The command-line runs hide the packages in a fresh Python (tests/_hidden.py), so they fail
whether or not the packages are installed here."""

import pandas as pd
import pytest

from ordstat._extras import MissingExtraError
from ordstat.reproduce import NotRun, Row, Section, render_text, run, write_html
from ordstat.reproduce import _cv, _runner
from tests._hidden import no_traceback, run_ordstat

PLOT_HINT = 'pip install "ordstat[plot]"'
R_HINT = 'pip install "ordstat[r]" (and R itself)'


# ---- the command, with packages hidden ----------------------------------------------------------

@pytest.mark.slow
def test_without_matplotlib_the_report_is_written_without_figures(tmp_path):
    out = tmp_path / "report"
    result = run_ordstat(["reproduce", "--quick", "--only", "boosting", "--out", str(out)],
                         hidden=["matplotlib"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert no_traceback(result)
    # one line on standard error says which extra gives the figures
    assert result.stderr.strip().splitlines() == [
        "ordstat reproduce: 1 figure(s) left out of the report: they need matplotlib: "
        + PLOT_HINT]
    assert "1 of 1 experiment(s) run, 0 claimed number(s) missed" in result.stdout
    html = (out / "report.html").read_text()
    assert "<img" not in html
    assert f"figure left out: it needs matplotlib ({PLOT_HINT})" in html.replace("&quot;", '"')
    assert len(pd.read_csv(out / "comparison.csv")) > 0


def test_without_rpy2_edda_is_not_run_and_says_why(tmp_path):
    out = tmp_path / "report"
    result = run_ordstat(["reproduce", "--quick", "--only", "edda", "--out", str(out)],
                         hidden=["rpy2", "matplotlib"], cwd=tmp_path)
    assert no_traceback(result), result.stderr
    assert result.returncode == 1  # nothing could run
    lines = result.stdout.splitlines()
    assert "edda: not run (none of its data sets could be loaded)" in lines
    assert f"  crabs, iris, thyroid: not run (needs rpy2: {R_HINT})" in lines
    assert "claimed number(s) missed" not in result.stdout  # never "0 missed"
    assert lines[-1] == "no experiment could run (1 not run): nothing was compared"
    html = (out / "report.html").read_text().replace("&quot;", '"')
    assert "<b>Not run:</b> none of its data sets could be loaded" in html
    assert f"crabs, iris, thyroid: not run (needs rpy2: {R_HINT})" in html
    assert "&mdash; not run" in html  # in the table of contents too


def test_experiments_that_run_are_counted_apart_from_those_that_cannot(tmp_path):
    result = run_ordstat(["reproduce", "--quick", "--only", "wsvm_benchmark,tutz,edda",
                          "--out", str(tmp_path / "r")], hidden=["rpy2", "skordinal"],
                         cwd=tmp_path)
    assert no_traceback(result), result.stderr
    assert result.returncode == 1
    out = result.stdout
    assert ("wsvm_benchmark: not run (Boston housing, Machine CPU could not be loaded (needs "
            "rpy2: "
            f"{R_HINT}))") in out
    assert "tutz: not run (none of its data sets could be loaded)" in out
    assert '  ESL, SWD: not run (needs skordinal: pip install "ordstat[compare]")' in out
    assert "no experiment could run (3 not run)" in out


# ---- the runner and the sections, in this process -----------------------------------------------

def _fake_experiment(exc):
    def experiment(quick, n_jobs, random_state):
        raise exc
    return experiment


@pytest.mark.parametrize("exc, why", [
    (NotRun("no data"), "no data"),
    (MissingExtraError("skordinal", "the ESL data set"),
     'needs skordinal: pip install "ordstat[compare]"'),
    (ModuleNotFoundError("No module named 'matplotlib'", name="matplotlib"),
     f"needs matplotlib: {PLOT_HINT}"),
])
def test_an_experiment_that_cannot_run_becomes_a_not_run_section(monkeypatch, exc, why):
    monkeypatch.setattr(_runner, "_resolve", lambda name: _fake_experiment(exc))
    section, = run(["edda"], echo=lambda _: None)
    assert section.status == "not run" and section.skipped == why
    assert section.name == "edda" and section.title == _runner.EXPERIMENTS["edda"][1]
    assert section.misses == [] and section.rows == []


def test_a_missing_required_module_is_a_real_error(monkeypatch):
    # numpy is a dependency: its absence must not pass for an experiment "not run"
    exc = ModuleNotFoundError("No module named 'numpy'", name="numpy")
    monkeypatch.setattr(_runner, "_resolve", lambda name: _fake_experiment(exc))
    with pytest.raises(ModuleNotFoundError):
        run(["edda"], echo=lambda _: None)


def test_add_figure_leaves_out_only_what_needs_matplotlib():
    section = Section("a", "Alpha", "")

    def no_matplotlib():
        raise ModuleNotFoundError("No module named 'matplotlib'", name="matplotlib")

    assert section.add_figure("first", no_matplotlib) is None
    assert section.figures == [("first", None)] and section.figures_left_out == 1
    assert f"1 figure(s) left out: they need matplotlib ({PLOT_HINT})" in render_text(section)

    def broken():
        raise ModuleNotFoundError("No module named 'numpy'", name="numpy")

    with pytest.raises(ModuleNotFoundError):
        section.add_figure("second", broken)
    assert section.add_figure("third", lambda scale: f"figure x{scale}", 2) == "figure x2"


def test_status_and_renderings_of_parts_not_run(tmp_path):
    section = Section("a", "Alpha", "Someone (2000)", rows=[Row("q", 1.0, 1.0, tolerance=0.1)])
    assert section.status == "run"
    section.skip_part("crabs", "needs rpy2")
    section.skip_part("iris", "needs rpy2")
    section.skip_part("ESL", "needs skordinal")
    assert section.status == "partly run"
    assert section.not_run_lines() == ["crabs, iris: not run (needs rpy2)",
                                       "ESL: not run (needs skordinal)"]
    empty = Section("b", "Beta", "").skip("none of its data sets could be loaded")
    assert empty.status == "not run"
    text = render_text(empty)
    assert "NOT RUN: none of its data sets could be loaded" in text
    path = tmp_path / "r.html"
    write_html([section, empty], path)
    html = path.read_text()
    assert "Alpha</a> &mdash; partly run</li>" in html
    assert "Beta</a> &mdash; not run</li>" in html
    assert "crabs, iris: not run (needs rpy2)" in html


def test_dissertation_sets_that_cannot_load_are_parts_not_run(monkeypatch):
    import ordstat.datasets

    def missing(**kwargs):
        raise MissingExtraError("skordinal", "the ERA data set")

    monkeypatch.setattr(ordstat.datasets, "load_era", missing)
    section = Section("odt", "oDT", "")
    data = _cv.load_datasets(section, ["Circle", "ERA"], random_state=0)
    assert list(data) == ["Circle"]  # simulated: always there
    assert section.not_run == [("ERA", 'needs skordinal: pip install "ordstat[compare]"')]
