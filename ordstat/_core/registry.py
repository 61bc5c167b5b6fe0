"""The one list of ordstat's public estimators, from which every other list derives.

Each :class:`Entry` names an estimator class and the module that exports it, the methods of the
``ordstat`` command built from it, and its kind in the R package (``ordstat.r._rside``). The
package's exports (``ordstat.__init__``), the command line's method registry
(``ordstat.cli._methods``), the R package's estimator kinds and the estimators that
``tests/test_common.py`` runs scikit-learn's checks on are all read from :data:`ESTIMATORS`;
what a method takes beyond complete numeric predictors is read from the estimator's own
scikit-learn tags (:func:`accepts`). Adding an estimator is one entry here.

Entries hold import paths, not classes, so that ``import ordstat`` and ``ordstat --help`` stay
fast; :func:`estimator_class` imports on use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module

__all__ = ["Entry", "ESTIMATORS", "by_name", "estimator_class", "accepts", "taking"]


@dataclass(frozen=True)
class Entry:
    """One public estimator.

    Attributes
    ----------
    name : str
        The class name, exported from ``ordstat``.
    module : str
        The public module that exports the class.
    methods : dict
        The command line's methods built from it: ``{method name: (keyword arguments, one-line
        description)}``.
    r_kind : str or None
        Its name in the R package's ``ordstat.r._rside`` (the string the R wrappers pass), or
        None when the R package does not wrap it; ``r_note`` then says why.
    r_note : str
    """

    name: str
    module: str
    methods: dict = field(default_factory=dict)
    r_kind: str | None = None
    r_note: str = ""


ESTIMATORS = (
    Entry("ProportionalOddsClassifier", "ordstat.baseline",
          methods={"polr": ({}, "proportional odds (cumulative logit)"),
                   "polr_probit": ({"link": "probit"}, "cumulative probit")},
          r_note="R has MASS::polr and ordinal::clm"),
    Entry("FullMultinomial", "ordstat.discrete", r_kind="fmm",
          methods={"fmm": ({}, "full multinomial model (FMM)")}),
    Entry("IndependenceModel", "ordstat.discrete", r_kind="foim",
          methods={"foim": ({}, "first-order independence model (FOIM)")}),
    Entry("KernelMultinomial", "ordstat.discrete", r_kind="kernel",
          methods={"kernel": ({}, "kernel-smoothed multinomial (KERNEL)")}),
    Entry("OrdinalTreeClassifier", "ordstat.trees", r_kind="tree",
          # a tree method is "tree_" + its criterion's name (ordstat._core.names); "tree" is
          # the ordinal impurity
          methods={"tree": ({"criterion": "ordinal"},
                            "rpart-style tree, ordinal impurity (Archer & Mas 2009)"),
                   "tree_gini": ({"criterion": "gini"}, "rpart-style tree, Gini"),
                   "tree_twoing": ({"criterion": "twoing"}, "rpart-style tree, ordered twoing"),
                   "tree_gini_linear": ({"criterion": "gini_linear"},
                                        "rpart-style tree, generalized Gini, linear cost"),
                   "tree_gini_quadratic": ({"criterion": "gini_quadratic"},
                                           "rpart-style tree, generalized Gini, quadratic cost"),
                   "tree_loss_linear": ({"criterion": "loss_linear", "leaf_rule": "cost"},
                                        "rpart-style tree, rpart's linear loss matrix"),
                   "tree_loss_quadratic": ({"criterion": "loss_quadratic", "leaf_rule": "cost"},
                                           "rpart-style tree, rpart's quadratic loss matrix"),
                   "tree_entropy": ({"criterion": "entropy"}, "rpart-style tree, entropy")}),
    Entry("C45Classifier", "ordstat.trees", r_kind="c45",
          methods={"c45": ({}, "C4.5 release 8 as Weka's J48: gain ratio, pessimistic pruning "
                               "(Quinlan 1993, 1996)")}),
    Entry("EDDA", "ordstat.gaussian", r_kind="edda",
          methods={"edda": ({"model": "all", "select": "loo"},
                            "Gaussian EDDA, 14 covariance models, chosen by leave-one-out "
                            "error")}),
    Entry("SerialCombiner", "ordstat.combine", r_kind="serial",
          methods={"committee_edda": ({"estimators": "edda", "n_models": 2},
                                      "committee of methods: the two most different EDDA "
                                      "models"),
                   "bic_edda": ({"estimators": "edda", "method": "bic"},
                                "BIC-weighted combination of the 14 EDDA models")}),
    Entry("HierarchicalCoupling", "ordstat.combine.hierarchical", r_kind="coupling",
          methods={"hierarchical": ({"candidates": "edda"},
                                    "hierarchical coupling of the 14 EDDA models, "
                                    "leave-one-out partitions")}),
    Entry("OrdinalBaggingClassifier", "ordstat.ensemble", r_kind="bagging",
          methods={"bagging": ({}, "bagged unpruned ordinal trees, out-of-bag error and gamma "
                                   "(Archer & Mas 2009)")}),
    Entry("OrdinalRandomForestClassifier", "ordstat.ensemble", r_kind="forest",
          methods={"forest": ({}, "random forest of ordinal trees, median vote")}),
    Entry("FixedSplitBaggingClassifier", "ordstat.ensemble", r_kind="fixed_split_bagging",
          methods={"fixed_split_bagging": ({}, "bagging of the K-1 dichotomies, eq. (2) "
                                               "(Tutz & Hechenbichler)")}),
    Entry("OrdinalBoostingClassifier", "ordstat.ensemble", r_kind="boosting",
          methods={"boost_discrete": ({"variant": "discrete"},
                                      "nominal Discrete AdaBoost, k-class correction"),
                   "boost_real": ({"variant": "real"}, "nominal Real AdaBoost"),
                   "boost_fixed_split": ({"variant": "fixed_split_discrete"},
                                         "fixed-split Discrete AdaBoost (Tutz & Hechenbichler)"),
                   "boost_ordinal": ({"variant": "ordinal_discrete"},
                                     "Ordinal Discrete AdaBoost, distance error (Tutz & "
                                     "Hechenbichler)"),
                   "boost_ordinal_real": ({"variant": "ordinal_real"},
                                          "Ordinal Real AdaBoost (Tutz & Hechenbichler)")}),
    Entry("FrankHallClassifier", "ordstat.decomposition", r_kind="frank_hall",
          methods={"frank_hall": ({}, "Frank & Hall: K-1 binary logistic models, probabilities "
                                      "by differences")}),
    Entry("DataReplicationClassifier", "ordstat.decomposition", r_kind="data_replication",
          methods={"data_replication": ({}, "data replication method, logistic regression "
                                            "(parallel boundaries)")}),
    Entry("ReplicatedTreeClassifier", "ordstat.decomposition", r_kind="odt",
          methods={"odt": ({}, "oDT: replicated ordinal tree, K-1 thresholds per node")}),
    Entry("OrdinalStumpBoost", "ordstat.decomposition", r_kind="oadaboost",
          methods={"oadaboost": ({}, "oAdaBoost: boosted stumps on the replicas, shared "
                                     "attribute per round")}),
    Entry("AdaBoostOR", "ordstat.decomposition", r_kind="adaboost_or",
          methods={"adaboost_or": ({}, "AdaBoost.OR: cost-vector boosting of one-cut oDTs, "
                                       "weighted median")}),
    Entry("WeightedSVMEnsemble", "ordstat.decomposition", r_kind="weighted_svm",
          methods={"wsvm": ({}, "ensemble of K-1 weighted RBF SVMs (Waegeman & Boullart)")}),
)

_BY_NAME = {entry.name: entry for entry in ESTIMATORS}


def by_name(name):
    """The entry of the estimator class called ``name``."""
    return _BY_NAME[name]


def estimator_class(entry):
    """The class of an entry (imported on first use)."""
    return getattr(import_module(entry.module), entry.name)


def accepts(estimator):
    """What an estimator takes beyond complete numeric predictors, read from its scikit-learn
    tags: "missing" (NaN in X, tag ``allow_nan``), "categorical" (string or Categorical
    columns as they are, tag ``categorical``) and "discrete" (every column taken as categories,
    numbers too, tag ``string``: it takes any value as a category)."""
    from sklearn.utils import get_tags

    tags = get_tags(estimator).input_tags
    kinds = set()
    if tags.allow_nan:
        kinds.add("missing")
    if tags.categorical:
        kinds.add("categorical")
    if tags.string:
        kinds.add("discrete")
    return frozenset(kinds)


def taking(kind):
    """The names of the estimators that, as their first command-line method builds them, accept
    ``kind`` ("missing", "categorical" or "discrete"; see :func:`accepts`), for messages."""
    def first_method(entry):
        kwargs, _ = next(iter(entry.methods.values()))
        return estimator_class(entry)(**kwargs)

    return [entry.name for entry in ESTIMATORS if kind in accepts(first_method(entry))]
