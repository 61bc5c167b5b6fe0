"""rpart's loss-matrix criterion ("loss_linear", "loss_quadratic", ``loss_matrix_gini``): altered
priors, then Gini (Therneau & Atkinson, "An introduction to recursive partitioning using the
RPART routines", section on altered priors), beside the literal eq. 9 of Archer & Mas (2009),
"Ordinal response prediction using bootstrap aggregation, with application to a high-throughput
methylation data set" ("gini_linear").

The rpart trees are stored in ``tests/reference/rpart_loss.json`` (written by
``tests/reference/rpart_loss.R``, which says how to regenerate it): ``rpart(y ~ ., method =
"class", parms = list(loss = L), control = rpart.control(cp = 0, minsplit = 5, minbucket = 2,
xval = 0, maxsurrogate = 0, maxcompete = 0))``. Ours: ``OrdinalTreeClassifier(criterion=
"loss_linear" or "loss_quadratic", leaf_rule="cost", min_split=5, min_bucket=None (round(5 / 3)
= 2), cp=0, xval=0)``. rpart may put the ``x >= c`` child first, so trees are compared by the
units of their nodes and by every unit's predicted class, not by node order.
"""

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from tests._reference import LOSS_DATA, load, loss_data, read_input

from ordstat.reproduce import bagged_criteria_oob
from ordstat.reproduce._criteria import PAPER_CRITERIA
from ordstat.trees import OrdinalTreeClassifier, criteria
from ordstat.trees.criteria import CRITERIA, loss_matrix_gini

LINEAR3 = np.abs(np.subtract.outer(np.arange(3), np.arange(3))).astype(float)


def distance_loss(k, power):
    return np.abs(np.subtract.outer(np.arange(k), np.arange(k))).astype(float) ** power


# --- the goodness by hand --------------------------------------------------------------------

def gini_goodness_by_hand(left, right):
    """N i(t) - N_L i(t_L) - N_R i(t_R) with N i = N - sum n_g^2 / N, in exact fractions."""
    def n_i(counts):
        n = sum(counts)
        return n - Fraction(sum(c * c for c in counts), n)
    parent = [a + b for a, b in zip(left, right)]
    return n_i(parent) - n_i(left) - n_i(right)


def test_goodness_by_hand_on_a_tiny_node():
    left, right = np.array([[2.0, 1, 0]]), np.array([[0.0, 1, 3]])
    # linear loss: row sums (3, 2, 3), altered counts (6, 2, 0) and (0, 2, 9):
    # 40/8 + 85/11 - 133/19 = 5 + 85/11 - 7 = 63/11
    assert gini_goodness_by_hand([6, 2, 0], [0, 2, 9]) == Fraction(63, 11)
    assert CRITERIA["loss_linear"](left, right)[0] == pytest.approx(63 / 11, rel=1e-14)
    # quadratic loss: row sums (5, 2, 5), altered counts (10, 2, 0) and (0, 2, 15)
    want = gini_goodness_by_hand([10, 2, 0], [0, 2, 15])
    assert want == Fraction(104, 12) + Fraction(229, 17) - Fraction(341, 29)
    assert CRITERIA["loss_quadratic"](left, right)[0] == pytest.approx(float(want), rel=1e-14)
    # the node's impurity on the altered counts (6, 4, 9): N~ - S / N~ = 19 - 133 / 19 = 12
    assert CRITERIA["loss_linear"].impurity(np.array([2.0, 2, 3])) == pytest.approx(12.0)
    # literal eq. 9 is another number: the generalized Gini decrease of the same split
    assert CRITERIA["gini_linear"](left, right)[0] != pytest.approx(63 / 11)


def test_user_loss_matrix_and_its_cost_matrix():
    loss = np.array([[0, 1, 3], [2, 0, 1], [4, 1, 0]], dtype=float)
    crit = loss_matrix_gini(loss)
    assert crit.name == "loss_matrix" and crit.has_cost
    np.testing.assert_array_equal(crit.cost_matrix(3), loss)
    np.testing.assert_array_equal(CRITERIA["loss_quadratic"].cost_matrix(4), distance_loss(4, 2))
    left, right = np.array([[1.0, 2, 0], [0, 0, 0]]), np.array([[3.0, 0, 1], [1, 1, 1]])
    a = loss.sum(axis=1)  # (4, 3, 5)
    np.testing.assert_allclose(crit(left, right), CRITERIA["gini"](left * a, right * a),
                               rtol=1e-14)
    # leaf_rule="cost": least expected loss under the original counts
    X = np.arange(12.0)[:, None]
    y = np.array([0, 0, 0, 1, 2, 2, 2, 2, 1, 0, 2, 1])
    tree = OrdinalTreeClassifier(criterion=crit, leaf_rule="cost", min_split=20, xval=0).fit(X, y)
    counts = np.bincount(y, minlength=3)  # (4, 3, 5): expected losses (26, 9, 15) -> class 1
    np.testing.assert_allclose(counts @ loss, [26, 9, 15])
    assert tree.tree_.yval[0] == 1 and tree.tree_.risk[0] == 9  # the mode would be class 2


@pytest.mark.parametrize("loss,match", [
    ("cubic", "loss must be 'linear', 'quadratic'"),
    (np.ones((3, 2)), "loss must be a square"),
    (np.array([[0, -1], [1, 0]]), "loss must be non-negative"),
    (np.array([[1, 1], [1, 0]]), "loss must have a zero diagonal"),
    (np.array([[0, np.inf], [1, 0]]), "loss must contain only finite"),
    (np.array([[0, 1, 1], [0, 0, 0], [1, 1, 0]]), "loss must not have a row of zeros"),
])
def test_bad_loss_matrices(loss, match):
    with pytest.raises(ValueError, match=match):
        loss_matrix_gini(loss)


def test_loss_matrix_of_the_wrong_size_for_the_response():
    X = np.arange(10.0)[:, None]
    y = np.repeat([0, 1], 5)
    with pytest.raises(ValueError, match="3 x 3 but the response has 2 classes"):
        OrdinalTreeClassifier(criterion=loss_matrix_gini(LINEAR3), xval=0).fit(X, y)


def test_names_and_aliases():
    assert criteria.get_criterion("rpart_linear") is CRITERIA["loss_linear"]
    assert criteria.get_criterion("RPART-Quadratic") is CRITERIA["loss_quadratic"]
    assert CRITERIA["loss_linear"].scan == CRITERIA["loss_quadratic"].scan  # compiled once


# --- eq. 9 grows the ordinal trees, rpart's loss matrix does not -----------------------------

def test_gini_linear_grows_the_ordinal_tree_and_loss_linear_does_not():
    X, y, _ = read_input("loss4")
    fields = ("feature", "threshold", "yval", "n_node_samples")

    def grown(criterion):
        return OrdinalTreeClassifier(criterion=criterion, min_split=5, cp=0, xval=0).fit(X, y).tree_

    ordinal, eq9, loss = grown("ordinal"), grown("gini_linear"), grown("loss_linear")
    for name in fields:
        np.testing.assert_array_equal(getattr(eq9, name), getattr(ordinal, name), err_msg=name)
    # eq. 9 with linear costs is twice the ordinal impurity
    np.testing.assert_allclose(eq9.improvement, 2 * ordinal.improvement, rtol=1e-12)
    assert (loss.n_nodes != ordinal.n_nodes
            or not np.array_equal(loss.feature, ordinal.feature)
            or not np.array_equal(loss.threshold, ordinal.threshold))


# --- against rpart --------------------------------------------------------------------------

def rpart_node_units(theirs, X):
    """The units of every rpart node with a split: {node number: (units, (j, cut, improve))}."""
    units = {1: np.arange(X.shape[0])}
    rows = iter(theirs["splits"])
    splits = {}
    for num, var in zip(theirs["node"], theirs["var"]):  # preorder: parents first
        if var == "<leaf>":
            continue
        _, direction, improve, cut, _ = next(rows)
        j = int(var[1:])
        inside = units[num]
        below = X[inside, j] < cut
        first = below if direction < 0 else ~below  # direction +1: "x >= c" is the first child
        units[2 * num], units[2 * num + 1] = inside[first], inside[~first]
        splits[num] = (j, cut, improve)
    return units, splits


CASES = [(name, loss) for name in LOSS_DATA for loss in ("linear", "quadratic")]
# cases with an exactly tied best split that rpart and we break differently (the predictions
# still agree: both children of that tie are pure)
TIES = {("loss3", "quadratic"): 1}


@pytest.mark.parametrize("name,loss", CASES)
def test_same_tree_as_rpart_with_a_loss_matrix(name, loss):
    X, y, _ = read_input(name)
    k = LOSS_DATA[name][0]
    theirs = load("rpart_loss")[f"{name}_{loss}"]
    est = OrdinalTreeClassifier(criterion=f"loss_{loss}", leaf_rule="cost", min_split=5, cp=0,
                                xval=0, classes=np.arange(k)).fit(X, y)
    t = est.tree_
    # rpart's altered priors are sum_h L[g, h] / sum_h pi_h sum_j L[h, j]: its improve is ours
    # divided by that constant
    scale = np.bincount(y, minlength=k) / y.size @ distance_loss(k, 1 if loss == "linear" else 2
                                                                  ).sum(axis=1)
    units, splits = rpart_node_units(theirs, X)
    j, cut, improve = splits[1]
    assert t.feature[0] == j and t.threshold[0] == pytest.approx(cut, rel=1e-12)
    assert t.improvement[0] / scale == pytest.approx(improve, rel=1e-9)
    # every split: the same units below it, the same variable, cut and improvement; or an exact
    # tie (e.g. mirror images, children (2, 0, 0) | (0, 3, 0) on one variable and (0, 3, 0) |
    # (2, 0, 0) on another), which rounding decides in rpart's altered-prior arithmetic and in
    # ours, and below which the subtrees may legitimately differ
    crit = CRITERIA[f"loss_{loss}"]
    path = est.decision_path(X).tocsc()
    ours = {frozenset(path[:, v].nonzero()[0].tolist()): v for v in range(t.n_nodes)}
    tied = []
    for num, (j, cut, improve) in splits.items():
        if any(int(num) >> s in tied for s in range(1, int(num).bit_length())):
            continue  # below a tie
        v = ours[frozenset(units[num].tolist())]
        if t.feature[v] == j and t.threshold[v] == pytest.approx(cut, rel=1e-12):
            assert t.improvement[v] / scale == pytest.approx(improve, rel=1e-9)
            continue
        inside = units[num]
        go = X[inside, j] < cut
        left = np.bincount(y[inside][go], minlength=k)[None].astype(float)
        right = np.bincount(y[inside][~go], minlength=k)[None].astype(float)
        assert crit(left, right)[0] == pytest.approx(t.improvement[v], rel=1e-12)
        tied.append(num)
    assert len(tied) == TIES.get((name, loss), 0)
    # the leaves: classes of least expected loss and rpart's dev (the expected loss)
    if not tied:
        assert t.n_nodes == len(theirs["node"])
        np.testing.assert_allclose(np.sort(t.risk), np.sort(theirs["dev"]), atol=1e-9)
    np.testing.assert_array_equal(est.predict(X), theirs["predicted"])


def test_rpart_inputs_are_the_stored_ones():
    for name in LOSS_DATA:
        X, y = loss_data(name)
        Xs, ys, _ = read_input(name)
        np.testing.assert_array_equal(ys, y)
        # the tests read the stored CSV; numpy releases may round the draws differently
        np.testing.assert_allclose(Xs, X, rtol=1e-12, atol=1e-14)


def test_eq9_is_not_rpart_with_a_loss_matrix():
    """The reason for the new criterion: on these data the literal eq. 9 (with the same
    least-expected-loss leaves) does not give rpart's tree."""
    X, y, _ = read_input("loss4")
    theirs = load("rpart_loss")["loss4_linear"]
    eq9 = OrdinalTreeClassifier(criterion="gini_linear", leaf_rule="cost", min_split=5, cp=0,
                                xval=0).fit(X, y)
    assert not np.array_equal(eq9.predict(X), theirs["predicted"])


# --- the paper's experiment --------------------------------------------------------------------

@pytest.mark.filterwarnings("ignore:.*in every bootstrap sample")
def test_bagged_criteria_oob_leaf_rule_and_min_bucket():
    X, y, _ = read_input("loss3")
    assert PAPER_CRITERIA["Linear cost"] == "loss_linear"
    assert PAPER_CRITERIA["Quadratic cost"] == "loss_quadratic"
    crits = {"Linear cost": "loss_linear", "Ordinal": "ordinal"}
    _, fits = bagged_criteria_oob(X, y, criteria=crits, n_estimators=3, random_state=0)
    # None: as the paper ran them, cost leaves for rpart's loss matrix only; rpart's minbucket
    assert fits["Linear cost"].estimator.leaf_rule == "cost"
    assert fits["Ordinal"].estimator.leaf_rule == "mode"
    assert fits["Ordinal"].estimators_[0].tree_.n_node_samples.min() >= 2
    results, fits = bagged_criteria_oob(X, y, criteria={"Linear cost": "loss_linear"},
                                        n_estimators=3, random_state=0, leaf_rule="mode",
                                        min_bucket=6)
    tree = fits["Linear cost"].estimators_[0]
    assert tree.leaf_rule == "mode" and tree.min_bucket == 6
    assert tree.tree_.n_node_samples.min() >= 6
    again, _ = bagged_criteria_oob(X, y, criteria={"Linear cost": "loss_linear"},
                                   n_estimators=3, random_state=0, leaf_rule="mode",
                                   min_bucket=6)
    pd.testing.assert_frame_equal(results, again)
    # leaf classes change with the rule on the same bootstrap samples and splits
    cost, _ = bagged_criteria_oob(X, y, criteria={"q": "loss_quadratic"}, n_estimators=3,
                                  random_state=0, leaf_rule="cost", min_bucket=6)
    mode, _ = bagged_criteria_oob(X, y, criteria={"q": "loss_quadratic"}, n_estimators=3,
                                  random_state=0, leaf_rule="mode", min_bucket=6)
    assert not cost["value"].equals(mode["value"])
    with pytest.raises(ValueError, match="leaf_rule must be None or one of"):
        bagged_criteria_oob(X, y, leaf_rule="mean")
    with pytest.raises(ValueError, match="leaf_rule='cost' needs a criterion with a cost matrix"):
        bagged_criteria_oob(X, y, criteria={"Gini": "gini"}, n_estimators=2, leaf_rule="cost")
