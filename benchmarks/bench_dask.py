"""A forest on a Dask cluster of two worker processes against the same forest run locally.

``OrdinalRandomForestClassifier(n_estimators=20, oob_score=False)`` at n = 10^6, p = 20, K = 4
(--quick: n = 20,000), fitted

- through joblib's dask backend on ``distributed.LocalCluster(n_workers=2,
  threads_per_worker=1, processes=True)``, the data scattered to both workers once
  (``parallel_backend("dask", scatter=[X, y])``) before the timed fits (recipe: docs/dask.md);
- locally with ``n_jobs=2`` (joblib's default process backend, loky), the peer.

Both are timed after a small fit that loads the compiled kernels in every worker; the cluster's
start and the scatter are printed apart (``#`` lines). Lines: ``name: ours_s peer_s ratio``
(ratio = cluster / local: the price of the scheduler and of sending the tasks and the trees).
Needs the ``dask`` extra (``distributed``); says so and does nothing without it.
"""

from __future__ import annotations

import time

import numpy as np

from benchmarks._harness import best_time, report
from ordstat.ensemble import OrdinalRandomForestClassifier

N_TREES = 20


def _data(n, p=20, k=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    signal = X[:, :5].sum(axis=1) + 2.0 * rng.normal(size=n)
    y = np.digitize(signal, np.quantile(signal, np.linspace(0, 1, k + 1)[1:-1]))
    return X, y


def _fit(X, y, n_jobs, n_trees=N_TREES):
    return lambda: OrdinalRandomForestClassifier(n_estimators=n_trees, oob_score=False,
                                                 n_jobs=n_jobs, random_state=0).fit(X, y)


def run(quick: bool = False):
    try:
        import distributed
        from joblib import parallel_backend
    except ImportError as exc:
        print(f"# dask skipped: {exc} (pip install 'ordstat[dask]')", flush=True)
        return
    n = 20_000 if quick else 1_000_000
    repeat = 2 if quick else 1  # n = 10^6: one fit each (shared cores; about 30 s each)
    X, y = _data(n)
    warm_X, warm_y = _data(500)
    _fit(warm_X, warm_y, 2, 4)()  # the local workers and their kernels
    local_s = best_time(_fit(X, y, 2), repeat)
    start = time.perf_counter()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster):
        started = time.perf_counter()
        with parallel_backend("dask"):
            _fit(warm_X, warm_y, -1, 4)()  # each worker loads the kernels
        scatter_start = time.perf_counter()
        with parallel_backend("dask", scatter=[X, y]):
            scattered = time.perf_counter()
            dask_s = best_time(_fit(X, y, -1), repeat)
    print(f"# cluster start {started - start:.3g} s, scatter of X and y "
          f"({(X.nbytes + y.nbytes) / 1e6:.0f} MB) {scattered - scatter_start:.3g} s", flush=True)
    report(f"dask_forest_{N_TREES}trees_n{n}_p20_K4_2workers_vs_local_n_jobs2", dask_s,
           local_s)
