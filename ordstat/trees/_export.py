"""Text rendering of a fitted tree in the layout of rpart's ``print``:
``node), split, n, loss, yval, (yprob)``, one line per node, indented by depth, ``*`` at leaves.
A numeric split that learned where missing values go says so (``x< 3.5 or NA``); one that
sends them by the majority rule is printed as rpart prints it.
"""

from __future__ import annotations

import numpy as np

__all__ = ["tree_to_text"]


def _fmt(x, digits):
    return f"{x:.{digits}g}"


def _split_labels(tree, feature_names, category_names, digits):
    """Label of the edge into each node ("root" for node 0)."""
    labels = np.empty(tree.n_nodes, dtype=object)
    labels[0] = "root"
    for v in np.flatnonzero(tree.children_left >= 0):
        name = feature_names[tree.feature[v]]
        left, right = tree.children_left[v], tree.children_right[v]
        cats = tree.left_categories[v]
        if cats is None:
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
            labels[left] = f"{name}=" + ",".join(n for n, g in zip(names, go_left) if g)
            labels[right] = f"{name}=" + ",".join(n for n, g in zip(names, go_left) if not g)
    return labels


def tree_to_text(tree, classes, feature_names, category_names=None, digits=4):
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

    Returns
    -------
    str
    """
    category_names = category_names or {}
    labels = _split_labels(tree, list(map(str, feature_names)), category_names, digits)
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
