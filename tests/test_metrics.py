import itertools
import warnings

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


# --- integer labels without label encoding ------------------------------------------------------
# The fast path (M._integer_pair) must give the general path's encoding and codes, hence the same
# table and measures; labels it cannot map go to the general path, which names them.

def _general_table(t, p, classes, w=None):
    encoding, tc, pc = M._encode_pair_general(t, p, classes)
    k = encoding.n_classes
    weights = np.ones(len(tc)) if w is None else np.asarray(w, dtype=float)
    return encoding.classes, np.bincount(tc * k + pc, weights=weights,
                                         minlength=k * k).reshape(k, k)


def _assert_same_as_general(t, p, classes, w=None):
    classes_fast, table = M._table(t, p, classes, w)
    classes_gen, table_gen = _general_table(t, p, classes, w)
    np.testing.assert_array_equal(classes_fast, classes_gen)
    assert classes_fast.dtype == classes_gen.dtype
    np.testing.assert_array_equal(table, table_gen)
    assert table.dtype == np.float64
    enc, tc, pc = M._encode_pair(t, p, classes)
    enc_gen, tc_gen, pc_gen = M._encode_pair_general(t, p, classes)
    np.testing.assert_array_equal(enc.classes, enc_gen.classes)
    np.testing.assert_array_equal(tc, tc_gen)
    np.testing.assert_array_equal(pc, pc_gen)


int_dtypes = st.sampled_from([np.int64, np.int32, np.int8, np.uint8, np.uint16, np.uint64])
int_labels = st.tuples(st.integers(2, 7), st.integers(-3, 3), int_dtypes).flatmap(
    lambda a: st.tuples(
        st.just(a),
        st.lists(st.tuples(st.integers(0, a[0] - 1), st.integers(0, a[0] - 1)), min_size=1,
                 max_size=40),
        st.sampled_from(["none", "given", "reversed", "shuffled", "wider"])))


@settings(max_examples=150, deadline=None)
@given(int_labels, st.booleans())
def test_integer_labels_fast_path_equals_general_path(data, weighted):
    (k, offset, dtype), units, how = data
    if np.dtype(dtype).kind == "u":
        offset = abs(offset)
    t, p = (np.array(v, dtype=np.int64) + offset for v in zip(*units))
    t, p = t.astype(dtype), p.astype(dtype)
    order = np.arange(k) + offset
    classes = {"none": None, "given": order, "reversed": order[::-1],
               "shuffled": np.roll(order, 1), "wider": np.arange(offset - 1, offset + k + 2)}[how]
    if classes is not None and np.dtype(dtype).kind == "u":
        classes = classes[classes >= 0]
        if not np.isin(t, classes).all() or not np.isin(p, classes).all() or len(classes) < 2:
            return
    w = np.arange(1, len(t) + 1) / 3.0 if weighted else None
    _assert_same_as_general(t, p, classes, w)
    # only negative labels without classes= need the general path
    negative = min(t.min(), p.min()) < 0
    assert (M._integer_pair(t, p, classes) is None) == (negative and classes is None)


def test_integer_labels_with_absent_codes_are_dropped_like_the_general_path():
    t = np.array([0, 2, 5, 5])
    p = np.array([2, 2, 0, 5])
    _assert_same_as_general(t, p, None)
    assert M.ordinal_confusion_matrix(t, p).shape == (3, 3)  # 0, 2, 5: ranks 0, 1, 2
    with pytest.warns(UserWarning, match="0 and 2 present"):
        assert M.mean_absolute_distance(t, p) == pytest.approx((1 + 0 + 2 + 0) / 4)
    # labels far apart (a table over 0..max would not fit): found by their counts
    far = np.array([0, 10**6, 10**6 + 1])
    _assert_same_as_general(far, far[::-1].copy(), None)
    assert M.goodman_kruskal_gamma(far, far) == 1.0


@pytest.mark.parametrize("metric, on_ranks, on_values", [
    (M.mean_absolute_distance, 1.0, 4.0), (M.mean_squared_distance, 1.0, 16.0)])
@pytest.mark.parametrize("labels", [np.array([1, 5]), np.array([1.0, 5.0]),
                                    pd.Series([1, 5]), [1, 5]])
def test_distances_on_integer_labels_with_gaps_warn_and_classes_give_the_scale(
        metric, on_ranks, on_values, labels):
    """[1, 5, 1, 5] against [5, 1, 5, 1]: without classes= the ranks of the labels present
    (1 apart), with a warning naming the gap; with classes= the full scale (4 apart)."""
    t = np.tile(np.asarray(labels), 2)
    p = t[::-1].copy()
    with pytest.warns(UserWarning, match=r"1 and 5 are 1 apart, not 4.*classes=range\(1, 6\)"):
        assert metric(t, p) == on_ranks
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert metric(t, p, classes=range(1, 6)) == on_values
        assert metric(np.array([1, 2, 3]), np.array([3, 2, 1])) > 0  # no gap: no warning
        letters = pd.Categorical(["a", "c"], ordered=True)  # not numbers: ranks, no warning
        assert metric(letters, letters[::-1]) == on_ranks


def test_integer_labels_in_pandas_and_lists_agree_with_arrays():
    t, p = np.array([3, 1, 2, 2, 1]), np.array([3, 2, 2, 1, 1])
    want = M.goodman_kruskal_gamma(t, p)
    assert M.goodman_kruskal_gamma(pd.Series(t, index=[5, 4, 3, 2, 1]), pd.Index(p)) == want
    assert M.goodman_kruskal_gamma(t.tolist(), p.tolist()) == want
    assert M.goodman_kruskal_gamma(t, p, classes=[1, 2, 3]) == want


def _unknown(name, label):
    """The general path's message for an unknown label (numpy scalars print as np.int64(3))."""
    return rf"{name} contains label\(s\) \[(np\.int64\()?{label}\)?\]"


@pytest.mark.parametrize("t, p, classes, match", [
    (np.array([0, 1, 2]), np.array([0, 1, 3]), [0, 1, 2], _unknown("y_pred", "3")),
    (np.array([0, 1, -1]), np.array([0, 1, 1]), [0, 1, 2], _unknown("y_true", "-1")),
    (np.array([1, 2, 7]), np.array([1, 2, 2]), [2, 1, 3], _unknown("y_true", "7")),
    (np.array([1, 2, 2]), np.array([1, 2, 9]), [3, 1, 2], _unknown("y_pred", "9")),
    (np.array([0, 1]), np.array([0, 1, 1]), None, "same length"),
    (np.array([0, 1]), np.array([0, 1, 1]), [0, 1], "same length"),
    (np.array([0, 1]), np.array([0, 1]), [0, 1, 1], "must not repeat"),
    (np.array([0, 1]), np.array([0, 1]), [0], "at least two labels"),
    (np.array([[0, 1]]), np.array([0, 1]), [0, 1], "1-D"),
    (np.array([], dtype=int), np.array([], dtype=int), [0, 1], "empty"),
])
def test_integer_labels_errors_name_the_bad_labels(t, p, classes, match):
    with pytest.raises(ValueError, match=match):
        M.goodman_kruskal_gamma(t, p, classes=classes)


def test_integer_labels_keep_given_classes_that_do_not_occur():
    # classes= keeps absent classes in the table (rows and columns of zeros), as before
    cm = M.ordinal_confusion_matrix(np.array([0, 2]), np.array([2, 2]), classes=[0, 1, 2, 3])
    assert cm.shape == (4, 4) and cm[0, 2] == 1 and cm[2, 2] == 1 and cm.sum() == 2
    frame = M.ordinal_confusion_matrix(np.array([10, 30]), np.array([30, 30]),
                                       classes=[10, 20, 30], as_frame=True)
    assert list(frame.index) == [10, 20, 30] and frame.loc[10, 30] == 1
