"""Hierarchical coupling of the 14 EDDA models on crabs (Brito et al. 2006, Table 8).

Data: R's MASS::crabs through rpy2 (n = 200; FL, RW, CL, CW, BD; K = 4 groups species x sex,
so 7 bipartitions at the root). Lines (ratio = first / second, measured in this run):

- coupling_vs_serial: ``HierarchicalCoupling(14 EDDA, partition="cv", cv="loo")`` against a
  serial combination of the same 14 models (``SerialCombiner(method="committee")``) on the
  same data (the paper reports about 5x);
- coupling_exact_vs_refits: the same search with the exact leave-one-out down-dates against
  plain leave-one-out refits (``cv=LeaveOneOut()``); with --quick both use 4 models only.

Also prints our tree and its error beside the paper's Table 8 (ME .045; [lambda D A D'] for
species, [lambda D_k A D_k'] for blue males/females, [lambda D A_k D'] for orange).
"""

from __future__ import annotations

import warnings

from sklearn.model_selection import LeaveOneOut

from benchmarks._harness import best_time, report
from ordstat.combine.hierarchical import HierarchicalCoupling
from ordstat.gaussian import EDDA, MODELS


def load_crabs():
    from rpy2 import robjects as ro

    from ordstat.r import to_py

    frame = to_py(ro.r("local({data(crabs, package = 'MASS', envir = environment()); crabs})"))
    X = frame[["FL", "RW", "CL", "CW", "BD"]].to_numpy(dtype=float)
    y = (frame["sp"].astype(str) + frame["sex"].astype(str)).to_numpy()
    return X, y


def run(quick: bool = False):
    X, y = load_crabs()
    models = ["EII", "VII", "EEE", "VVV"] if quick else list(MODELS)
    cands = [EDDA(model=m) for m in models]

    def coupling(cv="loo"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return HierarchicalCoupling(cands, cv=cv).fit(X, y)

    hc = coupling()
    print(f"crabs, {len(models)} EDDA models, LOO: tree error {hc.cv_error_:.3f} "
          "(paper, Table 8: .045)")
    print(hc)
    t_exact = best_time(coupling, repeat=1 if not quick else 2)

    try:
        from ordstat.combine.serial import SerialCombiner
    except ImportError:
        print("coupling_vs_serial: ordstat.combine.serial is missing (serial combining not "
              "merged yet); not measured")
    else:
        def serial():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return SerialCombiner(cands, method="committee").fit(X, y)

        report("coupling_vs_serial", t_exact, best_time(serial, repeat=1))

    t_refit = best_time(lambda: coupling(LeaveOneOut()), repeat=1)
    report("coupling_exact_vs_refits", t_exact, t_refit)


if __name__ == "__main__":
    import sys

    run(quick="--quick" in sys.argv)
