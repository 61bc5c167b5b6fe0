"""Public warning and error classes of ordstat, so that users can filter or catch them without
private imports.

Examples
--------
>>> import warnings
>>> from ordstat.exceptions import ZeroDensityWarning
>>> warnings.simplefilter("ignore", ZeroDensityWarning)
"""

from __future__ import annotations

from sklearn.exceptions import ConvergenceWarning as _SklearnConvergenceWarning

__all__ = [
    "ConvergenceWarning",
    "ManyCategoriesWarning",
    "MissingExtraError",
    "NearSingularWarning",
    "OrderGuessWarning",
    "ZeroDensityWarning",
]


class ConvergenceWarning(_SklearnConvergenceWarning):
    """An iterative fit stopped at ``max_iter`` before meeting its tolerance.

    A subclass of scikit-learn's ``ConvergenceWarning``, so a filter on either catches it.
    Raised by the iterative EDDA M-steps and by ``ProportionalOddsClassifier``.
    """


class NearSingularWarning(UserWarning):
    """A covariance matrix is nearly singular: usable, but the densities may lose digits."""


class OrderGuessWarning(UserWarning):
    """The order of the classes was guessed by sorting non-numeric labels."""


class ZeroDensityWarning(UserWarning):
    """Some units are in states of zero density under every class; their posterior is the prior."""


class ManyCategoriesWarning(UserWarning):
    """A discrete model was given a float column with many distinct values: every value becomes
    a category of its own, and a value not seen in training cannot be predicted."""


# top-level module -> (extra of ordstat that installs it, what else it needs)
EXTRAS = {
    "matplotlib": ("plot", ""),
    "rpy2": ("r", "R itself"),
    "skordinal": ("compare", ""),
    "mord": ("compare", ""),
    "dask": ("dask", ""),
    "distributed": ("dask", ""),
}


def install_hint(module: str) -> str:
    """How to install an optional module: 'pip install "ordstat[plot]"' (and R for rpy2)."""
    extra, also = EXTRAS.get(module.split(".")[0], (None, ""))
    hint = f'pip install "ordstat[{extra}]"' if extra else f"pip install {module}"
    return f"{hint} (and {also})" if also else hint


class MissingExtraError(ImportError):
    """An optional dependency is missing (or, for rpy2, R cannot be started).

    Parameters
    ----------
    module : str
        The optional module, e.g. ``"matplotlib"``.
    what : str
        What needs it, e.g. ``"the figures of the report"``.
    detail : str, default=""
        Why it cannot be used, when it is installed but fails (e.g. R does not start).

    Attributes
    ----------
    module, what, extra : str
        The module, what needs it and the extra of ordstat that installs it (or None).
    reason : str
        The message without ``what``: "needs matplotlib: pip install "ordstat[plot]"".
    """

    def __init__(self, module: str, what: str, detail: str = ""):
        self.module = module
        self.what = what
        self.extra = EXTRAS.get(module.split(".")[0], (None, ""))[0]
        because = f" ({detail})" if detail else ""
        self.reason = f"needs {module}{because}: {install_hint(module)}"
        super().__init__(f"{what} {self.reason}", name=module)
