"""The R package builds the data sets that ordstat.datasets reads from R packages in R itself
(r_bridge/R/rdatasets.R); here, through rpy2, they must equal the Python loaders' frames:
same columns, dtypes, row order and values."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ordstat.datasets import BUNDLED
from ordstat.r import _rdata

pytestmark = pytest.mark.r

RDATASETS = Path(__file__).resolve().parents[2] / "r_bridge" / "R" / "rdatasets.R"


@pytest.fixture(scope="module")
def rside():
    """The R file sourced into its own R environment."""
    from ordstat.r import robjects

    ro = robjects()
    env = ro.r["new.env"]()
    ro.r["sys.source"](str(RDATASETS), envir=env)
    return env


def r_side_names(rside):
    from ordstat.r import robjects

    return list(robjects().r["names"](rside["r_side_sets"]))


def test_every_rpy2_loader_is_built_on_the_r_side(rside):
    names = set(r_side_names(rside))
    reads_r = {name for name in BUNDLED if _rdata.reads_r(name)}
    assert names == reads_r  # BUNDLED lists every loader, zoo included
    assert {"iris", "crabs", "thyroid", "haemophilia", "boston", "machine_cpu", "wine"} <= reads_r


def test_r_side_frames_equal_the_python_loaders(rside):
    from ordstat.r import to_py

    for name in r_side_names(rside):
        loader, response = BUNDLED[name]
        expected = loader()
        got = to_py(rside["load_r_side"](name))
        assert list(got.columns) == list(expected.columns), name
        assert got.columns[-1] == response, name
        assert isinstance(got.index, pd.RangeIndex) and got.index[0] == 0, name
        for col in expected.columns:
            e, g = expected[col], got[col]
            if isinstance(e.dtype, pd.CategoricalDtype):
                assert isinstance(g.dtype, pd.CategoricalDtype), (name, col)
                assert list(g.cat.categories) == list(e.cat.categories), (name, col)
                assert g.cat.ordered == e.cat.ordered, (name, col)
                np.testing.assert_array_equal(g.cat.codes, e.cat.codes, err_msg=name)
            else:
                assert g.dtype.kind == e.dtype.kind, (name, col, g.dtype, e.dtype)
                np.testing.assert_array_equal(g.to_numpy(), e.to_numpy(), err_msg=name)


def test_python_refuses_to_load_the_r_side_sets():
    # through reticulate this would start R inside R; the R package never asks
    with pytest.raises(ValueError, match="builds it in R"):
        _rdata.load("crabs")


def test_plain_keeps_column_kinds():
    frame = pd.DataFrame({
        "f": pd.Categorical(["b", None, "a"], categories=["b", "a"]),
        "l": [True, False, True],
        "i": np.array([4, 0, 2], dtype=np.int64),
        "big": np.array([0, 2**40, 1], dtype=np.int64),
        "d": [0.5, np.nan, 2.0],
    })
    out = _rdata.plain(frame, "f")
    kinds = [c["kind"] for c in out["columns"]]
    assert kinds == ["factor", "logical", "integer", "numeric", "numeric"]
    assert out["columns"][0]["codes"].tolist() == [0, -1, 1]
    assert out["columns"][2]["values"].dtype == np.int32
    assert out["names"] == ["f", "l", "i", "big", "d"] and out["response"] == "f"
