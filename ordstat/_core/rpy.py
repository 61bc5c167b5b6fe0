"""R through rpy2: :func:`robjects` (R started with the process environment kept) and a local
converter between pandas/numpy and R, used by the data loaders, the peer methods and the R
bridge (``ordstat.r``).

The module structure is the following:

- :func:`robjects`: rpy2's ``robjects``, R started on first use;
- the conversion rules, one per column type (ordered Categorical <-> ordered factor, NA of
  every R type, row names), in :data:`converter`, never activated globally: use
  ``with localconverter(converter): ...``;
- :func:`to_r`, :func:`to_py`: one object each way.

The table of rules is in the documentation, "How the other methods are computed"
(docs/algorithms.md).
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

__all__ = ["robjects", "converter", "to_r", "to_py", "localconverter"]


def robjects():
    """``rpy2.robjects``, starting R if needed, with the process environment left as it was.

    R's start-up puts its own library folders (``/usr/lib/R/lib:/usr/lib/x86_64-linux-gnu:...``)
    first on ``LD_LIBRARY_PATH``. Python processes started afterwards (joblib's workers for
    ``n_jobs > 1``) would then load the system's libpython instead of this interpreter's and fail
    at start-up, so the variable is restored once R is running (R itself no longer needs it).
    """
    before = os.environ.get("LD_LIBRARY_PATH")
    import rpy2.robjects as ro

    if before is None:
        os.environ.pop("LD_LIBRARY_PATH", None)
    else:
        os.environ["LD_LIBRARY_PATH"] = before
    return ro


ro = robjects()  # starts R
import rpy2.rinterface as ri  # noqa: E402
from rpy2.robjects.conversion import Converter, localconverter  # noqa: E402

_INT_MIN = np.iinfo(np.int32).min  # R's NA_integer_ (and NA for logicals)
_INT_MAX = np.iinfo(np.int32).max
# R marks NA_real_ as a NaN with payload 1954; writing those bits keeps "missing" distinct from
# an arithmetic NaN on the R side.
_NA_REAL = np.array([0x7FF00000000007A2], dtype=np.uint64).view(np.float64)[0]


# --------------------------------------------------------------------------- Python -> R

def _float_vector(values: np.ndarray, missing: np.ndarray | None = None) -> ri.FloatSexpVector:
    values = np.ascontiguousarray(values, dtype=np.float64).copy()
    if missing is None:
        missing = np.isnan(values)
    values[missing] = _NA_REAL
    return ri.FloatSexpVector.from_memoryview(memoryview(values))


def _int_vector(values: np.ndarray, missing: np.ndarray | None = None) -> ri.IntSexpVector:
    values = np.ascontiguousarray(values, dtype=np.int32).copy()
    if missing is not None:
        values[missing] = _INT_MIN
    return ri.IntSexpVector.from_memoryview(memoryview(values))


def _logical_vector(values: np.ndarray, missing: np.ndarray | None = None) -> ri.BoolSexpVector:
    codes = np.asarray(values, dtype=bool).astype(np.int32)
    if missing is not None:
        codes[missing] = _INT_MIN
    # BoolSexpVector has no from_memoryview; an R integer vector coerced to logical keeps NA.
    return ri.baseenv["as.logical"](ri.IntSexpVector.from_memoryview(memoryview(codes)))


def _str_vector(values, name: str) -> ri.StrSexpVector:
    out = []
    for v in values:
        if v is None or v is pd.NA or (isinstance(v, float) and np.isnan(v)):
            out.append(ri.NA_Character)
        elif isinstance(v, str):
            out.append(v)
        else:
            raise TypeError(
                f"{name} holds a value of type {type(v).__name__} ({v!r}) among text values; R "
                "needs one type per column: convert the column to str, a number or a Categorical."
            )
    return ri.StrSexpVector(out)


def _factor(cat: pd.Categorical) -> ri.IntSexpVector:
    """Codes 1..K with NA, the levels as strings, and the class telling whether it is ordered."""
    codes = np.asarray(cat.codes, dtype=np.int32) + 1
    levels = [str(c) for c in cat.categories]
    if len(set(levels)) != len(levels):
        raise ValueError(
            f"the categories {list(cat.categories)} are not distinct once written as R levels "
            f"(strings) {levels}; rename them so that their string forms differ."
        )
    vec = _int_vector(codes, missing=codes == 0)
    vec.do_slot_assign("levels", ri.StrSexpVector(levels))
    return _set_class(vec, ["ordered", "factor"] if cat.ordered else ["factor"])


def _set_class(obj, rclass: list[str]):
    # Through R's `class<-`: a bare attribute assignment would not set the object bit, and S3
    # dispatch (nrow, print.factor, ...) would then ignore the class.
    return ri.baseenv["class<-"](obj, ri.StrSexpVector(rclass))


def _column(values, name: str):
    """One R vector for a pandas Series, Index, Categorical or a 1-D numpy array."""
    if isinstance(values, (pd.Series, pd.Index)):
        dtype = values.dtype
        if isinstance(dtype, pd.CategoricalDtype):
            return _factor(pd.Categorical(values))
        if isinstance(dtype, pd.api.extensions.ExtensionDtype) and dtype.kind in "iub":
            # nullable Int64 / boolean: pd.NA marks missing values.
            missing = np.asarray(values.isna())
            filled = values.to_numpy(dtype=np.int64 if dtype.kind != "b" else bool,
                                     na_value=0)
            return _column_numpy(filled, name, missing)
        if isinstance(dtype, pd.api.extensions.ExtensionDtype) and dtype.kind == "f":
            return _float_vector(values.to_numpy(dtype=np.float64, na_value=np.nan))
        if dtype.kind in "biuf":
            return _column_numpy(values.to_numpy(), name)
        if dtype.kind in "OSU" or isinstance(dtype, pd.StringDtype):
            return _str_vector(values.astype(object).to_numpy(), name)
        raise TypeError(
            f"{name} has dtype {dtype}, which the R bridge does not convert; convert it to a "
            "number, str or Categorical column first."
        )
    if isinstance(values, pd.Categorical):
        return _factor(values)
    return _column_numpy(np.asarray(values), name)


def _column_numpy(arr: np.ndarray, name: str, missing: np.ndarray | None = None):
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D to become an R vector; got shape {arr.shape}.")
    kind = arr.dtype.kind
    if kind == "b":
        return _logical_vector(arr, missing)
    if kind in "iu":
        if arr.size and (arr.min() < _INT_MIN + 1 or arr.max() > _INT_MAX):
            # R integers are 32-bit (and INT_MIN is NA): large counts travel as doubles.
            values = arr.astype(np.float64)
            if missing is not None:
                values[missing] = np.nan
            return _float_vector(values)
        return _int_vector(arr, missing)
    if kind == "f":
        return _float_vector(arr)
    if kind in "OUS":
        return _str_vector(arr.astype(object), name)
    raise TypeError(
        f"{name} has dtype {arr.dtype}, which the R bridge does not convert; convert it to a "
        "number, str or Categorical first."
    )


def _matrix(arr: np.ndarray) -> ri.Sexp:
    if arr.dtype.kind not in "biuf":
        raise TypeError(
            f"only numeric 2-D arrays become R matrices; got dtype {arr.dtype}. Pass a DataFrame "
            "for mixed or text columns."
        )
    flat = np.asarray(arr).ravel(order="F")  # R stores matrices column-major
    vec = _column_numpy(flat, "array")
    vec.do_slot_assign("dim", ri.IntSexpVector(list(arr.shape)))
    return vec


def _ndarray(arr: np.ndarray):
    if arr.ndim == 2:
        return _matrix(arr)
    return _column_numpy(arr, "array")


def _data_frame(df: pd.DataFrame) -> ri.ListSexpVector:
    names = [str(c) for c in df.columns]
    if len(set(names)) != len(names):
        raise ValueError(f"data frame column names must be distinct for R; got {names}.")
    cols = [_column(df.iloc[:, j], f"column {names[j]!r}") for j in range(df.shape[1])]
    out = ri.ListSexpVector(cols)
    out.do_slot_assign("names", ri.StrSexpVector(names))
    index = df.index
    if isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1:
        # R's compact form of automatic row names 1..n.
        rownames = ri.IntSexpVector([int(_INT_MIN), -len(df)])
    else:
        labels = [str(v) for v in index]
        if len(set(labels)) != len(labels):
            raise ValueError(
                "the data frame index has repeated labels, which R row names cannot hold; "
                "call reset_index(drop=True) first."
            )
        rownames = ri.StrSexpVector(labels)
    out.do_slot_assign("row.names", rownames)
    return _set_class(out, ["data.frame"])


def _series(s: pd.Series):
    return _column(s, f"series {s.name!r}" if s.name is not None else "series")


# --------------------------------------------------------------------------- R -> Python

def _rclass(obj) -> tuple[str, ...]:
    try:
        return tuple(obj.rclass)
    except (AttributeError, TypeError):
        return ()


def _attr(obj, name: str):
    value = obj.do_slot(name) if name in obj.list_attrs() else ri.NULL
    return None if value is ri.NULL else value


def _dims(obj):
    dim = _attr(obj, "dim")
    return None if dim is None else tuple(int(d) for d in dim)


def _reshape(arr, obj):
    dim = _dims(obj)
    if dim is not None and len(dim) == 2 and isinstance(arr, np.ndarray):
        return arr.reshape(dim, order="F")
    return arr


def _r_factor(obj) -> pd.Categorical:
    codes = np.asarray(obj.memoryview(), dtype=np.int32).astype(np.int64)
    codes = np.where(codes == _INT_MIN, -1, codes - 1)
    levels = _attr(obj, "levels")
    levels = [] if levels is None else list(levels)
    return pd.Categorical.from_codes(codes, categories=pd.Index(levels),
                                     ordered="ordered" in _rclass(obj))


def _r_int(obj):
    if "factor" in _rclass(obj):
        return _r_factor(obj)
    values = np.asarray(obj.memoryview(), dtype=np.int32).astype(np.int64)
    missing = values == _INT_MIN
    if missing.any():
        if _dims(obj) is not None:  # a matrix with NA: doubles with NaN, like numpy would
            return _reshape(np.where(missing, np.nan, values.astype(np.float64)), obj)
        out = pd.array(values, dtype="Int64")
        out[missing] = pd.NA
        return out
    return _reshape(values, obj)


def _r_logical(obj):
    values = np.asarray(obj.memoryview(), dtype=np.int32)
    missing = values == _INT_MIN
    if missing.any():
        if _dims(obj) is not None:
            return _reshape(np.where(missing, np.nan, values.astype(np.float64)), obj)
        out = pd.array(values != 0, dtype="boolean")
        out[missing] = pd.NA
        return out
    return _reshape(values != 0, obj)


def _r_float(obj):
    return _reshape(np.array(obj.memoryview(), dtype=np.float64), obj)


def _r_str(obj):
    out = np.array([None if v is ri.NA_Character else str(v) for v in obj], dtype=object)
    return _reshape(out, obj)


def _r_data_frame(obj) -> pd.DataFrame:
    names = list(_attr(obj, "names") or [])
    columns = {}
    for name, col in zip(names, ri.ListSexpVector(obj)):
        value = _r_vector(col)
        if isinstance(value, np.ndarray) and value.ndim != 1:
            raise TypeError(
                f"data frame column {name!r} is a matrix or array; the bridge converts plain "
                "columns only."
            )
        columns[name] = value
    n = ri.baseenv[".row_names_info"](obj, 2)[0]
    rownames = _attr(obj, "row.names")
    automatic = rownames is None or rownames.typeof == ri.RTYPES.INTSXP
    index = pd.RangeIndex(abs(n)) if automatic else pd.Index([str(v) for v in rownames],
                                                            dtype=object)
    df = pd.DataFrame({k: (v if not isinstance(v, np.ndarray) or v.dtype != object
                           else pd.array(v, dtype=object)) for k, v in columns.items()},
                      index=index)
    # a data.frame with no columns still has rows
    return df if len(columns) else pd.DataFrame(index=index)


def _r_vector(obj):
    typeof = obj.typeof
    if typeof == ri.RTYPES.INTSXP:
        return _r_int(obj)
    if typeof == ri.RTYPES.LGLSXP:
        return _r_logical(obj)
    if typeof == ri.RTYPES.REALSXP:
        return _r_float(obj)
    if typeof == ri.RTYPES.STRSXP:
        return _r_str(obj)
    if typeof == ri.RTYPES.VECSXP and "data.frame" in _rclass(obj):
        return _r_data_frame(obj)
    # Lists, model objects, environments, closures: stay R objects.
    return ro.default_converter.rpy2py(obj)


# --------------------------------------------------------------------------- the converter

def _make_converter() -> Converter:
    cv = Converter("ordstat", template=ro.default_converter)
    cv.py2rpy.register(pd.DataFrame, _data_frame)
    cv.py2rpy.register(pd.Series, _series)
    cv.py2rpy.register(pd.Index, lambda idx: _column(idx, "index"))
    cv.py2rpy.register(pd.Categorical, _factor)
    cv.py2rpy.register(np.ndarray, _ndarray)
    cv.py2rpy.register(np.integer, lambda v: ri.IntSexpVector([int(v)]))
    cv.py2rpy.register(np.floating, lambda v: _float_vector(np.array([float(v)])))
    cv.py2rpy.register(np.bool_, lambda v: ri.BoolSexpVector([bool(v)]))
    for cls in (ri.IntSexpVector, ri.BoolSexpVector, ri.FloatSexpVector, ri.StrSexpVector,
                ri.ListSexpVector):
        cv.rpy2py.register(cls, _r_vector)
    return cv


converter = _make_converter()
"""The local converter: ``with localconverter(converter): ...`` (never activated globally)."""


def to_r(obj):
    """Convert a pandas/numpy object to R with :data:`converter`.

    Parameters
    ----------
    obj : DataFrame, Series, Categorical, ndarray (1-D or 2-D numeric) or scalar

    Returns
    -------
    rpy2 object (an R data.frame, factor, vector or matrix)
    """
    with localconverter(converter) as cv:
        return cv.py2rpy(obj)


def to_py(robj):
    """Convert an R object to pandas/numpy with :data:`converter`.

    Data frames become DataFrames (factors as Categoricals with their levels and order),
    vectors become numpy arrays (pandas nullable arrays when an integer or logical vector has
    NA), numeric matrices 2-D arrays; anything else is returned as an rpy2 object.
    """
    with localconverter(converter) as cv:
        return cv.rpy2py(robj)
