"""Cost of the shared predictor check (categorical columns, missing values) that every numeric
estimator runs before scikit-learn's conversion, as a ratio to that conversion (same run)."""

import time

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator
from sklearn.utils import check_array

from ordstat._predictors import check_numeric_predictors


def _best(fn, repeat=5):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    X = np.random.default_rng(0).normal(size=(200_000, 20))
    est = BaseEstimator()
    for name, obj in [("ndarray", X), ("DataFrame", pd.DataFrame(X).add_prefix("c"))]:
        ours = _best(lambda: check_numeric_predictors(est, obj))
        peer = _best(lambda: check_array(obj))
        print(f"predictor_check_{name}_vs_check_array: {ours / peer:.2f}")


if __name__ == "__main__":
    main()
