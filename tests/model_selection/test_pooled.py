"""Leave-one-out pooled over units in evaluate/summarize/compare_methods, warnings collected over
splits, progress and the run-time estimate."""

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.neighbors import KNeighborsClassifier

from ordstat.model_selection import _pooled as _loo, _progress
from ordstat.model_selection import compare_methods, evaluate, summarize

# 1-nearest neighbour on one feature, left out one at a time (worked by hand):
# unit x:    0    1.2  2    3.4  5    6.2  8
# truth:     a    a    b    b    c    c    c
# nearest:   1.2  2    1.2  2    6.2  5    6.2
# predicted: a    b    a    b    c    c    c
X_TINY = np.array([0, 1.2, 2, 3.4, 5, 6.2, 8])[:, None]
Y_TINY = np.array(["a", "a", "b", "b", "c", "c", "c"], dtype=object)
PRED_1NN = np.array(["a", "b", "a", "b", "c", "c", "c"], dtype=object)


def _gamma_by_pairs(t, p):
    c = d = 0
    for i, j in itertools.combinations(range(len(t)), 2):
        s = (t[i] - t[j]) * (p[i] - p[j])
        c, d = c + (s > 0), d + (s < 0)
    return (c - d) / (c + d)


def test_loo_pools_the_out_of_fold_predictions_as_by_hand():
    res = evaluate({"1nn": KNeighborsClassifier(1)}, X_TINY, Y_TINY, scheme="loo",
                   classes=["a", "b", "c"])
    assert list(res["split"]) == ["pooled"] * 4
    value = res.set_index("metric")["value"]
    rank = {"a": 1, "b": 2, "c": 3}
    t = np.array([rank[v] for v in Y_TINY])
    p = np.array([rank[v] for v in PRED_1NN])
    assert value["misclassification"] == pytest.approx(2 / 7)
    assert value["mean_absolute"] == pytest.approx(np.mean(np.abs(t - p)))
    assert value["mean_squared"] == pytest.approx(np.mean((t - p) ** 2))
    # counted by hand from the table above: 13 concordant pairs, 1 discordant (units 2 and 3)
    assert value["gamma"] == pytest.approx((13 - 1) / (13 + 1))
    assert value["gamma"] == pytest.approx(_gamma_by_pairs(t, p))
    frame = res.attrs["loo_predictions"].frame
    assert list(frame["1nn"].astype(object)) == list(PRED_1NN)
    assert list(frame["y_true"].cat.categories) == ["a", "b", "c"]


@pytest.mark.parametrize("model", ["EEE", "VVV", "EII"])
def test_pooled_error_equals_eddas_exact_leave_one_out(model):
    """EDDA computes its leave-one-out error by down-dating the fitted parameters, without
    refitting: an independent computation of the same pooled misclassification."""
    from ordstat.gaussian import EDDA

    r = np.random.default_rng(0)
    X = r.normal(size=(60, 2)) + np.repeat([0, 1.5, 3], 20)[:, None]
    y = np.repeat([0, 1, 2], 20)
    res = evaluate({"edda": EDDA(model=model)}, X, y, scheme="loo",
                   metrics=["misclassification"])
    assert res["value"].item() == pytest.approx(EDDA(model=model).fit(X, y).loo_error(X, y))


def test_summarize_pooled_gives_n_and_binomial_standard_error():
    res = evaluate({"1nn": KNeighborsClassifier(1)}, X_TINY, Y_TINY, scheme="loo",
                   classes=["a", "b", "c"])
    table = summarize(res).loc["1nn"]
    p = 2 / 7
    assert table.loc["misclassification", "mean"] == pytest.approx(p)
    assert table.loc["misclassification", "se"] == pytest.approx(math.sqrt(p * (1 - p) / 7))
    # per-unit distances 0 1 1 0 0 0 0: sd (n - 1) over sqrt(n)
    assert table.loc["mean_absolute", "se"] == pytest.approx(
        np.std([0, 1, 1, 0, 0, 0, 0], ddof=1) / math.sqrt(7))
    assert np.isnan(table.loc["gamma", "se"]) and np.isnan(table.loc["gamma", "sd"])
    assert (table["n_units"] == 7).all() and (table["n_splits"] == 1).all()


class _Fixed(ClassifierMixin, BaseEstimator):
    """Predicts, for each test unit, a fixed label given per unit (by its feature, the unit's
    index): the out-of-fold predictions are then known in advance."""

    def __init__(self, table=None):
        self.table = table

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.asarray(self.table)[np.asarray(X)[:, 0].astype(int)]


def _fixed_run(predictions, truth, metrics=("misclassification", "mean_absolute")):
    """Leave-one-out run of methods whose out-of-fold predictions are ``predictions``."""
    X = np.arange(len(truth))[:, None]
    est = {name: _Fixed(np.asarray(p)) for name, p in predictions.items()}
    return evaluate(est, X, np.asarray(truth), scheme="loo", metrics=list(metrics))


def _with_errors(truth, errors):
    """Binary predictions wrong exactly where ``errors`` is 1."""
    truth = np.asarray(truth)
    return np.where(np.asarray(errors) == 1, 1 - truth, truth)


def test_two_methods_mcnemar_is_the_binomial_on_discordant_units():
    truth = [0, 1] * 5
    # a errs on units 0-6, b on units 0 and 7: a alone errs on 6 units, b alone on 1
    a = _with_errors(truth, [1] * 7 + [0] * 3)
    b = _with_errors(truth, [1] + [0] * 6 + [1] + [0] * 2)
    comp = compare_methods(_fixed_run({"a": a, "b": b}, truth), "misclassification")
    row = comp.pairwise.iloc[0]
    assert (row["a_worse"], row["b_worse"]) == (6, 1)
    # two-sided exact binomial: 2 * P(X <= 1 | 7, 1/2) = 2 * (1 + 7) / 128
    assert row["p_value"] == pytest.approx(16 / 128)
    assert row["mean_difference"] == pytest.approx(0.7 - 0.2)
    assert comp.blocks == "units" and comp.n_blocks == 10 and np.isnan(comp.friedman_statistic)
    assert "McNemar" in str(comp)


def test_mcnemar_agrees_with_statsmodels():
    from statsmodels.stats.contingency_tables import mcnemar

    r = np.random.default_rng(3)
    ea, eb = r.random(60) < 0.3, r.random(60) < 0.5
    table = [[np.sum(ea & eb), np.sum(ea & ~eb)], [np.sum(~ea & eb), np.sum(~ea & ~eb)]]
    assert _loo.mcnemar_exact(ea, eb)[2] == pytest.approx(mcnemar(table, exact=True).pvalue)


def test_three_methods_use_cochrans_q_as_by_hand():
    # errors of 3 methods on 5 units (rows): column totals C = 4, 2, 1, row totals R = 3 1 1 2 0
    errors = np.array([[1, 1, 1], [1, 0, 0], [1, 0, 0], [1, 1, 0], [0, 0, 0]])
    # Q = (m - 1)(m sum C^2 - N^2) / (m N - sum R^2) = 2 (3 * 21 - 49) / (21 - 15) = 28 / 6
    q, p = _loo.cochran_q(errors)
    assert q == pytest.approx(28 / 6)
    assert p == pytest.approx(math.exp(-q / 2))  # chi-squared with 2 df
    from statsmodels.stats.contingency_tables import cochrans_q
    assert q == pytest.approx(cochrans_q(errors).statistic)
    truth = [0, 1, 0, 1, 0]
    run = _fixed_run({name: _with_errors(truth, errors[:, j]) for j, name in enumerate("xyz")},
                     truth)
    comp = compare_methods(run, "misclassification")
    assert comp.global_test == "Cochran's Q"
    assert comp.friedman_statistic == pytest.approx(28 / 6)
    assert len(comp.pairwise) == 3 and list(comp.mean_ranks.index)[0] == "z"


def test_distances_use_wilcoxon_on_per_unit_distances():
    from scipy import stats

    truth = [0, 1, 2, 3, 0, 1, 2, 3, 0, 1]
    a = [0, 1, 2, 3, 0, 1, 2, 3, 3, 3]   # distances 0 ... 0 3 2
    b = [3, 3, 0, 0, 3, 1, 2, 3, 0, 1]   # distances 3 2 2 3 3 0 0 0 0 0
    comp = compare_methods(_fixed_run({"a": a, "b": b}, truth), "mean_absolute")
    row = comp.pairwise.iloc[0]
    da = np.abs(np.subtract(a, truth))
    db = np.abs(np.subtract(b, truth))
    assert (row["a_worse"], row["b_worse"]) == (2, 5)
    # d = da - db without its 3 zeros: -3 -2 -2 -3 -3 +3 +2; |d| ranks: the three 2s share
    # rank 2, the four 3s rank 5.5; positive rank sum 5.5 + 2 = 7.5 against a mean of
    # 7 * 8 / 4 = 14; variance (7 * 8 * 15 - ((3^3 - 3) + (4^3 - 4)) / 2) / 24 = 33.25; zeros
    # and ties: the normal approximation, on 7 differences (said in a note)
    z = (7.5 - 14) / np.sqrt(33.25)
    assert row["statistic"] == 7.5 and row["p_method"] == "normal"
    assert row["p_value"] == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-12)
    assert "fewer than 10 non-zero differences" in str(comp)
    assert row["mean_difference"] == pytest.approx(np.mean(da - db))


def test_pooled_comparison_errors():
    run = _fixed_run({"a": [0, 1, 1], "b": [1, 1, 0]}, [0, 1, 0],
                     metrics=["misclassification", "gamma"])
    with pytest.raises(ValueError, match="gamma.*not a mean over units"):
        compare_methods(run, "gamma")
    lost = pd.DataFrame(run)
    lost.attrs = {}
    with pytest.raises(ValueError, match="lost their out-of-fold predictions"):
        compare_methods(lost, "misclassification")
    assert np.isnan(summarize(lost)["se"]).all()


def test_corrected_ttest_refuses_pooled_results():
    from ordstat.model_selection import pairwise_corrected_ttests

    run = _fixed_run({"a": [0, 1, 1], "b": [1, 1, 0]}, [0, 1, 0])
    with pytest.raises(ValueError, match="pooled leave-one-out results have none"):
        pairwise_corrected_ttests(run, n_train=2, n_test=1)


def test_loo_results_concatenate():
    """attrs holding predictions must not break pandas' attrs comparison in concat."""
    run = _fixed_run({"a": [0, 1, 1]}, [0, 1, 0])
    both = pd.concat([run, run])
    assert len(both) == 2 * len(run)


# --- warnings collected across splits --------------------------------------------------------

class _Warns(ClassifierMixin, BaseEstimator):
    """Warns on every fit, with a number that changes from split to split."""

    def fit(self, X, y):
        warnings.warn(f"learning set of {len(y)} units is small", UserWarning)
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


@pytest.mark.parametrize("n_jobs", [None, pytest.param(2, marks=pytest.mark.slow)])
def test_a_warning_raised_on_every_split_is_reported_once_with_a_count(n_jobs):
    X = np.arange(20.0)[:, None]
    y = np.repeat([0, 1], 10)
    with pytest.warns(UserWarning) as record:
        evaluate({"w": _Warns()}, X, y, scheme="cv5", metrics=["misclassification"],
                 n_jobs=n_jobs, random_state=0, progress=False)
    mine = [w for w in record if "is small" in str(w.message)]
    assert len(mine) == 1
    assert str(mine[0].message) == ("evaluate, method 'w': learning set of 16 units is small "
                                    "(raised in 5 of 5 splits)")
    assert mine[0].filename == __file__


def test_warnings_inside_evaluate_name_classes_by_their_labels():
    from ordstat.gaussian import EDDA

    r = np.random.default_rng(0)
    X = r.normal(size=(30, 2)) + np.repeat([0, 3, 6], 10)[:, None]
    y = np.repeat(["low", "mid", "high"], 10)
    with pytest.warns(UserWarning, match=r"method 'edda': EDDA: class\(es\) \['top'\] have no "
                      r"units.*\(raised in 3 of 3 splits\)") as record:
        evaluate({"edda": EDDA(model="EEE")}, X, y, classes=["low", "mid", "high", "top"],
                 scheme="cv3", metrics=["misclassification"], random_state=0, progress=False)
    assert [w.filename for w in record if "top" in str(w.message)] == [__file__]


def test_user_filters_apply_to_collected_warnings():
    X = np.arange(20.0)[:, None]
    y = np.repeat([0, 1], 10)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*is small")
        evaluate({"w": _Warns()}, X, y, scheme="cv5", metrics=["misclassification"],
                 random_state=0, progress=False)


# --- progress and the run-time estimate -------------------------------------------------------

def test_estimate_text():
    assert _progress.estimate_text(0.01, 100, None) is None
    assert _progress.estimate_text(2.0, 100, None) == "about 3 min for 100 fits"
    assert _progress.estimate_text(2.0, 100, 2) == "about 2 min for 100 fits"
    assert _progress.estimate_text(0.2, 40, 1) == "about 8 s for 40 fits"


def test_progress_default_follows_the_terminal(capsys, monkeypatch):
    run = dict(X=X_TINY, y=Y_TINY, scheme="loo", classes=["a", "b", "c"])
    evaluate({"1nn": KNeighborsClassifier(1)}, **run)  # stderr captured: not a terminal
    assert capsys.readouterr().err == ""
    evaluate({"1nn": KNeighborsClassifier(1)}, progress=True, **run)
    assert "evaluate" in capsys.readouterr().err
    monkeypatch.setattr(_progress, "ANNOUNCE_AFTER", 0.0)
    res = evaluate({"1nn": KNeighborsClassifier(1)}, progress=True, **run)
    assert "about 0 s for 7 fits" in capsys.readouterr().err
    assert res["value"].iloc[0] == pytest.approx(2 / 7)  # the timed first fit is kept
    assert _progress.resolve(None) is False  # pytest's captured stderr is no terminal
    with pytest.raises(TypeError, match="progress must be True, False or None"):
        evaluate({"1nn": KNeighborsClassifier(1)}, progress="yes", **run)


# --- the command line -------------------------------------------------------------------------

@pytest.mark.slow
def test_cli_compare_loo_prints_pooled_values_and_unit_tests(tmp_path):
    import subprocess
    import sys

    r = np.random.default_rng(0)
    x = r.normal(size=30)
    grade = np.array(["low", "mid", "high"])[np.digitize(x + 0.5 * r.normal(size=30),
                                                          [-0.4, 0.4])]
    path = tmp_path / "d.csv"
    pd.DataFrame({"x": x, "z": r.normal(size=30), "grade": grade}).to_csv(path, index=False)
    out = subprocess.run(
        [sys.executable, "-m", "ordstat", "compare", str(path), "--response", "grade",
         "--order", "low,mid,high", "--methods", "polr,tree", "--scheme", "loo",
         "--metrics", "misclassification,gamma", "--output", str(tmp_path / "r.csv")],
        capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "30 leave-one-out fits per method" in out.stdout
    assert "pooled leave-one-out value (standard error)" in out.stdout
    assert "Pairwise exact McNemar tests over units" in out.stdout
    assert "gamma: no comparison" in out.stdout
    assert "Corrected resampled" not in out.stdout
    tidy = pd.read_csv(tmp_path / "r.csv")
    assert list(tidy["split"].unique()) == ["pooled"] and len(tidy) == 2 * 2
