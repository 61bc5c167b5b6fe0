"""Compiling the tree kernels ahead of time: :func:`compile_kernels` grows small trees, forests
and bagged trees, so it sits above both :mod:`ordstat.trees` and :mod:`ordstat.ensemble`."""

from __future__ import annotations

__all__ = ["compile_kernels", "ship_kernels"]


def compile_kernels(criteria=None, verbose=False):
    """Compile the split-search and prediction kernels now (or load them from numba's on-disk
    cache).

    The first tree, forest or bagging fit with a criterion compiles its kernels (once per
    installation, then read from numba's cache), and says so on standard error. This grows
    small trees and ensembles on the paths that compile their own kernels (presorted and
    per-node search, ranks, weights, missing values), for example while building a container
    image or before timing.

    For images and clusters: run ``python -c "import ordstat; ordstat.compile_kernels()"``
    once where the image is built, as the user that will run it, so that every container or
    worker loads the cached machine code instead of compiling it on its first fit. numba
    writes its cache next to ordstat's sources (``__pycache__``), which must be writable then;
    for a read-only installation set ``NUMBA_CACHE_DIR`` to a writable folder both when
    compiling and when running. The cache holds machine code for the processor it was
    compiled on: build on the processor family the workers run on, or set
    ``NUMBA_CPU_NAME=generic`` in both places. It is keyed by the numpy version and ordstat's
    sources, so an upgrade of either compiles again. Compiling every built-in criterion takes
    a few minutes of CPU (about 140 s on one core of a recent machine); ``criteria`` limits
    it to those used. A build can instead ship machine code for a generic processor inside
    the package (:func:`ship_kernels`), which needs no writable folder and no compiling where
    the image runs.

    Parameters
    ----------
    criteria : list of str, optional
        Registered criterion names; default: every built-in one. Criteria without a compiled
        scan (user criteria) have nothing to compile and are left out of the result.
    verbose : bool, default=False
        Print each criterion's time.

    Returns
    -------
    list of str
        The criteria compiled (none without numba).

    Raises
    ------
    ValueError
        A name that is not a registered criterion.
    """
    from .trees import _fast
    from .trees.criteria import BUILTIN, get_criterion

    if _fast.kernels() is None:
        return []
    names = sorted(BUILTIN) if criteria is None else list(criteria)
    for name in names:
        get_criterion(name)  # an unknown name: its ValueError
    names = [name for name in names if get_criterion(name).scan is not None]
    with _fast.compile_notice_off():
        _grow_all(names, verbose)
    return names


def ship_kernels(criteria=None):
    """Compile the kernels of ``criteria`` (as :func:`compile_kernels`) for a generic processor
    of this platform into the package itself (``ordstat/trees/_kernels/_machine_code``), for
    a build that ships them (a wheel, an image): there the first fit loads them instead of
    compiling, with the same numba, numpy and Python, on any processor of the platform.

    Compiles in a child process (``NUMBA_CPU_NAME=generic``, an empty numba cache); the folder
    is replaced. Returns its path.
    """
    import contextlib
    import os
    import shutil
    import subprocess
    import sys
    import tempfile

    from .trees._kernels import cache

    shutil.rmtree(cache.SHIPPED, ignore_errors=True)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as empty:
        env = dict(os.environ, NUMBA_CPU_NAME="generic", NUMBA_CPU_FEATURES="",
                   NUMBA_CACHE_DIR=empty, **{cache.SHIP_ENV: "1"},
                   PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
        names = None if criteria is None else [str(name) for name in criteria]
        subprocess.run([sys.executable, "-c",
                        f"import ordstat; ordstat.compile_kernels({names!r})"],
                       env=env, check=True)
    with contextlib.suppress(OSError):  # the build's lock file
        os.remove(os.path.join(cache.SHIPPED, "ordstat-numba.lock"))
    return cache.SHIPPED


def _grow_all(names, verbose):
    """Grow what compiles the kernels of each criterion of ``names``."""
    import time

    import numpy as np

    from .ensemble import OrdinalBaggingClassifier, OrdinalRandomForestClassifier
    from .trees import OrdinalTreeClassifier

    rng = np.random.default_rng(0)
    # 8 features: one drawn of 8 sorts per node (see ordstat.trees._engine), all of them presort
    X = rng.normal(size=(120, 8))
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    weights = rng.uniform(0.5, 2.0, size=120)
    X_missing = np.where(rng.random(X.shape) < 0.1, np.nan, X)
    for name in names:
        start = time.perf_counter()
        for data, w in ((X, None), (X, weights), (X_missing, None)):
            OrdinalTreeClassifier(criterion=name, xval=0).fit(data, y, sample_weight=w)
            OrdinalTreeClassifier(criterion=name, xval=0, cp=-1.0, max_features=1,
                                  random_state=0).fit(data, y, sample_weight=w)
        # features drawn per node, a level at a time in Python (cp > 0): its sort of the nodes
        OrdinalTreeClassifier(criterion=name, xval=0, max_features=1,
                              random_state=0).fit(X_missing, y)
        for data in (X, X_missing):
            forest = OrdinalRandomForestClassifier(n_estimators=2, criterion=name,
                                                   max_features=1, oob_score=False,
                                                   random_state=0).fit(data, y)
            tree = OrdinalTreeClassifier(criterion=name, min_split=2, cp=-1.0, xval=0)
            bag = OrdinalBaggingClassifier(tree, n_estimators=2, oob_score=False,
                                           aggregation="proba", random_state=0).fit(data, y)
            # the compiled walk of their predictions (votes; class proportions; leaves)
            forest.predict(data)
            bag.predict(data)
            forest.estimators_[0].apply(data)
        if verbose:
            print(f"{name}: {time.perf_counter() - start:.1f} s", flush=True)
    if names:
        _walk_count_types(names[0], rng)
        # the default bagging's trees (cp = 0, pruned as they grow) made compact array by
        # array, where a forest's fully grown trees are made compact in one pass
        OrdinalBaggingClassifier(n_estimators=2, oob_score=False, random_state=0).fit(X, y)


def _walk_count_types(name, rng):
    """Compile the walk of an ensemble's predictions for the types its trees keep their class
    counts in (:func:`ordstat.ensemble._common.compact_tree`: the smallest exact one, int8 in
    the trees above): int16 (a node of over 127 units of a class: most fits) and int32 (over
    32,767), each by one split of one tree."""
    from .ensemble import OrdinalRandomForestClassifier

    for n in (400, 40_000):
        X = rng.normal(size=(n, 2))
        y = (X[:, 0] > 2.0).astype(int)  # 98% of one class: its count at the root
        forest = OrdinalRandomForestClassifier(n_estimators=1, criterion=name, max_depth=1,
                                               oob_score=False, random_state=0)
        forest.fit(X, y)
        for aggregation in ("median", "proba"):  # votes; class proportions
            forest.set_params(aggregation=aggregation).predict(X[:8])
