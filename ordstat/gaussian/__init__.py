"""Gaussian discriminant analysis with the 14 EDDA covariance models (Bensmail & Celeux 1996;
Brito, Celeux & Sousa Ferreira 2006, section 2).
"""

from ..exceptions import ConvergenceWarning
from ._edda import EDDA
from ._models import MODELS, PAPER_NAMES, n_covariance_parameters

__all__ = ["EDDA", "ConvergenceWarning", "MODELS", "PAPER_NAMES", "n_covariance_parameters"]
