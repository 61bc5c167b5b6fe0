"""Combining classifiers: serial (convex) combinations and the choice of models to combine.

Brito, Celeux & Sousa Ferreira (2006), "Combining methods in supervised classification: a
comparative study on discrete and continuous problems", sections 3 and 5.1.
"""

from .diverse import ModelChoice, correspondence_coordinates, diverse_models
from .serial import SerialCombiner, SerialSummary, committee_weights, serial_loo_error

__all__ = ["SerialCombiner", "SerialSummary", "ModelChoice", "committee_weights",
           "correspondence_coordinates", "diverse_models", "serial_loo_error"]
