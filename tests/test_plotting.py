"""The figures of ordstat.plotting, drawn with the Agg backend: the expected artists."""

import numpy as np
import pandas as pd
import pytest

mpl = pytest.importorskip("matplotlib")
mpl.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.container import ErrorbarContainer  # noqa: E402

from ordstat.plotting import plot_confusion, plot_cp, plot_tree  # noqa: E402
from ordstat.trees import OrdinalTreeClassifier  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _data(n=240, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, 3)), columns=["age", "dose", "noise"])
    codes = np.digitize(X["age"] - 0.7 * X["dose"] + 0.4 * rng.normal(size=n), [-1, 0, 1])
    y = pd.Categorical.from_codes(codes, ["none", "mild", "severe", "fatal"], ordered=True)
    return X, y


def test_plot_tree_draws_one_box_per_node_and_one_line_per_edge():
    X, y = _data()
    tree = OrdinalTreeClassifier(xval=0, cp=0.02).fit(X, y)
    t = tree.tree_
    internal = np.flatnonzero(t.children_left >= 0)
    assert internal.size >= 2
    ax = plot_tree(tree)
    texts = [a.get_text() for a in ax.texts]
    boxes = [s for s in texts if "\nn = " in s]
    expected = [f"{tree.classes_[t.yval[v]]}\nn = {t.n_node_samples[v]}"
                for v in range(t.n_nodes)]
    assert sorted(boxes) == sorted(expected)
    assert len(ax.lines) == 2 * internal.size
    assert texts.count("yes") == texts.count("no") == internal.size
    splits = tree.summary(digits=3)["nodes"]["split"]
    assert sorted(s for s in texts if "<" in s and "\n" not in s) == \
        sorted(s for s in splits if s)
    # lines go from each parent to its children, the root on top
    assert max(line.get_ydata().max() for line in ax.lines) == 0


@pytest.mark.filterwarnings("ignore:.*every bootstrap sample")
def test_plot_tree_into_given_axes_and_a_tree_of_an_ensemble():
    from ordstat.ensemble import OrdinalBaggingClassifier

    X, y = _data(120, seed=1)
    bag = OrdinalBaggingClassifier(n_estimators=2, random_state=0).fit(X, y)
    fig, ax = plt.subplots()
    out = plot_tree(bag.estimators_[0], ax=ax, class_names=bag.classes_,
                    feature_names=list(X.columns))
    assert out is ax and len(ax.texts) > 0
    labels = {a.get_text().split("\n")[0] for a in ax.texts if "\nn = " in a.get_text()}
    assert labels <= set(bag.classes_)


def test_plot_tree_errors():
    X, y = _data(80)
    tree = OrdinalTreeClassifier(xval=0).fit(X, y)
    with pytest.raises(TypeError, match="OrdinalTreeClassifier"):
        plot_tree(object())
    with pytest.raises(ValueError, match="feature_names has 2 names"):
        plot_tree(tree, feature_names=["a", "b"])
    with pytest.raises(ValueError, match="class_names has 2 labels"):
        plot_tree(tree, class_names=["a", "b"])
    with pytest.raises(TypeError, match="digits must be an integer"):
        plot_tree(tree, digits="3")


def test_plot_cp_error_bars_one_se_line_and_tree_sizes():
    X, y = _data()
    tree = OrdinalTreeClassifier(cp=0.005, random_state=0).fit(X, y)
    table = tree.cp_table_
    assert len(table) >= 3
    ax = plot_cp(tree)
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(bars) == 1
    line, _, (segments,) = bars[0].lines
    np.testing.assert_allclose(line.get_ydata(), table["xerror"])
    # the bars span xerror +- xstd
    spans = np.array([seg[:, 1] for seg in segments.get_segments()])
    np.testing.assert_allclose(spans[:, 1] - spans[:, 0], 2 * table["xstd"])
    best = table["xerror"].idxmin()
    limit = table.loc[best, "xerror"] + table.loc[best, "xstd"]
    flat = [ln for ln in ax.lines if np.ptp(ln.get_ydata()) == 0 and len(ln.get_ydata()) == 2]
    assert [ln.get_ydata()[0] for ln in flat] == [pytest.approx(limit)]
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    cp = table["CP"].to_numpy()
    assert ticks[0] == "Inf" and ticks[1] == f"{np.sqrt(cp[0] * cp[1]):.2g}"
    assert len(ax.child_axes) == 1  # the "size of tree" axis
    top = [t.get_text() for t in ax.child_axes[0].get_xticklabels()]
    assert top == [str(s + 1) for s in table["nsplit"]]
    out = plot_cp(table, ax=plt.subplots()[1])  # the table itself works too
    assert len(out.containers) == 1


def test_plot_cp_needs_cross_validation():
    X, y = _data(80)
    with pytest.raises(ValueError, match="xval >= 2"):
        plot_cp(OrdinalTreeClassifier(xval=0).fit(X, y))
    with pytest.raises(TypeError, match="OrdinalTreeClassifier"):
        plot_cp("tree")


def test_plot_tree_of_a_single_leaf():
    X, y = _data(80)
    stump = OrdinalTreeClassifier(xval=0, min_split=1000).fit(X, y)
    ax = plot_tree(stump)
    assert [a.get_text() for a in ax.texts] == [f"{stump.classes_[stump.tree_.yval[0]]}\nn = 80"]
    assert len(ax.lines) == 0


def test_plot_confusion_counts_in_class_order():
    """Rows true, columns predicted, in the given (non-alphabetical) order; counts by hand."""
    y_true = ["low", "low", "mid", "high", "high", "high"]
    y_pred = ["low", "mid", "mid", "low", "high", "high"]
    ax = plot_confusion(y_true, y_pred, classes=["low", "mid", "high"])
    expected = np.array([[1, 1, 0], [0, 1, 0], [1, 0, 2]])
    np.testing.assert_array_equal(ax.images[0].get_array(), expected)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["low", "mid", "high"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["low", "mid", "high"]
    cells = {(round(t.get_position()[1]), round(t.get_position()[0])): t.get_text()
             for t in ax.texts}
    assert cells[(2, 2)] == "2" and cells[(0, 1)] == "1" and cells[(1, 0)] == "0"
    assert len(cells) == 9
    assert ax.get_xlabel() == "predicted class" and ax.get_ylabel() == "true class"


def test_plot_confusion_normalised_and_errors():
    y_true = pd.Categorical(["b", "a", "a", "c"], categories=["c", "b", "a"], ordered=True)
    y_pred = ["a", "a", "b", "c"]
    ax = plot_confusion(y_true, y_pred, normalize="true")
    shares = np.asarray(ax.images[0].get_array())
    np.testing.assert_allclose(shares, [[1, 0, 0], [0, 0, 1], [0, 0.5, 0.5]])
    assert [t.get_text() for t in ax.get_yticklabels()] == ["c", "b", "a"]
    ax = plot_confusion(y_true, y_pred, normalize="all")
    assert np.asarray(ax.images[0].get_array()).sum() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="normalize must be"):
        plot_confusion(y_true, y_pred, normalize="rows")
    with pytest.raises(ValueError, match="digits must be an integer >= 0"):
        plot_confusion(y_true, y_pred, digits=-1)
    with pytest.raises(ValueError, match="same length"):
        plot_confusion(["a", "b"], ["a"])
