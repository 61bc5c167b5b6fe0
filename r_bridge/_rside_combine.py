"""What the R function ``serial_combine()`` calls through reticulate (see ``_rside``).

The response crosses as (codes, levels, ordered flag) and keeps its kind: a plain factor is
passed as an unordered Categorical, which the serial combiner accepts (it does not use the
class order).
"""

from __future__ import annotations

import numpy as np

from ._rside import _as_list, _estimator, factor

_DISCRETE = ("fmm", "foim", "kernel")


def _models(names):
    """Estimators from R's model names: EDDA names ("EEI"), "fmm", "foim", "kernel", or "edda"."""
    from ordstat.gaussian import EDDA, MODELS

    names = _as_list(names)
    if len(names) == 1 and names[0].lower() == "edda":
        return "edda"
    out = []
    for name in names:
        if name.lower() in _DISCRETE:
            out.append(_estimator(name.lower(), {}))
        elif name.upper() in MODELS:
            out.append(EDDA(model=name.upper()))
        else:
            raise ValueError(
                f"serial_combine(): unknown model {name!r}; use EDDA model names "
                f"({', '.join(MODELS)}), 'fmm', 'foim', 'kernel', or 'edda' for all 14 EDDA "
                "models."
            )
    return out


def fit_serial(models, params, X, y_codes, y_levels, ordered):
    """Fit a SerialCombiner on X with the response given by codes, levels and its kind."""
    from ordstat.combine import SerialCombiner

    params = dict(params or {})
    if params.get("n_models") is not None:
        params["n_models"] = int(params["n_models"])
    if params.get("random_state") is not None:
        params["random_state"] = int(params["random_state"])
    # classes= keeps R's level order for classes_ (a plain factor would otherwise be sorted)
    params["classes"] = _as_list(y_levels)
    comb = SerialCombiner(_models(models), **params)
    return comb.fit(X, factor(y_codes, y_levels, ordered=bool(ordered)))


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
