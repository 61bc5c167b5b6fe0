import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator

from ordstat._core.base import complete_log_likelihood
from ordstat._core.validation import (check_choice, check_in_range, check_positive_int,
                                      check_priors, check_random_state, check_sample_weight,
                                      validate_fit, validate_predict)


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


def test_fit_records_the_class_sizes():
    """validate_fit keeps the units (and weight) per class that summaries print."""
    est = _Dummy().fit(X, y)
    assert est._class_units.tolist() == [2, 2, 2] and est._class_weight is None
    est = _Dummy().fit(X, y, sample_weight=[1.0, 2.0, 0.5, 1.0, 0.0, 1.0])
    assert est._class_units.tolist() == [2, 2, 2]
    np.testing.assert_allclose(est._class_weight, [2.0, 2.0, 1.5])


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


# --- one priors rule, one complete-data log-likelihood ------------------------------------------

@pytest.mark.parametrize("bad, err, match", [
    ([0.5], ValueError, r"priors must give one probability per class \(2"),
    ([[0.5, 0.5]], ValueError, "one probability per class"),
    ([0.7, 0.7], ValueError, "priors must sum to one; they sum to 1.4"),
    ([-0.5, 1.5], ValueError, "finite and non-negative"),
    ([np.nan, 1.0], ValueError, "finite and non-negative"),
    (["a", "b"], TypeError, "priors must be a sequence of 2 numbers"),
])
def test_check_priors_rejects(bad, err, match):
    with pytest.raises(err, match=match):
        check_priors(bad, 2)


def test_check_priors_accepts_and_renormalises():
    assert check_priors(None, 3) is None
    p = check_priors([0.2, 0.3, 0.5 + 1e-7], 3)
    assert p.sum() == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("make", ["EDDA", "FullMultinomial", "IndependenceModel"])
def test_priors_rule_is_the_same_everywhere(make):
    import ordstat
    Xd = np.array([[0, 1], [1, 0], [0, 0], [1, 1], [0, 1], [1, 0]])
    with pytest.raises(ValueError, match="priors must sum to one"):
        getattr(ordstat, make)(priors=[0.6, 0.6]).fit(Xd + 0.1 * np.arange(6)[:, None],
                                                      [0, 0, 0, 1, 1, 1])


def test_complete_log_likelihood_by_hand():
    with np.errstate(divide="ignore"):
        joint = np.log(np.array([[0.5, 0.5], [0.2, 0.0], [0.0, 0.25]]))
    codes = np.array([0, 1, 1])
    w = np.array([2.0, 0.0, 1.0])
    # the zero-weight unit has log-density -inf under its class: left out, not 0 * -inf = NaN
    assert complete_log_likelihood(joint, codes, w) == pytest.approx(
        2 * np.log(0.5) + np.log(0.25))
    assert complete_log_likelihood(joint, codes, np.ones(3)) == -np.inf


def test_edda_log_likelihood_with_absent_class_is_finite():
    """A zero-weight unit of a class absent from the training data is no evidence."""
    from ordstat import EDDA
    rng = np.random.default_rng(0)
    Xg = rng.normal(size=(30, 2))
    yg = np.repeat([0, 1, 2], 10)
    w = np.r_[np.ones(20), np.zeros(10)]
    with pytest.warns(UserWarning, match=r"class\(es\) \[2\] have no units"):
        m = EDDA(model="EEE", classes=[0, 1, 2]).fit(Xg, yg, sample_weight=w)
    ll = m.log_likelihood(Xg, yg, sample_weight=w)
    expected = m.log_likelihood(Xg[:20], yg[:20])
    assert np.isfinite(ll) and ll == pytest.approx(expected)
    assert m.summary()["models"].loc["EEE", "loglik"] == pytest.approx(ll)


def test_validate_fit_skip_check_array():
    est = _Dummy()
    Xs = np.array([["a", "x"], ["b", "y"], ["a", "y"]], dtype=object)
    out, codes, w = validate_fit(est, Xs, [0, 1, 1], skip_check_array=True)
    assert out is Xs and est.n_features_in_ == 2 and codes.tolist() == [0, 1, 1]
    with pytest.raises(ValueError, match="X has 3 rows, y has 2 labels"):
        validate_fit(est, Xs, [0, 1], skip_check_array=True)
