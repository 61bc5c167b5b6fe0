"""Forests and bagging: 100 trees, n = 10,000, p = 50, K = 5, 2 jobs.

Peers, timed in the same run (each the best of ``repeat`` fits):

- scikit-learn ``RandomForestClassifier(n_estimators=100, n_jobs=2)`` (Gini, sqrt features);
- scikit-learn ``BaggingClassifier(DecisionTreeClassifier(), n_estimators=100, n_jobs=2)``;
- R's ``ranger(num.trees = 100, num.threads = 2)`` and ``randomForest(ntree = 100)`` (one
  thread: randomForest has no threads) through rpy2, timing only the R call on a data frame
  converted before.

Ours: ``OrdinalRandomForestClassifier`` (sqrt features, fully grown, ``oob_score=False`` like
the scikit-learn peers) and ``OrdinalBaggingClassifier`` of fully grown trees (min_split 2, cp
-1), with Gini and the ordinal criteria; also the ordinal criteria against our own Gini forest.
Lines: ``name: ours_s peer_s ratio`` (ratio < 1: ordstat faster).

Last, the choice of the forests' split search (``ordstat/trees/_splitter.py``): sorting each
node's drawn features against keeping every feature presorted, for max_features 7, 17 and 25 of
p = 50 (20 trees, one job, best of 2; ratio < 1: sorting per node is faster).
"""

from __future__ import annotations

import numpy as np

from benchmarks._harness import best_time, report
from ordstat.ensemble import OrdinalBaggingClassifier, OrdinalRandomForestClassifier
from ordstat.trees import OrdinalTreeClassifier

N_JOBS = 2


def _data(n, p, k=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    signal = X[:, : min(5, p)].sum(axis=1) + 2.0 * rng.normal(size=n)
    y = np.digitize(signal, np.quantile(signal, np.linspace(0, 1, k + 1)[1:-1]))
    return X, y


def _forest(X, y, m, criterion, max_features="sqrt"):
    return lambda: OrdinalRandomForestClassifier(
        n_estimators=m, criterion=criterion, max_features=max_features, oob_score=False,
        n_jobs=N_JOBS, random_state=0).fit(X, y)


def _split_search_paths(X, y, m, tag):
    """Our Gini forest with the per-node and the presorted split search, in this process
    (n_jobs=1, so that the switch reaches the trees)."""
    from ordstat.trees._engine import forced

    p = X.shape[1]
    warm_X, warm_y = _data(300, 8)
    OrdinalRandomForestClassifier(n_estimators=2, criterion="gini", max_features=2,
                                  oob_score=False).fit(warm_X, warm_y)  # kernels, here
    for mf in (round(0.14 * p), round(0.34 * p), round(0.5 * p)):  # 7, 17, 25 of 50
        times = {}
        for name, per_node in (("per_node", True), ("presorted", False)):
            with forced(per_node=per_node):
                times[name] = best_time(lambda: OrdinalRandomForestClassifier(
                    n_estimators=m, criterion="gini", max_features=mf, oob_score=False,
                    random_state=0).fit(X, y), 2)
        report(f"ensemble_split_search_per_node_vs_presorted_mf{mf}_{tag}", times["per_node"],
               times["presorted"])


def _bagging(X, y, m, criterion):
    tree = OrdinalTreeClassifier(criterion=criterion, min_split=2, min_bucket=1, cp=-1.0,
                                 xval=0)
    return lambda: OrdinalBaggingClassifier(tree, n_estimators=m, oob_score=False,
                                            n_jobs=N_JOBS, random_state=0).fit(X, y)


def _sklearn_forest(X, y, m):
    from sklearn.ensemble import RandomForestClassifier

    return lambda: RandomForestClassifier(n_estimators=m, n_jobs=N_JOBS,
                                          random_state=0).fit(X, y)


def _sklearn_bagging(X, y, m):
    from sklearn.ensemble import BaggingClassifier
    from sklearn.tree import DecisionTreeClassifier

    return lambda: BaggingClassifier(DecisionTreeClassifier(), n_estimators=m, n_jobs=N_JOBS,
                                     random_state=0).fit(X, y)


def _r_peers(X, y, m):
    """{name: callable} running ranger and randomForest on data already in R (empty without
    R/rpy2 or the packages)."""
    try:
        import pandas as pd
        from rpy2 import robjects as ro
        from rpy2.robjects import default_converter, pandas2ri
        from rpy2.robjects.conversion import localconverter
    except Exception as exc:  # noqa: BLE001 - any failure means "no R peer"
        print(f"# R peers skipped: {exc}", flush=True)
        return {}
    df = pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])])
    df["y"] = pd.Categorical(y.astype(str))
    with localconverter(default_converter + pandas2ri.converter):
        rdf = ro.conversion.get_conversion().py2rpy(df)
    peers = {}
    calls = {
        "ranger": f"function(d) ranger::ranger(y ~ ., data = d, num.trees = {m}, "
                  f"num.threads = {N_JOBS}, seed = 1)",
        "randomForest": f"function(d) randomForest::randomForest(y ~ ., data = d, ntree = {m})",
    }
    for name, code in calls.items():
        try:
            ro.r(f"suppressWarnings(library({name}))")
            fit = ro.r(code)
        except Exception as exc:  # noqa: BLE001
            print(f"# {name} skipped: {exc}", flush=True)
            continue
        peers[name] = (lambda f: (lambda: f(rdf)))(fit)
    return peers


def run(quick: bool = False):
    n, p, m = (2_000, 20, 20) if quick else (10_000, 50, 100)
    repeat = 3
    tag = f"{m}trees_n{n}_p{p}_K5_jobs{N_JOBS}"
    warm_X, warm_y = _data(300, 3)
    for crit in ("gini", "ordinal", "twoing", "gini_linear"):
        _forest(warm_X, warm_y, 2, crit)()  # start the workers, load the compiled kernels
    for crit in ("gini", "ordinal"):
        _bagging(warm_X, warm_y, 2, crit)()  # ... and the presorted levels' kernels
    X, y = _data(n, p)
    ours = {}
    for crit in ("gini", "ordinal", "twoing", "gini_linear"):
        ours[f"forest_{crit}"] = best_time(_forest(X, y, m, crit), repeat)
    for crit in ("gini", "ordinal"):
        ours[f"bagging_{crit}"] = best_time(_bagging(X, y, m, crit), repeat)
    # before the peers: measured after them (R run in this process), our code ran slower
    m_paths = 5 if quick else 20
    _split_search_paths(X, y, m_paths, f"{m_paths}trees_n{n}_p{p}_K5_jobs1")
    peers = {"sklearn_forest": best_time(_sklearn_forest(X, y, m), repeat),
             "sklearn_bagging": best_time(_sklearn_bagging(X, y, m), repeat)}
    for name, fn in _r_peers(X, y, m).items():
        peers[name] = best_time(fn, repeat)
    for kind in ("forest", "bagging"):
        for crit in ("gini", "ordinal"):
            for peer, peer_s in peers.items():
                report(f"ensemble_{kind}_{crit}_vs_{peer}_{tag}", ours[f"{kind}_{crit}"], peer_s)
    for crit in ("ordinal", "twoing", "gini_linear"):
        report(f"ensemble_forest_{crit}_vs_our_gini_{tag}", ours[f"forest_{crit}"],
               ours["forest_gini"])
    report(f"ensemble_bagging_ordinal_vs_our_gini_{tag}", ours["bagging_ordinal"],
           ours["bagging_gini"])
