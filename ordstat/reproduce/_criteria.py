"""The dependent K-sample design of Archer & Mas (2009, section 5): several split criteria
bagged on the *same* bootstrap samples, each tree scored on its own out-of-bag units."""

from __future__ import annotations

import pandas as pd

from ..trees import OrdinalTreeClassifier
from ..ensemble._bagging import OrdinalBaggingClassifier

__all__ = ["bagged_criteria_oob"]

#: the five criteria of the paper, under the names of its tables
PAPER_CRITERIA = {"Gini": "gini", "Linear cost": "gini_linear",
                  "Quadratic cost": "gini_quadratic", "Ordinal": "ordinal",
                  "Ordered Twoing": "twoing"}


def bagged_criteria_oob(X, y, criteria=None, n_estimators=100, min_split=5, cp=0.0,
                        random_state=None, n_jobs=None, classes=None):
    """Bag unpruned trees grown with each criterion on the same bootstrap samples and return
    every tree's out-of-bag misclassification and gamma in the tidy layout of
    :func:`ordstat.model_selection.evaluate` (one "split" per bootstrap sample), ready for
    :func:`ordstat.model_selection.compare_methods` (Friedman and pairwise Wilcoxon tests).

    Parameters
    ----------
    X, y : the learning set
    criteria : dict, optional
        ``{label: criterion}``; default the paper's five (Gini, generalized Gini with linear
        and quadratic costs, ordinal impurity, ordered twoing).
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
    Tables I-II.
    """
    criteria = dict(PAPER_CRITERIA if criteria is None else criteria)
    frames, fits = [], {}
    for label, criterion in criteria.items():
        tree = OrdinalTreeClassifier(criterion=criterion, min_split=min_split, cp=cp, xval=0)
        bag = OrdinalBaggingClassifier(tree, n_estimators=n_estimators, random_state=random_state,
                                       n_jobs=n_jobs, classes=classes).fit(X, y)
        fits[label] = bag
        per = bag.oob_per_estimator_
        for metric in ("misclassification", "gamma"):
            frames.append(pd.DataFrame({"split": per["estimator"], "method": label,
                                        "metric": metric, "value": per[metric],
                                        "n_oob": per["n_oob"]}))
    return pd.concat(frames, ignore_index=True), fits
