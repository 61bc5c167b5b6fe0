"""Fitted results of every estimator on fixed data, to check that a change meant to move code
(not arithmetic) leaves every model the same.

``python tests/reference/fitted_models.py`` writes ``fitted_models.npz`` beside this file;
``tests/test_fitted_models.py`` fits the same cases again and compares. A change that is meant to
change results (a method made faithful to its paper, say) regenerates the file and says so in
its commit message.

Each case is (name, data set, estimator factory, extra fitted attributes to keep). The data are
read from ``tests/reference`` or generated with fixed seeds, so no R is needed.
"""

from __future__ import annotations

import pathlib
import warnings

import numpy as np
import pandas as pd

HERE = pathlib.Path(__file__).resolve().parent
STORE = HERE / "fitted_models.npz"


# -- data ------------------------------------------------------------------------------------

def _iris():
    frame = pd.read_csv(HERE / "iris.csv")
    return frame[["x0", "x1", "x2", "x3"]].to_numpy(float), frame["y"].to_numpy()


def _archer():
    from ordstat.datasets import make_archer_simulation

    return make_archer_simulation(n_per_class=16, random_state=3)


def _archer_mixed():
    """Archer's simulation with missing values, a string column and an ordered categorical."""
    X, y = _archer()
    rng = np.random.default_rng(7)
    frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])])
    frame.loc[rng.random(len(frame)) < 0.1, "x0"] = np.nan
    frame.loc[rng.random(len(frame)) < 0.1, "x3"] = np.nan
    frame["colour"] = rng.choice(["red", "green", "blue"], len(frame))
    frame["grade"] = pd.Categorical(rng.choice(["low", "mid", "high"], len(frame)),
                                    categories=["low", "mid", "high"], ordered=True)
    return frame, y


def _archer_missing():
    """Archer's simulation with missing values (numeric columns only), for the ensembles."""
    X, y = _archer()
    rng = np.random.default_rng(11)
    X = X.copy()
    X[rng.random(len(X)) < 0.1, 0] = np.nan
    X[rng.random(len(X)) < 0.1, 1] = np.nan
    return X, y


def _archer_binned():
    """Archer's simulation's first four features cut at their terciles: 3^4 discrete states."""
    X, y = _archer()
    cuts = np.quantile(X[:, :4], [1 / 3, 2 / 3], axis=0)
    return np.column_stack([np.digitize(X[:, j], cuts[:, j]) for j in range(4)]), y


def _votes():
    frame = pd.read_csv(HERE / "housevotes84.csv").dropna()
    y = frame.pop("Class").to_numpy()
    return frame.iloc[:, :6], y


DATA = {"iris": _iris, "archer": _archer, "archer_mixed": _archer_mixed,
        "archer_missing": _archer_missing, "archer_binned": _archer_binned, "votes": _votes}


# -- cases -----------------------------------------------------------------------------------

def _cases():
    from ordstat import (EDDA, AdaBoostOR, DataReplicationClassifier, FixedSplitBaggingClassifier,
                         FrankHallClassifier, FullMultinomial, HierarchicalCoupling,
                         IndependenceModel, KernelMultinomial, OrdinalBaggingClassifier,
                         OrdinalBoostingClassifier, OrdinalRandomForestClassifier,
                         OrdinalStumpBoost, OrdinalTreeClassifier, ProportionalOddsClassifier,
                         ReplicatedTreeClassifier, SerialCombiner, WeightedSVMEnsemble)

    cases = [("polr", "archer", lambda: ProportionalOddsClassifier(), ("coef_",))]
    for model in ("EII", "VII", "EEI", "VEI", "EVI", "VVI", "EEE", "VEE", "EVE", "VVE", "EEV",
                  "VEV", "EVV", "VVV"):
        cases.append((f"edda_{model}", "iris", lambda m=model: EDDA(model=m), ("means_",)))
    cases += [
        ("edda_all_loo", "iris", lambda: EDDA(model="all", select="loo"), ("loo_error_", "model_")),
        ("edda_all_bic", "iris", lambda: EDDA(model="all", select="bic"), ()),
        ("fmm", "votes", lambda: FullMultinomial(), ()),
        ("foim", "votes", lambda: IndependenceModel(), ()),
        ("kernel_loo", "votes", lambda: KernelMultinomial(), ("smoothing_",)),
        ("kernel_fixed", "votes", lambda: KernelMultinomial(smoothing=0.9), ()),
    ]
    for criterion in ("ordinal", "twoing", "gini", "entropy", "gini_linear", "gini_quadratic"):
        cases.append((f"tree_{criterion}", "archer_mixed",
                      lambda c=criterion: OrdinalTreeClassifier(criterion=c, min_split=6,
                                                                random_state=0),
                      ()))
    for criterion in ("loss_linear", "loss_quadratic"):
        cases.append((f"tree_{criterion}", "archer_mixed",
                      lambda c=criterion: OrdinalTreeClassifier(criterion=c, leaf_rule="cost",
                                                                min_split=6, random_state=0),
                      ()))
    cases.append(("tree_prune_5_leaves", "archer_mixed",
                  lambda: OrdinalTreeClassifier(criterion="entropy", cp=0, xval=0, prune=5),
                  ()))
    cases.append(("tree_1se", "archer_mixed",
                  lambda: OrdinalTreeClassifier(prune="1se", random_state=1), ()))
    for method in ("likelihood", "aic", "bic"):
        cases.append((f"serial_{method}", "iris",
                      lambda m=method: SerialCombiner("edda", method=m), ("weights_",)))
    for posteriors in ("resubstitution", "loo", "cv"):
        cases.append((f"serial_committee_{posteriors}", "iris",
                      lambda p=posteriors: SerialCombiner("edda", n_models=2, posteriors=p,
                                                          random_state=0),
                      ("weights_",)))
    for method in ("committee", "integrated"):
        cases.append((f"serial_discrete_{method}", "votes",
                      lambda m=method: SerialCombiner([IndependenceModel(), FullMultinomial()],
                                                      method=m),
                      ("weights_",)))
    for partition, node in (("cv", "select"), ("cv", "bic"), ("cv", "committee")):
        cases.append((f"coupling_{partition}_{node}", "iris",
                      lambda p=partition, n=node: HierarchicalCoupling(
                          [EDDA(model="EII"), EDDA(model="EEE"), EDDA(model="VVV")],
                          partition=p, node=n, random_state=0),
                      ("cv_error_",)))
    cases.append(("coupling_ordinal", "archer",
                  lambda: HierarchicalCoupling([EDDA(model="EII"), EDDA(model="VVI")],
                                               partition="ordinal", random_state=0),
                  ("cv_error_",)))
    for partition in ("cv", "affinity"):
        cases.append((f"coupling_discrete_{partition}", "archer_binned",
                      lambda p=partition: HierarchicalCoupling("discrete", partition=p, cv=5,
                                                               random_state=0),
                      ("cv_error_",)))
    cases += [
        ("bagging", "archer_missing",
         lambda: OrdinalBaggingClassifier(n_estimators=15, random_state=0),
         ("oob_error_", "oob_mean_absolute_", "oob_per_estimator_")),
        ("bagging_median_2jobs", "archer",
         lambda: OrdinalBaggingClassifier(n_estimators=15, aggregation="median", n_jobs=2,
                                          random_state=0), ("oob_error_", "oob_gamma_")),
        ("forest", "archer_missing",
         lambda: OrdinalRandomForestClassifier(n_estimators=15, random_state=0),
         ("oob_error_", "oob_gamma_")),
        ("forest_gini_vote", "archer",
         lambda: OrdinalRandomForestClassifier(n_estimators=15, criterion="gini",
                                               aggregation="vote", importance="mean_absolute",
                                               random_state=0), ("permutation_importances_",)),
        ("fixed_split_bagging", "archer",
         lambda: FixedSplitBaggingClassifier(n_estimators=10, random_state=0), ()),
    ]
    for variant in ("discrete", "real", "fixed_split_discrete", "fixed_split_real",
                    "ordinal_discrete", "ordinal_real"):
        cases.append((f"boost_{variant}", "archer",
                      lambda v=variant: OrdinalBoostingClassifier(variant=v, n_estimators=10,
                                                                  random_state=0), ()))
    cases += [
        ("boost_by_weight", "archer_missing",
         lambda: OrdinalBoostingClassifier(n_estimators=10, boost_by="weight",
                                           random_state=0), ()),
        ("frank_hall", "archer", lambda: FrankHallClassifier(random_state=0), ()),
        ("frank_hall_count", "archer",
         lambda: FrankHallClassifier(combine="count", random_state=0), ()),
        ("data_replication", "archer", lambda: DataReplicationClassifier(random_state=0), ()),
        ("odt", "archer", lambda: ReplicatedTreeClassifier(), ()),
        ("odt_product", "archer", lambda: ReplicatedTreeClassifier(rule="product"), ()),
        ("odt_gain_exact", "archer",
         lambda: ReplicatedTreeClassifier(split_score="gain", error_bound="exact"), ()),
        ("odt_forest_median", "archer",
         lambda: OrdinalBaggingClassifier(
             ReplicatedTreeClassifier(max_features="log2+1", prune=False), n_estimators=10,
             aggregation="median", random_state=0), ()),
        ("data_replication_s1", "archer",
         lambda: DataReplicationClassifier(s=1, random_state=0), ()),
        ("oadaboost", "archer", lambda: OrdinalStumpBoost(n_estimators=15), ()),
        ("adaboost_or", "archer", lambda: AdaBoostOR(n_estimators=15, random_state=0), ()),
        ("adaboost_or_odt_stump", "archer",
         lambda: AdaBoostOR(ReplicatedTreeClassifier(max_depth=1, prune=False),
                            n_estimators=15, random_state=0), ()),
        ("wsvm", "archer", lambda: WeightedSVMEnsemble(), ()),
    ]
    return cases


def _values(attribute):
    value = np.asarray(attribute.to_numpy() if hasattr(attribute, "to_numpy") else attribute)
    return value.astype(float) if value.dtype.kind in "biuf" else value.astype(str)


def fitted_results(names=None):
    """{key: array} of every case (or of the named cases): predictions as positions in
    ``classes_``, probabilities, and the case's extra fitted attributes."""
    data = {}
    out = {}
    for name, data_name, make, extras in _cases():
        if names is not None and name not in names:
            continue
        if data_name not in data:
            data[data_name] = DATA[data_name]()
        X, y = data[data_name]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = make().fit(X, y)
            predicted = model.predict(X)
            # AdaBoost.OR and the weighted SVMs predict classes only
            proba = model.predict_proba(X) if hasattr(model, "predict_proba") else None
        classes = list(model.classes_)
        out[f"{name}/predict"] = np.array([classes.index(p) for p in predicted])
        if proba is not None:
            out[f"{name}/proba"] = np.asarray(proba, dtype=float)
        for attribute in extras:
            out[f"{name}/{attribute}"] = _values(getattr(model, attribute))
    return out


def _extra_results():
    """Results of functions that are not estimators: evaluate's table, the criteria experiment
    and the leave-one-out error of a serial combination."""
    from ordstat import EDDA, OrdinalTreeClassifier, SerialCombiner, serial_loo_error
    from ordstat.reproduce import bagged_criteria_oob
    from ordstat.model_selection import compare_methods, evaluate, summarize

    X, y = _archer()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = evaluate({"tree": OrdinalTreeClassifier(random_state=0),
                            "gini": OrdinalTreeClassifier(criterion="gini", random_state=0)},
                           X, y, scheme="cv5", random_state=1, progress=False)
        table = summarize(results)
        comparison = compare_methods(results, "mean_absolute")
        oob, _ = bagged_criteria_oob(X, y, n_estimators=10, random_state=0)
        Xi, yi = _iris()
        loo = serial_loo_error(SerialCombiner([EDDA(model="EII"), EDDA(model="EEE")],
                                              method="bic"), Xi, yi)
    numeric = results.select_dtypes("number")
    return {"evaluate/results": numeric.to_numpy(float),
            "evaluate/summary": table.select_dtypes("number").to_numpy(float),
            "evaluate/friedman": np.atleast_1d(np.asarray(comparison.friedman_pvalue,
                                                          dtype=float)),
            "bagged_criteria_oob": oob.select_dtypes("number").to_numpy(float),
            "serial_loo_error": np.atleast_1d(float(loo))}


def all_results():
    return {**fitted_results(), **_extra_results()}


if __name__ == "__main__":
    results = all_results()
    np.savez_compressed(STORE, **results)
    print(f"wrote {len(results)} arrays to {STORE}")
