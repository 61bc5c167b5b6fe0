"""Archer & Mas (2009) in the reproduction: the orderings of section 5, claimed as
standardized paired differences over simulated data sets of our reading."""

import math

import numpy as np
import pandas as pd
import pytest

from ordstat.reproduce import _ordinal


def test_implied_effect_is_z_over_root_n():
    assert math.isclose(_ordinal.implied_effect("0.05"), 1.959964 / 10, rel_tol=1e-5)
    # "<0.0001" read at its bound: z_{0.99995} = 3.8906
    assert math.isclose(_ordinal.implied_effect("<0.0001"), 0.38906, rel_tol=1e-4)


def test_standardized_effects_by_hand():
    # three trees; better - worse error: -0.1, -0.3, 0.1 -> mean -0.1, sd 0.2 -> -0.5;
    # gamma is a gain: better - worse gamma 0.2, 0.0, 0.1 -> loss difference -0.1 mean, sd 0.1
    rows = []
    for split, (eb, ew, gb, gw) in enumerate([(0.2, 0.3, 0.9, 0.7), (0.1, 0.4, 0.8, 0.8),
                                              (0.3, 0.2, 0.6, 0.5)]):
        rows += [(split, "A", "misclassification", eb), (split, "B", "misclassification", ew),
                 (split, "A", "gamma", gb), (split, "B", "gamma", gw)]
    results = pd.DataFrame(rows, columns=["split", "method", "metric", "value"])
    effects = _ordinal.standardized_effects(results, pairs=[("A", "B")])
    assert math.isclose(effects[("misclassification", "A", "B")], -0.5)
    assert math.isclose(effects[("gamma", "A", "B")], -1.0)


def _effects(sign, n=20, seed=0):
    rng = np.random.default_rng(seed)
    return {(metric, better, worse): sign * 0.4 + rng.normal(scale=0.05, size=n)
            for metric in ("misclassification", "gamma")
            for better, worse in _ordinal.ARCHER_FINDINGS}


@pytest.mark.parametrize("index", range(2 * len(_ordinal.ARCHER_FINDINGS)))
def test_each_stated_ordering_is_claimed_and_fails_when_the_verdict_flips(index):
    # rows come in pairs: the ordering, then its size
    same = _ordinal.archer_finding_rows(_effects(-1))[2 * index]
    assert same.paper == "lower" and same.ours == "lower" and same.status == "ok", same
    flipped = _ordinal.archer_finding_rows(_effects(+1))[2 * index]
    assert flipped.status == "miss" and flipped.ours == "higher"
    assert flipped.cause == "design difference"


def test_the_size_is_claimed_within_two_sd_of_one_data_set():
    values = np.array([-0.2, -0.4, -0.3, -0.1, -0.5])  # mean -0.3, sd 0.158
    # the paper's p for Gini against Ordinal on gamma is "<0.0001": implied size -0.39
    rows = _ordinal.archer_finding_rows({("gamma", "Ordinal", "Gini"): values})
    size = rows[1]
    tol = 2 * math.sqrt(np.var(values, ddof=1) * (1 + 1 / 5))
    assert size.paper == -0.39 and size.ours == -0.3 and size.tolerance == round(tol, 2)
    assert size.status == "ok"  # |-0.39 + 0.3| < 0.35
    far = _ordinal.archer_finding_rows({("gamma", "Ordinal", "Gini"): values + 0.6})[1]
    assert far.status == "miss" and far.cause == "design difference"


def test_the_quick_run_reports_the_orderings():
    rows = _ordinal.archer_finding_rows(_effects(-1), claim=False)
    assert all(r.status == "reported" for r in rows)
