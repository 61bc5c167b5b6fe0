"""The fitted tree: flat node arrays, prediction and subtree extraction."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from . import _engine, _fast

__all__ = ["Tree", "DerivedTree", "compact_array", "compact_as", "walk_rows",
           "with_present_categories"]


# the compiled walk's surrogate arrays of a tree without surrogates (one compiled type)
_EMPTY_INT = np.zeros(0, dtype=np.int64)
_EMPTY_INT32 = np.zeros(0, dtype=np.int32)
_EMPTY_INT8 = np.zeros((0, 0), dtype=np.int8)
_EMPTY_FLOAT = np.zeros(0)
_EMPTY_KIDS = np.zeros((0, 2), dtype=np.int64)

# the fields holding a list of category codes per node (None where none), pickled as one None
# when no node has one
_CODE_LISTS = ("left_categories", "present_categories")

# a node as the compiled walk reads it: 24 bytes, one memory read a step
WALK_NODE = np.dtype([("left", np.int32), ("right", np.int32), ("feature", np.int32),
                      ("missing_left", np.int32), ("threshold", np.float64)])


@dataclass(frozen=True, eq=False)
class Tree:
    """A fitted tree as flat arrays of length ``n_nodes`` (node 0 the root).

    Nodes are in depth-first preorder, left subtree before right subtree (the order of the rows
    of rpart's ``frame``). For a numeric split, units with ``x[feature] < threshold`` go LEFT
    (rpart's ``"x< c"``), the threshold being the midpoint between consecutive distinct values.
    For a categorical split, units whose category code (0..n_categories-1, the position in the
    training categories) is in ``left_categories[node]`` go LEFT, all others RIGHT;
    ``present_categories[node]`` lists the codes the node's training units had (the printed
    splits name only those, as rpart does).

    Missing values (NaN) of the split feature go LEFT where ``missing_left[node]`` is True. The
    side was learned at fitting where the node's training units had missing values on that
    feature (``missing_learned``: both sides were searched, the better kept, right on ties);
    otherwise it is the child with the larger training weight (left on ties), rpart's majority
    rule. A categorical feature with missing values at fitting has "missing" as a category of
    its own, so its NaN never reach the tree.

    Attributes
    ----------
    children_left, children_right : ndarray of int64
        Child node indices, -1 at leaves.
    feature : ndarray of int64
        Split feature (column index), -1 at leaves.
    threshold : ndarray of float64
        Numeric split point; NaN at leaves and categorical splits.
    left_categories : ndarray of object
        For a categorical split, a sorted int64 array of the category codes sent left (codes not
        seen in the node at fitting are included on the side of the larger weight); None for
        numeric splits and leaves.
    value : ndarray of float64, shape (n_nodes, K)
        Weighted class counts of the training units in the node (classes in ordinal order).
    n_node_samples : ndarray of int64
        Number of training units (with positive weight) in the node.
    weighted_n_node_samples : ndarray of float64
        Their total weight.
    impurity : ndarray of float64
        i(t) of the criterion's impurity function; NaN for criteria that are not
        impurity-based (ordered twoing, user criteria registered without an impurity).
    improvement : ndarray of float64
        Goodness of the node's split on the count scale (rpart's ``improve``), 0 at leaves.
    risk : ndarray of float64
        R(t): weighted loss of predicting ``yval`` for the units of the node (rpart's ``dev``).
    yval : ndarray of int64
        Class code predicted in the node by the leaf rule.
    complexity : ndarray of float64
        Complexity (cost-complexity alpha at which the node's split is pruned away), on the
        absolute risk scale, made non-increasing from root to leaves; divide by ``risk[0]`` for
        rpart's CP scale.
    node_number : ndarray of int64
        rpart's node number (root 1, children of k are 2k and 2k+1).
    depth : ndarray of int64
        Depth of the node (root 0).
    missing_left : ndarray of bool
        Do missing values of the split feature go left? (False at leaves.)
    missing_learned : ndarray of bool
        Was that side learned from training units with missing values (else: majority)?
    surrogates : ordstat.trees._surrogate.Surrogates or None
        rpart's surrogate splits of every node, for a tree grown with them
        (``missing="surrogate"``); then they, not ``missing_left``, send the units missing
        the split feature (and the codes of a categorical split that its node did not meet),
        and with ``usesurrogate`` < 2 a unit that none of them can send stays in the node:
        :meth:`apply` can then return an internal node (rpart's ``predict`` does the same).
    present_categories : ndarray of object
        For a categorical split, the sorted int64 codes of the categories present among the
        node's training units (positive weight), set by :func:`with_present_categories`;
        None for numeric splits, leaves, and where not known (trees of ensembles, trees
        pickled before it existed: every category is then taken as present).
    """

    children_left: np.ndarray
    children_right: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    left_categories: np.ndarray
    value: np.ndarray
    n_node_samples: np.ndarray
    weighted_n_node_samples: np.ndarray
    impurity: np.ndarray
    improvement: np.ndarray
    risk: np.ndarray
    yval: np.ndarray
    complexity: np.ndarray
    node_number: np.ndarray
    depth: np.ndarray
    missing_left: np.ndarray
    missing_learned: np.ndarray
    surrogates: object = None
    present_categories: np.ndarray | None = None  # None: pickled before it existed

    # -- pickling: compact arrays, restored exactly ----------------------------------------
    def __getstate__(self):
        """The arrays in the smallest types that hold them exactly (:func:`compact_array`): a
        forest pickles hundreds of trees, whose int64 node indices, whole-number counts and
        float64 values mostly fit in 8 to 32 bits. :meth:`__setstate__` restores the same
        values in the original types, so an unpickled tree predicts exactly as before."""
        state = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if name in _CODE_LISTS and value is not None and all(v is None for v in value):
                state[name] = (None, len(value))  # numeric splits only: nothing to store
            elif isinstance(value, np.ndarray) and value.dtype.kind in "iuf":
                state[name] = (compact_array(value), value.dtype.str)
            elif isinstance(value, np.ndarray) and value.dtype.kind == "b":
                state[name] = (np.packbits(value), ("bits", value.size))
            else:
                state[name] = (value, None)
        return state

    def __setstate__(self, state):
        for name, (value, dtype) in state.items():
            if name in _CODE_LISTS and value is None and dtype is not None:
                # one None seen through a read-only view, as an ensemble's compact trees hold
                # it: walk_arrays then sees at once that no split is categorical
                value = np.broadcast_to(np.full(1, None, dtype=object), (dtype,))
            elif isinstance(dtype, tuple):  # bools packed eight to a byte
                value = np.unpackbits(value, count=dtype[1]).astype(bool)
            elif dtype is not None:
                value = value.astype(np.dtype(dtype))
            object.__setattr__(self, name, value)

    @property
    def n_nodes(self) -> int:
        return int(self.children_left.shape[0])

    node_count = n_nodes

    @property
    def n_leaves(self) -> int:
        return int(np.sum(self.children_left < 0))

    @property
    def max_depth(self) -> int:
        return int(self.depth.max())

    @property
    def is_leaf(self) -> np.ndarray:
        return self.children_left < 0

    def _category_table(self):
        """Boolean table (n_nodes, n_codes): does category code c go left at a node?"""
        cat_nodes = [i for i, lc in enumerate(self.left_categories) if lc is not None]
        if not cat_nodes:
            return None
        width = 1 + max((int(self.left_categories[i].max()) if len(self.left_categories[i])
                         else 0) for i in cat_nodes)
        table = np.zeros((self.n_nodes, width), dtype=bool)
        for i in cat_nodes:
            table[i, self.left_categories[i]] = True
        return table

    def apply(self, X) -> np.ndarray:
        """Index of the node reached by each row of ``X`` (float array of shape (n, p)), a
        leaf unless a surrogate tree keeps it higher (see ``surrogates``): compiled
        (:mod:`ordstat.trees._kernels.predict`), or :meth:`decision_nodes`' last level
        without numba, the same nodes."""
        kernels = _engine.predict_kernels()
        if kernels is None:
            return self.decision_nodes(X)[-1]
        X = walk_rows(X)
        leaves = np.empty(X.shape[0], dtype=np.int64)
        kernels.tree_leaves(self.walk_arrays(), X, leaves)
        return leaves

    def walk_arrays(self):
        """The tree as the compiled walk takes it (see :mod:`ordstat.trees._kernels.predict`):
        a record a node (:data:`WALK_NODE`), each node's row of the categorical table (-1: not
        a categorical split; empty when there is none), the table (rows of the category
        codes sent left) and the surrogate splits (:meth:`_surrogate_walk`; empty arrays
        without them)."""
        cats = self.left_categories
        if cats.size and cats.strides == (0,) and cats[0] is None:  # compact: no categories
            split_nodes = []
        else:
            split_nodes = [i for i, lc in enumerate(cats) if lc is not None]
        cat_row = np.full(self.n_nodes if split_nodes else 0, -1, dtype=np.int32)
        # every split's codes at once (a forest's trees: many categorical splits)
        codes = (np.concatenate([cats[i] for i in split_nodes]).astype(np.int64)
                 if split_nodes else np.zeros(0, dtype=np.int64))
        width = 1 + int(codes.max(initial=0))
        table = np.zeros((len(split_nodes), width if split_nodes else 0), dtype=bool)
        cat_row[split_nodes] = np.arange(len(split_nodes))
        table[np.repeat(np.arange(len(split_nodes)), [len(cats[i]) for i in split_nodes]),
              codes] = True
        nodes = np.empty(self.n_nodes, dtype=WALK_NODE)
        nodes["left"] = self.children_left
        nodes["right"] = self.children_right
        nodes["feature"] = self.feature
        nodes["missing_left"] = self.missing_left
        nodes["threshold"] = self.threshold
        return nodes, cat_row, table, self._surrogate_walk(cat_row, split_nodes, width)

    def _surrogate_walk(self, cat_row, split_nodes, width):
        """The surrogate splits as the compiled walk reads them: the offsets, feature,
        threshold and direction of each surrogate, its row of a table of category directions
        (+1 left, -1 right, 0 cannot tell; -1: numeric), the categorical splits' own table of
        directions (0 for the codes their node did not meet; rows as ``cat_row``), the two
        children's training units and ``usesurrogate``. Empty arrays without surrogates."""
        sur = self.surrogates
        if sur is None:
            return (_EMPTY_INT, _EMPTY_INT, _EMPTY_FLOAT, _EMPTY_INT, _EMPTY_INT32, _EMPTY_INT8,
                    _EMPTY_INT8, _EMPTY_KIDS, np.zeros(1, dtype=np.int64))
        met_width = max([int(sur.primary_categories[i].max(initial=-1)) + 1
                         for i in split_nodes], default=0)
        cat_dir = np.zeros((len(split_nodes), max(width, met_width) if split_nodes else 0),
                           dtype=np.int8)
        for i in split_nodes:
            met = sur.primary_categories[i]
            left = np.isin(met, self.left_categories[i])
            cat_dir[cat_row[i], met] = np.where(left, 1, -1)
        cats = [e for e in range(sur.feature.size) if sur.left_categories[e] is not None]
        sur_row = np.full(sur.feature.size, -1, dtype=np.int32)
        sur_width = 1 + max([int(max(sur.left_categories[e].max(initial=0),
                                     sur.right_categories[e].max(initial=0))) for e in cats],
                            default=0)
        sur_dir = np.zeros((len(cats), sur_width if cats else 0), dtype=np.int8)
        for r, e in enumerate(cats):
            sur_row[e] = r
            sur_dir[r, sur.left_categories[e]] = 1
            sur_dir[r, sur.right_categories[e]] = -1
        kids = np.zeros((self.n_nodes, 2), dtype=np.int64)
        inner = self.children_left >= 0
        kids[inner, 0] = self.n_node_samples[self.children_left[inner]]
        kids[inner, 1] = self.n_node_samples[self.children_right[inner]]
        return (np.ascontiguousarray(sur.start, dtype=np.int64),
                np.ascontiguousarray(sur.feature, dtype=np.int64),
                np.ascontiguousarray(sur.threshold, dtype=np.float64),
                np.ascontiguousarray(sur.direction, dtype=np.int64), sur_row, sur_dir,
                cat_dir, kids, np.array([sur.use], dtype=np.int64))

    def decision_nodes(self, X, cross_validation=False):
        """The node reached by each row at every depth: list of arrays, last = leaves.
        ``cross_validation``: a surrogate tree sends the rows that nothing else sends as
        rpart's cross-validation does (see :meth:`ordstat.trees._surrogate.Surrogates.
        directions`)."""
        X = np.asarray(X, dtype=np.float64)
        n = X.shape[0]
        node = np.zeros(n, dtype=np.int64)
        path = [node.copy()]
        table = self._category_table()
        is_cat = np.array([lc is not None for lc in self.left_categories], dtype=bool)
        active = np.arange(n)
        while active.size:
            v = node[active]
            internal = self.children_left[v] >= 0
            active = active[internal]
            if not active.size:
                break
            v = v[internal]
            x = X[active, self.feature[v]]
            go_left = x < self.threshold[v]
            cat = is_cat[v]
            if cat.any():
                codes = np.nan_to_num(x[cat], nan=-1.0).astype(np.int64)
                inside = (codes >= 0) & (codes < table.shape[1])
                left_cat = np.zeros(codes.shape, dtype=bool)
                left_cat[inside] = table[v[cat][inside], codes[inside]]
                go_left[cat] = left_cat
            missing = np.isnan(x)
            if self.surrogates is None:
                if missing.any():
                    go_left[missing] = self.missing_left[v[missing]]
            else:
                go_left, stay = self._surrogate_sides(X, active, v, x, go_left, missing,
                                                      cross_validation)
                node[active[stay]] = v[stay]
                active, v, go_left = active[~stay], v[~stay], go_left[~stay]
            node[active] = np.where(go_left, self.children_left[v], self.children_right[v])
            path.append(node.copy())
        return path

    def _surrogate_sides(self, X, active, v, x, go_left, missing, cross_validation=False):
        """(go_left, stay) of the rows ``active`` at internal nodes ``v`` of a surrogate
        tree: the split's side where it can tell, else the surrogates' (:meth:`ordstat.trees.
        _surrogate.Surrogates.directions`); ``stay`` where nothing can."""
        sur = self.surrogates
        unknown = missing.copy()
        categorical = np.array([sur.primary_categories[i] is not None for i in v.tolist()],
                               dtype=bool)
        for r in np.flatnonzero(~missing & categorical).tolist():
            unknown[r] = sur.unknown_categories(v[r], np.int64(x[r]))
        stay = np.zeros(v.shape, dtype=bool)
        if unknown.any():
            u = np.flatnonzero(unknown)
            nl = self.n_node_samples[self.children_left[v[u]]]
            nr = self.n_node_samples[self.children_right[v[u]]]
            d = sur.directions(X, active[u], v[u], nl, nr, cross_validation)
            go_left = go_left.copy()
            go_left[u] = d > 0
            stay[u] = d == 0
        return go_left, stay

    def pruned(self, keep_split: np.ndarray) -> "Tree":
        """The subtree in which only nodes with ``keep_split`` True (and all their ancestors
        kept) remain internal; returned in preorder with re-numbered indices."""
        keep_split = np.asarray(keep_split, dtype=bool) & (self.children_left >= 0)
        order = []
        stack = [0]
        while stack:
            i = stack.pop()
            order.append(i)
            if keep_split[i]:
                stack.append(int(self.children_right[i]))
                stack.append(int(self.children_left[i]))
        order = np.asarray(order, dtype=np.int64)
        new_index = np.full(self.n_nodes, -1, dtype=np.int64)
        new_index[order] = np.arange(order.size)
        internal = keep_split[order]
        cl = np.where(internal, new_index[self.children_left[order]], -1)
        cr = np.where(internal, new_index[self.children_right[order]], -1)
        left_categories = np.empty(order.size, dtype=object)
        present = np.empty(order.size, dtype=object)
        for k, i in enumerate(order):
            left_categories[k] = self.left_categories[i] if internal[k] else None
            if internal[k] and self.present_categories is not None:
                present[k] = self.present_categories[i]
        return Tree(
            children_left=cl,
            children_right=cr,
            feature=np.where(internal, self.feature[order], -1),
            threshold=np.where(internal, self.threshold[order], np.nan),
            left_categories=left_categories,
            value=self.value[order].copy(),
            n_node_samples=self.n_node_samples[order].copy(),
            weighted_n_node_samples=self.weighted_n_node_samples[order].copy(),
            impurity=self.impurity[order].copy(),
            improvement=np.where(internal, self.improvement[order], 0.0),
            risk=self.risk[order].copy(),
            yval=self.yval[order].copy(),
            complexity=self.complexity[order].copy(),
            node_number=self.node_number[order].copy(),
            depth=self.depth[order].copy(),
            missing_left=self.missing_left[order] & internal,
            missing_learned=self.missing_learned[order] & internal,
            surrogates=(None if self.surrogates is None
                        else self.surrogates.subset(order, internal)),
            present_categories=present,
        )


class DerivedTree(Tree):
    """A :class:`Tree` that stores only what cannot be computed from its other arrays, and
    computes the rest when read, the same values in the same types as the tree it was made
    from (:meth:`from_tree`): always the node depths and rpart's node numbers (from the
    children), the total weights (row sums of ``value``) and the impurities (the criterion's,
    from ``value``); and, where computing them gives exactly the stored values (checked when
    made), the unit counts (row sums of ``value``: bootstrap repeats as weights), the risks and
    predicted classes (from ``value`` and the loss) and the complexities (weakest links of a
    fully grown tree). An ensemble keeps hundreds of trees, for which these are about half of a
    compact tree's bytes; prediction reads none of them. Pickled, it is stored as a
    :class:`Tree` is (every field)."""

    _DERIVED = ("depth", "node_number", "weighted_n_node_samples", "impurity")
    _CHECKED = ("n_node_samples", "yval", "risk", "complexity")

    @classmethod
    def from_tree(cls, tree, criterion, loss, store=None):
        """``tree`` without its derived arrays (``criterion``: the Criterion it was grown
        with, ``loss``: its (K, K) loss matrix); ``store``: a function applied to each array
        kept, which must give back the same values (e.g. :func:`compact_array`)."""
        leaves = tree.children_left < 0
        self = cls.from_arrays(
            {name: getattr(tree, name) for name in tree.__dataclass_fields__
             if name not in cls._DERIVED and name not in cls._CHECKED},
            criterion, loss, float(tree.complexity[leaves].max()), store)
        computed = self._yval_and_risk()
        computed["n_node_samples"] = self.n_node_samples
        for name in cls._CHECKED:  # dropped where computing it gives it back exactly
            if name == "complexity":  # from the risks as the tree holds them
                computed[name] = self._complexities(self.__dict__.get("risk", computed["risk"]))
            kept = getattr(tree, name)
            if not np.array_equal(computed[name], kept):
                object.__setattr__(self, name, kept if store is None else store(kept))
        return self

    @classmethod
    def from_arrays(cls, arrays, criterion, loss, alpha, store=None):
        """The tree of its stored ``arrays`` (a dict: every field but the derived and checked
        ones), all of the checked ones computed when read: for a tree known to give them back,
        grown fully (``alpha`` < 0, its complexity bound) on unit weights or bootstrap repeats
        (an ensemble's compiled growth makes its trees so, without making a :class:`Tree`
        first). ``criterion``, ``loss``: as :meth:`from_tree`; ``store``: as there."""
        self = object.__new__(cls)
        # (frozen: the fields set in the instance's dict, as object.__setattr__ would)
        fields = self.__dict__
        fields.update(_criterion=criterion, _loss=np.asarray(loss, dtype=np.float64),
                      _alpha=float(alpha))
        if store is None:
            fields.update(arrays)
        else:  # surrogates (a record) or None are kept as they are
            fields.update({name: store(a) if isinstance(a, np.ndarray) else a
                           for name, a in arrays.items()})
        return self

    def _yval_and_risk(self):
        risks = _risks(self.value, self._loss)
        yval = np.argmin(risks, axis=1)
        return {"yval": yval, "risk": risks[np.arange(yval.size), yval]}

    def __getattr__(self, name):  # only for names not stored: the derived arrays
        if name in ("weighted_n_node_samples", "n_node_samples"):
            total = self.value.astype(np.float64).sum(axis=1)
            return total if name == "weighted_n_node_samples" else total.astype(np.int64)
        if name == "impurity":
            wsum = self.weighted_n_node_samples
            impurity = np.zeros(wsum.shape)
            np.divide(self._criterion.impurity(self.value.astype(np.float64)), wsum,
                      out=impurity, where=wsum > 0)
            return impurity
        if name in ("depth", "node_number"):
            return _depths_and_numbers(self.children_left, self.children_right)[
                name == "node_number"]
        if name in ("yval", "risk"):
            return self._yval_and_risk()[name]
        if name == "complexity":
            return self._complexities(self.risk)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _complexities(self, risk):
        left = self.children_left.astype(np.int64)
        right = self.children_right.astype(np.int64)
        cx = _fast.compiled(_complexities_bottom_up, _complexity)(
            left, right, np.asarray(risk, dtype=np.float64), self._alpha)
        _fast.compiled(_fix_cp)(left, right, cx)
        return cx


def with_present_categories(tree, X, sample_weight):
    """``tree`` with ``present_categories`` set from its training data ``X`` (float array of
    category codes and numbers, shape (n, p)) and weights: for each categorical split, the codes
    its training units with positive weight had (rpart's printed splits name only those). The
    tree itself when it has no categorical split."""
    split_on_codes = np.array([c is not None for c in tree.left_categories], dtype=bool)
    if not split_on_codes.any():
        return tree
    if tree.surrogates is not None:  # known from the growth (units sent by the surrogates too)
        return replace(tree, present_categories=tree.surrogates.primary_categories.copy())
    X = np.asarray(X, dtype=np.float64)[np.asarray(sample_weight) > 0]
    cols = np.unique(tree.feature[split_on_codes])
    width = 1 + int(np.nanmax(X[:, cols], initial=0.0))
    seen = np.zeros((tree.n_nodes, width), dtype=bool)
    rows = np.arange(X.shape[0])
    for nodes in tree.decision_nodes(X):  # each unit meets each node of its path once
        at = split_on_codes[nodes]
        codes = X[rows[at], tree.feature[nodes[at]]]
        known = ~np.isnan(codes)
        seen[nodes[at][known], codes[known].astype(np.int64)] = True
    present = np.empty(tree.n_nodes, dtype=object)
    for v in np.flatnonzero(split_on_codes):
        present[v] = np.flatnonzero(seen[v]).astype(np.int64)
    return replace(tree, present_categories=present)


def walk_rows(X):
    """``X`` as the compiled walk reads it: float64, C-contiguous and read-only (one machine
    code for every caller, see :mod:`ordstat.trees._fast`)."""
    return _fast.read_only(np.ascontiguousarray(X, dtype=np.float64))


def _depths_and_numbers(left, right):
    """(depth, rpart node number) of every node of a tree given by its children (root 0,
    depth 0, number 1; the children of number k are 2k and 2k + 1), level by level."""
    depth = np.zeros(left.shape, dtype=np.int64)
    number = np.ones(left.shape, dtype=np.int64)
    level = np.zeros(1, dtype=np.int64)
    d = 0
    while level.size:
        level = level[left[level] >= 0]
        kids_l, kids_r = left[level].astype(np.int64), right[level].astype(np.int64)
        d += 1
        depth[kids_l] = depth[kids_r] = d
        number[kids_l] = 2 * number[level]
        number[kids_r] = 2 * number[level] + 1
        level = np.concatenate([kids_l, kids_r])
    return depth, number


def _risks(counts, loss):
    """(s, K) risk of predicting each class in each node: ``counts @ loss.T``, summed the same
    way for every row whatever the number of rows (a matrix product's rounding can depend on
    its shape, and the level loop and compiled levels multiply different blocks of nodes).
    With whole counts and losses whose sums stay below 2^52 (unit weights or bootstrap
    repeats, and the built-in losses) every partial sum is a whole number held exactly, so
    any order of the sums gives the same numbers: from ``WHOLE_RISKS_K`` classes on,
    :func:`_whole_risks` then (at K = 26 the loop below was half of a forest's time; a BLAS
    product, on threads that wait for a busy machine's cores, was slower than that loop;
    with fewer classes the loop costs little and a first fit need not compile the product).
    A small block of whole counts (a compact tree's integers, a root's or a level's bootstrap
    counts) with whole losses: the same compiled sums where numba is (one call in place of
    the dozen numpy calls of checking the numbers: a forest reads the risk of every tree's
    root), else one matrix product of whole numbers, exact, so the same numbers again
    (small: a BLAS product that runs in one thread)."""
    compiled = counts.size and _fast.kernels() is not None
    if compiled and (counts.size <= WHOLE_PRODUCT_SIZE or loss.shape[0] >= WHOLE_RISKS_K):
        whole, risks = _fast.compiled(_whole_loss_risks, _whole_risks)(
            np.ascontiguousarray(counts, dtype=np.float64),
            np.ascontiguousarray(loss, dtype=np.float64))
        if whole:
            return risks
    elif 0 < counts.size <= WHOLE_PRODUCT_SIZE:
        risks = _whole_risks_product(counts, loss)
        if risks is not None:
            return risks
    counts = np.asarray(counts, dtype=np.float64)
    risks = np.empty((counts.shape[0], loss.shape[0]))
    for h in range(loss.shape[0]):
        risks[:, h] = np.sum(counts * loss[h], axis=1)
    return risks


WHOLE_RISKS_K = 8  # see _risks


WHOLE_PRODUCT_SIZE = 4096  # see _risks


def _whole_risks_product(counts, loss):
    """``counts @ loss.T`` as whole numbers held exactly in float64, or None when a count or
    a loss is not a whole number or a sum could reach 2^52."""
    whole = np.trunc(loss)
    if not (whole == loss).all():  # (NaN is not whole)
        return None
    if counts.dtype.kind != "f":
        counts = counts.astype(np.float64)
    elif not (counts == np.trunc(counts)).all():
        return None
    largest = float(np.abs(counts).max()) * counts.shape[1] * float(np.abs(whole).max())
    if largest >= 2.0 ** 52:
        return None
    # every product and partial sum a whole number below 2^53: exact in any order
    return np.dot(counts, whole.T)


def _whole_loss_risks(counts, loss):
    """:func:`_whole_risks`, (False, unfinished) also when a loss is not a whole number (a
    plain loop, compiled by :func:`ordstat.trees._fast.compiled`)."""
    largest = 0.0
    for h in range(loss.shape[0]):
        for g in range(loss.shape[1]):
            c = loss[h, g]
            if c != np.trunc(c):  # (NaN is not whole)
                return False, np.zeros((counts.shape[0], loss.shape[0]))
            largest = max(largest, abs(c))
    return _whole_risks(counts, loss, largest)


def _whole_risks(counts, loss, largest_loss):
    """(True, ``counts @ loss.T``) summed over the nonzero counts only (deep nodes hold few
    classes), or (False, unfinished) as soon as a count is not a whole number >= 0 or a row's
    sums could reach 2^52 (``largest_loss``: the largest absolute loss, a whole number); a
    plain loop, compiled by :func:`ordstat.trees._fast.compiled`."""
    out = np.zeros((counts.shape[0], loss.shape[0]))
    for i in range(counts.shape[0]):
        total = 0.0
        for g in range(counts.shape[1]):
            c = counts[i, g]
            if c != 0.0:
                if not (c > 0.0 and c == np.floor(c)):
                    return False, out
                total += c
                for h in range(loss.shape[0]):
                    out[i, h] += c * loss[h, g]
        if total * largest_loss >= 2.0 ** 52:
            return False, out
    return True, out


def _fix_cp(children_left, children_right, complexity):
    """rpart's fix_cp on a tree in preorder: a node cannot outlive its parent (parents come
    first, so each node's complexity is final when it is passed to its children)."""
    for v in range(children_left.size):
        for kid in (children_left[v], children_right[v]):
            if kid >= 0 and complexity[v] < complexity[kid]:
                complexity[kid] = complexity[v]


def _complexity(risk, risk_l, risk_r, cx_l, cx_r, l_split, l_risk, r_split, r_risk):
    """Weakest-link complexity of a node of risk ``risk`` whose children (risks ``risk_l``,
    ``risk_r``, complexities ``cx_l``, ``cx_r``) keep ``l_split``, ``r_split`` splits of
    summed leaf risk ``l_risk``, ``r_risk`` below them, letting a child collapse first when its
    own complexity is smaller (rpart's partition, "who goes first"); returns the complexity and
    the four numbers after the collapses."""
    t = (risk - (l_risk + r_risk)) / (l_split + r_split + 1)
    if cx_r > cx_l:
        if t > cx_l:
            l_risk, l_split = risk_l, 0
            t = (risk - (l_risk + r_risk)) / (l_split + r_split + 1)
            if t > cx_r:
                r_risk, r_split = risk_r, 0
    elif t > cx_r:
        r_risk, r_split = risk_r, 0
        t = (risk - (l_risk + r_risk)) / (l_split + r_split + 1)
        if t > cx_l:
            l_risk, l_split = risk_l, 0
    cx = (risk - (l_risk + r_risk)) / (l_split + r_split + 1)
    return cx, l_split, l_risk, r_split, r_risk


def _complexities_bottom_up(left, right, risk, alpha):
    """:meth:`TreeBuilder._partition` when alpha < 0, children before parents (children are
    always appended after their parent): risks are >= 0 and a split never raises the summed
    risk, so no node is made a leaf or collapsed and only the complexities remain to compute
    (a plain loop, compiled by :func:`ordstat.trees._fast.compiled`)."""
    cx = np.full(left.size, alpha)
    n_split = np.zeros(left.size, dtype=np.int64)  # splits kept below each node
    sub_risk = risk.copy()  # summed leaf risk below each node
    for v in range(left.size - 1, -1, -1):
        lv, rv = left[v], right[v]
        if lv < 0:
            continue
        c, ls, lr, rs, rr = _complexity(risk[v], risk[lv], risk[rv], cx[lv], cx[rv],
                                        n_split[lv], sub_risk[lv], n_split[rv], sub_risk[rv])
        cx[v] = c
        n_split[v], sub_risk[v] = ls + rs + 1, lr + rr
    return cx


# the signed integer types with their ranges, smallest first (compact_array)
_INT_TYPES = tuple((t, int(np.iinfo(t).min), int(np.iinfo(t).max))
                   for t in (np.int8, np.int16, np.int32, np.int64))


def compact_array(a):
    """``a`` (int or float) in the smallest type that holds every value exactly: a signed
    integer type when the values are whole numbers (floats too: class counts and risks with
    unit weights), else float32 when every value survives the round trip through float32
    (NaN included), else float64 as given. ``a.astype(original dtype)`` gives ``a`` back."""
    if a.size == 0:
        return a
    if a.dtype.kind == "f":
        if a.dtype == np.float64 and a.flags.c_contiguous and _fast.kernels() is not None:
            # one compiled pass instead of eight array operations (an ensemble compacts
            # every tree it grows)
            kind, lo, hi = _fast.compiled(_float_kind)(a.reshape(-1), _WHOLE_BOUND)
        else:
            kind, lo, hi = _float_kind_numpy(a)
    else:
        kind, lo, hi = _WHOLE, a.min(), a.max()
    return compact_as(a, kind, lo, hi)


def compact_as(a, kind, lo, hi):
    """:func:`compact_array` of ``a`` whose values are of ``kind`` (whole numbers from ``lo``
    to ``hi``, held by float32, or neither; see :func:`_float_kind`), found beforehand (an
    ensemble finds those of a tree's arrays in one compiled pass)."""
    if kind != _WHOLE:
        return a.astype(np.float32) if kind == _FLOAT32 else a
    lo, hi = int(lo), int(hi)
    for t, least, most in _INT_TYPES:
        if least <= lo and hi <= most:
            return a.astype(t)
    return a


# what _float_kind finds a float array to be: whole numbers in the range of _WHOLE_BOUND,
# else held exactly by float32 (NaN included), else neither
_WHOLE, _FLOAT32, _FLOAT64 = 2, 1, 0
_WHOLE_BOUND = np.iinfo(np.int64).max / 2


def _float_kind_numpy(a):
    """(kind, min, max) of a float array ``a`` (see :func:`compact_array`), in numpy."""
    lo, hi = a.min(), a.max()
    # whole and finite (NaN fails the comparison, inf the bound)
    if max(-lo, hi) <= _WHOLE_BOUND and (a == np.trunc(a)).all():
        return _WHOLE, lo, hi
    with np.errstate(over="ignore"):  # beyond float32's range: inf, not the value
        low = a.astype(np.float32)
    same = (low.astype(np.float64) == a) | (np.isnan(a) & np.isnan(low))
    return (_FLOAT32 if same.all() else _FLOAT64), lo, hi


def _float_kind(a, bound):
    """:func:`_float_kind_numpy` of a 1-D float64 array (a plain loop, compiled by
    :func:`ordstat.trees._fast.compiled`; ``bound``: ``_WHOLE_BOUND``): one pass for whole
    numbers (class counts), a second for the others."""
    whole = True
    lo, hi = np.inf, -np.inf
    for x in a:
        if x != x:  # NaN: not whole, kept by float32
            whole = False
            continue
        lo, hi = min(lo, x), max(hi, x)
        if whole and x != np.trunc(x):
            whole = False
    if whole and max(-lo, hi) <= bound:
        return _WHOLE, lo, hi
    for x in a:
        if x == x and np.float64(np.float32(x)) != x:
            return _FLOAT64, lo, hi
    return _FLOAT32, lo, hi
