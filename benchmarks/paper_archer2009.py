"""The simulation experiment of Archer & Mas (2009), section 5, Tables I-II, beside the paper.

One simulated learning set (5 classes x 20 units, ``make_archer_simulation``), B = 100
bootstrap samples shared by the five criteria, unpruned trees (minsplit 5, cp 0); each tree's
out-of-bag misclassification and gamma; Friedman's test over the criteria and pairwise Wilcoxon
signed-rank tests (unadjusted p, as the paper's tables; Holm-adjusted p printed too).

Run: ``python -m benchmarks.paper_archer2009 [--B 100] [--seed 2009] [--replicates 1]``.
Not timed, and nothing is tuned toward the paper: the covariance of (X1, X2) and the law of X8
were lost from the paper's text (see ``make_archer_simulation``).
"""

from __future__ import annotations

import argparse

import numpy as np

from ordstat.datasets import make_archer_simulation
from ordstat.reproduce import bagged_criteria_oob
from ordstat.reproduce._ordinal import ARCHER_PAIRWISE_P
from ordstat.model_selection import compare_methods

ORDER = ["Gini", "Linear cost", "Quadratic cost", "Ordinal", "Ordered Twoing"]
PAPER = ARCHER_PAIRWISE_P


def _table(comparison, metric):
    pw = comparison.pairwise
    lookup = {}
    for _, row in pw.iterrows():
        lookup[(row.method_a, row.method_b)] = lookup[(row.method_b, row.method_a)] = row
    head = f"{'':16s}" + "".join(f"{c:>24s}" for c in ORDER[1:])
    lines = [head, f"{'':16s}" + "".join(f"{'ours (Holm) | paper':>24s}" for _ in ORDER[1:])]
    for i, a in enumerate(ORDER[:-1]):
        cells = []
        for j, b in enumerate(ORDER[1:], start=1):
            if j <= i:
                cells.append(f"{'':>24s}")
                continue
            r = lookup[(a, b)]
            cells.append(f"{r.p_value:>8.2g} ({r.p_holm:.2g}) | {PAPER[metric][(a, b)]:>7s}")
        lines.append(f"{a:16s}" + "".join(f"{c:>24s}" for c in cells))
    return "\n".join(lines)


def run(B=100, seed=2009, n_per_class=20, n_jobs=None, verbose=True):
    X, y = make_archer_simulation(n_per_class=n_per_class, random_state=seed)
    results, _ = bagged_criteria_oob(X, y, n_estimators=B, random_state=seed + 1,
                                     n_jobs=n_jobs)
    out = {}
    for metric, title, paper_note in (
            ("misclassification", "Table I: per-tree OOB misclassification",
             "paper: Friedman P < 0.0001; ordinal and twoing better than the Gini family"),
            ("gamma", "Table II: per-tree OOB gamma",
             "paper: Friedman P < 0.0001; ordinal and twoing higher")):
        sub = results[results.metric == metric]
        med = sub.groupby("method")["value"].median().reindex(ORDER)
        comp = compare_methods(results, metric)
        out[metric] = (comp, med)
        if verbose:
            print(f"\n{title} (B = {B}, seed {seed})")
            print("median per tree: " + ", ".join(f"{m} {v:.3f}" for m, v in med.items()))
            print(f"Friedman chi-squared = {comp.friedman_statistic:.3f}, "
                  f"p = {comp.friedman_pvalue:.3g}   ({paper_note})")
            print(_table(comp, metric))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--B", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2009)
    parser.add_argument("--replicates", type=int, default=1,
                        help="repeat with seeds seed, seed+10, ... and summarise Friedman p")
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args(argv)
    pvals, ranks = [], {"misclassification": [], "gamma": []}
    for r in range(args.replicates):
        verbose = r == 0
        res = run(args.B, args.seed + 10 * r, n_jobs=args.jobs, verbose=verbose)
        pvals.append([res[m][0].friedman_pvalue for m in ("misclassification", "gamma")])
        for m in ranks:
            ranks[m].append(res[m][0].mean_ranks.reindex(ORDER))
    if args.replicates > 1:
        p = np.array(pvals)
        print(f"\nFriedman p over {args.replicates} simulated data sets: "
              f"misclassification median {np.median(p[:, 0]):.3g}, "
              f"share < 0.05: {np.mean(p[:, 0] < 0.05):.2f}; "
              f"gamma median {np.median(p[:, 1]):.3g}, share < 0.05: {np.mean(p[:, 1] < 0.05):.2f}")
        for m, rows in ranks.items():
            mean = np.mean(rows, axis=0)
            print(f"mean rank over data sets ({m}, 1 = best): " + ", ".join(
                f"{c} {v:.2f}" for c, v in zip(ORDER, mean)))


if __name__ == "__main__":
    main()
