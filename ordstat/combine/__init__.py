"""Combining classifiers: serial (convex) combinations and the choice of models to combine.

Brito, Celeux & Sousa Ferreira (2006), "Combining methods in supervised classification: a
comparative study on discrete and continuous problems", sections 3 and 5.1.
"""

from .serial import SerialCombiner, SerialSummary, committee_weights, serial_loo_error

__all__ = ["SerialCombiner", "SerialSummary", "committee_weights", "serial_loo_error"]
