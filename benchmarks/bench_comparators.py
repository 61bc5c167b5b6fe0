"""Our methods beside peers on the papers' data (numbers printed beside the published ones).

1. Proportional odds: ``ProportionalOddsClassifier`` against mord's ``LogisticAT`` (alpha=0, the
   same model) and R's ``MASS::polr`` (through rpy2, conversion included) on the wine
   bitterness data (R package ordinal), coefficients side by side with the estimates printed in
   the ordinal package's documentation (clm, rating ~ temp + contact); then fit times on a
   simulated set (n = 5000, p = 5; --quick: n = 1000). mord's ``LogisticIT`` (a different model,
   immediate thresholds) is shown for reference.
2. Waegeman & Boullart (2006), "An ensemble of weighted support vector machines for ordinal
   regression", Tables I-III: the weighted-SVM ensemble (``WeightedSVMEnsemble``, when the
   decomposition module is available) against SVORIM (skordinal's SVOR, implicit
   constraints) on synthetic set 1 (train 400 / test 400) and Boston housing in 5
   equal-frequency ranks (train 300 / test 206, as in Chu & Keerthi), 20 random partitions
   (--quick: 3). Both use the RBF kernel with C and gamma chosen on each training set by
   5-fold stratified cross-validated misclassification over the same coarse grid (the paper:
   a finer grid, -5 <= log2 C <= 10, -10 <= log2 gamma <= 5); inputs standardised on the
   training set. Printed: accuracy, MAE, sensitivity/specificity of rank 1 (eq. 13-14 as
   printed, "predicted" denominators) and fit time at the chosen parameters.

3. The dissertation "Ensemble methods for ordinal data classification", Table 4.2 (10 times
   10-fold cross-validation): the C4.5 and Frank & Hall columns beside scikit-learn's entropy
   CART (stand-in for C4.5; min_samples_leaf=2 like J48's minNumObj, no C4.5 pruning) and
   skordinal's Frank & Hall with those trees, on ERA, ESL, LEV, SWD and balance-scale (--quick:
   2 x 10-fold), with the corrected resampled t-test between the two (as the paper's tables).

Lines ``name: ours_s peer_s ratio`` are fit times (ratio = ours / peer).
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd

from benchmarks._harness import best_time, report

# ordinal package (Christensen), clm(rating ~ temp + contact, data = wine): published estimates
CLM_WINE = {"temp": 2.5031, "contact": 1.5278,
            "thresholds": [-1.3444, 1.2508, 3.4669, 5.0064]}

# Waegeman & Boullart (2006), Tables I-III: (MCOSvm, SVORIM)
PAPER = {"synthetic1": {"acc": (91.25, 90.95), "mae": (0.092, 0.093)},
         "boston": {"acc": (66.52, 67.44), "mae": (0.38, 0.35),
                    "sens1": (0.80, 0.75), "spec1": (0.95, 0.96)}}


def _fmt(values):
    return " ".join(f"{v:8.4f}" for v in values)


# ------------------------------------------------------------------ 1. proportional odds

def _polr_peers():
    peers = {}
    try:
        import mord

        peers["mord LogisticAT"] = lambda: mord.LogisticAT(alpha=0.0)
        peers["mord LogisticIT"] = lambda: mord.LogisticIT(alpha=0.0)
    except ImportError:
        print("mord not installed (pip install mord): skipped")
    try:
        from ordstat.cli._peer_estimators import MassPolr, _r_polr

        _r_polr()
        peers["MASS::polr"] = MassPolr
    except ImportError as exc:
        print(f"MASS::polr skipped: {exc}")
    return peers


def _coefficients(est):
    if hasattr(est, "thresholds_"):  # ours and MassPolr
        return np.asarray(est.coef_), np.asarray(est.thresholds_)
    return np.asarray(est.coef_), np.asarray(est.theta_)  # mord


def run_polr(quick):
    from ordstat import ProportionalOddsClassifier

    peers = _polr_peers()
    print("## proportional odds: wine (rating ~ temp + contact), coefficients and thresholds")
    try:
        from ordstat.datasets import load_wine

        X, y = load_wine(return_X_y=True)
        codes = y.cat.codes.to_numpy()
        print(f"{'published (ordinal::clm)':28s} {_fmt([CLM_WINE['temp'], CLM_WINE['contact']])}"
              f" | {_fmt(CLM_WINE['thresholds'])}")
        fits = {"ordstat ProportionalOdds": ProportionalOddsClassifier()}
        fits.update({name: make() for name, make in peers.items()})
        for name, est in fits.items():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est.fit(X.to_numpy(), codes)
            coef, thr = _coefficients(est)
            print(f"{name:28s} {_fmt(coef)} | {_fmt(thr)}")
    except ImportError as exc:
        print(f"wine data not available ({exc})")

    n = 1000 if quick else 5000
    rng = np.random.default_rng(0)
    Xs = rng.normal(size=(n, 5))
    latent = Xs @ np.array([1.0, -0.5, 0.25, 0.0, 0.75]) + rng.logistic(size=n)
    ys = np.digitize(latent, [-1.5, -0.3, 0.6, 1.8])
    print(f"## proportional odds fit time, simulated n={n}, p=5, K=5")
    ours = ProportionalOddsClassifier()
    ours_s = best_time(lambda: ours.fit(Xs, ys), repeat=3)
    for name, make in peers.items():
        if name == "mord LogisticIT":
            continue
        peer = make()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            peer_s = best_time(lambda: peer.fit(Xs, ys), repeat=3)
        gap = np.max(np.abs(_coefficients(ours)[0] - _coefficients(peer)[0]))
        report(f"polr fit n={n} vs {name} (max |coef diff| {gap:.1e})", ours_s, peer_s)


# ------------------------------------------------------------------ 2. weighted SVMs vs SVORIM

def _synthetic1(seed):
    """Waegeman & Boullart's synthetic set 1: 4 x 100 points, means (10,10), (20,10), (20,20),
    (30,20), sd 3, correlation 0, ranks 0..3."""
    try:
        from ordstat.datasets._generators import make_waegeman_synthetic

        X, y = make_waegeman_synthetic(kind=1, random_state=seed)
        return X, np.asarray(y) - np.min(y)
    except ImportError:
        rng = np.random.default_rng(seed)
        means = [(10, 10), (20, 10), (20, 20), (30, 20)]
        X = np.vstack([rng.normal(m, 3.0, size=(100, 2)) for m in means])
        return X, np.repeat(np.arange(4), 100)


def _partitions(name, n_parts):
    if name == "synthetic1":
        for p in range(n_parts):
            X, y = _synthetic1(2 * p)
            Xt, yt = _synthetic1(2 * p + 1)
            yield X, y, Xt, yt
        return
    from ordstat.datasets import load_boston

    X, y = load_boston(return_X_y=True)
    X, codes = X.to_numpy(), y.cat.codes.to_numpy()
    rng = np.random.default_rng(0)
    for _ in range(n_parts):
        perm = rng.permutation(len(codes))
        train, test = perm[:300], perm[300:]
        yield X[train], codes[train], X[test], codes[test]


def _select_and_fit(make, X, y, grid, seed):
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    pipe = make_pipeline(StandardScaler(), make())
    search = GridSearchCV(pipe, {f"{pipe.steps[-1][0]}__{k}": v for k, v in grid.items()},
                          scoring="accuracy", refit=False,
                          cv=StratifiedKFold(5, shuffle=True, random_state=seed))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        search.fit(X, y)
    pipe.set_params(**search.best_params_)
    start = time.perf_counter()
    pipe.fit(X, y)
    return pipe, time.perf_counter() - start


def _scores(y, pred):
    from ordstat.metrics import border_rank_sensitivity, border_rank_specificity

    classes = np.arange(int(max(y.max(), pred.max())) + 1)
    return {"acc": 100 * np.mean(pred == y), "mae": np.mean(np.abs(pred - y)),
            "sens1": border_rank_sensitivity(y, pred, 1, classes=classes,
                                             denominator="predicted"),
            "spec1": border_rank_specificity(y, pred, 1, classes=classes,
                                             denominator="predicted")}


def run_svm(quick):
    try:
        from skordinal.classifiers import SVOR
    except ImportError:
        print("skordinal not installed (pip install skordinal): SVORIM part skipped")
        return
    methods = {"SVORIM": lambda: SVOR(constraints="implicit")}
    try:
        from ordstat.decomposition import WeightedSVMEnsemble

        methods = {"weighted SVM ensemble": lambda: WeightedSVMEnsemble(weighted=True),
                   **methods}
    except ImportError:
        print("ordstat.decomposition.WeightedSVMEnsemble: not available yet (SVORIM alone)")
    n_parts = 3 if quick else 20
    grid = ({"C": [1.0, 8.0], "gamma": [0.125, 0.5]} if quick else
            {"C": [2.0 ** a for a in (-1, 1, 3, 5, 7)],
             "gamma": [2.0 ** b for b in (-7, -5, -3, -1, 1)]})
    for data in ("synthetic1", "boston"):
        try:
            parts = list(_partitions(data, n_parts))
        except ImportError as exc:
            print(f"{data}: not available ({exc})")
            continue
        results = {name: [] for name in methods}
        times = {name: [] for name in methods}
        for i, (X, y, Xt, yt) in enumerate(parts):
            for name, make in methods.items():
                model, fit_s = _select_and_fit(make, X, y, grid, seed=i)
                results[name].append(_scores(yt, np.asarray(model.predict(Xt))))
                times[name].append(fit_s)
        print(f"## {data}: {n_parts} partitions; mean over test sets (paper: MCOSvm / SVORIM)")
        paper = PAPER[data]
        for name in methods:
            means = {k: np.mean([r[k] for r in results[name]]) for k in results[name][0]}
            col = 0 if name != "SVORIM" else 1
            line = ", ".join(
                f"{k} {means[k]:.4g}" + (f" (paper {paper[k][col]})" if k in paper else "")
                for k in means)
            print(f"{name:24s} {line}; fit {np.mean(times[name]):.3g} s")
        if len(methods) == 2:
            ours, peer = (np.mean(times[n]) for n in methods)
            report(f"{data} fit at chosen C, gamma: weighted SVM ensemble vs SVORIM", ours, peer)


# Table 4.2: misclassification % and MAE, (C4.5, Frank & Hall)
TABLE_4_2 = {"era": ((72.22, 72.67), (1.32, 1.22)), "esl": ((35.17, 34.84), (0.39, 0.37)),
             "lev": ((39.56, 38.96), (0.43, 0.42)), "swd": ((43.18, 41.64), (0.46, 0.44)),
             "balance_scale": ((22.56, 24.02), (0.33, 0.29))}


def run_ordinal_sets(quick):
    try:
        from ordstat.cli._peer_estimators import frank_hall
        from ordstat.datasets import BUNDLED
    except ImportError as exc:
        print(f"Table 4.2 part skipped: {exc}")
        return
    from sklearn.tree import DecisionTreeClassifier

    from ordstat.model_selection import evaluate, pairwise_corrected_ttests

    repeats = 2 if quick else 10
    print(f"## Table 4.2: {repeats} x 10-fold CV, misclassification % / MAE "
          "(paper C4.5, Frank & Hall)")
    for name, ((p_c45, p_fh), (m_c45, m_fh)) in TABLE_4_2.items():
        try:
            X, y = BUNDLED[name][0](return_X_y=True)
        except ImportError as exc:
            print(f"{name}: not available ({exc})")
            return
        methods = {"cart_entropy": DecisionTreeClassifier(criterion="entropy",
                                                          min_samples_leaf=2),
                   "frank_hall": frank_hall(estimator=DecisionTreeClassifier(
                       criterion="entropy", min_samples_leaf=2))}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            runs = [evaluate(methods, X, y, scheme="cv10", random_state=r,
                             metrics=["misclassification", "mean_absolute"]).assign(
                                 split=lambda f, r=r: f["split"] + 10 * r)
                    for r in range(repeats)]
        results = pd.concat(runs, ignore_index=True)
        mean = results.groupby(["method", "metric"], observed=True)["value"].mean()
        test = pairwise_corrected_ttests(results, "misclassification", n_train=9, n_test=1)
        print(f"{name:14s} CART {100 * mean['cart_entropy', 'misclassification']:6.2f} "
              f"(C4.5 {p_c45}) / {mean['cart_entropy', 'mean_absolute']:.2f} ({m_c45}); "
              f"F&H {100 * mean['frank_hall', 'misclassification']:6.2f} ({p_fh}) / "
              f"{mean['frank_hall', 'mean_absolute']:.2f} ({m_fh}); corrected t-test p = "
              f"{test['p_value'].iloc[0]:.3g}")


def run(quick=False):
    run_polr(quick)
    run_svm(quick)
    run_ordinal_sets(quick)
