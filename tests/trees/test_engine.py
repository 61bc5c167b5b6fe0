"""The engine of a tree, chosen once by the builder (``ordstat.trees._engine``): the package's
rule, and the parts that tests and benchmarks force."""

import importlib.util

import pytest

from ordstat.trees import criteria
from ordstat.trees._engine import NUMPY_SORT_MIN, PER_NODE_RATIO, choose, forced

needs_numba = pytest.mark.skipif(importlib.util.find_spec("numba") is None,
                                 reason="numba is not installed: only the numpy engine exists")


@needs_numba
def test_the_rule_sorts_per_node_when_few_features_are_drawn():
    p = 50
    few, many = p // PER_NODE_RATIO, p // PER_NODE_RATIO + 1
    assert choose(criteria.gini, few, p).per_node
    assert not choose(criteria.gini, many, p).per_node
    assert not choose(criteria.gini, None, p).per_node
    engine = choose(criteria.gini, None, p)
    assert engine.numba and engine.scan and engine.levels
    assert engine.numpy_sort_min == NUMPY_SORT_MIN


def test_a_criterion_without_scan_searches_in_numpy():
    def half_gini(left, right):
        return criteria.gini(left, right) / 2.0

    engine = choose(criteria.get_criterion(half_gini), 1, 50)
    assert not (engine.scan or engine.per_node or engine.levels)


@needs_numba
def test_forced_parts_nest_and_end_with_their_context():
    with forced(per_node=True, numpy_sort_min=20):
        with forced(levels=False):
            engine = choose(criteria.gini, None, 10)
            assert engine.per_node and not engine.levels and engine.numpy_sort_min == 20
        assert choose(criteria.gini, None, 10).levels
        with forced(numba=False):
            engine = choose(criteria.gini, 1, 10)
            assert not (engine.numba or engine.scan or engine.per_node or engine.levels)
    assert choose(criteria.gini, None, 10) == choose(criteria.gini, None, 10)
    assert not choose(criteria.gini, None, 10).per_node


def test_forced_names_an_unknown_part():
    with pytest.raises(TypeError, match="compiled"):
        with forced(compiled=False):
            pass


@needs_numba
def test_a_builder_grows_by_the_engine_it_is_given():
    import dataclasses

    import numpy as np

    from ordstat.trees._grow import TreeBuilder

    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 6))
    codes = np.digitize(X[:, 0] + rng.normal(size=200), [-1, 0, 1])
    trees, growths = [], []
    for levels in (None, False):
        engine = None if levels is None else dataclasses.replace(
            choose(criteria.gini, None, 6), levels=levels)
        builder = TreeBuilder(criteria.gini, 1.0 - np.eye(4), min_split=2, min_bucket=1,
                              max_depth=30, cp=-1.0, engine=engine)
        trees.append(builder.build(X, codes, np.ones(200), 4))
        growths.append(builder.growth)
    assert growths == ["presorted", "loop"]
    assert trees[0].n_nodes > 20
    for name in ("children_left", "feature", "threshold", "value", "complexity"):
        np.testing.assert_array_equal(getattr(trees[0], name), getattr(trees[1], name))
