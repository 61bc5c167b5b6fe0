"""Text rendering of a fitted tree in the layout of rpart's ``print``:
``node), split, n, loss, yval, (yprob)``, one line per node, indented by depth, ``*`` at leaves.
A numeric split that learned where missing values go says so (``x< 3.5 or NA``); one that
sends them by the majority rule is printed as rpart prints it. A split of an ordered
Categorical (cut on its codes) is printed by its categories: ``edu<=primary`` on the left,
``edu>=secondary`` on the right (the last category sent left, the first sent right). A split
of an unordered one names on each side only the categories present in the node at fitting,
as rpart does (``Tree.present_categories``). The nodes keep the tree's order and numbers
(``x < c`` first), unlike the R view of :func:`ordstat.r.to_rpart`, which orders the children
as rpart does.
"""

from __future__ import annotations

import numpy as np

__all__ = ["tree_to_text", "estimator_split_labels", "category_levels"]


def _fmt(x, digits):
    return f"{x:.{digits}g}"


def _split_labels(tree, feature_names, category_names, digits, ordered=None):
    """Label of the edge into each node ("root" for node 0). ``ordered``: ``{feature index:
    categories}`` of ordered Categoricals, split on their codes and labelled by their
    categories (``edu<=primary`` / ``edu>=secondary``)."""
    ordered = ordered or {}
    labels = np.empty(tree.n_nodes, dtype=object)
    labels[0] = "root"
    for v in np.flatnonzero(tree.children_left >= 0):
        name = feature_names[tree.feature[v]]
        left, right = tree.children_left[v], tree.children_right[v]
        cats = tree.left_categories[v]
        levels = ordered.get(int(tree.feature[v]))
        if cats is None and levels is not None:
            labels[left], labels[right] = _ordered_labels(name, tree.threshold[v], levels)
            if tree.missing_learned[v]:
                labels[left if tree.missing_left[v] else right] += " or NA"
        elif cats is None:
            thr = _fmt(tree.threshold[v], digits)
            labels[left] = f"{name}< {thr}"
            labels[right] = f"{name}>={thr}"
            if tree.missing_learned[v]:  # a side learned from missing values is shown
                labels[left if tree.missing_left[v] else right] += " or NA"
        else:
            levels = category_names.get(int(tree.feature[v]))
            n_cat = len(levels) if levels is not None else int(max(cats.max(initial=0) + 1, 1))
            go_left = np.zeros(n_cat, dtype=bool)
            go_left[cats[cats < n_cat]] = True
            names = (list(map(str, levels)) if levels is not None
                     else [str(c) for c in range(n_cat)])
            shown = _present(tree, v, n_cat)
            labels[left] = f"{name}=" + ",".join(
                n for n, g, s in zip(names, go_left, shown) if g and s)
            labels[right] = f"{name}=" + ",".join(
                n for n, g, s in zip(names, go_left, shown) if s and not g)
    return labels


def _present(tree, v, n_cat):
    """(n_cat,) bool: the categories present in node ``v`` at fitting (all where unknown).
    Only they are named on either side, as rpart prints a factor split (a category absent from
    the node goes where the tree's rule sends it, but naming it would suggest data)."""
    codes = tree.present_categories[v] if tree.present_categories is not None else None
    if codes is None:
        return np.ones(n_cat, dtype=bool)
    shown = np.zeros(n_cat, dtype=bool)
    shown[codes[codes < n_cat]] = True
    return shown


def _ordered_labels(name, threshold, levels):
    """The two sides of a cut of an ordered Categorical's codes (``code < threshold`` goes
    left): the last category on the left and the first on the right."""
    first_right = int(np.ceil(threshold))  # codes are whole: code < t iff code < ceil(t)
    low = str(levels[min(max(first_right - 1, 0), len(levels) - 1)])
    high = str(levels[min(max(first_right, 0), len(levels) - 1)])
    return f"{name}<={low}", f"{name}>={high}"


def category_levels(estimator):
    """(nominal, ordered) ``{feature index: categories}`` of a fitted OrdinalTreeClassifier
    for printing: nominal columns with "NA" last where missing values are a category of
    their own."""
    missing = getattr(estimator, "_missing_category", set())
    nominal = {j: list(cats) + (["NA"] if j in missing else [])
               for j, cats in getattr(estimator, "categories_", {}).items()}
    return nominal, getattr(estimator, "_ordered_categories", {})


def estimator_split_labels(estimator, feature_names, digits):
    """:func:`_split_labels` of a fitted OrdinalTreeClassifier, its categorical columns
    labelled by their categories (:func:`category_levels`)."""
    nominal, ordered = category_levels(estimator)
    return _split_labels(estimator.tree_, [str(n) for n in feature_names], nominal, digits,
                         ordered)


def tree_to_text(tree, classes, feature_names, category_names=None, digits=4, ordered=None):
    """rpart-like printout of ``tree``.

    Parameters
    ----------
    tree : Tree
    classes : array-like of shape (K,)
        Class labels in ordinal order.
    feature_names : sequence of str
    category_names : dict, optional
        ``{feature index: categories}`` for categorical features.
    digits : int, default=4
        Significant digits of split points and losses.
    ordered : dict, optional
        ``{feature index: categories}`` for ordered Categoricals (split on their codes,
        printed by their categories).

    Returns
    -------
    str
    """
    category_names = category_names or {}
    labels = _split_labels(tree, list(map(str, feature_names)), category_names, digits,
                           ordered)
    total = tree.weighted_n_node_samples
    proba = tree.value / np.where(total > 0, total, 1.0)[:, None]
    lines = [
        f"n= {int(tree.n_node_samples[0])} ",
        "",
        "node), split, n, loss, yval, (yprob)",
        "      * denotes terminal node",
        "",
    ]
    for v in range(tree.n_nodes):
        indent = "  " * int(tree.depth[v])
        probs = " ".join(f"{p:.8f}" for p in proba[v])
        leaf = " *" if tree.children_left[v] < 0 else ""
        lines.append(
            f"{indent}{tree.node_number[v]}) {labels[v]} {tree.n_node_samples[v]} "
            f"{_fmt(tree.risk[v], digits)} {classes[tree.yval[v]]} ({probs}){leaf}"
        )
    return "\n".join(lines) + "\n"
