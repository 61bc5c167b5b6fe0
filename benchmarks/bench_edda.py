"""EDDA against R's mclust 6.0.0, in the same run.

- fit_all14: fitting the 14 covariance models (ours: ``EDDA(model="all", select="bic")``;
  mclust: ``MclustDA(X, class, modelType = "EDDA")``, which fits all 14 and selects by BIC);
- loo_all14: the leave-one-out error of every model (ours: ``EDDA(model="all", select="loo")``,
  fit + exact LOO of the 14 models; mclust: ``cvMclustDA(fit, nfold = n)`` for each model).
  On the simulated data mclust's n refits per model take too long: its time is that of the same
  refit-and-predict loop over a few folds per model, extrapolated linearly to n folds (the name
  says how many folds were timed).

Data: iris (n = 150, d = 4, K = 3) and a simulated Gaussian sample with class-specific
covariances (n = 5000, d = 10, K = 4; n = 1000 with --quick).
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.datasets import load_iris

from benchmarks._harness import best_time, report
from ordstat.gaussian import EDDA


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


def _bench(name, X, y, *, full_loo, folds=None, repeat=3):
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
    ours = best_time(ours_loo, repeat)
    if full_loo:
        peer = best_time(lambda: ro.r(_R_LOO_FULL), 1)
        report(f"loo_all14_{name}", ours, peer)
    else:
        peer = best_time(lambda: ro.r(_R_LOO_FOLDS.replace("{folds}", str(folds))), 1)
        report(f"loo_all14_{name}_mclust_{folds}_of_{n}_folds_x{n / folds:g}", ours,
               peer * n / folds)


def run(quick: bool = False):
    X, y = load_iris(return_X_y=True)
    _bench("iris", X, y, full_loo=True, repeat=1 if quick else 3)
    n = 1000 if quick else 5000
    X, y = simulate(n, 10, 4)
    _bench(f"sim{n}_d10_K4", X, y, full_loo=False, folds=3 if quick else 10,
           repeat=1 if quick else 2)
