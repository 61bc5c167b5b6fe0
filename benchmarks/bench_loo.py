"""Leave-one-out through ``evaluate(scheme="loo")``: pooled errors beside the papers', and cost.

- Paper numbers: the leave-one-out error of the EDDA model that Brito, Celeux & Sousa Ferreira
  (2006), "Combining methods in supervised classification: a comparative study on discrete and
  continuous problems", report (Tables 4 and 8), printed beside the pooled misclassification of
  ``evaluate`` (n refits) and beside EDDA's exact leave-one-out error (down-dates, no refit).
- Timing: ``evaluate_loo_vs_exact``: ``evaluate`` (n refits, pooled, warnings collected) over
  ``EDDA.loo_error`` (exact down-dates) on the same data; ``evaluate_loo_vs_loop``: ``evaluate``
  over a plain loop of n clone/fit/predict calls (the overhead of evaluate's bookkeeping).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import clone

from benchmarks._harness import best_time, report
from ordstat.gaussian import EDDA
from ordstat.model_selection import evaluate
from ordstat.reproduce._gaussian import PAPER_EDDA, _load


def _plain_loop(est, X, y):
    pred = np.empty_like(y)
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        pred[i] = clone(est).fit(X[keep], y[keep]).predict(X[i:i + 1])[0]
    return np.mean(pred != y)


def run(quick=False):
    names = ("iris", "thyroid") if quick else ("iris", "crabs", "thyroid", "haemophilia")
    for name in names:
        loader, model, paper = PAPER_EDDA[name]
        data, why = _load(loader)
        if data is None:
            print(f"{name}: not run ({why})")
            continue
        X, y = np.asarray(data[0], dtype=float), np.asarray(data[1])
        y = np.unique(y, return_inverse=True)[1]  # nominal groups: any order will do
        est = EDDA(model=model)
        res = evaluate({"edda": est}, X, y, scheme="loo", metrics=["misclassification"],
                       progress=False)
        pooled = res["value"].item()
        exact = est.fit(X, y).loo_error(X, y)
        print(f"{name} EDDA {model}: paper {paper:.4f}  evaluate(loo) {pooled:.4f}  "
              f"exact down-dates {exact:.4f}")
        t_eval = best_time(lambda: evaluate({"edda": est}, X, y, scheme="loo",
                                            metrics=["misclassification"], progress=False), 1)
        t_exact = best_time(lambda: EDDA(model=model).fit(X, y).loo_error(X, y), 3)
        t_loop = best_time(lambda: _plain_loop(est, X, y), 1)
        report(f"{name}_evaluate_loo_vs_exact", t_eval, t_exact)
        report(f"{name}_evaluate_loo_vs_loop", t_eval, t_loop)


if __name__ == "__main__":
    import sys

    run(quick="--quick" in sys.argv)
