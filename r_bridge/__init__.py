"""Everything about R: the rpy2 bridge and the R package (r_bridge/rpkg).

The Python side needs rpy2 (the ``r`` extra) and R with rpart; importing ``r_bridge`` itself
does not start R, the submodules do.

- :mod:`r_bridge._convert`: the local rpy2 converter (:data:`converter`, :func:`to_r`,
  :func:`to_py`);
- :func:`rpart`: R's ``rpart::rpart`` with the ordinal split criteria;
- :func:`to_rpart`: a fitted ``OrdinalTreeClassifier`` as an R ``rpart`` object.
"""

import os

__all__ = ["converter", "to_r", "to_py", "rpart", "RpartResult", "to_rpart", "robjects"]


def robjects():
    """``rpy2.robjects``, starting R if needed, with the process environment left as it was.

    R's start-up puts its own library folders (``/usr/lib/R/lib:/usr/lib/x86_64-linux-gnu:...``)
    first on ``LD_LIBRARY_PATH``. Python processes started afterwards (joblib's workers for
    ``n_jobs > 1``) would then load the system's libpython instead of this interpreter's and fail
    at start-up, so the variable is restored once R is running (R itself no longer needs it).
    """
    before = os.environ.get("LD_LIBRARY_PATH")
    import rpy2.robjects as ro

    if before is None:
        os.environ.pop("LD_LIBRARY_PATH", None)
    else:
        os.environ["LD_LIBRARY_PATH"] = before
    return ro


def __getattr__(name):
    # Lazy: starting R is slow and must not happen on `import r_bridge`.
    if name in ("converter", "to_r", "to_py"):
        from . import _convert
        return getattr(_convert, name)
    if name in ("rpart", "RpartResult"):
        from . import _rpart
        return getattr(_rpart, name)
    if name == "to_rpart":
        from . import _export
        return _export.to_rpart
    raise AttributeError(f"module 'r_bridge' has no attribute {name!r}")
