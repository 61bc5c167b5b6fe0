"""Scale-out on a real multi-process Dask cluster: the forest and ``evaluate()`` run their tasks
through joblib's dask backend on two worker processes (each with its own interpreter, its own
import of ordstat and its own compiled kernels, loaded from numba's cache), the data scattered
to the workers once, and give exactly what ``n_jobs=1`` gives for the same seed.

The recipe this checks is in docs/dask.md (and docs/architecture.md, "Parallelism"). Marked
slow: starting and closing the two worker processes, and their first load of the kernels, take
10 to 40 s on two shared cores.
"""

import numpy as np
import pandas as pd
import pytest

distributed = pytest.importorskip("distributed")

from joblib import parallel_backend  # noqa: E402

from ordstat.ensemble import OrdinalRandomForestClassifier  # noqa: E402
from ordstat.model_selection import evaluate  # noqa: E402
from ordstat.trees import OrdinalTreeClassifier  # noqa: E402


def _data(n=240, p=5, k=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    signal = X[:, :3].sum(axis=1) + rng.normal(size=n)
    y = np.digitize(signal, np.quantile(signal, np.linspace(0, 1, k + 1)[1:-1]))
    return X, y


def _forest(n_jobs):
    return OrdinalRandomForestClassifier(n_estimators=12, max_features=2, oob_score=False,
                                         random_state=7, n_jobs=n_jobs)


def _evaluate(X, y, n_jobs):
    methods = {"tree": OrdinalTreeClassifier(xval=0),
               "forest": OrdinalRandomForestClassifier(n_estimators=6, max_features=2,
                                                       oob_score=False)}
    return evaluate(methods, X, y, scheme="cv4", metrics=("misclassification", "gamma"),
                    random_state=3, n_jobs=n_jobs, progress=False)


@pytest.fixture(scope="module")
def client():
    """Two worker processes of one thread each; closed (processes ended) after the tests."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        yield client


@pytest.mark.slow
def test_forest_and_evaluate_on_a_process_cluster_equal_n_jobs_1(client):
    X, y = _data()
    forest_ref = _forest(n_jobs=1).fit(X, y)
    results_ref = _evaluate(X, y, n_jobs=1)

    workers = client.run(lambda: __import__("os").getpid())
    assert len(set(workers.values())) == 2  # two processes, none of them this one
    assert __import__("os").getpid() not in workers.values()

    # scatter=[X, y]: both are sent to every worker once, before the tasks; tasks that take
    # them get a reference to the workers' copy
    with parallel_backend("dask", scatter=[X, y]):
        forest = _forest(n_jobs=-1).fit(X, y)
        results = _evaluate(X, y, n_jobs=-1)

    np.testing.assert_array_equal(forest.predict_proba(X), forest_ref.predict_proba(X))
    for tree, tree_ref in zip(forest.estimators_, forest_ref.estimators_):
        np.testing.assert_array_equal(tree.tree_.feature, tree_ref.tree_.feature)
        np.testing.assert_array_equal(tree.tree_.threshold, tree_ref.tree_.threshold)
    pd.testing.assert_frame_equal(results, results_ref)
    assert set(results["method"]) == {"tree", "forest"} and len(results) == 4 * 2 * 2


@pytest.mark.slow
def test_tasks_ran_on_the_workers(client):
    """The backend did send work to the cluster: each worker process has imported ordstat's
    trees (the forest's tasks ran there), which a client-only run would not do."""
    X, y = _data(n=120)
    with parallel_backend("dask", scatter=[X, y]):
        _forest(n_jobs=-1).fit(X, y)
    loaded = client.run(lambda: "ordstat.trees._grow" in __import__("sys").modules)
    assert len(loaded) == 2 and all(loaded.values())
