"""Cost-complexity pruning: the nested sequence of subtrees, its cp table and cross-validation,
as rpart (Therneau & Atkinson, sections 4 and 6; Breiman et al. 1984, chapter 3).

The module structure is the following:

- :func:`cp_sequence`, :func:`prune_tree`: the nested subtrees by complexity, one of them;
- :func:`make_folds`, :func:`cross_validated_risk`, :func:`nodes_at`: rpart's ``xval``;
- :func:`cp_table`, :func:`select_cp` (minimum or one-standard-error rule),
  :func:`select_leaves` (fixed size, Tutz & Hechenbichler 2003, section 4.1).

The cp table's columns and the cross-validated risk are explained in the documentation, "How
the trees are grown" (docs/trees_engine.md, "Pruning and the cp table").
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._tree import Tree

__all__ = ["cp_sequence", "prune_tree", "cross_validated_risk", "select_cp", "select_leaves",
           "make_folds", "nodes_at"]


def _parents(tree: Tree) -> np.ndarray:
    parent = np.full(tree.n_nodes, -1, dtype=np.int64)
    internal = np.flatnonzero(tree.children_left >= 0)
    parent[tree.children_left[internal]] = internal
    parent[tree.children_right[internal]] = internal
    return parent


def cp_sequence(tree: Tree, alpha: float):
    """Absolute complexities of the nested subtrees (descending), with nsplit and risk.

    Returns
    -------
    cps : ndarray of shape (m,)
    nsplit : ndarray of shape (m,), int
    risk : ndarray of shape (m,)
    """
    internal = tree.children_left >= 0
    cx = tree.complexity
    if not internal.any():
        return np.array([cx[0]]), np.array([0]), np.array([tree.risk[0]])
    cps = np.unique(np.maximum(cx, alpha))[::-1]
    parent = _parents(tree)
    parent_cx = np.where(parent >= 0, cx[np.maximum(parent, 0)], np.inf)
    # Node v is a leaf of the subtree at c when its parent's split survives (parent cx > c)
    # and its own does not (a leaf, or cx <= c): c in [low_v, parent_cx_v) with low_v = cx_v
    # for internal nodes and -inf for leaves. Sums over such intervals by sorting once.
    low = np.where(internal, cx, -np.inf)
    risk = _weight_above(parent_cx, tree.risk, cps) - _weight_above(low, tree.risk, cps)
    nsplit = _weight_above(cx[internal], np.ones(int(internal.sum())), cps)
    return cps, np.rint(nsplit).astype(np.int64), risk


def _weight_above(keys, weights, cps):
    """For each c in cps: the sum of weights whose key is > c."""
    order = np.argsort(keys)
    sorted_keys = keys[order]
    tail = np.concatenate([np.cumsum(weights[order][::-1])[::-1], [0.0]])
    return tail[np.searchsorted(sorted_keys, cps, side="right")]


def prune_tree(tree: Tree, cp: float) -> Tree:
    """Snip every split whose CP (complexity / R(root)) is at most ``cp`` (rpart's prune)."""
    if tree.risk[0] <= 0:
        return tree.pruned(np.zeros(tree.n_nodes, dtype=bool))
    # the CP computed as cp_table computes it (times 1 / R(root), which can differ from the
    # quotient in the last bit), so that the CP of a row prunes exactly that row's splits
    keep = (tree.children_left >= 0) & (tree.complexity * (1.0 / tree.risk[0]) > cp)
    return tree.pruned(keep)


def make_folds(xval, n_samples, rng):
    """Fold ids 0..V-1 of every unit: random and balanced for an int, or given (rpart's xval
    vector). Returns None when no cross-validation is asked for."""
    if isinstance(xval, (int, np.integer)) and not isinstance(xval, bool):
        v = min(int(xval), n_samples)
        if v < 2:
            return None
        return rng.permutation(np.resize(np.arange(v), n_samples))
    folds = np.asarray(xval)
    if folds.ndim != 1 or folds.shape[0] != n_samples:
        raise ValueError(
            f"xval must be an int (number of folds) or a vector of fold ids with one entry per "
            f"unit ({n_samples}); got an array of shape {folds.shape}."
        )
    if pd.isna(folds).any():
        raise ValueError("xval fold ids must not contain missing values.")
    _, ids = np.unique(folds, return_inverse=True)
    if ids.max() < 1:
        raise ValueError("xval fold ids must define at least two folds.")
    return ids.astype(np.int64)


def cross_validated_risk(grow, X, codes, weights, folds, cps, alpha, loss):
    """Cross-validated risk of each row of the cp sequence.

    Parameters
    ----------
    grow : callable
        ``grow(X, codes, weights, alpha) -> Tree`` with the estimator's controls.
    cps : ndarray of shape (m,)
        Absolute complexities of the full tree's sequence (descending).
    alpha : float
        Absolute alpha of the full tree.
    loss : ndarray of shape (K, K)
        ``loss[h, g]``.

    Returns
    -------
    xrisk, xstd : ndarray of shape (m,), on the absolute risk scale.
    """
    thresholds = np.empty_like(cps)
    thresholds[0] = 10.0 * cps[0]
    thresholds[1:] = np.sqrt(cps[:-1] * cps[1:])
    total_w = weights.sum()
    xrisk = np.zeros(cps.shape[0])
    xsq = np.zeros(cps.shape[0])
    for f in np.unique(folds):
        test = folds == f
        train = ~test
        w_train = weights[train].sum()
        if w_train <= 0 or not test.any():
            continue
        scale = w_train / total_w
        tree = grow(X[train], codes[train], weights[train], alpha * scale)
        # (n_test, depth+1), leaf-padded; a surrogate tree's rows as rpart's xval sends them
        path = np.stack(tree.decision_nodes(X[test], cross_validation=True), axis=1)
        depth_len = path.shape[1]
        th = thresholds * scale
        y_test, w_test = codes[test], weights[test]
        # chunks keep the (units, depth, thresholds) comparison small
        step = max(1, 4_000_000 // (depth_len * th.size))
        for lo in range(0, path.shape[0], step):
            nodes = nodes_at(tree, path[lo:lo + step], th)  # (chunk, m)
            err = loss[tree.yval[nodes], y_test[lo:lo + step, None]]
            wt = w_test[lo:lo + step, None]
            xrisk += (wt * err).sum(axis=0)
            xsq += (wt * err * err).sum(axis=0)
    xstd = np.sqrt(np.maximum(xsq - xrisk ** 2 / total_w, 0.0))
    return xrisk, xstd


def nodes_at(tree: Tree, path, thresholds):
    """The node of each unit in the subtree pruned at each threshold (rpart's ``rundown``).

    Parameters
    ----------
    path : ndarray of shape (n, depth + 1)
        Each unit's decision path (``Tree.decision_nodes``, leaf-padded).
    thresholds : ndarray of shape (m,)
        Absolute complexities.

    Returns
    -------
    ndarray of shape (n, m)
        The first node on the path whose complexity is at most the threshold; complexities
        never increase down a path, so its position is a count.
    """
    stop = (tree.complexity[path][:, :, None] > thresholds[None, None, :]).sum(axis=1)
    stop = np.minimum(stop, path.shape[1] - 1)
    return np.take_along_axis(path, stop, axis=1)


def cp_table(cps, nsplit, risk, root_risk, xrisk=None, xstd=None) -> pd.DataFrame:
    """rpart's printcp table as a DataFrame (xerror/xstd only with cross-validation)."""
    scale = 1.0 / root_risk if root_risk > 0 else 0.0
    table = {"CP": cps * scale, "nsplit": nsplit, "rel_error": risk * scale}
    if xrisk is not None:
        table["xerror"] = xrisk * scale
        table["xstd"] = xstd * scale
    frame = pd.DataFrame(table)
    frame.index = pd.RangeIndex(1, len(frame) + 1)
    return frame


def select_cp(table: pd.DataFrame, rule: str) -> float:
    """CP of the row chosen by the minimum or the one-standard-error rule."""
    best = int(np.argmin(table["xerror"].to_numpy()))
    if rule == "min":
        return float(table["CP"].iloc[best])
    limit = table["xerror"].iloc[best] + table["xstd"].iloc[best]
    first = int(np.flatnonzero(table["xerror"].to_numpy() <= limit)[0])
    return float(table["CP"].iloc[first])


def select_leaves(table: pd.DataFrame, max_leaves: int) -> float:
    """CP of the largest subtree of the sequence with at most ``max_leaves`` leaves (nsplit + 1).

    The sequence is the weakest-link one, so the subtree can have fewer than ``max_leaves``
    leaves when splits of equal complexity are pruned together; the root (first row) has one.
    """
    leaves = table["nsplit"].to_numpy() + 1
    row = int(np.flatnonzero(leaves <= max_leaves)[-1])
    return float(table["CP"].iloc[row])
