"""Ordinal decompositions into K-1 binary replicas Y > C_k: Frank & Hall, data replication, the
replicated ordinal tree (oDT), ordinal boosting (oAdaBoost, AdaBoost.OR) and the weighted SVM
ensemble."""

from ._boosting import AdaBoostOR, OrdinalStumpBoost
from ._frank_hall import DataReplicationClassifier, FrankHallClassifier
from ._odt import ReplicatedTreeClassifier
from ._replicas import (
    REPLICA_RULES,
    frank_hall_proba,
    get_replica_rule,
    register_replica_rule,
)
from ._replica_search import replica_threshold_search
from ._svm import WeightedSVMEnsemble, svm_grid_search, waegeman_weights

__all__ = [
    "FrankHallClassifier",
    "DataReplicationClassifier",
    "ReplicatedTreeClassifier",
    "OrdinalStumpBoost",
    "AdaBoostOR",
    "WeightedSVMEnsemble",
    "svm_grid_search",
    "waegeman_weights",
    "REPLICA_RULES",
    "register_replica_rule",
    "get_replica_rule",
    "frank_hall_proba",
    "replica_threshold_search",
]
