"""One spelling of each metric and split criterion, and the other spellings accepted for it.

These tables are the only place where names are resolved: ``ordstat.metrics.get_metric``,
``evaluate``/``compare_methods``, the ``ordstat`` command, ``OrdinalTreeClassifier(criterion=)``
and the R package (which asks Python, or checks its own copy of the criterion table against
this one in its tests) all go through :func:`metric_name` and :func:`criterion_name`.

Matching ignores case, surrounding blanks, and ``-`` or a space in place of ``_``. This module
imports nothing heavy, so that the command line can list the names without loading numpy.
"""

from __future__ import annotations

#: Canonical metric names, in the order results are reported, with a one-line description.
METRIC_NAMES = {
    "misclassification": "misclassification rate, (1/n) sum 1{y != yhat}",
    "mean_absolute": "mean absolute distance between class ranks, (1/n) sum |r(y) - r(yhat)|",
    "mean_squared": "mean squared distance between class ranks, (1/n) sum (r(y) - r(yhat))^2",
    "gamma": "Goodman-Kruskal gamma between true and predicted classes, (C - D) / (C + D)",
}

#: Other accepted metric spellings: the function names of ``ordstat.metrics``, the names of
#: Tutz & Hechenbichler (2003), section 4.1 ("mean abs", "mean squ"), and common abbreviations.
METRIC_ALIASES = {
    "misclassification_rate": "misclassification",
    "error": "misclassification",
    "error_rate": "misclassification",
    "mean_absolute_distance": "mean_absolute",
    "mean_abs": "mean_absolute",
    "mae": "mean_absolute",
    "mean_squared_distance": "mean_squared",
    "mean_squ": "mean_squared",
    "mse": "mean_squared",
    "goodman_kruskal_gamma": "gamma",
    "gk_gamma": "gamma",
}

#: Canonical names of the built-in split criteria (``ordstat.trees.criteria.CRITERIA``).
CRITERION_NAMES = {
    "ordinal": "ordinal impurity (Piccarreta 2008), sum_g F(g) (1 - F(g))",
    "twoing": "ordered twoing, max_r pL pR (F_L(r) - F_R(r))^2",
    "gini": "Gini impurity, 1 - sum_g p(g)^2",
    "entropy": "entropy, -sum_g p(g) log p(g) (alias deviance: 2 n times it, same splits)",
    "gini_linear": "generalized Gini impurity, linear cost |g - h|",
    "gini_quadratic": "generalized Gini impurity, quadratic cost (g - h)^2",
    "loss_linear": "rpart's loss matrix (altered priors, then Gini), linear loss |g - h|",
    "loss_quadratic": "rpart's loss matrix (altered priors, then Gini), quadratic loss (g - h)^2",
}

#: Other accepted criterion spellings. The R package keeps a copy (``r_bridge/R/aliases.R``),
#: because ``ordinal_split()`` works without Python; a test checks that both tables are the same.
#: "deviance" (the nominal trees of Tutz & Hechenbichler 2003, section 4.1) is the entropy:
#: a node's deviance -2 sum_g n_g log(n_g / n) is 2 n times its entropy impurity, so every
#: split's decrease of deviance is twice its entropy goodness and the same split wins.
CRITERION_ALIASES = {
    "linear": "gini_linear",
    "quadratic": "gini_quadratic",
    "generalized_gini_linear": "gini_linear",
    "generalized_gini_quadratic": "gini_quadratic",
    "ordinal_impurity": "ordinal",
    "ordered_twoing": "twoing",
    "deviance": "entropy",
    "rpart_linear": "loss_linear",
    "rpart_quadratic": "loss_quadratic",
}


def normalize(name):
    """The lookup key of a spelling: lower case, blanks trimmed, ``-`` and spaces as ``_``."""
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def _choices(canonical, aliases):
    alias_text = ", ".join(f"{a} (= {c})" for a, c in aliases.items())
    return f"{', '.join(canonical)}; also accepted: {alias_text}"


def _resolve(name, canonical, aliases, what, argument):
    where = f" (argument {argument})" if argument else ""
    if not isinstance(name, str):
        raise TypeError(f"{argument or what} must be a string naming a {what}, one of "
                        f"{', '.join(canonical)}; got {type(name).__name__}.")
    key = normalize(name)
    key = aliases.get(key, key)
    if key not in canonical:
        raise ValueError(f"unknown {what} {name!r}{where}; choose from "
                         f"{_choices(canonical, aliases)}.")
    return key


def metric_name(name, argument=None):
    """The canonical name of a metric given any accepted spelling.

    ``ValueError`` (``TypeError`` for a non-string) naming ``argument`` and listing the names
    and aliases otherwise.
    """
    return _resolve(name, METRIC_NAMES, METRIC_ALIASES, "metric", argument)


def criterion_name(name, argument=None):
    """The canonical name of a built-in split criterion given any accepted spelling."""
    return _resolve(name, CRITERION_NAMES, CRITERION_ALIASES, "criterion", argument)
