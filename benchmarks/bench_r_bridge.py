"""Overhead of the R routes over calling Python directly (n = 10,000; --quick: 2,000).

- ``r_ordinal_tree_fit`` / ``r_ordinal_tree_predict``: the R package's ``ordinal_tree()`` and
  ``predict()`` (model frame, factors passed as codes/levels, reticulate calls, the tree kept as
  an rpart object) against ``OrdinalTreeClassifier.fit`` / ``predict`` on the same data already
  in Python, timed inside Python. Both run in one R session (Rscript, the .venv-r Python), so
  the numpy/pandas versions are the same on both sides.
- ``rpy2_rpart_ordinal_split_fit``: R's own ``rpart`` with the ``ordinal_split`` user method
  (R callbacks; ordstat.r.rpart, including the data conversion) against ``OrdinalTreeClassifier``
  in this process, same controls and the same tree.
- ``rpy2_to_rpart``: exporting the fitted tree to R, against its fit.

Ratios are ours / peer = R route / Python; above 1 is the price of the R route.
Needs ``make venv-r rpkg`` for the first two lines (skipped with a message otherwise).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from benchmarks._harness import best_time, report

ROOT = Path(__file__).resolve().parents[1]
CONTROLS = dict(min_split=20, min_bucket=7, cp=0.01, max_depth=30)

R_SCRIPT = r"""
suppressPackageStartupMessages(library(ordstat))
args <- commandArgs(trailingOnly = TRUE)
n <- as.integer(args[1]); repeat_ <- as.integer(args[2])
set.seed(1)
d <- data.frame(x1 = stats::rnorm(n), x2 = stats::runif(n), x3 = stats::rnorm(n),
                g = factor(sample(c("a", "b", "c"), n, TRUE)))
z <- d$x1 + 2 * d$x2 + (d$g == "b") + stats::rnorm(n, sd = 0.5)
d$y <- cut(z, c(-Inf, 0, 1, 2, Inf), labels = c("none", "mild", "severe", "very severe"),
           ordered_result = TRUE)
best <- function(expr_fn) min(replicate(repeat_, system.time(expr_fn())[["elapsed"]]))
# warm-up: starting Python and importing ordstat happen once per session, not per fit
fit <- ordinal_tree(y ~ ., d[1:200, ], min_split = 20L, xval = 0L)
invisible(predict(fit, d[1:200, ]))
r_fit <- best(function() fit <<- ordinal_tree(y ~ ., d, min_split = 20L, min_bucket = 7L,
                                               cp = 0.01, xval = 0L))
r_pred <- best(function() predict(fit, d))
# Python directly, on the same data already in Python, timed inside Python
X <- ordstat:::py_frame(d[c("x1", "x2", "x3", "g")])
y <- ordstat:::rside()$factor(as.array(as.integer(d$y) - 1L), as.list(levels(d$y)), TRUE)
main <- reticulate::py_run_string(sprintf('
import time
from ordstat.trees import OrdinalTreeClassifier
def _best(fn, r=%d):
    b = float("inf")
    for _ in range(r):
        t = time.perf_counter(); fn(); b = min(b, time.perf_counter() - t)
    return b
', repeat_), convert = FALSE)
main$X <- X; main$y <- y
reticulate::py_run_string('
tree = OrdinalTreeClassifier(min_split=20, min_bucket=7, cp=0.01, xval=0)
py_fit = _best(lambda: tree.fit(X, y))
py_pred = _best(lambda: tree.predict(X))
', convert = FALSE)
py_fit <- reticulate::py_to_r(main$py_fit); py_pred <- reticulate::py_to_r(main$py_pred)
cat(sprintf("RESULT r_ordinal_tree_fit %.6f %.6f\n", r_fit, py_fit))
cat(sprintf("RESULT r_ordinal_tree_predict %.6f %.6f\n", r_pred, py_pred))
"""


def _data(n, seed=1):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"x1": rng.normal(size=n), "x2": rng.uniform(size=n),
                       "x3": rng.normal(size=n),
                       "g": pd.Categorical(rng.choice(["a", "b", "c"], n))})
    z = df["x1"] + 2 * df["x2"] + (df["g"] == "b") + rng.normal(scale=0.5, size=n)
    df["y"] = pd.Categorical.from_codes(np.digitize(z, [0, 1, 2]),
                                        categories=["none", "mild", "severe", "very severe"],
                                        ordered=True)
    return df


def _r_route(n, repeat):
    python = ROOT / ".venv-r" / "bin" / "python"
    rlib = ROOT / ".rlib"
    if not python.exists() or not (rlib / "ordstat").exists():
        print("# r_ordinal_tree: skipped (run `make venv-r rpkg` first)", flush=True)
        return
    with tempfile.NamedTemporaryFile("w", suffix=".R", delete=False) as fh:
        fh.write(R_SCRIPT)
    env = dict(os.environ, R_LIBS=str(rlib), ORDSTAT_PYTHON=str(python))
    try:
        out = subprocess.run(["Rscript", fh.name, str(n), str(repeat)], env=env, cwd=ROOT,
                             capture_output=True, text=True, check=False)
    finally:
        os.unlink(fh.name)
    lines = [ln.split() for ln in out.stdout.splitlines() if ln.startswith("RESULT ")]
    if out.returncode != 0 or not lines:
        print(f"# r_ordinal_tree: the R script failed:\n{out.stderr[-2000:]}", flush=True)
        return
    for _, name, ours, peer in lines:
        report(name, float(ours), float(peer))


def _rpy2_route(n, repeat):
    import ordstat.r
    from ordstat.trees import OrdinalTreeClassifier

    df = _data(n)
    X = df.drop(columns="y")
    tree = OrdinalTreeClassifier(xval=0, **CONTROLS)
    tree.fit(X, df["y"])  # warm-up (imports, first R call)
    ordstat.r.rpart("y ~ x1", df.iloc[:100], "ordinal", xval=0)
    py_fit = best_time(lambda: tree.fit(X, df["y"]), repeat)
    r_fit = best_time(lambda: ordstat.r.rpart(
        "y ~ .", df, "ordinal", minsplit=20, minbucket=7, cp=0.01, maxdepth=30, xval=0,
        maxcompete=0, maxsurrogate=0), repeat)
    report("rpy2_rpart_ordinal_split_fit", r_fit, py_fit)
    export = best_time(lambda: ordstat.r.to_rpart(tree, X), repeat)
    report("rpy2_to_rpart", export, py_fit)


def run(quick: bool = False):
    n = 2_000 if quick else 10_000
    repeat = 1 if quick else 3
    _r_route(n, repeat)
    _rpy2_route(n, repeat)
