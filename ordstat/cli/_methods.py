"""The method registry behind the command line: name -> how to build the estimator.

Our methods come from the estimator registry (``ordstat._core.registry``: each estimator's entry
lists its methods); peers from other packages are added when installed (``ordstat.cli._peers``).
Entries are import paths so that ``ordstat --help`` stays fast and optional dependencies are
imported only when used.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module

from .._core.registry import ESTIMATORS, accepts

# name: (module:Class, keyword arguments, one-line description)
METHODS = {name: (f"{entry.module}:{entry.name}", kwargs, description)
           for entry in ESTIMATORS for name, (kwargs, description) in entry.methods.items()}


@cache
def accepts_table():
    """``{method: what it takes beyond complete numeric predictors}`` ("categorical" string or
    Categorical columns as they are, "missing" NaN in X, "discrete" every column as
    categories), read from each estimator's tags (``ordstat._core.registry.accepts``); read by
    ``ordstat compare``. Peers are given numeric columns and complete units."""
    return {name: frozenset() if name.startswith("peer:") else accepts(make_method(name))
            for name in METHODS}


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
