"""R's rpart with ordinal_split() against ordstat's own criteria and tree (same splits)."""

import numpy as np
import pandas as pd
import pytest
from rpy2.rinterface_lib.embedded import RRuntimeError

import ordstat.r
from ordstat.r._rpart import r_split_goodness
from ordstat.trees import OrdinalTreeClassifier, _splitter, criteria

pytestmark = pytest.mark.r

PY_NAMES = {"ordinal": "ordinal", "twoing": "twoing", "gini": "gini", "entropy": "entropy",
            "linear": "gini_linear", "quadratic": "gini_quadratic", "loss_linear": "loss_linear",
            "loss_quadratic": "loss_quadratic"}
LEVELS = ["very low", "lów", "Mid dle", "ZZ top"]


def ordered_data(n=240, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "x1": np.round(rng.normal(size=n), 3),
        "x 2": np.round(rng.uniform(size=n), 3),
        "g": pd.Categorical(rng.choice(["a", "b", "c", "d"], n)),
    })
    z = (df["x1"] + 2 * df["x 2"] + (df["g"] == "b") - (df["g"] == "d")
         + rng.normal(scale=.5, size=n))
    codes = np.digitize(z, [0, 1, 2])
    df["y"] = pd.Categorical.from_codes(codes, categories=LEVELS, ordered=True)
    return df


@pytest.mark.parametrize("criterion", sorted(PY_NAMES))
def test_r_criteria_equal_python_criteria(criterion):
    rng = np.random.default_rng(1)
    left = rng.integers(0, 6, size=(40, 4)).astype(float)
    right = rng.integers(0, 6, size=(40, 4)).astype(float)
    left[0] = 0  # an empty child
    left[1] = [2.5, 0, 0, 1.25]  # weighted counts
    ours = criteria.get_criterion(PY_NAMES[criterion])(left, right)
    np.testing.assert_allclose(r_split_goodness(left, right, criterion), ours, rtol=1e-12,
                               atol=1e-12)


def test_r_criteria_take_every_spelling_of_the_python_table():
    left, right = np.array([[3.0, 1, 0, 2]]), np.array([[0.0, 2, 3, 1]])
    for alias, canonical in criteria.ALIASES.items():
        for spelling in (alias, alias.upper().replace("_", "-")):
            np.testing.assert_allclose(r_split_goodness(left, right, spelling),
                                       criteria.get_criterion(canonical)(left, right))


def test_r_criteria_with_cost_matrix_and_scores_equal_python():
    rng = np.random.default_rng(2)
    left = rng.integers(0, 6, size=(20, 3)).astype(float)
    right = rng.integers(0, 6, size=(20, 3)).astype(float)
    cost = np.array([[0, 1, 4], [2, 0, 1], [5, 1, 0]], dtype=float)
    np.testing.assert_allclose(r_split_goodness(left, right, "linear", cost=cost),
                               criteria.generalized_gini(cost)(left, right), rtol=1e-12)
    np.testing.assert_allclose(r_split_goodness(left, right, "loss_linear", cost=cost),
                               criteria.loss_matrix_gini(cost)(left, right), rtol=1e-12)
    scores = [0.0, 1.0, 3.5]
    np.testing.assert_allclose(r_split_goodness(left, right, "ordinal", scores=scores),
                               criteria.ordinal_impurity(scores)(left, right), rtol=1e-12)


def _python_frame(tree, feature_names):
    t = tree.tree_
    rows = []
    for i in range(t.n_nodes):
        leaf = t.children_left[i] < 0
        rows.append({
            "node": int(t.node_number[i]),
            "var": "<leaf>" if leaf else feature_names[t.feature[i]],
            "n": int(t.n_node_samples[i]),
            "yval": str(tree.classes_[t.yval[i]]),
            "threshold": np.nan if leaf else t.threshold[i],
            "left": None if leaf or t.left_categories[i] is None
            else list(t.left_categories[i]),
            "improve": np.nan if leaf else t.improvement[i],
        })
    return pd.DataFrame(rows).set_index("node")


def _in_python_numbers(r_frame, py_frame, categories):
    """``r_frame`` indexed by the Python tree's node numbers: rpart puts the child of lower
    mean class first, ours the side ``x < threshold`` (or our left categories)."""
    number = {1: 1}
    for node in r_frame.index:  # preorder: a parent comes before its children
        row, p = r_frame.loc[node], number[node]
        if row["var"] == "<leaf>":
            continue
        if row["left_levels"] is None:
            swapped = not row["below_left"]
        else:
            py_left = py_frame.loc[p, "left"] if p in py_frame.index else None
            swapped = py_left is not None and not (
                set(row["left_levels"]) <= {categories[c] for c in py_left})
        kids = (2 * p + 1, 2 * p) if swapped else (2 * p, 2 * p + 1)
        number[2 * node], number[2 * node + 1] = kids
    return r_frame.set_axis([number[k] for k in r_frame.index]).sort_index()


def _assert_same_tree(r_frame, py_frame, categories):
    r_frame, py_frame = _in_python_numbers(r_frame, py_frame, categories), py_frame.sort_index()
    assert list(r_frame.index) == list(py_frame.index)
    assert list(r_frame["var"]) == list(py_frame["var"])
    assert list(r_frame["n"]) == list(py_frame["n"])
    assert list(r_frame["yval"]) == list(py_frame["yval"])
    np.testing.assert_allclose(r_frame["threshold"], py_frame["threshold"], rtol=1e-12)
    np.testing.assert_allclose(r_frame["improve"], py_frame["improve"], rtol=1e-9)
    for node in r_frame.index:
        py_left = py_frame.loc[node, "left"]
        r_left, r_right = r_frame.loc[node, "left_levels"], r_frame.loc[node, "right_levels"]
        assert (py_left is None) == (r_left is None)
        if py_left is not None:
            # R leaves categories absent from the node unassigned; ordstat sends them to the
            # larger side: compare the categories present in the node.
            py_names = {categories[c] for c in py_left}
            assert r_left and r_right
            assert set(r_left) <= py_names and not set(r_right) & py_names


@pytest.mark.parametrize("criterion", sorted(PY_NAMES))
def test_rpart_route_equals_ordinal_tree(criterion, monkeypatch):
    # rpart's user split methods order a factor's levels and cut that order (its interface
    # has no subset search): the tree is compared with the ordering rule for every criterion
    monkeypatch.setattr(_splitter, "SUBSET_SEARCH_LEVELS", 0)
    df = ordered_data()
    controls = dict(min_split=20, min_bucket=7, cp=0.005, max_depth=4)
    res = ordstat.r.rpart("y ~ .", df, criterion, minsplit=20, minbucket=7, cp=0.005, maxdepth=4,
                         xval=0, maxsurrogate=0, maxcompete=0)
    X = df.drop(columns="y")
    # R's loss criteria label leaves by least expected loss, as rpart with a loss matrix
    leaf_rule = "cost" if criterion.startswith("loss_") else "mode"
    tree = OrdinalTreeClassifier(criterion=PY_NAMES[criterion], xval=0, leaf_rule=leaf_rule,
                                 **controls).fit(X, df["y"])
    assert res.frame.shape[0] > 3
    if criterion == "ordinal":
        assert res.frame["left_levels"].notna().any()  # the factor is used somewhere
    _assert_same_tree(res.frame, _python_frame(tree, list(X.columns)), list(X["g"].cat.categories))


def test_rpart_with_weights_equals_weighted_tree():
    df = ordered_data(150, seed=4)
    w = np.random.default_rng(5).integers(1, 4, size=len(df)).astype(float)
    res = ordstat.r.rpart("y ~ x1 + `x 2`", df, "ordinal", weights=w, minsplit=10, minbucket=4,
                         cp=0.01, maxdepth=3, xval=0)
    X = df[["x1", "x 2"]]
    tree = OrdinalTreeClassifier(min_split=10, min_bucket=4, cp=0.01, max_depth=3,
                                 xval=0).fit(X, df["y"], sample_weight=w)
    _assert_same_tree(res.frame, _python_frame(tree, list(X.columns)), [])
    assert res.frame["wt"].iloc[0] == w.sum()


def test_rpart_frame_view_and_levels():
    df = ordered_data(100)
    res = ordstat.r.rpart("y ~ x1", df, "twoing", minsplit=10, cp=0.02, xval=0)
    assert res.levels == LEVELS
    count_columns = [c for c in res.frame.columns if c.startswith("count[")]
    assert count_columns == [f"count[{v}]" for v in LEVELS]
    counts = res.frame[[f"count[{v}]" for v in LEVELS]].to_numpy()
    np.testing.assert_allclose(counts[0], df["y"].value_counts(sort=False).to_numpy())
    assert res.frame.index[0] == 1 and "rpart" in res.fit.rclass


def test_rpart_bad_arguments():
    df = ordered_data(60)
    with pytest.raises(ValueError, match="unknown criterion 'misclassification'.*gini_linear"):
        ordstat.r.rpart("y ~ .", df, "misclassification")
    with pytest.raises(TypeError, match="criterion must be a string"):
        ordstat.r.rpart("y ~ .", df, None)
    with pytest.raises(TypeError, match="unknown rpart control"):
        ordstat.r.rpart("y ~ .", df, min_split=3)
    with pytest.raises(TypeError, match="data must be a pandas DataFrame"):
        ordstat.r.rpart("y ~ .", df.to_numpy())
    with pytest.raises(ValueError, match="formula"):
        ordstat.r.rpart("y", df)
    df["u"] = pd.Categorical(df["y"].astype(str))
    with pytest.raises(RRuntimeError, match="unordered factor"):
        ordstat.r.rpart("u ~ x1", df)
