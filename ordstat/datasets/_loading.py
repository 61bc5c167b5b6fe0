"""Helpers shared by the data-set loaders: optional packages and the returned shape."""

from __future__ import annotations

import importlib

import pandas as pd

from .._extras import MissingExtraError, missing_extra


def require_module(module: str, *, dataset: str):
    """Import ``module`` or raise a ``MissingExtraError`` naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        top = module.split(".")[0]
        detail = "" if missing_extra(exc) == top else str(exc)
        raise MissingExtraError(top, f"the {dataset} data set", detail) from exc


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
