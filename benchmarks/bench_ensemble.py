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

Then the choice of the forests' split search (``ordstat/trees/_splitter.py``): sorting each
node's drawn features against keeping every feature presorted, for max_features 7, 17 and 25 of
p = 50 (20 trees, one job, best of 2; ratio < 1: sorting per node is faster).

Then prediction: ``predict_proba`` of 10^5 new rows (2 x 10^4 with ``--quick``) by the Gini
forest and bagging (fitted on the data above) against scikit-learn's and ranger's, one job and
every core (:func:`prediction_rows`); in full mode also by 20 trees fitted on 10^5 rows (p =
20), whose trees are ten times larger.

Last, time and peak resident memory, each fit in a fresh child process (:func:`peak_fit`), of
our Gini forest and bagging against scikit-learn's and ranger's (``Rscript``, the same data
read from a binary file): at the size above and, in full mode only (``make bench``, not
``--quick``), at the scale n = 10^6, p = 20, 20 trees, K = 4, 2 jobs. The peak of a child is
its own maximum resident size (``VmHWM``) plus that of every process it started that is still
alive after the fit (joblib's worker processes, when a fit uses them): the sum of maxima, an
upper bound of what the fit held at once. ours and scikit-learn's work in threads of one
process. Lines ``..._peak_mb_vs_<peer>: ours_MB peer_MB ratio`` and
``..._time_vs_<peer>: ours_s peer_s ratio`` (one fit each, in the same children), and
``..._peak_mb_<name>: MB`` for every fit. Each child's memory includes the interpreter, the
imported libraries and the data (160 MB at 10^6 rows), as a user's process would.

Then where a tree's fixed cost shows, one job, against scikit-learn's forest
(:func:`small_data_rows`): 500 trees on 506 rows (Boston's size; also against ranger with one
thread and randomForest when R has them; wall time, then CPU milliseconds per tree, lines
``..._cpu_ms_per_tree_vs_<peer>: ours_ms peer_ms ratio``), 100 bagged trees on those rows,
100 trees at K = 26 (also against ranger and randomForest with one thread), and string
columns (against our forest on their numeric codes, and scikit-learn on dummy codes).
Forests on item scores (:func:`item_score_rows`: 2 x 10^4 rows, 30 columns of 5 or 7
values, K = 4) against scikit-learn's with one job and two, and each criterion against our
Gini forest.
Last, the first call (:func:`cold_start_rows`): a fresh process's first forest fit with an
empty numba cache and with a filled one, and in full mode from a package carrying machine code
for a generic processor, against scikit-learn's first fit.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

from benchmarks._harness import best_cpu_time, best_time, report
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


def _r_peers(X, y, m, threads=N_JOBS):
    """{name: callable} running ranger (``threads`` threads) and randomForest on data already
    in R (empty without R/rpy2 or the packages)."""
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
                  f"num.threads = {threads}, seed = 1)",
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
    prediction_rows(n, p, m, 20_000 if quick else 100_000)
    if not quick:  # trees of ten times the training rows: make bench only
        prediction_rows(100_000, 20, 20, 100_000)
    memory_rows(n, p, m, 5)
    if not quick:  # the scale row: make bench only
        memory_rows(1_000_000, 20, 20, 4)
    small_data_rows(quick)
    item_score_rows(quick)
    cold_start_rows(shipped=not quick)  # shipped: a few minutes of compiling first


# -- small data, many classes, string columns: one job, against scikit-learn --------------------
def _ours_small(X, y, m):
    """Our default forest of ``m`` trees, one job (what the small-data rows time)."""
    def fit():
        with warnings.catch_warnings():  # units in every sample of a few trees' warm-up
            warnings.simplefilter("ignore", UserWarning)
            OrdinalRandomForestClassifier(n_estimators=m, n_jobs=1, random_state=0).fit(X, y)
    return fit


def _sklearn_small(X, y, m, oob=False):
    from sklearn.ensemble import RandomForestClassifier

    return lambda: RandomForestClassifier(n_estimators=m, n_jobs=1, oob_score=oob,
                                          random_state=0).fit(X, y)


def small_data_rows(quick=False):
    """Where a tree's fixed cost shows (one job, scikit-learn's forest the peer, ``name: ours_s
    peer_s ratio``): :func:`boston_size_rows`; 100 trees at 18,000 rows, 16 features of 16
    values, K = 26 (the letter data's size); :func:`string_column_rows`."""
    boston_size_rows(quick)
    ours, sklearn = _ours_small, _sklearn_small
    rng = np.random.default_rng(0)
    m = 10 if quick else 100
    X = rng.integers(0, 16, size=(18_000, 16)).astype(np.float64)
    signal = X[:, :6] @ rng.normal(size=6) + 3.0 * rng.normal(size=X.shape[0])
    y = np.digitize(signal, np.quantile(signal, np.linspace(0, 1, 27)[1:-1]))
    ours(X, y, 2)()
    ours_s = best_time(ours(X, y, m), 2)
    report(f"ensemble_forest_many_classes_vs_sklearn_{m}trees_n18000_p16_K26_jobs1",
           ours_s, best_time(sklearn(X, y, m), 2))
    for name, fit in _r_peers(X, y, m, threads=1).items():  # the target: no slower than ranger
        report(f"ensemble_forest_many_classes_vs_{name}_{m}trees_n18000_p16_K26_jobs1",
               ours_s, best_time(fit, 2))
    string_column_rows(quick)


def string_column_rows(quick=False):
    """300 trees on 237 rows of 6 string columns (K = 5, one job) against our forest on the
    columns' numeric codes and scikit-learn on their dummy codes (``name: ours_s peer_s
    ratio``; its first fits compile the kernels of categorical features)."""
    import pandas as pd

    ours, sklearn = _ours_small, _sklearn_small
    rng = np.random.default_rng(0)
    m = 50 if quick else 300
    sizes = (4, 3, 5, 2, 6, 4)
    codes = np.column_stack([rng.integers(0, k, 237) for k in sizes])
    signal = codes @ rng.normal(size=len(sizes)) + rng.normal(size=237)
    y = np.digitize(signal, np.quantile(signal, [0.2, 0.4, 0.6, 0.8]))
    strings = pd.DataFrame({f"q{j}": np.array(list("abcdef"), dtype=object)[codes[:, j]]
                            for j in range(len(sizes))})
    numeric = codes.astype(np.float64)
    ours(strings, y, 2)()
    ours(numeric, y, 2)()
    ours_s = best_time(ours(strings, y, m), 3)
    report(f"ensemble_forest_strings_vs_numeric_codes_{m}trees_n237_p6_K5_jobs1", ours_s,
           best_time(ours(numeric, y, m), 3))
    report(f"ensemble_forest_strings_vs_sklearn_dummies_{m}trees_n237_p6_K5_jobs1", ours_s,
           best_time(sklearn(pd.get_dummies(strings).to_numpy(float), y, m), 3))


def _item_scores(n, p, k, seed=0):
    """``n`` answers to ``p`` items (scores 0..4 and 1..7 in turn) driven by one trait, and
    ``k`` ordered classes of the trait."""
    rng = np.random.default_rng(seed)
    trait = rng.normal(size=n)
    X = np.empty((n, p))
    for j in range(p):
        low, n_cuts = (0, 4) if j % 2 == 0 else (1, 6)
        z = rng.uniform(0.3, 1.2) * trait + rng.normal(size=n)
        X[:, j] = low + np.digitize(z, np.quantile(z, np.linspace(0, 1, n_cuts + 2)[1:-1]))
    signal = trait + 0.5 * rng.normal(size=n)
    return X, np.digitize(signal, np.quantile(signal, np.linspace(0, 1, k + 1)[1:-1]))


def item_score_rows(quick=False):
    """Forests on item scores (features of few values), 2 x 10^4 rows, p = 30, K = 4: our
    default and Gini forests against scikit-learn's with one job and ``N_JOBS`` (the target:
    at most 0.5x), and every built-in criterion's forest against our Gini forest (one job;
    the target: within 1.1x)."""
    from sklearn.ensemble import RandomForestClassifier

    n, p, m = 20_000, 30, 20 if quick else 100
    X, y = _item_scores(n, p, 4)
    tag = f"{m}trees_n{n}_p{p}_K4"
    criteria = ("gini", "ordinal", "entropy", "twoing", "gini_linear", "gini_quadratic",
                "loss_linear", "loss_quadratic")

    def forest(criterion, jobs):
        kw = {} if criterion is None else {"criterion": criterion}
        return lambda: OrdinalRandomForestClassifier(n_estimators=m, oob_score=False,
                                                     n_jobs=jobs, random_state=0, **kw).fit(X, y)

    for criterion in criteria:
        forest(criterion, 1)()  # the kernels, loaded here (fits of 2 x 10^4 rows: a few trees)
    for jobs in (1, N_JOBS):
        sk = best_time(lambda: RandomForestClassifier(n_estimators=m, n_jobs=jobs,
                                                      random_state=0).fit(X, y), 2)
        for name, criterion in (("default", None), ("gini", "gini")):
            report(f"ensemble_forest_item_scores_{name}_vs_sklearn_{tag}_jobs{jobs}",
                   best_time(forest(criterion, jobs), 2), sk)
    gini_s = best_cpu_time(forest("gini", 1), 2)
    for criterion in criteria[1:]:
        report(f"ensemble_forest_item_scores_{criterion}_vs_our_gini_{tag}_jobs1_cpu",
               best_cpu_time(forest(criterion, 1), 2), gini_s)


def boston_size_rows(quick=False):
    """500 trees on 506 rows, 13 features, K = 5 (Boston's size, out-of-bag scores on for
    both; also against ranger with one thread and randomForest, through rpy2 when R has
    them), wall time and CPU milliseconds per tree; 100 bagged trees on the same rows (our
    default bagging against scikit-learn's ``BaggingClassifier`` of unpruned trees)."""
    from sklearn.ensemble import BaggingClassifier
    from sklearn.tree import DecisionTreeClassifier

    ours, sklearn = _ours_small, _sklearn_small
    m = 100 if quick else 500
    X, y = _data(506, 13)
    ours(X, y, 5)()  # the kernels, loaded here
    ours_s = best_time(ours(X, y, m), 3)
    report(f"ensemble_forest_small_vs_sklearn_{m}trees_n506_p13_K5_jobs1", ours_s,
           best_time(sklearn(X, y, m, oob=True), 3))
    peers = _r_peers(X, y, m, threads=1)
    for name, fit in peers.items():
        report(f"ensemble_forest_small_vs_{name}_{m}trees_n506_p13_K5_jobs1", ours_s,
               best_time(fit, 3))
    # the fixed cost of a tree: CPU milliseconds per tree of one thread (the target: under 1,
    # and no more than ranger's)
    ms = 1e3 / m
    ours_ms = ms * best_cpu_time(ours(X, y, m), 3)
    for name, fit in {"sklearn": sklearn(X, y, m, oob=True), **peers}.items():
        report(f"ensemble_forest_small_cpu_ms_per_tree_vs_{name}_{m}trees_n506_p13_K5_jobs1",
               ours_ms, ms * best_cpu_time(fit, 3))
    b = 20 if quick else 100
    bagging = [lambda: OrdinalBaggingClassifier(n_estimators=b, n_jobs=1,
                                                random_state=0).fit(X, y),
               lambda: BaggingClassifier(DecisionTreeClassifier(), n_estimators=b,
                                         oob_score=True, n_jobs=1, random_state=0).fit(X, y)]
    report(f"ensemble_bagging_small_vs_sklearn_{b}trees_n506_p13_K5_jobs1",
           *(best_time(fit, 3) for fit in bagging))
    report(f"ensemble_bagging_small_cpu_ms_per_tree_vs_sklearn_{b}trees_n506_p13_K5_jobs1",
           *(1e3 / b * best_cpu_time(fit, 3) for fit in bagging))


_FIRST_FIT = """
import sys, time
start = time.perf_counter()
import numpy as np
rng = np.random.default_rng(0)
X = rng.normal(size=(3000, 10))
y = np.digitize(X[:, 0] + rng.normal(size=3000), [-1.0, 0.0, 1.0])
if sys.argv[1] == "ours":
    from ordstat import OrdinalRandomForestClassifier as Forest
else:
    from sklearn.ensemble import RandomForestClassifier as Forest
fitted = Forest(n_estimators=20, random_state=0).fit(X, y)
fit = time.perf_counter()
fitted.predict(X)
print(fit - start, time.perf_counter() - fit)
"""


def cold_start_rows(shipped=False):
    """The first forest fit and predict of a fresh process (3,000 rows, 10 features, 20 trees,
    imports included) with an empty numba cache (``NUMBA_CACHE_DIR`` a new folder: what a
    fresh installation compiles), then with that cache filled, against scikit-learn's first
    fit in a fresh process. Lines ``..._cold_fit``, ``..._cached_fit`` (``ours_s peer_s
    ratio``) and ``..._cold_predict_s: s``. With ``shipped``, also ``..._shipped_fit``: an
    empty cache again, but a copy of the package carrying its kernels' machine code for a
    generic processor (``ordstat._compile.ship_kernels(["ordinal"])``, compiled first), as a
    wheel built with it would install."""
    import ordstat

    def first(who, cache, path=None):
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        if path:
            env["PYTHONPATH"] = os.pathsep.join([path, env.get("PYTHONPATH", "")])
        # (from the copy's folder: ``-c`` puts the working folder first on the path)
        out = subprocess.run([sys.executable, "-c", _FIRST_FIT, who], env=env, check=True,
                             capture_output=True, text=True, cwd=path)
        return [float(v) for v in out.stdout.split()]

    tag = "20trees_n3000_p10_K4"
    with tempfile.TemporaryDirectory() as cache:
        peer_fit, _ = first("sklearn", cache)
        cold_fit, cold_predict = first("ours", cache)
        cached_fit, _ = first("ours", cache)
    report(f"ensemble_forest_first_call_cold_fit_vs_sklearn_{tag}", cold_fit, peer_fit)
    print(f"ensemble_forest_first_call_cold_predict_s_{tag}: {cold_predict:.3g}", flush=True)
    report(f"ensemble_forest_first_call_cached_fit_vs_sklearn_{tag}", cached_fit, peer_fit)
    if not shipped:
        return
    with tempfile.TemporaryDirectory() as root, tempfile.TemporaryDirectory() as cache:
        shutil.copytree(os.path.dirname(ordstat.__file__), os.path.join(root, "ordstat"),
                        ignore=shutil.ignore_patterns("__pycache__", "_machine_code"))
        subprocess.run([sys.executable, "-c", "from ordstat._compile import ship_kernels; "
                        "ship_kernels(['ordinal'])"], cwd=root, check=True,
                       env=dict(os.environ, PYTHONPATH=root))
        shipped_fit, _ = first("ours", cache, root)
    report(f"ensemble_forest_first_call_shipped_fit_vs_sklearn_{tag}", shipped_fit, peer_fit)


# -- prediction -------------------------------------------------------------------------------
def prediction_rows(n, p, m, n_test):
    """``predict_proba`` of ``n_test`` new rows by our Gini forest and bagging (mean
    probabilities, ``aggregation="proba"``, as scikit-learn's; and the forest's default median
    vote shares) against scikit-learn's forest and bagging and ranger's forest
    (``probability = TRUE``, through rpy2 when R and ranger are there), each fitted once on the
    data of the fit rows, with one job and with every core. Lines
    ``ensemble_predict_proba_<ours>_jobs<j>_vs_<peer>_<tag>: ours_s peer_s ratio``."""
    from sklearn.ensemble import BaggingClassifier, RandomForestClassifier
    from sklearn.tree import DecisionTreeClassifier

    X, y = _data(n, p)
    X_new = _data(n_test, p, seed=1)[0]
    tree = OrdinalTreeClassifier(criterion="gini", min_split=2, cp=-1.0, xval=0)
    ours = {"forest": OrdinalRandomForestClassifier(
                n_estimators=m, criterion="gini", aggregation="proba", oob_score=False,
                n_jobs=N_JOBS, random_state=0).fit(X, y),
            "bagging": OrdinalBaggingClassifier(
                tree, n_estimators=m, aggregation="proba", oob_score=False, n_jobs=N_JOBS,
                random_state=0).fit(X, y)}
    peers = {"forest": RandomForestClassifier(n_estimators=m, n_jobs=N_JOBS,
                                              random_state=0).fit(X, y),
             "bagging": BaggingClassifier(DecisionTreeClassifier(), n_estimators=m,
                                          n_jobs=N_JOBS, random_state=0).fit(X, y)}
    tag = f"{m}trees_n{n}_p{p}_K5_new{n_test}"
    times = {}
    for jobs in (1, os.cpu_count()):
        for kind in ("forest", "bagging"):
            for est in (ours[kind], peers[kind]):
                est.set_params(n_jobs=jobs)
                est.predict_proba(X_new[:100])  # compiled kernels loaded, workers started
            times[kind, jobs] = (best_time(lambda: ours[kind].predict_proba(X_new)),
                                 best_time(lambda: peers[kind].predict_proba(X_new)))
            report(f"ensemble_predict_proba_{kind}_jobs{jobs}_vs_sklearn_{tag}", *times[kind, jobs])
        ours["forest"].set_params(aggregation="median")  # the forest's default: vote shares
        report(f"ensemble_predict_proba_forest_median_jobs{jobs}_vs_sklearn_{tag}",
               best_time(lambda: ours["forest"].predict_proba(X_new)), times["forest", jobs][1])
        ours["forest"].set_params(aggregation="proba")
    for jobs, ranger_s in _ranger_predict(X, y, X_new, m).items():
        report(f"ensemble_predict_proba_forest_jobs{jobs}_vs_ranger_{tag}",
               times["forest", jobs][0], ranger_s)


def _ranger_predict(X, y, X_new, m):
    """{jobs: ranger's predict time} with one thread and every core (empty without R/rpy2 or
    ranger)."""
    try:
        import pandas as pd
        from rpy2 import robjects as ro
        from rpy2.robjects import default_converter, pandas2ri
        from rpy2.robjects.conversion import localconverter

        names = [f"x{j}" for j in range(X.shape[1])]
        df = pd.DataFrame(X, columns=names)
        df["y"] = pd.Categorical(y.astype(str))
        with localconverter(default_converter + pandas2ri.converter):
            rdf = ro.conversion.get_conversion().py2rpy(df)
            rnew = ro.conversion.get_conversion().py2rpy(pd.DataFrame(X_new, columns=names))
        ro.r("suppressWarnings(library(ranger))")
        fit = ro.r(f"function(d) ranger::ranger(y ~ ., data = d, num.trees = {m}, "
                   "probability = TRUE, num.threads = 2, seed = 1)")(rdf)
        pred = ro.r("function(f, d, j) predict(f, data = d, num.threads = j)$predictions")
    except Exception as exc:  # noqa: BLE001 - any failure means "no R peer"
        print(f"# ranger prediction skipped: {exc}", flush=True)
        return {}
    return {jobs: best_time(lambda: pred(fit, rnew, jobs)) for jobs in (1, os.cpu_count())}


# -- peak memory: one fit per fresh child process -----------------------------------------------
def _vm_hwm_mb(pid="self"):
    """Maximum resident size (VmHWM) of a process, in MB (0 where it cannot be read)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _descendants(pid):
    """The processes started by ``pid`` (and by them), alive now."""
    kids = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                kids += [int(c) for c in f.read().split()]
    except OSError:
        return []
    return kids + [d for c in kids for d in _descendants(c)]


def _python_fit(kind, n, p, m, k):
    """Fit ``kind`` on the benchmark's data in this process (a child); prints its time and the
    peak memory of this process and of the processes it started."""
    X, y = _data(n, p, k)
    small = _data(300, p, k)
    if kind == "ours_forest":
        est = OrdinalRandomForestClassifier(n_estimators=m, criterion="gini", oob_score=False,
                                            n_jobs=N_JOBS, random_state=0)
    elif kind == "ours_bagging":
        tree = OrdinalTreeClassifier(criterion="gini", min_split=2, min_bucket=1, cp=-1.0,
                                     xval=0)
        est = OrdinalBaggingClassifier(tree, n_estimators=m, oob_score=False, n_jobs=N_JOBS,
                                       random_state=0)
    elif kind == "sklearn_forest":
        from sklearn.ensemble import RandomForestClassifier

        est = RandomForestClassifier(n_estimators=m, n_jobs=N_JOBS, random_state=0)
    else:
        from sklearn.ensemble import BaggingClassifier
        from sklearn.tree import DecisionTreeClassifier

        est = BaggingClassifier(DecisionTreeClassifier(), n_estimators=m, n_jobs=N_JOBS,
                                random_state=0)
    est.fit(*small)  # imports, compiled kernels (from numba's cache) and workers, untimed
    start = time.perf_counter()
    est.fit(X, y)
    seconds = time.perf_counter() - start
    peak = _vm_hwm_mb() + sum(_vm_hwm_mb(c) for c in _descendants(os.getpid()))
    print(json.dumps({"seconds": seconds, "peak_mb": peak}), flush=True)
    # joblib's idle worker processes (when the fit used them) end with this process
    from joblib.externals.loky import get_reusable_executor

    get_reusable_executor().shutdown(wait=True)


_RANGER = """
args <- commandArgs(trailingOnly = TRUE)
n <- as.integer(args[2]); p <- as.integer(args[3]); m <- as.integer(args[4])
con <- file(args[1], "rb")
X <- readBin(con, "double", n * p); y <- readBin(con, "integer", n)
close(con)
d <- as.data.frame(matrix(X, nrow = n, byrow = TRUE)); rm(X)
d$y <- factor(y)
mtry <- if (args[5] == "bagging") p else NULL
t <- system.time(fit <- ranger::ranger(y ~ ., data = d, num.trees = m, num.threads = %d,
                                       mtry = mtry, seed = 1))[["elapsed"]]
hwm <- grep("^VmHWM", readLines("/proc/self/status"), value = TRUE)
cat(sprintf('{"seconds": %%f, "peak_mb": %%f}\\n', t,
            as.numeric(strsplit(trimws(sub("VmHWM:", "", hwm)), " +")[[1]][1]) / 1024))
""" % N_JOBS


def _ranger_fit(kind, n, p, m, k, folder):
    """ranger's fit of the same data in an ``Rscript`` child (None without R or ranger)."""
    if shutil.which("Rscript") is None:
        return None
    path = os.path.join(folder, f"data_{n}_{p}_{k}.bin")
    if not os.path.exists(path):
        X, y = _data(n, p, k)
        with open(path, "wb") as f:
            f.write(np.ascontiguousarray(X, dtype="<f8").tobytes())
            f.write(np.asarray(y, dtype="<i4").tobytes())
    script = os.path.join(folder, "ranger.R")
    with open(script, "w") as f:
        f.write(_RANGER)
    out = subprocess.run(["Rscript", script, path, str(n), str(p), str(m), kind],
                         capture_output=True, text=True)
    if out.returncode != 0:
        print(f"# ranger skipped: {out.stderr.strip()[-200:]}", flush=True)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def peak_fit(kind, n, p, m, k, folder):
    """{"seconds", "peak_mb"} of one fit of ``kind`` ("ours_forest", "ours_bagging",
    "sklearn_forest", "sklearn_bagging", "ranger_forest", "ranger_bagging") in a fresh child
    process (None when the peer is not there)."""
    if kind.startswith("ranger"):
        return _ranger_fit(kind.split("_")[1], n, p, m, k, folder)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [root] + [x for x in os.environ.get("PYTHONPATH", "").split(os.pathsep) if x])}
    code = (f"from benchmarks.bench_ensemble import _python_fit; "
            f"_python_fit({kind!r}, {n}, {p}, {m}, {k})")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, cwd=root)
    if out.returncode != 0:
        print(f"# {kind} failed: {out.stderr.strip()[-300:]}", flush=True)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def memory_rows(n, p, m, k):
    """Time and peak memory of our forest and bagging against scikit-learn's and ranger's, each
    fit in a child process; prints the lines described in the module docstring."""
    tag = f"{m}trees_n{n}_p{p}_K{k}_jobs{N_JOBS}"
    with tempfile.TemporaryDirectory() as folder:
        fits = {}
        for kind in ("forest", "bagging"):
            for who in ("ours", "sklearn", "ranger"):
                res = peak_fit(f"{who}_{kind}", n, p, m, k, folder)
                if res is not None:
                    fits[who, kind] = res
                    print(f"ensemble_{kind}_peak_mb_{who}_{tag}: {res['peak_mb']:.0f} "
                          f"({res['seconds']:.3g} s)", flush=True)
    for kind in ("forest", "bagging"):
        ours = fits.get(("ours", kind))
        for peer in ("sklearn", "ranger"):
            theirs = fits.get((peer, kind))
            if ours is None or theirs is None:
                continue
            report(f"ensemble_{kind}_peak_mb_vs_{peer}_{tag}", ours["peak_mb"], theirs["peak_mb"])
            report(f"ensemble_{kind}_time_vs_{peer}_{tag}", ours["seconds"], theirs["seconds"])
