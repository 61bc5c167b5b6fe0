"""Hierarchical coupling (Brito, Celeux & Sousa Ferreira 2006, section 4)."""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris
from sklearn.model_selection import LeaveOneOut

from ordstat.combine._coupling_candidates import _cv_mistakes, bipartitions, evaluate
from ordstat.combine.hierarchical import HierarchicalCoupling
from ordstat._core.labels import OrderGuessWarning
from ordstat.discrete import FullMultinomial, IndependenceModel
from ordstat.gaussian import EDDA


def _iris():
    X, y = load_iris(return_X_y=True)
    return X, np.array(["setosa", "versicolor", "virginica"])[y]


def _planted(n=40, seed=0):
    """Four Gaussian classes: {a, b} and {c, d} far apart, each pair overlapping a little."""
    rng = np.random.default_rng(seed)
    centres = {"a": (0, 0), "b": (0, 1.5), "c": (20, 0), "d": (20, 1.5)}
    X = np.vstack([rng.normal(c, 0.6, size=(n, 2)) for c in centres.values()])
    y = np.repeat(list(centres), n)
    return X, y


def test_iris_table8_all_edda_models_loo():
    X, y = _iris()
    hc = HierarchicalCoupling("edda").fit(X, y)
    root = hc.tree_
    print("\nTable 8, iris  (paper: ME .02, first split setosa vs rest with [lambda I])")
    print(f"ours: ME {hc.cv_error_:.3f}, first split {root.left} vs {root.right} with "
          f"{root.model} (LOO error {root.error:.4f}; [lambda I] "
          f"{root.candidate_errors['[lambda I]']:.4f})")
    print(hc)
    assert len(root.candidate_errors) == 14
    assert {tuple(root.left), tuple(root.right)} & {("setosa",), ("versicolor", "virginica")}
    assert sorted([root.left, root.right], key=len) == [["setosa"], ["versicolor", "virginica"]]
    assert hc.cv_error_ == pytest.approx(0.02, abs=0.0067)
    proba = hc.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert set(hc.predict(X)) <= set(y)


@pytest.mark.parametrize("model", ["EII", "VEI", "EEE", "VVV"])
def test_exact_loo_equals_refits(model):
    X, y = _iris()
    keep = np.r_[0:12, 50:62, 100:112]
    X, z = X[keep], (y[keep] == "virginica").astype(np.intp)
    est = EDDA(model=model)
    exact = _cv_mistakes(est, X, z, "loo", 0, EDDA(model=model, classes=[0, 1]).fit(X, z))
    brute = np.array([EDDA(model=model, classes=[0, 1]).fit(np.delete(X, i, 0), np.delete(z, i))
                      .predict(X[i:i + 1])[0] != z[i] for i in range(len(z))])
    np.testing.assert_array_equal(exact, brute)
    # the generic path with a splitter refits and must agree
    generic = _cv_mistakes(est, X, z, LeaveOneOut(), 0, None)
    np.testing.assert_array_equal(generic, brute)


def test_planted_hierarchy_recovered():
    X, y = _planted()
    hc = HierarchicalCoupling([EDDA(model="EII"), EDDA(model="VVV")]).fit(X, y)
    root = hc.tree_
    assert sorted([root.left, root.right]) == [["a", "b"], ["c", "d"]]
    for child in root.children:
        assert len(child.children) == 2 and 0 < child.error < 0.25
    assert root.error == 0
    np.testing.assert_allclose(hc.predict_proba(X).sum(axis=1), 1.0)


def test_bipartitions_count_and_cover():
    for m in range(2, 7):
        parts = bipartitions(tuple(range(m)))
        assert len(parts) == 2 ** (m - 1) - 1
        assert len({frozenset(map(frozenset, p)) for p in parts}) == len(parts)
        for left, right in parts:
            assert sorted(left + right) == list(range(m)) and left and right


def _contiguous(node, order):
    pos = [order.index(c) for c in node.classes]
    ok = pos == list(range(min(pos), max(pos) + 1))
    return ok and all(_contiguous(c, order) for c in node.children)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), k=st.integers(3, 5))
def test_ordinal_partition_is_contiguous_and_sums_to_one(seed, k):
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(k), 12)
    X = rng.normal(size=(len(y), 2)) + rng.normal(scale=2, size=(k, 2))[y]
    hc = HierarchicalCoupling([EDDA(model="EII"), EDDA(model="VII")], partition="ordinal")
    hc.fit(X, y)
    assert _contiguous(hc.tree_, list(hc.classes_))
    for node in hc.tree_.walk():
        if not node.is_leaf:  # each node cuts its (contiguous) classes once
            assert node.left + node.right == node.classes
    np.testing.assert_allclose(hc.predict_proba(X).sum(axis=1), 1.0)


def test_ordinal_respects_given_order():
    X, y = _planted()
    order = ["a", "c", "b", "d"]  # the planted pairs are not contiguous in this order
    hc = HierarchicalCoupling([EDDA(model="EII")], partition="ordinal", classes=order).fit(X, y)
    assert list(hc.classes_) == order
    assert _contiguous(hc.tree_, order)


def test_ordinal_refuses_unordered_categorical():
    X, y = _planted()
    with pytest.raises(ValueError, match="unordered pandas Categorical"):
        HierarchicalCoupling([EDDA(model="EII")], partition="ordinal").fit(
            X, pd.Categorical(y, ordered=False))
    # the other partitions take it without complaint (categories sorted, as other nominal
    # estimators do) and take string labels without guessing an order
    unordered = pd.Categorical(y, categories=["d", "b", "a", "c"], ordered=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error", OrderGuessWarning)
        hc = HierarchicalCoupling([EDDA(model="EII")]).fit(X, unordered)
        HierarchicalCoupling([EDDA(model="EII")]).fit(X, np.asarray(y, dtype=object))
    assert list(hc.classes_) == ["a", "b", "c", "d"]


def test_affinity_choice_equals_hand_computation():
    # one variable with states 0..2; FMM estimates f_k by the class frequencies
    x = np.array([0, 0, 0, 0] + [0, 1, 1, 1] + [2, 2, 1, 2])[:, None]
    y = np.repeat(["a", "b", "c"], 4)
    f = {"a": np.array([4, 0, 0]) / 4, "b": np.array([1, 3, 0]) / 4, "c": np.array([0, 1, 3]) / 4}

    def rho(A, B):
        fa = sum(f[k] for k in A) / len(A)  # equal class sizes: the n_k-weighted mixture
        fb = sum(f[k] for k in B) / len(B)
        return np.sum(np.sqrt(fa * fb))

    hand = {("a", "bc"): rho("a", "bc"), ("ab", "c"): rho("ab", "c"), ("ac", "b"): rho("ac", "b")}
    best = min(hand, key=hand.get)
    hc = HierarchicalCoupling([FullMultinomial(), IndependenceModel()], partition="affinity",
                              cv=2, random_state=0).fit(x, y)
    root = hc.tree_
    got = ("".join(root.left), "".join(root.right))
    print("\nhand affinities", hand, "chosen", best, "ours", got, root.affinity)
    assert got == best
    assert root.affinity == pytest.approx(hand[best])


def test_same_result_for_n_jobs_1_and_2():
    X, y = _planted(n=15)
    kw = dict(candidates=[EDDA(model="EII"), EDDA(model="VVI")], cv=3, random_state=7)
    a = HierarchicalCoupling(n_jobs=1, **kw).fit(X, y)
    b = HierarchicalCoupling(n_jobs=2, **kw).fit(X, y)
    assert str(a) == str(b)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))


def test_failing_candidate_is_skipped_with_warning():
    X, y = _planted(n=3)  # VVV needs more than d + 1 = 3 units per class
    with pytest.warns(UserWarning, match="VVV|D_k A_k"):
        hc = HierarchicalCoupling([EDDA(model="VVV"), EDDA(model="EII")]).fit(X, y)
    pairs = [n for n in hc.tree_.walk() if len(n.classes) == 2]
    assert pairs and all(n.model == "[lambda I]" for n in pairs)
    assert all(set(n.candidate_errors) == {"[lambda I]"} for n in pairs)
    with pytest.raises(ValueError, match="no candidate could be fitted"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            HierarchicalCoupling([EDDA(model="VVV")]).fit(X, y)


def test_evaluate_reports_failure_by_name():
    X = np.zeros((4, 2))
    fitted, wrong, msg, _ = evaluate("mine", EDDA(model="VVV"), X, np.array([0, 0, 1, 1]),
                                      "loo", 0)
    assert fitted is None and msg.startswith("mine: ")


@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(partition="best"), ValueError,
     "'partition' parameter of HierarchicalCoupling must be a str among"),
    (dict(node="vote"), ValueError, "'node' parameter of HierarchicalCoupling must be a str among"),
    (dict(cv="kfold"), ValueError, r"'cv' parameter of HierarchicalCoupling must be a str among "
                                   r"\{'loo'\}, an int in the range \[2, inf\) or an object "
                                   "implementing 'split' and 'get_n_splits'. Got 'kfold'"),
    (dict(cv=1), ValueError, r"'cv' parameter .* an int in the range \[2, inf\).*Got 1 "),
    (dict(cv=2.5), TypeError, r"'cv' parameter of HierarchicalCoupling must be .*Got 2.5 "),
    (dict(candidates=[]), TypeError, "non-empty list"),
    (dict(candidates="gaussian"), ValueError, "unknown candidate name 'gaussian'"),
    (dict(candidates=[object()]), TypeError, "fit and predict_proba"),
    (dict(candidates=[EDDA(model="EII"), EDDA(model="EII")]), ValueError, "distinct"),
    (dict(partition="affinity"), ValueError, "must be a discrete model"),
    (dict(rule="hard"), ValueError, "'rule' parameter of HierarchicalCoupling must be a str "
                                    "among"),
])
def test_bad_parameters(kwargs, exc, match):
    X, y = _planted(n=5)
    params = {"candidates": [EDDA(model="EII")], **kwargs}
    with pytest.raises(exc, match=match):
        HierarchicalCoupling(**params).fit(X, y)


def test_fewer_than_three_classes_and_too_many_classes():
    X, y = _planted(n=5)
    keep = np.isin(y, ["a", "b"])
    with pytest.raises(ValueError, match="at least three"):
        HierarchicalCoupling([EDDA(model="EII")]).fit(X[keep], y[keep])
    rng = np.random.default_rng(0)
    y13 = np.repeat(np.arange(13), 3)
    X13 = rng.normal(size=(39, 2))
    with pytest.raises(ValueError, match="'ordinal'.*'affinity'"):
        HierarchicalCoupling([EDDA(model="EII")]).fit(X13, y13)
    with pytest.raises(ValueError, match="inconsistent numbers"):
        HierarchicalCoupling([EDDA(model="EII")]).fit(X[:-1], y)


def test_summary_text_and_unfitted_str():
    X, y = _planted(n=10)
    hc = HierarchicalCoupling([EDDA(model="EII")])
    assert "HierarchicalCoupling" in str(hc)
    summary = hc.fit(X, y).summary()
    text = str(summary)
    assert text.count("[lambda I]") == 3 and dict(summary.info)["tree error"] == \
        f"{hc.cv_error_:.3f}"
    tree = summary.notes.splitlines()
    # each node in the paper's notation and mclust's
    assert tree[0].startswith("{a, b, c, d}  [lambda I] (EII)  error") and len(tree) == 7
    assert summary.notes in text
    table = hc.tree_table()
    assert set(table.loc[~table["leaf"], "mclust"]) == {"EII"}
    assert (table.loc[table["leaf"], "mclust"] == "").all()


def test_plot_coupling_tree_agg():
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt

    from ordstat.plotting import plot_coupling_tree

    X, y = _planted(n=10)
    hc = HierarchicalCoupling([EDDA(model="EII"), EDDA(model="VII")]).fit(X, y)
    ax = plot_coupling_tree(hc)
    texts = [t.get_text() for t in ax.texts]
    assert sorted(t for t in texts if t in "abcd") == ["a", "b", "c", "d"]
    internal = [t for t in texts if "error" in t]
    assert len(internal) == 3 and all("[lambda" in t for t in internal)
    assert len(ax.lines) == 6 + 3  # one segment per edge, one marker per internal node
    with pytest.raises(TypeError, match="HierarchicalCoupling"):
        plot_coupling_tree(EDDA())
    plt.close("all")


# --- combination nodes (need the serial combiner) -------------------------------------------------

def test_committee_nodes_describe_weights():
    pytest.importorskip("ordstat.combine.serial")
    X, y = _planted(n=12)
    hc = HierarchicalCoupling([EDDA(model="EII"), EDDA(model="VVI")], node="committee",
                              cv=3, random_state=0).fit(X, y)
    for node in hc.tree_.walk():
        if not node.is_leaf:
            assert "+" in node.model or "[lambda" in node.model
            w = node.estimator.weights_
            assert np.all(w >= 0) and w.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(hc.predict_proba(X).sum(axis=1), 1.0)


def test_combination_node_skips_a_failing_candidate():
    pytest.importorskip("ordstat.combine.serial")
    X, y = _planted(n=3)  # VVV cannot be fitted on the two-class leaves (3 units per class)
    with pytest.warns(UserWarning, match="skipped"):
        hc = HierarchicalCoupling([EDDA(model="VVV"), EDDA(model="EII")], node="committee",
                                  cv=3, random_state=0).fit(X, y)
    for node in hc.tree_.walk():
        if len(node.classes) == 2:
            assert len(node.estimator.estimators_) == 1


@pytest.mark.parametrize("node", ["likelihood", "bic", "integrated"])
def test_other_combination_nodes_discrete(node):
    pytest.importorskip("ordstat.combine.serial")
    rng = np.random.default_rng(1)
    y = np.repeat([0, 1, 2], 20)
    X = (rng.random((60, 3)) < np.array([[.1, .2, .8], [.8, .2, .2], [.5, .9, .5]])[y]).astype(int)
    hc = HierarchicalCoupling("discrete", node=node, cv=3, random_state=0).fit(X, y)
    np.testing.assert_allclose(hc.predict_proba(X).sum(axis=1), 1.0)
    assert hc.tree_.estimator.weights_.shape == (3,)


# --- Zoo (mlbench through rpy2), Table 9 style ----------------------------------------------------

@pytest.mark.r
@pytest.mark.slow
def test_zoo_affinity_tree_printed():
    pytest.importorskip("rpy2")
    from ordstat.datasets import load_zoo

    try:
        data = load_zoo()
    except ImportError as exc:
        pytest.skip(str(exc))
    X, y = data.drop(columns="type").astype(int), data["type"]
    hc = HierarchicalCoupling("discrete", partition="affinity", cv=5, random_state=0).fit(X, y)
    print("\nZoo, FOIM/FMM/KERNEL, affinity partitions, 5-fold CV at each node")
    print(hc)
    for node in hc.tree_.walk():
        if not node.is_leaf:
            print(f"  {node.left} | {node.right}: affinity {node.affinity:.3f}, "
                  + ", ".join(f"{k} {v:.3f}" for k, v in node.candidate_errors.items()))
            assert 0.0 <= node.affinity <= 1.0
    assert len([n for n in hc.tree_.walk() if n.is_leaf]) == 7
    assert hc.cv_error_ < 0.2


def test_pickle_roundtrip_and_feature_count():
    import pickle

    X, y = _planted(n=8)
    hc = HierarchicalCoupling([EDDA(model="EII")]).fit(X, y)
    again = pickle.loads(pickle.dumps(hc))
    np.testing.assert_array_equal(again.predict_proba(X), hc.predict_proba(X))
    assert hc.n_features_in_ == 2
    with pytest.raises(ValueError, match="features"):
        hc.predict(X[:, :1])
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        HierarchicalCoupling([EDDA(model="EII")]).predict(X)


def test_pickles_naming_the_nodes_by_their_old_module_load():
    # The tree's nodes were defined in ordstat.combine.hierarchical before the module was
    # split: a pickle that names them there still loads (protocol 0 writes module paths as
    # text, so the old path can be put back in).
    import pickle

    X, y = _planted(n=8)
    hc = HierarchicalCoupling([EDDA(model="EII")]).fit(X, y)
    blob = pickle.dumps(hc, protocol=0)
    assert b"ordstat.combine._coupling_tree" in blob
    old = blob.replace(b"ordstat.combine._coupling_tree", b"ordstat.combine.hierarchical")
    again = pickle.loads(old)
    np.testing.assert_array_equal(again.predict_proba(X), hc.predict_proba(X))
    assert str(again.summary()) == str(hc.summary())


def test_named_candidates_and_tree_table():
    X, y = _planted(n=8)
    hc = HierarchicalCoupling(["eii", "VII"]).fit(X, y)
    table = hc.tree_table()
    assert table["parent"].iloc[0] == -1 and len(table) == 7 and table["leaf"].sum() == 4
    assert set(table.loc[~table["leaf"], "model"]) <= {"[lambda I]", "[lambda_k I]"}
    with pytest.raises(ValueError, match="unknown candidate name 'XYZ'"):
        HierarchicalCoupling(["XYZ"]).fit(X, y)


def test_load_zoo_says_what_to_install_without_rpy2(monkeypatch):
    import sys

    from ordstat.datasets import load_zoo

    # (ordstat._core.rpy too: an earlier test in the process may have imported it)
    for module in ("rpy2", "rpy2.robjects", "ordstat._core.rpy"):
        monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(ImportError, match=r"Zoo data set.*needs rpy2.*ordstat\[r\]"):
        load_zoo()


# --- prediction rules (sequential: the paper's hard decisions; product of posteriors) -------------

class _Stub:
    """A node model with a fixed posterior of its right union for every unit."""

    def __init__(self, p_right):
        self.p_right = p_right

    def predict_proba(self, X):
        return np.tile([1.0 - self.p_right, self.p_right], (len(X), 1))


def _stub_tree(hc, p_root, p_below):
    """{a} | {b, c} at the root, {b} | {c} below, with the given posteriors of the right side."""
    from ordstat.combine.hierarchical import CouplingNode

    below = CouplingNode(classes=["b", "c"], left=["b"], right=["c"], estimator=_Stub(p_below),
                         children=(CouplingNode(["b"]), CouplingNode(["c"])))
    hc.tree_ = CouplingNode(classes=["a", "b", "c"], left=["a"], right=["b", "c"],
                            estimator=_Stub(p_root), children=(CouplingNode(["a"]), below))
    return hc


def _abc(n=10, seed=0, spread=1.2):
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 0.0], [2.0, 0.0], [1.0, 1.6]])
    y = np.repeat(["a", "b", "c"], n)
    return centres[np.repeat([0, 1, 2], n)] + rng.normal(scale=spread, size=(3 * n, 2)), y


def test_rules_differ_on_hand_set_posteriors():
    # root .55 for {b, c}, then .6 for c: the products are a .45, b .22, c .33; the hard
    # decisions go right (.55 > .5), then right again: c
    X, y = _abc(n=4)
    seq = _stub_tree(HierarchicalCoupling(["EII"]).fit(X, y), 0.55, 0.6)
    prod = _stub_tree(HierarchicalCoupling(["EII"], rule="product").fit(X, y), 0.55, 0.6)
    np.testing.assert_allclose(seq.predict_proba(X[:2]), [[0.45, 0.22, 0.33]] * 2)
    np.testing.assert_array_equal(prod.predict_proba(X[:2]), seq.predict_proba(X[:2]))
    assert list(seq.predict(X[:2])) == ["c", "c"]
    assert list(prod.predict(X[:2])) == ["a", "a"]
    # a tie at a node goes left, as a two-class argmax does: .55 then .5 -> b
    assert list(_stub_tree(seq, 0.55, 0.5).predict(X[:1])) == ["b"]
    # the root sends the unit to a at .5: the hard rule stops there
    assert list(_stub_tree(seq, 0.5, 0.9).predict(X[:1])) == ["a"]


def _loo_by_refits(hc, X, y):
    """Leave-one-out predictions of the fitted tree's rule with its structure and model choices
    fixed: for each unit, every node model is refitted on the node's units without it (the
    nodes not holding its class never saw it, so their refit is the full fit), then the unit is
    predicted by hc.predict. Independent of the fit's shortcut (EDDA's exact down-dates)."""
    import copy

    from sklearn.base import clone

    out = []
    for i in range(len(y)):
        tree = copy.deepcopy(hc)
        keep = np.arange(len(y)) != i
        for node in tree.tree_.walk():
            if node.is_leaf:
                continue
            units = keep & np.isin(y, node.classes)
            z = np.isin(y[units], node.right).astype(int)
            node.estimator = clone(node.estimator).fit(X[units], z)
        out.append(tree.predict(X[i:i + 1])[0])
    return np.array(out)


def test_cv_error_is_the_loo_error_of_predict_under_each_rule():
    X, y = _abc(n=15, seed=3)
    fits = {rule: HierarchicalCoupling(["EII", "VVI"], rule=rule).fit(X, y)
            for rule in ("sequential", "product")}
    # the rule changes no node choice, only how the tree predicts
    assert ([n.model for n in fits["sequential"].tree_.walk()]
            == [n.model for n in fits["product"].tree_.walk()])
    loo = {rule: _loo_by_refits(hc, X, y) for rule, hc in fits.items()}
    print("\nLOO errors by refits:", {r: float(np.mean(p != y)) for r, p in loo.items()},
          "cv_error_:", {r: hc.cv_error_ for r, hc in fits.items()},
          "units predicted differently:", int(np.sum(loo["sequential"] != loo["product"])))
    assert np.any(loo["sequential"] != loo["product"])  # the data separate the rules
    for rule, hc in fits.items():
        assert hc.cv_error_ == pytest.approx(np.mean(loo[rule] != y))
    # under "sequential", a unit is wrong exactly when a node on its true path errs: the old
    # "any mistake on the path" count from the candidates' two-class errors
    seq = fits["sequential"]
    for node in seq.tree_.walk():
        if not node.is_leaf:
            assert node.error == pytest.approx(node.candidate_errors[node.model])
    assert dict(seq.summary().info)["rule"].startswith("sequential")
    assert dict(fits["product"].summary().info)["rule"].startswith("product")


def test_node_errors_follow_the_rule():
    X, y = _abc(n=15, seed=3)
    prod = HierarchicalCoupling(["EII", "VVI"], rule="product").fit(X, y)
    loo = _loo_by_refits(prod, X, y)
    table = prod.tree_table()
    for row, node in zip(table.itertuples(), prod.tree_.walk()):
        if node.is_leaf:
            continue
        # the root's rule error: the product-rule class on the wrong side of the root's cut
        units = np.isin(y, node.classes)
        if len(node.classes) == 3:
            hand = np.mean(np.isin(loo[units], node.right) != np.isin(y[units], node.right))
            assert node.error == pytest.approx(hand)
        else:  # two leaves below: the product rule is the node's own two-class decision
            assert node.error == pytest.approx(node.candidate_errors[node.model])
        assert row.error == node.error


# --- the discrete procedure: empirical affinities, the paper's pairs (HIER/CM, HIER/IL) -----------

# two binary variables, states 00, 01, 10, 11; four units per class
_BIN_X = np.array([[0, 0], [0, 0], [0, 1], [1, 1],     # a: f = (.5, .25, 0, .25)
                   [0, 1], [0, 1], [1, 0], [1, 1],     # b: f = (0, .5, .25, .25)
                   [1, 0], [1, 0], [1, 1], [1, 0]])    # c: f = (0, 0, .75, .25)
_BIN_Y = np.repeat(["a", "b", "c"], 4)


def test_discrete_affinity_is_that_of_the_empirical_distributions():
    # by hand, cell by cell (00, 01, 10, 11), the unions being equal-weight mixtures:
    #   a | bc: f_bc = (0, .25, .5, .25); rho = 0 + sqrt(.25 .25) + 0 + sqrt(.25 .25) = .5
    #   ab | c: f_ab = (.25, .375, .125, .25); rho = sqrt(.125 .75) + sqrt(.25 .25) = .5562
    #   ac | b: f_ac = (.25, .125, .375, .25); rho = .25 + sqrt(.375 .25) + .25 = .8062
    #   below, b | c: rho = sqrt(.25 .75) + sqrt(.25 .25) = .6830
    hand_root, hand_bc = 0.5, np.sqrt(0.25 * 0.75) + 0.25
    from ordstat.discrete import KernelMultinomial, class_union_affinity

    foim = IndependenceModel().fit(_BIN_X, _BIN_Y)
    assert class_union_affinity(foim, "a", ["b", "c"]) != pytest.approx(hand_root, abs=1e-3)
    kernel = KernelMultinomial(smoothing=0.9)
    for cands in ([IndependenceModel(), kernel], [kernel, IndependenceModel()],
                  [FullMultinomial(), IndependenceModel()]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            hc = HierarchicalCoupling(cands, partition="affinity").fit(_BIN_X, _BIN_Y)
        root = hc.tree_
        assert (root.left, root.right) == (["a"], ["b", "c"])
        assert root.affinity == pytest.approx(hand_root)
        assert root.children[1].affinity == pytest.approx(hand_bc)


def test_affinity_refuses_continuous_candidates_anywhere_in_the_list():
    with pytest.raises(ValueError,
                       match=r"every candidate must be a discrete model.*got \[lambda I\]"):
        HierarchicalCoupling([IndependenceModel(), EDDA(model="EII")],
                             partition="affinity").fit(_BIN_X, _BIN_Y)


def test_candidate_sets_of_the_paper_pairs():
    from ordstat.combine.hierarchical import PAIR_SMOOTHING, candidate_set
    from ordstat.discrete import KernelMultinomial

    fmm = candidate_set("foim+fmm")
    assert [type(m) for m in fmm] == [IndependenceModel, FullMultinomial]
    kern = candidate_set("foim+kernel")
    assert isinstance(kern[1], KernelMultinomial) and kern[1].smoothing == PAIR_SMOOTHING == 0.99
    assert candidate_set("foim+kernel", smoothing=0.95)[1].smoothing == 0.95
    with pytest.raises(ValueError, match="smoothing is KERNEL's lambda"):
        candidate_set("foim+fmm", smoothing=0.95)
    with pytest.raises(ValueError, match=r"smoothing must be a number in \(0, 1\]"):
        candidate_set("foim+kernel", smoothing=1.5)


@pytest.mark.parametrize("pair, node", [("foim+fmm", "committee"), ("foim+kernel", "committee"),
                                        ("foim+fmm", "integrated"),
                                        ("foim+kernel", "integrated")])
def test_hier_cm_and_hier_il(pair, node):
    # HIER/CM and HIER/IL (Brito et al. 2006, Table 9): the pair combined with one weight per
    # node, the cuts by empirical affinity
    rng = np.random.default_rng(1)
    y = np.repeat([0, 1, 2], 20)
    X = (rng.random((60, 3)) < np.array([[.1, .2, .8], [.8, .2, .2], [.5, .9, .5]])[y]).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hc = HierarchicalCoupling(pair, partition="affinity", node=node, cv=3,
                                  random_state=0).fit(X, y)
    internal = [n for n in hc.tree_.walk() if not n.is_leaf]
    assert len(internal) == 2
    for nd in internal:
        assert [type(e).__name__ for e in nd.estimator.estimators_][0] == "IndependenceModel"
        assert nd.estimator.weights_.shape == (2,) and nd.estimator.method == node
        if pair == "foim+kernel":
            assert nd.estimator.estimators_[1].smoothing_ == 0.99
    np.testing.assert_allclose(hc.predict_proba(X).sum(axis=1), 1.0)
