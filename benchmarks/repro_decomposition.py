"""Reproduce the decomposition papers' numbers and print ours beside them (run once, by hand).

    python -m benchmarks.repro_decomposition [--quick] [--n-jobs 2] [--fixed]

- Waegeman & Boullart (2006), Tables I-III on synthetic data 1 and 2 and Boston housing: the
  paper's 20 train/test pairs (the report's `wsvm` and `wsvm_benchmark` sections run fewer in
  their full run), C and gamma by the paper's grid search, weighted and unweighted ensembles
  and SVORIM (also on the synthetic data, which the report leaves out for time), through
  ``ordstat.reproduce._waegeman.run_pairs``, the one place of the protocol and of the paper's
  numbers; with ``--fixed``, the fixed C and gamma of the report's quick run instead.
- Dissertation "Ensemble methods for ordinal data classification": oDT on Circle (Table 4.2,
  and Table 4.1 for every combination rule) and oAdaBoost / AdaBoost.OR on Circle (Table 5.2),
  10 times 10-fold cross-validation.

Repetitions run through joblib.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from joblib import Parallel, delayed
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

from ordstat.datasets import make_circle
from ordstat.decomposition import (
    REPLICA_RULES,
    AdaBoostOR,
    FrankHallClassifier,
    OrdinalStumpBoost,
    ReplicatedTreeClassifier,
)


def svm_tables(n_pairs, fixed, n_jobs):
    """Mean over the pairs of every measure and method, the paper's numbers beside, and the
    Wilcoxon p-values of MCOSvm against SVORIM (the paper's rank sum, and signed rank)."""
    import pandas as pd

    from ordstat.reproduce import _waegeman as wb

    label = "fixed C and gamma" if fixed else "the paper's grid search"
    for dataset in ("Synthetic 1", "Synthetic 2", "Boston housing"):
        t0 = time.perf_counter()
        try:
            scores, _ = wb.run_pairs(dataset, n_pairs, grid=None if fixed else wb.GRID,
                                     svorim=True, n_jobs=n_jobs, random_state=0)
        except ImportError as exc:
            print(f"\n# {dataset}: not available ({exc})")
            continue
        print(f"\n# {dataset}, {n_pairs} pairs, {label} ({time.perf_counter() - t0:.0f} s)")
        methods = ("weighted", "unweighted", "SVORIM")
        with pd.option_context("display.width", 160):
            print(wb.side_by_side(scores, dataset, methods).to_string())
        for metric in ("accuracy %", "MAE"):
            rank_sum, signed = wb.wilcoxon_pvalues(wb.pair_values(scores, "weighted", metric),
                                                   wb.pair_values(scores, "SVORIM", metric))
            table = wb.TABLE_I if metric == "accuracy %" else wb.TABLE_II
            print(f"Wilcoxon p, {metric}, MCOSvm vs SVORIM: rank sum {rank_sum:.2g} (paper "
                  f"{table[dataset][2]}), signed rank {signed:.2g}")


def _cv_errors(make, X, y, rep):
    """Fold errors (%), fold MAEs and tree sizes of one 10-fold CV."""
    errs, maes, sizes = [], [], []
    for tr, te in StratifiedKFold(10, shuffle=True, random_state=rep).split(X, y):
        model = make().fit(X[tr], y[tr])
        pred = model.predict(X[te])
        errs.append(100 * np.mean(pred != y[te]))
        maes.append(np.mean(np.abs(pred - y[te])))
        sizes.append(getattr(model, "node_count_", np.nan))
    return np.array([errs, maes, sizes], dtype=float)


def _repeat(make, X, y, reps, n_jobs):
    """Mean error, its sd over all folds of all repetitions (the dissertation's sd is of that
    size), mean MAE and mean tree size."""
    res = np.concatenate(Parallel(n_jobs=n_jobs)(
        delayed(_cv_errors)(make, X, y, r) for r in range(reps)), axis=1)
    size = np.nanmean(res[2]) if np.isfinite(res[2]).any() else np.nan
    return res[0].mean(), res[0].std(ddof=1), res[1].mean(), size


def circle_tables(reps, n_jobs):
    X, y = make_circle(1000, random_state=0)
    print(f"\n# Circle (n = 1000), {reps} x 10-fold CV: error % mean (sd), MAE")
    rows = [
        ("oDT (sum)", lambda: ReplicatedTreeClassifier(), "Table 4.2: 5.48 (2.29), MAE 0.05"),
        ("Frank & Hall, entropy trees",
         lambda: FrankHallClassifier(DecisionTreeClassifier(criterion="entropy",
                                                            min_samples_leaf=2)),
         "Table 4.2 F&H (C4.5): 5.39 (2.33)"),
        ("entropy tree (C4.5 stand-in)",
         lambda: DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2),
         "Table 4.2 C4.5: 5.22 (2.08)"),
        ("oAdaBoost (100 rounds)", lambda: OrdinalStumpBoost(n_estimators=100),
         "Table 5.2: 6.87 (2.61), MAE 0.07"),
        ("AdaBoost.OR (100 rounds)", lambda: AdaBoostOR(n_estimators=100),
         "Table 5.2: 16.16 (3.79), MAE 0.16"),
    ]
    for name, make, paper in rows:
        t0 = time.perf_counter()
        err, sd, mae, size = _repeat(make, X, y, reps, n_jobs)
        extra = f" size {size:.1f}" if np.isfinite(size) else ""
        print(f"{name:>30}: {err:.2f} ({sd:.2f}) MAE {mae:.3f}{extra}   {paper}   "
              f"[{time.perf_counter() - t0:.0f} s]", flush=True)
    table41 = {"sum": 5.48, "average": 5.46, "product": 5.46, "geometric": 6.07, "min": 6.08,
               "max": 5.45, "dist_min": 5.44, "dist_max": 5.56}
    table51 = {"sum": 20.43, "average": 20.43, "product": 20.43, "geometric": 20.38,
               "min": 21.41, "max": 22.08, "dist_min": 20.59, "dist_max": 20.25}
    print(f"\n# Combination rules on Circle, {reps} x 10-fold CV: oDT (Table 4.1) and "
          "oAdaBoost with 10 rounds (Table 5.1)")
    for rule in REPLICA_RULES:
        a = _repeat(lambda: ReplicatedTreeClassifier(rule=rule), X, y, reps, n_jobs)
        b = _repeat(lambda: OrdinalStumpBoost(n_estimators=10, rule=rule), X, y, reps, n_jobs)
        print(f"{rule:>10}: oDT {a[0]:.2f} (Table 4.1: {table41.get(rule, '-')}) size "
              f"{a[3]:.1f}   oAdaBoost-10 {b[0]:.2f} (Table 5.1: {table51.get(rule, '-')})",
              flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 pairs / 2 CV repetitions")
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--fixed", action="store_true",
                        help="fixed C and gamma instead of the grid search")
    parser.add_argument("--skip-svm", action="store_true")
    parser.add_argument("--skip-circle", action="store_true")
    args = parser.parse_args(argv)
    pairs, reps = (3, 2) if args.quick else (20, 10)
    if not args.skip_circle:
        circle_tables(reps, args.n_jobs)
    if not args.skip_svm:
        svm_tables(pairs, args.fixed, args.n_jobs)


if __name__ == "__main__":
    main()
