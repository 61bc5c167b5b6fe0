"""The method registry behind the command line: name -> how to build the estimator.

Each later issue adds its estimators here (one line each). Entries are import paths so that
``ordstat --help`` stays fast and optional dependencies are imported only when used.
"""

from __future__ import annotations

from importlib import import_module

# name: (module:Class, keyword arguments, one-line description)
METHODS = {
    "polr": ("ordstat.baseline:ProportionalOddsClassifier", {},
             "proportional odds (cumulative logit)"),
    "polr_probit": ("ordstat.baseline:ProportionalOddsClassifier", {"link": "probit"},
                    "cumulative probit"),
    "fmm": ("ordstat.discrete:FullMultinomial", {}, "full multinomial model (FMM)"),
    "foim": ("ordstat.discrete:IndependenceModel", {}, "first-order independence model (FOIM)"),
    "kernel": ("ordstat.discrete:KernelMultinomial", {}, "kernel-smoothed multinomial (KERNEL)"),
    "tree": ("ordstat.trees:OrdinalTreeClassifier", {"criterion": "ordinal"},
             "rpart-style tree, ordinal impurity (paper 003)"),
    "tree_gini": ("ordstat.trees:OrdinalTreeClassifier", {"criterion": "gini"},
                  "rpart-style tree, Gini"),
    "tree_twoing": ("ordstat.trees:OrdinalTreeClassifier", {"criterion": "twoing"},
                    "rpart-style tree, ordered twoing"),
    "tree_linear": ("ordstat.trees:OrdinalTreeClassifier", {"criterion": "gini_linear"},
                    "rpart-style tree, generalized Gini, linear cost"),
    "tree_quadratic": ("ordstat.trees:OrdinalTreeClassifier", {"criterion": "gini_quadratic"},
                       "rpart-style tree, generalized Gini, quadratic cost"),
    "edda": ("ordstat.gaussian:EDDA", {"model": "all", "select": "loo"},
             "Gaussian EDDA, 14 covariance models, chosen by leave-one-out error"),
}


def make_method(name: str, **overrides):
    """A fresh estimator for a registered method name."""
    if name not in METHODS:
        raise ValueError(f"unknown method {name!r}; choose from {', '.join(sorted(METHODS))}.")
    target, kwargs, _ = METHODS[name]
    module, cls = target.split(":")
    return getattr(import_module(module), cls)(**{**kwargs, **overrides})

# What `ordstat compare` runs when --methods is not given.
DEFAULT_METHODS = ["polr", "tree", "tree_gini", "tree_twoing", "edda"]

# Peer methods from optional packages (skordinal, mord, scikit-learn, R's MASS), when present.
from ._peers import available_peers  # noqa: E402

METHODS.update(available_peers())
