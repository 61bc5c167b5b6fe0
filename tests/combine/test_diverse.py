"""Choosing the most different models by correspondence analysis (Brito et al. 2006, Table 3)."""

import numpy as np
import pytest
from sklearn.datasets import load_iris

from ordstat.cli._methods import make_method
from ordstat.combine import correspondence_coordinates, diverse_models
from ordstat.combine.diverse import _farthest_points
from ordstat.gaussian import EDDA


def test_ca_distances_are_chi_square_distances_between_profiles():
    rng = np.random.default_rng(1)
    N = rng.uniform(0.1, 2.0, size=(4, 7))
    coords, share = correspondence_coordinates(N, n_components=10)
    assert share.sum() == pytest.approx(1.0)
    P = N / N.sum()
    r, c = P.sum(axis=1), P.sum(axis=0)
    prof = P / r[:, None]
    for m in range(4):
        for m2 in range(4):
            chi2 = np.sum((prof[m] - prof[m2]) ** 2 / c)
            assert np.sum((coords[m] - coords[m2]) ** 2) == pytest.approx(chi2, rel=1e-10)


def test_farthest_points_by_hand():
    coords = np.array([[0.0, 0.0], [1.0, 0.0], [5.0, 0.0], [0.0, 3.0]])
    # Farthest pair: 2 and 3 (sqrt(34) > 5); then 1 (3.16 from model 3) before 0 (3 from 3).
    assert _farthest_points(coords, 2) == [2, 3]
    assert _farthest_points(coords, 3) == [2, 3, 1]
    assert _farthest_points(coords, 9) == [0, 1, 2, 3]


def test_identical_models_are_not_both_chosen():
    X, y = load_iris(return_X_y=True)
    models = [EDDA(model="EII"), EDDA(model="EII"), EDDA(model="VVV")]
    choice = diverse_models(models, X, y, 2)
    assert choice.indices == [0, 2]
    assert choice.names == ["[lambda I]", "[lambda_k D_k A_k D_k']"]
    assert "CA axes" in repr(choice)


def test_iris_table_3_choice_is_printed():
    X, y = load_iris(return_X_y=True)
    choice = diverse_models("edda", X, y, 2)
    print(f"\nTable 3 iris: paper [lambda B], [lambda I]; ours {', '.join(choice.names)}")
    assert len(choice.chosen) == 2 and choice.coordinates.shape == (14, 2)
    again = diverse_models("edda", X, y, 2)
    assert again.indices == choice.indices  # deterministic


def test_registry_committee_of_two_most_different_edda_models():
    X, y = load_iris(return_X_y=True)
    comb = make_method("committee_edda").fit(X, y)
    assert len(comb.estimators_) == 2
    assert comb.chosen_.indices == diverse_models("edda", X, y, 2).indices
    assert (comb.predict(X) == y).mean() > 0.9


def test_bad_input():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="n_models must be an integer >= 2"):
        diverse_models("edda", X, y, 1)
    with pytest.raises(ValueError, match="'edda'"):
        diverse_models("lda", X, y)
    with pytest.raises(ValueError, match=r"estimators\[0\] \(EDDA\) is not fitted and y is None"):
        diverse_models([EDDA(), EDDA()], X)
    with pytest.raises(ValueError, match="at least two models"):
        diverse_models([EDDA(model="EII")], X, y)


def test_first_model_anchors_the_choice():
    X, y = load_iris(return_X_y=True)
    models = [EDDA(model="EEI"), EDDA(model="EII"), EDDA(model="VVV"), EDDA(model="EEE")]
    choice = diverse_models(models, X, y, 2, first=0)
    assert choice.indices[0] == 0
    dist = ((choice.coordinates.values - choice.coordinates.values[0]) ** 2).sum(axis=1)
    assert choice.indices[1] == int(np.argmax(dist))
    with pytest.raises(ValueError, match="first must be the position"):
        diverse_models(models, X, y, 2, first=4)
