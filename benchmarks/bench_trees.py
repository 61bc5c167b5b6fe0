"""Growing a full classification tree (cp = 0, min_split = 5, no cross-validation).

Peers, timed in the same run:

- scikit-learn's ``DecisionTreeClassifier(min_samples_split=5)`` (Gini);
- R's ``rpart(method = "class", cp = 0, minsplit = 5, xval = 0)`` through rpy2, timing only
  the R call (the data frame is converted before); competitor and surrogate splits are
  switched off (``maxcompete = 0, maxsurrogate = 0``) since ordstat computes neither.

Also the ordinal criteria against our own Gini, and how the time grows from n = 10^4 to
10^5 (n log n predicts a factor of 12.5). Lines: ``name: ours_s peer_s ratio``.

Last, the ordinal criteria in bagging (``OrdinalBaggingClassifier`` of fully grown trees, the
presorted levels: every feature searched in every node, so the split scan weighs most) against
Gini on the same bootstrap samples (the same ``random_state``), one job, 20 trees at n = 10^4,
p = 50, K = 5 (--quick: 5 trees, n = 2,000, p = 20); the criteria are timed in turns (best of 3
rounds) so that a change of the machine's load hits all of them.
"""

from __future__ import annotations

import numpy as np

from benchmarks._harness import best_time, compare, report
from ordstat.ensemble import OrdinalBaggingClassifier
from ordstat.trees import OrdinalTreeClassifier

BAGGED = ("gini", "ordinal", "twoing", "gini_linear", "gini_quadratic")


def _data(n, p, k=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    signal = X[:, : min(5, p)].sum(axis=1) + 2.0 * rng.normal(size=n)
    y = np.digitize(signal, np.quantile(signal, np.linspace(0, 1, k + 1)[1:-1]))
    return X, y


def _ours(X, y, criterion):
    return lambda: OrdinalTreeClassifier(criterion=criterion, cp=0.0, min_split=5,
                                         xval=0).fit(X, y)


def _sklearn(X, y):
    from sklearn.tree import DecisionTreeClassifier

    return lambda: DecisionTreeClassifier(min_samples_split=5, random_state=0).fit(X, y)


def _rpart(X, y):
    """A callable running rpart on data already in R, or None without R/rpy2."""
    try:
        import pandas as pd
        from rpy2 import robjects as ro
        from rpy2.robjects import default_converter, pandas2ri
        from rpy2.robjects.conversion import localconverter
        # library() warns about the empty /usr/local site library of a fresh Debian R
        ro.r("suppressWarnings(library(rpart))")
    except Exception as exc:  # noqa: BLE001 - any failure means "no R peer"
        print(f"# rpart skipped: {exc}", flush=True)
        return None
    df = pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])])
    df["y"] = pd.Categorical(y.astype(str))
    with localconverter(default_converter + pandas2ri.converter):
        rdf = ro.conversion.get_conversion().py2rpy(df)
    fit = ro.r(
        "function(d) rpart::rpart(y ~ ., data = d, method = 'class', "
        "control = rpart::rpart.control(cp = 0, minsplit = 5, xval = 0, maxcompete = 0, "
        "maxsurrogate = 0))"
    )
    return lambda: fit(rdf)


def run(quick: bool = False):
    sizes = [(2_000, 20), (10_000, 5)] if quick else [(10_000, 50), (100_000, 10)]
    repeat = 1 if quick else 3
    warm_X, warm_y = _data(500, 3)
    for crit in ("gini", "ordinal", "twoing", "gini_linear", "entropy"):
        _ours(warm_X, warm_y, crit)()  # load (or compile once) the numba kernels
    for n, p in sizes:
        X, y = _data(n, p)
        tag = f"n{n}_p{p}_K5"
        compare(f"trees_gini_vs_sklearn_{tag}", _ours(X, y, "gini"), _sklearn(X, y), repeat)
        compare(f"trees_ordinal_vs_sklearn_{tag}", _ours(X, y, "ordinal"), _sklearn(X, y),
                repeat)
        r_fit = _rpart(X, y)
        if r_fit is not None:
            compare(f"trees_gini_vs_rpart_{tag}", _ours(X, y, "gini"), r_fit, repeat)
        gini_s = best_time(_ours(X, y, "gini"), repeat)
        for crit in ("ordinal", "twoing", "gini_linear", "gini_quadratic", "entropy"):
            report(f"trees_{crit}_vs_our_gini_{tag}", best_time(_ours(X, y, crit), repeat),
                   gini_s)
    # growth from 10^4 to 10^5 units (p = 10): n log n predicts 10 * log(1e5) / log(1e4) = 12.5
    small, large = (2_000, 20_000) if quick else (10_000, 100_000)
    Xs, ys = _data(small, 10, seed=1)
    Xl, yl = _data(large, 10, seed=1)
    for crit in ("gini", "ordinal"):
        report(f"trees_{crit}_growth_n{large}_over_n{small}",
               best_time(_ours(Xl, yl, crit), repeat), best_time(_ours(Xs, ys, crit), repeat))
    print(f"# n log n predicts a growth ratio of "
          f"{large * np.log(large) / (small * np.log(small)):.3g}", flush=True)
    _bagging_criteria(quick)


def _bagged(X, y, m, criterion):
    tree = OrdinalTreeClassifier(criterion=criterion, min_split=2, min_bucket=1, cp=-1.0,
                                 xval=0)
    return lambda: OrdinalBaggingClassifier(tree, n_estimators=m, oob_score=False, n_jobs=1,
                                            random_state=0).fit(X, y)


def _bagging_criteria(quick):
    n, p, m = (2_000, 20, 5) if quick else (10_000, 50, 20)
    warm_X, warm_y = _data(300, 3)
    for crit in BAGGED:
        _bagged(warm_X, warm_y, 2, crit)()  # the presorted levels' kernels
    X, y = _data(n, p)
    best = dict.fromkeys(BAGGED, np.inf)
    for _ in range(3):  # in turns: the load of the machine weighs on every criterion alike
        for crit in BAGGED:
            best[crit] = min(best[crit], best_time(_bagged(X, y, m, crit), 1))
    for crit in BAGGED[1:]:
        report(f"trees_bagging_{crit}_vs_our_gini_{m}trees_n{n}_p{p}_K5_jobs1", best[crit],
               best["gini"])
