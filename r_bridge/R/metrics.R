#' Ordinal classification metrics
#'
#' Misclassification rate, mean absolute and mean squared distance between the ranks of the
#' true and predicted classes, and the Goodman-Kruskal gamma between them, computed by the
#' Python functions of \code{ordstat.metrics}. The names are those of the Python package and
#' of the \code{ordstat compare} command: \code{misclassification}, \code{mean_absolute},
#' \code{mean_squared}, \code{gamma}. Other spellings are accepted in \code{metrics}
#' (case is ignored, and \code{"-"} may replace \code{"_"}): \code{misclassification_rate},
#' \code{error}, \code{error_rate}; \code{mean_absolute_distance}, \code{mean_abs},
#' \code{mae}; \code{mean_squared_distance}, \code{mean_squ}, \code{mse};
#' \code{goodman_kruskal_gamma}, \code{gk_gamma}.
#'
#' @param truth An ordered factor of true classes.
#' @param pred An ordered factor of predicted classes with the same levels in the same order.
#' @param metrics The metrics to compute, by name (see Description); default all four.
#' @return A named numeric vector, named by the canonical names of the metrics asked for (by
#'   default \code{misclassification}, \code{mean_absolute}, \code{mean_squared},
#'   \code{gamma}).
#' @references Goodman, L. A. and Kruskal, W. H. (1954). Measures of association for cross
#'   classifications. \emph{Journal of the American Statistical Association}, 49, 732-764.
#' @examples
#' if (ordstat_available()) {
#'   lev <- c("low", "mid", "high")
#'   truth <- factor(c("low", "mid", "high", "mid"), levels = lev, ordered = TRUE)
#'   pred <- factor(c("low", "high", "high", "low"), levels = lev, ordered = TRUE)
#'   ordinal_metrics(truth, pred)
#'   ordinal_metrics(truth, pred, metrics = c("MAE", "gamma"))
#' }
#' @export
ordinal_metrics <- function(truth, pred, metrics = NULL) {
  check_ordered_response(truth, "ordinal_metrics(): 'truth'")
  if (!is.ordered(pred)) {
    stop("ordinal_metrics(): 'pred' must be an ordered factor with the levels of 'truth'; ",
         "convert it with factor(pred, levels = levels(truth), ordered = TRUE).", call. = FALSE)
  }
  if (!identical(levels(truth), levels(pred))) {
    stop(sprintf(paste0("ordinal_metrics(): 'truth' and 'pred' have different levels or ",
                        "orders (%s vs %s); give both the same ordered levels."),
                 paste(levels(truth), collapse = " < "), paste(levels(pred), collapse = " < ")),
         call. = FALSE)
  }
  if (length(truth) != length(pred)) {
    stop(sprintf("ordinal_metrics(): 'truth' has %d values but 'pred' has %d.", length(truth),
                 length(pred)), call. = FALSE)
  }
  if (anyNA(pred)) {
    stop(sprintf("ordinal_metrics(): 'pred' has %d missing value(s).", sum(is.na(pred))),
         call. = FALSE)
  }
  if (!is.null(metrics) && (!is.character(metrics) || length(metrics) == 0L || anyNA(metrics))) {
    stop("ordinal_metrics(): 'metrics' must be a character vector of metric names, e.g. ",
         'c("misclassification", "mean_absolute", "mean_squared", "gamma").', call. = FALSE)
  }
  out <- tryCatch(
    rside()$metrics(as.array(as.integer(truth) - 1L), as.array(as.integer(pred) - 1L),
                    nlevels(truth), if (is.null(metrics)) NULL else as.list(metrics)),
    error = function(e) {
      msg <- sub("\nDetailed traceback:.*$", "", conditionMessage(e))
      stop(sprintf("ordinal_metrics(): %s", sub("^[A-Za-z]*Error: ", "", msg)), call. = FALSE)
    })
  unlist(py_value(out))
}
