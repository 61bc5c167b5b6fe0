"""The ordinal benchmark sets shipped by the PyPI package ``skordinal`` (read offline).

The Circle data of the same table are simulated: ``make_circle`` (the generators module).
"""

from __future__ import annotations

import pandas as pd

from ._loading import check_return_X_y, finish, require_module

_CITATION = (
    "as in the dissertation \"Ensemble methods for ordinal data classification\", Table 2.1"
)


def _load_skordinal(stem, dataset, return_X_y, columns=None):
    check_return_X_y(return_X_y)
    module = require_module("skordinal.datasets", dataset=dataset)
    # skordinal's bundled loaders read CSV files inside the package (no network).
    bunch = getattr(module, f"load_{stem}")(as_frame=True)
    frame = bunch.data.astype(float).copy()
    if columns is not None:
        frame.columns = columns
    levels = [str(name) for name in bunch.target_names]
    codes = bunch.target.to_numpy().astype(int)
    frame["y"] = pd.Categorical.from_codes(codes, categories=levels, ordered=True)
    return finish(frame, "y", return_X_y)


def load_era(*, return_X_y=False):
    """ERA, Employee Rejection/Acceptance (n = 1000, 4 predictors, 9 ordered classes).

    Four ordinal attributes of job applicants; the response ``y`` is the overall acceptance
    level, an ordered Categorical "1" < ... < "9". One of the four Arie Ben-David sets used,
    {citation}. (The table's text lists 3 attributes; the data have 4.)

    Provenance: Ben-David (1992), "Automatic generation of symbolic multiattribute ordinal
    knowledge-based DSSs: methodology and applications", Decision Sciences 23(6); the copy
    shipped by the PyPI package ``skordinal`` (its ``load_era``, read from the package).

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of one DataFrame.

    Returns
    -------
    DataFrame with predictors ``in1`` ... ``in4`` and the ordered ``y`` column, or ``(X, y)``.

    Raises
    ------
    ImportError
        When skordinal is not installed (``pip install "ordstat[compare]"``).
    """
    return _load_skordinal("era", "ERA", return_X_y)


def load_esl(*, return_X_y=False):
    """ESL, Employee Selection (n = 488, 4 predictors, 9 ordered classes).

    Psychometric scores of applicants for industrial jobs given by expert psychologists; the
    response ``y`` is the applicant's overall fitness, an ordered Categorical "1" < ... < "9",
    {citation} (488 points, 4 attributes, 9 labels).

    Provenance: Ben-David (1992), Decision Sciences 23(6); the copy shipped by the PyPI package
    ``skordinal`` (its ``load_esl``, read from the package).

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of one DataFrame.

    Returns
    -------
    DataFrame with predictors ``in1`` ... ``in4`` and the ordered ``y`` column, or ``(X, y)``.

    Raises
    ------
    ImportError
        When skordinal is not installed (``pip install "ordstat[compare]"``).
    """
    return _load_skordinal("esl", "ESL", return_X_y)


def load_lev(*, return_X_y=False):
    """LEV, Lecturer Evaluation (n = 1000, 4 predictors, 5 ordered classes).

    Students' ratings of lecturers on four attributes; the response ``y`` is the overall
    evaluation, an ordered Categorical "1" < ... < "5", {citation} (1000 points, 4
    attributes, 5 labels).

    Provenance: Ben-David (1992), Decision Sciences 23(6); the copy shipped by the PyPI package
    ``skordinal`` (its ``load_lev``, read from the package).

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of one DataFrame.

    Returns
    -------
    DataFrame with predictors ``in1`` ... ``in4`` and the ordered ``y`` column, or ``(X, y)``.

    Raises
    ------
    ImportError
        When skordinal is not installed (``pip install "ordstat[compare]"``).
    """
    return _load_skordinal("lev", "LEV", return_X_y)


def load_swd(*, return_X_y=False):
    """SWD, Social Workers' Decisions (n = 1000, 10 predictors, 4 ordered classes).

    Risk assessments by social workers of whether an allegedly abused or neglected child should
    stay at home; the response ``y`` is the risk level, an ordered Categorical "1" < ... < "4",
    {citation} (1000 points, 10 attributes, "4(5)" labels: the original scale has a fifth
    label that no unit takes, which this copy leaves out).

    Provenance: Ben-David (1992), Decision Sciences 23(6); the copy shipped by the PyPI package
    ``skordinal`` (its ``load_swd``, read from the package).

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of one DataFrame.

    Returns
    -------
    DataFrame with predictors ``in1`` ... ``in10`` and the ordered ``y`` column, or ``(X, y)``.

    Raises
    ------
    ImportError
        When skordinal is not installed (``pip install "ordstat[compare]"``).
    """
    return _load_skordinal("swd", "SWD", return_X_y)


def load_balance_scale(*, return_X_y=False):
    """Balance scale (n = 625, 4 predictors, 3 ordered classes).

    Weight and distance from the fulcrum on each pan (1-5 each); the response ``y`` says which
    way the scale tips, an ordered Categorical "L" < "B" < "R" (left, balanced, right),
    {citation} (625 points, 4 attributes, 3 labels).

    Provenance: Siegler (1976), via the UCI Machine Learning Repository (donated by T. Hume,
    1994); the copy shipped by the PyPI package ``skordinal`` (its ``load_balance_scale``).

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of one DataFrame.

    Returns
    -------
    DataFrame with predictors ``left_weight``, ``left_distance``, ``right_weight``,
    ``right_distance`` and the ordered ``y`` column, or ``(X, y)``.

    Raises
    ------
    ImportError
        When skordinal is not installed (``pip install "ordstat[compare]"``).
    """
    return _load_skordinal("balance_scale", "balance-scale", return_X_y,
                           columns=["left_weight", "left_distance", "right_weight",
                                    "right_distance"])


for _loader in (load_era, load_esl, load_lev, load_swd, load_balance_scale):
    _loader.__doc__ = _loader.__doc__.replace("{citation}", _CITATION)
del _loader
