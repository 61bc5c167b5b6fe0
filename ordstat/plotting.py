"""Figures (matplotlib is imported inside each function, so that it stays optional)."""

from __future__ import annotations

import numpy as np

__all__ = ["plot_coupling_tree", "plot_tree", "plot_cp", "plot_confusion"]


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

    from .combine._coupling_tree import set_text
    from .combine.hierarchical import HierarchicalCoupling

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
            ax.text(x, y, set_text(node.classes), ha="center", va="top", bbox=box)
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


# --- ordinal trees ------------------------------------------------------------------------------

def _tree_layout(tree):
    """x, y of every node of a flat ``Tree``: leaves at 0, 1, ... left to right (preorder),
    parents at the mean of their children, y = -depth."""
    x = np.zeros(tree.n_nodes)
    leaves = np.flatnonzero(tree.children_left < 0)  # preorder: left to right
    x[leaves] = np.arange(leaves.size)
    for v in range(tree.n_nodes - 1, -1, -1):  # children come after their parent
        if tree.children_left[v] >= 0:
            x[v] = 0.5 * (x[tree.children_left[v]] + x[tree.children_right[v]])
    return x, -tree.depth.astype(float)


def _fitted_tree(estimator, what):
    from sklearn.utils.validation import check_is_fitted

    from .trees import OrdinalTreeClassifier

    if not isinstance(estimator, OrdinalTreeClassifier):
        raise TypeError(f"{what} needs a fitted OrdinalTreeClassifier (for an ensemble, one of "
                        f"its trees, e.g. estimators_[0]); got {type(estimator).__name__}.")
    check_is_fitted(estimator, "tree_")
    return estimator


def plot_tree(estimator, ax=None, feature_names=None, class_names=None, digits=3, fontsize=8):
    """Draw a fitted ordinal classification tree.

    Each node is a box with its predicted class and number of units, shaded by the rank of
    that class (lowest class lightest). Under an internal node, in bold, the condition that
    sends units to its left child (``x< c``, or the categories), as rpart's ``plot`` +
    ``text``; the edges are marked "yes" (left) and "no" (right).

    Parameters
    ----------
    estimator : OrdinalTreeClassifier, fitted
        Also a tree of an ensemble (``OrdinalBaggingClassifier(...).estimators_[i]``); those
        are fitted on class codes 0..K-1, so pass ``class_names=ensemble.classes_``.
    ax : matplotlib Axes, optional
        Drawn into a new figure when omitted.
    feature_names : sequence of str, optional
        Default: the training DataFrame's columns, or ``x0, x1, ...``.
    class_names : sequence, optional
        Labels of the classes in order; default ``estimator.classes_``.
    digits : int, default=3
        Significant digits of the split points.
    fontsize : float, default=8

    Returns
    -------
    matplotlib Axes
        One box (a ``Text`` with a bbox) per node, one split condition per internal node, one
        line and one "yes"/"no" label per edge.

    References
    ----------
    Therneau & Atkinson, An Introduction to Recursive Partitioning Using the RPART Routines.
    """
    from ._core.summary import feature_names as default_names
    from .trees._export import estimator_split_labels

    from ._core.validation import check_positive_int

    tree_est = _fitted_tree(estimator, "plot_tree")
    digits = check_positive_int(digits, "digits")
    tree = tree_est.tree_
    names = list(default_names(tree_est) if feature_names is None else feature_names)
    if len(names) != tree_est.n_features_in_:
        raise ValueError(f"feature_names has {len(names)} names but the tree was fitted on "
                         f"{tree_est.n_features_in_} features.")
    classes = np.asarray(tree_est.classes_ if class_names is None else class_names,
                         dtype=object)
    if len(classes) != tree.value.shape[1]:
        raise ValueError(f"class_names has {len(classes)} labels but the tree has "
                         f"{tree.value.shape[1]} classes.")
    import matplotlib.pyplot as plt

    x, y = _tree_layout(tree)
    if ax is None:
        width = min(16.0, 2.0 + 1.1 * tree.n_leaves)
        _, ax = plt.subplots(figsize=(width, 1.0 + 1.3 * (tree.max_depth + 1)),
                             layout="constrained")
    labels = estimator_split_labels(tree_est, names, digits)
    cmap = plt.get_cmap("Blues")
    k = max(len(classes) - 1, 1)
    small = {"ha": "center", "fontsize": fontsize - 1, "color": "0.3"}
    for v in range(tree.n_nodes):
        left, right = tree.children_left[v], tree.children_right[v]
        if left >= 0:
            for child, word in ((left, "yes"), (right, "no")):
                ax.plot([x[v], x[child]], [y[v], y[child]], color="0.45", linewidth=1.0,
                        zorder=1)
                ax.text(0.6 * x[v] + 0.4 * x[child], 0.6 * y[v] + 0.4 * y[child], word,
                        va="center", **small)
            ax.text(x[v], y[v] - 0.2, labels[left], ha="center", va="top", fontsize=fontsize,
                    fontweight="bold", zorder=2,
                    bbox={"boxstyle": "square,pad=0.1", "facecolor": "white",
                          "edgecolor": "none"})
        shade = cmap(0.15 + 0.55 * tree.yval[v] / k)
        ax.text(x[v], y[v], f"{classes[tree.yval[v]]}\nn = {int(tree.n_node_samples[v])}",
                ha="center", va="center", fontsize=fontsize, zorder=3,
                bbox={"boxstyle": "round", "facecolor": shade,
                      "edgecolor": "0.2" if left < 0 else "0.5"})
    ax.set_xlim(x.min() - 0.7, x.max() + 0.7)
    ax.set_ylim(y.min() - 0.6, 0.6)
    ax.set_axis_off()
    return ax


def plot_cp(estimator, ax=None):
    """Cross-validated relative error of the nested subtrees against cp (rpart's ``plotcp``).

    One point per row of the cp table with +- 1 standard error bars, placed at the geometric
    mean of the row's CP and the previous row's (the first at infinity), which is the cp value
    the row stands for; the dashed line is the smallest xerror plus its standard error: the
    1-SE rule picks the leftmost (smallest) tree below it. The top axis gives the tree size
    (number of leaves).

    Parameters
    ----------
    estimator : OrdinalTreeClassifier fitted with ``xval >= 2``, or its ``cp_table_``
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
        With the error bars (``ax.containers[0]``), the 1-SE line and a secondary top axis.

    References
    ----------
    Breiman, Friedman, Olshen & Stone (1984), Classification and Regression Trees, section 3.4
    (the 1-SE rule). Therneau & Atkinson, An Introduction to Recursive Partitioning Using the
    RPART Routines.
    """
    import pandas as pd

    if isinstance(estimator, pd.DataFrame):
        table = estimator
    else:
        table = _fitted_tree(estimator, "plot_cp").cp_table_
    if not {"CP", "nsplit", "xerror", "xstd"} <= set(table.columns):
        raise ValueError("plot_cp needs a cross-validated cp table (columns CP, nsplit, xerror, "
                         "xstd): fit the tree with xval >= 2 and at least one split.")
    import matplotlib.pyplot as plt

    cp = table["CP"].to_numpy(dtype=float)
    xerror = table["xerror"].to_numpy(dtype=float)
    xstd = table["xstd"].to_numpy(dtype=float)
    at = np.sqrt(cp * np.concatenate([[np.inf], cp[:-1]]))
    pos = np.arange(1, len(cp) + 1)
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4), layout="constrained")
    ax.errorbar(pos, xerror, yerr=xstd, marker="o", color="0.15", ecolor="0.4", capsize=3)
    best = int(np.argmin(xerror))
    ax.axhline(xerror[best] + xstd[best], linestyle="--", color="0.5", linewidth=1)
    ax.set_xticks(pos, [f"{c:.2g}" if np.isfinite(c) else "Inf" for c in at])
    ax.set_xlabel("cp")
    ax.set_ylabel("X-val relative error")
    top = ax.secondary_xaxis("top")
    top.set_xticks(pos, [str(int(s) + 1) for s in table["nsplit"]])
    top.set_xlabel("size of tree")
    return ax


# --- confusion matrices -------------------------------------------------------------------------

def plot_confusion(y_true, y_pred, classes=None, normalize=None, ax=None, cmap="Blues",
                   digits=2):
    """An ordered confusion matrix: rows the true class, columns the predicted class, both in
    class order, each cell annotated with its count (or share).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Labels. Their order comes from ``classes``, else from an ordered Categorical, else from
        sorting (as everywhere in ordstat).
    classes : sequence, optional
        All class labels from lowest to highest.
    normalize : {None, "true", "pred", "all"}, default=None
        Show counts, or shares of each row (true class), column (predicted class) or the total.
    ax : matplotlib Axes, optional
    cmap : str or Colormap, default="Blues"
    digits : int, default=2
        Decimals of normalised shares.

    Returns
    -------
    matplotlib Axes
        The matrix image (``ax.images[0]``) and one ``Text`` per cell.
    """
    from ._core.validation import check_positive_int
    from .metrics import ordinal_confusion_matrix

    digits = check_positive_int(digits, "digits", minimum=0)
    if normalize not in (None, "true", "pred", "all"):
        raise ValueError(f"normalize must be None, 'true', 'pred' or 'all'; got {normalize!r}.")
    table = ordinal_confusion_matrix(y_true, y_pred, classes, as_frame=True)
    counts = table.to_numpy(dtype=float)
    values = counts
    if normalize is not None:
        axis = {"true": 1, "pred": 0, "all": None}[normalize]
        total = counts.sum(axis=axis, keepdims=axis is not None)
        with np.errstate(invalid="ignore", divide="ignore"):
            values = np.where(total > 0, counts / np.where(total > 0, total, 1.0), 0.0)
    import matplotlib.pyplot as plt

    k = counts.shape[0]
    if ax is None:
        _, ax = plt.subplots(figsize=(2.5 + 0.6 * k, 2.0 + 0.6 * k), layout="constrained")
    image = ax.imshow(values, cmap=cmap, vmin=0)
    high = values.max() if values.size else 0
    for i in range(k):
        for j in range(k):
            text = (f"{values[i, j]:.{digits}f}" if normalize is not None
                    else f"{counts[i, j]:g}")
            ax.text(j, i, text, ha="center", va="center",
                    color="white" if high > 0 and values[i, j] > 0.6 * high else "black")
    labels = [str(c) for c in table.index]
    ax.set_xticks(np.arange(k), labels, rotation=45 if max(map(len, labels)) > 3 else 0,
                  ha="right" if max(map(len, labels)) > 3 else "center")
    ax.set_yticks(np.arange(k), labels)
    ax.set_xlabel("predicted class")
    ax.set_ylabel("true class")
    ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    return ax
