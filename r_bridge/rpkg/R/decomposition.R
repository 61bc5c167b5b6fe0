# Ordinal decompositions into K-1 binary replicas Y > C_k: one S3 class "ordstat_decomposition"
# with a subclass per method, all fitted by the Python package ordstat.decomposition.

fit_decomposition <- function(kind, label, formula, data, params, weights, call, caller) {
  prep <- prepare_fit(formula, data, caller)
  if (length(prep$xlevels)) {
    stop(sprintf("%s: predictor(s) %s are factors; this method needs numeric predictors.",
                 caller, paste(sprintf("'%s'", names(prep$xlevels)), collapse = ", ")),
         call. = FALSE)
  }
  weights <- check_weights(weights, nrow(prep$x), caller)
  py <- py_fit(kind, params, prep, weights)
  object <- list(py = py, kind = kind, method = label, levels = prep$levels,
                 xlevels = prep$xlevels, terms = prep$terms, x = prep$x, y = prep$y,
                 params = params, call = call)
  class(object) <- c(paste0("ordstat_", kind), "ordstat_decomposition")
  object
}

seed_or_null <- function(x) if (is.null(x)) NULL else as.integer(x)

# A scikit-learn binary classifier by name, or a Python object given by the user.
binary_learner <- function(estimator, caller) {
  if (is.null(estimator) || inherits(estimator, "python.builtin.object")) return(estimator)
  if (!is.character(estimator) || length(estimator) != 1L ||
      !estimator %in% c("logistic", "tree", "svm")) {
    stop(sprintf(paste0("%s: 'estimator' must be \"logistic\", \"tree\", \"svm\" or a ",
                        "scikit-learn classifier made with reticulate."), caller), call. = FALSE)
  }
  check_python()
  switch(estimator,
         logistic = reticulate::import("sklearn.linear_model")$LogisticRegression(
           max_iter = 1000L),
         tree = reticulate::import("sklearn.tree")$DecisionTreeClassifier(
           criterion = "entropy", min_samples_leaf = 2L),
         svm = reticulate::import("sklearn.svm")$SVC(probability = TRUE))
}

#' Ordinal classification by binary decompositions
#'
#' Methods that turn a K-class ordered response into the K-1 binary questions "is the class
#' above the k-th?" and combine the answers, fitted by the Python package
#' \code{ordstat.decomposition}:
#' \itemize{
#'   \item \code{frank_hall}: one binary classifier per question (Frank and Hall 2001);
#'     probabilities by differences (negative ones set to 0, rows renormalised) or the counting
#'     rule.
#'   \item \code{data_replication}: the data replication method of Cardoso and Pinto da Costa
#'     (2007) with full replication: one binary classifier on K-1 copies of the data, each with
#'     its own extra coordinate (parallel boundaries for a linear learner).
#'   \item \code{odt}: the ordinal decision tree on the replicated data (oDT), with one
#'     attribute and K-1 thresholds per node (dissertation "Ensemble methods for ordinal data
#'     classification", chapter 4).
#'   \item \code{oadaboost}: AdaBoost of decision stumps on the replicas, one shared attribute
#'     per round (same dissertation, Algorithm 5.1).
#'   \item \code{adaboost_or}: AdaBoost.OR of Lin and Li (2009): cost vectors, one-cut oDTs,
#'     weighted median.
#'   \item \code{weighted_svm}: the ensemble of K-1 weighted RBF SVMs of Waegeman and Boullart
#'     (2006); \code{weighted = FALSE} gives the unweighted ensemble.
#' }
#'
#' @param formula A formula \code{y ~ x1 + x2 + ...}; \code{y} must be an ordered factor and
#'   the predictors numeric.
#' @param data A data frame.
#' @param estimator Binary learner: \code{"logistic"} (default), \code{"tree"}, \code{"svm"}, or
#'   a scikit-learn classifier object made with reticulate.
#' @param combine \code{"proba"} (Frank and Hall's differences) or \code{"count"} (counting
#'   rule: 1 + the number of "above" answers).
#' @param h Value of the extra coordinate of the replicas (> 0).
#' @param criterion Split criterion of the oDT replicas and the boosted stumps (a name of the
#'   Python registry \code{ordstat.trees.criteria}, \code{"entropy"} by default).
#' @param rule How the replicas' gains (oDT) or accuracies (oAdaBoost) are combined:
#'   \code{"sum"}, \code{"average"}, \code{"product"}, \code{"geometric"}, \code{"min"},
#'   \code{"max"}, \code{"dist_min"} or \code{"dist_max"}.
#' @param max_depth Maximum depth of the oDT (\code{NULL}: no limit).
#' @param min_samples_leaf Minimum number of the replica's units on each side of its cut.
#' @param prune Post-prune the oDT (C4.5's pessimistic pruning)?
#' @param confidence C4.5's confidence factor for pruning.
#' @param n_estimators Number of boosting rounds.
#' @param C,gamma SVM cost and RBF kernel parameter (\code{"scale"} or a number).
#' @param weighted Use the object weights of Waegeman and Boullart (eq. 4-5)?
#' @param weights Optional case weights.
#' @param random_state Optional integer seed.
#' @param ... Further arguments of the Python estimator (by their Python names).
#' @return An object of class \code{c("ordstat_<method>", "ordstat_decomposition")} with
#'   \code{py} (the Python estimator), \code{method}, \code{levels}, \code{call}; it has
#'   \code{print}, \code{summary} and \code{predict} methods.
#' @references
#' Frank, E. and Hall, M. (2001). A simple approach to ordinal classification. \emph{ECML}.
#'
#' Cardoso, J. S. and Pinto da Costa, J. F. (2007). Learning to classify ordinal data: the data
#' replication method. \emph{JMLR}, 8, 1393-1429.
#'
#' Lin, H.-T. and Li, L. (2009). Combining ordinal preferences by boosting.
#'
#' Waegeman, W. and Boullart, L. (2006). An ensemble of weighted support vector machines for
#' ordinal regression.
#'
#' Dissertation "Ensemble methods for ordinal data classification" (oDT, oAdaBoost,
#' AdaBoost.OR chapters).
#' @examples
#' if (ordstat_available()) {
#'   set.seed(1)
#'   d <- data.frame(a = runif(200), b = runif(200))
#'   d$y <- factor(floor(6 * ((d$a - 0.5)^2 + (d$b - 0.5)^2)), ordered = TRUE)
#'   fit <- odt(y ~ a + b, d)
#'   fit
#'   table(predict(fit), d$y)
#'   predict(frank_hall(y ~ a + b, d), d[1:3, ], type = "prob")
#' }
#' @name decomposition
NULL

#' @rdname decomposition
#' @export
frank_hall <- function(formula, data, estimator = "logistic", combine = c("proba", "count"),
                       weights = NULL, random_state = NULL, ...) {
  caller <- "frank_hall()"
  combine <- match.arg(combine)
  params <- c(list(estimator = binary_learner(estimator, caller), combine = combine,
                   random_state = seed_or_null(random_state)), list(...))
  fit_decomposition("frank_hall", "Frank & Hall binary decomposition", formula, data, params,
                    weights, match.call(), caller)
}

#' @rdname decomposition
#' @export
data_replication <- function(formula, data, estimator = "logistic", h = 1,
                             combine = c("count", "proba"), weights = NULL,
                             random_state = NULL, ...) {
  caller <- "data_replication()"
  combine <- match.arg(combine)
  if (!is.numeric(h) || length(h) != 1L || !is.finite(h) || h <= 0) {
    stop("data_replication(): 'h' must be one positive number.", call. = FALSE)
  }
  params <- c(list(estimator = binary_learner(estimator, caller), h = as.double(h),
                   combine = combine, random_state = seed_or_null(random_state)), list(...))
  fit_decomposition("data_replication", "data replication method", formula, data, params,
                    weights, match.call(), caller)
}

#' @rdname decomposition
#' @export
odt <- function(formula, data, criterion = "entropy", rule = "sum", max_depth = NULL,
                min_samples_leaf = 2, prune = TRUE, confidence = 0.25,
                combine = c("count", "proba"), weights = NULL, ...) {
  combine <- match.arg(combine)
  params <- c(list(criterion = criterion, rule = rule,
                   max_depth = if (is.null(max_depth)) NULL else as.integer(max_depth),
                   min_samples_leaf = as.double(min_samples_leaf), prune = isTRUE(prune),
                   confidence = as.double(confidence), combine = combine), list(...))
  fit_decomposition("odt", "ordinal decision tree on the replicated data (oDT)", formula, data,
                    params, weights, match.call(), "odt()")
}

#' @rdname decomposition
#' @export
oadaboost <- function(formula, data, n_estimators = 100L, rule = "sum",
                      criterion = "entropy", weights = NULL, ...) {
  params <- c(list(n_estimators = as.integer(n_estimators), rule = rule,
                   criterion = criterion), list(...))
  fit_decomposition("oadaboost", "oAdaBoost (boosted stumps on the replicas)", formula, data,
                    params, weights, match.call(), "oadaboost()")
}

#' @rdname decomposition
#' @export
adaboost_or <- function(formula, data, n_estimators = 100L, weights = NULL,
                        random_state = NULL, ...) {
  params <- c(list(n_estimators = as.integer(n_estimators),
                   random_state = seed_or_null(random_state)), list(...))
  fit_decomposition("adaboost_or", "AdaBoost.OR (cost-vector boosting, weighted median)",
                    formula, data, params, weights, match.call(), "adaboost_or()")
}

#' @rdname decomposition
#' @export
weighted_svm <- function(formula, data, C = 1, gamma = "scale", weighted = TRUE,
                         weights = NULL, ...) {
  params <- c(list(C = as.double(C), gamma = if (is.numeric(gamma)) as.double(gamma) else gamma,
                   weighted = isTRUE(weighted)), list(...))
  label <- if (isTRUE(weighted)) "ensemble of weighted SVMs" else "ensemble of unweighted SVMs"
  fit_decomposition("weighted_svm", label, formula, data, params, weights, match.call(),
                    "weighted_svm()")
}

#' @export
print.ordstat_decomposition <- function(x, ...) {
  cat(sprintf("%s, %d classes: %s\n", x$method, length(x$levels),
              paste(x$levels, collapse = " < ")))
  if (x$kind == "odt") cat(py_value(x$py$export_text(names(x$x))), "\n", sep = "")
  invisible(x)
}

#' @export
summary.ordstat_decomposition <- function(object, ...) {
  pred <- predict(object)
  extra <- list()
  get <- function(name) py_value(rside()$attribute(object$py, name))
  if (object$kind == "odt") extra$n_nodes <- as.integer(get("node_count_"))
  if (object$kind == "oadaboost") extra$n_rounds <- length(as.vector(get("features_")))
  if (object$kind == "adaboost_or") extra$n_rounds <- length(as.vector(get("alphas_")))
  structure(c(list(call = object$call, method = object$method, levels = object$levels,
                   n = nrow(object$x), confusion = table(observed = object$y, predicted = pred),
                   training_error = mean(as.character(pred) != as.character(object$y))),
              extra),
            class = "summary.ordstat_decomposition")
}

#' @export
print.summary.ordstat_decomposition <- function(x, digits = max(3L, getOption("digits") - 3L),
                                                ...) {
  cat("Call:\n")
  print(x$call)
  cat(sprintf("\nMethod: %s\nClasses (lowest to highest): %s\nUnits: %d\n", x$method,
              paste(x$levels, collapse = " < "), x$n))
  if (!is.null(x$n_nodes)) cat(sprintf("Nodes: %d\n", x$n_nodes))
  if (!is.null(x$n_rounds)) cat(sprintf("Boosting rounds: %d\n", x$n_rounds))
  cat(sprintf("Training error: %s\n\nTraining confusion table:\n",
              format(signif(x$training_error, digits))))
  print(x$confusion)
  invisible(x)
}

#' Predictions of a binary-decomposition model
#'
#' @param object A model fitted by \code{\link{frank_hall}}, \code{\link{data_replication}},
#'   \code{\link{odt}}, \code{\link{oadaboost}}, \code{\link{adaboost_or}} or
#'   \code{\link{weighted_svm}}.
#' @param newdata A data frame with the predictors (the training data when omitted).
#' @param type \code{"class"} (an ordered factor with the training levels) or \code{"prob"}
#'   (class probabilities; with the counting rule probability 1 on the counted class). The
#'   SVM ensemble and AdaBoost.OR give classes only.
#' @param ... Unused.
#' @return An ordered factor or a numeric matrix.
#' @export
predict.ordstat_decomposition <- function(object, newdata = NULL, type = c("class", "prob"),
                                          ...) {
  type <- match.arg(type)
  caller <- "predict.ordstat_decomposition()"
  if (type == "prob" && object$kind %in% c("weighted_svm", "adaboost_or")) {
    stop(sprintf("%s: %s gives classes only; use type = \"class\".", caller, object$method),
         call. = FALSE)
  }
  predict_py(object, newdata, type, caller)
}
