"""The registered estimators' docstrings as the API pages and ``help()`` show them."""

from __future__ import annotations

import re

import pytest

from ordstat._core.registry import ESTIMATORS, estimator_class

# numpydoc comes with the docs extra (not in the oldest-release environment)
ClassDoc = pytest.importorskip("numpydoc.docscrape").ClassDoc

# a description that opens by sending the reader to another class ("As in :class:`...`")
_ELSEWHERE = re.compile(r"(as in|same as|as for)\b", re.I)


def pointers_elsewhere(cls):
    """The Parameters and Attributes entries of ``cls`` whose description is a pointer to
    another object ("As in :class:`OrdinalBaggingClassifier`."), whatever follows it."""
    doc = ClassDoc(cls, config={"show_class_members": False})
    found = []
    for section in ("Parameters", "Attributes"):
        for entry in doc[section]:
            text = " ".join(" ".join(entry.desc).split())
            if _ELSEWHERE.match(text):
                found.append(f"{section}: {entry.name}: {text}")
    return found


def test_pointers_elsewhere_are_found():
    class Pointing:
        """A class.

        Parameters
        ----------
        a : int
            Number of things.
        b, c
            As in :class:`~ordstat.ensemble.OrdinalBaggingClassifier`. Drawn anew.
        e : str
            The name, as in R.

        Attributes
        ----------
        d_ : float
            Same as ``a``.
        """

    assert pointers_elsewhere(Pointing) == [
        "Parameters: b, c: As in :class:`~ordstat.ensemble.OrdinalBaggingClassifier`. "
        "Drawn anew.",
        "Attributes: d_: Same as ``a``."]


@pytest.mark.parametrize("entry", ESTIMATORS, ids=lambda e: e.name)
def test_parameters_and_attributes_are_written_out(entry):
    """Each API page stands alone: no parameter or attribute is described only by a pointer to
    another estimator's page."""
    assert pointers_elsewhere(estimator_class(entry)) == []
