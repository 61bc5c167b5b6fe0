"""Trees with missing predictor values (20% of each feature missing completely at random).

Timed in the same run (full tree, cp = 0, min_split = 5, no cross-validation, Gini):

- scikit-learn's ``DecisionTreeClassifier(min_samples_split=5)``, which also learns the side
  of missing values (scikit-learn >= 1.3);
- R's ``rpart`` with its default surrogate splits (``maxsurrogate = 5``, ``usesurrogate = 2``),
  through rpy2, timing only the R call;
- our own tree on the same data without missing values (the cost of the second search).

Then rpart's surrogate splits in our tree (``missing="surrogate"``, grown in numpy) against
rpart and against our learned side, with rpart's default controls (cp = 0.01, minsplit = 20),
at the sizes of airquality (n = 153, p = 5), BreastCancer (n = 699, p = 9) and n = 10^4, p = 10
(:func:`surrogate_timings`).

Then the test misclassification of a pruned ordinal tree (cp = 0.01) that learns the sides,
against rpart with surrogates and against our tree fitted on the complete rows only (rows with
a missing value dropped at fitting; at prediction the majority rule), on correlated features
where surrogates have something to use. Lines: ``name: ours peer ratio`` (seconds, or errors).
"""

from __future__ import annotations

import numpy as np

from benchmarks._harness import compare, report
from ordstat.trees import OrdinalTreeClassifier


def _data(n, p, k=4, seed=0, rate=0.2, rho=0.0):
    rng = np.random.default_rng(seed)
    common = rng.normal(size=(n, 1))
    X = np.sqrt(rho) * common + np.sqrt(1 - rho) * rng.normal(size=(n, p))
    signal = X[:, : min(3, p)].sum(axis=1) + rng.normal(size=n)
    y = np.digitize(signal, np.quantile(signal, np.linspace(0, 1, k + 1)[1:-1]))
    Xm = X.copy()
    Xm[rng.random(X.shape) < rate] = np.nan
    return X, Xm, y


def _ours(X, y, **kw):
    params = dict(criterion="gini", cp=0.0, min_split=5, xval=0)
    params.update(kw)
    return lambda: OrdinalTreeClassifier(**params).fit(X, y)


def _sklearn(X, y):
    from sklearn.tree import DecisionTreeClassifier

    return lambda: DecisionTreeClassifier(min_samples_split=5, random_state=0).fit(X, y)


def _rpart(X, y, cp=0.0, X_test=None, minsplit=5):
    """A callable fitting rpart (surrogates on) on data already in R, or None without R;
    with ``X_test``, the callable returns the predicted class codes of X_test."""
    try:
        import pandas as pd
        from rpy2 import robjects as ro
        from rpy2.robjects import default_converter, pandas2ri
        from rpy2.robjects.conversion import localconverter
        ro.r("suppressWarnings(library(rpart))")
    except Exception as exc:  # noqa: BLE001 - any failure means "no R peer"
        print(f"# rpart skipped: {exc}", flush=True)
        return None
    names = [f"x{j}" for j in range(X.shape[1])]
    df = pd.DataFrame(X, columns=names)
    df["y"] = pd.Categorical(y.astype(str))
    test = pd.DataFrame(X if X_test is None else X_test, columns=names)
    with localconverter(default_converter + pandas2ri.converter):
        rdf = ro.conversion.get_conversion().py2rpy(df)
        rtest = ro.conversion.get_conversion().py2rpy(test)
    fit = ro.r(
        f"function(d, newdata, predict_too) {{ f <- rpart::rpart(y ~ ., data = d, "
        f"method = 'class', control = rpart::rpart.control(cp = {cp}, minsplit = {minsplit}, "
        "xval = 0, maxcompete = 0)); "
        "if (predict_too) as.integer(as.character(predict(f, newdata, type = 'class'))) "
        "else f }"
    )
    if X_test is None:
        return lambda: fit(rdf, rtest, False)
    return lambda: np.asarray(fit(rdf, rtest, True))


def surrogate_timings(quick: bool = False):
    """Our tree with rpart's surrogates against rpart (surrogates on, maxcompete = 0) and
    against our learned side, rpart's default controls (cp = 0.01, minsplit = 20), Gini,
    20% missing on correlated features (rho = 0.5)."""
    sizes = [(153, 5), (699, 9)] + ([] if quick else [(10_000, 10)])
    repeat = 1 if quick else 3
    for n, p in sizes:
        _, Xm, y = _data(n, p, rho=0.5)
        tag = f"n{n}_p{p}_K4_missing20"
        sur = _ours(Xm, y, cp=0.01, min_split=20, missing="surrogate")
        r_fit = _rpart(Xm, y, cp=0.01, minsplit=20)
        if r_fit is not None:
            compare(f"trees_surrogates_vs_rpart_{tag}", sur, r_fit, repeat)
        compare(f"trees_surrogates_vs_our_learned_side_{tag}", sur,
                _ours(Xm, y, cp=0.01, min_split=20), repeat)


def run(quick: bool = False):
    surrogate_timings(quick)
    sizes = [(5_000, 10)] if quick else [(10_000, 10), (100_000, 10)]
    repeat = 1 if quick else 3
    _, warm, warm_y = _data(500, 3)
    _ours(warm, warm_y)()  # load (or compile once) the numba kernels
    for n, p in sizes:
        X, Xm, y = _data(n, p)
        tag = f"n{n}_p{p}_K4_missing20"
        compare(f"trees_missing_vs_sklearn_{tag}", _ours(Xm, y), _sklearn(Xm, y), repeat)
        r_fit = _rpart(Xm, y)
        if r_fit is not None:
            compare(f"trees_missing_vs_rpart_surrogates_{tag}", _ours(Xm, y), r_fit, repeat)
        compare(f"trees_missing_vs_our_complete_data_{tag}", _ours(Xm, y), _ours(X, y),
                repeat)
    # accuracy on correlated features (rho = 0.5), 2000 units to learn, 10000 to test
    n_train, n_test = (1_000, 5_000) if quick else (2_000, 10_000)
    for rate in (0.1, 0.3):
        errs = {"learned": [], "rpart": [], "complete": []}
        for seed in range(3 if quick else 10):
            _, Xm, y = _data(n_train + n_test, 5, seed=seed, rate=rate, rho=0.5)
            tr, te = slice(0, n_train), slice(n_train, None)
            ours = _ours(Xm[tr], y[tr], cp=0.01, min_split=20)()
            errs["learned"].append(np.mean(ours.predict(Xm[te]) != y[te]))
            keep = ~np.isnan(Xm[tr]).any(axis=1)
            cc = _ours(Xm[tr][keep], y[tr][keep], cp=0.01, min_split=20)()
            errs["complete"].append(np.mean(cc.predict(Xm[te]) != y[te]))
            r_pred = _rpart(Xm[tr], y[tr], cp=0.01, X_test=Xm[te])
            if r_pred is not None:
                errs["rpart"].append(np.mean(r_pred() != y[te]))
        tag = f"rho0.5_missing{int(rate * 100)}"
        if errs["rpart"]:
            report(f"trees_missing_error_vs_rpart_surrogates_{tag}", np.mean(errs["learned"]),
                   np.mean(errs["rpart"]))
        report(f"trees_missing_error_vs_complete_rows_{tag}", np.mean(errs["learned"]),
               np.mean(errs["complete"]))
    print("# error lines: mean test misclassification (ours, peer, ratio); cp = 0.01, "
          "min_split = 20, Gini, K = 4", flush=True)
