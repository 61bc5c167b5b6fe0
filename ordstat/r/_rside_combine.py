"""What the R function ``serial_combine()`` calls through reticulate beyond the shared fit
(``_rside.fit`` with the kind ``"serial"``): the weights and texts of a fitted combiner, and
the leave-one-out error of the whole procedure."""

from __future__ import annotations

import numpy as np

from ._rside import factor


def serial_info(comb, names="paper"):
    """Weights, model names and the paper-style formula of a fitted combiner."""
    from ordstat.combine.serial import model_name

    return {"weights": np.asarray(comb.weights_, dtype=np.float64),
            "models": [model_name(e, names) for e in comb.estimators_],
            "mclust": [model_name(e, "mclust") for e in comb.estimators_],
            "formula": comb.describe(names), "summary": str(comb.summary(names))}


def loo_error(comb, X, y_codes, y_levels, ordered):
    """Leave-one-out error of the whole serial procedure on (X, y)."""
    from ordstat.combine import serial_loo_error

    return float(serial_loo_error(comb, X, factor(y_codes, y_levels, ordered=bool(ordered))))
