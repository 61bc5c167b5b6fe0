import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator

from ordstat._validation import (check_choice, check_in_range, check_positive_int,
                                 check_random_state, check_sample_weight, validate_fit,
                                 validate_predict)


class _Dummy(BaseEstimator):
    def fit(self, X, y, sample_weight=None):
        self.X_, self.codes_, self.w_ = validate_fit(self, X, y, sample_weight)
        return self


X = np.arange(12.0).reshape(6, 2)
y = [0, 1, 2, 0, 1, 2]


def test_fit_sets_label_state_and_feature_names():
    est = _Dummy().fit(pd.DataFrame(X, columns=["a", "b"]), y)
    assert est.classes_.tolist() == [0, 1, 2]
    assert est.n_features_in_ == 2
    assert est.feature_names_in_.tolist() == ["a", "b"]
    assert np.array_equal(est.w_, np.ones(6))


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_nonfinite_X(bad):
    Xb = X.copy()
    Xb[2, 1] = bad
    with pytest.raises(ValueError, match="X"):
        _Dummy().fit(Xb, y)


def test_wrong_shapes():
    with pytest.raises(ValueError, match="2D|2-D"):
        _Dummy().fit(np.arange(6.0), y)
    with pytest.raises(ValueError, match="inconsistent"):
        _Dummy().fit(X, y[:-1])


def test_wrong_number_of_features_at_predict():
    est = _Dummy().fit(X, y)
    with pytest.raises(ValueError, match="3 features"):
        validate_predict(est, np.ones((2, 3)))


def test_predict_before_fit():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        validate_predict(_Dummy(), X)


def test_continuous_y_rejected():
    with pytest.raises(ValueError, match="continuous"):
        _Dummy().fit(X, np.linspace(0, 1, 6))


@pytest.mark.parametrize("w, match", [
    ([1, 1, -1, 1, 1, 1], "negative"),
    ([0, 0, 0, 0, 0, 0], "sums to zero"),
    ([1, 1, np.nan, 1, 1, 1], "finite"),
    ([1, 1], "one weight per unit"),
    (["a"] * 6, "numeric"),
])
def test_bad_sample_weight(w, match):
    with pytest.raises((ValueError, TypeError), match=match):
        _Dummy().fit(X, y, sample_weight=w)


def test_sample_weight_scalar_and_none():
    assert np.array_equal(check_sample_weight(2.0, 3), [2.0, 2.0, 2.0])
    assert np.array_equal(check_sample_weight(None, 2), [1.0, 1.0])


def test_small_checkers():
    assert check_positive_int(3, "n") == 3
    with pytest.raises(TypeError, match="n must be an integer"):
        check_positive_int(2.5, "n")
    with pytest.raises(ValueError, match=">= 1"):
        check_positive_int(0, "n")
    with pytest.raises(TypeError):
        check_positive_int(True, "n")
    assert check_in_range(0.5, "lam", 0, 1, low_open=True) == 0.5
    with pytest.raises(ValueError, match=r"lam must be in \(0, 1\]"):
        check_in_range(0.0, "lam", 0, 1, low_open=True)
    with pytest.raises(TypeError):
        check_in_range(float("nan"), "lam", 0, 1)
    with pytest.raises(ValueError, match="one of"):
        check_choice("x", "link", {"logit", "probit"})


def test_random_state_reproducible():
    a = check_random_state(3).integers(1000, size=5)
    b = check_random_state(3).integers(1000, size=5)
    assert np.array_equal(a, b)
    g = np.random.default_rng(1)
    assert check_random_state(g) is g
    assert isinstance(check_random_state(np.random.RandomState(0)), np.random.Generator)
    with pytest.raises(TypeError, match="random_state"):
        check_random_state("seed")
