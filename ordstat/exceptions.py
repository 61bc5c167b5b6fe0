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

# defined beside the table of extras, in a module that imports nothing heavy (the command line's
# help must start without scikit-learn)
from ._extras import MissingExtraError

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
