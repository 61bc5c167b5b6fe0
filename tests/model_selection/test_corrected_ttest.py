"""The corrected resampled t-test (Nadeau & Bengio 2003) against hand computations."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from ordstat.model_selection import corrected_resampled_ttest, pairwise_corrected_ttests


def test_hand_computation():
    # d = (1, 2, 3, 4): mean 2.5, s^2 = 5/3; J = 4, n_test/n_train = 1/2
    # var = (1/4 + 1/2) * 5/3 = 5/4, t = 2.5 / sqrt(5/4) = sqrt(5), df = 3
    res = corrected_resampled_ttest([2, 4, 6, 8], [1, 2, 3, 4], n_train=2, n_test=1)
    assert res.df == 3
    assert res.mean_difference == pytest.approx(2.5)
    assert res.std_error == pytest.approx(math.sqrt(5 / 4))
    assert res.statistic == pytest.approx(math.sqrt(5))
    # Student's t with 3 df in closed form: P(|T| > t) = 1 - (2/pi)(u/(1+u^2) + atan u),
    # u = t / sqrt(3)
    u = math.sqrt(5) / math.sqrt(3)
    assert res.pvalue == pytest.approx(1 - 2 / math.pi * (u / (1 + u * u) + math.atan(u)))


def test_ten_fold_ratio():
    # 10-fold CV: n_test / n_train = 1/9, J = 10; d alternates 0.02 / 0.04
    d = np.tile([0.02, 0.04], 5)
    res = corrected_resampled_ttest(d, np.zeros(10), n_train=9, n_test=1)
    s2 = np.sum((d - 0.03) ** 2) / 9
    assert res.statistic == pytest.approx(0.03 / math.sqrt((0.1 + 1 / 9) * s2))


def test_without_correction_is_the_paired_t_test():
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=12), rng.normal(size=12)
    res = corrected_resampled_ttest(a, b, n_train=1.0, n_test=1e-12)
    plain = stats.ttest_rel(a, b)
    assert res.statistic == pytest.approx(plain.statistic)
    assert res.pvalue == pytest.approx(plain.pvalue)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-1, 1), min_size=2, max_size=20),
       st.floats(0.05, 1.0))
def test_antisymmetric_and_more_conservative(diffs, ratio):
    d = np.asarray(diffs)
    res = corrected_resampled_ttest(d, np.zeros_like(d), n_train=1.0, n_test=ratio)
    swapped = corrected_resampled_ttest(np.zeros_like(d), d, n_train=1.0, n_test=ratio)
    assert swapped.pvalue == pytest.approx(res.pvalue)
    assert swapped.statistic == pytest.approx(-res.statistic)
    if res.std_error > 0:
        plain = corrected_resampled_ttest(d, np.zeros_like(d), n_train=1.0, n_test=1e-15)
        assert res.pvalue >= plain.pvalue - 1e-12


def test_zero_variance():
    assert corrected_resampled_ttest([1, 1, 1], [1, 1, 1], n_train=9, n_test=1).pvalue == 1.0
    res = corrected_resampled_ttest([2, 2, 2], [1, 1, 1], n_train=9, n_test=1)
    assert res.pvalue == 0.0 and res.statistic == math.inf


@pytest.mark.parametrize("kwargs, match", [
    (dict(scores_a=[1, 2], scores_b=[1, 2, 3], n_train=9, n_test=1), "same length"),
    (dict(scores_a=[1], scores_b=[2], n_train=9, n_test=1), "at least 2 splits"),
    (dict(scores_a=[1, np.nan], scores_b=[2, 3], n_train=9, n_test=1), "finite"),
    (dict(scores_a=[1, 2], scores_b=[2, 3], n_train=0, n_test=1), "n_train"),
    (dict(scores_a=[1, 2], scores_b=[2, 3], n_train=9, n_test=-1), "n_test"),
    (dict(scores_a=[1, 2], scores_b=[2, 3], n_train=9, n_test="1"), "n_test"),
])
def test_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        corrected_resampled_ttest(**kwargs)


def test_pairwise_on_evaluate_results():
    rows = []
    values = {"m1": [0.2, 0.3, 0.25, 0.35], "m2": [0.1, 0.2, 0.2, 0.3], "m3": [0.2] * 4}
    for method, vals in values.items():
        rows += [(split, method, "misclassification", v) for split, v in enumerate(vals)]
    results = pd.DataFrame(rows, columns=["split", "method", "metric", "value"])
    table = pairwise_corrected_ttests(results, n_train=3, n_test=1)
    assert list(zip(table.method_a, table.method_b)) == [("m1", "m2"), ("m1", "m3"),
                                                         ("m2", "m3")]
    direct = corrected_resampled_ttest(values["m1"], values["m2"], n_train=3, n_test=1)
    assert table.loc[0, "p_value"] == pytest.approx(direct.pvalue)
    with pytest.raises(ValueError, match="metric"):
        pairwise_corrected_ttests(results, "nonsense", n_train=3, n_test=1)
