# Using Python, reached through reticulate. Nothing is imported when the package loads, so
# that library(ordstat) never starts Python; the first call that needs it (check_python) does.
# Then: the helper module (rside()), models kept across sessions (py_persist, py_model) and
# seeds drawn from R's random numbers (random_seed).

.ordstat <- new.env(parent = emptyenv())

# Stop with a clear message when Python cannot be used; returns the helper module.
check_python <- function() {
  if (isTRUE(.ordstat$checked)) return(invisible(.ordstat$rside))
  if (!reticulate::py_available(initialize = TRUE)) {
    stop("ordstat: no Python was found by reticulate. ", .install_hint, call. = FALSE)
  }
  # the module the R package calls, not just "ordstat": a folder named ordstat in the working
  # directory (R CMD check's installed package, say) imports as an empty namespace package
  if (!reticulate::py_module_available("ordstat.r._rside")) {
    stop(missing_module_message(reticulate::py_config()$python), call. = FALSE)
  }
  numpy <- reticulate::py_config()$numpy
  if (!is.null(numpy) && utils::packageVersion("reticulate") < "1.36" &&
      numeric_version(as.character(numpy$version)) >= "2.0") {
    stop("ordstat: reticulate ", as.character(utils::packageVersion("reticulate")),
         " cannot convert arrays with numpy ", as.character(numpy$version),
         " (", reticulate::py_config()$python, "). ", .install_hint, call. = FALSE)
  }
  imported <- tryCatch(list(
    py = import_installed(),
    # convert = FALSE: results stay Python objects until converted explicitly (py_value), so
    # a pandas DataFrame built for a fit is never round-tripped through an R data.frame.
    rside = reticulate::import("ordstat.r._rside", convert = FALSE)
  ), error = function(e) {
    stop("ordstat: the Python package ordstat could not be imported in ",
         reticulate::py_config()$python, " (", first_line(conditionMessage(e)), "). ",
         .install_hint, call. = FALSE)
  })
  .ordstat$py <- imported$py
  .ordstat$rside <- imported$rside
  .ordstat$checked <- TRUE
  warn_version_mismatch(tryCatch(as.character(.ordstat$py$`__version__`),
                                 error = function(e) "unknown"))
  invisible(.ordstat$rside)
}

first_line <- function(text) sub("\n.*$", "", text)

# The installed Python package, whatever the working directory holds: a folder named ordstat
# there (R's own library folder, the parent of a clone of the repository) would otherwise be
# imported as an empty namespace package in its place, from Python's path entry for the
# working directory.
import_installed <- function() {
  reticulate::py_run_string(paste(
    "def _import_installed_ordstat():",
    "    import importlib, os, sys",
    "    here = os.path.abspath(os.getcwd())",
    "    if getattr(sys.modules.get('ordstat'), '__file__', '') is None:",
    "        for name in [m for m in sys.modules if m.split('.')[0] == 'ordstat']:",
    "            del sys.modules[name]",
    "    saved = list(sys.path)",
    "    sys.path[:] = [p for p in sys.path if os.path.abspath(p or '.') != here]",
    "    try:",
    "        importlib.import_module('ordstat')",
    "    finally:",
    "        sys.path[:] = saved",
    "_import_installed_ordstat()",
    sep = "\n"), local = TRUE)
  module <- reticulate::import("ordstat")
  if (is.null(reticulate::py_get_attr(module, "__file__", silent = TRUE))) {
    stop("the module ordstat is a folder without the Python package (",
         paste(reticulate::py_to_r(reticulate::py_get_attr(module, "__path__")), collapse = ", "),
         ")", call. = FALSE)
  }
  module
}

# Why the running Python cannot be used, which Python ordstat looked for, and how to choose
# another: in a new session (reticulate cannot switch Pythons within one).
missing_module_message <- function(running, state = .ordstat) {
  wanted <- state$python
  same <- !is.null(wanted) && identical(normalizePath(wanted, mustWork = FALSE),
                                        normalizePath(running, mustWork = FALSE))
  why <- if (isTRUE(state$started_before)) {
    paste0(" reticulate had started this Python before library(ordstat)",
           if (!is.null(wanted) && !same) paste0(" (ordstat would have used ", wanted, ")")
           else "",
           ", and an R session keeps the Python it started.")
  } else if (!is.null(wanted) && !same) {
    paste0(" (ordstat chose ", wanted, ", but reticulate runs ", running, ").")
  } else ""
  paste0("ordstat: the Python running in this session (", running, ") has no module ",
         "'ordstat' (the Python package, with ordstat.r).", why, " In a new R session, ",
         "before library(ordstat) and before anything starts Python, set ORDSTAT_PYTHON (or ",
         "RETICULATE_PYTHON, or options(ordstat.python = )) to a Python that has the ordstat ",
         "Python package, or run install_ordstat() once to create one.")
}

# The warning (once per session) when the Python package's version is not this R package's:
# models are pickled by one and read by the other, and the wrappers follow one version's API.
warn_version_mismatch <- function(python_version,
                                  r_version = as.character(utils::packageVersion("ordstat")),
                                  state = .ordstat) {
  if (isTRUE(state$version_warned) || identical(python_version, r_version)) {
    return(invisible(FALSE))
  }
  state$version_warned <- TRUE
  warning(version_mismatch_message(python_version, r_version), call. = FALSE)
  invisible(TRUE)
}

version_mismatch_message <- function(python_version, r_version) {
  python <- tryCatch(reticulate::py_config()$python, error = function(e) "this Python")
  sprintf(paste0(
    "ordstat: the Python package ordstat is version %s (in %s) but the R package is version ",
    "%s; they must be the same. Install the matching Python package with install_ordstat() ",
    "(pip install \"ordstat==%s\" into the virtual environment 'ordstat'; restart R), or ",
    "point ORDSTAT_PYTHON (or options(ordstat.python = )) at a Python that has ordstat %s."),
    python_version, python, r_version, r_version, r_version)
}

py_value <- function(x) reticulate::py_to_r(x)

rside <- function() {
  check_python()
  .ordstat$rside
}

# --- Persistence: fitted models that survive saveRDS()/readRDS() and save()/load() ---------
#
# A reticulate object is an external pointer, NULL in a new session. So every model object
# keeps the pickled Python estimator as a raw vector ($pickle) and a cache environment
# ($cache) holding the live Python object; py_model() restores it from the pickle when the
# cache is empty or stale (a new session), once per session.
#
# Any wrapper: object <- c(list(...), py_persist(py)); later py_model(object).

py_persist <- function(py) {
  cache <- new.env(parent = emptyenv())
  cache$py <- py
  list(pickle = as.raw(py_value(rside()$dumps(py))), cache = cache)
}

py_model <- function(object) {
  cache <- object$cache
  if (is.environment(cache) && !is.null(cache$py) && !reticulate::py_is_null_xptr(cache$py)) {
    return(cache$py)
  }
  if (is.null(object$pickle)) {
    stop("ordstat: this model object has no saved Python model; refit it.", call. = FALSE)
  }
  py <- tryCatch(rside()$loads(as.array(as.integer(object$pickle))), error = function(e) {
    stop("ordstat: the saved Python model could not be restored (", conditionMessage(e),
         "); it was saved with another version of the Python package? Refit it.",
         call. = FALSE)
  })
  if (is.environment(cache)) cache$py <- py
  py
}

# --- Randomness: set.seed() reaches Python -------------------------------------------------
#
# Without an explicit random_state a seed is drawn from R's RNG, so set.seed(1) before two
# fits gives identical fits (cross-validation folds included). A given random_state goes to
# Python as it is, which checks it. Any stochastic wrapper:
# params$random_state <- random_seed(random_state).

random_seed <- function(random_state) {
  if (is.null(random_state)) sample.int(.Machine$integer.max, 1L) - 1L else random_state
}
