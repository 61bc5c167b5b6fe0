"""EDDA against R's mclust 6.0.0, in the same run.

- fit_all14: fitting the 14 covariance models (ours: ``EDDA(model="all", select="bic")``;
  mclust: ``MclustDA(X, class, modelType = "EDDA")``, which fits all 14 and selects by BIC);
- loo_all14: the leave-one-out error of every model (ours: ``EDDA(model="all", select="loo")``,
  fit + exact LOO of the 14 models; mclust: ``cvMclustDA(fit, nfold = n)`` for each model).
  On the simulated data mclust's n refits per model take too long: its time is that of the same
  refit-and-predict loop over a few folds per model, extrapolated linearly to n folds (the name
  says how many folds were timed);
- loo_warm_vs_cold: for each iterative model (VEI, VEE, VEV, EVE, VVE), fit + leave-one-out
  with the refits warm-started from the full-data solution (the default) over the same with
  refits from scratch (``ordstat.gaussian._loo.cold_refits``, what the leave-one-out did
  before the warm starts); the two must give the same leave-one-out error, printed beside.

Data: iris (n = 150, d = 4, K = 3), thyroid (n = 215, d = 5, K = 3, the data set of
Brito et al. 2006), a simulated Gaussian sample with class-specific covariances (n = 5000,
d = 10, K = 4; n = 1000 with --quick) and, without --quick, one with many classes
(n = 1000, d = 5, K = 20), where the common-orientation models' refits from scratch were slow.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.datasets import load_iris

from benchmarks._harness import best_time, report
from ordstat.gaussian import EDDA
from ordstat.gaussian._loo import cold_refits


def simulate(n, d, K, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, size=n)
    X = np.empty((n, d))
    for k in range(K):
        A = rng.normal(size=(d, d)) / np.sqrt(d) + np.eye(d) * (0.5 + 0.3 * k)
        idx = y == k
        X[idx] = rng.normal(size=(idx.sum(), d)) @ A + rng.normal(size=d)
    return X, y


def _r():
    from rpy2 import robjects as ro

    ro.r("suppressMessages(library(mclust))")
    return ro


def _to_r(X, y):
    from rpy2.robjects import default_converter, numpy2ri
    from rpy2.robjects.conversion import localconverter

    ro = _r()
    with localconverter(default_converter + numpy2ri.converter):
        ro.globalenv["X"] = np.asarray(X, dtype=float)
        ro.globalenv["cl_int"] = np.asarray(y, dtype=np.int32)
    ro.r("cl <- factor(cl_int)")


_R_LOO_FULL = """
for (m in mclust.options("emModelNames")) {
  f <- MclustDA(X, cl, modelType = "EDDA", modelNames = m, verbose = FALSE)
  invisible(cvMclustDA(f, nfold = nrow(X), verbose = FALSE))
}
"""

# The work of cvMclustDA(nfold = n) per fold, for the first `folds` units: refit without the
# unit, predict it.
_R_LOO_FOLDS = """
for (m in mclust.options("emModelNames")) {
  for (i in seq_len({folds})) {
    f <- MclustDA(X[-i, , drop = FALSE], cl[-i], modelType = "EDDA", modelNames = m,
                  verbose = FALSE)
    invisible(predict(f, X[i, , drop = FALSE])$classification)
  }
}
"""


def _bench(name, X, y, *, full_loo, folds=None, repeat=3, loo_repeat=None):
    ro = _r()
    _to_r(X, y)
    n = len(y)

    def ours_fit():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            EDDA(model="all", select="bic").fit(X, y)

    def ours_loo():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            EDDA(model="all", select="loo").fit(X, y)

    def peer_fit():
        ro.r('invisible(MclustDA(X, cl, modelType = "EDDA", verbose = FALSE))')

    ours_fit(), peer_fit()  # warm-up: imports and first-call set-up on both sides
    ours = best_time(ours_fit, repeat)
    peer = best_time(peer_fit, repeat)
    report(f"fit_all14_{name}", ours, peer)
    ours = best_time(ours_loo, repeat if loo_repeat is None else loo_repeat)
    if full_loo:
        peer = best_time(lambda: ro.r(_R_LOO_FULL), 1)
        report(f"loo_all14_{name}", ours, peer)
    else:
        peer = best_time(lambda: ro.r(_R_LOO_FOLDS.replace("{folds}", str(folds))), 1)
        report(f"loo_all14_{name}_mclust_{folds}_of_{n}_folds_x{n / folds:g}", ours,
               peer * n / folds)


def _thyroid():
    from ordstat.reproduce._gaussian import PAPER_EDDA, _load

    data, why = _load(PAPER_EDDA["thyroid"][0])
    if data is None:
        print(f"thyroid: not run ({why})")
        return None
    return np.asarray(data[0], dtype=float), np.unique(np.asarray(data[1]), return_inverse=True)[1]


def _warm_vs_cold(name, X, y, models=("VEI", "VEE", "VEV", "EVE", "VVE"), repeat=3,
                  cold_repeat=None):
    """Fit + leave-one-out of each iterative model, warm-started against refits from scratch."""
    for m in models:
        errors = {}

        def loo(cold):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                clf = EDDA(model=m).fit(X, y)
                if cold:
                    with cold_refits():
                        errors[cold] = clf.loo_error(X, y)
                else:
                    errors[cold] = clf.loo_error(X, y)

        warm_s = best_time(lambda: loo(False), repeat)
        cold_s = best_time(lambda: loo(True), repeat if cold_repeat is None else cold_repeat)
        line = report(f"loo_warm_vs_cold_{m}_{name}", warm_s, cold_s)
        print(f"  {line.split(':')[0]} errors: warm {errors[False]:.4f} cold {errors[True]:.4f}",
              flush=True)


def run(quick: bool = False):
    X, y = load_iris(return_X_y=True)
    _bench("iris", X, y, full_loo=True, repeat=1 if quick else 3)
    data = _thyroid()
    if data is not None:
        _bench("thyroid", *data, full_loo=True, repeat=1 if quick else 3)
        _warm_vs_cold("thyroid", *data, repeat=1 if quick else 3)
    n = 1000 if quick else 5000
    X, y = simulate(n, 10, 4)
    _bench(f"sim{n}_d10_K4", X, y, full_loo=False, folds=3 if quick else 10,
           repeat=1 if quick else 3, loo_repeat=1)
    if not quick:
        X, y = simulate(1000, 5, 20)
        _bench("sim1000_d5_K20", X, y, full_loo=False, folds=2, repeat=1, loo_repeat=1)
        _warm_vs_cold("sim1000_d5_K20", X, y, repeat=1)
