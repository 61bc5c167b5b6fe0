"""Every kind of warning ordstat raises points at the user's call (this file), and names
classes by their labels."""

import re
import sys
import warnings

import numpy as np
import pytest
from sklearn.exceptions import DataConversionWarning, UndefinedMetricWarning

import ordstat
from ordstat._core import warnings as _warnings
from ordstat.baseline import ProportionalOddsClassifier
from ordstat.combine.diverse import diverse_models
from ordstat.combine.hierarchical import HierarchicalCoupling
from ordstat.discrete import FullMultinomial, KernelMultinomial
from ordstat.ensemble import OrdinalBaggingClassifier, OrdinalBoostingClassifier
from ordstat.gaussian import EDDA
from ordstat.metrics import border_rank_sensitivity, goodman_kruskal_gamma
from ordstat.model_selection import RepeatedLearningTestSplits
from ordstat.trees import OrdinalTreeClassifier

rng = np.random.default_rng(0)


def _blobs(n_per=(10, 10, 10), d=2, seed=0):
    r = np.random.default_rng(seed)
    X = np.vstack([r.normal(loc=3 * k, size=(n, d)) for k, n in enumerate(n_per)])
    return X, np.repeat(np.arange(len(n_per)), n_per)


def _near_singular():
    X, y = _blobs(seed=9)
    X = np.column_stack([X, X[:, 0] + 1e-5 * rng.normal(size=len(y))])
    EDDA(model="EEE").fit(X, y)


def _absent_class():
    X, y = _blobs()
    labels = np.array(["low", "mid", "high"], dtype=object)[y]
    w = np.r_[np.ones(20), np.zeros(10)]
    EDDA(model="EEE", classes=["low", "mid", "high"]).fit(X, labels, sample_weight=w)


def _boosting():
    r = np.random.default_rng(0)
    X, y = r.normal(size=(40, 1)), r.integers(0, 3, 40)  # noise: boosting stops early
    OrdinalBoostingClassifier(n_estimators=30, max_leaf_nodes=2, random_state=0).fit(X, y)


def _diverse():
    X = rng.normal(size=(9, 3))
    diverse_models([EDDA(model="VVV"), EDDA(model="EII"), EDDA(model="EEE")], X,
                   np.repeat([0, 1, 2], 3))


def _hierarchical():
    X, y = _blobs(n_per=(3, 3, 3, 3), d=3)
    HierarchicalCoupling([EDDA(model="VVV"), EDDA(model="EII")]).fit(X, y)


def _loo_dropped():
    X, y = _blobs(n_per=(4, 10, 10), d=3, seed=11)
    EDDA(model=["EEE", "VVV"]).fit(X, y)


def _model_skipped():
    X, y = _blobs(n_per=(3, 10, 10), d=3, seed=11)
    EDDA(model=["VVV", "EEE"]).fit(X, y)


def _zero_density():
    X = np.array([[0, 0], [0, 1], [1, 1]])
    FullMultinomial(categories="binary").fit(X[:2], [0, 1]).predict_proba(X)


# (warning class, message pattern, call): one per warnings.warn site in ordstat
CASES = {
    "gamma undefined": (UndefinedMetricWarning, "gamma is undefined",
                        lambda: goodman_kruskal_gamma([0, 1, 2], [1, 1, 1])),
    "border rate undefined": (UndefinedMetricWarning, "border 1",
                              lambda: border_rank_sensitivity([2, 2], [2, 2], 1,
                                                              classes=[1, 2])),
    "order guessed": (ordstat.OrderGuessWarning, "guessed",
                      lambda: OrdinalTreeClassifier().fit(np.arange(8.0)[:, None],
                                                          list("aabbccdd"))),
    "column vector y": (DataConversionWarning, "column-vector",
                        lambda: OrdinalTreeClassifier().fit(np.arange(8.0)[:, None],
                                                            np.arange(8)[:, None] // 3)),
    "EDDA near singular": (ordstat.NearSingularWarning, "nearly singular", _near_singular),
    "EDDA convergence": (ordstat.ConvergenceWarning, "did not converge",
                         lambda: EDDA(model="VVE", max_iter=1, tol=1e-14).fit(*_blobs(d=3))),
    "EDDA absent class": (UserWarning, r"\['high'\] have no units", _absent_class),
    "EDDA model skipped": (UserWarning, "skipped", _model_skipped),
    "EDDA loo dropped": (UserWarning, "dropped from the leave-one-out", _loo_dropped),
    "proportional odds convergence": (
        ordstat.ConvergenceWarning, "did not converge",
        lambda: ProportionalOddsClassifier(max_iter=1).fit(*_blobs())),
    "zero density": (ordstat.ZeroDensityWarning, "zero probability", _zero_density),
    "kernel lambda": (UserWarning, "criterion is undefined",
                      lambda: KernelMultinomial().fit(np.array([[0, 1], [1, 0]]), [0, 1])),
    "bagging oob": (UserWarning, "in every bootstrap sample",
                    lambda: OrdinalBaggingClassifier(n_estimators=1, random_state=0).fit(
                        *_blobs())),
    "boosting stopped": (UserWarning, "boosting stopped", _boosting),
    "diverse left out": (UserWarning, "left out", _diverse),
    "hierarchical skipped": (UserWarning, "skipped", _hierarchical),
    "unstratified splits": (UserWarning, r"class\(es\) \['c'\] have a single unit",
                            lambda: list(RepeatedLearningTestSplits(3).split(
                                np.zeros((7, 1)), list("aaabbbc")))),
}


@pytest.mark.parametrize("case", list(CASES))
def test_warning_points_at_the_users_call(case):
    category, pattern, call = CASES[case]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    mine = [w for w in caught if issubclass(w.category, category)
            and re.search(pattern, str(w.message))]
    assert mine, f"no {category.__name__} matching {pattern!r}: {[str(w.message) for w in caught]}"
    assert {w.filename for w in mine} == {__file__}, [(w.filename, w.lineno) for w in mine]


def test_numba_fallback_warning_points_outside_the_package(monkeypatch):
    from ordstat.trees import _fast

    monkeypatch.setitem(sys.modules, "numba", None)
    monkeypatch.setattr(_fast, "_KERNELS", None)
    with pytest.warns(RuntimeWarning, match="numba could not be imported") as record:
        _fast.kernels()
    assert record[0].filename == __file__


def test_stack_level_skips_every_package_frame():
    def outer():
        return _warnings._stack_level()
    # called from this file: the caller of _stack_level (level 1) is already outside ordstat
    assert outer() == 1


def test_reemit_counts_splits_and_merges_messages_differing_in_numbers():
    per_split = [("method 'a'", [(UserWarning, "rcond 1e-9 in class 'x'")]),
                 ("method 'a'", [(UserWarning, "rcond 3.5e-10 in class 'x'")]),
                 ("method 'a'", []),
                 ("method 'b'", [(RuntimeWarning, "overflow")])]
    with pytest.warns(Warning) as record:
        _warnings.reemit(per_split, 3)
    messages = sorted(str(w.message) for w in record)
    assert messages == ["method 'a': rcond 1e-9 in class 'x' (raised in 2 of 3 splits)",
                        "method 'b': overflow (raised in 1 of 3 splits)"]
    assert {w.category for w in record} == {UserWarning, RuntimeWarning}
    assert {w.filename for w in record} == {__file__}


def test_record_passes_deprecation_warnings_on_where_they_arose():
    def library_call():
        warnings.warn("old API", DeprecationWarning)
        warnings.warn("note", UserWarning)
        return 7

    with warnings.catch_warnings(record=True) as outer:
        warnings.simplefilter("always")
        result, caught = _warnings.record(library_call)
    assert result == 7 and caught == [(UserWarning, "note")]
    assert [(w.category, str(w.message)) for w in outer] == [(DeprecationWarning, "old API")]
