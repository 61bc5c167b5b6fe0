"""Decompositions: the oDT against our rpart-style tree and scikit-learn's tree, and the weighted
SVM ensemble against the unweighted one.

- oDT (``ReplicatedTreeClassifier``, entropy, pruned) on n = 10,000, p = 20, K = 5, against
  ``OrdinalTreeClassifier(criterion="entropy", cp=0, min_split=5, xval=0)`` and scikit-learn's
  ``DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2)``; fit times and test error.
- ``WeightedSVMEnsemble`` weighted against ``weighted=False`` on synthetic data 1 of
  Waegeman & Boullart (C = 1, gamma = 1/8): fit time ratio and test accuracy of both.

Lines: ``name: ours_s peer_s ratio`` (ratio = ours / peer, same run).
"""

from __future__ import annotations

import numpy as np

from benchmarks._harness import best_time, report
from ordstat.datasets import make_waegeman_synthetic
from ordstat.decomposition import ReplicatedTreeClassifier, WeightedSVMEnsemble
from ordstat.trees import OrdinalTreeClassifier


def _data(n, p, k=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    signal = X[:, : min(5, p)].sum(axis=1) + 2.0 * rng.normal(size=n)
    y = np.digitize(signal, np.quantile(signal, np.linspace(0, 1, k + 1)[1:-1]))
    return X, y


def _timed_error(make, X, y, Xt, yt, repeat):
    holder = {}

    def fit():
        holder["m"] = make().fit(X, y)

    seconds = best_time(fit, repeat)
    return seconds, np.mean(holder["m"].predict(Xt) != yt)


def run(quick: bool = False):
    from sklearn.tree import DecisionTreeClassifier

    n, p = (2_000, 20) if quick else (10_000, 20)
    repeat = 1
    X, y = _data(n, p)
    Xt, yt = _data(n, p, seed=1)
    OrdinalTreeClassifier(criterion="entropy", xval=0).fit(X[:300, :3], y[:300])  # numba warm-up
    makers = {
        "odt": lambda: ReplicatedTreeClassifier(),
        "rpart_style": lambda: OrdinalTreeClassifier(criterion="entropy", cp=0.0, min_split=5,
                                                     xval=0),
        "sklearn": lambda: DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2,
                                                  random_state=0),
    }
    res = {name: _timed_error(make, X, y, Xt, yt, repeat) for name, make in makers.items()}
    tag = f"n{n}_p{p}_K5"
    report(f"odt_vs_rpart_style_tree_fit_{tag}", res["odt"][0], res["rpart_style"][0])
    report(f"odt_vs_sklearn_tree_fit_{tag}", res["odt"][0], res["sklearn"][0])
    print("# test error: " + ", ".join(f"{k} {v[1]:.3f}" for k, v in res.items()), flush=True)

    X, y = make_waegeman_synthetic(1, n_per_rank=250 if quick else 1000, random_state=0)
    Xt, yt = make_waegeman_synthetic(1, n_per_rank=1000, random_state=1)
    w = _timed_error(lambda: WeightedSVMEnsemble(C=1.0, gamma=1 / 8), X, y, Xt, yt, repeat)
    u = _timed_error(lambda: WeightedSVMEnsemble(C=1.0, gamma=1 / 8, weighted=False), X, y, Xt,
                     yt, repeat)
    report(f"wsvm_weighted_vs_unweighted_fit_n{len(y)}", w[0], u[0])
    print(f"# test accuracy: weighted {1 - w[1]:.4f}, unweighted {1 - u[1]:.4f}", flush=True)
