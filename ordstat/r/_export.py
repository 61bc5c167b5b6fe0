"""Export a fitted ``OrdinalTreeClassifier`` as an R object of class ``rpart``.

The R side of the conversion is the R package's ``rpart_from_tree`` (r_bridge/R/export.R,
sourced into a private environment by ``_rpart``, so the R package need not be installed): the
object has rpart's ``method = "class"`` layout (frame with ``yval2`` = class, weighted counts,
proportions, node probability; splits; csplit for factor splits; cptable; ``ylevels`` and
``xlevels``), so R's ``print``, ``summary``, ``predict``, ``plot``/``text`` accept it.

The frame is the tree as rpart would store it: each node's children in rpart's order (the
child of lower mean class first, so a numeric split may send ``x >= c`` left, ``ncat`` = 1)
and numbered as rpart numbers them, which can differ from ``tree_.node_number``; a factor
split marks the levels absent from the node at fitting (``csplit`` 2), which rpart's print and
labels leave out.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ordstat._core.rpy import ro, to_r  # starts R first (ordstat._core.rpy.robjects)
import rpy2.rinterface as ri  # noqa: I001

from ._rpart import _env

__all__ = ["to_rpart"]


def _check_fitted_tree(tree):
    try:
        from ordstat.trees import OrdinalTreeClassifier
    except ImportError:  # pragma: no cover - the trees module is part of the package
        OrdinalTreeClassifier = None
    if OrdinalTreeClassifier is not None and not isinstance(tree, OrdinalTreeClassifier):
        raise TypeError(
            f"tree must be a fitted ordstat.trees.OrdinalTreeClassifier; got {type(tree).__name__}."
        )
    if not hasattr(tree, "tree_"):
        raise ValueError("tree is not fitted; call tree.fit(X, y) before to_rpart(tree).")


def _code_lists(lists):
    """One R element per node: the integer codes, or NULL."""
    return ro.r["list"](*[ri.NULL if c is None else ro.IntVector([int(v) for v in np.ravel(c)])
                          for c in lists])


def _rpart_loss(tree):
    """The tree's loss matrix as rpart's ``parms$loss`` (true class in rows; ``_loss_`` has
    the predicted class in rows)."""
    return np.ascontiguousarray(np.asarray(tree._loss_, dtype=np.float64).T)


def _str_vector(values):
    return ro.StrVector([str(v) for v in values])


def to_rpart(tree, X=None, *, response="y"):
    """A fitted ordinal tree as an R ``rpart`` object.

    Parameters
    ----------
    tree : ordstat.trees.OrdinalTreeClassifier
        Fitted.
    X : DataFrame or array-like of shape (n_samples, n_features), optional
        The training data: fills the object's ``where`` (each unit's leaf), which R's
        ``predict(fit)`` without ``newdata`` uses.
    response : str, default="y"
        Name of the response in the object's formula.

    Returns
    -------
    rpy2 object of R class ``rpart`` (method ``"class"``)
        Its predictors are named after ``feature_names_in_`` (``x0``, ``x1``, ... without
        names); factor predictors carry the training categories as levels (ordered
        Categoricals as ordered factors, their splits as rpart keeps them), and the response
        levels are ``str(c)`` for ``c`` in ``classes_``, lowest first.

    Raises
    ------
    TypeError
        If ``tree`` is not an ``OrdinalTreeClassifier``.
    ValueError
        If it is not fitted.

    Notes
    -----
    The frame's rows are in rpart's order, not ``tree_``'s: attribute ``tree_rows`` gives the
    0-based row of ``tree_`` of each. A category absent from a node at fitting is marked absent
    (``csplit`` 2) and not printed; rpart's ``predict`` sends it to the child with more training
    units, and stops at the node when they tie, where the Python tree sends it to the child of
    larger weight (left on ties).
    """
    _check_fitted_tree(tree)
    t = tree.tree_
    n_nodes = len(t.children_left)
    names = [str(v) for v in getattr(tree, "feature_names_in_",
                                     [f"x{i}" for i in range(tree.n_features_in_)])]
    categories = getattr(tree, "categories_", {}) or {}
    ordered = getattr(tree, "_ordered_categories", {}) or {}
    xlevels = ro.ListVector({names[j]: _str_vector(cats)
                             for j, cats in {**categories, **ordered}.items()})
    left_categories = _code_lists(t.left_categories)
    present = getattr(t, "present_categories", None)  # None: a tree pickled before it
    present_categories = ri.NULL if present is None else _code_lists(present)
    risk = np.asarray(t.risk, dtype=np.float64)
    cp = getattr(tree, "cp_table_", None)
    cptable = ri.NULL if cp is None else to_r(pd.DataFrame(cp).reset_index(drop=True))
    where = ri.NULL
    if X is not None:
        where = ro.IntVector((np.asarray(tree.apply(X), dtype=np.int64) + 1).tolist())
    terms = ro.r("""function(names, response) {
        stats::terms(stats::reformulate(sprintf("`%s`", names), response = response))
    }""")(_str_vector(names), response)
    value = np.asarray(t.value, dtype=np.float64).reshape(n_nodes, -1)
    return _env()["rpart_from_tree"](
        children_left=ro.IntVector(np.asarray(t.children_left).tolist()),
        children_right=ro.IntVector(np.asarray(t.children_right).tolist()),
        feature=ro.IntVector(np.asarray(t.feature).tolist()),
        threshold=to_r(np.asarray(t.threshold, dtype=np.float64)),
        value=to_r(value),
        n_node_samples=ro.IntVector(np.asarray(t.n_node_samples).tolist()),
        improvement=to_r(np.asarray(t.improvement, dtype=np.float64)),
        feature_names=_str_vector(names),
        ylevels=_str_vector(tree.classes_),
        terms=terms,
        xlevels=xlevels,
        ordered=_str_vector([names[j] for j in ordered]),
        left_categories=left_categories,
        present_categories=present_categories,
        # rpart's parms$loss (true class in rows): it orders the children (altered priors)
        loss=to_r(_rpart_loss(tree)),
        cptable=cptable,
        where=where,
        yval=ro.IntVector((np.asarray(t.yval, dtype=np.int64) + 1).tolist()),
        dev=to_r(risk),
        # times 1 / R(root), as the cp table: prune.rpart at a CP of the table cuts its row
        complexity=to_r(np.asarray(t.complexity, dtype=np.float64)
                        * (1.0 / risk[0] if risk[0] > 0 else 1.0)),
        surrogates=_surrogates(tree),
    )


def _surrogates(tree):
    """The tree's surrogate splits as R's ``rpart_surrogates`` takes them (NULL without)."""
    if getattr(tree.tree_, "surrogates", None) is None:
        return ri.NULL
    from ._rside import surrogate_arrays

    def r_value(v):
        if isinstance(v, list):  # codes per node or surrogate, None where there are none
            return ro.r["list"](*[ri.NULL if c is None else ro.IntVector(c) for c in v])
        if isinstance(v, np.ndarray) and v.dtype.kind == "i":
            return ro.IntVector(v.tolist())
        if isinstance(v, np.ndarray):
            return ro.FloatVector(v.tolist())
        return ro.IntVector([v])

    return ro.ListVector({k: r_value(v) for k, v in surrogate_arrays(tree).items()})
