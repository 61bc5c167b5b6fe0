# The Python side, reached through reticulate. Modules are imported with delay_load so that
# library(ordstat) never starts Python; the first call that needs it does.

.ordstat <- new.env(parent = emptyenv())

.install_hint <- paste0(
  "Install the Python side with install_ordstat() (or `make venv-r` in the ordstat ",
  "repository, which creates .venv-r), or point ORDSTAT_PYTHON (or RETICULATE_PYTHON) to a ",
  "Python that has ordstat installed (with numpy < 2 for reticulate < 1.36).")

# The Python to use, in this order: ORDSTAT_PYTHON, RETICULATE_PYTHON (reticulate's own rule),
# a .venv-r/bin/python in the working directory or one of its parents (running from the
# repository, where `make venv-r` creates it), the virtualenv made by install_ordstat(), else
# whatever reticulate finds.
find_ordstat_python <- function(start = getwd()) {
  env <- Sys.getenv("ORDSTAT_PYTHON", "")
  if (nzchar(env)) return(env)
  if (nzchar(Sys.getenv("RETICULATE_PYTHON", ""))) return(NULL)
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
#' \code{virtualenv_create}) and installs the ordstat Python package into it with the versions
#' this reticulate can convert (numpy < 2 for reticulate < 1.36). \code{library(ordstat)} finds
#' the environment \code{"ordstat"} automatically in later sessions. From a clone of the
#' repository, \code{make venv-r} does the same into \code{.venv-r}.
#'
#' @param path Path to the ordstat source tree (a directory with pyproject.toml); \code{NULL}
#'   installs the \code{ordstat} package from the Python package index.
#' @param envname Name of the virtual environment.
#' @param python Python interpreter to create it with (default: reticulate's choice).
#' @return The path of the environment's Python, invisibly.
#' @examples
#' \dontrun{
#' install_ordstat("~/src/ordstat")
#' }
#' @export
install_ordstat <- function(path = NULL, envname = "ordstat", python = NULL) {
  source <- if (is.null(path)) "ordstat" else {
    if (!file.exists(file.path(path, "pyproject.toml"))) {
      stop(sprintf("install_ordstat(): '%s' has no pyproject.toml; give the ordstat source tree.",
                   path), call. = FALSE)
    }
    normalizePath(path)
  }
  pins <- if (utils::packageVersion("reticulate") < "1.36") {
    c("numpy>=1.26,<2", "pandas>=2.2,<2.3", "scikit-learn>=1.6,<1.7")
  } else character()
  if (is.null(python)) reticulate::virtualenv_create(envname)
  else reticulate::virtualenv_create(envname, python = python)
  reticulate::virtualenv_install(envname, c(source, pins), ignore_installed = FALSE)
  py <- reticulate::virtualenv_python(envname)
  message("ordstat installed into ", py, "; restart R and library(ordstat) will use it ",
          "(or set ORDSTAT_PYTHON=", py, ").")
  invisible(py)
}

.onLoad <- function(libname, pkgname) {
  python <- find_ordstat_python()
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
  .ordstat$rside <- reticulate::import("r_bridge._rside", convert = FALSE,
                                       delay_load = list(on_error = on_error))
}

#' Is the Python side of ordstat available?
#'
#' Which Python is used: \code{ORDSTAT_PYTHON} if set, else \code{RETICULATE_PYTHON}, else a
#' \code{.venv-r} in the working directory or one of its parents (the repository's, made by
#' \code{make venv-r}), else the virtual environment made by \code{\link{install_ordstat}},
#' else reticulate's own choice. The one found is set as \code{RETICULATE_PYTHON} for the
#' session when the package is loaded.
#'
#' \code{TRUE} when Python, numpy (a version this reticulate can convert) and the ordstat
#' Python package can be loaded. Tests and examples use it to skip cleanly.
#'
#' @return A single logical.
#' @examples
#' ordstat_available()
#' @export
ordstat_available <- function() {
  ok <- tryCatch({
    check_python()
    TRUE
  }, error = function(e) FALSE)
  isTRUE(ok)
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
