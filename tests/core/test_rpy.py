"""Round trips through the local rpy2 converter (ordstat._core.rpy)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

pytestmark = pytest.mark.r
pytest.importorskip("rpy2", reason="the converter needs rpy2 (the 'r' extra)")

import rpy2.robjects as ro  # noqa: E402
from rpy2.robjects.conversion import get_conversion  # noqa: E402

from ordstat._core.rpy import converter, localconverter, to_py, to_r  # noqa: E402

# not alphabetical, spaces, non-ASCII
AWKWARD = ["very low", "lów", "Mid dle", "ZZ top", "a (unused)"]


def r(code):
    return ro.r(code)


def test_ordered_factor_with_awkward_levels_python_to_r():
    y = pd.Categorical(["ZZ top", "very low", None, "lów"], categories=AWKWARD, ordered=True)
    fy = to_r(pd.Series(y))
    assert list(r("levels")(fy)) == AWKWARD
    assert list(r("class")(fy)) == ["ordered", "factor"]
    assert list(r("as.integer")(fy))[:2] == [4, 1]
    assert r("function(f) is.na(f[3])")(fy)[0]
    # the ordering holds on the R side
    assert r("function(f) f[1] > f[4]")(fy)[0]


def test_ordered_factor_with_awkward_levels_r_to_python():
    # \\u00f3 is parsed by R itself: R source with raw non-ASCII is mangled in a C locale
    fy = r('factor(c("l\\u00f3w", NA, "very low"), '
           'levels = c("very low", "l\\u00f3w", "Mid dle", "a (unused)"), ordered = TRUE)')
    y = to_py(fy)
    assert isinstance(y, pd.Categorical) and y.ordered
    assert list(y.categories) == ["very low", "lów", "Mid dle", "a (unused)"]
    assert list(y.codes) == [1, -1, 0]


def test_data_frame_round_trip_keeps_every_column_type():
    df = pd.DataFrame({
        "y": pd.Categorical(["lów", "ZZ top", "very low", None], categories=AWKWARD, ordered=True),
        "colour": pd.Categorical(["b", "a", "b", None], categories=["b", "a", "c"]),
        "x": [1.5, np.nan, -3.0, 4.0],
        "count": np.array([1, 2, 3, 4], dtype=np.int64),
        "nullable": pd.array([1, None, 3, 4], dtype="Int64"),
        "flag": np.array([True, False, True, True]),
        "maybe": pd.array([True, None, False, True], dtype="boolean"),
        "text": ["a b", None, "ç", "d"],
    })
    rdf = to_r(df)
    assert list(r("function(d) sapply(d, function(c) class(c)[1])")(rdf)) == [
        "ordered", "factor", "numeric", "integer", "integer", "logical", "logical", "character"]
    n_na = r("function(d) sapply(d, function(c) sum(is.na(c)))")(rdf)
    assert list(n_na) == [1, 1, 1, 0, 1, 0, 1, 1]
    assert r("nrow")(rdf)[0] == 4
    # pandas NaN means "missing": it must arrive as R's NA, not as NaN
    assert not any(r("function(d) is.nan(d$x)")(rdf))
    back = to_py(rdf)
    assert list(back.columns) == list(df.columns)
    assert isinstance(back.index, pd.RangeIndex)
    for col in ["y", "colour"]:
        assert back[col].dtype == df[col].dtype  # categories, their order and orderedness
        assert back[col].cat.codes.tolist() == df[col].cat.codes.tolist()
    np.testing.assert_array_equal(back["x"], df["x"])
    assert back["count"].dtype == np.int64 and back["count"].tolist() == [1, 2, 3, 4]
    assert back["nullable"].dtype == "Int64" and back["nullable"].isna().tolist() == [0, 1, 0, 0]
    assert back["flag"].dtype == bool
    assert back["maybe"].dtype == "boolean" and back["maybe"].isna().tolist() == [0, 1, 0, 0]
    assert [v if isinstance(v, str) else None for v in back["text"]] == ["a b", None, "ç", "d"]


def test_unused_levels_survive_a_data_frame_subset_in_r():
    df = pd.DataFrame({"y": pd.Categorical(["b", "b"], categories=["c", "b", "a"], ordered=True)})
    back = to_py(r("function(d) d[1, , drop = FALSE]")(to_r(df)))
    assert list(back["y"].cat.categories) == ["c", "b", "a"] and back["y"].cat.ordered


def test_row_names_become_the_index_and_back():
    df = pd.DataFrame({"x": [1.0, 2.0]}, index=["first row", "ß"])
    rdf = to_r(df)
    assert list(r("rownames")(rdf)) == ["first row", "ß"]
    assert list(to_py(rdf).index) == ["first row", "ß"]
    # R's automatic row names become a RangeIndex, not the strings "1", "2"
    assert isinstance(to_py(r("data.frame(a = 1:3)")).index, pd.RangeIndex)


def test_numeric_matrix_round_trip_is_column_major_with_na():
    m = np.array([[1.0, 2.0, np.nan], [4.0, 5.0, 6.0]])
    rm = to_r(m)
    assert list(r("dim")(rm)) == [2, 3]
    assert r("function(m) m[1, 2]")(rm)[0] == 2.0
    assert r("function(m) is.na(m[1, 3]) && !is.nan(m[1, 3])")(rm)[0]
    np.testing.assert_array_equal(to_py(rm), m)
    np.testing.assert_array_equal(to_py(r("matrix(1:6, 2)")),
                                  np.arange(1, 7).reshape(2, 3, order="F"))


def test_r_na_in_integer_and_logical_vectors_is_not_a_number():
    ints = to_py(r("c(1L, NA, 3L)"))
    assert ints.dtype == "Int64" and ints.isna().tolist() == [False, True, False]
    logi = to_py(r("c(TRUE, NA)"))
    assert logi.dtype == "boolean" and logi.isna().tolist() == [False, True]
    assert to_py(r("c(1L, 2L)")).dtype == np.int64
    assert np.isnan(to_py(r("c(NA_real_, NaN)"))).all()
    assert list(to_py(r('c("a", NA)'))) == ["a", None]


def test_large_integers_travel_as_doubles():
    big = np.array([1, 2**40], dtype=np.int64)
    rv = to_r(big)
    assert r("typeof")(rv)[0] == "double" and r("function(v) v[2]")(rv)[0] == 2.0**40


def test_other_r_objects_stay_r_objects():
    fit = to_py(r("lm(y ~ x, data.frame(x = 1:3, y = c(1, 3, 2)))"))
    assert "lm" in fit.rclass


def test_converter_is_local_only():
    before = get_conversion()
    with localconverter(converter):
        pass
    assert get_conversion() is before
    to_r(pd.DataFrame({"x": [1.0]}))
    assert get_conversion() is before


def test_bad_inputs_raise_naming_the_column():
    with pytest.raises(TypeError, match="column 'mixed'"):
        to_r(pd.DataFrame({"mixed": ["a", 1]}))
    with pytest.raises(TypeError, match="dtype"):
        to_r(pd.DataFrame({"when": pd.to_datetime(["2020-01-01"])}))
    with pytest.raises(ValueError, match="distinct"):
        to_r(pd.DataFrame([[1, 2]], columns=["a", "a"]))
    with pytest.raises(ValueError, match="repeated labels"):
        to_r(pd.DataFrame({"x": [1.0, 2.0]}, index=[0, 0]))
    with pytest.raises(ValueError, match="not distinct once written"):
        to_r(pd.Categorical([1, "1"], categories=[1, "1"]))
    with pytest.raises(TypeError, match="numeric 2-D"):
        to_r(np.array([["a", "b"]], dtype=object))


level_text = st.text(alphabet=st.characters(blacklist_categories=["Cs", "Cc"]),
                     min_size=1, max_size=6)


@settings(max_examples=25, deadline=None)
@given(levels=st.lists(level_text, min_size=2, max_size=6, unique=True),
       data=st.data(), ordered=st.booleans())
def test_property_factor_round_trip(levels, data, ordered):
    codes = data.draw(st.lists(st.integers(-1, len(levels) - 1), min_size=1, max_size=20))
    cat = pd.Categorical.from_codes(codes, categories=levels, ordered=ordered)
    back = to_py(to_r(pd.DataFrame({"y": cat})))["y"]
    assert list(back.cat.categories) == levels
    assert back.cat.ordered == ordered
    assert back.cat.codes.tolist() == codes
