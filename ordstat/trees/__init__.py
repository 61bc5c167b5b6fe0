"""Ordinal classification trees (Archer & Mas 2009, "Ordinal response prediction using bootstrap
aggregation, with application to a high-throughput methylation data set"): split criteria,
rpart-style growth and cost-complexity pruning."""

from . import criteria
from ._tree import Tree
from ._classes import OrdinalTreeClassifier
from .criteria import CRITERIA, Criterion, register_criterion

__all__ = ["OrdinalTreeClassifier", "Tree", "criteria", "CRITERIA", "Criterion",
           "register_criterion"]
