"""Data sets: the papers' real data (R packages through rpy2, CSV files shipped with ordstat,
skordinal's data files, statsmodels' ANES 1996 survey) and the papers' simulation generators."""

from __future__ import annotations

import pandas as pd

from ._simulations import make_archer_simulation  # noqa: F401
from ._generators import make_circle, make_waegeman_synthetic  # noqa: F401

__all__ = ["load_anes96", "BUNDLED"]
from ._zoo import load_zoo as load_zoo  # noqa: E402  (mlbench via rpy2, imported on call)

# The 7-point party identification scale of the American National Election Studies.
_PID_LEVELS = [
    "strong Democrat", "weak Democrat", "independent Democrat", "independent",
    "independent Republican", "weak Republican", "strong Republican",
]
_ANES_PREDICTORS = ["selfLR", "ClinLR", "DoleLR", "TVnews", "age", "educ", "income", "logpopul"]


def load_anes96():
    """The 1996 American National Election Studies sample shipped with statsmodels (n = 944).

    Response ``PID``: party identification on a 7-point ordered scale (an ordered Categorical,
    "strong Democrat" < ... < "strong Republican"). Predictors: self-placement and placement of
    Clinton and Dole on a 7-point liberal-conservative scale (selfLR, ClinLR, DoleLR), days a
    week watching TV news, age, education (1-7), income (1-24) and log population of the
    respondent's area. The vote itself is left out (it is recorded after party identification
    and nearly determines it).

    Returns
    -------
    DataFrame with the predictors and the ordered ``PID`` column.
    """
    from statsmodels.datasets import anes96

    raw = anes96.load_pandas().data
    frame = raw[_ANES_PREDICTORS].astype(float).copy()
    frame["PID"] = pd.Categorical.from_codes(raw["PID"].astype(int), _PID_LEVELS, ordered=True)
    return frame


#: name -> (loader, response column), for ``ordstat compare --bundled NAME``.
BUNDLED = {"anes96": (load_anes96, "PID")}

# Real data: shipped CSV files (UCI), R packages through rpy2, skordinal's data files.
from ._uci import load_bupa, load_haberman  # noqa: E402
from ._ordinal_sets import (load_balance_scale, load_era, load_esl, load_lev,  # noqa: E402
                            load_swd)
from ._r_data import (load_boston, load_crabs, load_haemophilia, load_iris,  # noqa: E402
                      load_machine_cpu, load_thyroid, load_wine)

_REAL = {"iris": (load_iris, "Species"), "crabs": (load_crabs, "group"),
         "thyroid": (load_thyroid, "Diagnosis"), "haemophilia": (load_haemophilia, "gr"),
         "bupa": (load_bupa, "selector"), "haberman": (load_haberman, "survival"),
         "era": (load_era, "y"), "esl": (load_esl, "y"), "lev": (load_lev, "y"),
         "swd": (load_swd, "y"), "balance_scale": (load_balance_scale, "y"),
         "boston": (load_boston, "rank"), "machine_cpu": (load_machine_cpu, "rank"),
         "wine": (load_wine, "rating")}
__all__ += [loader.__name__ for loader, _ in _REAL.values()]
BUNDLED.update(_REAL)
BUNDLED["zoo"] = (load_zoo, "type")  # no return_X_y: kept out of _REAL
