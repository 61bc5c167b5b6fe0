"""The pinned reference numbers: R regenerates them and they must agree with the stored files.

``tests/reference/make_reference.R`` is rerun into a temporary directory; every number must equal
the stored one within a tolerance per quantity (15 significant digits are stored; mclust's
iterative M-steps and polr's optimiser are allowed more).
"""

import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest
from tests._reference import HERE, RPART_CASES, load

pytestmark = [pytest.mark.r, pytest.mark.slow]

# file -> relative tolerance
_RTOL = {"rpart": 1e-12, "mclust": 1e-6, "polr": 1e-6, "housevotes84": 1e-12}


def _compare(new, old, rtol, where):
    if isinstance(old, dict):
        assert set(new) == set(old), where
        for key in old:
            _compare(new[key], old[key], rtol, f"{where}.{key}")
    elif isinstance(old, list):
        assert len(new) == len(old), where
        for i, (a, b) in enumerate(zip(new, old)):
            _compare(a, b, rtol, f"{where}[{i}]")
    elif isinstance(old, np.ndarray) and old.dtype.kind in "fiu":
        np.testing.assert_allclose(new, old, rtol=rtol, atol=rtol * 1e-3, err_msg=where)
    elif isinstance(old, float):
        assert new == pytest.approx(old, rel=rtol, abs=rtol * 1e-3), where
    else:
        np.testing.assert_array_equal(new, old, err_msg=where)


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory):
    rscript = shutil.which("Rscript")
    if rscript is None:
        pytest.skip("Rscript is not on PATH")
    out = tmp_path_factory.mktemp("reference")
    run = subprocess.run([rscript, str(HERE / "make_reference.R"), str(out)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    return out


@pytest.mark.parametrize("name", list(_RTOL))
def test_r_regenerates_the_stored_numbers(regenerated, name):
    new, old = load(name, regenerated), load(name)
    if new["versions"] != old["versions"]:
        pytest.fail(f"R package versions changed: {new['versions']} (stored: "
                    f"{old['versions']}); rerun make_reference.R and review the differences")
    _compare(new, old, _RTOL[name], name)


def test_r_writes_the_same_votes(regenerated):
    new = pd.read_csv(regenerated / "housevotes84.csv", dtype=str, keep_default_na=False)
    old = pd.read_csv(HERE / "housevotes84.csv", dtype=str, keep_default_na=False)
    pd.testing.assert_frame_equal(new, old)


def test_stored_files_cover_the_cases():
    assert set(RPART_CASES) <= set(load("rpart"))
    assert {"EII", "VVV"} <= set(load("mclust"))


@pytest.mark.parametrize("name", ["rpart_loss", "rpart_factors", "rpart_surrogates"])
def test_r_regenerates_the_rpart_trees(name, tmp_path):
    """``tests/reference/NAME.R`` writes NAME.json again, the same: rpart's trees with loss
    matrices (rpart_loss), on many-level factors (rpart_factors) and with surrogate splits on
    data with missing values (rpart_surrogates)."""
    rscript = shutil.which("Rscript")
    if rscript is None:
        pytest.skip("Rscript is not on PATH")
    run = subprocess.run([rscript, str(HERE / f"{name}.R"), str(tmp_path)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    new, old = load(name, tmp_path), load(name)
    if new["versions"] != old["versions"]:
        pytest.fail(f"R package versions changed: {new['versions']} (stored: "
                    f"{old['versions']}); rerun {name}.R and review the differences")
    _compare(new, old, 1e-12, name)
