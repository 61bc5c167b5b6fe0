"""The dependent K-sample design of Archer & Mas (2009, section 5): several split criteria
bagged on the *same* bootstrap samples, each tree scored on its own out-of-bag units."""

from __future__ import annotations

import pandas as pd

from ..trees import OrdinalTreeClassifier
from ..trees.criteria import get_criterion
from ..ensemble._bagging import OrdinalBaggingClassifier

__all__ = ["bagged_criteria_oob"]

#: the five criteria of the paper, under the names of its tables. Its "Linear cost" and
#: "Quadratic cost" trees were grown by rpart with a loss matrix (``parms = list(loss = L)``:
#: altered priors, then Gini; the paper's section 5 cites rpart for them and wrote its own
#: functions only for the ordinal impurity and ordered twoing), read here as "loss_linear" and
#: "loss_quadratic". Its eq. 9 taken literally is "gini_linear" / "gini_quadratic" (proportional
#: to the ordinal impurity for linear costs); pass them in ``criteria`` to compare.
PAPER_CRITERIA = {"Gini": "gini", "Linear cost": "loss_linear",
                  "Quadratic cost": "loss_quadratic", "Ordinal": "ordinal",
                  "Ordered Twoing": "twoing"}

#: criteria whose trees the paper labelled by least expected loss (rpart with a loss matrix;
#: "loss_matrix" is the name of ``criteria.loss_matrix_gini(L)`` for a user matrix)
_COST_LEAVES = frozenset({"loss_linear", "loss_quadratic", "loss_matrix"})
_LEAF_RULES = ("mode", "median", "cost")


def _leaf_rule_for(criterion, leaf_rule):
    """The leaf rule of one criterion: the given one, or as the paper ran it when None."""
    if leaf_rule is not None:
        return leaf_rule
    if get_criterion(criterion).name in _COST_LEAVES:
        return "cost"
    return "mode"


def bagged_criteria_oob(X, y, criteria=None, n_estimators=100, min_split=5, cp=0.0,
                        random_state=None, n_jobs=None, classes=None, leaf_rule=None,
                        min_bucket=None):
    """Bag unpruned trees grown with each criterion on the same bootstrap samples and return
    every tree's out-of-bag misclassification and gamma in the tidy layout of
    :func:`ordstat.model_selection.evaluate` (one "split" per bootstrap sample), ready for
    :func:`ordstat.model_selection.compare_methods` (Friedman and pairwise Wilcoxon tests).

    Parameters
    ----------
    X, y : the learning set
    criteria : dict, optional
        ``{label: criterion}``; default the paper's five (:data:`PAPER_CRITERIA`: Gini, rpart's
        linear and quadratic loss matrices, ordinal impurity, ordered twoing). The literal
        eq. 9 of the paper (generalized Gini) is ``"gini_linear"`` / ``"gini_quadratic"``.
    n_estimators : int, default=100
        B, the number of bootstrap samples.
    min_split : int, default=5
        rpart's ``minsplit`` (the paper's 5, so leaves hold at least 2 units).
    cp : float, default=0
        Complexity parameter of the unpruned trees.
    random_state : None or int
        One seed for all criteria, hence identical bootstrap samples.
    n_jobs : int, optional
    classes : sequence, optional
    leaf_rule : {"mode", "median", "cost"} or None, default=None
        The trees' ``leaf_rule`` (the class of a leaf, and the risk behind ``cp``). None: per
        criterion as the paper ran it, ``"cost"`` (least expected loss, rpart with a loss
        matrix) for ``"loss_linear"``, ``"loss_quadratic"`` and ``criteria.loss_matrix_gini(L)``,
        ``"mode"`` otherwise. A string
        applies to every criterion (``"cost"`` needs criteria with a cost matrix).
    min_bucket : int or None, default=None
        rpart's ``minbucket``; None gives its default ``round(min_split / 3)`` (at least 1).

    Returns
    -------
    results : pandas.DataFrame
        Columns ``split``, ``method``, ``metric`` ("misclassification" or "gamma"),
        ``value``, ``n_oob``.
    fits : dict
        ``{label: fitted OrdinalBaggingClassifier}``.

    References
    ----------
    Archer, K. J. & Mas, V. R. (2009). Ordinal response prediction using bootstrap
    aggregation, with application to a high-throughput methylation data set, section 5,
    Tables I-II. Therneau, T. M. & Atkinson, E. J. An introduction to recursive partitioning
    using the RPART routines (altered priors and loss matrices).
    """
    if leaf_rule is not None and leaf_rule not in _LEAF_RULES:
        raise ValueError(f"leaf_rule must be None or one of {list(_LEAF_RULES)}; "
                         f"got {leaf_rule!r}.")
    criteria = dict(PAPER_CRITERIA if criteria is None else criteria)
    frames, fits = [], {}
    for label, criterion in criteria.items():
        tree = OrdinalTreeClassifier(criterion=criterion, min_split=min_split,
                                     min_bucket=min_bucket, cp=cp, xval=0,
                                     leaf_rule=_leaf_rule_for(criterion, leaf_rule))
        bag = OrdinalBaggingClassifier(tree, n_estimators=n_estimators, random_state=random_state,
                                       n_jobs=n_jobs, classes=classes).fit(X, y)
        fits[label] = bag
        per = bag.oob_per_estimator_
        for metric in ("misclassification", "gamma"):
            frames.append(pd.DataFrame({"split": per["estimator"], "method": label,
                                        "metric": metric, "value": per[metric],
                                        "n_oob": per["n_oob"]}))
    return pd.concat(frames, ignore_index=True), fits
