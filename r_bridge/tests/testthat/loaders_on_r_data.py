"""The Python loaders of the sets read from R packages, run on R's raw data handed over by
reticulate instead of rpy2 (which must not start R inside the R process): what the Python
package gives, computed without rpy2, for test-data.R to compare with ordstat_data()."""

import sys
import types

import numpy as np
import pandas as pd

import ordstat.datasets._r_data as r_data_module
from ordstat.datasets import BUNDLED, load_zoo
from ordstat.r._rdata import plain


def raw_frame(names, columns):
    """R's data frame as rpy2 and ordstat's converter would give it."""
    data = {}
    for name, col in zip(names, columns):
        if col["kind"] == "factor":
            data[name] = pd.Categorical.from_codes(np.asarray(col["codes"], dtype=np.int64),
                                                   categories=list(col["levels"]),
                                                   ordered=bool(col["ordered"]))
        elif col["kind"] == "character":
            data[name] = pd.Series(list(col["values"]), dtype=object)
        else:  # logical, integer (int64, as the converter gives them) or double arrays
            values = np.asarray(col["values"])
            data[name] = values.astype(np.int64) if values.dtype.kind == "i" else values
    return pd.DataFrame(data)


def python_loader(name, names, columns):
    """The Python loader of ``name`` with its R data replaced by the given raw frame, in the
    plain form of ``ordstat.r._rdata.plain``."""
    raw = raw_frame(names, columns)
    if name == "zoo":  # load_zoo imports ro and to_py from ordstat._core.rpy when called
        fake = types.ModuleType("ordstat._core.rpy")
        fake.ro = types.SimpleNamespace(r=lambda code: [True] if "requireNamespace" in code
                                        else "Zoo")
        fake.to_py = lambda obj: raw.copy()
        saved = sys.modules.get("ordstat._core.rpy")
        sys.modules["ordstat._core.rpy"] = fake
        try:
            return plain(load_zoo(), "type")
        finally:
            if saved is None:
                del sys.modules["ordstat._core.rpy"]
            else:
                sys.modules["ordstat._core.rpy"] = saved
    loader, response = BUNDLED[name]
    saved = r_data_module.r_data
    r_data_module.r_data = lambda *args, **kwargs: raw.copy()
    try:
        return plain(loader(), response)
    finally:
        r_data_module.r_data = saved
