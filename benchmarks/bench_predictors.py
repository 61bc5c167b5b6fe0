"""Cost of the shared predictor check (categorical columns, missing values) that every numeric
estimator runs before scikit-learn's conversion, against that conversion (``check_array``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator
from sklearn.utils import check_array

from benchmarks._harness import compare
from ordstat._core.predictors import check_numeric_predictors


def run(quick=False):
    n = 20_000 if quick else 200_000
    X = np.random.default_rng(0).normal(size=(n, 20))
    est = BaseEstimator()
    for name, obj in [("ndarray", X), ("DataFrame", pd.DataFrame(X).add_prefix("c"))]:
        compare(f"predictor_check_{name}_vs_check_array",
                lambda obj=obj: check_numeric_predictors(est, obj),
                lambda obj=obj: check_array(obj))
