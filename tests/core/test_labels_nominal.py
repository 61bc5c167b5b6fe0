"""Estimators that do not use the class order take nominal labels without a warning; those that
use it keep refusing unordered Categoricals (the declared need for the order)."""

import warnings

import numpy as np
import pandas as pd
import pytest

from ordstat._core.labels import OrderGuessWarning, encode_target, uses_class_order
from ordstat.discrete import FullMultinomial, IndependenceModel, KernelMultinomial
from ordstat.gaussian import EDDA
from ordstat.trees import OrdinalTreeClassifier

NOMINAL = [EDDA, FullMultinomial, IndependenceModel, KernelMultinomial]


def _data():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(60, 3))
    y = np.array(["setosa", "virginica", "versicolor"] * 20, dtype=object)
    X = X + (np.arange(60) % 3)[:, None]  # classes differ, so every model can tell them apart
    return X.astype(float), y


def test_declared_need_for_the_order():
    for cls in NOMINAL:
        assert not uses_class_order(cls)
    assert uses_class_order(OrdinalTreeClassifier)
    assert uses_class_order(object())  # undeclared: assume the order is used


@pytest.mark.parametrize("cls", NOMINAL)
@pytest.mark.parametrize("kind", ["strings", "unordered"])
def test_nominal_estimators_accept_any_labels_silently(cls, kind):
    X, y = _data()
    y_in = y if kind == "strings" else pd.Categorical(y, categories=["virginica", "setosa",
                                                                     "versicolor"])
    est = cls(model="EII") if cls is EDDA else cls()
    with warnings.catch_warnings():
        warnings.simplefilter("error", OrderGuessWarning)
        est.fit(X, y_in)
    assert list(est.classes_) == ["setosa", "versicolor", "virginica"]  # sorted, as sklearn
    assert set(est.predict(X)) <= set(y)


def test_ordered_categorical_order_is_kept_by_nominal_estimators():
    X, y = _data()
    order = ["virginica", "setosa", "versicolor"]
    est = EDDA(model="EII").fit(X, pd.Categorical(y, categories=order, ordered=True))
    assert list(est.classes_) == order


def test_ordinal_estimators_keep_refusing_unordered_categoricals():
    X, y = _data()
    with pytest.raises(ValueError, match="unordered"):
        OrdinalTreeClassifier().fit(X, pd.Categorical(y))
    with pytest.warns(OrderGuessWarning):
        OrdinalTreeClassifier().fit(X, y)


def test_encode_target_nominal_mode():
    y = pd.Categorical(["b", "a", "c", "a"], categories=["c", "b", "a", "d"])
    enc, codes = encode_target(y, ordered=False)
    assert list(enc.classes) == ["a", "b", "c", "d"]  # unused level kept, sorted
    assert codes.tolist() == [1, 0, 2, 0]
