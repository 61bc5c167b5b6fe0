"""Ordinal ensembles: bagged ordinal trees and random forests with out-of-bag error and gamma,
fixed-split bagging, and the boosting family of Tutz & Hechenbichler (2003)."""

from ._bagging import OrdinalBaggingClassifier, OrdinalRandomForestClassifier
from ._boosting import OrdinalBoostingClassifier
from ._experiments import bagged_criteria_oob
from ._fixed_split import FixedSplitBaggingClassifier

__all__ = ["OrdinalBaggingClassifier", "OrdinalRandomForestClassifier",
           "OrdinalBoostingClassifier", "FixedSplitBaggingClassifier",
           "bagged_criteria_oob"]
