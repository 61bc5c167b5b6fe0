"""Data sets and the corrected t-test for the R package (``ordstat_data()``,
``corrected_ttest()``), in the plain form that crosses reticulate: numeric columns as arrays,
factors as (codes 0..K-1, levels, ordered flag). Works in the R environment's Python (no rpy2).
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def names():
    """Names accepted by :func:`load` (those of ``ordstat.datasets.BUNDLED``)."""
    from ordstat.datasets import BUNDLED

    return list(BUNDLED)


def load(name):
    """One data set as {"names", "columns", "response"}; factors as codes/levels/ordered."""
    from ordstat.datasets import BUNDLED

    if name not in BUNDLED:
        raise ValueError(f"unknown data set {name!r}; choose from {', '.join(BUNDLED)}.")
    loader, response = BUNDLED[name]
    frame = loader()
    columns = []
    for col in frame.columns:
        values = frame[col]
        if isinstance(values.dtype, pd.CategoricalDtype):
            columns.append({"kind": "factor",
                            "codes": np.asarray(values.cat.codes, dtype=np.int64),
                            "levels": [str(c) for c in values.cat.categories],
                            "ordered": bool(values.cat.ordered)})
        else:
            columns.append({"kind": "numeric",
                            "values": np.asarray(values, dtype=np.float64)})
    return {"names": [str(c) for c in frame.columns], "columns": columns, "response": response}


def corrected_ttest(scores_a, scores_b, n_train, n_test):
    """:func:`ordstat.model_selection.corrected_resampled_ttest` as a plain dict."""
    from ordstat.model_selection import corrected_resampled_ttest

    res = corrected_resampled_ttest(np.asarray(scores_a, dtype=float).reshape(-1),
                                    np.asarray(scores_b, dtype=float).reshape(-1),
                                    n_train=float(n_train), n_test=float(n_test))
    return {"statistic": res.statistic, "p_value": res.pvalue, "df": res.df,
            "mean_difference": res.mean_difference, "std_error": res.std_error}
