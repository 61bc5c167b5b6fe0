"""Ordinal classification trees (Archer & Mas 2009, "Ordinal response prediction using bootstrap
aggregation, with application to a high-throughput methylation data set"): split criteria,
rpart-style growth and cost-complexity pruning; and C4.5 as Weka's J48 (Quinlan 1993, 1996)."""

from . import criteria
from ._tree import Tree
from ._classes import OrdinalTreeClassifier
from ._c45 import C45Classifier
from .criteria import CRITERIA, Criterion, register_criterion

__all__ = ["OrdinalTreeClassifier", "C45Classifier", "Tree", "criteria", "CRITERIA", "Criterion",
           "register_criterion"]
