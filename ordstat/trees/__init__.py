"""Ordinal classification trees (paper 003): split criteria, rpart-style growth and
cost-complexity pruning."""

from . import criteria
from ._builder import Tree
from ._classes import OrdinalTreeClassifier
from .criteria import CRITERIA, register_criterion

__all__ = ["OrdinalTreeClassifier", "Tree", "criteria", "CRITERIA", "register_criterion"]
