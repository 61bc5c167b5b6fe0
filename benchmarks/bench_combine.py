"""Serial combining: the leave-one-out error of the whole procedure, and the paper's tables.

Timing (``name: ours_s peer_s ratio``): ``serial_loo_error`` (for single-model EDDAs the n
leave-one-out fits come from rank-one down-dates and one batched M-step) against a plain
``sklearn.model_selection.LeaveOneOut`` loop that refits the combiner (its models and weights)
without each unit and predicts it. Both give the same error (printed).

Paper (Brito, Celeux & Sousa Ferreira 2006, Tables 3-5), printed beside ours, on iris (from
scikit-learn), crabs (R's MASS; 4 groups species x sex, the 5 measurements) and thyroid (R's
mclust; 3 groups, 5 variables); crabs and thyroid are read through rpy2 and skipped when R is
not available.

Run: ``python -m benchmarks combine`` (``--quick`` for smaller simulated data).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.model_selection import LeaveOneOut

from benchmarks._harness import best_time, report
from ordstat.combine import SerialCombiner, diverse_models, serial_loo_error
from ordstat.gaussian import EDDA


def _loop_of_refits(combiner, X, y):
    wrong = 0
    for train, test in LeaveOneOut().split(X):
        fit = clone(combiner).fit(X[train], y[train])
        wrong += int(fit.predict(X[test])[0] != y[test][0])
    return wrong / len(y)


def _simulate(n, d, K, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, size=n)
    X = rng.normal(size=(n, d)) * (1.0 + 0.5 * y[:, None]) + y[:, None]
    return X, y


def _r_data(name):
    """crabs (MASS) or thyroid (mclust) as (X, y) through rpy2; None without R."""
    try:
        from rpy2 import robjects as ro
        from rpy2.robjects import default_converter, pandas2ri
        from rpy2.robjects.conversion import localconverter
    except ImportError:
        return None
    pkg = {"crabs": "MASS", "thyroid": "mclust"}[name]
    with localconverter(default_converter + pandas2ri.converter):
        ro.r(f'data({name}, package = "{pkg}")')
        frame = ro.conversion.get_conversion().rpy2py(ro.r[name])
    if name == "crabs":
        X = frame[["FL", "RW", "CL", "CW", "BD"]].to_numpy(float)
        y = (frame["sp"].astype(str) + frame["sex"].astype(str)).to_numpy(object)
    else:
        X = frame.drop(columns="Diagnosis").to_numpy(float)
        y = frame["Diagnosis"].astype(str).to_numpy(object)
    return X, y


_TABLE3 = {"iris": "[lambda B], [lambda I]", "crabs": "[lambda D A D'], [lambda I]",
           "thyroid": "[lambda B], [lambda I]"}
_TABLE4 = {"iris": (".82 [lambda B] + .18 [lambda I]", .0400, "[lambda B]", .0400),
           "crabs": ("[lambda D A D']", .5000, "[lambda I]", .0500),
           "thyroid": (".73 [lambda B] + .27 [lambda I]", .0930, "[lambda B]", .0977)}
_TABLE5 = {"iris": ("[lambda B]", .0400), "crabs": ("[lambda D A D']", .5000),
           "thyroid": ("[lambda B]", .0977)}
_PAPER_MODELS = {"iris": ("EEI", "EII"), "crabs": ("EEE", "EII"), "thyroid": ("EEI", "EII")}


def paper_tables():
    """Tables 3-5: the models chosen by CA, the committee and penalised-likelihood weights and
    their leave-one-out errors, ours beside the paper's (with the paper's pairs of models)."""
    data = {"iris": load_iris(return_X_y=True)}
    for name in ("crabs", "thyroid"):
        loaded = _r_data(name)
        if loaded is not None:
            data[name] = loaded
    for name, (X, y) in data.items():
        from ordstat.gaussian import MODELS

        choice = diverse_models("edda", X, y, 2)
        anchor = _TABLE4[name][2]
        code = [m for m in MODELS if EDDA(model=m).fit(X, y).summary()["models"].loc[m, "paper"]
                == anchor][0]
        anchored = diverse_models("edda", X, y, 2, first=list(MODELS).index(code))
        print(f"table3 {name}: paper {_TABLE3[name]}; ours {', '.join(choice.names)}; "
              f"starting from the paper's EDDA model: {', '.join(anchored.names)}")
        models = [EDDA(model=m) for m in _PAPER_MODELS[name]]
        comb = SerialCombiner(models).fit(X, y)
        edda = EDDA(model="all").fit(X, y)
        paper = _TABLE4[name]
        print(f"table4 {name}: paper {paper[0]} ME {paper[1]:.4f} (EDDA {paper[2]} "
              f"{paper[3]:.4f}); ours {comb.describe()} ME {comb.loo_error(X, y):.4f} "
              f"(EDDA {edda.summary()['models'].loc[edda.model_, 'paper']} {edda.loo_error_:.4f})")
        for method in ("aic", "bic"):
            pen = SerialCombiner(models, method=method).fit(X, y)
            print(f"table5 {name} {method}: paper {_TABLE5[name][0]} ME {_TABLE5[name][1]:.4f};"
                  f" ours {pen.describe()} ME {pen.loo_error(X, y):.4f}")
        for post in ("loo", "cv"):
            other = SerialCombiner(models, posteriors=post, random_state=0).fit(X, y)
            print(f"committee {name} posteriors={post}: {other.describe()} "
                  f"ME {other.loo_error(X, y):.4f}")


def run(quick=False):
    X, y = load_iris(return_X_y=True)
    cases = [("iris_committee_EEI_EII", X, y, ["EEI", "EII"], "committee"),
             ("iris_bic_EEI_VEI_VVV", X, y, ["EEI", "VEI", "VVV"], "bic")]
    n = 300 if quick else 1000
    Xs, ys = _simulate(n, 5, 3)
    cases.append((f"sim{n}_committee_EII_EEI_VVV", Xs, ys, ["EII", "EEI", "VVV"], "committee"))
    for name, Xc, yc, models, method in cases:
        comb = SerialCombiner([EDDA(model=m) for m in models], method=method)
        ours_err, peer_err = serial_loo_error(comb, Xc, yc), _loop_of_refits(comb, Xc, yc)
        ours = best_time(lambda: serial_loo_error(comb, Xc, yc), repeat=3)
        peer = best_time(lambda: _loop_of_refits(comb, Xc, yc), repeat=1)
        report(f"loo_error_{name}", ours, peer)
        print(f"  errors: ours {ours_err:.4f}, loop of refits {peer_err:.4f}")
    paper_tables()


if __name__ == "__main__":
    run()
