"""Figures (matplotlib is imported inside each function, so that it stays optional)."""

from __future__ import annotations

__all__ = ["plot_coupling_tree"]


def _layout(node, depth, pos, next_leaf):
    """x, y of every node: leaves at 0, 1, 2, ... left to right, parents above their children."""
    if node.is_leaf:
        pos[id(node)] = (float(next_leaf[0]), -float(depth))
        next_leaf[0] += 1
    else:
        for child in node.children:
            _layout(child, depth + 1, pos, next_leaf)
        xs = [pos[id(c)][0] for c in node.children]
        pos[id(node)] = (sum(xs) / len(xs), -float(depth))


def plot_coupling_tree(model, ax=None, digits=3):
    """Draw a fitted hierarchical coupling tree (Brito et al. 2006, Figures 1 and 2).

    Each internal node is labelled with the classes it separates, its model or combination
    (e.g. ``[lambda I]``, ``0.52 FOIM + 0.48 FMM``), its cross-validated error and, for
    ``partition="affinity"``, the affinity between its two class unions; leaves carry one class.

    Parameters
    ----------
    model : HierarchicalCoupling, fitted
    ax : matplotlib Axes, optional
        Drawn into a new figure when omitted.
    digits : int, default=3
        Decimals of the error and the affinity.

    Returns
    -------
    matplotlib Axes

    References
    ----------
    Brito, I., Celeux, G. and Sousa Ferreira, A. (2006). Combining methods in supervised
    classification: a comparative study on discrete and continuous problems. REVSTAT 4,
    201-225, section 4.
    """
    from sklearn.utils.validation import check_is_fitted

    from .combine.hierarchical import HierarchicalCoupling, _set_text

    if not isinstance(model, HierarchicalCoupling):
        raise TypeError(f"model must be a fitted HierarchicalCoupling; got "
                        f"{type(model).__name__}.")
    check_is_fitted(model, "tree_")
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4.5))
    pos = {}
    _layout(model.tree_, 0, pos, [0])
    box = {"boxstyle": "round", "facecolor": "white", "edgecolor": "0.3"}
    for node in model.tree_.walk():
        x, y = pos[id(node)]
        for child in node.children:
            cx, cy = pos[id(child)]
            ax.plot([x, cx], [y, cy], color="0.4", linewidth=1.2)
        if node.is_leaf:
            ax.text(x, y, _set_text(node.classes), ha="center", va="top", bbox=box)
            continue
        text = node.model + f"\nerror {node.error:.{digits}f}"
        if node.affinity is not None:
            text += f"\naffinity {node.affinity:.{digits}f}"
        ax.text(x, y, text, ha="center", va="bottom", fontsize=9)
        ax.plot([x], [y], marker="o", color="0.2")
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    ax.set_xlim(min(xs) - 0.8, max(xs) + 0.8)
    ax.set_ylim(min(ys) - 0.6, max(ys) + 0.8)
    ax.set_axis_off()
    ax.set_title(f"Hierarchical coupling (tree error {model.cv_error_:.{digits}f})")
    return ax
