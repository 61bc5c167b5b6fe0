"""ordstat: classification into ordered categories and combination of classifiers.

Public names are imported lazily (on first use), so that ``import ordstat`` and the ``ordstat``
command start fast.
"""

from importlib import import_module
from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("ordstat")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"

# public name -> module that defines it
_EXPORTS = {
    "ProportionalOddsClassifier": "ordstat.baseline",
    "FullMultinomial": "ordstat.discrete",
    "IndependenceModel": "ordstat.discrete",
    "KernelMultinomial": "ordstat.discrete",
    "affinity": "ordstat.discrete",
    "class_union_affinity": "ordstat.discrete",
    "OrdinalTreeClassifier": "ordstat.trees",
    "EDDA": "ordstat.gaussian",
    "ConvergenceWarning": "ordstat.exceptions",
    "NearSingularWarning": "ordstat.exceptions",
    "ManyCategoriesWarning": "ordstat.exceptions",
    "OrderGuessWarning": "ordstat.exceptions",
    "ZeroDensityWarning": "ordstat.exceptions",
    "SerialCombiner": "ordstat.combine",
    "diverse_models": "ordstat.combine",
    "serial_loo_error": "ordstat.combine",
    "HierarchicalCoupling": "ordstat.combine.hierarchical",
    "OrdinalBaggingClassifier": "ordstat.ensemble",
    "OrdinalRandomForestClassifier": "ordstat.ensemble",
    "OrdinalBoostingClassifier": "ordstat.ensemble",
    "FixedSplitBaggingClassifier": "ordstat.ensemble",
    "FrankHallClassifier": "ordstat.decomposition",
    "DataReplicationClassifier": "ordstat.decomposition",
    "ReplicatedTreeClassifier": "ordstat.decomposition",
    "OrdinalStumpBoost": "ordstat.decomposition",
    "AdaBoostOR": "ordstat.decomposition",
    "WeightedSVMEnsemble": "ordstat.decomposition",
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
