"""mlbench's Zoo data (R), read through rpy2 and ordstat's converter."""

from __future__ import annotations

__all__ = ["load_zoo"]

_HOW = ("load_zoo() reads the Zoo data of the R package mlbench through rpy2; it needs R, "
        "the R package mlbench (install.packages('mlbench') or apt-get install r-cran-mlbench) "
        "and rpy2 (pip install 'ordstat[r]').")


def load_zoo():
    """The Zoo data of the R package mlbench (Newman et al. 1998, UCI; n = 101 animals).

    Seven classes (``type``: mammal, bird, reptile, fish, amphibian, insect, mollusc.et.al), 15
    boolean attributes (hair, feathers, eggs, milk, ...) and the number of legs (0, 2, 4, 5, 6
    or 8): a multi-class discrete problem, used for the discrete procedure of hierarchical
    coupling (Brito, Celeux & Sousa Ferreira 2006, section 4).

    Returns
    -------
    DataFrame with 16 predictor columns (booleans, and ``legs`` as integers) and ``type``, an
    unordered pandas Categorical.

    Raises
    ------
    ImportError
        When rpy2, R or mlbench is missing (the message says what to install).
    """
    from ._r_data import _rpy2

    ro, to_py = _rpy2("Zoo")  # rpy2 missing, or R missing behind it: says what to install
    if not ro.r('isTRUE(requireNamespace("mlbench", quietly = TRUE))')[0]:
        raise ImportError(_HOW + " (mlbench is not installed in R)")

    frame = to_py(ro.r("local({data(Zoo, package = 'mlbench', envir = environment()); Zoo})"))
    return frame.reset_index(drop=True)
