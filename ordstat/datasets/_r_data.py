"""Data sets from R packages (datasets, MASS, mclust, rrcov, ordinal), read through rpy2.

R and these packages come with the project's set-up (Debian packages r-base-core,
r-cran-mass, r-cran-mclust, r-cran-rrcov, r-cran-ordinal); the Python side needs rpy2 (the
``r`` extra). The data are converted by ordstat's rpy2 converter (``ordstat._core.rpy``), which
keeps factor levels and their order.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._extras import MissingExtraError, missing_extra
from ._loading import check_return_X_y, finish

# R package -> how to install it (the R package "datasets" is part of R itself)
_R_INSTALL = {
    "datasets": "R itself (Debian: apt-get install r-base-core)",
    "MASS": "Debian: apt-get install r-cran-mass; or in R: install.packages('MASS')",
    "mclust": "Debian: apt-get install r-cran-mclust; or in R: install.packages('mclust')",
    "rrcov": "Debian: apt-get install r-cran-rrcov; or in R: install.packages('rrcov')",
    "ordinal": "Debian: apt-get install r-cran-ordinal; or in R: install.packages('ordinal')",
}


def _rpy2(dataset):
    try:
        from .._core.rpy import ro, to_py  # starts R
    except Exception as exc:  # ImportError, or R itself failing to start
        raise MissingExtraError("rpy2", f"the {dataset} data set (read from R)",
                                _why_not(exc)) from exc
    return ro, to_py


def _why_not(exc):
    """What went wrong beyond rpy2 being absent (R failing to start), or ""."""
    if missing_extra(exc) == "rpy2":
        return ""
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def r_data(name, package, *, dataset=None):
    """An R package's data set as a DataFrame (factors become Categoricals, order kept).

    Parameters
    ----------
    name : str
        Name of the data set in R (``data(name, package = package)``).
    package : str
        The R package that ships it.
    dataset : str, optional
        The name used in error messages (default: ``name``).

    Raises
    ------
    ImportError
        When rpy2 or R cannot be used, or the R package is not installed (the message says how
        to install it).
    """
    dataset = dataset or name
    ro, to_py = _rpy2(dataset)
    installed = ro.r["requireNamespace"](package, quietly=True)[0]
    if not installed:
        how = _R_INSTALL.get(package, f"in R: install.packages('{package}')")
        raise ImportError(
            f"the {dataset} data set comes from the R package {package!r}, which is not "
            f"installed in R; install it ({how})."
        )
    env = ro.r["new.env"]()
    ro.r["data"](name, package=package, envir=env)
    return to_py(env[name]).reset_index(drop=True)


def load_iris(*, return_X_y=False):
    """Fisher's (Anderson's) iris data from R's ``datasets`` package (n = 150, 4 predictors, 3
    classes).

    Sepal and petal length and width (cm); response ``Species`` (nominal: setosa, versicolor,
    virginica, 50 each), as in Brito, Celeux & Sousa Ferreira (2006), "Combining methods in
    supervised classification: a comparative study on discrete and continuous problems",
    Table 1. R's copy follows Fisher (1936); some other copies differ in two values.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of one DataFrame.

    Returns
    -------
    DataFrame with the predictors and the nominal ``Species`` column (last), or ``(X, y)``.

    Raises
    ------
    ImportError
        When R cannot be reached through rpy2.
    """
    check_return_X_y(return_X_y)
    frame = r_data("iris", "datasets")
    return finish(frame, "Species", return_X_y)


def load_crabs(*, return_X_y=False):
    """Leptograpsus crabs from the R package MASS (n = 200, 5 predictors, 4 classes of 50).

    Frontal lobe size (FL), rear width (RW), carapace length (CL) and width (CW), body depth
    (BD), in mm; response ``group`` (nominal), the species x sex group "B.F", "B.M", "O.F",
    "O.M" (blue/orange, female/male), as in Brito, Celeux & Sousa Ferreira (2006), "Combining
    methods in supervised classification: a comparative study on discrete and continuous
    problems", Table 1 (200 units, 5 variables, 4 groups).

    Provenance: Campbell & Mahon (1974), via MASS::crabs (Venables & Ripley).

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of one DataFrame.

    Returns
    -------
    DataFrame with the five measurements and ``group`` (last), or ``(X, y)``.

    Raises
    ------
    ImportError
        When R cannot be reached through rpy2 or MASS is not installed in R.
    """
    check_return_X_y(return_X_y)
    raw = r_data("crabs", "MASS")
    frame = raw[["FL", "RW", "CL", "CW", "BD"]].astype(float)
    group = raw["sp"].astype(str) + "." + raw["sex"].astype(str)
    frame["group"] = pd.Categorical(group, categories=["B.F", "B.M", "O.F", "O.M"])
    return finish(frame, "group", return_X_y)


def load_thyroid(*, return_X_y=False):
    """Thyroid gland data from the R package mclust (n = 215, 5 predictors, 3 classes).

    Five laboratory tests (RT3U, T4, T3, TSH, DTSH); response ``Diagnosis`` (nominal, as the
    paper treats it): Hypo 30, Normal 150, Hyper 35, as in Brito, Celeux & Sousa Ferreira
    (2006), "Combining methods in supervised classification: a comparative study on discrete and
    continuous problems", Table 1 (215 units, 5 variables, 3 groups). The categories keep R's
    level order Hypo, Normal, Hyper, which is also the natural order of thyroid function.

    Provenance: Coomans et al. (1983), via the UCI Machine Learning Repository and
    mclust::thyroid.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of one DataFrame.

    Returns
    -------
    DataFrame with the five tests and ``Diagnosis`` (last), or ``(X, y)``.

    Raises
    ------
    ImportError
        When R cannot be reached through rpy2 or mclust is not installed in R.
    """
    check_return_X_y(return_X_y)
    frame = r_data("thyroid", "mclust")
    frame["Diagnosis"] = frame["Diagnosis"].cat.as_unordered()
    return finish(frame, "Diagnosis", return_X_y)


def load_haemophilia(*, return_X_y=False):
    """Haemophilia A carriers from the R package rrcov (n = 75, 2 predictors, 2 classes).

    AHF activity and AHF-like antigen (log10 scale); response ``gr`` (nominal): "normal" (30
    women) or "carrier" (45 obligatory carriers), the "Haemo" set of Brito, Celeux & Sousa
    Ferreira (2006), "Combining methods in supervised classification: a comparative study on
    discrete and continuous problems", Table 1 (75 units, 2 variables, 2 groups).

    Provenance: Habbema, Hermans & van den Broek (1974), via rrcov::hemophilia.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of one DataFrame.

    Returns
    -------
    DataFrame with ``AHFactivity``, ``AHFantigen`` and ``gr`` (last), or ``(X, y)``.

    Raises
    ------
    ImportError
        When R cannot be reached through rpy2 or rrcov is not installed in R (Debian package
        r-cran-rrcov).
    """
    check_return_X_y(return_X_y)
    frame = r_data("hemophilia", "rrcov", dataset="haemophilia")
    frame["gr"] = pd.Categorical(frame["gr"].astype(str), categories=["normal", "carrier"])
    return finish(frame, "gr", return_X_y)


def load_boston(*, n_ranks=5, return_X_y=False):
    """Boston housing from the R package MASS, the median value cut into equal-frequency ranks
    (n = 506, 13 predictors, 5 ordered classes by default).

    The 13 census-tract predictors of MASS::Boston (crim ... lstat); response ``rank``, the
    median home value ``medv`` cut into ``n_ranks`` ranks with equal numbers of tracts (sizes
    differ by at most one; tied values of medv are split by their order in the data), an
    ordered Categorical "1" < ... < "5". This is the discretisation of Waegeman & Boullart
    (2006), "An ensemble of weighted support vector machines for ordinal regression", section
    V.A (after Chu & Keerthi). ``medv`` itself is left out.

    Provenance: Harrison & Rubinfeld (1978), via MASS::Boston. The predictor ``black`` is a
    transformation of the proportion of Black residents, kept as in the source; consider
    leaving it out.

    Parameters
    ----------
    n_ranks : int, default=5
        Number of ranks (at least 2).
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of one DataFrame.

    Returns
    -------
    DataFrame with the 13 predictors and the ordered ``rank`` column (last), or ``(X, y)``.

    Raises
    ------
    ImportError
        When R cannot be reached through rpy2 or MASS is not installed in R.
    """
    check_return_X_y(return_X_y)
    _check_n_ranks(n_ranks)
    raw = r_data("Boston", "MASS", dataset="boston")
    frame = raw.drop(columns="medv").astype(float)
    frame["rank"] = _equal_frequency_ranks(raw["medv"], n_ranks)
    return finish(frame, "rank", return_X_y)


def load_machine_cpu(*, n_ranks=5, return_X_y=False):
    """Machine CPU from the R package MASS, the published performance cut into equal-frequency
    ranks (n = 209, 6 predictors, 5 ordered classes by default).

    The six hardware predictors of MASS::cpus (``syct`` cycle time, ``mmin`` and ``mmax``
    memory, ``cach`` cache, ``chmin`` and ``chmax`` channels); response ``rank``, the published
    relative performance ``perf`` cut into ``n_ranks`` ranks with equal numbers of machines
    (sizes differ by at most one; tied values split by their order in the data), an ordered
    Categorical "1" < ... < "5". This is the "machine cpu" of Waegeman & Boullart (2006),
    section V.A (after Chu & Keerthi). The machine names and the estimated performance
    ``estperf`` (a regression's fit of ``perf``) are left out.

    Provenance: Ein-Dor & Feldmesser (1987), via MASS::cpus (Venables & Ripley).

    Parameters
    ----------
    n_ranks : int, default=5
        Number of ranks (at least 2).
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of one DataFrame.

    Returns
    -------
    DataFrame with the 6 predictors and the ordered ``rank`` column (last), or ``(X, y)``.

    Raises
    ------
    ImportError
        When R cannot be reached through rpy2 or MASS is not installed in R.
    """
    check_return_X_y(return_X_y)
    _check_n_ranks(n_ranks)
    raw = r_data("cpus", "MASS", dataset="machine_cpu")
    frame = raw[["syct", "mmin", "mmax", "cach", "chmin", "chmax"]].astype(float)
    frame["rank"] = _equal_frequency_ranks(raw["perf"], n_ranks)
    return finish(frame, "rank", return_X_y)


def _check_n_ranks(n_ranks):
    if isinstance(n_ranks, bool) or not isinstance(n_ranks, (int, np.integer)) or n_ranks < 2:
        raise ValueError(f"n_ranks must be an integer of at least 2; got {n_ranks!r}.")


def _equal_frequency_ranks(values, n_ranks):
    """Ranks "1".."n_ranks" of equal size (differing by at most one) by the order of
    ``values``, ties broken by position: the cut of Waegeman & Boullart (2006), section V.A."""
    order = pd.Series(values).rank(method="first").to_numpy() - 1
    codes = np.floor(order * int(n_ranks) / len(order)).astype(int)
    levels = [str(k) for k in range(1, int(n_ranks) + 1)]
    return pd.Categorical.from_codes(codes, categories=levels, ordered=True)


def load_wine(*, include_judge=False, return_X_y=False):
    """Bitterness of white wines from the R package ordinal (n = 72, 2 predictors, 5 ordered
    classes).

    A factorial experiment: wine made at a cold or warm temperature, with or without skin
    contact, tasted by nine judges. Response ``rating``: bitterness on an ordered scale
    "1" < ... < "5" (least to most bitter). Predictors ``temp`` (1 = warm) and ``contact``
    (1 = yes) as 0/1 numbers; with ``include_judge=True`` also ``judge`` (a nominal
    Categorical). The continuous score ``response`` from which the rating was formed is left
    out. A small, genuinely ordinal example for the proportional-odds baseline (McCullagh
    1980).

    Provenance: Randall (1989), via the data set ``wine`` of the R package ordinal
    (Christensen).

    Parameters
    ----------
    include_judge : bool, default=False
        Also return the judge.
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of one DataFrame.

    Returns
    -------
    DataFrame with ``temp``, ``contact`` (and ``judge``) and the ordered ``rating`` column
    (last), or ``(X, y)``.

    Raises
    ------
    ImportError
        When R cannot be reached through rpy2 or ordinal is not installed in R (Debian package
        r-cran-ordinal).
    """
    check_return_X_y(return_X_y)
    if not isinstance(include_judge, bool):
        raise TypeError(f"include_judge must be True or False; got {include_judge!r}.")
    raw = r_data("wine", "ordinal")
    frame = pd.DataFrame({
        "temp": (raw["temp"].astype(str) == "warm").astype(float),
        "contact": (raw["contact"].astype(str) == "yes").astype(float),
    })
    if include_judge:
        frame["judge"] = raw["judge"].cat.as_unordered()
    frame["rating"] = raw["rating"]
    return finish(frame, "rating", return_X_y)
