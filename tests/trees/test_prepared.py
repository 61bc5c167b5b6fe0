"""Ensembles grow their trees on a sample prepared once (``ordstat/trees/_prepared.py``): the
same trees, field by field, as fitting each tree on its copied rows (the ensembles' path
before, and still the path of other base estimators)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ordstat.ensemble import OrdinalBaggingClassifier, OrdinalRandomForestClassifier
from ordstat.ensemble import _bagging
from ordstat.trees import OrdinalTreeClassifier, criteria
from ordstat.trees._prepared import Sample, prepare

from tests.trees.test_levels import assert_same_tree

pytestmark = pytest.mark.filterwarnings("ignore:.*in every bootstrap sample:UserWarning")


def _data(n=260, p=14, nan=True, seed=4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    X[:, 1] = np.round(X[:, 1])  # ties
    if nan:
        X[rng.random(n) < 0.15, 2] = np.nan
        X[rng.random(n) < 0.03, 5] = np.nan
    y = np.digitize(X[:, 0] + X[:, 1] + rng.normal(size=n), [-1.5, -0.3, 0.8, 2])
    return X, y


def _both(make, X, y, monkeypatch):
    """(copied rows, prepared sample) fits of ``make()``; checks which path each took."""
    calls = []
    original = _bagging.fit_sample

    def spy(*args):
        calls.append(1)
        return original(*args)

    monkeypatch.setattr(_bagging, "fit_sample", spy)
    with monkeypatch.context() as m:
        m.setattr(_bagging._BaseBagging, "_prepared", staticmethod(lambda *a: None))
        copied = make().fit(X, y)
    assert not calls
    prepared = make().fit(X, y)
    assert calls
    return copied, prepared


def _same_ensembles(a, b, X):
    assert len(a.estimators_) == len(b.estimators_)
    for ta, tb in zip(a.estimators_, b.estimators_):
        assert_same_tree(ta.tree_, tb.tree_)
        np.testing.assert_array_equal(ta.cp_table_.to_numpy(), tb.cp_table_.to_numpy())
        np.testing.assert_array_equal(ta.classes_, tb.classes_)
        assert ta.get_params().keys() == tb.get_params().keys()
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    np.testing.assert_array_equal(a.oob_decision_function_, b.oob_decision_function_)


@pytest.mark.parametrize("nan", [False, True])
@pytest.mark.parametrize(("criterion", "max_features"), [
    ("ordinal", "sqrt"),  # compiled levels
    ("gini", 9),  # presorted, a drawn mask
    ("twoing", None),  # presorted, every feature
])
def test_forest_trees_on_the_prepared_sample(criterion, max_features, nan, monkeypatch):
    X, y = _data(nan=nan)

    def make():
        return OrdinalRandomForestClassifier(n_estimators=5, criterion=criterion,
                                             max_features=max_features, random_state=7)

    _same_ensembles(*_both(make, X, y, monkeypatch), X)


def test_bagging_trees_on_the_prepared_sample(monkeypatch):
    X, y = _data()
    tree = OrdinalTreeClassifier(criterion="gini_linear", min_split=2, min_bucket=1, cp=-1.0,
                                 xval=0)

    def make():
        return OrdinalBaggingClassifier(tree, n_estimators=5, random_state=1)

    _same_ensembles(*_both(make, X, y, monkeypatch), X)


def test_user_criterion_numpy_search_on_the_prepared_sample(monkeypatch):
    """A criterion without a compiled scan: the numpy search, over prepared rows whose
    weights are the repeat counts (zero outside the sample)."""
    X, y = _data(n=150, p=6)
    crit = criteria.CRITERIA["gini"]

    def user_gini(left, right):
        return crit(left, right)

    def make():
        return OrdinalRandomForestClassifier(n_estimators=3, criterion=user_gini,
                                             max_features=2, random_state=2)

    _same_ensembles(*_both(make, X, y, monkeypatch), X)


def test_trees_outside_the_repeat_path_copy_their_rows(monkeypatch):
    """min_bucket > 1 counts repeats: the trees are fitted on copied rows, as before."""
    X, y = _data(n=120, p=6)
    calls = []
    monkeypatch.setattr(_bagging, "fit_sample", lambda *a: calls.append(1))
    OrdinalBaggingClassifier(n_estimators=2, random_state=0).fit(X, y)  # min_split 5
    assert not calls


def test_single_class_sample_is_a_constant_tree():
    X = np.arange(12.0)[:, None]
    y = np.array([0] * 11 + [1])
    data = prepare(X, y, 2, presort=False)
    from ordstat.ensemble._common import ConstantClassifier, fit_sample

    tree = OrdinalTreeClassifier(min_split=2, min_bucket=1, cp=-1, xval=0)
    est = fit_sample(tree, tree.get_params(), Sample(data, np.arange(5)), np.ones(5, int),
                     None, 0)
    assert isinstance(est, ConstantClassifier) and est.code == 0
    np.testing.assert_array_equal(est.predict(X[:3]), [0, 0, 0])


def test_prepared_data_by_hand():
    X = np.array([[3.0, np.nan], [1.0, 2.0], [2.0, -1.0]])
    data = prepare(X, [0, 1, 0], 2, presort=True)
    np.testing.assert_array_equal(data.XT, X.T)
    np.testing.assert_array_equal(data.mirror, [1])
    assert data.order is None  # the words hold it
    np.testing.assert_array_equal(data.unit_order()[0], [1, 2, 0])
    np.testing.assert_array_equal(data.unit_order()[1, :2], [2, 1])  # NaN last
    assert prepare(X[:, :1], [0, 1, 0], 2, presort=False).neg_ranks.shape == (0, 3)


def test_dense_ranks_by_hand():
    X = np.array([[2.5, 1.0], [-1.0, 1.0], [2.5, 0.0], [7.0, -0.0]])
    data = prepare(X, [0, 1, 0, 1], 2, presort=False)
    np.testing.assert_array_equal(data.ranks, [[1, 0, 1, 2], [1, 1, 0, 0]])
    assert data.ranks.dtype == np.int32 and data.order is None
    assert data.neg_ranks.shape == (0, 4)  # no missing value: no -x search
    assert prepare(X, [0, 1, 0, 1], 2, presort=True).ranks is None  # presorting trees


def test_ranks_with_missing_values_by_hand():
    """A missing value ranks after every value (MISSING_RANK), in x and in -x; the ranks of
    -x reverse those of x."""
    from ordstat.trees._records import MISSING_RANK

    X = np.array([[2.5, 1.0], [np.nan, 1.0], [2.5, 0.0], [7.0, -0.0], [-1.0, 3.0]])
    data = prepare(X, [0, 1, 0, 1, 0], 2, presort=False)
    m = MISSING_RANK
    np.testing.assert_array_equal(data.ranks, [[1, m, 1, 2, 0], [1, 1, 0, 0, 2]])
    np.testing.assert_array_equal(data.neg_ranks[0], [1, m, 1, 0, 2])
    np.testing.assert_array_equal(data.mirror, [0])


def test_words_by_hand():
    """Each word holds a unit's rank in the feature's order (missing values ranked n, last),
    its index and its class code; a tree keeps the words of its rows in order, and adds rows
    of -x for the features with missing values ("missing left")."""
    from ordstat.trees import criteria
    from ordstat.trees._kernels import presorted
    from ordstat.trees._prepared import Sample
    from ordstat.trees._splitter import Splitter, word_bits

    X = np.array([[2.5, 1.0], [-1.0, np.nan], [2.5, 0.0], [7.0, -0.0]])
    codes = np.array([0, 2, 1, 2])
    data = prepare(X, codes, 3, presort=True)
    cb, ub = word_bits(3, 4)
    assert (cb, ub) == (2, 2)
    words = np.asarray(data.words)
    units = (words >> cb) & 3
    np.testing.assert_array_equal(units, data.unit_order())
    np.testing.assert_array_equal(words & 3, codes[units])
    np.testing.assert_array_equal(words >> (cb + ub), [[0, 1, 1, 2], [0, 0, 1, 4]])
    inside = np.array([True, False, True, True])
    out = np.empty((2, 3), dtype=np.int64)
    presorted.restrict_rows(data.words, inside, cb, ub, out)
    np.testing.assert_array_equal(out, [w[inside[(w >> cb) & 3]] for w in words])
    sp = Splitter(data.X, data.codes, np.ones(4), 3, criteria.gini, min_bucket=1,
                  sample=Sample(data, np.arange(4)))
    root = sp.packed_root(cb, ub)
    np.testing.assert_array_equal(root[:2], words)
    # -x of feature 1: -1.0 < -0.0 == 0.0, then NaN
    np.testing.assert_array_equal(root[2] >> (cb + ub), [0, 1, 1, 4])
    np.testing.assert_array_equal((root[2, [0, 3]] >> cb) & 3, [0, 1])


@settings(max_examples=40, deadline=None)
@given(values=st.lists(st.integers(0, 70000), min_size=0, max_size=700),
       split=st.integers(0, 700))
def test_node_sort_sorts_ranks(values, split):
    """Ranks are radix sorted from RANK_RADIX_MIN on (one or more 8-bit digits), sorted as
    values below; units, codes and weights follow them."""
    from ordstat.trees._kernels import sort

    r = np.array(values, dtype=np.int32)
    n = r.size
    a = min(split, n)
    units = np.random.default_rng(n).permutation(n)
    sizes = np.array([a, n - a])
    order = np.zeros((1, n), dtype=np.int64)
    xs, ys, ws = np.zeros((1, n), np.int32), np.zeros((1, n), np.int64), np.zeros((1, n))
    sort.node_sort(r[None, :].copy(), np.arange(n), np.arange(n) / 2.0, units,
                       np.array([0, a]), sizes, np.array([[0, 0]]), order, xs, ys, ws)
    for lo, m in ((0, a), (a, n - a)):
        seg = slice(lo, lo + m)
        np.testing.assert_array_equal(xs[0, seg], np.sort(r[units[seg]]))
        np.testing.assert_array_equal(np.sort(order[0, seg]), np.sort(units[seg]))
        np.testing.assert_array_equal(r[order[0, seg]], xs[0, seg])
    np.testing.assert_array_equal(ys[0], order[0])
    np.testing.assert_array_equal(ws[0], order[0] / 2.0)


def test_prepared_arrays_are_read_only():
    """As joblib's memory-mapped arrays in worker processes (one compiled kernel type)."""
    X, y = _data(n=40, p=6, nan=True)
    for presort in (False, True):
        data = prepare(X, y, 5, presort)
        arrays = [data.XT, data.codes, data.neg_ranks, data.order, data.ranks, data.words]
        assert all(not a.flags.writeable for a in arrays if a is not None)
    assert X.flags.writeable


@pytest.mark.parametrize("presort", [False, True])
def test_features_sorted_in_threads_prepare_the_same_sample(presort, monkeypatch):
    """A large sample's features are sorted in n_jobs threads, each writing its own rows:
    the same ranks, ranks of -x, words and orders as one after the other."""
    from ordstat.trees import _splitter

    rng = np.random.default_rng(3)
    X = rng.normal(size=(500, 7))
    X[:, 2] = np.round(X[:, 2])
    X[rng.random(500) < 0.1, 4] = np.nan
    codes = rng.integers(0, 4, size=500)
    alone = prepare(X, codes, 4, presort, n_jobs=1)
    monkeypatch.setattr(_splitter, "THREADED_PREPARE", 0)
    threads = []
    original = _splitter.Parallel

    def spy(*args, **kwargs):
        threads.append(kwargs)
        return original(*args, **kwargs)

    monkeypatch.setattr(_splitter, "Parallel", spy)
    together = prepare(X, codes, 4, presort, n_jobs=2)
    assert threads and all(t["require"] == "sharedmem" for t in threads)
    for name in ("ranks", "neg_ranks", "words", "order"):
        a, b = getattr(alone, name), getattr(together, name)
        assert (a is None) == (b is None), name
        if a is not None:
            np.testing.assert_array_equal(a, b, err_msg=name)
