"""Every estimator fits the same model as when ``tests/reference/fitted_models.npz`` was written:
the same predictions and, to rounding, the same probabilities and fitted attributes.

The stored results guard changes that move code without meaning to change arithmetic. A change
meant to change results regenerates them (``python tests/reference/fitted_models.py``) and says
so in its commit message.
"""

import importlib.util
import pathlib

import numpy as np

_SCRIPT = pathlib.Path(__file__).parent / "reference" / "fitted_models.py"
_spec = importlib.util.spec_from_file_location("fitted_models", _SCRIPT)
fitted_models = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fitted_models)

STORED = dict(np.load(fitted_models.STORE))


def _mismatch(key, got, want):
    """Why ``got`` is not the stored ``want`` (None when it is)."""
    if got.shape != want.shape:
        return f"shape {got.shape}, stored {want.shape}"
    try:
        if key.endswith("/predict") or want.dtype.kind in "US":
            np.testing.assert_array_equal(got, want)
        else:
            # The newest and the oldest supported releases round differently in the last
            # bits; polr's optimiser (statsmodels, scipy) stops at slightly different points.
            rtol = 1e-6 if key.startswith("polr/") else 1e-9
            np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-12)
    except AssertionError as exc:
        return str(exc).strip()
    return None


def test_same_results_as_stored():
    # One test, not one per key: with pytest-xdist every worker that ran one of them refitted
    # every model (a module fixture is made once per worker), the suite's most expensive set-up.
    current = fitted_models.all_results()
    assert sorted(current) == sorted(STORED)
    problems = {key: _mismatch(key, current[key], STORED[key]) for key in sorted(STORED)}
    problems = {key: why for key, why in problems.items() if why is not None}
    assert not problems, "\n\n".join(f"{key}: {why}" for key, why in problems.items())
