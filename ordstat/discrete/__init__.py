"""Discrete discriminant analysis: FMM, FOIM and KERNEL, exact integrated likelihoods, affinity.

Brito, Celeux & Sousa Ferreira (2006), sections 2, 3.2 and 4.
"""

from ._affinity import affinity, class_union_affinity
from ._models import FullMultinomial, IndependenceModel, KernelMultinomial, ZeroDensityWarning

__all__ = [
    "FullMultinomial",
    "IndependenceModel",
    "KernelMultinomial",
    "ZeroDensityWarning",
    "affinity",
    "class_union_affinity",
]
