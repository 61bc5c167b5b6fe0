"""Frank & Hall and data replication take what their binary learner takes (its tags), and
refuse a learner that is not a classifier."""

import numpy as np
import pandas as pd
import pytest
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.utils import get_tags

from ordstat import DataReplicationClassifier, FrankHallClassifier, OrdinalTreeClassifier


def _data(missing=True):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(90, 2))
    y = np.digitize(X[:, 0], [-0.7, 0.0, 0.7])
    if missing:
        X[::7, 1] = np.nan
    return X, y


def test_frank_hall_passes_missing_values_to_a_learner_that_takes_them():
    X, y = _data()
    model = FrankHallClassifier(HistGradientBoostingClassifier(max_iter=20)).fit(X, y)
    assert get_tags(model).input_tags.allow_nan
    # the K-1 binary models saw the rows with NaN: the same answers as fitting them directly
    direct = HistGradientBoostingClassifier(max_iter=20).fit(X, (y > 0).astype(int))
    np.testing.assert_allclose(model.estimators_[0].predict_proba(X),
                               direct.predict_proba(X))
    assert np.isfinite(model.predict_proba(X)).all()


def test_frank_hall_still_refuses_missing_values_for_a_learner_that_cannot():
    X, y = _data()
    assert not get_tags(FrankHallClassifier()).input_tags.allow_nan
    with pytest.raises(ValueError, match="feature 1 \\(13 missing\\)"):
        FrankHallClassifier(LogisticRegression()).fit(X, y)
    fitted = FrankHallClassifier().fit(*_data(missing=False))
    with pytest.raises(ValueError, match="missing"):
        fitted.predict(X)


def test_frank_hall_gives_categories_to_a_learner_that_reads_them():
    X, y = _data(missing=False)
    frame = pd.DataFrame({"x": X[:, 0], "g": np.where(X[:, 1] > 0, "a", "b")})
    model = FrankHallClassifier(OrdinalTreeClassifier(random_state=0)).fit(frame, y)
    assert get_tags(model).input_tags.categorical
    assert model.predict(frame).shape == (90,)
    with pytest.raises(TypeError, match="categorical .* feature 1 \\('g'\\)"):
        FrankHallClassifier().fit(frame, y)


def test_data_replication_passes_missing_values_to_a_learner_that_takes_them():
    X, y = _data()
    model = DataReplicationClassifier(HistGradientBoostingClassifier(max_iter=10)).fit(X, y)
    assert model.predict(X).shape == (90,)
    with pytest.raises(ValueError, match="missing"):
        DataReplicationClassifier().fit(X, y)


@pytest.mark.parametrize("cls", [FrankHallClassifier, DataReplicationClassifier])
def test_a_regressor_as_binary_learner_is_refused(cls):
    # before: accepted, and every unit was predicted the lowest class
    X, y = _data(missing=False)
    with pytest.raises(TypeError, match="LinearRegression is not one"):
        cls(LinearRegression()).fit(X, y)
