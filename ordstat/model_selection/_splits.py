"""Resampling schemes: half-sampling, repeated learning/test splits, bootstrap with
out-of-bag units, and :func:`make_cv`, which names them all."""

from __future__ import annotations

import re

import numpy as np
from sklearn.model_selection import (LeaveOneOut, ShuffleSplit, StratifiedKFold,
                                     StratifiedShuffleSplit)

from .._core import warnings as _warnings
from .._core.validation import check_positive_int, check_random_state


class HalfSampling:
    """Half-sampling: stratified two-fold cross-validation, repeated ``n_repeats`` times.

    Each repeat yields two splits (learn on one half, test on the other, then the reverse).
    """

    def __init__(self, n_repeats=1, random_state=None):
        self.n_repeats = n_repeats
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        return 2 * check_positive_int(self.n_repeats, "n_repeats")

    def split(self, X, y, groups=None):
        rng = check_random_state(self.random_state)
        for _ in range(check_positive_int(self.n_repeats, "n_repeats")):
            seed = int(rng.integers(np.iinfo(np.int32).max))
            yield from StratifiedKFold(2, shuffle=True, random_state=seed).split(X, y)


class RepeatedLearningTestSplits:
    """``n_splits`` random stratified splits into a learning set and a test set.

    Tutz & Hechenbichler (2003, section 4.1) use 50 splits with one third of the units for
    validation.
    """

    def __init__(self, n_splits=50, test_size=1 / 3, random_state=None):
        self.n_splits = n_splits
        self.test_size = test_size
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        return check_positive_int(self.n_splits, "n_splits")

    def split(self, X, y, groups=None):
        if not 0 < self.test_size < 1:
            raise ValueError(f"test_size must be in (0, 1); got {self.test_size!r}.")
        seed = int(check_random_state(self.random_state).integers(np.iinfo(np.int32).max))
        values, counts = np.unique(np.asarray(y), return_counts=True)
        if counts.min() < 2:
            single = values[counts < 2]
            _warnings.warn(
                f"RepeatedLearningTestSplits: class(es) {single.tolist()} have a single unit, so "
                "the splits cannot be stratified; using unstratified random splits.")
            splitter = ShuffleSplit(self.get_n_splits(), test_size=self.test_size,
                                    random_state=seed)
        else:
            splitter = StratifiedShuffleSplit(self.get_n_splits(), test_size=self.test_size,
                                              random_state=seed)
        yield from splitter.split(X, y)


class BootstrapOOB:
    """``n_resamples`` bootstrap samples (drawn with replacement, size n) and their out-of-bag
    units as the test set. Training indices repeat units, as a bootstrap sample does.
    """

    def __init__(self, n_resamples=100, random_state=None):
        self.n_resamples = n_resamples
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        return check_positive_int(self.n_resamples, "n_resamples")

    def split(self, X, y=None, groups=None):
        n = len(X) if not hasattr(X, "shape") else X.shape[0]
        rng = check_random_state(self.random_state)
        for _ in range(self.get_n_splits()):
            boot = rng.integers(0, n, size=n)
            oob = np.setdiff1d(np.arange(n), boot, assume_unique=False)
            if oob.size == 0:  # every unit drawn (probability n!/n^n): nothing to test on
                continue
            yield boot, oob


_SCHEME = re.compile(r"^(loo|half|cv(\d+)|splits(\d+)|bootstrap(\d+))$")


def make_cv(scheme="cv10", random_state=None):
    """A splitter from a scheme name: ``"loo"``, ``"cvV"`` (stratified V-fold), ``"half"``,
    ``"splitsN"`` (N random 2/3 vs 1/3 splits) or ``"bootstrapB"`` (B bootstrap/OOB splits).
    A splitter object with a ``split`` method is returned unchanged.
    """
    if not isinstance(scheme, str) and hasattr(scheme, "split"):
        return scheme
    match = _SCHEME.match(str(scheme))
    if not match:
        raise ValueError(
            f"scheme must be 'loo', 'half', 'cvV' (e.g. 'cv10'), 'splitsN' (e.g. 'splits50') or "
            f"'bootstrapB' (e.g. 'bootstrap100'), or a splitter object; got {scheme!r}."
        )
    seed = None if random_state is None else int(
        check_random_state(random_state).integers(np.iinfo(np.int32).max))
    name, v, n_splits, n_boot = match.groups()
    if name == "loo":
        return LeaveOneOut()
    if name == "half":
        return HalfSampling(1, random_state=seed)
    if v is not None:
        return StratifiedKFold(check_positive_int(int(v), "scheme folds", 2), shuffle=True,
                               random_state=seed)
    if n_splits is not None:
        return RepeatedLearningTestSplits(check_positive_int(int(n_splits), "scheme splits"),
                                          random_state=seed)
    return BootstrapOOB(check_positive_int(int(n_boot), "scheme resamples"), random_state=seed)
