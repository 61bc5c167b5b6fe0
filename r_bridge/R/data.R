# Data sets of the Python package and the corrected resampled t-test, for R users.

#' Data sets of the ordstat papers
#'
#' The data sets of the ordstat Python package (those listed by \code{ordstat compare
#' --list-data}), as R data frames with the response last, an ordered factor (ordinal sets) or
#' a factor (nominal sets). Those that the Python package reads from R packages are built in R
#' itself, so they need no Python: iris (datasets), crabs (MASS, the species x sex group),
#' thyroid (mclust), haemophilia (rrcov), boston (MASS's Boston, the median value cut into 5
#' equal-frequency ranks), machine_cpu (MASS's cpus, the published performance cut likewise),
#' wine (ordinal) and zoo (mlbench). The others come from the Python
#' package through reticulate: the ANES 1996 party identification (statsmodels), ERA, ESL, LEV,
#' SWD and balance-scale (shipped by the Python package skordinal; the sets of Table 2.1 of the
#' dissertation "Ensemble methods for ordinal data classification"), bupa and haberman (the UCI
#' Machine Learning Repository's files, shipped with the Python package). Either way the columns, their types (double, integer,
#' logical, factor or ordered factor), the row order and the values are those of the Python
#' loaders.
#'
#' @param name Name of a data set; \code{NULL} lists the names (which needs Python).
#' @param all With \code{name = NULL}: \code{FALSE} (default) lists the data sets that load
#'   here (every one of them does), \code{TRUE} also those whose R package or optional Python
#'   package (skordinal, for ERA, ESL, LEV, SWD and balance-scale) is not installed.
#' @return A data frame whose attribute \code{"response"} names the response column; or, with
#'   \code{name = NULL}, a character vector of names. A set whose R or Python package is
#'   missing is an error that says what to install.
#' @references Brito, I., Celeux, G. and Sousa Ferreira, A. (2006). Combining methods in
#'   supervised classification: a comparative study on discrete and continuous problems.
#'   \emph{REVSTAT}, 4, 201-225, Table 1. Waegeman, W. and Boullart, L. (2006). An
#'   ensemble of weighted support vector machines for ordinal regression, section V.A.
#' @examples
#' crabs <- ordstat_data("crabs")   # built in R: no Python needed
#' table(crabs$group)
#' if (ordstat_available()) {
#'   head(ordstat_data())
#'   d <- ordstat_data("anes96")
#'   table(d$PID)
#' }
#' @export
ordstat_data <- function(name = NULL, all = FALSE) {
  if (is.null(name)) {
    check_python()
    if (one_logical(all, "all", "ordstat_data()")) {
      return(unique(c(unlist(py_value(rdata()$names())), names(r_side_sets))))
    }
    r_ok <- vapply(r_side_sets, function(spec) requireNamespace(spec$package, quietly = TRUE),
                   NA)
    py_names <- unlist(py_value(rdata()$available_names()))
    listed <- unique(c(unlist(py_value(rdata()$names())), names(r_side_sets)))
    return(listed[listed %in% c(py_names[!py_names %in% names(r_side_sets)],
                                names(r_side_sets)[r_ok])])
  }
  if (!is.character(name) || length(name) != 1L || is.na(name)) {
    stop("ordstat_data(): 'name' must be one data set name (a string); ",
         "ordstat_data() lists them.", call. = FALSE)
  }
  if (name %in% names(r_side_sets)) return(load_r_side(name))
  check_python()
  out <- tryCatch(py_value(rdata()$load(name)), error = function(e) {
    stop("ordstat_data(): ", missing_python_package(
      sub("\nDetailed traceback:.*$", "",
          sub("^.*(ValueError|ImportError|ModuleNotFoundError|MissingExtraError): ", "",
              conditionMessage(e)))), call. = FALSE)
  })
  plain_frame(out)
}

# Python's "the ERA data set needs skordinal: pip install ..." in R terms: which Python package
# is missing, where, and how to install it from R.
missing_python_package <- function(msg) {
  m <- regmatches(msg, regexec("^(.*) needs ([A-Za-z0-9_.]+)( \\([^)]*\\))?: pip install.*$",
                               trimws(msg)))[[1L]]
  if (!length(m)) return(msg)
  sprintf(paste0("%s needs the Python package '%s', which is not installed in the Python that R ",
                 "uses (%s); install it there, e.g. reticulate::py_install(\"%s\"). ",
                 "ordstat_data() lists the data sets available."),
          m[[2L]], m[[3L]], tryCatch(reticulate::py_exe(), error = function(e) "?"), m[[3L]])
}

# A data frame from the plain form of ordstat.r._rdata.plain (factors as codes, levels and
# ordered flag, since a bare factor loses its order through reticulate).
plain_frame <- function(plain) {
  cols <- lapply(plain$columns, function(col) {
    switch(col$kind,
      factor = {
        codes <- as.integer(col$codes)
        levels <- as.character(unlist(col$levels))
        factor(levels[ifelse(codes < 0L, NA_integer_, codes + 1L)], levels = levels,
               ordered = isTRUE(col$ordered))
      },
      logical = as.logical(col$values),
      integer = as.integer(col$values),
      as.double(col$values))
  })
  names(cols) <- unlist(plain$names)
  d <- as.data.frame(cols, stringsAsFactors = FALSE, optional = TRUE)
  attr(d, "response") <- plain$response
  d
}

#' Corrected resampled t-test
#'
#' The paired t-test of Nadeau and Bengio (2003) for scores of two methods on the same J
#' learning/test splits, with the variance corrected for the overlap of the learning sets:
#' \eqn{t = \bar d / \sqrt{(1/J + n_{test}/n_{train}) s^2}}{t = mean(d) / sqrt((1/J +
#' n_test/n_train) s^2)}, J - 1 degrees of freedom, two-sided. Used for the tables of the
#' dissertation "Ensemble methods for ordinal data classification".
#'
#' @param a,b Numeric vectors of scores (one per split, same splits, same length >= 2).
#' @param n_train,n_test Sizes of a learning and a test set (only their ratio matters; for
#'   10-fold cross-validation 9 and 1).
#' @return A list with \code{statistic}, \code{p_value}, \code{df}, \code{mean_difference}
#'   (mean of a - b) and \code{std_error}.
#' @references Nadeau, C. and Bengio, Y. (2003). Inference for the generalization error.
#'   \emph{Machine Learning}, 52, 239-281.
#' @examples
#' if (ordstat_available()) {
#'   corrected_ttest(c(2, 4, 6, 8), c(1, 2, 3, 4), n_train = 2, n_test = 1)
#' }
#' @export
corrected_ttest <- function(a, b, n_train, n_test) {
  if (!is.numeric(a) || !is.numeric(b)) {
    stop("corrected_ttest(): 'a' and 'b' must be numeric vectors of scores.", call. = FALSE)
  }
  for (arg in list(list("n_train", n_train), list("n_test", n_test))) {
    if (!is.numeric(arg[[2]]) || length(arg[[2]]) != 1L || is.na(arg[[2]]) || arg[[2]] <= 0) {
      stop(sprintf("corrected_ttest(): '%s' must be one positive number (a set size).",
                   arg[[1]]), call. = FALSE)
    }
  }
  out <- tryCatch(
    py_value(rdata()$corrected_ttest(as.array(as.numeric(a)), as.array(as.numeric(b)),
                                     as.numeric(n_train), as.numeric(n_test))),
    error = function(e) stop("corrected_ttest(): ", sub("^.*ValueError: ", "",
                                                        conditionMessage(e)), call. = FALSE))
  out$df <- as.integer(out$df)
  out
}

rdata <- function() {
  check_python()
  if (is.null(.ordstat$rdata)) {
    .ordstat$rdata <- reticulate::import("ordstat.r._rdata", convert = FALSE)
  }
  .ordstat$rdata
}
