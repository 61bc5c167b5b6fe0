# C4.5 (Weka's J48) through fit_wrapped() (wrap.R): one S3 class "ordstat_c45".

#' C4.5 decision tree (Weka's J48)
#'
#' Fits the Python \code{ordstat.trees.C45Classifier}: C4.5 release 8 as Weka's J48 grows,
#' collapses and prunes it (Quinlan 1993, 1996). Splits maximise the gain ratio among the
#' attributes whose information gain is at least the average; unordered factors split one
#' branch per level, numeric predictors (and ordered factors, as their level numbers) in two at
#' an observed value (\code{x <= v}); the grown tree is collapsed and pruned by C4.5's
#' pessimistic error estimate with subtree raising. The response is nominal: a plain or
#' ordered factor, or a character vector (predictions are a factor of the same kind).
#'
#' Missing predictors: with \code{na.action = na.pass}, rows with missing predictor values are
#' kept and handled as C4.5 does (fractional instances: a unit missing a split's predictor goes
#' down every branch with a share of its weight, and predictions sum the leaves' class
#' distributions with those shares).
#'
#' \code{print(fit)} shows the tree as Weka prints J48's model. Fits survive
#' \code{saveRDS}/\code{readRDS}; read them only from files you trust (see
#' \emph{Saving models} in \code{\link{ordstat-package}}).
#'
#' @template model-arguments
#' @templateVar response \code{y} is a factor (plain or ordered) or a character vector.
#' @templateVar na_choices \code{na.exclude}, \code{na.fail} or \code{na.pass} (keep rows with
#'   missing predictors; see Details)
#' @param confidence_factor Confidence of the pessimistic error bound, in (0, 0.5] (J48's
#'   \code{-C}); smaller prunes more.
#' @param min_num_obj Minimum weight in at least two branches of a split (J48's \code{-M}).
#' @param unpruned \code{TRUE}: no pessimistic pruning (J48's \code{-U}).
#' @param collapse_tree \code{FALSE}: do not collapse subtrees that do not reduce the training
#'   errors (J48's \code{-O}).
#' @param subtree_raising \code{FALSE}: pruning never replaces a node by its largest branch
#'   (J48's \code{-S}).
#' @param use_mdl_correction \code{FALSE}: no MDL correction of the numeric splits' gain (J48's
#'   \code{-J}).
#' @param ... Other arguments are an error.
#' @return An object of class \code{c("ordstat_c45", "ordstat_model")} with \code{n_leaves}
#'   and \code{size} (number of nodes, Weka's "Size of the tree").
#' @references Quinlan, J. R. (1993). \emph{C4.5: Programs for Machine Learning}. Morgan
#'   Kaufmann.
#'
#'   Quinlan, J. R. (1996). Improved use of continuous attributes in C4.5. \emph{Journal of
#'   Artificial Intelligence Research}, 4, 77-90.
#' @examples
#' if (ordstat_available()) {
#'   fit <- c45(Species ~ ., iris)
#'   fit
#'   table(predict(fit), iris$Species)
#' }
#' @export
c45 <- function(formula, data, weights, subset, na.action = stats::na.omit,
                confidence_factor = 0.25, min_num_obj = 2L, unpruned = FALSE,
                collapse_tree = TRUE, subtree_raising = TRUE, use_mdl_correction = TRUE, ...) {
  call <- match.call()  # here: a promise evaluated inside a callee sees other frames
  caller <- "c45()"
  params <- list(confidence_factor = confidence_factor, min_num_obj = min_num_obj,
                 unpruned = unpruned, collapse_tree = collapse_tree,
                 subtree_raising = subtree_raising, use_mdl_correction = use_mdl_correction)
  object <- fit_wrapped("c45", params, list(...), call, parent.frame(), caller, na.action,
                        class = "ordstat_c45", method = "C4.5 decision tree (J48)",
                        ordered = FALSE, labels_ok = TRUE, numeric_x = FALSE,
                        allow_missing = TRUE)
  get <- function(name) py_value(rside()$attribute(py_model(object), name))
  object$n_leaves <- as.integer(get("n_leaves_"))
  object$size <- as.integer(get("tree_size_"))
  object
}

#' @export
print.ordstat_c45 <- function(x, ...) {
  print_header(x)
  cat("\n", py_value(py_model(x)$export_text()), "\n", sep = "")
  invisible(x)
}

#' @export
summary.ordstat_c45 <- function(object, ...) {
  structure(c(list(call = object$call, method = object$method, levels = object$levels,
                   n = nrow(object$x), na.action = object$na.action,
                   n_leaves = object$n_leaves, size = object$size),
              training_fit(object)),
            class = "summary.ordstat_c45")
}

#' @export
print.summary.ordstat_c45 <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  print_summary_head(x, digits)
  cat(sprintf("\nNumber of leaves: %d   size of the tree: %d\n", x$n_leaves, x$size))
  invisible(x)
}

#' Predictions of a C4.5 tree
#'
#' @param object A model fitted by \code{\link{c45}}.
#' @param newdata A data frame with the predictors (the training data when omitted).
#' @param type \code{"class"} (a factor with the levels of the response, of the same kind) or
#'   \code{"prob"} (the leaves' class distributions: a matrix with one column per level).
#' @param ... \code{na.action} for \code{newdata} (default \code{na.pass}: rows with missing
#'   predictors are predicted with fractional instances; see \code{\link{ordstat_model}});
#'   other arguments are ignored.
#' @return A factor or a numeric matrix, one element or row per row of \code{newdata}.
#' @export
predict.ordstat_c45 <- function(object, newdata = NULL, type = c("class", "prob"), ...) {
  predict_wrapped(object, newdata, match.arg(type), "predict.ordstat_c45()")
}
