"""Reference numbers pinned in the repository (``tests/reference/``).

The inputs R needs are written by ``python tests/_reference.py`` (numpy-generated data and
folds, as CSV at full precision); ``Rscript tests/reference/make_reference.R`` then writes one
JSON file per R computation (rpart, mclust, MASS::polr, HouseVotes84), and
``Rscript tests/reference/rpart_loss.R`` the trees of rpart's loss matrices (rpart_loss.json),
``Rscript tests/reference/rpart_factors.R`` rpart's trees on unordered factors of many levels
(rpart_factors.json; inputs from ``python tests/_reference.py factors``),
``Rscript tests/reference/rpart_surrogates.R`` rpart's surrogate splits on data with missing
values (rpart_surrogates.json, which holds its data sets too).
The Python tests compare against these files always; the R tests rerun the script and compare
the new files with them.
"""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pandas as pd

HERE = pathlib.Path(__file__).parent / "reference"

# rpart cases: name -> (data set, minsplit, cp); the five-class data sets are keyed by seed.
RPART_CASES = {
    "iris": ("iris", 20, 0.01),
    "five3_m20": ("five3", 20, 0.01),
    "five4_m10": ("five4", 10, 0.001),
    "five0_m20": ("five0", 20, 0.005),
    "five0_m10": ("five0", 10, 0.001),
    "five3_m10": ("five3", 10, 0.001),
}


def five_class(seed, n_per=60):
    """The 5-class simulation design of Archer & Mas (2009), "Ordinal response prediction using
    bootstrap aggregation...": 5 ordered classes, a bivariate normal signal with mean
    (2 omega, 2 omega), plus uniform and normal noise predictors."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(5), n_per)
    z = rng.multivariate_normal([0, 0], [[4, 2], [2, 4]], size=y.size) + 2 * y[:, None]
    noise = np.column_stack([rng.uniform(size=(y.size, 3)), rng.normal(size=(y.size, 2))])
    return np.column_stack([z, noise]), y


def polr_data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2)) * [1.0, 3.0] + [5.0, -2.0]
    eta = 1.2 * X[:, 0] - 0.4 * X[:, 1]
    y = np.digitize(eta + rng.logistic(size=n), np.quantile(eta, [0.3, 0.6, 0.8]))
    return X, y


def folds_for(n, seed):
    return np.random.default_rng(seed).permutation(np.resize(np.arange(10), n))


def write_inputs():
    """The CSV inputs of make_reference.R (run once; they are committed)."""
    from sklearn.datasets import load_iris

    HERE.mkdir(exist_ok=True)
    iris = load_iris()
    frame = pd.DataFrame(iris.data, columns=[f"x{j}" for j in range(4)])
    frame["y"] = iris.target_names[iris.target]
    frame["fold"] = folds_for(150, 1)
    frame.to_csv(HERE / "iris.csv", index=False, float_format="%.17g")
    for seed in (0, 3, 4):
        X, y = five_class(seed)
        frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])])
        frame["y"] = y
        frame["fold"] = folds_for(len(y), seed)
        frame.to_csv(HERE / f"five{seed}.csv", index=False, float_format="%.17g")
    X, y = polr_data(400, seed=2)
    frame = pd.DataFrame({"x1": X[:, 0], "x2": X[:, 1], "y": [f"c{k}" for k in y]})
    frame.to_csv(HERE / "polr.csv", index=False, float_format="%.17g")


# Data sets of rpart's loss-matrix trees (tests/reference/rpart_loss.R): name -> (K, n).
LOSS_DATA = {"loss3": (3, 90), "loss4": (4, 120), "archer5": (5, 100)}


def loss_data(name):
    """(X, y) of a loss-matrix reference data set: a noisy ordinal signal in two of four
    features for K = 3, 4; Archer & Mas's simulation (5 classes, 20 units each) for K = 5."""
    k, n = LOSS_DATA[name]
    if name == "archer5":
        from ordstat.datasets import make_archer_simulation

        X, y = make_archer_simulation(n_per_class=n // k, random_state=7)
        return X, np.asarray(y) - 1
    rng = np.random.default_rng(10 + k)
    X = rng.normal(size=(n, 4))
    z = X[:, 0] + 0.6 * X[:, 1] + 0.7 * rng.normal(size=n)
    return X, np.digitize(z, np.quantile(z, np.arange(1, k) / k))


def write_loss_inputs():
    """The CSV inputs of rpart_loss.R (run once; they are committed): x0.., y as codes 0..K-1."""
    for name in LOSS_DATA:
        X, y = loss_data(name)
        frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])])
        frame["y"] = y
        frame.to_csv(HERE / f"{name}.csv", index=False, float_format="%.17g")


# Data sets of rpart's trees on unordered factors (tests/reference/rpart_factors.R):
# name -> (seed, K, levels of g).
FACTOR_DATA = {"factors3": (11, 3, 6), "factors4": (1, 4, 6), "factors5": (14, 5, 8)}


def factor_data(name):
    """A DataFrame of two unordered factors, ``g`` (6 or 8 levels, whose classes are drawn
    from a random distribution per level, so that the levels ordered by their mean class are
    not the best Gini subset) and ``h`` (4 levels, noise), and ``y`` (codes 0..K-1)."""
    seed, k, n_levels = FACTOR_DATA[name]
    rng = np.random.default_rng(seed)
    n = 400
    probs = rng.dirichlet(np.full(k, 0.5), size=n_levels)
    g = rng.integers(0, n_levels, n)
    y = np.array([rng.choice(k, p=probs[v]) for v in g])
    letters = np.array(list("abcdefghij"))
    return pd.DataFrame({"g": letters[g], "h": np.array(list("pqrs"))[rng.integers(0, 4, n)],
                         "y": y})


def write_factor_inputs():
    """The CSV inputs of rpart_factors.R (run once; they are committed)."""
    for name in FACTOR_DATA:
        factor_data(name).to_csv(HERE / f"{name}.csv", index=False)


def read_input(name):
    """(X, y, folds or None) of an input CSV."""
    frame = pd.read_csv(HERE / f"{name}.csv")
    folds = frame.pop("fold").to_numpy() if "fold" in frame else None
    y = frame.pop("y").to_numpy()
    return frame.to_numpy(dtype=float), y, folds


def load(name, directory=HERE):
    """A reference JSON file as nested dicts of numpy arrays (lists become arrays)."""
    with open(pathlib.Path(directory) / f"{name}.json") as fh:
        return _arrays(json.load(fh))


def _arrays(obj):
    if isinstance(obj, dict):
        return {k: _arrays(v) for k, v in obj.items()}
    if isinstance(obj, list):
        if obj and isinstance(obj[0], dict):
            return [_arrays(v) for v in obj]
        return np.asarray(obj)
    return obj


if __name__ == "__main__":
    import sys

    # "python tests/_reference.py loss" writes only the inputs of rpart_loss.R, "factors" those
    # of rpart_factors.R
    if sys.argv[1:] == ["loss"]:
        write_loss_inputs()
    elif sys.argv[1:] == ["factors"]:
        write_factor_inputs()
    else:
        write_inputs()
        write_loss_inputs()
        write_factor_inputs()
