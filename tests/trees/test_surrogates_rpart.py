"""``OrdinalTreeClassifier(missing="surrogate")`` grows rpart's trees with surrogate splits: the
splits, the surrogate lists (variable, cut or levels, direction, agreement, adjusted agreement,
count), the variable importance and the predictions equal rpart's, stored by
tests/reference/rpart_surrogates.R in rpart_surrogates.json (airquality, mlbench's
BreastCancer, a synthetic set with factors; usesurrogate 0/1/2, surrogatestyle 0/1,
maxsurrogate 5, 1, 0; case weights; the cp table of 5-fold cross-validation on fixed folds)."""

import json

import numpy as np
import pandas as pd
import pytest
from tests._reference import HERE

from ordstat.trees import OrdinalTreeClassifier
from ordstat.trees._engine import forced

STORED = json.loads((HERE / "rpart_surrogates.json").read_text())
CASES = [(name, fit) for name in STORED if name != "versions"
         for fit in STORED[name]["fits"]]
RTOL = 1e-9


def frame_of(columns):
    """(X DataFrame, y ordered Categorical) from the stored columns (None: missing)."""
    data = {}
    for name, col in columns.items():
        if col["type"] == "numeric":
            data[name] = np.array([np.nan if v is None else v for v in col["values"]], float)
        else:
            data[name] = pd.Categorical(col["values"], categories=col["levels"],
                                        ordered=col["type"] == "ordered")
    frame = pd.DataFrame(data)
    return frame.drop(columns="y"), frame["y"]


def fitted(name, fit):
    X, y = frame_of(STORED[name]["data"])
    ref = STORED[name]["fits"][fit]
    c = ref["controls"]
    folds = ref.get("folds")
    tree = OrdinalTreeClassifier(criterion="gini", missing="surrogate",
                                 xval=0 if folds is None else np.array(folds),
                                 maxsurrogate=c["maxsurrogate"], usesurrogate=c["usesurrogate"],
                                 surrogatestyle=c["surrogatestyle"])
    weights = ref.get("weights")
    tree.fit(X, y, sample_weight=None if weights is None else np.array(weights, float))
    return tree, X, ref


def _rpart_nodes(ref):
    """{node number: (frame row, index of its primary in the splits matrix)}."""
    fr = ref["frame"]
    out, row = {}, 0
    for i, node in enumerate(fr["node"]):
        out[node] = (i, row if fr["var"][i] != "<leaf>" else None)
        if fr["var"][i] != "<leaf>":
            row += 1 + fr["ncompete"][i] + fr["nsurrogate"][i]
    return out


def _sides(ref, row, levels):
    """rpart's split at ``row`` of the splits matrix: (numeric cut, "<" goes to rpart's left
    child) or (None, {level: 1 left / 3 right / 2 absent})."""
    sp = ref["splits"]
    ncat = sp["ncat"][row]
    if abs(ncat) == 1:
        return sp["index"][row], ncat == -1
    codes = ref["csplit"][int(sp["index"][row]) - 1]
    return None, dict(zip(levels, codes))


def _levels(tree, feature):
    return [str(c) for c in tree.categories_.get(feature, tree._ordered_categories.get(
        feature, []))]


def _our_levels(tree, feature, codes_left, codes_right):
    cats = _levels(tree, feature)
    return ({cats[c] for c in codes_left}, {cats[c] for c in codes_right})


def _ordered_sides(tree, feature, cut, sides):
    """An ordered factor's cut (codes < cut on one side) as rpart shows it: a level set on
    each side, the levels absent from the node (2) on neither."""
    codes = {lv: c for c, lv in enumerate(_levels(tree, feature))}
    below = {lv for lv, c in sides.items() if c != 2 and codes[lv] < cut}
    above = {lv for lv, c in sides.items() if c != 2 and codes[lv] >= cut}
    return below, above


@pytest.mark.parametrize("name, fit", CASES)
def test_surrogate_tree_equals_rpart(name, fit):
    tree, X, ref = fitted(name, fit)
    t, sur = tree.tree_, tree.tree_.surrogates
    names = list(X.columns)
    nodes = _rpart_nodes(ref)
    fr, sp = ref["frame"], ref["splits"]
    assert t.n_nodes == len(fr["node"])
    todo = [(1, 0)]
    while todo:
        k, i = todo.pop()
        row, srow = nodes[k]
        assert t.n_node_samples[i] == fr["n"][row], (k, "n")
        assert t.risk[i] == pytest.approx(fr["dev"][row], rel=RTOL), (k, "dev")
        assert t.yval[i] + 1 == fr["yval"][row], (k, "yval")
        if srow is None:
            assert t.children_left[i] < 0, k
            continue
        j = int(t.feature[i])
        assert names[j] == fr["var"][row], (k, "var")
        assert t.improvement[i] == pytest.approx(sp["improve"][srow], rel=RTOL), (k, "improve")
        assert sur.primary_count[i] == sp["count"][srow], (k, "count")
        cut, sides = _sides(ref, srow, _levels(tree, j))
        if cut is None and j in tree._ordered_categories:  # rpart shows it by levels
            below, above = _ordered_sides(tree, j, t.threshold[i], sides)
            assert {frozenset(below), frozenset(above)} == {
                frozenset(lv for lv, c in sides.items() if c == 1),
                frozenset(lv for lv, c in sides.items() if c == 3)}, (k, "ordered cut")
            same = all(sides[lv] == 1 for lv in below)
        elif cut is not None:
            assert t.threshold[i] == pytest.approx(cut, rel=RTOL), (k, "cut")
            same = sides  # rpart's left child is the "<" side, ours always is
        else:
            present = sur.primary_categories[i]
            left = set(t.left_categories[i].tolist()) & set(present.tolist())
            ours_l, ours_r = _our_levels(tree, j, left, set(present.tolist()) - left)
            theirs_l = {lv for lv, c in sides.items() if c == 1}
            theirs_r = {lv for lv, c in sides.items() if c == 3}
            assert {frozenset(ours_l), frozenset(ours_r)} == {frozenset(theirs_l),
                                                              frozenset(theirs_r)}, k
            same = ours_l == theirs_l
        # our child of rpart's left child (2k)
        ours_of_2k = t.children_left[i] if same else t.children_right[i]
        ours_of_2k1 = t.children_right[i] if same else t.children_left[i]
        first, last = sur.start[i], sur.start[i + 1]
        assert last - first == fr["nsurrogate"][row], (k, "nsurrogate")
        for m, e in enumerate(range(first, last)):
            r = srow + 1 + fr["ncompete"][row] + m
            f = int(sur.feature[e])
            assert names[f] == sp["var"][r], (k, m, "surrogate var")
            assert sur.agree[e] == pytest.approx(sp["improve"][r], rel=RTOL), (k, m, "agree")
            assert sur.adj[e] == pytest.approx(sp["adj"][r], rel=RTOL), (k, m, "adj")
            assert sur.count[e] == sp["count"][r], (k, m, "count")
            scut, ssides = _sides(ref, r, _levels(tree, f))
            if scut is None and f in tree._ordered_categories:
                below, above = _ordered_sides(tree, f, sur.threshold[e], ssides)
                ours_less = t.children_left[i] if sur.direction[e] < 0 else t.children_right[i]
                to_2k = {lv for lv, c in ssides.items() if c == 1}
                to_2k1 = {lv for lv, c in ssides.items() if c == 3}
                assert below == (to_2k if ours_less == ours_of_2k else to_2k1), (k, m, "cut")
                assert above == (to_2k1 if ours_less == ours_of_2k else to_2k), (k, m, "cut")
            elif scut is not None:
                assert sur.threshold[e] == pytest.approx(scut, rel=RTOL), (k, m, "cut")
                ours_less = t.children_left[i] if sur.direction[e] < 0 else t.children_right[i]
                assert ours_less == (ours_of_2k if ssides else ours_of_2k1), (k, m, "dir")
            else:
                ours_l, ours_r = _our_levels(tree, f, sur.left_categories[e],
                                             sur.right_categories[e])
                to_2k = {lv for lv, c in ssides.items() if c == 1}
                to_2k1 = {lv for lv, c in ssides.items() if c == 3}
                assert (ours_l, ours_r) == ((to_2k, to_2k1) if same else (to_2k1, to_2k)), \
                    (k, m, "levels")
        todo.append((2 * k, int(ours_of_2k)))
        todo.append((2 * k + 1, int(ours_of_2k1)))


@pytest.mark.parametrize("name, fit", CASES)
def test_surrogate_importance_and_predictions_equal_rpart(name, fit):
    tree, X, ref = fitted(name, fit)
    want = np.array([ref["importance"].get(c, 0.0) for c in X.columns])
    np.testing.assert_allclose(tree.variable_importance_, want, rtol=RTOL, atol=1e-12)
    np.testing.assert_allclose(tree.predict_proba(X), np.array(ref["prob"]), rtol=RTOL,
                               atol=1e-12)


@pytest.mark.parametrize("name, fit", [c for c in CASES if c[1].startswith("xval")])
def test_surrogate_cp_table_equals_rpart_s_on_the_same_folds(name, fit):
    """Cross-validation grows surrogate trees on the folds and drops the held-out units down
    them. With usesurrogate 2 the cp table is rpart's. With usesurrogate 1 a held-out unit
    that nothing sends stops in a node, whose class is its prediction for the smaller cps
    (rpart's rundown.c does so for xpred) and whose loss counts in xerror here; rpart's
    rundown.c leaves those cps' errors as the previous unit left them (the loop that fills
    them has no braces around its two lines), so only CP, nsplit and rel error are compared
    then."""
    tree, _, ref = fitted(name, fit)
    want = np.array(ref["cptable"])  # CP, nsplit, rel error, xerror, xstd
    got = tree.cp_table_[["CP", "nsplit", "rel_error", "xerror", "xstd"]].to_numpy()
    columns = 5 if ref["controls"]["usesurrogate"] == 2 else 3
    np.testing.assert_allclose(got[:, :columns], want[:, :columns], rtol=RTOL, atol=1e-12)


@pytest.mark.parametrize("name", ["synthetic", "breast_cancer"])
def test_numpy_search_grows_the_same_surrogate_tree(name):
    """The one-feature searches in numpy (no compiled scan) give rpart's tree too."""
    with forced(numba=False):
        tree, X, ref = fitted(name, "max5_use2_style0")
        np.testing.assert_allclose(tree.predict_proba(X), np.array(ref["prob"]), rtol=RTOL,
                                   atol=1e-12)
    want = np.array([ref["importance"].get(c, 0.0) for c in X.columns])
    np.testing.assert_allclose(tree.variable_importance_, want, rtol=RTOL, atol=1e-12)
