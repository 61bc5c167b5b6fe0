"""The warnings of tasks run by joblib in other processes reach the caller
(ordstat._core.parallel): the same warnings, from the same file and line, as with one job."""

from __future__ import annotations

import inspect
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from joblib import delayed, parallel_backend
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.tree import DecisionTreeClassifier

from ordstat import FrankHallClassifier, OrdinalBaggingClassifier
from ordstat._core.parallel import parallel


class NoisyWarning(UserWarning):
    pass


def _noisy(i):
    if i % 2:
        warnings.warn(f"odd task {i}", NoisyWarning)
    return i * i


_WARN_LINE = inspect.getsourcelines(_noisy)[1] + 2


class NoisyTree(ClassifierMixin, BaseEstimator):
    """A depth-2 tree whose fit warns, naming its tag."""

    def __init__(self, tag="a", random_state=None):
        self.tag, self.random_state = tag, random_state

    def fit(self, X, y, sample_weight=None):
        warnings.warn(f"fit of {self.tag}", NoisyWarning)
        self.tree_ = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
        self.classes_ = self.tree_.classes_
        return self

    def predict(self, X):
        return self.tree_.predict(X)

    def predict_proba(self, X):
        return self.tree_.predict_proba(X)


def _caught(run):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = run()
    return result, [(w.category, str(w.message)) for w in caught
                    if issubclass(w.category, NoisyWarning)], caught


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_workers_warnings_reach_the_caller_from_their_line(n_jobs):
    with parallel_backend("loky"):
        result, noisy, caught = _caught(
            lambda: parallel((delayed(_noisy)(i) for i in range(6)), n_jobs=n_jobs))
    assert result == [i * i for i in range(6)]
    assert noisy == [(NoisyWarning, f"odd task {i}") for i in (1, 3, 5)]
    lines = {(w.filename, w.lineno) for w in caught if issubclass(w.category, NoisyWarning)}
    assert lines == {(__file__, _WARN_LINE)}


def test_the_callers_filters_decide():
    """An error filter raises in the caller; the default action shows a warning once per
    location, as it does when the task runs here."""
    tasks = [delayed(_noisy)(1)] * 3
    with parallel_backend("loky"), warnings.catch_warnings():
        warnings.simplefilter("error", NoisyWarning)
        with pytest.raises(NoisyWarning, match="odd task 1"):
            parallel(tasks, n_jobs=2)
    with parallel_backend("loky"), warnings.catch_warnings(record=True) as caught:
        warnings.resetwarnings()
        warnings.simplefilter("default")
        parallel(tasks, n_jobs=2)
    assert [str(w.message) for w in caught] == ["odd task 1"]


def _data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 3))
    return X, (X[:, 0] > 0).astype(int) + (X[:, 1] > 0)


@pytest.mark.parametrize("make", [
    lambda jobs: OrdinalBaggingClassifier(NoisyTree(), n_estimators=4, oob_score=False,
                                          n_jobs=jobs, random_state=0),
    lambda jobs: FrankHallClassifier(NoisyTree(), n_jobs=jobs)])
def test_ensembles_warn_alike_whatever_n_jobs(make):
    X, y = _data()
    with parallel_backend("loky"):
        one = _caught(lambda: make(1).fit(X, y))[1]
        two = _caught(lambda: make(2).fit(X, y))[1]
    assert one and two == one


def test_two_fits_in_threads_lose_no_worker_warning():
    """Two ensembles fitted at once in threads, their trees fitted in worker processes: every
    warning of each fit arrives, each naming its fit's tag."""
    X, y = _data()

    def fit(tag):
        with parallel_backend("loky"):
            OrdinalBaggingClassifier(NoisyTree(tag), n_estimators=5, oob_score=False,
                                     n_jobs=2, random_state=0).fit(X, y)

    def both():
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(fit, ["first", "second"]))

    noisy = sorted(_caught(both)[1], key=lambda w: w[1])
    assert noisy == [(NoisyWarning, "fit of first")] * 5 + [(NoisyWarning, "fit of second")] * 5
