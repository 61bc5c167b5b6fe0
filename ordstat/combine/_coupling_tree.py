"""The coupling tree of hierarchical coupling: its nodes, its text and its two prediction rules.

The module structure is the following: ``CouplingNode``, one node of the tree (its class
unions, model and errors, its two children); ``tree_text``, the tree as indented text; and
the prediction rules over a (sub)tree, both reading each node's posterior of its right union
through a function ``right(node)``: the products of the posteriors along the root-to-leaf
paths (``leaf_masses``, the class probabilities and the "product" rule) and the hard
decisions down the tree (the "sequential" rule), chosen by ``rule_leaves``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._naming import model_name

__all__ = ["CouplingNode", "tree_text", "mclust_model"]


@dataclass
class CouplingNode:
    """One node of the coupling tree.

    Attributes
    ----------
    classes : list
        The class labels at this node (one label for a leaf).
    left, right : list
        The two unions of classes the node separates (empty for a leaf).
    model : str
        The chosen model ("[lambda I]", "FOIM") or combination ("0.52 FOIM + 0.48 FMM").
    estimator : fitted estimator or None
        The two-class classifier: class 0 = ``left``, class 1 = ``right``.
    error : float
        The cross-validated (or test-sample) misclassification rate between the two unions,
        among the node's units, of the coupling's prediction rule applied to this subtree:
        under ``rule="sequential"`` the node model's own two-class error; under
        ``rule="product"`` a unit counts as wrong when the largest product of posteriors
        below the node lies in the other union.
    affinity : float or None
        rho between the empirical distributions of the two unions (``partition="affinity"``
        only).
    candidate_errors : dict
        {candidate name: two-class error} for the chosen partition, the hard decision of each
        candidate alone (the model is chosen by these); candidates that failed are absent.
    children : tuple of CouplingNode
        (left child, right child); empty for a leaf.
    """

    classes: list
    left: list = field(default_factory=list)
    right: list = field(default_factory=list)
    model: str = ""
    estimator: object = None
    error: float = float("nan")
    affinity: float | None = None
    candidate_errors: dict = field(default_factory=dict)
    children: tuple = ()

    @property
    def is_leaf(self):
        return not self.children

    def walk(self):
        """The nodes of the subtree, depth first (this node first)."""
        yield self
        for child in self.children:
            yield from child.walk()


def set_text(labels):
    return str(labels[0]) if len(labels) == 1 else "{" + ", ".join(map(str, labels)) + "}"


def mclust_model(node):
    """A node's model as mclust names it ("EEE", "0.70 EEI + 0.30 EII"); "" for a leaf, as its
    ``model``."""
    est = node.estimator
    if est is None:
        return ""
    return est.describe(names="mclust") if hasattr(est, "describe") else model_name(est, "mclust")


def shown_model(node):
    """A node's model as the paper writes it and, where mclust names it otherwise, mclust's
    name after it: "[lambda D A D'] (EEE)"."""
    mclust = mclust_model(node)
    return node.model if mclust in ("", node.model) else f"{node.model} ({mclust})"


def tree_text(node, digits=3):
    """The coupling tree as indented text (Brito et al. 2006, Figure 1 style)."""
    lines = []

    def visit(nd, prefix, head):
        text = set_text(nd.classes)
        if not nd.is_leaf:
            parts = [shown_model(nd), f"error {nd.error:.{digits}f}"]
            if nd.affinity is not None:
                parts.append(f"affinity {nd.affinity:.{digits}f}")
            text += "  " + "  ".join(parts)
        lines.append(head + text)
        for i, child in enumerate(nd.children):
            last = i == len(nd.children) - 1
            visit(child, prefix + ("   " if last else "|  "), prefix + ("`- " if last else "|- "))

    visit(node, "", "")
    return "\n".join(lines)


# --- the two prediction rules --------------------------------------------------------------------
# Both read the node posteriors through ``right(node)``: the posterior of the node's right union
# for every unit (the fitted node model's for new data; the cross-validated one in the fit).

def goes_right(p_right):
    """A node's hard decision: the right union when its posterior exceeds 1/2 (ties go left,
    as the argmax of a two-class ``predict_proba`` does)."""
    return p_right > 0.5


def leaf_masses(node, right, n, index, fill=0.0):
    """(n, K) products of the node posteriors along each path from ``node`` down to its leaves
    (columns by class code; ``fill`` for the classes outside the subtree)."""
    out = np.full((n, len(index)), fill)

    def visit(nd, mass):
        if nd.is_leaf:
            out[:, index[nd.classes[0]]] = mass
            return
        p_right = right(nd)
        visit(nd.children[0], mass * (1.0 - p_right))
        visit(nd.children[1], mass * p_right)

    visit(node, np.ones(n))
    return out


def _sequential_leaves(node, right, n, index):
    """(n,) class codes reached from ``node`` by the nodes' hard decisions (Brito et al. 2006,
    section 4: a unit stops at the first node that sends it to a single class)."""
    out = np.empty(n, dtype=np.intp)

    def visit(nd, units):
        if nd.is_leaf:
            out[units] = index[nd.classes[0]]
            return
        to_right = goes_right(right(nd)[units])
        visit(nd.children[0], units[~to_right])
        visit(nd.children[1], units[to_right])

    visit(node, np.arange(n))
    return out


def rule_leaves(node, right, n, index, rule):
    """(n,) class codes the rule chooses among the leaves under ``node``."""
    if rule == "sequential":
        return _sequential_leaves(node, right, n, index)
    # -1 outside the subtree, so that a leaf of it wins even when every product is 0
    return np.argmax(leaf_masses(node, right, n, index, fill=-1.0), axis=1)
