# The Python side, reached through reticulate. Nothing is imported when the package loads, so
# that library(ordstat) never starts Python; the first call that needs it (check_python) does.

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
  "to a Python that has the ordstat Python package of the R package's version installed ",
  "(with numpy < 2 for reticulate < 1.36).")

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
#' \code{virtualenv_create}) and installs into it, with pip, the ordstat Python package and the
#' numpy, pandas and scikit-learn versions this reticulate can convert (numpy < 2 for
#' reticulate < 1.36). \code{library(ordstat)} finds the environment \code{"ordstat"}
#' automatically in later sessions, unless \code{options(ordstat.python = )},
#' \code{ORDSTAT_PYTHON} or \code{RETICULATE_PYTHON} names another Python (the order of
#' \code{\link{ordstat_available}}). The Python package must have the version of this R
#' package: the first use of Python in a session warns when they differ.
#'
#' @param package What to install: \code{NULL} (the default) for the requirement
#'   \code{"ordstat==<version of this R package>"} from the Python package index (PyPI); a
#'   local directory (an ordstat source tree, with \code{pyproject.toml}); the path of a wheel
#'   (\code{.whl}) or source distribution (\code{.tar.gz}) of ordstat; or a pip requirement
#'   for ordstat (\code{"ordstat==0.1.0"}, \code{"ordstat[r]>=0.1"}, \code{"ordstat @ URL"}).
#' @param envname Name of the virtual environment.
#' @param python Python interpreter to create it with (default: reticulate's choice).
#' @return The path of the environment's Python, invisibly. A message says what was installed
#'   from where.
#' @examples
#' \dontrun{
#' install_ordstat()                                      # ordstat==<version> from PyPI
#' install_ordstat("~/src/ordstat")                       # a source tree
#' install_ordstat("dist/ordstat-0.1.0-py3-none-any.whl") # a wheel
#' }
#' @export
install_ordstat <- function(package = NULL, envname = "ordstat", python = NULL) {
  source <- python_package_source(package)
  packages <- install_packages(source)
  if (is.null(python)) reticulate::virtualenv_create(envname)
  else reticulate::virtualenv_create(envname, python = python)
  py <- reticulate::virtualenv_python(envname)
  args <- pip_arguments(packages)
  status <- system2(py, shQuote(args))
  if (!identical(as.integer(status), 0L)) {
    stop(sprintf("install_ordstat(): pip failed (exit status %s): %s %s", status, py,
                 paste(args, collapse = " ")), call. = FALSE)
  }
  message("install_ordstat(): installed the ordstat Python package from ", source$what,
          if (length(packages) > 1L) paste0(" (with ", paste(packages[-1L], collapse = ", "),
                                            ")") else "",
          " into the virtual environment '", envname, "' (", py, "). Restart R and ",
          "library(ordstat) will use it (or set ORDSTAT_PYTHON=", py, ").")
  invisible(py)
}

# What `package` of install_ordstat() names: a list with kind ("requirement", "directory",
# "wheel" or "sdist"), spec (what pip gets: the requirement, or the normalised path) and what
# (for messages). Existing paths are taken as paths; a string that looks like a path or a
# file name but exists nowhere is an error, not a requirement for pip to look up.
python_package_source <- function(package = NULL,
                                  version = as.character(utils::packageVersion("ordstat"))) {
  if (is.null(package)) package <- paste0("ordstat==", version)
  if (!is.character(package) || length(package) != 1L || is.na(package) || !nzchar(package)) {
    stop("install_ordstat(): 'package' must be one string: a source tree, a wheel or sdist ",
         "path, or a pip requirement for ordstat.", call. = FALSE)
  }
  path <- path.expand(package)
  is_wheel <- grepl("\\.whl$", path, ignore.case = TRUE)
  is_sdist <- grepl("\\.tar\\.gz$", path, ignore.case = TRUE)
  if (dir.exists(path)) {
    if (!file.exists(file.path(path, "pyproject.toml"))) {
      stop(sprintf(paste0("install_ordstat(): the directory '%s' is not an ordstat source ",
                          "tree (it has no pyproject.toml)."), package), call. = FALSE)
    }
    path <- normalizePath(path)
    return(list(kind = "directory", spec = path, what = paste0("the source tree ", path)))
  }
  if (file.exists(path)) {
    if (!(is_wheel || is_sdist) || !startsWith(tolower(basename(path)), "ordstat-")) {
      stop(sprintf(paste0("install_ordstat(): '%s' is not a wheel or source distribution of ",
                          "ordstat (ordstat-<version>-....whl or ordstat-<version>.tar.gz)."),
                   package), call. = FALSE)
    }
    path <- normalizePath(path)
    kind <- if (is_wheel) "wheel" else "sdist"
    return(list(kind = kind, spec = path, what = paste0("the ", kind, " ", path)))
  }
  # a requirement: the project name ordstat, optional extras, then a version specifier, an
  # environment marker or a direct reference ("@ URL")
  if (grepl("^ordstat(\\[[A-Za-z0-9_,. -]*\\])?\\s*([<>=!~@;( ].*)?$", package,
            ignore.case = TRUE)) {
    return(list(kind = "requirement", spec = trimws(package),
                what = paste0("the requirement \"", trimws(package),
                              "\" (from the package index)")))
  }
  if (is_wheel || is_sdist || grepl("[/\\\\]", package) || startsWith(package, "~") ||
      startsWith(package, ".")) {
    stop(sprintf("install_ordstat(): there is no file or directory '%s'.", package),
         call. = FALSE)
  }
  stop(sprintf(paste0("install_ordstat(): '%s' is neither an existing path nor a pip ",
                      "requirement for ordstat (such as \"ordstat==%s\")."), package, version),
       call. = FALSE)
}

# What pip installs: ordstat (python_package_source()'s spec) first, then the versions this
# reticulate can convert.
install_packages <- function(source,
                             reticulate_version = utils::packageVersion("reticulate")) {
  pins <- if (reticulate_version < "1.36") {
    c("numpy>=1.26,<2", "pandas>=2.2,<2.3", "scikit-learn>=1.6,<1.7")
  } else character()
  c(source$spec, pins)
}

# The arguments of the environment's Python that install the packages.
pip_arguments <- function(packages) c("-m", "pip", "install", "--upgrade", packages)

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
    py = reticulate::import("ordstat"),
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
