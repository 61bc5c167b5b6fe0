"""to_rpart: a fitted OrdinalTreeClassifier as an R rpart object that R's tools accept."""

import numpy as np
import pandas as pd
import pytest
import rpy2.robjects as ro

import ordstat.r
from ordstat.r import to_py, to_r
from ordstat.trees import OrdinalTreeClassifier

from tests._reference import HERE, RPART_CASES, load, read_input
from tests.r.test_rpart import LEVELS, ordered_data

pytestmark = pytest.mark.r


@pytest.fixture(scope="module")
def fitted():
    df = ordered_data()
    X = df.drop(columns="y")
    tree = OrdinalTreeClassifier(min_split=20, cp=0.01, random_state=0).fit(X, df["y"])
    return tree, X, df["y"]


def test_r_predict_equals_python_predict(fitted):
    tree, X, _ = fitted
    fit = ordstat.r.to_rpart(tree, X)
    assert list(fit.rclass) == ["rpart"]
    rX = to_r(X)
    pred = to_py(ro.r("function(f, d) predict(f, d, type = 'class')")(fit, rX))
    assert list(pred.categories) == LEVELS
    np.testing.assert_array_equal(np.asarray(pred.astype(str)), tree.predict(X).astype(str))
    prob = to_py(ro.r("function(f, d) predict(f, d, type = 'prob')")(fit, rX))
    np.testing.assert_allclose(prob, tree.predict_proba(X), atol=1e-12)
    # without newdata, R uses `where`, filled from X
    fitted_prob = to_py(ro.r("function(f) predict(f, type = 'prob')")(fit))
    np.testing.assert_allclose(fitted_prob, tree.predict_proba(X), atol=1e-12)


def test_frame_matches_the_python_tree(fitted):
    tree, X, _ = fitted
    fit = ordstat.r.to_rpart(tree, X)
    frame = to_py(ro.r("function(f) f$frame[, c('var', 'n', 'dev', 'yval')]")(fit))
    t = tree.tree_
    names = list(X.columns)
    assert list(frame["var"]) == ["<leaf>" if f < 0 else names[f] for f in t.feature]
    np.testing.assert_array_equal(frame["n"], t.n_node_samples)
    np.testing.assert_allclose(frame["dev"], t.risk)
    np.testing.assert_array_equal(frame["yval"], t.yval + 1)
    # the frame's rows are the tree's nodes in rpart's order (here the same: x < c first)
    rows = list(ro.r("function(f) attr(f, 'tree_rows')")(fit))
    assert rows == list(range(t.n_nodes))
    rownames = list(ro.r("function(f) as.integer(rownames(f$frame))")(fit))
    assert rownames == list(t.node_number)
    cp = to_py(ro.r("function(f) as.data.frame(f$cptable)")(fit))
    np.testing.assert_allclose(cp["CP"], tree.cp_table_["CP"])
    np.testing.assert_allclose(cp["xerror"], tree.cp_table_["xerror"])


def test_print_summary_plot_text_work(fitted, tmp_path):
    tree, X, _ = fitted
    fit = ordstat.r.to_rpart(tree, X)
    printed = "\n".join(ro.r("function(f) capture.output(print(f))")(fit))
    assert "1) root 240" in printed and "g=" in printed and "x 2< " in printed
    summary = "\n".join(ro.r("function(f) capture.output(summary(f))")(fit))
    assert "Variable importance" in summary and "predicted class=" in summary
    png = tmp_path / "tree.png"
    ro.r("""function(f, path) {
        grDevices::png(path, 600, 400)
        on.exit(grDevices::dev.off())
        plot(f, uniform = TRUE, margin = 0.1)
        text(f, use.n = TRUE)
    }""")(fit, str(png))
    assert png.stat().st_size > 1000


def test_numpy_input_and_single_node_tree():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    tree = OrdinalTreeClassifier(min_split=10, xval=0).fit(X, y)
    fit = ordstat.r.to_rpart(tree)
    new = to_r(pd.DataFrame(X, columns=["x0", "x1"]))
    pred = to_py(ro.r("function(f, d) predict(f, d, type = 'class')")(fit, new))
    np.testing.assert_array_equal(np.asarray(pred.astype(int)), tree.predict(X))
    stump = OrdinalTreeClassifier(min_split=1000, xval=0).fit(X, y)
    out = "\n".join(ro.r("function(f) capture.output(print(f))")(ordstat.r.to_rpart(stump)))
    assert "root 60" in out


def test_to_rpart_bad_input(fitted):
    with pytest.raises(TypeError, match="OrdinalTreeClassifier"):
        ordstat.r.to_rpart(object())
    with pytest.raises(ValueError, match="not fitted"):
        ordstat.r.to_rpart(OrdinalTreeClassifier())


def test_awkward_r_levels_survive_a_python_model_and_return():
    """An R ordered factor with awkward levels -> pandas -> a model -> back to R unchanged."""
    rdf = ro.r("""local({
        set.seed(3)
        lev <- c("very low", "l\\u00f3w", "Mid dle", "ZZ top", "a (unused)")
        x <- stats::rnorm(120)
        y <- factor(lev[findInterval(x, c(-0.7, 0, 0.7)) + 1L], levels = lev, ordered = TRUE)
        data.frame(x = x, y = y)
    })""")
    df = to_py(rdf)
    assert list(df["y"].cat.categories) == ["very low", "lów", "Mid dle", "ZZ top", "a (unused)"]
    tree = OrdinalTreeClassifier(min_split=10, xval=0).fit(df[["x"]], df["y"])
    pred = pd.Categorical(tree.predict(df[["x"]]), categories=tree.classes_, ordered=True)
    back = to_r(pd.DataFrame({"pred": pred}))
    same = ro.r("function(orig, new) identical(levels(orig$y), levels(new$pred)) && "
                "is.ordered(new$pred)")
    assert same(rdf, back)[0]
    agree = ro.r("function(orig, new) mean(as.character(orig$y) == as.character(new$pred))")
    assert agree(rdf, back)[0] > 0.9


def test_ordered_categorical_splits_are_rpart_factor_splits():
    """An ordered Categorical is split as a scale; rpart keeps that split as a factor split
    sending the lower levels left: R's predict and print agree with the Python tree."""
    rng = np.random.default_rng(5)
    n = 300
    levels = ["25-34", "35-44", "45-54", "55-64", "65-74"]
    codes = rng.integers(0, 5, n)
    x = rng.normal(size=n)
    y = pd.Categorical(np.array(LEVELS)[np.digitize(codes + x, [1.5, 3.0])],
                       categories=LEVELS, ordered=True)
    X = pd.DataFrame({"agegp": pd.Categorical.from_codes(codes, levels, ordered=True), "x": x})
    tree = OrdinalTreeClassifier(min_split=20, cp=0.01, random_state=0).fit(X, y)
    assert "agegp" in {X.columns[f] for f in tree.tree_.feature if f >= 0}
    fit = ordstat.r.to_rpart(tree, X)
    assert bool(fit.rx2("ordered").rx2("agegp")[0])
    pred = to_py(ro.r("function(f, d) predict(f, d, type = 'class')")(fit, to_r(X)))
    np.testing.assert_array_equal(np.asarray(pred.astype(str)), tree.predict(X).astype(str))
    printed = "\n".join(ro.r("function(f) capture.output(print(f))")(fit))
    assert "agegp=25-34" in printed and "agegp= " not in printed


@pytest.mark.parametrize("name", ["airquality_temp", "breast_cancer", "synthetic"])
def test_surrogate_tree_exports_rpart_s_surrogates(name):
    """A tree grown with missing="surrogate": rpart's own predict on the export follows the
    surrogates as the tree does (rows with missing values included), and its splits matrix,
    nsurrogate and importance are those of rpart's fit of the same data."""
    from tests.trees.test_surrogates_rpart import STORED, frame_of

    X, y = frame_of(STORED[name]["data"])
    ref = STORED[name]["fits"]["max5_use2_style0"]
    tree = OrdinalTreeClassifier(criterion="gini", xval=0, missing="surrogate").fit(X, y)
    fit = ordstat.r.to_rpart(tree, X)
    prob = to_py(ro.r("function(f, d) predict(f, d, type = 'prob')")(fit, to_r(X)))
    np.testing.assert_allclose(prob, tree.predict_proba(X), atol=1e-12)
    np.testing.assert_allclose(prob, np.array(ref["prob"]), atol=1e-12)
    splits = ro.r("function(f) f$splits")(fit)
    rows = sorted(zip(ro.r("rownames")(splits), np.asarray(splits)[:, 0],
                      np.round(np.asarray(splits)[:, 2], 9), np.round(np.asarray(splits)[:, 4], 9)))
    sp = ref["splits"]
    want = sorted(zip(sp["var"], sp["count"], np.round(sp["improve"], 9), np.round(sp["adj"], 9)))
    assert [r[0] for r in rows] == [w[0] for w in want]
    np.testing.assert_allclose([r[1:] for r in rows], [w[1:] for w in want], atol=1e-9)
    nsur = list(ro.r("function(f) f$frame$nsurrogate")(fit))
    assert sorted(nsur) == sorted(ref["frame"]["nsurrogate"])
    imp = ro.r("function(f) f$variable.importance")(fit)
    got = dict(zip(ro.r("names")(imp), np.asarray(imp)))
    assert got.keys() == ref["importance"].keys()
    for k, v in ref["importance"].items():
        assert got[k] == pytest.approx(v, rel=1e-9)
    assert ro.r("function(f) f$control$usesurrogate")(fit)[0] == 2
    summary = "\n".join(ro.r("function(f) capture.output(summary(f))")(fit))
    assert "Surrogate splits" in summary


# rpart's cases of tests/reference/rpart.json where our Gini tree is rpart's (no exact ties)
SAME_TREE = ["iris", "five3_m20", "five4_m10", "five0_m20"]


def _gini_tree(case):
    data, minsplit, cp = RPART_CASES[case]
    X, y, _ = read_input(data)
    tree = OrdinalTreeClassifier(criterion="gini", min_split=minsplit,
                                 min_bucket=round(minsplit / 3), cp=cp, xval=0,
                                 classes=np.unique(y)).fit(X, y)
    return tree, X


@pytest.mark.parametrize("case", SAME_TREE)
def test_nodes_numbered_and_ordered_as_rpart(case):
    """rpart sends the child of lower mean class left (ncat = 1: ``x >= c`` goes left); the
    R view orders and numbers the children as rpart (stored frame, splits and leaves)."""
    tree, X = _gini_tree(case)
    theirs = load("rpart")[case]
    fit = ordstat.r.to_rpart(tree, X)
    nodes = np.array(ro.r("function(f) as.integer(rownames(f$frame))")(fit))
    np.testing.assert_array_equal(nodes, theirs["node"])
    assert list(ro.r("function(f) as.character(f$frame$var)")(fit)) == list(theirs["var"])
    splits = np.array(ro.r("function(f) unname(f$splits)")(fit))
    np.testing.assert_array_equal(splits[:, 1], theirs["splits"][:, 1])  # ncat: direction
    np.testing.assert_allclose(splits[:, 3], theirs["splits"][:, 3], rtol=1e-12)
    where = np.array(ro.r("function(f) unname(f$where)")(fit))
    np.testing.assert_array_equal(nodes[where - 1], theirs["node"][theirs["where"] - 1])
    if case != "iris":
        assert (theirs["splits"][:, 1] == 1).any()  # a case where the children are swapped


def test_print_and_labels_equal_rpart_and_prediction_follows():
    """Against R's rpart fitted now: the same print lines and labels, and rpart's predict on
    the exported tree is the Python tree's."""
    tree, X = _gini_tree("five3_m20")
    fit = ordstat.r.to_rpart(tree, X)
    theirs = ro.r("""function(path) {
        d <- utils::read.csv(path)
        d$fold <- NULL
        d$y <- factor(as.character(d$y))
        rpart::rpart(y ~ ., data = d, method = "class",
                     control = rpart::rpart.control(minsplit = 20, minbucket = 7, cp = 0.01,
                                                    xval = 0, maxcompete = 0, maxsurrogate = 0))
    }""")(str(HERE / "five3.csv"))
    show = ro.r("function(f) capture.output(print(f))")
    assert list(show(fit)) == list(show(theirs))
    labels = ro.r("function(f) labels(f)")
    assert list(labels(fit)) == list(labels(theirs))
    pred = to_py(ro.r("function(f, d) predict(f, d, type = 'class')")(
        fit, to_r(pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])]))))
    np.testing.assert_array_equal(np.asarray(pred.astype(str)), tree.predict(X).astype(str))


def _absent_level_data():
    """Level "d" of g is absent where x >= 0.5, where the tree splits on g."""
    rng = np.random.default_rng(1)
    n = 300
    g = rng.choice(list("abcd"), n)
    x = rng.random(n)
    y = np.where(x < 0.5, 0, np.where(g == "a", 1, 2))
    keep = ~((x >= 0.5) & (g == "d"))
    X = pd.DataFrame({"x": x, "g": pd.Categorical(g)})[keep].reset_index(drop=True)
    return X, pd.Categorical(y[keep].astype(str), categories=["0", "1", "2"], ordered=True)


def test_factor_split_names_only_the_levels_present_as_rpart():
    X, y = _absent_level_data()
    tree = OrdinalTreeClassifier(criterion="gini", xval=0).fit(X, y)
    fit = ordstat.r.to_rpart(tree, X)
    d = to_r(X.assign(y=y))
    theirs = ro.r("""function(d) rpart::rpart(y ~ x + g, data = d, method = "class",
        control = rpart::rpart.control(xval = 0, maxcompete = 0, maxsurrogate = 0))""")(d)
    show = ro.r("function(f) capture.output(print(f))")
    printed = list(show(fit))
    assert printed == list(show(theirs))
    assert any("g=b,c " in line for line in printed)  # not g=b,c,d: no d in the node
    assert list(ro.r("function(f) labels(f)")(fit)) == list(ro.r("function(f) labels(f)")(theirs))
    csplit = np.array(ro.r("function(f) f$csplit")(fit))
    np.testing.assert_array_equal(csplit, np.array(ro.r("function(f) f$csplit")(theirs)))
    # rpart sends a level absent from the node to the child with more units, where the
    # Python tree sends it (the heavier child) too
    new = pd.DataFrame({"x": [0.9, 0.9, 0.2],
                        "g": pd.Categorical(["d", "a", "d"], categories=list("abcd"))})
    pred = to_py(ro.r("function(f, d) predict(f, d, type = 'class')")(fit, to_r(new)))
    np.testing.assert_array_equal(np.asarray(pred.astype(str)), tree.predict(new).astype(str))
    assert list(tree.predict(new).astype(str)) == ["2", "1", "0"]


@pytest.mark.parametrize("case", ["loss3_linear", "loss4_linear", "loss4_quadratic",
                                  "archer5_linear", "archer5_quadratic"])
def test_loss_matrix_trees_numbered_as_rpart(case):
    """With a loss matrix rpart weighs each class by its row of the loss when it orders the
    children (altered priors): rpart's stored frames of tests/reference/rpart_loss.json (the
    same trees; loss4_linear is ordered differently by unweighted means). loss3_quadratic is
    left out: at node 19 two splits tie exactly and rpart keeps another one."""
    data, loss = case.split("_")
    X, y, _ = read_input(data)
    tree = OrdinalTreeClassifier(criterion=f"loss_{loss}", leaf_rule="cost", min_split=5,
                                 min_bucket=2, cp=0, xval=0,
                                 classes=np.arange(int(y.max()) + 1)).fit(X, y)
    theirs = load("rpart_loss")[case]
    fit = ordstat.r.to_rpart(tree, X)
    nodes = np.array(ro.r("function(f) as.integer(rownames(f$frame))")(fit))
    np.testing.assert_array_equal(nodes, theirs["node"])
    np.testing.assert_array_equal(np.array(ro.r("function(f) f$frame$n")(fit)), theirs["n"])
    splits = np.array(ro.r("function(f) unname(f$splits)")(fit))
    np.testing.assert_array_equal(splits[:, 1], theirs["splits"][:, 1])
    where = np.array(ro.r("function(f) unname(f$where)")(fit))
    np.testing.assert_array_equal(nodes[where - 1], theirs["node"][theirs["where"] - 1])
