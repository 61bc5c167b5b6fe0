"""Smoke test of an installed ordstat wheel, run by tests/install/check_wheel.sh in a fresh
virtualenv from a folder outside the source tree (not collected by pytest: plain asserts).

    python wheel_smoke.py core VERSION    # without any extra: the user guide's tour, --version,
                                          # ordstat reproduce without matplotlib and rpy2
    python wheel_smoke.py plot VERSION    # after pip install matplotlib: the report's figures

Prints the time of every step.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

STEPS = []


def step(name):
    """Decorator: run the function now, print its time."""
    def run(func):
        start = time.perf_counter()
        func()
        seconds = time.perf_counter() - start
        STEPS.append((name, seconds))
        print(f"  {seconds:6.1f} s  {name}", flush=True)
        return func
    return run


def ordstat_command(*args):
    """The installed console script (beside this Python), its output and status."""
    script = Path(sys.executable).with_name("ordstat")
    result = subprocess.run([str(script), *args], capture_output=True, text=True, timeout=600)
    for stream in (result.stdout, result.stderr):
        assert "Traceback" not in stream, f"ordstat {' '.join(args)}:\n{result.stderr}"
    return result


def check_installed(version):
    import ordstat

    where = Path(ordstat.__file__).resolve()
    assert "site-packages" in where.parts, f"ordstat imported from {where}, not the wheel"
    assert ordstat.__version__ == version, (ordstat.__version__, version)
    result = ordstat_command("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"ordstat {version}", result


def tour():
    """The user guide's tour (docs/user_guide.md), on ANES 1996 (statsmodels) and the shipped
    UCI files."""
    import numpy as np

    from ordstat import (EDDA, OrdinalBaggingClassifier, OrdinalTreeClassifier,
                         ProportionalOddsClassifier, metrics)
    from ordstat.datasets import load_anes96, load_bupa, load_haberman
    from ordstat.model_selection import compare_methods, evaluate, summarize

    data = load_anes96()
    X, y = data.drop(columns="PID"), data["PID"]
    # ten bagged trees leave a few units in every bootstrap sample, which bagging says
    warnings.filterwarnings("ignore", message=".*in every bootstrap sample")
    for model in (ProportionalOddsClassifier(),
                  OrdinalTreeClassifier(criterion="ordinal", prune="1se", random_state=0),
                  OrdinalBaggingClassifier(n_estimators=10, random_state=0),
                  EDDA(model=["EII", "VVV"], select="bic")):
        model.fit(X, y)
        assert list(model.classes_) == list(y.cat.categories)
        proba = model.predict_proba(X)
        assert proba.shape == (len(X), 7) and np.allclose(proba.sum(axis=1), 1.0)
        predicted = model.predict(X)
        assert set(predicted) <= set(y.cat.categories)
        assert 0 <= metrics.mean_absolute_distance(y, predicted) < 6
        assert str(model.summary())
    results = evaluate({"polr": ProportionalOddsClassifier(),
                        "tree": OrdinalTreeClassifier(criterion="ordinal"),
                        "tree_gini": OrdinalTreeClassifier(criterion="gini")},
                       X, y, scheme="cv3", random_state=1, progress=False)
    assert len(summarize(results))
    assert "Friedman" in str(compare_methods(results, "mean_absolute"))
    bupa, haberman = load_bupa(), load_haberman()  # package data of the wheel
    assert bupa.shape == (345, 7) and haberman.shape == (306, 4)


def reproduce_without_extras(out):
    """No matplotlib, no rpy2: the figures are left out (one line says which extra), an
    experiment whose data need R is not run, with why; no traceback."""
    result = ordstat_command("reproduce", "--quick", "--only", "boosting", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert 'pip install "ordstat[plot]"' in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    html = (out / "report.html").read_text()
    assert "figure left out: it needs matplotlib" in html and "<img" not in html
    result = ordstat_command("reproduce", "--quick", "--only", "edda", "--out", str(out))
    assert result.returncode == 1, result.stdout
    assert "edda: not run (none of its data sets could be loaded)" in result.stdout
    assert 'needs rpy2: pip install "ordstat[r]"' in result.stdout
    assert "claimed number(s) missed" not in result.stdout


def reproduce_with_matplotlib(out):
    """With matplotlib: the report has its figures; EDDA (rpy2) is still not run, with why."""
    result = ordstat_command("reproduce", "--quick", "--only", "boosting,edda", "--out",
                             str(out))
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "", result.stderr
    assert "edda: not run (none of its data sets could be loaded)" in result.stdout
    assert "1 of 2 experiment(s) run" in result.stdout
    html = (out / "report.html").read_text()
    assert "<img " in html and "figure left out" not in html
    assert "<b>Not run:</b>" in html


def main(phase, version):
    out = Path(os.getcwd()) / f"report-{phase}"
    print(f"wheel_smoke {phase} (ordstat {version}, {sys.executable})", flush=True)
    step("installed version, ordstat --version")(lambda: check_installed(version))
    if phase == "core":
        step("user guide tour (fit, predict, predict_proba, summary, evaluate)")(tour)
        step("ordstat reproduce without extras")(lambda: reproduce_without_extras(out))
    elif phase == "plot":
        step("ordstat reproduce with matplotlib")(lambda: reproduce_with_matplotlib(out))
    else:
        raise SystemExit(f"unknown phase {phase!r}; use core or plot")
    print(f"  {sum(s for _, s in STEPS):6.1f} s  wheel_smoke {phase}", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:3])
