# What a fitted ordinal ensemble gives: its out-of-bag scores, importances and boosting cycles
# read once from Python (ensemble_fields), print, summary, predict and importance.

# The out-of-bag scores, importances and boosting cycles of a fitted ensemble, as R values (kept
# in the model object, so they survive saveRDS()).
ensemble_fields <- function(object) {
  py <- py_model(object)
  get <- function(name) py_value(rside()$attribute(py, name))
  oob_error <- get("oob_error_")
  if (!is.null(oob_error)) {
    object$oob <- c(misclassification = as.double(oob_error),
                    mean_absolute = as.double(get("oob_mean_absolute_")),
                    gamma = as.double(get("oob_gamma_")))
    object$oob_per_tree <- as.data.frame(lapply(get("oob_per_estimator_"), as.vector))
    confusion <- get("oob_confusion_")
    if (!is.null(confusion)) {
      # units by observed (rows) and out-of-bag predicted class (columns), levels in order;
      # with case weights the units' summed weights
      confusion <- as.double(confusion)
      if (all(confusion == round(confusion))) confusion <- as.integer(confusion)
      object$oob_confusion <- matrix(confusion, nrow = length(object$levels),
                                     dimnames = list(observed = object$levels,
                                                     predicted = object$levels))
    }
  }
  codes <- get("oob_prediction_codes_")
  if (!is.null(codes)) {
    # predict() without newdata, as predict.randomForest: each unit by the trees it was out of
    # bag for (NA for a unit in every bootstrap sample)
    rows <- rownames(object$x)
    object$oob_predicted <- stats::setNames(
      factor_from_parts(as.integer(codes), object$levels,
                        ordered = !isFALSE(object$response_ordered)), rows)
    object$oob_votes <- matrix(as.double(get("oob_decision_function_")),
                               nrow = length(codes), dimnames = list(rows, object$levels))
  }
  info <- py_value(rside()$ensemble_info(py))
  # the fixed-split bagging bags each of the K - 1 dichotomies with n_estimators trees
  object$n_trees <- as.integer(if (identical(object$kind, "fixed_split_bagging"))
                                 info$n_estimators * info$n_trees else info$n_trees)
  if (!is.null(info$mtry)) object$mtry <- as.integer(info$mtry)
  imp <- get("permutation_importance_")
  if (!is.null(imp)) object$importance <- stats::setNames(as.double(imp), names(object$x))
  gini_imp <- get("feature_importances_")
  if (!is.null(gini_imp)) {
    object$split_importance <- stats::setNames(as.double(gini_imp), names(object$x))
  }
  if (object$kind == "boosting") {
    object$n_cycles <- as.integer(get("n_estimators_"))
    w <- get("estimator_weights_")
    if (!is.null(w) && !is.list(w)) object$cycle_weights <- as.double(w)
  }
  object
}

# The ensembles grow ordinal trees, which learn where missing predictors go: with
# na.action = na.pass, rows with missing predictors are kept (in fitting and in predict()).

# As print.randomForest: the number of trees (and predictors tried per node), the out-of-bag
# error rate and the out-of-bag confusion matrix with each class's error.
#' @export
print.ordstat_ensemble <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  print_header(x)
  if (!is.null(x$n_trees) && is.null(x$n_cycles)) {
    cat(sprintf("Number of trees: %d", x$n_trees))
    if (identical(x$kind, "fixed_split_bagging")) {
      cat(sprintf(" (%d per dichotomy)", x$n_trees %/% max(1L, length(x$levels) - 1L)))
    }
    if (!is.null(x$mtry)) cat(sprintf("   predictors tried at each split: %d", x$mtry))
    cat("\n")
  }
  if (!is.null(x$oob)) {
    cat(sprintf("\n        OOB estimate of  error rate: %s%%\n",
                format(round(100 * x$oob[["misclassification"]], 2L), nsmall = 2L)))
    cat(sprintf("Out-of-bag mean absolute distance: %s   gamma: %s\n",
                format(x$oob[["mean_absolute"]], digits = digits),
                format(x$oob[["gamma"]], digits = digits)))
  }
  if (!is.null(x$oob_confusion)) {
    cat("Confusion matrix (out-of-bag; rows observed, columns predicted):\n")
    print(oob_confusion_table(x$oob_confusion, digits))
  }
  if (!is.null(x$n_cycles)) cat(sprintf("Boosting cycles: %d\n", x$n_cycles))
  invisible(x)
}

# The out-of-bag confusion matrix with randomForest's class.error column (units never out of
# bag are not counted).
oob_confusion_table <- function(confusion, digits) {
  n <- rowSums(confusion)
  error <- ifelse(n > 0, 1 - diag(confusion) / n, NA)
  out <- cbind(unclass(confusion), class.error = signif(error, digits))
  names(dimnames(out)) <- NULL
  out
}

#' @export
summary.ordstat_ensemble <- function(object, ...) {
  per_tree <- NULL
  if (!is.null(object$oob_per_tree)) {
    per_tree <- sapply(object$oob_per_tree[c("misclassification", "gamma", "mean_absolute")],
                       stats::quantile, probs = c(0, 0.25, 0.5, 0.75, 1), na.rm = TRUE)
  }
  structure(c(list(call = object$call, method = object$method, levels = object$levels,
                   n = nrow(object$x), na.action = object$na.action),
              training_fit(object),
              list(oob = object$oob, per_tree = per_tree, oob_confusion = object$oob_confusion,
                   importance = object$importance,
                   split_importance = object$split_importance, n_cycles = object$n_cycles,
                   cycle_weights = object$cycle_weights)),
            class = "summary.ordstat_ensemble")
}

#' @export
print.summary.ordstat_ensemble <- function(x, digits = max(3L, getOption("digits") - 3L),
                                           ...) {
  print_summary_head(x, digits)
  if (!is.null(x$oob)) {
    cat("\nOut-of-bag, aggregated:\n")
    print(signif(x$oob, digits))
  }
  if (!is.null(x$per_tree)) {
    cat("\nOut-of-bag per tree (quantiles):\n")
    print(signif(x$per_tree, digits))
  }
  if (!is.null(x$oob_confusion)) {
    cat("\nOut-of-bag confusion (units out of bag for at least one tree) and class error:\n")
    print(oob_confusion_table(x$oob_confusion, digits))
  }
  if (!is.null(x$split_importance)) {
    cat("\nSplit importance (mean over the trees of their normalised split goodness):\n")
    print(signif(sort(x$split_importance, decreasing = TRUE), digits))
  }
  if (!is.null(x$importance)) {
    cat("\nPermutation importance (increase of the out-of-bag loss):\n")
    print(signif(sort(x$importance, decreasing = TRUE), digits))
  }
  if (!is.null(x$n_cycles)) {
    cat(sprintf("\nBoosting cycles: %d\n", x$n_cycles))
    if (!is.null(x$cycle_weights)) {
      cat("Cycle weights c_m:\n")
      print(summary(x$cycle_weights))
    }
  }
  invisible(x)
}

#' Predictions of an ordinal ensemble
#'
#' Without \code{newdata}, bagged trees and random forests give their out-of-bag predictions,
#' as \code{predict.randomForest} and ranger do: each training unit is predicted by the trees
#' whose bootstrap sample left it out (aggregated as the ensemble aggregates), so
#' \code{mean(predict(fit) != y)} is the out-of-bag error printed by \code{print(fit)}; a unit
#' in every bootstrap sample gets \code{NA}. Training-set fits (resubstitution) are
#' \code{predict(fit, newdata = data)}. Boosting, the fixed-split bagging and ensembles fitted
#' with \code{oob_score = FALSE} have no out-of-bag predictions: without \code{newdata} they
#' give the training-set fits.
#'
#' @param object A fitted \code{ordinal_bagging}, \code{ordinal_forest} or
#'   \code{ordinal_boosting} model.
#' @param newdata A data frame with the predictors; when omitted, the out-of-bag predictions
#'   of the training units (see Details).
#' @param type \code{"class"} (an ordered factor with the levels of the response) or
#'   \code{"prob"} (vote shares, mean probabilities or normalised scores: a matrix with one
#'   column per level, named by the levels; out of bag: the shares among the trees that left
#'   the unit out).
#' @param ... \code{na.action} for \code{newdata} (default \code{na.pass}, as in
#'   \code{predict.lm}; see \code{\link{ordstat_model}}); other arguments are ignored.
#' @return An ordered factor or a numeric matrix, one element or row per row of \code{newdata},
#'   named by its row names; a row with a missing predictor is predicted (the trees send each
#'   missing predictor to the side they learned) unless \code{na.action} drops it
#'   (\code{na.omit}), pads it with \code{NA} (\code{na.exclude}) or refuses it
#'   (\code{na.fail}).
#' @export
predict.ordstat_ensemble <- function(object, newdata = NULL, type = c("class", "prob"), ...) {
  type <- match.arg(type)
  if (is.null(newdata) && !is.null(object$oob_predicted)) {
    out <- if (type == "class") object$oob_predicted else object$oob_votes
    return(pad_excluded(out, object$na.action))
  }
  predict_wrapped(object, newdata, type, "predict.ordstat_ensemble()")
}

#' Variable importance of an ordinal ensemble
#'
#' \code{importance(fit)} as randomForest's and ranger's \code{importance()}: one row per
#' predictor with the split importance (the mean over the trees of their normalised split
#' goodness, as randomForest's \code{MeanDecreaseGini}) and, for a forest fitted with
#' \code{importance} set (randomForest's \code{importance = TRUE} is
#' \code{"misclassification"}), the permutation importance: the increase of the out-of-bag
#' loss when the predictor is permuted (as \code{MeanDecreaseAccuracy}).
#'
#' ordstat's \code{importance} is a generic function. randomForest and ranger export generics
#' of the same name: ordstat registers its method for theirs too, so \code{importance(fit)}
#' works whichever package was attached last; and ordstat's generic hands objects of other
#' classes (a \code{randomForest} or \code{ranger} fit) to those packages' generics, so
#' attaching ordstat after them does not break \code{importance()} for their fits.
#'
#' @param x A fitted \code{ordinal_bagging}, \code{ordinal_forest} or
#'   \code{ordinal_boosting} model (or a model of randomForest or ranger, handed to their
#'   \code{importance}).
#' @param type \code{NULL} (every measure), \code{"split"} or \code{"permutation"}.
#' @param ... Unused (passed on to randomForest's or ranger's method for their models).
#' @return A numeric matrix, one row per predictor, columns \code{split} and (when computed)
#'   \code{permutation}; an error when the ensemble has neither (base learners that are not
#'   trees).
#' @examples
#' if (ordstat_available()) {
#'   d <- data.frame(x = 1:60, z = rep(c(0, 1), 30))
#'   d$y <- cut(d$x, c(0, 20, 40, 60), labels = c("low", "mid", "high"), ordered_result = TRUE)
#'   fit <- ordinal_forest(y ~ x + z, d, ntree = 20, importance = TRUE, random_state = 1)
#'   importance(fit)
#' }
#' @export
importance <- function(x, ...) UseMethod("importance")

#' @rdname importance
#' @export
importance.default <- function(x, ...) {
  # randomForest's or ranger's fits, when ordstat's generic masks theirs
  for (pkg in c("randomForest", "ranger")) {
    if (inherits(x, pkg) && requireNamespace(pkg, quietly = TRUE)) {
      return(getExportedValue(pkg, "importance")(x, ...))
    }
  }
  stop(sprintf("importance(): no importance for an object of class %s; ordstat gives it for ",
               paste(sprintf("'%s'", class(x)), collapse = ", ")),
       "ordinal_bagging(), ordinal_forest() and ordinal_boosting() fits.", call. = FALSE)
}

#' @rdname importance
#' @export
#' @rawNamespace S3method(randomForest::importance,ordstat_ensemble)
#' @rawNamespace S3method(ranger::importance,ordstat_ensemble)
importance.ordstat_ensemble <- function(x, type = NULL, ...) {
  columns <- list(split = x$split_importance, permutation = x$importance)
  columns <- columns[!vapply(columns, is.null, NA)]
  if (!is.null(type)) {
    type <- match_name(type, c("split", "permutation"), "importance()", "type")
    if (is.null(columns[[type]])) {
      stop(sprintf(paste0("importance(): this fit has no %s importance%s."), type,
                   if (type == "permutation") paste0(" (fit ordinal_forest() with ",
                                                    "importance = TRUE or a loss name)") else ""),
           call. = FALSE)
    }
    columns <- columns[type]
  }
  if (!length(columns)) {
    stop("importance(): this ensemble has no importance (its base learners are not trees).",
         call. = FALSE)
  }
  out <- do.call(cbind, columns)
  rownames(out) <- names(columns[[1L]])
  out
}
