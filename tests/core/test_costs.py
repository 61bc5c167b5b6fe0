"""The one distance cost matrix, and that the metrics, the split criteria and the tree's
median leaves take theirs from it."""

import numpy as np

from ordstat import metrics
from ordstat._core.costs import distance_cost
from ordstat.trees import OrdinalTreeClassifier, criteria


def test_distance_cost_by_hand():
    assert distance_cost(3).tolist() == [[0, 1, 2], [1, 0, 1], [2, 1, 0]]
    assert distance_cost(3, 2).tolist() == [[0, 1, 4], [1, 0, 1], [4, 1, 0]]
    assert distance_cost(4).dtype == np.float64


def test_every_distance_cost_is_the_one():
    for k in (2, 5):
        linear, quadratic = distance_cost(k, 1), distance_cost(k, 2)
        np.testing.assert_array_equal(metrics.absolute_cost_matrix(k), linear)
        np.testing.assert_array_equal(metrics.squared_cost_matrix(k), quadratic)
        np.testing.assert_array_equal(criteria.generalized_gini("linear").cost_matrix(k), linear)
        np.testing.assert_array_equal(criteria.loss_matrix_gini("quadratic").cost_matrix(k),
                                      quadratic)
        tree = OrdinalTreeClassifier(leaf_rule="median")
        np.testing.assert_array_equal(tree._loss(None, k), linear)
