# Finding Python: which Python the package uses (the order of ordstat_available()'s help), the
# record made when the package is installed, and .onLoad, which puts the Python found into
# RETICULATE_PYTHON for the session. Nothing here starts Python.

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

#' Where the Python side of ordstat comes from
#'
#' Which Python is used: \code{getOption("ordstat.python")} if set, else the environment
#' variable \code{ORDSTAT_PYTHON}, else \code{RETICULATE_PYTHON}, else the Python recorded when
#' the package was installed (\code{ORDSTAT_PYTHON} at install time, or the \code{.venv-r} of
#' the source tree it was installed from), else a \code{.venv-r} in the working directory or
#' one of its parents, else the virtual environment made by \code{\link{install_ordstat}}, else
#' reticulate's own choice. The one found is set as \code{RETICULATE_PYTHON} for the session
#' when the package is loaded. \code{RETICULATE_PYTHON} set before is left as it is (and used).
#'
#' reticulate runs one Python per R session: if a Python was started before
#' \code{library(ordstat)} (by \code{reticulate::py_config()}, \code{reticulate::use_python()}
#' followed by a call to Python, or another package), the package still loads and that Python
#' is used; if it has no ordstat Python package, \code{ordstat_available()} is \code{FALSE} and
#' the first model call stops with an error that names the running Python and how to choose
#' another in a new session.
#'
#' \code{ordstat_available()} is \code{TRUE} when Python, numpy (a version this reticulate can
#' convert) and the ordstat Python package can be loaded; tests and examples use it to skip
#' cleanly. \code{ordstat_python_info()} lists what was found and recorded.
#'
#' @return \code{ordstat_available()}: a single logical. \code{ordstat_python_info()}: a list
#'   with \code{python} (the Python chosen at load time, \code{NULL} when left to reticulate),
#'   \code{recorded_python} and \code{source_tree} (recorded at install time, or \code{NULL})
#'   and \code{problem} (why the last \code{ordstat_available()} was \code{FALSE}: what is
#'   missing and how to set it up; else \code{NULL}).
#' @examples
#' ordstat_available()
#' ordstat_python_info()
#' @export
ordstat_available <- function() {
  .ordstat$problem <- NULL
  ok <- tryCatch({
    check_python()
    TRUE
  }, error = function(e) {
    .ordstat$problem <- conditionMessage(e)
    FALSE
  })
  isTRUE(ok)
}

#' @rdname ordstat_available
#' @export
ordstat_python_info <- function() {
  list(python = .ordstat$python, recorded_python = .install_record$python,
       source_tree = .install_record$source, problem = .ordstat$problem)
}

.onLoad <- function(libname, pkgname) {
  python <- find_ordstat_python()
  .ordstat$python <- python
  # reticulate runs one Python per session: one started before library(ordstat) (by
  # reticulate::py_config(), another package, ...) stays, whatever is found here
  .ordstat$started_before <- reticulate::py_available(initialize = FALSE)
  if (!is.null(python) && !.ordstat$started_before) {
    # reticulate 1.28 consults a pyproject.toml in the working directory (taking the
    # repository for a Poetry project) before use_python(); only RETICULATE_PYTHON comes
    # first, so the Python found here is put there for this session.
    Sys.setenv(RETICULATE_PYTHON = python)
  }
  # Nothing is imported here: loading the package never starts Python nor fails for want of
  # the Python package; check_python() imports on first use, with a clear error.
}
