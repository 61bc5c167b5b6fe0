"""Run R's own ``rpart::rpart`` with the ordinal split criteria.

The criteria are written in R (``r_bridge/R/split.R``, the R package's ``ordinal_split``) as an
rpart user method, ``method = list(init, split, eval)``; this module sources that file and the
three it needs (``R_FILES``, shipped in the wheel as ``ordstat/r/R/``, links to the R package's
files in the repository) into a private R environment, so it works whether or not the R
package is installed. They are plain R: they need rpart and nothing of reticulate.

References
----------
Piccarreta, R. (2008). Classification trees for ordinal variables. Computational Statistics 23.
Therneau, T. M. and Atkinson, E. J. An introduction to recursive partitioning using the RPART
routines (section on user-written split functions).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ordstat._core.rpy import ro, to_py, to_r  # starts R first (ordstat._core.rpy.robjects)
import rpy2.rinterface as ri  # noqa: I001
from ordstat._core.names import CRITERION_NAMES, criterion_name

__all__ = ["rpart", "RpartResult", "R_CRITERIA", "rpart_frame", "r_split_goodness"]

# the criteria R's ordinal_split() implements: every built-in one (names as in ordstat._core.names)
R_CRITERIA = tuple(CRITERION_NAMES)
_CONTROLS = ("minsplit", "minbucket", "cp", "maxcompete", "maxsurrogate", "usesurrogate",
             "surrogatestyle", "maxdepth", "xval")
# the R package's files sourced here (criterion spellings, response checks, ordinal_split and
# split_goodness, rpart_from_tree), in the wheel as package data
R_DIR = Path(__file__).resolve().parent / "R"
R_FILES = ("aliases.R", "factor.R", "split.R", "export.R")
_ENV = None


def _env():
    """A private R environment holding ordinal_split() and its helpers (sourced once)."""
    global _ENV
    if _ENV is None:
        ro.r("suppressPackageStartupMessages(requireNamespace('rpart'))")
        env = ro.r("new.env(parent = globalenv())")
        for name in R_FILES:
            ro.r["sys.source"](str(R_DIR / name), envir=env, keep_source=False)
        _ENV = env
    return _ENV


def _check_criterion(criterion):
    """The canonical name of a criterion spelling (aliases of ``ordstat._core.names`` accepted)."""
    return criterion_name(criterion, "criterion")


def _check_controls(control):
    unknown = sorted(set(control) - set(_CONTROLS))
    if unknown:
        raise TypeError(
            f"unknown rpart control(s) {unknown}; rpart.control() accepts {list(_CONTROLS)}."
        )
    return control


@dataclass
class RpartResult:
    """What :func:`rpart` returns.

    Attributes
    ----------
    fit : rpy2 object
        The R object of class ``rpart`` (its ``method`` is ``"user"``).
    frame : pandas.DataFrame
        One row per node, in rpart's order (depth-first preorder, left before right), indexed by
        rpart's node number: ``var`` (``"<leaf>"`` at leaves), ``n``, ``wt``, ``dev``,
        ``yval`` (the predicted class label), ``threshold`` (numeric split point; NaN at
        leaves and categorical splits), ``below_left`` (True where ``x < threshold`` goes left,
        False where ``x >= threshold`` does: as rpart's class method, ``ordinal_split`` sends
        the side of lower mean class left), ``left_levels`` and ``right_levels``
        (categorical split: the levels sent left and right; levels absent from the node are in
        neither), ``improve`` and one ``count[<level>]`` column per class.
    """

    fit: object
    frame: pd.DataFrame

    @property
    def levels(self):
        return list(self.frame.attrs["levels"])


def rpart_frame(fit) -> pd.DataFrame:
    """pandas view of an rpart object fitted with ``ordinal_split`` (see :class:`RpartResult`)."""
    frame = ro.r("function(f) f$frame[, c('var', 'n', 'wt', 'dev', 'ncompete', 'nsurrogate')]")(fit)
    frame = to_py(frame)
    nodes = np.asarray(ro.r("function(f) as.integer(rownames(f$frame))")(fit), dtype=np.int64)
    yval2 = np.asarray(to_py(ro.r("function(f) unclass(f$frame$yval2)")(fit)))
    k = (yval2.shape[1] - 1) // 2
    levels = _levels_of(fit, k)
    var = frame["var"].astype(str).to_numpy()
    is_leaf = var == "<leaf>"
    threshold = np.full(len(var), np.nan)
    improve = np.full(len(var), np.nan)
    below_left = np.zeros(len(var), dtype=bool)
    left_levels = [None] * len(var)
    right_levels = [None] * len(var)
    has_splits = bool(ro.r("function(f) !is.null(f$splits)")(fit)[0])
    if has_splits:
        splits = np.asarray(to_py(ro.r("function(f) unclass(f$splits)")(fit)))
        csplit = to_py(ro.r("function(f) if (is.null(f$csplit)) NULL else unclass(f$csplit)")(fit))
        xlevels = ro.r("function(f) attr(f, 'xlevels')")(fit)
        row = 0
        ncompete = frame["ncompete"].to_numpy()
        nsurrogate = frame["nsurrogate"].to_numpy()
        for j in range(len(var)):
            if is_leaf[j]:
                continue
            count, ncat, imp, index = splits[row, :4]
            improve[j] = imp
            if ncat in (-1.0, 1.0):
                # rpart: ncat = -1 means "x < index" goes left, +1 "x >= index" (ordinal_split
                # sends the side of lower mean class left, as rpart's class method)
                threshold[j] = index
                below_left[j] = ncat == -1.0
            else:
                names = list(ro.r["[["](xlevels, var[j]))
                codes = np.asarray(csplit)[int(index) - 1, : int(ncat)]
                # rpart's csplit: 1 = left, 3 = right, 2 = level absent from the node
                left_levels[j] = [names[i] for i in range(int(ncat)) if codes[i] == 1]
                right_levels[j] = [names[i] for i in range(int(ncat)) if codes[i] == 3]
            row += 1 + int(ncompete[j]) + int(nsurrogate[j])
    counts = yval2[:, 1:1 + k]
    out = pd.DataFrame({
        "var": var,
        "n": frame["n"].to_numpy(),
        "wt": frame["wt"].to_numpy(),
        "dev": frame["dev"].to_numpy(),
        "yval": [levels[int(c) - 1] for c in yval2[:, 0]],
        "threshold": threshold,
        "below_left": below_left,
        "left_levels": left_levels,
        "right_levels": right_levels,
        "improve": improve,
    }, index=pd.Index(nodes, name="node"))
    for i, lev in enumerate(levels):
        out[f"count[{lev}]"] = counts[:, i]
    out.attrs["levels"] = levels
    return out


def _levels_of(fit, k):
    # the response levels are kept in the closures of the fitted method's init; the model frame
    # (kept with model=TRUE) or the call's data have them too, but the print function is the
    # one place that always has them: its environment holds `lev`.
    lev = ro.r("function(f) get0('lev', envir = environment(f$functions$print), "
               "inherits = FALSE)")(fit)
    if lev is ri.NULL or len(lev) != k:
        return [str(i + 1) for i in range(k)]
    return [str(v) for v in lev]


def rpart(formula, data, criterion="ordinal", *, cost=None, scores=None, weights=None,
          **control) -> RpartResult:
    """Fit R's ``rpart::rpart`` with an ordinal split criterion.

    Parameters
    ----------
    formula : str
        An R model formula, e.g. ``"y ~ ."``; the response must be an ordered Categorical
        column of ``data`` (an R ordered factor).
    data : pandas.DataFrame
        Converted with :data:`ordstat.r.converter` (ordered Categoricals become ordered factors).
    criterion : str, default="ordinal"
        "ordinal", "twoing", "gini", "entropy", "gini_linear", "gini_quadratic" (generalized
        Gini, eq. 9 of Archer & Mas 2009), "loss_linear" or "loss_quadratic" (rpart's loss
        matrix, altered priors; leaves of least expected loss, so the tree is rpart's
        ``method = "class", parms = list(loss = L)`` up to the order of the children): the
        names and formulas of ``ordstat.trees.criteria``, whose aliases (e.g. "linear",
        "rpart_linear") are accepted too.
    cost : array-like of shape (K, K), optional
        Cost matrix for the generalized Gini criteria, loss matrix for the loss criteria.
    scores : array-like of shape (K,), optional
        Increasing class scores for the ordinal criterion.
    weights : array-like of shape (n_samples,), optional
        Case weights.
    **control
        Passed to ``rpart.control``: minsplit, minbucket, cp, maxcompete, maxsurrogate,
        usesurrogate, surrogatestyle, maxdepth, xval.

    Returns
    -------
    RpartResult
        ``fit`` (the R object) and ``frame`` (a pandas view of its nodes).

    Raises
    ------
    ValueError, TypeError
        For an unknown criterion or control, or a data frame that is not a DataFrame; R's own
        errors (e.g. an unordered response) come back as
        ``rpy2.rinterface_lib.embedded.RRuntimeError``.
    """
    name = _check_criterion(criterion)
    _check_controls(control)
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a pandas DataFrame; got {type(data).__name__}.")
    if not isinstance(formula, str) or "~" not in formula:
        raise ValueError(f"formula must be an R formula string such as 'y ~ .'; got {formula!r}.")
    env = _env()
    method = env["ordinal_split"](
        name,
        cost=ri.NULL if cost is None else to_r(np.asarray(cost, dtype=np.float64)),
        scores=ri.NULL if scores is None else to_r(np.asarray(scores, dtype=np.float64)),
    )
    rdata = to_r(data)
    ctrl = ro.r["list"](**{k: v for k, v in control.items()})
    fitter = ro.r("""function(formula, data, method, control, weights) {
        control <- do.call(rpart::rpart.control, control)
        # weights live in the formula's environment, so that "y ~ ." does not pick them up
        environment(formula) <- list2env(list(.ordstat_weights = weights), parent = globalenv())
        if (is.null(weights)) {
            rpart::rpart(formula, data = data, method = method, control = control)
        } else {
            rpart::rpart(formula, data = data, method = method, control = control,
                         weights = .ordstat_weights)
        }
    }""")
    w = ri.NULL if weights is None else to_r(np.asarray(weights, dtype=np.float64))
    fit = fitter(ro.Formula(formula), rdata, method, ctrl, w)
    return RpartResult(fit=fit, frame=rpart_frame(fit))


def r_split_goodness(left, right, criterion="ordinal", *, cost=None, scores=None):
    """The R criteria's goodness for given child counts (to check them against Python's)."""
    name = _check_criterion(criterion)
    env = _env()
    out = env["split_goodness"](
        to_r(np.atleast_2d(np.asarray(left, dtype=np.float64))),
        to_r(np.atleast_2d(np.asarray(right, dtype=np.float64))),
        name,
        cost=ri.NULL if cost is None else to_r(np.asarray(cost, dtype=np.float64)),
        scores=ri.NULL if scores is None else to_r(np.asarray(scores, dtype=np.float64)),
    )
    return np.asarray(out, dtype=np.float64)
