import numpy as np
import pandas as pd
import pytest
from hypothesis import given, strategies as st

from ordstat._core.labels import OrderGuessWarning, OrdinalEncoding, encode_target


def test_ordered_categorical_gives_its_order():
    y = pd.Categorical(["mild", "severe", "mild", "moderate"],
                       categories=["mild", "moderate", "severe"], ordered=True)
    enc, codes = encode_target(y)
    assert list(enc.classes) == ["mild", "moderate", "severe"]
    assert codes.tolist() == [0, 2, 0, 1]


def test_unused_categories_keep_their_place():
    y = pd.Categorical(["a", "c", "a"], categories=["a", "b", "c"], ordered=True)
    enc, codes = encode_target(y)
    assert enc.n_classes == 3
    assert codes.tolist() == [0, 2, 0]


def test_explicit_classes_override_and_may_include_absent_levels():
    enc, codes = encode_target(["high", "low", "low"], classes=["low", "medium", "high"])
    assert list(enc.classes) == ["low", "medium", "high"]
    assert codes.tolist() == [2, 0, 0]


def test_numeric_labels_sorted_without_warning(recwarn):
    enc, codes = encode_target(np.array([3, 1, 2, 3]))
    assert enc.classes.tolist() == [1, 2, 3]
    assert codes.tolist() == [2, 0, 1, 2]
    assert not [w for w in recwarn if issubclass(w.category, OrderGuessWarning)]


def test_string_labels_warn_that_order_is_guessed():
    with pytest.warns(OrderGuessWarning, match="guessed"):
        enc, _ = encode_target(["low", "high", "medium"])
    assert list(enc.classes) == ["high", "low", "medium"]


def test_decode_roundtrip():
    enc, codes = encode_target(pd.Series([10, 30, 20, 30]))
    assert enc.decode(codes).tolist() == [10, 30, 20, 30]


@pytest.mark.parametrize("y, match", [
    (["a", "a", "a"], "1 class"),
    ([1.0, np.nan, 2.0], "missing value"),
    ([], "empty"),
    (np.zeros((3, 2)), "1-D"),
    (["a", 1, "b"], "mixes label types"),
])
def test_bad_y(y, match):
    with pytest.raises((ValueError, TypeError), match=match):
        encode_target(y, classes=None)


def test_unordered_categorical_is_an_error():
    y = pd.Categorical(["b", "a"], categories=["b", "a"], ordered=False)
    with pytest.raises(ValueError, match="unordered"):
        encode_target(y)
    # ... unless the order is stated
    enc, codes = encode_target(y, classes=["a", "b"])
    assert codes.tolist() == [1, 0]


def test_unseen_label_at_encode():
    enc = OrdinalEncoding(np.array(["a", "b"]))
    with pytest.raises(ValueError, match=r"\['z'\].*not among"):
        enc.encode(["a", "z"])


@pytest.mark.parametrize("classes, match", [
    (["a"], "at least two"),
    (["a", "b", "a"], "repeat"),
    ([1.0, np.nan], "missing"),
])
def test_bad_classes(classes, match):
    with pytest.raises(ValueError, match=match):
        encode_target(["a", "b"], classes=classes)


def test_labels_missing_from_classes():
    with pytest.raises(ValueError, match="not among"):
        encode_target(["a", "b", "c"], classes=["a", "b"])


@given(st.lists(st.integers(-5, 5), min_size=2).filter(lambda v: len(set(v)) >= 2))
def test_codes_preserve_order(values):
    enc, codes = encode_target(np.array(values))
    values = np.array(values)
    # order of codes equals order of the numeric labels
    assert np.array_equal(np.sign(codes[:, None] - codes[None, :]),
                          np.sign(values[:, None] - values[None, :]))
    assert np.array_equal(enc.decode(codes), values)


def test_classes_contradicting_an_ordered_categorical_is_an_error():
    # before: the classes= order won silently over the Categorical's
    y = pd.Series(pd.Categorical(["low", "high", "mid"], categories=["low", "mid", "high"],
                                 ordered=True))
    with pytest.raises(ValueError, match=r"classes=\['high', 'mid', 'low'\] contradicts"):
        encode_target(y, ["high", "mid", "low"])
    # the same order is fine, also with a class absent from y and an unused category
    assert list(encode_target(y, ["low", "mid", "high"])[0].classes) == ["low", "mid", "high"]
    assert list(encode_target(y, ["none", "low", "mid", "high"])[0].classes)[0] == "none"
    # estimators that ignore the order take any classes= order
    assert list(encode_target(y, ["high", "mid", "low"], ordered=False)[0].classes) == \
        ["high", "mid", "low"]


def test_an_estimator_refuses_classes_against_the_categorical_order():
    from ordstat import OrdinalTreeClassifier

    y = pd.Categorical(["low", "mid", "high"] * 5, categories=["low", "mid", "high"],
                       ordered=True)
    X = np.arange(15.0).reshape(-1, 1)
    with pytest.raises(ValueError, match="contradicts the order"):
        OrdinalTreeClassifier(classes=["mid", "low", "high"]).fit(X, y)
