# The Python side, reached through reticulate. Modules are imported with delay_load so that
# library(ordstat) never starts Python; the first call that needs it does.

.ordstat <- new.env(parent = emptyenv())

.install_hint <- paste0(
  "Install the Python package with numpy < 2 for Debian's reticulate (e.g. `make venv-r` ",
  "in the ordstat repository, which creates .venv-r), or point ORDSTAT_PYTHON (or ",
  "RETICULATE_PYTHON) to a Python that has ordstat installed.")

# The Python to use, in this order: ORDSTAT_PYTHON, RETICULATE_PYTHON (reticulate's own rule),
# a .venv-r/bin/python in the working directory or one of its parents (running from the
# repository), else whatever reticulate finds.
find_ordstat_python <- function(start = getwd()) {
  env <- Sys.getenv("ORDSTAT_PYTHON", "")
  if (nzchar(env)) return(env)
  if (nzchar(Sys.getenv("RETICULATE_PYTHON", ""))) return(NULL)
  dir <- normalizePath(start, mustWork = FALSE)
  repeat {
    candidate <- file.path(dir, ".venv-r", "bin", "python")
    if (file.exists(candidate)) return(candidate)
    parent <- dirname(dir)
    if (identical(parent, dir)) return(NULL)
    dir <- parent
  }
}

.onLoad <- function(libname, pkgname) {
  python <- find_ordstat_python()
  if (!is.null(python)) {
    # required = TRUE takes precedence over reticulate's project discovery (a pyproject.toml in
    # the repository looks like a Poetry project to it); fails harmlessly when another Python
    # already runs in this session.
    try(reticulate::use_python(python, required = TRUE), silent = TRUE)
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
