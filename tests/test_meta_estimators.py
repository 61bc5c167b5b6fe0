"""What scikit-learn's nominal meta-estimators pass to an ordinal estimator (documented in
ordstat.ensemble and the user guide, docs/user_guide.md): the claims there, checked on the
installed scikit-learn."""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.calibration import CalibratedClassifierCV
from sklearn.ensemble import AdaBoostClassifier, BaggingClassifier, VotingClassifier
from sklearn.multiclass import OneVsRestClassifier

from ordstat import OrderGuessWarning, OrdinalTreeClassifier

ORDER = ["low", "mid", "high"]


def _data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(90, 2))
    labels = np.array(ORDER)[np.digitize(X[:, 0], [-0.5, 0.5])]
    return X, labels


class Recorder(OrdinalTreeClassifier):
    """An ordinal tree that keeps what its fit was given."""

    seen = []

    def fit(self, X, y, sample_weight=None):
        Recorder.seen.append(y)
        return super().fit(X, y, sample_weight=sample_weight)


@pytest.fixture(autouse=True)
def _clear():
    Recorder.seen.clear()


def test_bagging_classifier_puts_string_labels_in_alphabetical_order():
    X, labels = _data()
    bag = BaggingClassifier(OrdinalTreeClassifier(max_depth=2), n_estimators=3,
                            random_state=0).fit(X, labels)
    assert list(bag.classes_) == ["high", "low", "mid"]          # not low < mid < high
    # the trees were fitted on codes of that alphabetical order: code 0 is "high"
    assert list(bag.estimators_[0].classes_) == [0, 1, 2]
    ordered = pd.Categorical(labels, categories=ORDER, ordered=True)
    bag = BaggingClassifier(OrdinalTreeClassifier(max_depth=2), n_estimators=3,
                            random_state=0).fit(X, ordered)
    assert list(bag.classes_) == ["high", "low", "mid"]          # the Categorical's order is lost


@pytest.mark.parametrize("meta", [
    lambda est: BaggingClassifier(est, n_estimators=2, random_state=0),
    lambda est: VotingClassifier([("tree", est)]),
])
def test_bagging_and_voting_fit_on_codes_of_sorted_labels(meta):
    X, labels = _data()
    with warnings.catch_warnings():
        # no warning from our side: codes look like a user's own integer labels
        warnings.simplefilter("error", OrderGuessWarning)
        meta(Recorder(max_depth=2)).fit(X, labels)
    y = np.asarray(Recorder.seen[0])
    assert np.issubdtype(y.dtype, np.integer)
    alphabetical = np.array(sorted(ORDER))
    assert set(alphabetical[y]) == set(ORDER)
    if len(y) == len(labels):       # Voting: the same units, in order
        np.testing.assert_array_equal(alphabetical[y], labels)


def test_one_vs_rest_fits_binary_problems():
    X, labels = _data()
    OneVsRestClassifier(Recorder(max_depth=2)).fit(X, labels)
    assert len(Recorder.seen) == 3
    assert all(set(np.unique(y)) == {0, 1} for y in Recorder.seen)


def test_calibrated_passes_y_unchanged_but_sorts_its_own_classes():
    X, labels = _data()
    ordered = pd.Categorical(labels, categories=ORDER, ordered=True)
    cal = CalibratedClassifierCV(Recorder(max_depth=2), cv=2).fit(X, ordered)
    seen = Recorder.seen[0]
    assert isinstance(seen, pd.Categorical) and list(seen.categories) == ORDER
    assert list(cal.classes_) == ["high", "low", "mid"]


def test_adaboost_drops_the_categorical_order():
    X, labels = _data()
    ordered = pd.Categorical(labels, categories=ORDER, ordered=True)
    with pytest.warns(OrderGuessWarning):
        ada = AdaBoostClassifier(Recorder(max_depth=1), n_estimators=2).fit(X, ordered)
    assert not isinstance(Recorder.seen[0], pd.Categorical)
    assert list(ada.estimators_[0].classes_) == ["high", "low", "mid"]


def test_ranks_in_the_ordinal_order_keep_the_order():
    # the documented way round: give the meta-estimator ranks 0..K-1 and map back
    X, labels = _data()
    ranks = pd.Categorical(labels, categories=ORDER).codes
    bag = BaggingClassifier(OrdinalTreeClassifier(max_depth=2), n_estimators=3,
                            random_state=0).fit(X, ranks)
    assert list(bag.classes_) == [0, 1, 2]
    pred = np.array(ORDER)[bag.predict(X)]
    assert np.mean(pred == labels) > 0.8
