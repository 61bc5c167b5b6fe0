import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.tree import DecisionTreeClassifier

from ordstat.baseline import ProportionalOddsClassifier
from ordstat.model_selection import (BootstrapOOB, HalfSampling, RepeatedLearningTestSplits,
                                     compare_methods, evaluate, make_cv, summarize)


def _data(n=120, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.digitize(X[:, 0] + 0.7 * rng.normal(size=n), [-0.6, 0.0, 0.6])
    return X, y


class _Constant(ClassifierMixin, BaseEstimator):
    """Always predicts the lowest class it has seen (a deliberately bad method)."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def test_half_sampling_partitions_into_halves():
    X, y = _data(40)
    splits = list(HalfSampling(n_repeats=2, random_state=0).split(X, y))
    assert len(splits) == 4
    for train, test in splits:
        assert abs(len(train) - len(test)) <= 4
        assert set(train).isdisjoint(test) and len(train) + len(test) == 40


def test_repeated_splits_sizes_and_reproducible():
    X, y = _data(90)
    a = list(RepeatedLearningTestSplits(5, random_state=3).split(X, y))
    b = list(RepeatedLearningTestSplits(5, random_state=3).split(X, y))
    assert len(a) == 5
    assert all(len(test) == 30 for _, test in a)
    assert all(np.array_equal(x[1], z[1]) for x, z in zip(a, b))


def test_repeated_splits_fall_back_when_a_class_is_a_singleton():
    X = np.zeros((20, 1))
    y = np.array([0] * 10 + [1] * 9 + [2])
    with pytest.warns(UserWarning, match="cannot be stratified"):
        splits = list(RepeatedLearningTestSplits(3, random_state=0).split(X, y))
    assert len(splits) == 3


def test_bootstrap_oob_disjoint():
    X, y = _data(50)
    for boot, oob in BootstrapOOB(10, random_state=1).split(X, y):
        assert len(boot) == 50
        assert set(oob) == set(range(50)) - set(boot)


@pytest.mark.parametrize("scheme, n", [("loo", 60), ("cv5", 5), ("half", 2), ("splits7", 7),
                                       ("bootstrap4", 4)])
def test_make_cv_schemes(scheme, n):
    X, y = _data(60)
    assert len(list(make_cv(scheme, random_state=0).split(X, y))) == n


@pytest.mark.parametrize("scheme", ["cv", "cv1", "foo", "splits0"])
def test_make_cv_rejects(scheme):
    with pytest.raises(ValueError, match="scheme|>= "):
        make_cv(scheme)


def test_evaluate_tidy_and_reproducible_across_jobs():
    X, y = _data()
    ests = {"polr": ProportionalOddsClassifier(), "cart": DecisionTreeClassifier(max_depth=3)}
    r1 = evaluate(ests, X, y, scheme="cv4", random_state=7, n_jobs=1)
    r2 = evaluate(ests, X, y, scheme="cv4", random_state=7, n_jobs=2)
    assert list(r1.columns) == ["split", "method", "metric", "value"]
    assert len(r1) == 4 * 2 * 4
    pd.testing.assert_frame_equal(r1, r2)
    r3 = evaluate(ests, X, y, scheme="cv4", random_state=8)
    assert not r1["value"].equals(r3["value"])


def test_evaluate_seeds_random_estimators():
    X, y = _data()
    est = {"rf": DecisionTreeClassifier(max_features=1)}  # random feature choice
    a = evaluate(est, X, y, scheme="cv3", random_state=1)
    b = evaluate(est, X, y, scheme="cv3", random_state=1)
    assert a["value"].equals(b["value"])


def test_evaluate_matches_manual_loop():
    X, y = _data(60)
    res = evaluate({"polr": ProportionalOddsClassifier()}, X, y, scheme=make_cv("cv3", 0),
                   metrics=["misclassification"])
    for i, (train, test) in enumerate(make_cv("cv3", 0).split(X, y)):
        pred = ProportionalOddsClassifier().fit(X[train], y[train]).predict(X[test])
        assert res.loc[res.split == i, "value"].item() == pytest.approx(np.mean(pred != y[test]))


class _Highest(ClassifierMixin, BaseEstimator):
    """Predicts the highest class it knows: the injected ``classes`` if given, else the seen."""

    def __init__(self, classes=None):
        self.classes = classes

    def fit(self, X, y):
        self.classes_ = np.unique(y) if self.classes is None else np.asarray(self.classes)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[-1])


def test_evaluate_keeps_class_order_when_a_class_is_missing_from_a_fold():
    X, y = _data(60)
    labels = np.array(["a", "b", "c", "d"], dtype=object)[y]
    res = evaluate([ProportionalOddsClassifier()], X, labels, classes=["a", "b", "c", "d", "e"],
                   scheme="cv3", random_state=0)
    assert res["value"].notna().all()


def test_evaluate_injects_the_full_class_order_into_every_fit():
    """Class "e" (code 4) is in no learning set: only an estimator given classes= knows it.
    _Highest then predicts code 4 everywhere, and the mean absolute distance is |y - 4|."""
    X, y = _data(60)
    labels = np.array(["a", "b", "c", "d"], dtype=object)[y]
    res = evaluate({"hi": _Highest()}, X, labels, classes=["a", "b", "c", "d", "e"],
                   scheme=make_cv("cv3", 0), metrics=["mean_absolute"])
    for i, (_, test) in enumerate(make_cv("cv3", 0).split(X, y)):
        assert res.loc[res.split == i, "value"].item() == pytest.approx(np.mean(4 - y[test]))
    # without classes=, the highest class seen is "d" (code 3)
    with pytest.warns(UserWarning, match="guessed"):
        res = evaluate({"hi": _Highest()}, X, labels, scheme=make_cv("cv3", 0),
                       metrics=["mean_absolute"])
    for i, (_, test) in enumerate(make_cv("cv3", 0).split(X, y)):
        assert res.loc[res.split == i, "value"].item() == pytest.approx(np.mean(3 - y[test]))


# --- stratification -------------------------------------------------------------------------

_STRAT_Y = np.repeat([0, 1, 2], [30, 21, 9])


@pytest.mark.parametrize("splitter, share", [
    (make_cv("cv5", 0), 1 / 5),
    (HalfSampling(n_repeats=5, random_state=0), 1 / 2),
    (RepeatedLearningTestSplits(20, random_state=0), 1 / 3),
])
def test_splitters_are_stratified(splitter, share):
    """Every test part holds each class in proportion, within one unit (an unstratified
    splitter misses this in some of the splits with near certainty)."""
    X = np.zeros((len(_STRAT_Y), 1))
    expected = np.bincount(_STRAT_Y) * share
    n_splits = 0
    for _, test in splitter.split(X, _STRAT_Y):
        counts = np.bincount(_STRAT_Y[test], minlength=3)
        assert np.all(np.abs(counts - expected) <= 1), (counts, expected)
        n_splits += 1
    assert n_splits >= 5


def test_an_unstratified_split_would_be_caught():
    """The check above can fail: plain shuffled folds break it."""
    from sklearn.model_selection import KFold

    X = np.zeros((len(_STRAT_Y), 1))
    expected = np.bincount(_STRAT_Y) / 5
    worst = max(np.abs(np.bincount(_STRAT_Y[test], minlength=3) - expected).max()
                for seed in range(5)
                for _, test in KFold(5, shuffle=True, random_state=seed).split(X))
    assert worst > 1


def test_summarize_and_compare():
    X, y = _data(150)
    ests = {"polr": ProportionalOddsClassifier(), "const": _Constant(),
            "cart": DecisionTreeClassifier(max_depth=2)}
    res = evaluate(ests, X, y, scheme="cv10", random_state=0)
    summary = summarize(res)
    assert summary.loc[("polr", "misclassification"), "n_splits"] == 10
    # the constant predictor has an undefined gamma on every split
    assert summary.loc[("const", "gamma"), "n_undefined"] == 10
    comp = compare_methods(res, "misclassification")
    wide = res[res.metric == "misclassification"].pivot(index="split", columns="method",
                                                       values="value")
    expected = stats.friedmanchisquare(*(wide[m] for m in comp.mean_ranks.index.sort_values()))
    assert comp.friedman_statistic == pytest.approx(expected.statistic)
    assert comp.friedman_pvalue < 0.01
    assert comp.mean_ranks.index[-1] == "const"
    assert (comp.pairwise["p_holm"] >= comp.pairwise["p_value"] - 1e-12).all()
    row = comp.pairwise.query("method_a == 'polr' and method_b == 'const'")
    assert row["mean_difference"].item() < 0
    assert "Friedman" in str(comp)
    # gamma: the constant method's undefined splits drop every block
    with pytest.raises(ValueError, match="at least two splits"):
        compare_methods(res, "gamma")


def test_compare_two_methods_has_no_friedman():
    X, y = _data(80)
    res = evaluate({"a": ProportionalOddsClassifier(), "b": _Constant()}, X, y, scheme="cv5",
                   random_state=0, metrics=["mean_absolute"])
    comp = compare_methods(res, "mean_absolute")
    assert np.isnan(comp.friedman_statistic)
    assert len(comp.pairwise) == 1


class _FailsOnLargeFolds(ClassifierMixin, BaseEstimator):
    """Raises when fitted on more than ``limit`` units (so it fails on some splits only)."""

    def __init__(self, limit=85):
        self.limit = limit

    def fit(self, X, y):
        if len(y) > self.limit:
            raise ValueError(f"too many units ({len(y)})")
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


@pytest.mark.parametrize("scheme", ["cv4", "loo"])
def test_on_error_drop_leaves_a_failing_method_out_and_keeps_the_others(scheme):
    # cv4: learning sets of 67 or 68 units, failing on those of 68; loo: failing on all
    X, y = _data(90 if scheme == "cv4" else 40)
    limit = 67 if scheme == "cv4" else 30
    ests = {"cart": DecisionTreeClassifier(max_depth=2), "bad": _FailsOnLargeFolds(limit),
            "const": _Constant()}
    metrics = ["misclassification", "mean_absolute"]
    with pytest.raises(ValueError, match="too many units"):
        evaluate(ests, X, y, scheme=scheme, random_state=3, metrics=metrics)
    with pytest.warns(UserWarning, match=r"method 'bad' is left out of the results: it failed "
                                         r"on split \d+ of \d+: ValueError: too many units"):
        kept = evaluate(ests, X, y, scheme=scheme, random_state=3, metrics=metrics,
                        on_error="drop")
    alone = evaluate({"cart": ests["cart"], "const": ests["const"]}, X, y, scheme=scheme,
                     random_state=3, metrics=metrics)
    assert list(kept["method"].cat.categories) == ["cart", "const"]
    # the same splits and seeds: the other methods' values are unchanged
    np.testing.assert_array_equal(kept["value"].to_numpy(), alone["value"].to_numpy())


def test_on_error_drop_raises_when_every_method_fails():
    X, y = _data(60)
    with pytest.raises(ValueError, match="every method failed; 'bad' on split 0 of 3"):
        evaluate({"bad": _FailsOnLargeFolds(10)}, X, y, scheme="cv3", on_error="drop")


@pytest.mark.parametrize("kwargs, error, match", [
    ({"metrics": ["accuracy"]}, ValueError, "unknown metric"),
    ({"scheme": "cvx"}, ValueError, "scheme"),
    ({"on_error": "ignore"}, ValueError, "on_error must be 'raise' or 'drop'; got 'ignore'"),
])
def test_evaluate_errors(kwargs, error, match):
    X, y = _data(30)
    with pytest.raises(error, match=match):
        evaluate([ProportionalOddsClassifier()], X, y, **kwargs)


def test_evaluate_input_errors():
    X, y = _data(30)
    with pytest.raises(TypeError, match="fit/predict"):
        evaluate({"x": object()}, X, y)
    with pytest.raises(TypeError, match="non-empty"):
        evaluate([], X, y)
    with pytest.raises(ValueError, match="inconsistent"):
        evaluate([ProportionalOddsClassifier()], X[:-1], y)
    with pytest.raises(TypeError, match="results"):
        compare_methods(pd.DataFrame({"a": [1]}))


# ----------------------------------------------------------------- weighted evaluation

def _frequency_table(seed=3):
    """A frequency table (one row per pattern, its count in ``Freq``) and its fold of each
    row, for a predefined split."""
    rng = np.random.default_rng(seed)
    n = 40
    x = rng.integers(0, 6, size=(n, 2)).astype(float)
    y = np.clip((x[:, 0] + rng.integers(-1, 2, size=n)) // 2, 0, 2).astype(int)
    freq = rng.integers(1, 5, size=n)
    folds = np.arange(n) % 4
    return x, y, freq, folds


def test_weighted_evaluate_equals_the_expanded_table():
    from sklearn.model_selection import PredefinedSplit

    from ordstat import OrdinalTreeClassifier

    x, y, freq, folds = _frequency_table()
    # no size limits (they count rows, not weights) and no cross-validation
    tree = {"tree": OrdinalTreeClassifier(criterion="gini", min_split=2, min_bucket=1, cp=0.0,
                                          xval=0)}
    metrics = ["misclassification", "mean_absolute", "gamma"]
    weighted = evaluate(tree, x, y, scheme=PredefinedSplit(folds), metrics=metrics,
                        classes=[0, 1, 2], sample_weight=freq)
    expanded = evaluate(tree, np.repeat(x, freq, axis=0), np.repeat(y, freq),
                        scheme=PredefinedSplit(np.repeat(folds, freq)), metrics=metrics,
                        classes=[0, 1, 2])
    np.testing.assert_allclose(weighted["value"], expanded["value"], rtol=1e-12)
    unweighted = evaluate(tree, x, y, scheme=PredefinedSplit(folds), metrics=metrics,
                          classes=[0, 1, 2])
    assert not np.allclose(unweighted["value"], weighted["value"])  # the weights matter


def test_weighted_evaluate_refuses_methods_without_weights_and_leave_one_out():
    from sklearn.neighbors import KNeighborsClassifier

    from ordstat import OrdinalTreeClassifier

    x, y, freq, _ = _frequency_table()
    with pytest.raises(TypeError, match=r"sample_weight: method\(s\) 'knn' cannot take "
                                        r"weights"):
        evaluate({"tree": OrdinalTreeClassifier(), "knn": KNeighborsClassifier()}, x, y,
                 scheme="cv3", sample_weight=freq)
    with pytest.raises(ValueError, match="sample_weight cannot be used with leave-one-out"):
        evaluate([OrdinalTreeClassifier()], x, y, scheme="loo", sample_weight=freq)
    with pytest.raises(ValueError, match="sample_weight must be a 1-D array"):
        evaluate([OrdinalTreeClassifier()], x, y, scheme="cv3", sample_weight=freq[:-1])
