"""max_features above the number of columns is an error (before: silently every column)."""

import numpy as np
import pytest

from ordstat import OrdinalRandomForestClassifier, OrdinalTreeClassifier, ReplicatedTreeClassifier
from ordstat.trees._classes import n_features_drawn


def test_n_features_drawn_refuses_more_than_p():
    assert n_features_drawn(3, 3) == 3
    assert n_features_drawn(0.5, 3) == 1
    assert n_features_drawn(None, 3) == 3
    with pytest.raises(ValueError, match=r"max_features=4 is larger than the number of "
                                         r"features \(3\)"):
        n_features_drawn(4, 3)


@pytest.mark.parametrize("make", [
    lambda: OrdinalTreeClassifier(max_features=5),
    lambda: OrdinalRandomForestClassifier(n_estimators=2, max_features=5, random_state=0),
    lambda: ReplicatedTreeClassifier(max_features=5, random_state=0),
])
def test_estimators_refuse_max_features_above_p(make):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    with pytest.raises(ValueError, match="max_features=5 is larger than the number of features"):
        make().fit(X, y)
