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
             "rpart-style tree, ordinal impurity (Archer & Mas 2009)"),
    "tree_gini": ("ordstat.trees:OrdinalTreeClassifier", {"criterion": "gini"},
                  "rpart-style tree, Gini"),
    "tree_twoing": ("ordstat.trees:OrdinalTreeClassifier", {"criterion": "twoing"},
                    "rpart-style tree, ordered twoing"),
    "tree_gini_linear": ("ordstat.trees:OrdinalTreeClassifier", {"criterion": "gini_linear"},
                         "rpart-style tree, generalized Gini, linear cost"),
    "tree_gini_quadratic": ("ordstat.trees:OrdinalTreeClassifier",
                            {"criterion": "gini_quadratic"},
                            "rpart-style tree, generalized Gini, quadratic cost"),
    "tree_entropy": ("ordstat.trees:OrdinalTreeClassifier", {"criterion": "entropy"},
                     "rpart-style tree, entropy"),
    "edda": ("ordstat.gaussian:EDDA", {"model": "all", "select": "loo"},
             "Gaussian EDDA, 14 covariance models, chosen by leave-one-out error"),
    "committee_edda": ("ordstat.combine:SerialCombiner", {"estimators": "edda", "n_models": 2},
                       "committee of methods: the two most different EDDA models"),
    "bic_edda": ("ordstat.combine:SerialCombiner", {"estimators": "edda", "method": "bic"},
                 "BIC-weighted combination of the 14 EDDA models"),
    "hierarchical": ("ordstat.combine.hierarchical:HierarchicalCoupling", {"candidates": "edda"},
                     "hierarchical coupling of the 14 EDDA models, leave-one-out partitions"),
    "bagging": ("ordstat.ensemble:OrdinalBaggingClassifier", {},
                "bagged unpruned ordinal trees, out-of-bag error and gamma (Archer & Mas 2009)"),
    "forest": ("ordstat.ensemble:OrdinalRandomForestClassifier", {},
               "random forest of ordinal trees, median vote"),
    "fixed_split_bagging": ("ordstat.ensemble:FixedSplitBaggingClassifier", {},
                            "bagging of the K-1 dichotomies, eq. (2) (Tutz & Hechenbichler)"),
    "boost_discrete": ("ordstat.ensemble:OrdinalBoostingClassifier", {"variant": "discrete"},
                       "nominal Discrete AdaBoost, k-class correction"),
    "boost_real": ("ordstat.ensemble:OrdinalBoostingClassifier", {"variant": "real"},
                   "nominal Real AdaBoost"),
    "boost_fixed_split": ("ordstat.ensemble:OrdinalBoostingClassifier",
                          {"variant": "fixed_split_discrete"},
                          "fixed-split Discrete AdaBoost (Tutz & Hechenbichler)"),
    "boost_ordinal": ("ordstat.ensemble:OrdinalBoostingClassifier",
                      {"variant": "ordinal_discrete"},
                      "Ordinal Discrete AdaBoost, distance error (Tutz & Hechenbichler)"),
    "boost_ordinal_real": ("ordstat.ensemble:OrdinalBoostingClassifier",
                           {"variant": "ordinal_real"},
                           "Ordinal Real AdaBoost (Tutz & Hechenbichler)"),
    "frank_hall": ("ordstat.decomposition:FrankHallClassifier", {},
                   "Frank & Hall: K-1 binary logistic models, probabilities by differences"),
    "data_replication": ("ordstat.decomposition:DataReplicationClassifier", {},
                         "data replication method, logistic regression (parallel boundaries)"),
    "odt": ("ordstat.decomposition:ReplicatedTreeClassifier", {},
            "oDT: replicated ordinal tree, K-1 thresholds per node"),
    "oadaboost": ("ordstat.decomposition:OrdinalStumpBoost", {},
                  "oAdaBoost: boosted stumps on the replicas, shared attribute per round"),
    "adaboost_or": ("ordstat.decomposition:AdaBoostOR", {},
                    "AdaBoost.OR: cost-vector boosting of one-cut oDTs, weighted median"),
    "wsvm": ("ordstat.decomposition:WeightedSVMEnsemble", {},
             "ensemble of K-1 weighted RBF SVMs (Waegeman & Boullart)"),
}


# What a method takes beyond complete numeric predictors, read by `ordstat compare`:
# "categorical" = string or Categorical columns as they are, "missing" = NaN in X, "discrete" =
# every column is taken as categories (numbers too). A method not listed here (peers included)
# is given the numeric columns and the complete units.
_TREE = frozenset({"categorical", "missing"})
_DISCRETE = frozenset({"categorical", "discrete"})
ACCEPTS = {
    "fmm": _DISCRETE,
    "foim": _DISCRETE,
    "kernel": _DISCRETE,
    "tree": _TREE,
    "tree_gini": _TREE,
    "tree_twoing": _TREE,
    "tree_entropy": _TREE,
    "tree_gini_linear": _TREE,
    "tree_gini_quadratic": _TREE,
    # the tree ensembles pass NaN on to their trees
    **{name: frozenset({"missing"}) for name in (
        "bagging", "forest", "fixed_split_bagging", "boost_discrete", "boost_real",
        "boost_fixed_split", "boost_ordinal", "boost_ordinal_real")},
}


def make_method(name: str, **overrides):
    """A fresh estimator for a registered method name (or an alias, see :func:`method_name`)."""
    target, kwargs, _ = METHODS[method_name(name)]
    module, cls = target.split(":")
    return getattr(import_module(module), cls)(**{**kwargs, **overrides})

# What `ordstat compare` runs when --methods is not given.
DEFAULT_METHODS = ["polr", "tree", "tree_gini", "tree_twoing", "edda"]

# Other accepted spellings of method names. A tree method is "tree_" + the canonical name of its
# split criterion (ordstat._core.names), so "tree_" + any alias of a criterion is accepted as well.
METHOD_ALIASES = {"tree_ordinal": "tree", "tree_linear": "tree_gini_linear",
                  "tree_quadratic": "tree_gini_quadratic"}


def method_name(name):
    """The registered name of a method given any accepted spelling (case, "-" for "_",
    :data:`METHOD_ALIASES`, "tree_" + a criterion alias); ``ValueError`` otherwise."""
    from .._core.names import criterion_name, normalize

    if not isinstance(name, str):
        raise TypeError(f"method must be a string; got {type(name).__name__}.")
    if name in METHODS:
        return name
    key = normalize(name)
    key = METHOD_ALIASES.get(key, key)
    if key.startswith("tree_") and key not in METHODS:
        try:
            criterion = criterion_name(key[len("tree_"):])
        except ValueError:
            pass
        else:
            key = "tree" if criterion == "ordinal" else f"tree_{criterion}"
    if key not in METHODS:
        raise ValueError(f"unknown method {name!r}; choose from {', '.join(sorted(METHODS))}.")
    return key


# Peer methods from optional packages (skordinal, mord, scikit-learn, R's MASS), when present.
from ._peers import available_peers  # noqa: E402

METHODS.update(available_peers())
