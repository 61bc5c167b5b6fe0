"""Reproduce the decomposition papers' numbers and print ours beside them (run once, by hand).

    python -m benchmarks.repro_decomposition [--quick] [--n-jobs 2] [--grid-step 2]

- Waegeman & Boullart (2006), Table I (accuracy, MAE) and Table III (border-rank sensitivity
  and specificity of rank 1) on synthetic data 1 and 2: 20 train/test pairs, C and gamma by the
  paper's grid search (stratified 5-fold CV; ``--grid-step`` in log2 units, the paper's own
  step is not clear from the text), weighted and unweighted ensembles; also the fixed
  C = 1, gamma = 1/8 setting of an independent reference run.
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

from ordstat.datasets import make_circle, make_waegeman_synthetic
from ordstat.decomposition import (
    REPLICA_RULES,
    AdaBoostOR,
    FrankHallClassifier,
    OrdinalStumpBoost,
    ReplicatedTreeClassifier,
    WeightedSVMEnsemble,
    svm_grid_search,
)
from ordstat.metrics import border_rank_sensitivity, border_rank_specificity

TABLE_I = {1: (91.25, 0.092), 2: (86.03, 0.18)}
TABLE_III = {"3clusters": (0.95, 0.98), "4clusters": (0.89, 0.96)}


def _svm_pair(kind, s, grid_step, fixed):
    X, y = make_waegeman_synthetic(kind, random_state=1000 * kind + 2 * s)
    Xt, yt = make_waegeman_synthetic(kind, noise=0.0, random_state=1000 * kind + 2 * s + 1)
    out = {}
    for weighted in (True, False):
        if fixed:
            params = {"C": 1.0, "gamma": 1 / 8}
        else:
            best, _ = svm_grid_search(X, y, weighted=weighted,
                                      log2_C=np.arange(-5, 10.5, grid_step),
                                      log2_gamma=np.arange(-10, 5.5, grid_step), cv=5,
                                      random_state=s)
            params = {"C": best["C"], "gamma": best["gamma"]}
        pred = WeightedSVMEnsemble(weighted=weighted, **params).fit(X, y).predict(Xt)
        out[weighted] = {
            "acc": 100 * np.mean(pred == yt),
            "mae": np.mean(np.abs(pred - yt)),
            "sens_usual": border_rank_sensitivity(yt, pred, 1),
            "spec_usual": border_rank_specificity(yt, pred, 1),
            "sens_eq13": border_rank_sensitivity(yt, pred, 1, denominator="predicted"),
            "spec_eq14": border_rank_specificity(yt, pred, 1, denominator="predicted"),
        }
    return out


def svm_tables(n_pairs, grid_step, fixed, n_jobs):
    for kind in (1, 2):
        label = "C=1, gamma=1/8" if fixed else f"grid search (step {grid_step} in log2)"
        t0 = time.perf_counter()
        runs = Parallel(n_jobs=n_jobs)(
            delayed(_svm_pair)(kind, s, grid_step, fixed) for s in range(n_pairs))
        print(f"\n# weighted SVM ensemble, synthetic {kind}, {n_pairs} pairs, {label} "
              f"({time.perf_counter() - t0:.0f} s)")
        for weighted in (True, False):
            mean = {k: np.mean([r[weighted][k] for r in runs]) for k in runs[0][weighted]}
            name = "weighted" if weighted else "unweighted"
            paper = f"Table I (weighted): {TABLE_I[kind][0]} %, MAE {TABLE_I[kind][1]}" \
                if weighted else "(no paper number for the unweighted ensemble)"
            print(f"{name:>10}: acc {mean['acc']:.2f} % MAE {mean['mae']:.3f}   {paper}")
            print(f"{'':>10}  rank 1 usual: sens {mean['sens_usual']:.3f} spec "
                  f"{mean['spec_usual']:.3f}; printed eq. 13/14: sens {mean['sens_eq13']:.3f} "
                  f"spec {mean['spec_eq14']:.3f}   Table III MCOSvm: 3clusters "
                  f"{TABLE_III['3clusters']}, 4clusters {TABLE_III['4clusters']}")


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
    parser.add_argument("--grid-step", type=float, default=2.0)
    parser.add_argument("--skip-svm", action="store_true")
    parser.add_argument("--skip-circle", action="store_true")
    args = parser.parse_args(argv)
    pairs, reps = (3, 2) if args.quick else (20, 10)
    if not args.skip_circle:
        circle_tables(reps, args.n_jobs)
    if not args.skip_svm:
        svm_tables(pairs, args.grid_step, True, args.n_jobs)
        svm_tables(pairs, args.grid_step, False, args.n_jobs)


if __name__ == "__main__":
    main()
