# Ordinal decompositions into K-1 binary replicas Y > C_k: one S3 class "ordstat_decomposition"
# with a subclass per method, all fitted by the Python package ordstat.decomposition through
# fit_wrapped() (wrap.R).

# Predictors: the binary learners of frank_hall(), data_replication() and weighted_svm() (the
# logistic model, trees, SVMs) take numbers, so an unordered factor enters as its indicator
# columns (numeric_x = "indicators", as model.matrix() codes it for glm() or e1071::svm());
# oAdaBoost and AdaBoost.OR cut each predictor at thresholds, which needs ordered values: they
# refuse unordered factors, naming them (numeric_x = TRUE, numeric_predictors()); oDT splits an
# unordered factor one branch per level, as C4.5, so it gets factors as they are
# (numeric_x = FALSE).
fit_decomposition <- function(kind, params, dots, call, env, caller, na.action, method,
                              numeric_x = TRUE) {
  withCallingHandlers(
    fit_wrapped(kind, params, dots, call, env, caller, na.action,
                class = c(paste0("ordstat_", kind), "ordstat_decomposition"), method = method,
                numeric_x = numeric_x),
    warning = function(w) {
      msg <- r_convergence_warning(conditionMessage(w), caller)
      if (!is.null(msg)) {
        warning(msg, call. = FALSE)
        invokeRestart("muffleWarning")
      }
    })
}

# scikit-learn's ConvergenceWarning (with its URLs and max_iter, which R cannot set) in R
# terms; NULL for any other warning.
r_convergence_warning <- function(msg, caller) {
  if (!grepl("failed to converge|did not converge|ConvergenceWarning", msg)) return(NULL)
  sprintf(paste0("%s: a binary model did not converge (it stopped at its iteration limit), so ",
                 "its fit may be inaccurate. Standardise the numeric predictors (e.g. ",
                 "scale() of the columns, keeping the centres and scales for new data), or ",
                 "choose another binary model (estimator = \"tree\" or \"svm\")."), caller)
}

# Unordered factors as indicator columns named as model.matrix() names them (treatment
# contrasts: one 0/1 column per level but the first; "chas" with levels 0, 1 gives "chas1"),
# missing values kept; other columns unchanged. The levels are the training levels (new data
# get them from prepare_newdata()), so fit and predict() give the same columns.
indicator_columns <- function(x) {
  unordered <- vapply(x, function(col) is.factor(col) && !is.ordered(col), NA)
  if (!any(unordered)) return(x)
  out <- list()
  for (name in names(x)) {
    col <- x[[name]]
    if (!unordered[[name]]) {
      out[[name]] <- col
      next
    }
    for (level in levels(col)[-1L]) {
      out[[paste0(name, level)]] <- as.double(col == level)
    }
  }
  out <- as.data.frame(out, optional = TRUE)
  names(out) <- make.unique(names(out))
  rownames(out) <- rownames(x)
  out
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
#'   \item \code{adaboost_or}: AdaBoost.OR of Lin and Li (2009): cost vectors,
#'     one-cut oDTs with ordered cuts,
#'     weighted median.
#'   \item \code{weighted_svm}: the ensemble of K-1 weighted RBF SVMs of Waegeman and Boullart
#'     (2006); \code{weighted = FALSE} gives the unweighted ensemble.
#' }
#'
#' The formula arguments are those of \code{lm}: \code{data} is optional, \code{weights},
#' \code{subset} and \code{na.action} (default \code{na.omit}) work as there, and
#' \code{predict(fit, newdata)} keeps its rows (\link{ordstat_model}). Predictors may be
#' numeric, logical (used as 0/1) or ordered factors (used as their level index). An unordered
#' factor enters \code{frank_hall}, \code{data_replication} and \code{weighted_svm}, whose
#' binary learners take numbers, as its indicator columns (treatment contrasts, named as
#' \code{model.matrix} names them: \code{chas1} for a factor \code{chas} with levels 0 and 1),
#' as \code{glm} and \code{e1071::svm} use factors; \code{odt} splits an unordered factor
#' as C4.5 does, one branch per level (of \code{levels()}, a level without training units
#' predicting as the node above; a level not among the training levels is an error in
#' \code{predict}; \code{NA} in a factor is a level of its own when the training data had
#' some and \code{na.action} keeps them); \code{oadaboost} and \code{adaboost_or} cut each
#' predictor at thresholds, which needs ordered values: they refuse an unordered factor with
#' an error naming it (make it ordered, or give its indicator columns). Without \code{random_state}, the seed of the
#' stochastic methods is drawn from R's random numbers, so \code{set.seed()} before the call
#' makes the fit reproducible. The fitted model keeps a serialised copy of the Python model,
#' so it survives \code{saveRDS}/\code{readRDS} and \code{save}/\code{load} into a new R
#' session; read it only from files you trust (see \emph{Saving models} in
#' \code{\link{ordstat-package}}).
#'
#' \code{weighted_svm} standardises the predictors by default (\code{scale = TRUE}, as
#' \code{e1071::svm}): the RBF kernel and \code{C} would otherwise depend on the units of the
#' predictors (on MASS's Boston data, unscaled, the training accuracy drops from .72 to .36).
#' The default binary learner of \code{frank_hall} and \code{data_replication}, the logistic
#' model, is fitted by Newton's method, which converges on unscaled predictors too; if a
#' binary model still stops at its iteration limit, the warning says what to do in R.
#' \code{print} of an \code{odt} fit shows the tree when it has at most 31 nodes, else its
#' size (\code{print(fit, max_nodes = Inf)} shows every node).
#'
#' @template model-arguments
#' @templateVar response \code{y} must be an ordered factor and the predictors numeric, logical or
#'   factors (see Details).
#' @param estimator Binary learner: \code{"logistic"} (default), \code{"tree"}, \code{"svm"},
#'   \code{"c45"} (C4.5 as Weka's J48, Frank and Hall's own choice; see \code{\link{c45}}), or
#'   a scikit-learn classifier object made with reticulate.
#' @param combine \code{"proba"} (Frank and Hall's differences) or \code{"count"} (counting
#'   rule: 1 + the number of "above" answers).
#' @param h Value of the extra coordinate of the replicas (> 0).
#' @param s Number of classes on each side of a replica's boundary whose units enter the
#'   replica (1 to K-1; \code{NULL}: K-1, full replication).
#' @param criterion Split criterion of the oDT replicas and the boosted stumps (a name of the
#'   Python registry \code{ordstat.trees.criteria}, \code{"entropy"} by default).
#' @param rule How the replicas' gains (oDT) or accuracies (oAdaBoost) are combined:
#'   \code{"sum"}, \code{"average"}, \code{"product"}, \code{"geometric"}, \code{"min"},
#'   \code{"max"}, \code{"dist_min"} or \code{"dist_max"}.
#' @param max_depth Maximum depth of the oDT (\code{NULL}: no limit).
#' @param min_samples_leaf Minimum number of the replica's units on each side of its cut.
#' @param min_num_obj J48's minimum split size (its \code{-M}) on each replica's binary
#'   problem: each side of a replica's cut holds at least 0.1 x the replica's weight / 2,
#'   clamped to [\code{min_num_obj}, 25] units, and a split on an unordered factor needs two
#'   branches of at least \code{min_num_obj}; \code{NULL}: no such rule.
#' @param collapse_tree J48's collapsing before pruning (its \code{-O} turns it off)?
#' @param subtree_raising J48's subtree raising when pruning (its \code{-S} turns it off)?
#' @param prune Post-prune the oDT (C4.5's pessimistic pruning)?
#' @param confidence C4.5's confidence factor for pruning.
#' @param n_estimators Number of boosting rounds.
#' @param C,gamma SVM cost and RBF kernel parameter (\code{"scale"} or a number).
#' @param weighted Use the object weights of Waegeman and Boullart (eq. 4-5)?
#' @param scale Standardise the predictors with their training means and standard deviations
#'   (applied to new data in \code{predict}), as \code{e1071::svm} does by default.
#' @param n_jobs Number of parallel jobs (\code{NULL}: one; the result does not depend on it).
#' @param random_state Optional whole number: the seed (default: drawn from R's random
#'   numbers, see \code{set.seed}).
#' @param ... Further parameters of the Python class by their Python names
#'   (\code{odt}:
#'   \code{split_score} (\code{"gain_ratio"}, J48's reading of C4.5, or \code{"gain"}),
#'   \code{error_bound} (\code{"normal"}, J48's bound, or \code{"exact"}),
#'   \code{replica_errors} (\code{"pooled"} or \code{"per_replica"}: pruning bounds a
#'   leaf's errors summed over the replicas, or each replica's and sums the bounds),
#'   \code{max_features} (attributes drawn per node, e.g. \code{"log2+1"}),
#'   \code{random_state}, \code{min_samples_split}, \code{min_gain}; \code{adaboost_or}:
#'   \code{estimator}; \code{weighted_svm}: \code{kernel}, \code{n_jobs}); any other name is
#'   an error.
#' @return An object of class \code{c("ordstat_<method>", "ordstat_decomposition")} with
#'   \code{method}, \code{levels}, \code{xlevels}, \code{terms}, \code{na.action},
#'   \code{call} and the serialised Python model; it has \code{print}, \code{summary} and
#'   \code{predict} methods.
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
frank_hall <- function(formula, data, weights, subset, na.action = stats::na.omit,
                       estimator = "logistic", combine = c("proba", "count"), n_jobs = NULL,
                       random_state = NULL, ...) {
  call <- match.call()  # here: a promise evaluated inside a callee sees other frames
  caller <- "frank_hall()"
  params <- list(estimator = estimator, combine = option_value(combine, c("proba", "count")),
                 n_jobs = n_jobs, random_state = random_seed(random_state))
  fit_decomposition("frank_hall", params, list(...), call, parent.frame(), caller, na.action,
                    "Frank & Hall binary decomposition", numeric_x = "indicators")
}

#' @rdname decomposition
#' @export
data_replication <- function(formula, data, weights, subset, na.action = stats::na.omit,
                             estimator = "logistic", h = 1, s = NULL,
                             combine = c("count", "proba"), random_state = NULL, ...) {
  call <- match.call()
  caller <- "data_replication()"
  params <- list(estimator = estimator, h = h, s = s,
                 combine = option_value(combine, c("count", "proba")),
                 random_state = random_seed(random_state))
  fit_decomposition("data_replication", params, list(...), call, parent.frame(), caller,
                    na.action, "Data replication method", numeric_x = "indicators")
}

#' @rdname decomposition
#' @export
odt <- function(formula, data, weights, subset, na.action = stats::na.omit,
                criterion = "entropy", rule = "sum", max_depth = NULL, min_samples_leaf = 2,
                min_num_obj = 2L, collapse_tree = TRUE, subtree_raising = TRUE,
                prune = TRUE, confidence = 0.25, combine = c("count", "proba"), ...) {
  call <- match.call()
  caller <- "odt()"
  params <- list(criterion = criterion, rule = rule, max_depth = max_depth,
                 min_samples_leaf = min_samples_leaf, min_num_obj = min_num_obj,
                 collapse_tree = collapse_tree, subtree_raising = subtree_raising,
                 prune = prune, confidence = confidence,
                 combine = option_value(combine, c("count", "proba")))
  fit_decomposition("odt", params, list(...), call, parent.frame(), caller, na.action,
                    "Ordinal decision tree on the replicated data (oDT)", numeric_x = FALSE)
}

#' @rdname decomposition
#' @export
oadaboost <- function(formula, data, weights, subset, na.action = stats::na.omit,
                      n_estimators = 100L, rule = "sum", criterion = "entropy", ...) {
  call <- match.call()
  caller <- "oadaboost()"
  params <- list(n_estimators = n_estimators, rule = rule, criterion = criterion)
  fit_decomposition("oadaboost", params, list(...), call, parent.frame(), caller, na.action,
                    "oAdaBoost (boosted stumps on the replicas)")
}

#' @rdname decomposition
#' @export
adaboost_or <- function(formula, data, weights, subset, na.action = stats::na.omit,
                        n_estimators = 100L, random_state = NULL, ...) {
  call <- match.call()
  caller <- "adaboost_or()"
  params <- list(n_estimators = n_estimators, random_state = random_seed(random_state))
  fit_decomposition("adaboost_or", params, list(...), call, parent.frame(), caller, na.action,
                    "AdaBoost.OR (cost-vector boosting, weighted median)")
}

#' @rdname decomposition
#' @export
weighted_svm <- function(formula, data, weights, subset, na.action = stats::na.omit, C = 1,
                         gamma = "scale", weighted = TRUE, scale = TRUE, ...) {
  call <- match.call()
  caller <- "weighted_svm()"
  params <- list(C = C, gamma = gamma, weighted = weighted, scale = scale)
  fit_decomposition("weighted_svm", params, list(...), call, parent.frame(), caller, na.action,
                    paste0(if (isTRUE(weighted)) "Ensemble of weighted SVMs"
                           else "Ensemble of unweighted SVMs",
                           if (isTRUE(scale)) " (predictors standardised)" else ""),
                    numeric_x = "indicators")
}

# print() of an oDT shows the tree when it is small (at most `max_nodes` nodes), else its size
# and how to see it: print(fit, max_nodes = Inf).
#' @export
print.ordstat_decomposition <- function(x, max_nodes = 31L, ...) {
  print_header(x)
  if (x$kind == "odt") {
    py <- py_model(x)
    size <- py_value(rside()$odt_size(py))
    if (size$nodes <= max_nodes) {
      cat(py_value(py$export_text(names(x$x))), "\n", sep = "")
    } else {
      cat(sprintf(paste0("oDT: %d nodes, %d leaves, depth %d (print(fit, max_nodes = Inf) ",
                         "shows every node; summary(fit) the training fit)\n"),
                  as.integer(size$nodes), as.integer(size$leaves), as.integer(size$depth)))
    }
  }
  invisible(x)
}

#' @export
summary.ordstat_decomposition <- function(object, ...) {
  extra <- list()
  get <- function(name) py_value(rside()$attribute(py_model(object), name))
  if (object$kind == "odt") extra$n_nodes <- as.integer(get("node_count_"))
  if (object$kind == "oadaboost") extra$n_rounds <- length(as.vector(get("features_")))
  if (object$kind == "adaboost_or") extra$n_rounds <- length(as.vector(get("alphas_")))
  structure(c(list(call = object$call, method = object$method, levels = object$levels,
                   n = nrow(object$x), na.action = object$na.action),
              training_fit(object), extra),
            class = "summary.ordstat_decomposition")
}

#' @export
print.summary.ordstat_decomposition <- function(x, digits = max(3L, getOption("digits") - 3L),
                                                ...) {
  print_summary_head(x, digits)
  if (!is.null(x$n_nodes)) cat(sprintf("\nNodes: %d\n", x$n_nodes))
  if (!is.null(x$n_rounds)) cat(sprintf("\nBoosting rounds: %d\n", x$n_rounds))
  invisible(x)
}

#' Predictions of a binary-decomposition model
#'
#' @param object A model fitted by \code{\link{frank_hall}}, \code{\link{data_replication}},
#'   \code{\link{odt}}, \code{\link{oadaboost}}, \code{\link{adaboost_or}} or
#'   \code{\link{weighted_svm}}.
#' @param newdata A data frame with the predictors (the training data when omitted).
#' @param type \code{"class"} (an ordered factor with the levels of the response) or
#'   \code{"prob"} (class probabilities: a matrix with one column per level, named by the
#'   levels; with the counting rule probability 1 on the counted class). The SVM ensemble and
#'   AdaBoost.OR give classes only (\code{"prob"} is an error).
#' @param ... \code{na.action} for \code{newdata} (default \code{na.pass}, as in
#'   \code{predict.lm}; see \code{\link{ordstat_model}}); other arguments are ignored.
#' @return An ordered factor or a numeric matrix, one element or row per row of \code{newdata},
#'   named by its row names; \code{NA} for a row with a missing predictor, unless
#'   \code{na.action} drops it (\code{na.omit}) or refuses it (\code{na.fail}).
#' @export
predict.ordstat_decomposition <- function(object, newdata = NULL, type = c("class", "prob"),
                                          ...) {
  predict_wrapped(object, newdata, match.arg(type), "predict.ordstat_decomposition()")
}
