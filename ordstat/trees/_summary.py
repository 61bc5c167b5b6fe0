"""``OrdinalTreeClassifier.summary()``: the cp table, variable importance and a description of
every node (in the spirit of rpart's ``summary.rpart``, Therneau & Atkinson)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._core.summary import Summary, feature_names
from ._export import _ordered_labels, _split_labels, category_levels

__all__ = ["tree_summary", "node_table", "surrogate_table"]


def _fmt(x, digits):
    return f"{x:.{digits}g}"


def node_table(tree, classes, names, categories=None, digits=4, ordered=None):
    """One row per node, in the order of ``tree_`` (depth-first preorder).

    Columns: ``node`` (rpart's node number), ``n`` (units), ``weight``, ``cp`` (complexity /
    root risk: the largest cp at which the split survives pruning; NaN at leaves),
    ``predicted`` (label), ``expected_loss`` (risk / weight: the leaf rule's mean
    loss in the node), ``prob_node`` (weight / root weight), ``split`` (the primary split,
    the condition that sends units LEFT; "" at leaves), ``improvement`` (goodness of split on
    the count scale), ``left`` and ``right`` (node numbers of the children, -1 at leaves).
    ``categories`` / ``ordered``: ``{feature index: categories}`` of the nominal / ordered
    categorical features, whose splits are written with their categories.
    """
    labels = _split_labels(tree, list(map(str, names)), categories or {}, digits, ordered)
    internal = tree.children_left >= 0
    weight = tree.weighted_n_node_samples
    root_risk = tree.risk[0]
    split = np.array([labels[tree.children_left[v]] if internal[v] else ""
                      for v in range(tree.n_nodes)], dtype=object)

    def child_number(children):
        return np.where(internal, tree.node_number[np.maximum(children, 0)], -1)

    return pd.DataFrame({
        "node": tree.node_number,
        "n": tree.n_node_samples,
        "weight": weight,
        "cp": np.where(internal, tree.complexity / (root_risk if root_risk > 0 else 1.0),
                       np.nan),
        "predicted": np.asarray(classes, dtype=object)[tree.yval],
        "expected_loss": tree.risk / np.where(weight > 0, weight, 1.0),
        "prob_node": weight / weight[0],
        "split": split,
        "improvement": tree.improvement,
        "left": child_number(tree.children_left),
        "right": child_number(tree.children_right),
    })


def surrogate_table(tree, names, categories=None, digits=4, ordered=None):
    """One row per surrogate split of a tree grown with ``missing="surrogate"``, in the order
    they are tried: ``node`` (rpart's number), ``feature``, ``split`` (the condition that
    sends units LEFT), ``agree``, ``adj`` (rpart's agreement and adjusted agreement) and
    ``count`` (training units it sent). Empty without surrogates."""
    sur = tree.surrogates
    rows = []
    if sur is not None:
        categories, ordered = categories or {}, ordered or {}
        for v in range(tree.n_nodes):
            for e in range(sur.start[v], sur.start[v + 1]):
                s = sur.split(e)
                name = str(names[s.feature])
                if s.left_categories is not None:
                    levels = categories.get(s.feature)
                    label = (lambda c: str(levels[c])) if levels is not None else str
                    text = f"{name}=" + ",".join(label(c) for c in s.left_categories)
                elif s.feature in ordered:
                    below, above = _ordered_labels(name, s.threshold, ordered[s.feature])
                    text = below if s.direction < 0 else above
                else:
                    op = "< " if s.direction < 0 else ">="
                    text = f"{name}{op}{_fmt(s.threshold, digits)}"
                rows.append((int(tree.node_number[v]), name, text, s.agree, s.adj, s.count))
    return pd.DataFrame(rows, columns=["node", "feature", "split", "agree", "adj", "count"])


def _missing_text(tree, v, own_category):
    """Where units with a missing value of node v's split feature go ("" when "missing" is a
    category of that feature, shown in the split itself)."""
    if tree.feature[v] in own_category:
        return ""
    sur = tree.surrogates
    if sur is not None:  # the surrogates are listed after the node
        n_missing = tree.n_node_samples[v] - sur.primary_count[v]
        return (f"{n_missing} training units missing the split feature; surrogates (by "
                f"rpart's usesurrogate={sur.use}):")
    side = "left" if tree.missing_left[v] else "right"
    if tree.missing_learned[v]:
        return f"missing values go {side} (learned from the training units missing this feature)"
    return f"missing values go {side} (the heavier child: no training unit here was missing it)"


def _node_text(tree, nodes, classes, digits, own_category=frozenset(), surrogates=None):
    """The per-node description; ``own_category``: features whose missing values are a
    category of their own; ``surrogates``: :func:`surrogate_table`."""
    total = tree.weighted_n_node_samples
    proba = tree.value / np.where(total > 0, total, 1.0)[:, None]
    width = max(len(str(c)) for c in classes)
    width = max(width, digits + 3)
    lines = []
    for v, row in enumerate(nodes.itertuples(index=False)):
        kind = "leaf" if row.left < 0 else "split"
        lines.append(f"Node {row.node} ({kind}): {row.n} units"
                     + ("" if row.weight == row.n else f", weight {_fmt(row.weight, digits)}")
                     + ("" if row.left < 0 else f", complexity {_fmt(row.cp, digits)}"))
        lines.append(f"  predicted class {row.predicted}, expected loss "
                     f"{_fmt(row.expected_loss, digits)}, P(node) {_fmt(row.prob_node, digits)}")
        lines.append("  class     " + " ".join(f"{str(c):>{width}}" for c in classes))
        lines.append("  counts    " + " ".join(f"{_fmt(c, digits):>{width}}"
                                               for c in tree.value[v]))
        lines.append("  proba     " + " ".join(f"{p:>{width}.{digits - 1}f}" for p in proba[v]))
        if row.left >= 0:
            left, right = tree.children_left[v], tree.children_right[v]
            lines.append(f"  split     {row.split}  (improvement "
                         f"{_fmt(row.improvement, digits)}): left node {row.left} "
                         f"({tree.n_node_samples[left]} units), right node {row.right} "
                         f"({tree.n_node_samples[right]} units)")
            missing = _missing_text(tree, v, own_category)
            if missing:
                lines.append(f"  {missing}")
            if surrogates is not None:
                for r in surrogates[surrogates["node"] == row.node].itertuples(index=False):
                    lines.append(f"    {r.split}  (agree {_fmt(r.agree, digits)}, adj "
                                 f"{_fmt(r.adj, digits)}, {r.count} sent)")
        lines.append("")
    return "\n".join(lines)


def tree_summary(estimator, digits=4):
    """The :class:`~ordstat._core.summary.Summary` of a fitted OrdinalTreeClassifier."""
    tree = estimator.tree_
    names = feature_names(estimator)
    classes = estimator.classes_
    nominal, ordered = category_levels(estimator)
    nodes = node_table(tree, classes, names, nominal, digits, ordered)
    imp = np.asarray(estimator.variable_importance_, dtype=float)
    order = [j for j in np.argsort(-imp, kind="stable") if imp[j] > 0]
    importance = pd.DataFrame(
        {"importance": imp[order], "percent": 100.0 * imp[order] / imp.sum() if order else []},
        index=pd.Index([names[j] for j in order], name="feature"))
    crit = estimator.criterion
    info = [
        ("call", repr(estimator)),
        ("units", f"{int(tree.n_node_samples[0])}"
         + ("" if tree.weighted_n_node_samples[0] == tree.n_node_samples[0]
            else f" (total weight {_fmt(tree.weighted_n_node_samples[0], digits)})")),
        ("classes", " < ".join(map(str, classes))),
        ("criterion", crit if isinstance(crit, str)
         else getattr(crit, "name", None) or getattr(crit, "__name__", type(crit).__name__)),
        ("leaf rule", estimator.leaf_rule),
        ("tree", f"{tree.n_nodes - tree.n_leaves} splits, {tree.n_leaves} leaves, depth "
                 f"{tree.max_depth}, pruned at cp = {_fmt(estimator.cp_, digits)}"),
    ]
    tables = {"cp table": estimator.cp_table_, "variable importance": importance,
              "nodes": nodes.set_index("node")}
    surrogates = None
    if tree.surrogates is not None:
        surrogates = surrogate_table(tree, names, nominal, digits, ordered)
        tables["surrogates"] = surrogates
    return Summary("Ordinal classification tree", info, tables,
                   _node_text(tree, nodes, classes, digits,
                              getattr(estimator, "_missing_category", frozenset()),
                              surrogates), digits)
