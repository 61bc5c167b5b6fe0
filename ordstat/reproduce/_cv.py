"""The dissertation's design: every method on the same repeated stratified 10-fold
cross-validation of each data set, in parallel over the splits.

- ``load_datasets``: the data sets that load (the others recorded as not run);
- ``cross_validate``: one row per data set, split and method (error %, mean absolute error,
  tree size), the folds and the estimators' seeds drawn from the experiment's seed;
- ``split_values``: one method's losses in split order, the pairs of the corrected t-test.
"""

from __future__ import annotations

import zlib

import numpy as np
import pandas as pd
from joblib import delayed
from sklearn.model_selection import RepeatedStratifiedKFold

from .._core.parallel import parallel

__all__ = ["N_FOLDS", "TEST_TRAIN_RATIO", "cross_validate", "load_datasets", "split_values"]

N_FOLDS = 10
# the held-out share of one fold against its learning share: the corrected t-test's n2 / n1
TEST_TRAIN_RATIO = 1 / (N_FOLDS - 1)


def load_datasets(section, names, random_state):
    """{name: (X, class codes)} for the data sets that load; the others are recorded in the
    section as not run (the Ben-David sets and balance-scale come from the skordinal
    package)."""
    from .. import datasets
    from ._gaussian import _load

    loaders = {"ERA": "load_era", "ESL": "load_esl", "LEV": "load_lev", "SWD": "load_swd",
               "Balance": "load_balance_scale"}
    data = {}
    for name in names:
        if name == "Circle":
            X, y = datasets.make_circle(1000, random_state=random_state)
            data[name] = (np.asarray(X, dtype=float), np.asarray(y))
            continue
        loaded, why = _load(loaders[name])
        if loaded is None:
            section.skip_part(name, why)
            continue
        X, y = loaded
        data[name] = (np.asarray(X, dtype=float), np.asarray(pd.Categorical(y).codes))
    return data


def _seeds(random_state, dataset, n_splits):
    """The folds' seed and one estimator seed per split, from the experiment's seed and the
    data set's name: every table of a data set uses the same folds."""
    sequence = np.random.SeedSequence([int(random_state), zlib.crc32(dataset.encode())])
    state = sequence.generate_state(n_splits + 1, dtype=np.uint32) % np.uint32(2**31 - 1)
    return int(state[0]), [int(s) for s in state[1:]]


def _score_split(methods, dataset, split, X, y, train, test, seed):
    K = int(y.max()) + 1
    rows = []
    for fit_predict in methods:
        outputs = fit_predict(X[train], y[train], X[test], K, seed)
        for name, (pred, size) in outputs.items():
            pred = np.asarray(pred).astype(int)
            rows.append((dataset, split, name, 100.0 * np.mean(pred != y[test]),
                         float(np.mean(np.abs(pred - y[test]))), size))
    return rows


def cross_validate(methods, data, *, n_repeats, random_state, n_jobs):
    """Every method on the same ``n_repeats`` x 10 stratified folds of each data set, in
    parallel over splits (joblib).

    Returns
    -------
    DataFrame with columns dataset, split, method, error (%), mae, size (node count, NaN when
    not recorded), one row per data set, split and method.
    """
    tasks = []
    for dataset, (X, y) in data.items():
        n_splits = n_repeats * N_FOLDS
        fold_seed, seeds = _seeds(random_state, dataset, n_splits)
        folds = RepeatedStratifiedKFold(n_splits=N_FOLDS, n_repeats=n_repeats,
                                        random_state=fold_seed).split(X, y)
        tasks += [delayed(_score_split)(methods, dataset, i, X, y, train, test, seeds[i])
                  for i, (train, test) in enumerate(folds)]
    rows = parallel(tasks, n_jobs=n_jobs)
    return pd.DataFrame([r for chunk in rows for r in chunk],
                        columns=["dataset", "split", "method", "error", "mae", "size"])


def split_values(results, dataset, method, metric):
    sub = results[(results["dataset"] == dataset) & (results["method"] == method)]
    return sub.sort_values("split")[metric].to_numpy(dtype=float)
