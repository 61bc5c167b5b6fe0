"""What the R package calls through reticulate.

Everything crossing the border is plain: numpy arrays, lists of strings, dicts, and factors as
(codes 0..K-1 with -1 for NA, levels, ordered flag), rebuilt explicitly on each side, because
reticulate turns a bare R ordered factor into strings and drops the order. This module must
work in the R environment's Python (numpy < 2, no rpy2).
"""

from __future__ import annotations

import importlib
import inspect
import numbers
import pickle

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import make_constraint

from ordstat._core.registry import ESTIMATORS as _REGISTRY

# the R package's estimator kinds: kind -> (module, class), from ordstat's estimator registry
ESTIMATORS = {entry.r_kind: (entry.module, entry.name) for entry in _REGISTRY if entry.r_kind}

# the discrete models among them, by the names the serial combination takes
_DISCRETE = ("fmm", "foim", "kernel")

# the binary learners of the decompositions by their R names: (module, class, parameters)
BINARY_LEARNERS = {
    # Newton's method converges in a few iterations also on unscaled predictors, where lbfgs
    # stops at its iteration limit (with a warning R users cannot act on): the same model
    "logistic": ("sklearn.linear_model", "LogisticRegression",
                 {"solver": "newton-cholesky", "max_iter": 1000}),
    "tree": ("sklearn.tree", "DecisionTreeClassifier",
             {"criterion": "entropy", "min_samples_leaf": 2}),
    "svm": ("sklearn.svm", "SVC", {"probability": True}),
    # Frank & Hall's own binary learner (J48)
    "c45": ("ordstat.trees", "C45Classifier", {}),
}


def _as_list(values):
    if values is None:
        return []
    if isinstance(values, str):
        return [values]
    return list(values)


def frame(columns, names):
    """A DataFrame from R columns.

    Parameters
    ----------
    columns : list of dict
        Each ``{"kind": "numeric", "values": array}`` or ``{"kind": "factor", "codes": array,
        "levels": list, "ordered": bool}``.
    names : list of str
    """
    names = _as_list(names)
    data = {}
    for name, col in zip(names, columns):
        if col["kind"] == "numeric":
            values = np.asarray(col["values"], dtype=np.float64).reshape(-1)
            # R's NA is a signalling NaN: arithmetic on it raises numpy's "invalid value"
            # warning, so missing values become the ordinary NaN
            data[name] = np.where(np.isnan(values), np.nan, values)
        else:
            data[name] = factor(col["codes"], col["levels"], col["ordered"])
    return pd.DataFrame(data, columns=names)


def factor(codes, levels, ordered=True):
    """pandas Categorical from codes 0..K-1 (negative = missing) and levels."""
    codes = np.asarray(codes, dtype=np.int64).reshape(-1)
    return pd.Categorical.from_codes(np.where(codes < 0, -1, codes),
                                     categories=_as_list(levels), ordered=bool(ordered))


def codes_of(labels, classes):
    """Codes 0..K-1 of predicted labels against the ordered classes."""
    codes = pd.Index(list(classes)).get_indexer(list(np.asarray(labels, dtype=object)))
    if (codes < 0).any():
        raise ValueError("predicted labels outside the fitted classes; this is a bug.")
    return codes.astype(np.int64)


def _estimator(kind, params):
    cls = _class(kind)
    params = _from_r(cls, params)
    if "estimator" in params:
        params["estimator"] = _sub_estimator(params["estimator"])
    if "estimators" in params:
        params["estimators"] = _model_list(params["estimators"])
    return cls(**params)


def _from_r(cls, params):
    """The parameters of ``cls`` as R gave them, with R's numbers made Python's: R writes whole
    numbers as doubles (``5``, not ``5L``), so a whole float becomes an int where the class
    wants one. Nothing is checked here: the class checks its parameters when it is fitted."""
    constraints = getattr(cls, "_parameter_constraints", {})
    return {name: _r_number(value, constraints.get(name)) for name, value in
            dict(params or {}).items()}


def _r_number(value, constraints):
    """A whole float as an int when ``constraints`` (scikit-learn's, of one parameter) refuse
    it as a float and take integers (so that an int out of range is reported as such), or
    when there are none (parameters checked by hand in ``fit`` take whole numbers as ints);
    any other value unchanged."""
    if not (isinstance(value, float) and value.is_integer()):
        return value
    if constraints is None:
        return int(value)
    made = [make_constraint(c) for c in constraints]
    if any(c.is_satisfied_by(value) for c in made):
        return value
    return int(value) if any(_takes_integers(c) for c in made) else value


def _takes_integers(constraint):
    kind = getattr(constraint, "type", None)
    if isinstance(kind, type) and issubclass(kind, numbers.Integral):
        return True
    # composite constraints ("random_state": an int interval, a RandomState or None)
    return any(_takes_integers(c) for c in getattr(constraint, "_constraints", ()))


def _model_list(names):
    """The models of a serial combination from R's names: EDDA names ("EEI"), "fmm", "foim",
    "kernel", or "edda" (all 14 EDDA models, chosen by the combiner)."""
    from ordstat.gaussian import EDDA, MODELS

    names = _as_list(names)
    if len(names) == 1 and isinstance(names[0], str) and names[0].lower() == "edda":
        return "edda"
    out = []
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"estimators must be model names (strings) such as 'EEI' or "
                            f"'fmm'; got {name!r}.")
        if name.lower() in _DISCRETE:
            out.append(_estimator(name.lower(), {}))
        elif name.upper() in MODELS:
            out.append(EDDA(model=name.upper()))
        else:
            raise ValueError(
                f"unknown model {name!r}; use EDDA model names ({', '.join(MODELS)}), "
                "'fmm', 'foim', 'kernel', or 'edda' for all 14 EDDA models."
            )
    return out


def _sub_estimator(spec):
    """The ``estimator`` parameter from R: a binary learner's name (``BINARY_LEARNERS``), a
    ``{"kind": ..., "params": ...}`` dict of an ``ESTIMATORS`` kind, or a Python object."""
    if isinstance(spec, str):
        if spec not in BINARY_LEARNERS:
            raise ValueError(f"estimator must be one of {sorted(BINARY_LEARNERS)} or a "
                             f"scikit-learn classifier; got {spec!r}.")
        module, cls, params = BINARY_LEARNERS[spec]
        return getattr(importlib.import_module(module), cls)(**params)
    if isinstance(spec, dict):
        return _estimator(spec["kind"], spec.get("params"))
    return spec


# mclust's names of the two models with one predictor, equal and variable variance: the
# spherical models of the same names in any dimension
_MCLUST_ONE_PREDICTOR = {"E": "EII", "V": "VII"}


def _mclust_names(model, n_features):
    """EDDA model names as mclust spells them (``"E"``, ``"V"`` with one predictor) in the
    Python class's names; anything else unchanged (EDDA checks it)."""
    if n_features != 1:
        return model
    if isinstance(model, str):
        return _MCLUST_ONE_PREDICTOR.get(model.upper(), model)
    if isinstance(model, (list, tuple)):
        return [_MCLUST_ONE_PREDICTOR.get(m.upper(), m) if isinstance(m, str) else m
                for m in model]
    return model


# The distinct messages warned by the last fit or prediction, which the R side re-issues as R
# warnings (take_warnings), so that R's warning(), suppressWarnings() and warnings() see them.
_WARNINGS = []


def _recording(function, *args, **kwargs):
    from ordstat._core.warnings import record

    _WARNINGS.clear()
    result, caught = record(function, *args, **kwargs)
    _WARNINGS.extend(message for _, message in caught)
    return result


def take_warnings():
    """The messages warned by the last fit or prediction (then forgotten)."""
    out = list(_WARNINGS)
    _WARNINGS.clear()
    return out


def fit(kind, params, X, y_codes, y_levels, sample_weight=None, y_ordered=True):
    """Fit an ordstat estimator on X with the response given by codes and levels.

    ``y_ordered=False`` passes an unordered Categorical (R's plain factor), for the models
    that do not use the class order. Warnings are kept for :func:`take_warnings`.
    """
    params = dict(params or {})
    if not y_ordered:
        # an R factor's levels fix the class order of the output columns, as in R
        params.setdefault("classes", _as_list(y_levels))
    if kind == "edda" and "model" in params:
        params["model"] = _mclust_names(params["model"], X.shape[1])
    est = _estimator(kind, params)
    y = factor(y_codes, y_levels, ordered=bool(y_ordered))
    weights = {} if sample_weight is None else {
        "sample_weight": np.asarray(sample_weight, dtype=np.float64).reshape(-1)}
    return _recording(est.fit, X, y, **weights)


def predict_codes(est, X):
    return codes_of(_recording(est.predict, X), est.classes_)


def predict_proba(est, X):
    return np.asarray(_recording(est.predict_proba, X), dtype=np.float64)


def tree_arrays(est, X=None):
    """The flat arrays of a fitted OrdinalTreeClassifier, plus the leaf row of each unit of X."""
    t = est.tree_
    out = {
        "children_left": np.asarray(t.children_left, dtype=np.int64),
        "children_right": np.asarray(t.children_right, dtype=np.int64),
        "feature": np.asarray(t.feature, dtype=np.int64),
        "threshold": np.asarray(t.threshold, dtype=np.float64),
        "value": np.asarray(t.value, dtype=np.float64).reshape(len(t.children_left), -1),
        "n_node_samples": np.asarray(t.n_node_samples, dtype=np.int64),
        "improvement": np.asarray(t.improvement, dtype=np.float64),
        # where missing values of the split variable go (rpart's export cannot hold it)
        "missing_left": np.asarray(getattr(t, "missing_left", np.zeros(len(t.children_left))),
                                   dtype=bool),
        "left_categories": [None if c is None else [int(v) for v in np.asarray(c).reshape(-1)]
                            for c in _left_categories(t)],
        "present_categories": [None if c is None else [int(v) for v in np.ravel(c)]
                               for c in _present_categories(t)],
        "feature_names": [str(v) for v in getattr(est, "feature_names_in_",
                                                  [f"x{i}" for i in range(est.n_features_in_)])],
        "classes": [str(c) for c in est.classes_],
    }
    # rpart's parms$loss (true class in rows): it orders the children (altered priors)
    out["loss"] = np.ascontiguousarray(np.asarray(est._loss_, dtype=np.float64).T)
    risk = np.asarray(t.risk, dtype=np.float64)
    out["yval"] = np.asarray(t.yval, dtype=np.int64) + 1
    out["dev"] = risk
    # rpart's CP scale is relative to the root's risk, computed as the cp table computes it
    # (times 1 / R(root), which can differ from the quotient in the last bit), so that
    # prune(fit, cp = <a CP of the table>) cuts exactly that row's splits
    out["complexity"] = np.asarray(t.complexity, dtype=np.float64) * (
        1.0 / risk[0] if risk[0] > 0 else 1.0)
    cp = getattr(est, "cp_table_", None)
    if cp is not None:
        out["cptable"] = {str(c): np.asarray(cp[c], dtype=np.float64) for c in cp.columns}
    if X is not None:
        out["where"] = np.asarray(est.apply(X), dtype=np.int64) + 1  # rows of rpart's frame
    if getattr(t, "surrogates", None) is not None:
        out["surrogates"] = surrogate_arrays(est)
    return out


def surrogate_arrays(est):
    """The surrogate splits of a fitted OrdinalTreeClassifier grown with
    ``missing="surrogate"``, as R's ``rpart_surrogates`` (r_bridge/R/export.R) takes them: per
    node the number of surrogates and the units not missing the split variable; per surrogate
    (in node order) its variable (0-based), cut, direction (-1: "<" goes to the left child),
    the codes sent left and right by a factor surrogate, agreement, adjusted agreement and
    units sent; and rpart's controls."""
    sur = est.tree_.surrogates

    def codes(values):
        return [None if c is None else [int(v) for v in np.asarray(c).reshape(-1)]
                for c in values]

    return {
        "nsurrogate": np.diff(np.asarray(sur.start, dtype=np.int64)),
        "primary_count": np.asarray(sur.primary_count, dtype=np.int64),
        "feature": np.asarray(sur.feature, dtype=np.int64),
        "threshold": np.asarray(sur.threshold, dtype=np.float64),
        "direction": np.asarray(sur.direction, dtype=np.int64),
        "left_categories": codes(sur.left_categories),
        "right_categories": codes(sur.right_categories),
        "agree": np.asarray(sur.agree, dtype=np.float64),
        "adj": np.asarray(sur.adj, dtype=np.float64),
        "count": np.asarray(sur.count, dtype=np.int64),
        "maxsurrogate": int(est.maxsurrogate), "usesurrogate": int(sur.use),
        "surrogatestyle": int(sur.style),
    }


def _left_categories(t):
    cats = getattr(t, "left_categories", None)
    n = len(t.children_left)
    if cats is None:
        return [None] * n
    return [None if c is None else c for c in cats]


def _present_categories(t):
    """The categories present in each node at fitting (None: all, or not a factor split)."""
    present = getattr(t, "present_categories", None)
    return [None] * len(t.children_left) if present is None else list(present)


def tree_snip(est, leaves, cp=None):
    """A copy of a fitted OrdinalTreeClassifier whose nodes ``leaves`` become leaves.

    rpart's ``snip.rpart`` (and, with ``cp``, ``prune.rpart``) on the Python tree: ``leaves``
    are 0-based rows of ``tree_`` (rpart's frame, depth-first preorder); their subtrees are
    cut from the current tree (never regrown from the tree grown at fit). With ``cp``, the cp
    table is cut as ``prune.rpart`` cuts it (the rows whose CP, raised to ``cp``, is distinct;
    the last one's CP set to ``cp``) and ``cp_`` becomes ``cp``.
    """
    import copy

    tree = est.tree_
    keep = tree.children_left >= 0
    keep[np.asarray(leaves, dtype=np.int64).reshape(-1)] = False
    out = copy.deepcopy(est)
    out.tree_ = tree.pruned(keep)
    if cp is not None:
        cp = float(cp)
        table = est.cp_table_
        raised = np.maximum(table["CP"].to_numpy(dtype=np.float64), cp)
        _, first = np.unique(raised, return_index=True)
        cut = table.iloc[np.sort(first)].copy()
        cut.iloc[-1, cut.columns.get_loc("CP")] = cp
        cut.index = pd.RangeIndex(1, len(cut) + 1)
        out.cp_table_ = cut
        out.cp_ = cp
    out._set_importances()
    return out


def tree_xpred(est, X, y_codes, y_levels, folds, cp, sample_weight=None):
    """rpart's ``xpred.rpart`` for a fitted OrdinalTreeClassifier, with its own criterion.

    For each fold id in ``folds`` (one per row of ``X``, the training data), a tree is grown
    on the other rows with the estimator's controls (its alpha scaled by the training part's
    share of the weight, as in the cross-validation of ``fit``), and each held-out row is
    dropped down it: for each CP of ``cp`` (rpart's relative scale, scaled the same way), it
    stops at the first node whose complexity is at most that CP, and the node's class is its
    prediction. Returns the 1-based class numbers (n_samples, len(cp)), as rpart's.
    """
    from sklearn.utils import check_random_state

    from ordstat.trees._prune import nodes_at

    Xe = est._prepare(X)
    labels = np.asarray(_as_list(y_levels), dtype=object)[
        np.asarray(y_codes, dtype=np.int64).reshape(-1)]
    codes = codes_of(labels, [str(c) for c in est.classes_])
    n = Xe.shape[0]
    w = (np.ones(n) if sample_weight is None
         else np.asarray(sample_weight, dtype=np.float64).reshape(-1))
    folds = np.asarray(folds).reshape(-1)
    root_risk = float(est.tree_.risk[0])
    cps = np.asarray(cp, dtype=np.float64).reshape(-1) * root_risk
    params = est._tree_params(Xe.shape[1])
    alpha = params["cp"] * root_risk
    rng = check_random_state(est.random_state)
    k = est.n_classes_
    total = w.sum()
    out = np.zeros((n, cps.size), dtype=np.int64)
    for f in np.unique(folds):
        test = folds == f
        train = ~test
        scale = w[train].sum() / total if total > 0 else 0.0
        if not train.any() or scale <= 0:
            # nothing to grow on: the held-out units get the fitted root's class, as a tree
            # with no split would give
            out[test] = int(est.tree_.yval[0]) + 1
            continue
        tree = est._builder(params, rng, alpha=alpha * scale).build(
            Xe[train], codes[train], w[train], k)
        path = np.stack(tree.decision_nodes(Xe[test], cross_validation=True), axis=1)
        out[test] = tree.yval[nodes_at(tree, path, cps * scale)] + 1
    return out


def metrics(truth_codes, pred_codes, n_classes, names=None):
    """The ordinal metrics of ordstat.metrics on codes 0..K-1, under their canonical names.

    ``names``: metric names or aliases (``ordstat.metrics.get_metric``); default all of
    ``METRICS``. Unknown names raise ``ValueError`` listing the choices.
    """
    from ordstat import metrics as m
    truth = np.asarray(truth_codes, dtype=np.int64).reshape(-1)
    pred = np.asarray(pred_codes, dtype=np.int64).reshape(-1)
    classes = list(range(int(n_classes)))
    names = list(m.METRICS) if names is None else [names] if isinstance(names, str) else names
    out = {}
    for name in names:
        canonical, fn, _ = m.get_metric(name)
        out[canonical] = float(fn(truth, pred, classes=classes))
    return out


def name_tables():
    """The canonical names and alias tables of metrics and criteria (for the R package's tests)."""
    from ordstat._core import names as _names
    return {"metrics": list(_names.METRIC_NAMES), "metric_aliases": dict(_names.METRIC_ALIASES),
            "criteria": list(_names.CRITERION_NAMES),
            "criterion_aliases": dict(_names.CRITERION_ALIASES)}


def attribute(est, name):
    """A fitted attribute as plain Python (arrays, floats, lists); None when absent."""
    value = getattr(est, name, None)
    if isinstance(value, pd.DataFrame):
        return {str(c): value[c].to_numpy() for c in value.columns}
    return value


def log_likelihood(est, X, y_codes, y_levels, y_ordered=True, sample_weight=None):
    """Contract 3's complete-data log-likelihood of (X, y) under a fitted generative model."""
    y = factor(y_codes, y_levels, ordered=bool(y_ordered))
    if sample_weight is None:
        return float(est.log_likelihood(X, y))
    w = np.asarray(sample_weight, dtype=np.float64).reshape(-1)
    return float(est.log_likelihood(X, y, sample_weight=w))


def dumps(est):
    """The pickled estimator as uint8 codes (an R raw vector on the other side)."""
    return np.frombuffer(pickle.dumps(est, protocol=4), dtype=np.uint8).astype(np.int32)


def loads(codes):
    """The estimator back from :func:`dumps`' codes."""
    return pickle.loads(np.asarray(codes, dtype=np.uint8).reshape(-1).tobytes())


def edda_table(est):
    """The per-model comparison table of a fitted EDDA as plain columns (model names first)."""
    table = est.summary()["models"]
    out = {"model": [str(m) for m in table.index]}
    for c in table.columns:
        values = table[c].to_numpy()
        out[str(c)] = [str(v) for v in values] if values.dtype == object else \
            np.asarray(values, dtype=np.float64)
    return out


def parameter_names(kind):
    """The constructor parameters of the estimator behind ``kind`` (read from its signature, as
    ``get_params`` does, so that classes with a required parameter are covered too)."""
    init = inspect.signature(_class(kind).__init__).parameters
    return sorted(name for name in init if name != "self")


def _class(kind):
    if kind not in ESTIMATORS:
        raise ValueError(f"unknown estimator kind {kind!r}; known: {sorted(ESTIMATORS)}.")
    module, cls = ESTIMATORS[kind]
    return getattr(importlib.import_module(module), cls)


def criterion_name(criterion):
    """The registry name of a split criterion given in any accepted spelling (for the labels of
    fitted models; the tree checks the criterion itself)."""
    from ordstat.trees.criteria import canonical_criterion

    return canonical_criterion(criterion) if isinstance(criterion, str) else \
        getattr(criterion, "__name__", type(criterion).__name__)


def class_name(kind):
    """The Python class behind ``kind``, as ``module.Class``."""
    _class(kind)  # the error for an unknown kind
    return ".".join(ESTIMATORS[kind])


def takes_sample_weight(kind):
    """Whether the ``fit`` of the class behind ``kind`` takes ``sample_weight``."""
    return "sample_weight" in inspect.signature(_class(kind).fit).parameters


def ensemble_info(est):
    """What ``print()`` of an R ensemble shows like randomForest's: the number of fitted trees
    and, for a random forest, the number of predictors drawn in each node (``mtry``)."""
    from ordstat.trees._classes import n_features_drawn

    out = {"n_trees": len(getattr(est, "estimators_", [])),
           "n_estimators": int(getattr(est, "n_estimators", 0))}
    if hasattr(est, "max_features") and hasattr(est, "n_features_in_"):
        out["mtry"] = n_features_drawn(est.max_features, int(est.n_features_in_))
    return out


def odt_size(est):
    """Nodes, leaves and depth of a fitted oDT (``ReplicatedTreeClassifier``), for the short
    ``print()`` of a large tree in R."""
    from ordstat.decomposition._odt import tree_depths

    return {"nodes": int(est.node_count_), "leaves": int(np.sum(est.tree_["left"] < 0)),
            "depth": int(tree_depths(est.tree_).max())}
