"""With ORDSTAT_REQUIRE_R=1 (set by ``make test``) a missing R, rpy2 or R package fails the run
instead of silently skipping the R cross-checks. ORDSTAT_HYPOTHESIS=compat (``make test``'s run
at the oldest supported releases) draws 20 examples per property instead of 100: that run checks
that the code works with those releases; the properties are explored fully at the newest ones.

Tests that import rpy2 directly let R put its library folders first on LD_LIBRARY_PATH
(ordstat's own ``robjects()`` undoes that); each test starts with the variable as the process
started, so that the Python processes a later test starts (joblib, Dask workers) load this
interpreter's libpython, not the system's."""

import os
import shutil

import pytest
from hypothesis import settings

settings.register_profile("compat", max_examples=20)
if os.environ.get("ORDSTAT_HYPOTHESIS", "").strip() == "compat":
    settings.load_profile("compat")

_LD_LIBRARY_PATH = os.environ.get("LD_LIBRARY_PATH")


@pytest.fixture(autouse=True)
def _library_path_as_started():
    if _LD_LIBRARY_PATH is None:
        os.environ.pop("LD_LIBRARY_PATH", None)
    else:
        os.environ["LD_LIBRARY_PATH"] = _LD_LIBRARY_PATH
    yield


REQUIRE_R = os.environ.get("ORDSTAT_REQUIRE_R", "").strip().lower() in ("1", "true", "yes")
R_PACKAGES = ("rpart", "mclust", "MASS", "mlbench", "jsonlite")


def _r_problem():
    """None when R, rpy2 and the R packages the tests use are all there, else what is missing."""
    if shutil.which("Rscript") is None:
        return "Rscript is not on PATH"
    try:
        from ordstat.r import robjects
        ro = robjects()
        found = ro.r("function(p) nzchar(vapply(p, function(x) system.file(package = x), ''))")(
            ro.StrVector(R_PACKAGES))
    except Exception as exc:  # ImportError, or rpy2 failing to load R
        return f"rpy2 cannot be imported or run R: {exc}"
    missing = [p for p, ok in zip(R_PACKAGES, found) if not ok]
    return f"R package(s) {missing} are not installed" if missing else None


def pytest_sessionstart(session):
    if REQUIRE_R:
        problem = _r_problem()
        if problem is not None:
            pytest.exit(f"ORDSTAT_REQUIRE_R is set but {problem}.", returncode=1)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if REQUIRE_R and report.skipped and item.get_closest_marker("r") is not None \
            and not hasattr(report, "wasxfail"):
        reason = report.longrepr[-1] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"R test skipped while ORDSTAT_REQUIRE_R is set: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    report = outcome.get_result()
    if REQUIRE_R and report.skipped:
        reason = report.longrepr[-1] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"test module skipped while ORDSTAT_REQUIRE_R is set: {reason}"
