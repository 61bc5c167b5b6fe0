# Ordinal ensembles (bagging, random forests, boosting): one S3 class "ordstat_ensemble".

python_criterion <- function(criterion) {
  switch(criterion, linear = "gini_linear", quadratic = "gini_quadratic", criterion)
}

optional_int <- function(x) if (is.null(x)) NULL else as.integer(x)

# The ensembles take numeric predictors: logical and ordered-factor columns become numbers
# (an ordered factor its level index, as rpart treats it); unordered factors are refused.
ensemble_predictors <- function(x, caller) {
  for (name in names(x)) {
    col <- x[[name]]
    if (is.factor(col) && !is.ordered(col)) {
      stop(sprintf(paste0("%s: predictor '%s' is an unordered factor; the ensembles take ",
                          "numeric predictors: use ordinal_tree(), an ordered factor, or ",
                          "indicator columns (model.matrix())."), caller, name), call. = FALSE)
    }
    if (is.factor(col) || is.logical(col)) x[[name]] <- as.double(as.integer(col))
  }
  x
}

fit_ensemble <- function(kind, label, params, formula, data, caller, call) {
  prep <- prepare_fit(formula, data, caller)
  prep$x <- ensemble_predictors(prep$x, caller)
  py <- py_fit(kind, params, prep)
  object <- list(py = py, kind = kind, label = label, levels = prep$levels,
                 xlevels = prep$xlevels, terms = prep$terms, x = prep$x, y = prep$y,
                 call = call)
  get <- function(name) py_value(rside()$attribute(py, name))
  oob_error <- get("oob_error_")
  if (!is.null(oob_error)) {
    object$oob <- c(error = as.double(oob_error),
                    mean_absolute = as.double(get("oob_mean_absolute_")),
                    gamma = as.double(get("oob_gamma_")))
    object$oob_per_tree <- as.data.frame(lapply(get("oob_per_estimator_"), as.vector))
  }
  imp <- get("permutation_importance_")
  if (!is.null(imp)) object$importance <- stats::setNames(as.double(imp), names(prep$x))
  gini_imp <- get("feature_importances_")
  if (!is.null(gini_imp)) {
    object$split_importance <- stats::setNames(as.double(gini_imp), names(prep$x))
  }
  if (kind == "boosting") {
    object$n_cycles <- as.integer(get("n_estimators_"))
    w <- get("estimator_weights_")
    if (!is.null(w) && !is.list(w)) object$cycle_weights <- as.double(w)
  }
  class(object) <- c(paste0("ordinal_", kind), "ordstat_ensemble")
  object
}

#' Bagged ordinal classification trees
#'
#' Bootstrap aggregation of unpruned ordinal trees, fitted by the Python
#' \code{ordstat.ensemble.OrdinalBaggingClassifier}, with out-of-bag misclassification, mean
#' absolute distance and Goodman-Kruskal gamma of the ensemble and of every tree (Archer and
#' Mas 2009). With \code{fixed_split = TRUE}, each dichotomy \{1..r\} | \{r+1..k\} is bagged
#' separately and the results are combined by the second-stage vote of Tutz and Hechenbichler
#' (2003, section 3.1).
#'
#' @param formula A formula \code{y ~ x1 + x2 + ...}; \code{y} must be an ordered factor and the
#'   predictors numeric, logical or ordered factors.
#' @param data A data frame.
#' @param n_estimators Number of bootstrap samples.
#' @param aggregation \code{"vote"} (plurality), \code{"median"} (median predicted class) or
#'   \code{"proba"} (mean class proportions).
#' @param criterion Split criterion of the trees (see \code{\link{ordinal_tree}}).
#' @param min_split,cp Tree controls (the default trees are unpruned: \code{minsplit} 5,
#'   \code{cp} 0).
#' @param fixed_split Bag the dichotomies separately (trees of \code{max_leaf_nodes} leaves,
#'   Gini) and combine them by eq. (2) of Tutz and Hechenbichler (2003).
#' @param weighted With \code{fixed_split}, weight each split by its prediction vote.
#' @param max_leaf_nodes Tree size for \code{fixed_split}.
#' @param n_jobs Number of parallel jobs (the result does not depend on it).
#' @param random_state Optional integer seed.
#' @param ... Further arguments of the Python estimator (by their Python names).
#' @return An object of class \code{c("ordinal_bagging", "ordstat_ensemble")} with \code{py},
#'   \code{oob} (error, mean_absolute, gamma), \code{oob_per_tree} (a data frame, one row per
#'   tree), \code{levels}, \code{call}.
#' @references Archer, K. J. and Mas, V. R. (2009). Ordinal response prediction using bootstrap
#'   aggregation, with application to a high-throughput methylation data set.
#'   \emph{Statistics in Medicine}, 28, 3597-3610.
#'
#'   Tutz, G. and Hechenbichler, K. (2003). Aggregating classifiers with ordinal response
#'   structure. Discussion Paper 359, SFB 386, LMU Munich.
#' @seealso \code{\link{ordinal_forest}}, \code{\link{ordinal_boosting}},
#'   \code{\link{predict.ordstat_ensemble}}.
#' @examples
#' if (ordstat_available()) {
#'   d <- data.frame(x = 1:60, z = rep(c(0, 1), 30))
#'   d$y <- cut(d$x, c(0, 20, 40, 60), labels = c("low", "mid", "high"), ordered_result = TRUE)
#'   fit <- ordinal_bagging(y ~ x + z, d, n_estimators = 10, random_state = 1)
#'   print(fit)
#'   predict(fit, d[1:3, ])
#' }
#' @export
ordinal_bagging <- function(formula, data, n_estimators = 100L,
                            aggregation = c("vote", "median", "proba"),
                            criterion = c("ordinal", "twoing", "gini", "entropy", "linear",
                                          "quadratic"),
                            min_split = 5L, cp = 0,
                            fixed_split = FALSE, weighted = FALSE, max_leaf_nodes = 5L,
                            n_jobs = NULL, random_state = NULL, ...) {
  aggregation <- match.arg(aggregation)
  criterion <- match.arg(criterion)
  caller <- "ordinal_bagging()"
  common <- list(n_estimators = as.integer(n_estimators), n_jobs = optional_int(n_jobs),
                 random_state = optional_int(random_state))
  if (isTRUE(fixed_split)) {
    params <- c(common, list(weighted = isTRUE(weighted),
                             max_leaf_nodes = as.integer(max_leaf_nodes)), list(...))
    return(fit_ensemble("fixed_split_bagging", "fixed-split bagging", params, formula, data,
                        caller, match.call()))
  }
  trees <- reticulate::import("ordstat.trees", convert = FALSE)
  tree <- trees$OrdinalTreeClassifier(criterion = python_criterion(criterion),
                                      min_split = as.integer(min_split), cp = as.double(cp),
                                      xval = 0L)
  params <- c(common, list(estimator = tree, aggregation = aggregation), list(...))
  object <- fit_ensemble("bagging", sprintf("bagging (criterion \"%s\", %s)", criterion,
                                            aggregation),
                         params, formula, data, caller, match.call())
  object$criterion <- criterion
  object
}

#' Random forest of ordinal trees
#'
#' A random forest (Breiman 2001) of fully grown ordinal trees with \code{max_features}
#' predictors drawn in each node, combined by the median or the plurality of the trees'
#' predictions, fitted by the Python \code{ordstat.ensemble.OrdinalRandomForestClassifier};
#' out-of-bag scores and a permutation importance measured with an ordinal metric.
#'
#' @inheritParams ordinal_bagging
#' @param criterion Split criterion (see \code{\link{ordinal_tree}}).
#' @param max_features Predictors drawn per node: a count, a fraction, \code{"sqrt"} or
#'   \code{"log2"}.
#' @param aggregation \code{"median"}, \code{"vote"} or \code{"proba"}.
#' @param importance \code{"none"}, or the out-of-bag loss whose increase under permutation
#'   measures a predictor's importance: \code{"mean_absolute"}, \code{"gamma"} or
#'   \code{"misclassification"}.
#' @param min_split Minimum number of units in a node for a split to be tried.
#' @return An object of class \code{c("ordinal_forest", "ordstat_ensemble")} with \code{py},
#'   \code{oob}, \code{oob_per_tree}, \code{split_importance}, \code{importance} (with
#'   \code{importance} set), \code{levels}, \code{call}.
#' @references Breiman, L. (2001). Random forests. \emph{Machine Learning}, 45, 5-32.
#'
#'   Archer, K. J. and Mas, V. R. (2009). Ordinal response prediction using bootstrap
#'   aggregation, with application to a high-throughput methylation data set.
#'   \emph{Statistics in Medicine}, 28, 3597-3610.
#' @examples
#' if (ordstat_available()) {
#'   d <- data.frame(x = 1:60, z = rep(c(0, 1), 30))
#'   d$y <- cut(d$x, c(0, 20, 40, 60), labels = c("low", "mid", "high"), ordered_result = TRUE)
#'   fit <- ordinal_forest(y ~ x + z, d, n_estimators = 10, importance = "mean_absolute",
#'                         random_state = 1)
#'   summary(fit)
#' }
#' @export
ordinal_forest <- function(formula, data, n_estimators = 100L,
                           criterion = c("ordinal", "twoing", "gini", "entropy", "linear",
                                         "quadratic"),
                           max_features = "sqrt", aggregation = c("median", "vote", "proba"),
                           importance = c("none", "mean_absolute", "gamma",
                                          "misclassification"),
                           min_split = 2L, n_jobs = NULL, random_state = NULL, ...) {
  criterion <- match.arg(criterion)
  aggregation <- match.arg(aggregation)
  importance <- match.arg(importance)
  if (is.numeric(max_features) && max_features >= 1 && max_features == round(max_features)) {
    max_features <- as.integer(max_features)
  }
  params <- c(list(n_estimators = as.integer(n_estimators),
                   criterion = python_criterion(criterion), max_features = max_features,
                   aggregation = aggregation,
                   importance = if (importance == "none") NULL else importance,
                   min_split = as.integer(min_split), n_jobs = optional_int(n_jobs),
                   random_state = optional_int(random_state)), list(...))
  object <- fit_ensemble("forest", sprintf("random forest (criterion \"%s\", %s)", criterion,
                                           aggregation),
                         params, formula, data, "ordinal_forest()", match.call())
  object$criterion <- criterion
  object
}

#' Boosting for an ordered response
#'
#' The boosting family of Tutz and Hechenbichler (2003), fitted by the Python
#' \code{ordstat.ensemble.OrdinalBoostingClassifier}: nominal Discrete and Real AdaBoost,
#' fixed-split boosting of the dichotomies, and Ordinal Discrete and Real AdaBoost.
#'
#' @inheritParams ordinal_bagging
#' @param variant \code{"ordinal_discrete"}, \code{"ordinal_real"},
#'   \code{"fixed_split_discrete"}, \code{"fixed_split_real"}, \code{"discrete"} or
#'   \code{"real"}.
#' @param error For \code{"ordinal_discrete"}: \code{"distance"} (standardised, the default),
#'   \code{"unstandardized"}, \code{"squared"} or \code{"zero_one"}; for
#'   \code{"ordinal_real"}: \code{"misclassification"} (default) or \code{"distance"};
#'   \code{NULL} otherwise.
#' @param n_estimators Number of boosting cycles.
#' @param max_leaf_nodes Number of leaves of the base trees.
#' @param boost_by \code{"resample"} (learning sets drawn with the current weights) or
#'   \code{"weight"} (weighted trees).
#' @param weighted For \code{"fixed_split_discrete"}: weight the dichotomies by their
#'   prediction votes.
#' @return An object of class \code{c("ordinal_boosting", "ordstat_ensemble")} with \code{py},
#'   \code{n_cycles}, \code{cycle_weights} (the c_m of discrete variants), \code{levels},
#'   \code{call}.
#' @references Tutz, G. and Hechenbichler, K. (2003). Aggregating classifiers with ordinal
#'   response structure. Discussion Paper 359, SFB 386, LMU Munich.
#' @examples
#' if (ordstat_available()) {
#'   d <- data.frame(x = 1:60, z = rep(c(0, 1), 30))
#'   d$y <- cut(d$x, c(0, 20, 40, 60), labels = c("low", "mid", "high"), ordered_result = TRUE)
#'   fit <- ordinal_boosting(y ~ x + z, d, n_estimators = 10, random_state = 1)
#'   table(predict(fit, d), d$y)
#' }
#' @export
ordinal_boosting <- function(formula, data,
                             variant = c("ordinal_discrete", "ordinal_real",
                                         "fixed_split_discrete", "fixed_split_real",
                                         "discrete", "real"),
                             error = NULL, n_estimators = 50L, max_leaf_nodes = 5L,
                             boost_by = c("resample", "weight"), weighted = FALSE,
                             n_jobs = NULL, random_state = NULL, ...) {
  variant <- match.arg(variant)
  boost_by <- match.arg(boost_by)
  params <- c(list(variant = variant, error = error, n_estimators = as.integer(n_estimators),
                   max_leaf_nodes = as.integer(max_leaf_nodes), boost_by = boost_by,
                   weighted = isTRUE(weighted), n_jobs = optional_int(n_jobs),
                   random_state = optional_int(random_state)), list(...))
  object <- fit_ensemble("boosting", sprintf("boosting (%s%s, %s)", variant,
                                             if (is.null(error)) "" else paste0(", ", error),
                                             boost_by),
                         params, formula, data, "ordinal_boosting()", match.call())
  object$variant <- variant
  object
}

#' @export
print.ordstat_ensemble <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("Ordinal ensemble: %s\n%d classes: %s\n", x$label, length(x$levels),
              paste(x$levels, collapse = " < ")))
  cat(sprintf("Units: %d   predictors: %d\n", nrow(x$x), ncol(x$x)))
  if (!is.null(x$oob)) {
    cat(sprintf("Out-of-bag: misclassification %s, mean absolute distance %s, gamma %s\n",
                format(x$oob[["error"]], digits = digits),
                format(x$oob[["mean_absolute"]], digits = digits),
                format(x$oob[["gamma"]], digits = digits)))
  }
  if (!is.null(x$n_cycles)) cat(sprintf("Boosting cycles: %d\n", x$n_cycles))
  invisible(x)
}

#' @export
summary.ordstat_ensemble <- function(object, ...) {
  pred <- predict(object)
  truth <- object$y
  training <- c(error = mean(as.integer(pred) != as.integer(truth)),
                mean_absolute = mean(abs(as.integer(pred) - as.integer(truth))))
  per_tree <- NULL
  if (!is.null(object$oob_per_tree)) {
    per_tree <- sapply(object$oob_per_tree[c("error", "gamma", "mean_absolute")],
                       stats::quantile, probs = c(0, 0.25, 0.5, 0.75, 1), na.rm = TRUE)
  }
  structure(list(call = object$call, label = object$label, levels = object$levels,
                 n = nrow(object$x), training = training, oob = object$oob,
                 per_tree = per_tree, importance = object$importance,
                 split_importance = object$split_importance, n_cycles = object$n_cycles,
                 cycle_weights = object$cycle_weights),
            class = "summary.ordstat_ensemble")
}

#' @export
print.summary.ordstat_ensemble <- function(x, digits = max(3L, getOption("digits") - 3L),
                                           ...) {
  cat("Call:\n")
  print(x$call)
  cat(sprintf("\n%s\nClasses (lowest to highest): %s\nUnits: %d\n", x$label,
              paste(x$levels, collapse = " < "), x$n))
  cat("\nTraining (resubstitution):\n")
  print(signif(x$training, digits))
  if (!is.null(x$oob)) {
    cat("\nOut-of-bag, aggregated:\n")
    print(signif(x$oob, digits))
  }
  if (!is.null(x$per_tree)) {
    cat("\nOut-of-bag per tree (quantiles):\n")
    print(signif(x$per_tree, digits))
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
#' @param object A fitted \code{ordinal_bagging}, \code{ordinal_forest} or
#'   \code{ordinal_boosting} model.
#' @param newdata A data frame with the predictors (the training data when omitted).
#' @param type \code{"class"} (an ordered factor with the training levels) or \code{"prob"}
#'   (vote shares, mean probabilities or normalised scores, one column per level).
#' @param ... Unused.
#' @return An ordered factor or a numeric matrix.
#' @export
predict.ordstat_ensemble <- function(object, newdata = NULL, type = c("class", "prob"), ...) {
  caller <- "predict.ordstat_ensemble()"
  if (!is.null(newdata)) {
    object$x <- ensemble_predictors(prepare_newdata(object, newdata, caller), caller)
  }
  predict_py(object, NULL, match.arg(type), caller)
}
