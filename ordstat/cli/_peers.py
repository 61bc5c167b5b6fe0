"""Peer methods from other packages, for benchmarks and comparisons (optional extras).

Each entry of :data:`PEERS` is registered in the command line's method registry under the
``peer:`` prefix when the package it needs can be found (without importing it); otherwise
:func:`missing_peer_message` says what to install. None of these is a runtime dependency of
ordstat.

- ``peer:svorim``: support vector ordinal regression with implicit constraints (Chu & Keerthi
  2007), skordinal's ``SVOR(constraints="implicit")``, the method Waegeman & Boullart (2006),
  "An ensemble of weighted support vector machines for ordinal regression", compare against.
- ``peer:frank_hall``: Frank & Hall's decomposition (skordinal's ``OrdinalDecomposition``) with
  entropy trees, another package's reading of the dissertation "Ensemble methods for ordinal
  data classification" (Table 4.2, Frank & Hall with C4.5; ordstat's own is
  ``FrankHallClassifier(C45Classifier())``).
- ``peer:mord_at`` / ``peer:mord_it``: mord's all-threshold and immediate-threshold logistic
  models (Rennie & Srebro 2005), beside our proportional-odds baseline.
- ``peer:cart_entropy``: scikit-learn's CART with the entropy criterion (binary splits, no C4.5
  pruning or multiway categorical splits), beside the method ``c45`` (C4.5 as Weka's J48).
- ``peer:adaboost_samme``: scikit-learn's AdaBoost with stumps, SAMME, the multi-class form of
  AdaBoost.M1.
- ``peer:mass_polr``: R's ``MASS::polr`` (proportional odds) through rpy2.
"""

from __future__ import annotations

from .._extras import MissingExtraError, available

# name: (module:Class, keyword arguments, description, Python module needed, what else it needs)
PEERS = {
    "peer:svorim": ("skordinal.classifiers:SVOR", {"constraints": "implicit"},
                    "SVORIM, skordinal's SVOR with implicit constraints (Chu & Keerthi)",
                    "skordinal", ""),
    "peer:frank_hall": ("ordstat.cli._peer_estimators:frank_hall", {},
                        "Frank & Hall decomposition with entropy trees (skordinal)",
                        "skordinal", ""),
    "peer:mord_at": ("mord:LogisticAT", {}, "mord's all-threshold logistic model", "mord", ""),
    "peer:mord_it": ("mord:LogisticIT", {}, "mord's immediate-threshold logistic model",
                     "mord", ""),
    "peer:cart_entropy": ("sklearn.tree:DecisionTreeClassifier", {"criterion": "entropy"},
                          "scikit-learn CART, entropy (C4.5 itself: c45)", "sklearn", ""),
    "peer:adaboost_samme": ("sklearn.ensemble:AdaBoostClassifier", {},
                            "scikit-learn AdaBoost with stumps (SAMME, AdaBoost.M1's "
                            "multi-class form)", "sklearn", ""),
    "peer:mass_polr": ("ordstat.cli._peer_estimators:MassPolr", {}, "R's MASS::polr through rpy2",
                       "rpy2", "the R package MASS"),
}


def available_peers():
    """The :data:`PEERS` whose package can be found, as method-registry entries."""
    return {name: (target, kwargs, description)
            for name, (target, kwargs, description, module, _) in PEERS.items()
            if available(module)}


def missing_peer_message(name):
    """Why a known peer method cannot be used, or None if ``name`` is not a peer."""
    if name not in PEERS:
        return None
    _, _, _, module, also = PEERS[name]
    message = str(MissingExtraError(module, f"method {name}"))
    return f"{message}; it also needs {also}" if also else message
