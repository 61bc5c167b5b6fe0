"""Pieces shared by the ensembles: seeding, unit weights (the learning set's size and the
weighted bootstrap), fitting a base tree on class codes, vote tables, the weighted median of
votes, and joblib execution with an optional progress bar."""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
from joblib import delayed

from .._core.base import configured_clone
from .._core.labels import encode_target
from .._core.parallel import parallel
from .._core.predictors import ColumnCoding
from .._core.validation import base_inputs, check_random_state
from ..trees import OrdinalTreeClassifier
from ..trees import _fast
from ..trees._node_arrays import _preorder, _preorder_nodes
from ..trees._tree import (_WHOLE, _WHOLE_BOUND, DerivedTree, Tree, _float_kind, compact_array,
                           compact_as)
from ._steps import _child, kept_arrays, kept_tree

_SEED_MAX = np.iinfo(np.int32).max


def spawn_seeds(random_state, n):
    """``n`` integer seeds drawn once from ``random_state``: each sub-estimator owns one, so the
    result does not depend on how the work is split between jobs."""
    return check_random_state(random_state).integers(0, _SEED_MAX, size=n)


def learning_size(sample_weight, n):
    """n_L, the size of the learning set that ``sample_weight`` (checked, or None) describes:
    the sum of the weights when they are whole numbers (the counts of a frequency table: its
    rows stand for that many units), else the number of rows ``n`` (weights that only say how
    much each unit counts, e.g. normalised to sum to 1)."""
    if sample_weight is None or not _whole(sample_weight):
        return n
    return int(sample_weight.sum())


def _whole(sample_weight):
    return bool(np.all(sample_weight == np.floor(sample_weight)))


def weighted_bootstrap(rng, sample_weight, n):
    """The units (indices 0..n-1, with repeats) of a bootstrap sample drawn by ``rng``.

    Without weights, n uniform draws. With whole-number weights (a frequency table), the
    bootstrap of the table expanded into repeated rows: n_L = sum(w) draws of the n_L rows,
    each row mapped to its unit; the same random numbers as ``rng.integers(0, n_L, n_L)`` on
    the expanded rows (unit i's rows taken in turn), so the counts are those of the expanded
    sample and weights of ones draw what no weights draw. Other weights: n draws, unit i with
    probability w_i / sum(w). A unit of weight 0 is never drawn."""
    if sample_weight is None:
        return rng.integers(0, n, size=n)
    if not _whole(sample_weight):
        return rng.choice(n, size=n, replace=True, p=sample_weight / sample_weight.sum())
    ends = np.cumsum(sample_weight.astype(np.int64))
    return np.searchsorted(ends, rng.integers(0, ends[-1], size=ends[-1]), side="right")


def weighted_mean(values, sample_weight=None):
    """The mean of ``values`` weighted by ``sample_weight`` (None: unweighted); NaN when the
    weights sum to zero (or there are no values)."""
    values = np.asarray(values, dtype=np.float64)
    if sample_weight is None:
        return float(np.mean(values)) if values.size else float("nan")
    total = float(np.sum(sample_weight))
    return float(np.dot(values, sample_weight) / total) if total > 0 else float("nan")


class ConstantClassifier:
    """Stands in for a base tree whose training sample holds a single class (a bootstrap or
    weighted resample can draw one): predicts that class everywhere."""

    def __init__(self, code, n_classes):
        self.code = int(code)
        self.n_classes = int(n_classes)

    def predict(self, X):
        return np.full(X.shape[0], self.code, dtype=np.intp)

    def predict_proba(self, X):
        proba = np.zeros((X.shape[0], self.n_classes))
        proba[:, self.code] = 1.0
        return proba


class BaseTree(NamedTuple):
    """An ensemble's base estimator as each of its tree tasks takes it, read once per fit
    (:func:`base_tree`): the estimator, its ``get_params()`` when it is an ordinal tree
    (its trees are then copies made by :func:`tree_copy`), whether its trees take a
    bootstrap sample as distinct rows with repeat counts, and with ``params`` the state its
    copies share (``OrdinalTreeClassifier._sample_state``: the builder's parameters, loss,
    coding and categories' sizes), when the classes are known."""

    estimator: object
    params: dict | None
    repeats: bool
    state: object = None


def base_tree(template, n_features, n_classes=None, coding=None):
    """The :class:`BaseTree` of ``template`` for ``n_features`` features (coded by
    ``coding``, None: all numeric) and ``n_classes`` classes (None: no shared state). An
    ordinal tree's parameters are validated here (by ``_counts_repeats``), once for all its
    copies (a bagged tree spent a sixth of its time cloning and validating them again)."""
    if not isinstance(template, OrdinalTreeClassifier):
        return BaseTree(template, None, False)
    repeats = template._counts_repeats(n_features)
    if type(template) is not OrdinalTreeClassifier:
        return BaseTree(template, None, repeats)
    state = (None if n_classes is None
             else template._sample_state(n_features, n_classes, coding))
    return BaseTree(template, template.get_params(deep=False), repeats, state)


def tree_copy(template, params, n_classes, seed):
    """An unfitted copy of the ordinal tree ``template`` (its ``get_params()``: ``params``)
    for class codes 0..n_classes-1 and the seed ``seed``: what :func:`configured_clone` gives,
    made from the parameters directly (an ensemble makes hundreds)."""
    est = type(template)(**{**params, "classes": np.arange(n_classes),
                            "random_state": int(seed)})
    return est._carried_by(template)  # a user criterion that came with the pickled template


def fit_base(template, X, codes, n_classes, seed, sample_weight=None, repeats=None,
             coding=None, params=None, state=None):
    """A clone of ``template`` fitted on class codes 0..n_classes-1 (so that its
    ``predict_proba`` has one column per class even when a class is missing from the sample).
    ``repeats``: rows standing for that many units (an ordinal tree's private ``_fit``);
    ``coding``: the ensemble's :class:`~ordstat._core.predictors.ColumnCoding` of ``X``
    (None: numeric columns only), which an ordinal tree or an oDT adopts (its nominal columns
    are split as categories); ``params``, ``state``: those of :class:`BaseTree`, an ordinal
    tree's whose parameters were validated (the clone is then :func:`tree_copy`'s, not
    validated again, and it reads ``state`` for ``coding`` when given)."""
    present = codes if sample_weight is None else codes[sample_weight > 0]
    observed = np.unique(present)
    if observed.size < 2:
        return ConstantClassifier(observed[0] if observed.size else 0, n_classes)
    if params is None:
        est = configured_clone(template, classes=np.arange(n_classes), random_state=int(seed))
    else:
        est = tree_copy(template, params, n_classes, seed)
    if type(est) is OrdinalTreeClassifier and sample_weight is None:
        # the ensemble's checked rows and codes, not checked again
        est._fit(X, codes, repeats=repeats, coding=coding, encoding=codes_encoding(n_classes),
                 checked=params is not None, state=None if params is None else state)
    elif repeats is not None or (coding is not None and isinstance(est, OrdinalTreeClassifier)):
        est._fit(X, codes, sample_weight, repeats=repeats, coding=coding)
    elif coding is not None and hasattr(est, "_fit_coded"):  # oDT splits nominal columns too
        est._fit_coded(X, codes, sample_weight, coding=coding)
    elif sample_weight is None:
        est.fit(X, codes)
    else:
        est.fit(X, codes, sample_weight=sample_weight)
    return est


@functools.lru_cache(maxsize=64)
def codes_encoding(n_classes):
    """The encoding of the class codes 0..n_classes-1 as their own labels (shared by the
    trees of the ensembles, which fit them on codes)."""
    return encode_target(np.arange(n_classes), np.arange(n_classes))[0]


def fit_sample(template, params, sample, repeats, encoding, seed, coding=None, store=None,
               n_present=None, state=None):
    """:func:`fit_base` of an ordinal tree ``template`` (its ``get_params()``: ``params``) on
    the rows of a prepared sample (:mod:`ordstat.trees._prepared`) with their ``repeats``, the
    same tree without copying the rows or checking them again (``encoding``: of the class
    codes 0..K-1). ``store``: the :class:`TreeStore` its arrays are kept by (None: a new
    one); ``n_present``: the number of classes among the rows, when known; ``state``: the
    template's ``_sample_state`` for the sample and ``coding``, made once per ensemble, or
    None."""
    k = sample.data.n_classes
    if n_present is None or n_present < 2:
        present = np.bincount(sample.data.codes[sample.rows], minlength=k) > 0
        if np.count_nonzero(present) < 2:
            return ConstantClassifier(np.argmax(present), k)
    est = tree_copy(template, params, k, seed)
    # a fully grown tree comes compact (see compact_tree), without being made whole first
    return est._fit_sample(sample, repeats, encoding, coding,
                           store=TreeStore(sample.data.X) if store is None else store,
                           state=state)


class TreeStore:
    """How an ensemble keeps the fully grown tree of a prepared sample (the ``store`` of
    :meth:`ordstat.trees._grow.TreeBuilder.build_sample`): each array in the smallest type that
    holds it exactly (:func:`compact_tree`'s types), all found in one compiled pass over the
    tree (:func:`ordstat.ensemble._steps.kept_arrays`), which also walks the rows ``rows`` of
    the prepared features ``X`` (the tree's out-of-bag units; None: none) down the tree and
    keeps their ``leaves`` and predicted ``classes`` (None until the tree is made, and
    ``classes`` None where the counts or the losses are not whole numbers: its classes are then
    the tree's ``yval``, computed when read), and the tree's split ``importance`` (of each of
    the ``X.shape[1]`` features, :meth:`OrdinalTreeClassifier._set_importances`' sums; None
    until the tree is made)."""

    def __init__(self, X, rows=None):
        self.n_features = X.shape[1]
        self.X = _NO_ROWS[0] if rows is None else _fast.read_only(X)  # (one compiled type)
        self.rows = _NO_ROWS[1] if rows is None else rows
        self.leaves = self.classes = self.importance = None

    def __call__(self, a):
        return _compact(a, numeric=True)

    def arrays(self, grown, loss):
        """The arrays of :meth:`ordstat.trees._tree.DerivedTree.from_arrays` of the fully grown
        tree that the compiled levels grew in the node arrays ``grown`` (a
        :class:`ordstat.trees._node_arrays.NodeArrays`: numeric splits, whole counts), in preorder
        (``ordstat.trees._node_arrays._preorder_nodes``) and compact, from one compiled call
        (:func:`ordstat.ensemble._steps.kept_tree`)."""
        names = ("children_left", "children_right", "feature", "threshold", "improvement",
                 "missing_left", "missing_learned", "value")
        nodes = (grown.left, grown.right, grown.feature, grown.threshold, grown.goodness,
                 grown.missing, grown.value)
        if _fast.kernels() is None:
            m = int(grown.count[0])
            arrays = _preorder_nodes(*(a[:m] for a in nodes))
            return {**{name: self(a) for name, a in zip(names, arrays)},
                    "left_categories": _no_categories(arrays[0].size)}
        *arrays, ranges, leaves, classes, self.importance = _fast.compiled(
            kept_tree, _preorder_nodes, _preorder, kept_arrays, _float_kind, _child)(
            grown.count, *nodes, loss, _WHOLE_BOUND, self.X, self.rows, self.n_features)
        ranges = ranges.tolist()
        kept = dict(zip(names, arrays))
        for i, name in enumerate(names[:5]):
            at = 2 * i if i < 3 else 3 * i - 3
            kept[name] = (compact_as(arrays[i], _WHOLE, ranges[at], ranges[at + 1]) if i < 3
                          else compact_as(arrays[i], *ranges[at:at + 3]))
        kept["value"] = compact_as(arrays[7], *ranges[12:15])
        kept["left_categories"] = _no_categories(arrays[0].shape[0])
        self.leaves = leaves
        self.classes = classes if classes.size == self.rows.size else None
        return kept


# the prepared features and rows of a store that walks none (one compiled type)
_NO_ROWS = (_fast.read_only(np.zeros((0, 0))), np.zeros(0, dtype=np.int64))


def _no_categories(n):
    """The ``left_categories`` of a tree of ``n`` nodes without categorical splits: one None
    seen through a read-only view of length ``n`` (sliced from one made for the longest)."""
    global _NONE
    if _NONE.shape[0] < n:
        _NONE = np.broadcast_to(np.full(1, None, dtype=object), (max(n, 2 * _NONE.shape[0]),))
    return _NONE[:n]


_NONE = np.broadcast_to(np.full(1, None, dtype=object), (1024,))


def compact_tree(est):
    """``est`` with its fitted tree's arrays in the smallest types that hold them exactly
    (:func:`ordstat.trees._tree.compact_array`, as a pickled tree stores them): node indices,
    features and whole-number counts as small ints, float32 only where exact, and without the
    arrays computed again when read (:class:`ordstat.trees._tree.DerivedTree`). An ensemble
    keeps hundreds of trees: at n = 10^6 (K = 4) about 45 instead of 146 bytes a node; the
    values, and every prediction, are the same. Estimators other than ordinal trees are
    returned as they are."""
    tree = getattr(est, "tree_", None)
    if not isinstance(est, OrdinalTreeClassifier) or type(tree) is not Tree:
        return est
    # without categorical features no split has categories (no need to look at every node)
    numeric = not np.any(getattr(est, "_cat_sizes_", 1))
    small = DerivedTree.from_tree(tree, est._criterion_record(), est._loss_,
                                  store=lambda a: _compact(a, numeric))
    if getattr(est, "_full_tree", None) is tree:
        est._full_tree = small
    est.tree_ = small
    return est


def _compact(a, numeric=False):
    if isinstance(a, np.ndarray) and a.dtype.kind in "iuf":
        return compact_array(a)
    if isinstance(a, np.ndarray) and a.dtype == object and (
            numeric or all(v is None for v in a)):
        return _no_categories(a.shape[0])  # no categorical split
    return a


def base_proba(est, X, n_classes):
    """Class probabilities of a base estimator as an (n, n_classes) array over codes."""
    proba = np.asarray(est.predict_proba(X), dtype=np.float64)
    if proba.shape[1] == n_classes:
        return proba
    full = np.zeros((X.shape[0], n_classes))  # an estimator that ignored classes=
    full[:, np.asarray(est.classes_, dtype=np.intp)] = proba
    return full


def base_predict(est, X):
    """Predicted class codes of a base estimator fitted on codes."""
    return np.asarray(est.predict(X), dtype=np.intp)


def vote_table(pred, n_classes, weights=None):
    """sum_m c_m I(C_m(x) = j): ``pred`` (M, n) class codes -> (n, n_classes) votes."""
    pred = np.asarray(pred, dtype=np.intp)
    m, n = pred.shape
    flat = (np.arange(n)[None, :] * n_classes + pred).ravel()
    c = None if weights is None else np.repeat(np.asarray(weights, dtype=np.float64), n)
    votes = np.bincount(flat, weights=c, minlength=n * n_classes)
    return votes.reshape(n, n_classes).astype(np.float64)


def weighted_median(votes):
    """Median class of each row of a vote table: the smallest class g whose cumulative vote
    share reaches one half (the lower median when the votes split evenly)."""
    votes = np.asarray(votes, dtype=np.float64)
    cum = np.cumsum(votes, axis=1)
    half = cum[:, -1:] / 2.0
    # a small tolerance so that a share of exactly 1/2 (e.g. 2 of 4 trees) counts as reached
    return np.argmax(cum >= half * (1 - 1e-12), axis=1)


def run_parallel(fn, tasks, n_jobs=None, progress=False, desc=None, prefer=None, lazy=False):
    """``[fn(t) for t in tasks]`` through joblib (any backend, Dask included), in order, the
    warnings of tasks in other processes raised here (:func:`ordstat._core.parallel.parallel`);
    with a tqdm progress bar when ``progress`` is true. ``prefer``: joblib's soft hint
    ("threads" for work that releases the GIL), which a backend chosen by the user
    overrides. ``lazy``: an iterator of the results in order instead of the list (a result
    the caller has consumed is not kept)."""
    tasks = list(tasks)
    boxes = {}
    results = parallel((delayed(_task)(fn, *_items(t, boxes)) if isinstance(t, tuple)
                        else delayed(fn)(t) for t in tasks), n_jobs=n_jobs, prefer=prefer,
                       lazy=True)
    if progress:
        from tqdm.auto import tqdm

        results = tqdm(results, total=len(tasks), desc=desc)
    return results if lazy else list(results)


def release_freed_memory(size):
    """Hand the memory freed in the C heaps back to the system, where the C library can
    (glibc's ``malloc_trim``; elsewhere nothing), after the work on a sample of ``size``
    values (rows times features). A tree's temporaries are allocated by the threads that
    grow it, and memory freed inside glibc's per-thread heaps stays resident until trimmed:
    at n = 10^6 a forest's peak was 0.3 GB higher without this (measured by
    benchmarks/bench_ensemble.py's memory rows). Below ``TRIM_SIZE`` nothing is done: the
    next tree reuses the little memory kept, and each trim walks the heaps (a forest of
    small trees spent a tenth of its time trimming)."""
    if size < TRIM_SIZE:
        return
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


def _malloc_trim():
    global _TRIM
    if _TRIM is False:
        try:
            import ctypes

            _TRIM = ctypes.CDLL(None).malloc_trim
        except (OSError, AttributeError):
            _TRIM = None
    return _TRIM


TRIM_SIZE = 1_000_000  # see release_freed_memory
_TRIM = False  # glibc's malloc_trim, None where there is none; looked up once


class _Shared:
    """One item shared by the tasks of a :func:`run_parallel` call (a tuple: not weakrefable),
    in a box that is."""

    __slots__ = ("value", "__weakref__")

    def __init__(self, value):
        self.value = value

    def __sizeof__(self):
        # what dask's sizeof sees (sys.getsizeof): the dask backend scatters arguments above
        # 1 kB, and the box is shared for what it holds
        return 1 << 20


def _items(task, boxes):
    """A task tuple's items as arguments of their own, tuples boxed (one box per object), so
    that a backend that ships arguments by identity (joblib's dask backend: large ones are
    scattered once per call) sends the data and the prepared sample shared by all tasks once,
    not once per task inside its tuple."""
    return [boxes.setdefault(id(item), _Shared(item)) if isinstance(item, tuple) else item
            for item in task]


def _task(fn, *items):
    """``fn(task)`` for a task given by :func:`_items`."""
    return fn(tuple(item.value if isinstance(item, _Shared) else item for item in items))


def missing_values(estimator):
    """``ensure_all_finite`` for an ensemble of ``estimator`` (None: the default ordinal tree):
    missing values (NaN) pass through to base estimators that accept them (the ordinal trees
    learn where they go); otherwise they are refused, as inf always is."""
    if estimator is None:
        return "allow-nan"
    return base_inputs([estimator])[0]


def takes_categories(estimator):
    """Whether an ensemble of ``estimator`` (None: the default ordinal tree) takes nominal
    (string, unordered Categorical) columns: when the base estimator's tags say it takes
    categories (``base_inputs``; the ordinal trees split them as categories); any other
    base estimator gets numbers only (ordered Categoricals as their codes)."""
    return estimator is None or base_inputs([estimator])[1]


def code_predictors(ensemble, X, estimator):
    """(coding, coded ``X``): the categorical columns of an ensemble's training ``X`` coded
    once for all its trees (:class:`~ordstat._core.predictors.ColumnCoding`, the tree's own
    reading), stored on the ensemble for prediction; the coding is None when ``X`` has no
    categorical column (``X`` then comes back as given). Nominal columns are refused when
    the base ``estimator`` cannot split categories. Trees with rpart's surrogate splits
    (``missing="surrogate"``) keep missing values of nominal columns missing."""
    surrogate = getattr(estimator, "missing", None) == "surrogate"
    coding, coded = ColumnCoding.learn(X, missing_category=not surrogate)
    if coding.nominal and not takes_categories(estimator):
        raise coding.nominal_error(
            ensemble, X, f"fits its base estimator {type(estimator).__name__} on numbers")
    ensemble._column_coding = coding
    return (None if coding.is_empty else coding), coded


def coded_predictors(ensemble, X):
    """``X`` coded as the ensemble's training ``X`` was (:func:`code_predictors`)."""
    coding = getattr(ensemble, "_column_coding", None)
    return X if coding is None else coding.transform(X)
