"""ordstat: classification into ordered categories and combination of classifiers.

Public names are imported lazily (on first use), so that ``import ordstat`` and the ``ordstat``
command start fast.
"""

from importlib import import_module

from ._version import __version__
from ._core.registry import ESTIMATORS as _ESTIMATORS

# public name -> module that defines it: the registered estimators, then the other public names
_EXPORTS = {
    **{entry.name: entry.module for entry in _ESTIMATORS},
    "affinity": "ordstat.discrete",
    "class_union_affinity": "ordstat.discrete",
    "ConvergenceWarning": "ordstat.exceptions",
    "NearSingularWarning": "ordstat.exceptions",
    "ManyCategoriesWarning": "ordstat.exceptions",
    "MissingExtraError": "ordstat.exceptions",
    "OrderGuessWarning": "ordstat.exceptions",
    "ZeroDensityWarning": "ordstat.exceptions",
    "diverse_models": "ordstat.combine",
    "serial_loo_error": "ordstat.combine",
    "compile_kernels": "ordstat._compile",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name):
    if name in _EXPORTS:
        value = getattr(import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'ordstat' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))
