"""Scaling over cores: our Gini forest against scikit-learn's at 1, 2, 4, 8 and 16 jobs (those
the machine has), fit and ``predict_proba`` times and the parallel efficiency of each.

Size: 50 trees (default ``max_features``, fully grown, no out-of-bag score) on n = 10^6 rows,
p = 20, K = 5, predicting 2 x 10^5 new rows (``--quick``: 10 trees on 2 x 10^4 rows,
predicting 10^4). Each time is one fit (the best of 2 with ``--quick``); both libraries are
warmed first (compiled kernels loaded, threads started).

Lines, for every job count j:

- ``scaling_fit_jobs<j>_vs_sklearn_<tag>: ours_s peer_s ratio`` and
  ``scaling_predict_proba_jobs<j>_vs_sklearn_<tag>: ours_s peer_s ratio``;
- ``scaling_fit_efficiency_jobs<j>_<tag>: ours peer`` (and ``..._predict_proba_...``): the
  time with one job over j times the time with j jobs, 1 for perfect scaling.

The issue's targets at 16 jobs: fit at most 0.5x scikit-learn's time, efficiency at least 0.75.
On its own, with other sizes: ``python -m benchmarks.bench_scaling [--n N] [--trees M]``.
"""

from __future__ import annotations

import argparse
import os

from benchmarks._harness import best_time, report
from benchmarks.bench_ensemble import _data
from ordstat.ensemble import OrdinalRandomForestClassifier

JOBS = (1, 2, 4, 8, 16)


def _ours(m, jobs):
    return OrdinalRandomForestClassifier(n_estimators=m, criterion="gini", oob_score=False,
                                         n_jobs=jobs, random_state=0)


def _sklearn(m, jobs):
    from sklearn.ensemble import RandomForestClassifier

    return RandomForestClassifier(n_estimators=m, n_jobs=jobs, random_state=0)


def scaling_rows(n, m, n_test, p=20, repeat=1):
    """The lines of the module docstring, for ``m`` trees on ``n`` rows."""
    X, y = _data(n, p)
    X_new = _data(n_test, p, seed=1)[0]
    tag = f"{m}trees_n{n}_p{p}_K5_new{n_test}"
    jobs_list = [j for j in JOBS if j <= (os.cpu_count() or 1)]
    for make in (_ours, _sklearn):  # kernels loaded, thread pools started
        make(2, max(jobs_list)).fit(X[:2000], y[:2000]).predict_proba(X_new[:100])
    times = {}
    for jobs in jobs_list:
        for who, make in (("ours", _ours), ("sklearn", _sklearn)):
            fitted = []
            fit_s = best_time(lambda: fitted.append(make(m, jobs).fit(X, y)), repeat)
            forest = fitted[-1]
            del fitted[:-1]
            times[who, "fit", jobs] = fit_s
            times[who, "predict_proba", jobs] = best_time(lambda: forest.predict_proba(X_new),
                                                          repeat)
        for what in ("fit", "predict_proba"):
            report(f"scaling_{what}_jobs{jobs}_vs_sklearn_{tag}", times["ours", what, jobs],
                   times["sklearn", what, jobs])
    for jobs in jobs_list[1:]:
        for what in ("fit", "predict_proba"):
            eff = [times[who, what, 1] / (jobs * times[who, what, jobs])
                   for who in ("ours", "sklearn")]
            print(f"scaling_{what}_efficiency_jobs{jobs}_{tag}: {eff[0]:.3g} {eff[1]:.3g}",
                  flush=True)


def run(quick: bool = False):
    if quick:
        scaling_rows(20_000, 10, 10_000, repeat=2)
    else:
        scaling_rows(1_000_000, 50, 200_000)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_scaling",
                                     description=__doc__)
    parser.add_argument("--n", type=int, default=1_000_000, help="training rows")
    parser.add_argument("--trees", type=int, default=50)
    parser.add_argument("--new", type=int, default=200_000, help="rows predicted")
    args = parser.parse_args()
    scaling_rows(args.n, args.trees, args.new)
