"""Combining classifiers: serial (convex) combinations, the choice of models to combine, and
hierarchical coupling (a tree of class dichotomies).

Brito, Celeux & Sousa Ferreira (2006), "Combining methods in supervised classification: a
comparative study on discrete and continuous problems", sections 3, 4 and 5.
"""

from .diverse import ModelChoice, correspondence_coordinates, diverse_models
from .hierarchical import HierarchicalCoupling
from .serial import SerialCombiner, committee_weights, serial_loo_error

__all__ = ["HierarchicalCoupling", "SerialCombiner", "ModelChoice", "committee_weights",
           "correspondence_coordinates", "diverse_models", "serial_loo_error"]
