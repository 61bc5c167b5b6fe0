"""The optional dependencies: which extra of ordstat installs each, and one way to say that one
is missing.

A part of ordstat that needs an optional package (the data sets read from R, the figures of the
reproduction report, the peer methods) raises :class:`MissingExtraError`, an ``ImportError``
whose message names what needs the package and the ``pip install "ordstat[EXTRA]"`` line, so
that the command line can print it as one line and the report can say "not run (why)".
"""

from __future__ import annotations

import importlib.util

__all__ = ["EXTRAS", "MissingExtraError", "available", "install_hint", "missing_extra"]

# top-level module -> (extra of ordstat that installs it, what else it needs)
EXTRAS = {
    "matplotlib": ("plot", ""),
    "rpy2": ("r", "R itself"),
    "skordinal": ("compare", ""),
    "mord": ("compare", ""),
    "dask": ("dask", ""),
    "distributed": ("dask", ""),
}


def install_hint(module: str) -> str:
    """How to install an optional module: 'pip install "ordstat[plot]"' (and R for rpy2)."""
    extra, also = EXTRAS.get(module.split(".")[0], (None, ""))
    hint = f'pip install "ordstat[{extra}]"' if extra else f"pip install {module}"
    return f"{hint} (and {also})" if also else hint


def available(module: str) -> bool:
    """Whether a module can be imported, found without importing it."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent that is not a package, or a None in sys.modules
        return False


class MissingExtraError(ImportError):
    """An optional dependency is missing (or, for rpy2, R cannot be started).

    Parameters
    ----------
    module : str
        The optional module, e.g. ``"matplotlib"``.
    what : str
        What needs it, e.g. ``"the figures of the report"``.
    detail : str, default=""
        Why it cannot be used, when it is installed but fails (e.g. R does not start).

    Attributes
    ----------
    module, what, extra : str
        The module, what needs it and the extra of ordstat that installs it (or None).
    reason : str
        The message without ``what``: "needs matplotlib: pip install "ordstat[plot]"".
    """

    def __init__(self, module: str, what: str, detail: str = ""):
        self.module = module
        self.what = what
        self.extra = EXTRAS.get(module.split(".")[0], (None, ""))[0]
        because = f" ({detail})" if detail else ""
        self.reason = f"needs {module}{because}: {install_hint(module)}"
        super().__init__(f"{what} {self.reason}", name=module)


def missing_extra(exc: BaseException) -> str | None:
    """The optional module an import error is about (a key of ``EXTRAS``), or None when the
    error is about anything else (a bug or a missing runtime dependency must not be hidden)."""
    if isinstance(exc, MissingExtraError):
        return exc.module
    if isinstance(exc, ImportError) and exc.name:
        top = exc.name.split(".")[0]
        return top if top in EXTRAS else None
    return None
