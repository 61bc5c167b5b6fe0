# Installing Python: install_ordstat() makes a virtual environment with the ordstat Python
# package, and the hint that the errors of python-find.R and python-use.R give.

.install_hint <- paste0(
  "Install the Python side with install_ordstat() (or `make venv-r` in the ordstat ",
  "repository, which creates .venv-r), or point options(ordstat.python = ) or ORDSTAT_PYTHON ",
  "to a Python that has the ordstat Python package of the R package's version installed ",
  "(with numpy < 2 for reticulate < 1.36).")
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
