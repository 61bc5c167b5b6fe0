"""ordstat: classification into ordered categories and combination of classifiers."""

from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("ordstat")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"

from .discrete import (FullMultinomial, IndependenceModel, KernelMultinomial, affinity,
                       class_union_affinity)
from .gaussian import EDDA
from .trees import OrdinalTreeClassifier

__all__ = ["__version__", "EDDA", "OrdinalTreeClassifier"]
__all__ += ["FullMultinomial", "IndependenceModel", "KernelMultinomial", "affinity",
            "class_union_affinity"]
