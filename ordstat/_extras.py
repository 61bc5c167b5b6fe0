"""The optional dependencies: which extra of ordstat installs each, and one way to say that one
is missing.

A part of ordstat that needs an optional package (the data sets read from R, the figures of the
reproduction report, the peer methods) raises :class:`MissingExtraError`, an ``ImportError``
whose message names what needs the package and the ``pip install "ordstat[EXTRA]"`` line, so
that the command line can print it as one line and the report can say "not run (why)".
"""

from __future__ import annotations

import importlib.util

# public in ordstat.exceptions; here for the parts of ordstat that deal with optional packages
from .exceptions import EXTRAS, MissingExtraError, install_hint

__all__ = ["EXTRAS", "MissingExtraError", "available", "install_hint", "missing_extra"]


def available(module: str) -> bool:
    """Whether a module can be imported, found without importing it."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent that is not a package, or a None in sys.modules
        return False


def missing_extra(exc: BaseException) -> str | None:
    """The optional module an import error is about (a key of ``EXTRAS``), or None when the
    error is about anything else (a bug or a missing runtime dependency must not be hidden)."""
    if isinstance(exc, MissingExtraError):
        return exc.module
    if isinstance(exc, ImportError) and exc.name:
        top = exc.name.split(".")[0]
        return top if top in EXTRAS else None
    return None
