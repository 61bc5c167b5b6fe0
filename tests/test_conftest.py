"""ORDSTAT_REQUIRE_R turns skipped R tests into failures (tests/conftest.py)."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

_TESTS = '''
import pytest

@pytest.mark.r
def test_needs_r():
    pytest.skip("R is not here")

def test_plain():
    pytest.skip("not an R test")
'''


def _run(tmp_path, require):
    shutil.copy(pathlib.Path(__file__).parent / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_fake.py").write_text(_TESTS)
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    r: R\n")
    env = {**os.environ, "ORDSTAT_REQUIRE_R": require}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                           str(tmp_path)], capture_output=True, text=True, env=env,
                          cwd=tmp_path)


@pytest.mark.skipif(shutil.which("Rscript") is None, reason="the session check would stop first")
def test_require_r_turns_r_skips_into_failures(tmp_path):
    pytest.importorskip("rpy2")
    run = _run(tmp_path, "1")
    assert run.returncode == 1, run.stdout
    assert "1 failed" in run.stdout and "1 skipped" in run.stdout
    assert "R test skipped while ORDSTAT_REQUIRE_R is set: Skipped: R is not here" in run.stdout


def test_without_the_variable_r_tests_skip_with_their_reason(tmp_path):
    run = _run(tmp_path, "")
    assert run.returncode == 0, run.stdout
    assert "2 skipped" in run.stdout and "R is not here" in run.stdout


def test_require_r_stops_the_run_when_r_is_missing(tmp_path):
    shutil.copy(pathlib.Path(__file__).parent / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_fake.py").write_text(_TESTS)
    env = {**os.environ, "ORDSTAT_REQUIRE_R": "1", "PATH": str(tmp_path)}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          str(tmp_path)], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert run.returncode == 1
    assert "Rscript is not on PATH" in run.stdout + run.stderr
