"""Compiling the tree kernels ahead of time (``ordstat._compile.compile_kernels``)."""

import pytest

from ordstat._compile import compile_kernels
from ordstat.trees import _engine, _fast, criteria, register_criterion


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
    walk = _engine.predict_kernels()
    for kernel in (walk.tree_leaves, walk.add_votes, walk.add_proba):
        assert kernel.signatures, kernel.__name__
    # for the types an ensemble's trees keep their class counts in (the smallest exact one)
    for kernel, at in ((walk.add_votes, 2), (walk.add_proba, 1)):
        counts = {sig[at].dtype.name for sig in kernel.signatures}
        assert {"int8", "int16", "int32"} <= counts, (kernel.__name__, counts)


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


def test_a_compile_of_an_ordstat_kernel_prints_the_notice_once(capsys, monkeypatch):
    numba = pytest.importorskip("numba")
    _fast.kernels()  # the listener, installed with the kernels
    monkeypatch.setattr(_fast, "_read_by_a_person", lambda: True)

    def add_one(x):
        return x + 1

    def add_two(x):
        return x + 2

    # plain njit (no on-disk cache): each first call compiles, as a fresh cache would
    add_one.__module__ = add_two.__module__ = "ordstat.trees._tree"
    given = _fast._NOTICE["given"]
    _fast._NOTICE["given"] = False
    try:
        numba.njit(add_one)(1)
        numba.njit(add_two)(1)
        err = capsys.readouterr().err
        assert err.count(_fast.COMPILE_NOTICE) == 1
        _fast._NOTICE["given"] = False
        with _fast.compile_notice_off():
            numba.njit(add_one)(2)
        assert _fast.COMPILE_NOTICE not in capsys.readouterr().err
        # where no person reads standard error (a pipe, a file, a capture): nothing
        _fast._NOTICE["given"] = False
        monkeypatch.undo()
        assert not _fast._read_by_a_person()
        numba.njit(add_two)(2)
        assert capsys.readouterr().err == ""
    finally:
        _fast._NOTICE["given"] = given


def test_no_notice_for_other_code_or_kernels_read_from_the_cache(capsys, monkeypatch):
    numba = pytest.importorskip("numba")
    _fast.kernels()
    monkeypatch.setattr(_fast, "_read_by_a_person", lambda: True)
    given = _fast._NOTICE["given"]
    _fast._NOTICE["given"] = False
    try:
        numba.njit(lambda x: x * 3)(1)  # this module's function: not ordstat's
        compile_kernels(["gini"])  # quiet itself; compiled or read from the cache
        from ordstat import OrdinalRandomForestClassifier
        import numpy as np

        X = np.random.default_rng(0).normal(size=(60, 8))
        OrdinalRandomForestClassifier(n_estimators=2, criterion="gini", max_features=1,
                                      oob_score=False, random_state=0).fit(X, X[:, 0] > 0)
        assert _fast.COMPILE_NOTICE not in capsys.readouterr().err
    finally:
        _fast._NOTICE["given"] = given
