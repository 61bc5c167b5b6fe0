"""The compiled levels' feature draws (ordstat/trees/_kernels/nodes.py draw_keys) against the
level loop's (Splitter.feature_keys): the same keys from the same stream, each node's k-th
smallest key that of its sorted row, and the Generator left in the same state."""

import numpy as np
import pytest

from ordstat.trees._kernels.nodes import draw_keys

numba = pytest.importorskip("numba")


@numba.njit
def _compiled_keys(rng, n_nodes, p, k):
    return draw_keys(rng, n_nodes, p, k)


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("n_nodes, p, k", [(1, 2, 0), (5, 3, 1), (40, 13, 2), (40, 13, 0),
                                           (40, 13, 11), (7, 50, 6), (0, 4, 1), (40, 1, 0),
                                           (40, 30, 29)])
def test_draw_keys_are_the_level_loops_draws(compiled, n_nodes, p, k):
    seed = 1000 * p + k
    drawn, want = np.random.default_rng(seed), np.random.default_rng(seed)
    keys, kth = (_compiled_keys if compiled else draw_keys)(drawn, n_nodes, p, k)
    want_keys = want.random((n_nodes, p))
    np.testing.assert_array_equal(keys, want_keys)
    np.testing.assert_array_equal(kth, np.sort(want_keys, axis=1)[:, k])
    assert drawn.random() == want.random()  # the stream goes on where the loop's does
