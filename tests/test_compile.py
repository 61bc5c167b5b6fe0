"""Compiling the tree kernels ahead of time (``ordstat._compile.compile_kernels``)."""

import pytest

from ordstat._compile import compile_kernels
from ordstat.trees import _fast, criteria, register_criterion


def test_compile_kernels_returns_the_criteria_with_a_scan():
    pytest.importorskip("numba")
    assert compile_kernels(["gini", "Ordinal"]) == ["gini", "Ordinal"]
    gini = criteria.get_criterion("gini")
    # every path's kernels: the level loop's search, the compiled levels sorting per node
    # (forests), the presorted levels (single trees, bagging)
    # (the compiled levels are called through wrappers that give them one type per argument)
    for kernel in (_fast.level_search, _fast.level_grow, _fast.presorted_level):
        compiled = kernel(gini)
        assert getattr(compiled, "kernel", compiled).signatures, kernel.__name__
    # and the walk of fitted trees: leaves, votes, class proportions
    walk = _fast.predict_kernels()
    for kernel in (walk.tree_leaves, walk.add_votes, walk.add_proba):
        assert kernel.signatures, kernel.__name__


def test_user_criteria_have_nothing_to_compile():
    def half_gini(left, right):
        return criteria.gini(left, right) / 2.0

    register_criterion("half_gini_compile_test", half_gini, overwrite=True)
    try:
        assert compile_kernels(["half_gini_compile_test"]) == []
    finally:
        criteria.CRITERIA.pop("half_gini_compile_test")


def test_unknown_criterion_is_named():
    with pytest.raises(ValueError, match="'no_such'"):
        compile_kernels(["no_such"])
