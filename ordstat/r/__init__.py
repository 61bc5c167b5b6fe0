"""The rpy2 bridge to R (the R package over reticulate is r_bridge/ in the repository).

The Python side needs rpy2 (the ``r`` extra) and R with rpart; importing ``ordstat.r`` itself
does not start R, the submodules do.

- :data:`converter`, :func:`to_r`, :func:`to_py`: the local rpy2 converter (defined in
  ``ordstat._core.rpy``, which the data loaders use too);
- :func:`rpart`: R's ``rpart::rpart`` with the ordinal split criteria;
- :func:`to_rpart`: a fitted ``OrdinalTreeClassifier`` as an R ``rpart`` object.
"""

__all__ = ["converter", "to_r", "to_py", "rpart", "RpartResult", "to_rpart", "robjects"]


def robjects():
    """``rpy2.robjects``, starting R if needed (``ordstat._core.rpy.robjects``: the process
    environment is kept, so that joblib's workers still start)."""
    # imported here: ordstat._core.rpy starts R when imported
    from ordstat._core.rpy import robjects as start

    return start()


def __getattr__(name):
    # Lazy: starting R is slow and must not happen on `import ordstat.r`.
    if name in ("converter", "to_r", "to_py"):
        from ordstat._core import rpy
        return getattr(rpy, name)
    if name in ("rpart", "RpartResult"):
        from . import _rpart
        return getattr(_rpart, name)
    if name == "to_rpart":
        from . import _export
        return _export.to_rpart
    raise AttributeError(f"module 'ordstat.r' has no attribute {name!r}")
