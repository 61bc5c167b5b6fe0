"""Data sets and the corrected t-test for the R package (``ordstat_data()``,
``corrected_ttest()``), in the plain form that crosses reticulate: numeric columns as arrays,
factors as (codes 0..K-1, levels, ordered flag). Works in the R environment's Python (no rpy2).
"""

from __future__ import annotations

import numpy as np
import pandas as pd


# The loaders that read R packages through rpy2. The R package builds these sets in R itself
# (R/rdatasets.R): through reticulate, rpy2 would start R inside the calling R process.
_READ_THROUGH_RPY2 = ("ordstat.datasets._r_data", "ordstat.datasets._zoo")


def names():
    """Names accepted by :func:`load` (those of ``ordstat.datasets.BUNDLED``)."""
    from ordstat.datasets import BUNDLED

    return list(BUNDLED)


def reads_r(name):
    """Whether the Python loader of data set ``name`` reads an R package through rpy2."""
    from ordstat.datasets import BUNDLED

    return BUNDLED[name][0].__module__ in _READ_THROUGH_RPY2


def load(name):
    """One data set as {"names", "columns", "response"} (see :func:`plain`)."""
    from ordstat.datasets import BUNDLED

    if name not in BUNDLED:
        raise ValueError(f"unknown data set {name!r}; choose from {', '.join(BUNDLED)}.")
    if reads_r(name):
        # a guard: from R this would abort the R session
        raise ValueError(f"the {name} data set is read from R; the R package builds it in R.")
    loader, response = BUNDLED[name]
    return plain(loader(), response)


def plain(frame, response):
    """A DataFrame in the form that crosses reticulate intact: {"names", "columns",
    "response"}, each column {"kind", ...}: "factor" (codes 0..K-1, -1 for missing, levels,
    ordered flag; a bare R factor would lose its order), "logical", "integer" or "numeric"
    (values)."""
    columns = []
    for col in frame.columns:
        values = frame[col]
        if isinstance(values.dtype, pd.CategoricalDtype):
            columns.append({"kind": "factor",
                            "codes": np.asarray(values.cat.codes, dtype=np.int64),
                            "levels": [str(c) for c in values.cat.categories],
                            "ordered": bool(values.cat.ordered)})
        elif pd.api.types.is_bool_dtype(values.dtype):
            columns.append({"kind": "logical", "values": np.asarray(values, dtype=bool)})
        elif _fits_r_integer(values):
            columns.append({"kind": "integer", "values": np.asarray(values, dtype=np.int32)})
        else:
            columns.append({"kind": "numeric",
                            "values": np.asarray(values, dtype=np.float64)})
    return {"names": [str(c) for c in frame.columns], "columns": columns, "response": response}


def _fits_r_integer(values):
    # R integers are 32-bit, with -2**31 standing for NA
    if not pd.api.types.is_integer_dtype(values.dtype) or values.isna().any():
        return False
    return len(values) == 0 or (values.min() > -2**31 and values.max() < 2**31)


def corrected_ttest(scores_a, scores_b, n_train, n_test):
    """:func:`ordstat.model_selection.corrected_resampled_ttest` as a plain dict."""
    from ordstat.model_selection import corrected_resampled_ttest

    res = corrected_resampled_ttest(np.asarray(scores_a, dtype=float).reshape(-1),
                                    np.asarray(scores_b, dtype=float).reshape(-1),
                                    n_train=float(n_train), n_test=float(n_test))
    return {"statistic": res.statistic, "p_value": res.pvalue, "df": res.df,
            "mean_difference": res.mean_difference, "std_error": res.std_error}


# name -> whether it loads in this Python (a loader may need an optional package)
_LOADABLE = {}


def available_names():
    """The names of :func:`names` whose data load in this Python: those read from R (built by
    the R package itself, which checks its own R packages) and those whose loader finds the
    optional Python package it needs (skordinal for ERA, ESL, LEV, SWD and balance-scale).
    Found by loading each set once per session (the sets are small)."""
    from ordstat._extras import missing_extra

    out = []
    for name in names():
        if name not in _LOADABLE:
            try:
                _LOADABLE[name] = reads_r(name) or load(name) is not None
            except ImportError as exc:
                if missing_extra(exc) is None:
                    raise
                _LOADABLE[name] = False
        if _LOADABLE[name]:
            out.append(name)
    return out
