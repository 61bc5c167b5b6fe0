# The Python side, reached through reticulate. Modules are imported with delay_load so that
# library(ordstat) never starts Python; the first call that needs it does.

.ordstat <- new.env(parent = emptyenv())

# Evaluated once, when the package is installed (R CMD INSTALL runs this file in the source
# directory of the package): the ordstat source tree the package was built from (the nearest
# parent with pyproject.toml and ordstat/__init__.py) and the Python to use, ORDSTAT_PYTHON at
# install time or that tree's .venv-r. Both are NULL for an install from a tarball.
find_source_tree <- function(start) {
  dir <- normalizePath(start, mustWork = FALSE)
  repeat {
    if (file.exists(file.path(dir, "pyproject.toml")) &&
        file.exists(file.path(dir, "ordstat", "__init__.py"))) return(dir)
    parent <- dirname(dir)
    if (identical(parent, dir)) return(NULL)
    dir <- parent
  }
}

.install_record <- local({
  source <- find_source_tree(getwd())
  python <- Sys.getenv("ORDSTAT_PYTHON", "")
  if (!nzchar(python) && !is.null(source)) {
    candidate <- file.path(source, ".venv-r", "bin", "python")
    if (file.exists(candidate)) python <- candidate
  }
  list(source = source, python = if (nzchar(python)) python else NULL)
})

.install_hint <- paste0(
  "Install the Python side with install_ordstat() (or `make venv-r` in the ordstat ",
  "repository, which creates .venv-r), or point options(ordstat.python = ) or ORDSTAT_PYTHON ",
  "to a Python that has ordstat installed (with numpy < 2 for reticulate < 1.36).")

# The Python to use, first found of: options(ordstat.python), ORDSTAT_PYTHON,
# RETICULATE_PYTHON (reticulate's own rule: NULL here), the Python recorded at install time, a
# .venv-r/bin/python in the working directory or one of its parents, the virtualenv made by
# install_ordstat(), else whatever reticulate finds (NULL).
find_ordstat_python <- function(start = getwd(), record = .install_record) {
  option <- getOption("ordstat.python")
  if (is.character(option) && length(option) == 1L && nzchar(option)) return(option)
  env <- Sys.getenv("ORDSTAT_PYTHON", "")
  if (nzchar(env)) return(env)
  if (nzchar(Sys.getenv("RETICULATE_PYTHON", ""))) return(NULL)
  if (!is.null(record$python) && file.exists(record$python)) return(record$python)
  dir <- normalizePath(start, mustWork = FALSE)
  repeat {
    candidate <- file.path(dir, ".venv-r", "bin", "python")
    if (file.exists(candidate)) return(candidate)
    parent <- dirname(dir)
    if (identical(parent, dir)) break
    dir <- parent
  }
  venv <- tryCatch(reticulate::virtualenv_python("ordstat"), error = function(e) NULL)
  if (!is.null(venv) && file.exists(venv)) venv else NULL
}

#' Install the Python side of ordstat for R
#'
#' Creates a Python virtual environment named \code{envname} (reticulate's
#' \code{virtualenv_create}) and installs into it the ordstat Python package from a local
#' source tree, with the numpy, pandas and scikit-learn versions this reticulate can convert
#' (numpy < 2 for reticulate < 1.36). The ordstat package itself always comes from the local
#' tree, never from a package index. \code{library(ordstat)} finds the environment
#' \code{"ordstat"} automatically in later sessions. From a clone of the repository,
#' \code{make venv-r} does the same into \code{.venv-r}.
#'
#' @param path Path to the ordstat source tree (a directory with \code{pyproject.toml}); by
#'   default the tree this R package was installed from, when it was installed from a
#'   directory of that tree (see \code{ordstat_python_info()}).
#' @param envname Name of the virtual environment.
#' @param python Python interpreter to create it with (default: reticulate's choice).
#' @return The path of the environment's Python, invisibly. A message says what was installed
#'   from where.
#' @examples
#' \dontrun{
#' install_ordstat("~/src/ordstat")
#' }
#' @export
install_ordstat <- function(path = NULL, envname = "ordstat", python = NULL) {
  packages <- install_packages(path)
  if (is.null(python)) reticulate::virtualenv_create(envname)
  else reticulate::virtualenv_create(envname, python = python)
  reticulate::virtualenv_install(envname, packages, ignore_installed = FALSE)
  py <- reticulate::virtualenv_python(envname)
  message("install_ordstat(): installed the ordstat Python package from ", packages[1L],
          if (length(packages) > 1L) paste0(" (with ", paste(packages[-1L], collapse = ", "),
                                            ")") else "",
          " into the virtual environment '", envname, "' (", py, "). Restart R and ",
          "library(ordstat) will use it (or set ORDSTAT_PYTHON=", py, ").")
  invisible(py)
}

# What pip installs: the local source tree first (a path, so pip never looks ordstat up in an
# index), then the versions this reticulate can convert.
install_packages <- function(path = NULL, record = .install_record) {
  if (is.null(path)) path <- record$source
  if (is.null(path)) {
    stop(paste0("install_ordstat(): this R package was not installed from an ordstat source ",
                "tree, so 'path' must give one (a directory with pyproject.toml), e.g. ",
                "install_ordstat(\"~/src/ordstat\")."), call. = FALSE)
  }
  if (!is.character(path) || length(path) != 1L ||
      !file.exists(file.path(path, "pyproject.toml"))) {
    stop(sprintf(paste0("install_ordstat(): 'path' must be the ordstat source tree (a ",
                        "directory with pyproject.toml); '%s' has none."),
                 paste(format(path), collapse = " ")), call. = FALSE)
  }
  pins <- if (utils::packageVersion("reticulate") < "1.36") {
    c("numpy>=1.26,<2", "pandas>=2.2,<2.3", "scikit-learn>=1.6,<1.7")
  } else character()
  c(normalizePath(path), pins)
}

#' Where the Python side of ordstat comes from
#'
#' Which Python is used: \code{getOption("ordstat.python")} if set, else the environment
#' variable \code{ORDSTAT_PYTHON}, else \code{RETICULATE_PYTHON}, else the Python recorded when
#' the package was installed (\code{ORDSTAT_PYTHON} at install time, or the \code{.venv-r} of
#' the source tree it was installed from), else a \code{.venv-r} in the working directory or
#' one of its parents, else the virtual environment made by \code{\link{install_ordstat}}, else
#' reticulate's own choice. The one found is set as \code{RETICULATE_PYTHON} for the session
#' when the package is loaded.
#'
#' \code{ordstat_available()} is \code{TRUE} when Python, numpy (a version this reticulate can
#' convert) and the ordstat Python package can be loaded; tests and examples use it to skip
#' cleanly. \code{ordstat_python_info()} lists what was found and recorded.
#'
#' @return \code{ordstat_available()}: a single logical. \code{ordstat_python_info()}: a list
#'   with \code{python} (the Python chosen at load time, \code{NULL} when left to reticulate),
#'   \code{recorded_python} and \code{source_tree} (recorded at install time, or \code{NULL}).
#' @examples
#' ordstat_available()
#' ordstat_python_info()
#' @export
ordstat_available <- function() {
  ok <- tryCatch({
    check_python()
    TRUE
  }, error = function(e) FALSE)
  isTRUE(ok)
}

#' @rdname ordstat_available
#' @export
ordstat_python_info <- function() {
  list(python = .ordstat$python, recorded_python = .install_record$python,
       source_tree = .install_record$source)
}

.onLoad <- function(libname, pkgname) {
  python <- find_ordstat_python()
  .ordstat$python <- python
  if (!is.null(python) && !reticulate::py_available(initialize = FALSE)) {
    # reticulate 1.28 consults a pyproject.toml in the working directory (taking the
    # repository for a Poetry project) before use_python(); only RETICULATE_PYTHON comes
    # first, so the Python found here is put there for this session.
    Sys.setenv(RETICULATE_PYTHON = python)
  }
  on_error <- function(e) {
    stop("ordstat: the Python module could not be imported (", conditionMessage(e), "). ",
         .install_hint, call. = FALSE)
  }
  .ordstat$py <- reticulate::import("ordstat", delay_load = list(on_error = on_error))
  # convert = FALSE: results stay Python objects until converted explicitly (py_value), so a
  # pandas DataFrame built for a fit is never round-tripped through an R data.frame.
  .ordstat$rside <- reticulate::import("ordstat.r._rside", convert = FALSE,
                                       delay_load = list(on_error = on_error))
}

# Stop with a clear message when Python cannot be used; returns the helper module.
check_python <- function() {
  if (isTRUE(.ordstat$checked)) return(invisible(.ordstat$rside))
  if (!reticulate::py_available(initialize = TRUE)) {
    stop("ordstat: no Python was found by reticulate. ", .install_hint, call. = FALSE)
  }
  if (!reticulate::py_module_available("ordstat")) {
    stop("ordstat: Python (", reticulate::py_config()$python,
         ") has no module 'ordstat'. ", .install_hint, call. = FALSE)
  }
  numpy <- reticulate::py_config()$numpy
  if (!is.null(numpy) && utils::packageVersion("reticulate") < "1.36" &&
      numeric_version(as.character(numpy$version)) >= "2.0") {
    stop("ordstat: reticulate ", as.character(utils::packageVersion("reticulate")),
         " cannot convert arrays with numpy ", as.character(numpy$version),
         " (", reticulate::py_config()$python, "). ", .install_hint, call. = FALSE)
  }
  .ordstat$checked <- TRUE
  invisible(.ordstat$rside)
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
