import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings, strategies as st
from sklearn.exceptions import UndefinedMetricWarning

from ordstat import metrics as M

# Hand-computed example (ranks 1..3):
#   unit  a  b  c  d  e
#   true  1  1  2  3  3
#   pred  1  2  2  3  1
T = [1, 1, 2, 3, 3]
P = [1, 2, 2, 3, 1]


def test_hand_example_rates_and_distances():
    assert M.misclassification_rate(T, P) == pytest.approx(2 / 5)
    assert M.mean_absolute_distance(T, P) == pytest.approx(3 / 5)   # 0+1+0+0+2
    assert M.mean_squared_distance(T, P) == pytest.approx(5 / 5)    # 0+1+0+0+4


def test_hand_example_gamma():
    # concordant: a-c, a-d, b-d, c-d; discordant: b-e, c-e; the rest tied
    assert M.goodman_kruskal_gamma(T, P) == pytest.approx((4 - 2) / (4 + 2))


def test_hand_example_weighted():
    w = [1, 1, 1, 1, 2]
    assert M.misclassification_rate(T, P, sample_weight=w) == pytest.approx(3 / 6)
    # pairs weigh w_i w_j: C = 1+1+1+1, D = 2+2
    assert M.goodman_kruskal_gamma(T, P, sample_weight=w) == pytest.approx(0.0)


def test_hand_example_confusion_matrix():
    cm = M.ordinal_confusion_matrix(T, P)
    assert cm.tolist() == [[1, 1, 0], [0, 1, 0], [1, 0, 1]]
    frame = M.ordinal_confusion_matrix(["lo", "hi"], ["hi", "hi"], classes=["lo", "hi"],
                                       as_frame=True)
    assert frame.loc["lo", "hi"] == 1 and list(frame.columns) == ["lo", "hi"]


def test_hand_example_border_ranks():
    # border 2: true<=2 = {a,b,c}, pred<=2 = {a,b,c,e}, both = {a,b,c}
    #           true>2 = {d,e},    pred>2 = {d},        both = {d}
    assert M.border_rank_sensitivity(T, P, 2) == pytest.approx(3 / 3)
    assert M.border_rank_sensitivity(T, P, 2, denominator="predicted") == pytest.approx(3 / 4)
    assert M.border_rank_specificity(T, P, 2) == pytest.approx(1 / 2)
    assert M.border_rank_specificity(T, P, 2, denominator="predicted") == pytest.approx(1 / 1)
    table = M.border_rank_table(T, P)
    assert table.loc[2, ["sensitivity", "sens_printed", "specificity", "spec_printed"]].tolist() \
        == pytest.approx([1, 3 / 4, 1 / 2, 1])
    assert table.loc[1, "sensitivity"] == pytest.approx(1 / 2)  # {a,b} true low, {a} both


def test_expected_cost_and_cost_matrices():
    assert M.absolute_cost_matrix(3).tolist() == [[0, 1, 2], [1, 0, 1], [2, 1, 0]]
    assert M.squared_cost_matrix(3)[0, 2] == 4
    assert M.expected_cost(T, P, M.absolute_cost_matrix(3)) == \
        pytest.approx(M.mean_absolute_distance(T, P))
    cost = np.array([[0, 1, 5], [1, 0, 1], [10, 1, 0]])
    assert M.expected_cost(T, P, cost) == pytest.approx((0 + 1 + 0 + 0 + 10) / 5)
    proba = np.array([[0.46, 0.1, 0.44], [0.6, 0.0, 0.4]])
    # row 0: expected costs [0.98, 0.90, 1.02] -> the middle class, though class 0 is the mode
    # row 1: [0.8, 1.0, 1.2] -> class 0
    assert M.min_expected_cost_decision(proba, M.absolute_cost_matrix(3)).tolist() == [1, 0]


def test_labels_and_classes_order():
    t = ["low", "high", "mid"]
    p = ["mid", "high", "mid"]
    assert M.mean_absolute_distance(t, p, classes=["low", "mid", "high"]) == pytest.approx(1 / 3)
    cat = pd.Categorical(t, categories=["low", "mid", "high"], ordered=True)
    assert M.mean_absolute_distance(cat, p) == pytest.approx(1 / 3)


def test_gamma_undefined_warns():
    with pytest.warns(UndefinedMetricWarning, match="undefined"):
        assert np.isnan(M.goodman_kruskal_gamma([1, 2, 3], [2, 2, 2]))


@pytest.mark.parametrize("call, match", [
    (lambda: M.misclassification_rate([1, 2], [1]), "same length"),
    (lambda: M.mean_absolute_distance([1, 2], [1, 5], classes=[1, 2]), "y_pred contains"),
    (lambda: M.border_rank_sensitivity([1, 2], [1, 2], 2), "border must be"),
    (lambda: M.border_rank_sensitivity([1, 2], [1, 2], 1, denominator="x"), "denominator"),
    (lambda: M.expected_cost([1, 2], [1, 2], np.ones((3, 3))), "2 x 2"),
    (lambda: M.expected_cost([1, 2], [1, 2], -np.ones((2, 2))), "non-negative"),
    (lambda: M.absolute_cost_matrix(1), "n_classes"),
    (lambda: M.misclassification_rate([1, None], [1, 2]), "missing"),
    (lambda: M.min_expected_cost_decision(np.ones(3), np.ones((3, 3))), "2-D"),
])
def test_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def _brute_gamma(t, p):
    c = d = 0
    for i, j in itertools.combinations(range(len(t)), 2):
        s = np.sign(t[i] - t[j]) * np.sign(p[i] - p[j])
        c += s > 0
        d += s < 0
    return (c - d) / (c + d)


pairs = st.integers(2, 6).flatmap(lambda k: st.tuples(
    st.just(k),
    st.lists(st.tuples(st.integers(0, k - 1), st.integers(0, k - 1)), min_size=2, max_size=40)))


@settings(max_examples=60, deadline=None)
@given(pairs)
def test_gamma_matches_brute_force_and_is_bounded(data):
    k, units = data
    t, p = map(np.array, zip(*units))
    assume(len(set(t)) >= 2 and len(set(p)) >= 2)
    g = M.goodman_kruskal_gamma(t, p, classes=range(k))
    assert -1 <= g <= 1
    assert g == pytest.approx(_brute_gamma(t, p))


@given(st.lists(st.integers(0, 4), min_size=2).filter(lambda v: len(set(v)) >= 2))
def test_gamma_perfect_prediction_is_one(t):
    assert M.goodman_kruskal_gamma(t, t) == pytest.approx(1.0)


@settings(max_examples=50, deadline=None)
@given(pairs)
def test_order_preserving_relabelling_and_reversal(data):
    k, units = data
    t, p = map(np.array, zip(*units))
    classes = list(range(k))
    names = [f"grade {chr(97 + i)}" for i in range(k)]   # increasing, non-numeric labels
    relabel = np.array(names, dtype=object)
    for fn in (M.misclassification_rate, M.mean_absolute_distance, M.mean_squared_distance):
        base = fn(t, p, classes=classes)
        assert fn(relabel[t], relabel[p], classes=names) == pytest.approx(base)
        # reversing the order leaves misclassification and distances unchanged
        assert fn(t, p, classes=classes[::-1]) == pytest.approx(base)


def test_border_rate_undefined_warns():
    # no unit is truly in rank 1, so the usual sensitivity at border 1 has no denominator
    with pytest.warns(UndefinedMetricWarning, match="border 1"):
        assert np.isnan(M.border_rank_sensitivity([2, 3], [1, 3], 1, classes=[1, 2, 3]))


def test_metric_refuses_classes_against_an_ordered_categorical():
    t = pd.Categorical(["lo", "hi"], categories=["lo", "hi"], ordered=True)
    with pytest.raises(ValueError, match="contradicts the order"):
        M.mean_absolute_distance(t, ["hi", "hi"], classes=["hi", "lo"])
