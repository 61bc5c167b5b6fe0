# Ordinal ensembles (bagging, random forests, boosting): one S3 class "ordstat_ensemble", fitted
# through fit_wrapped() (wrap.R).

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
      # units by observed (rows) and out-of-bag predicted class (columns), levels in order
      object$oob_confusion <- matrix(as.integer(confusion), nrow = length(object$levels),
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
# Unordered factors (and character columns) go to Python as categories, which the trees split
# as rpart does; the Python class refuses them for base learners that take numbers only.
fit_ensemble <- function(kind, params, dots, call, env, caller, na.action, ...) {
  object <- fit_wrapped(kind, params, dots, call, env, caller, na.action,
                        class = c(paste0("ordinal_", kind), "ordstat_ensemble"), ...,
                        numeric_x = FALSE, allow_missing = TRUE)
  ensemble_fields(object)
}

# randomForest's, ranger's, ipred's, adabag's and rpart's argument names in `...` of the
# ensembles (see foreign_args()): the same meaning under our name, or refused with the reason.
ensemble_aliases <- list(
  forest = c(ntree = "n_estimators", num.trees = "n_estimators", mtry = "max_features",
             nodesize = "min_bucket", min.node.size = "min_split", min.bucket = "min_bucket",
             minsplit = "min_split", minbucket = "min_bucket", maxdepth = "max_depth",
             max.depth = "max_depth", num.threads = "n_jobs", seed = "random_state",
             oob.error = "oob_score", verbose = "progress", splitrule = "criterion"),
  bagging = c(ntree = "n_estimators", num.trees = "n_estimators", nbagg = "n_estimators",
              minsplit = "min_split", coob = "oob_score", num.threads = "n_jobs",
              seed = "random_state", verbose = "progress", splitrule = "criterion"),
  boosting = c(mfinal = "n_estimators", n.trees = "n_estimators", num.threads = "n_jobs",
               seed = "random_state", verbose = "progress"))

ensemble_refused <- function(kind) {
  bootstrap <- paste0("every tree is grown on a bootstrap sample of all n units, drawn with ",
                      "replacement (randomForest's replace = TRUE, sampsize = n).")
  out <- c(replace = bootstrap, sampsize = bootstrap, sample.fraction = bootstrap,
           classwt = "class weights are not supported.",
           class.weights = "class weights are not supported.",
           case.weights = "case weights are not supported by the ensembles.",
           cutoff = "the classes are voted by the aggregation argument.",
           strata = "stratified bootstrap samples are not supported.",
           maxnodes = "the forest's trees are limited by max_depth, min_split and min_bucket.",
           proximity = "proximities are not computed.",
           keep.forest = "the fitted trees are always kept (for predict()).",
           keep.inbag = "the bootstrap samples are always kept by the Python model.",
           do.trace = "use progress = TRUE to report the progress.",
           probability = "predict(fit, type = \"prob\") gives class probabilities.",
           respect.unordered.factors = paste0("unordered factors are split as categories, ",
                                              "as rpart does."),
           write.forest = "the fitted trees are always kept (for predict()).")
  if (kind != "forest") {
    out[["mtry"]] <- paste0("bagging and boosting use every predictor in each node; ",
                            "ordinal_forest() draws max_features (mtry) of them.")
  }
  out
}

# The arguments of an ensemble wrapper after other packages' spellings (ensemble_aliases):
# `formal` = c(name = given?) for the wrapper's own arguments; `env` the wrapper's frame, where
# an alias of a formal argument is assigned. Returns the remaining `...`.
ensemble_dots <- function(kind, dots, formal, caller, env) {
  args <- foreign_args(dots, ensemble_aliases[[kind]], ensemble_refused(kind), caller, formal,
                       known = py_parameter_names(kind))
  for (name in names(args$formals)) assign(name, args$formals[[name]], envir = env)
  args$dots
}

#' Bagged ordinal classification trees
#'
#' Bootstrap aggregation of unpruned ordinal trees, fitted by the Python
#' \code{ordstat.ensemble.OrdinalBaggingClassifier}, with out-of-bag misclassification, mean
#' absolute distance and Goodman-Kruskal gamma of the ensemble and of every tree (Archer and
#' Mas 2009). With \code{fixed_split = TRUE}, each dichotomy \{1..r\} | \{r+1..k\} is bagged
#' separately (\code{ordstat.ensemble.FixedSplitBaggingClassifier}) and the results are
#' combined by the second-stage vote of Tutz and Hechenbichler (2003, section 3.1).
#'
#' The formula arguments are those of \code{lm}: \code{data} is optional, \code{subset} and
#' \code{na.action} (default \code{na.omit}) work as there, and \code{predict(fit, newdata)}
#' keeps its rows (\link{ordstat_model}). The ensembles take no case weights: \code{weights}
#' gives an error. Predictors may be numeric, logical, ordered factors (used as their level
#' index) and unordered factors, which the trees split as categories (as rpart does); with a
#' base \code{estimator} that is not an ordinal tree (\code{fixed_split}, boosting), unordered
#' factors are an error naming them.
#'
#' Other packages' argument names: randomForest's and ranger's \code{ntree},
#' \code{num.trees}, \code{mtry} (forest), \code{nodesize} and \code{min.bucket} (forest:
#' \code{min_bucket}), \code{min.node.size} and rpart's \code{minsplit} (\code{min_split}),
#' \code{max.depth} (forest), \code{num.threads} (\code{n_jobs}), \code{seed}
#' (\code{random_state}), \code{oob.error} and ipred's \code{coob} (\code{oob_score}),
#' \code{verbose} (\code{progress}), ipred's \code{nbagg} and adabag's \code{mfinal}
#' (\code{n_estimators}) are accepted with the same meaning; \code{importance = TRUE}
#' (randomForest) or \code{"permutation"} (ranger) of \code{\link{ordinal_forest}} is the
#' permutation importance by misclassification. Names without a counterpart
#' (\code{sampsize}, \code{replace}, \code{classwt}, \code{cutoff}, \code{maxnodes}, ...)
#' are errors saying why, and a misspelt name an error suggesting the closest one ("did you
#' mean 'n_estimators'?").
#'
#' Out of bag: \code{predict(fit)} without \code{newdata} gives the out-of-bag predictions
#' (see \code{\link{predict.ordstat_ensemble}}), \code{print(fit)} the out-of-bag error rate
#' and confusion matrix as \code{print.randomForest} does, and \code{\link{importance}(fit)}
#' the variable importances.
#'
#' Missing predictors: with \code{na.action = na.pass}, rows with missing predictor values are
#' kept, in fitting and in \code{predict}: every tree learns in each node on which side the
#' missing values of its split variable go (as \code{\link{ordinal_tree}} does), so every row
#' gets a prediction. This holds for \code{ordinal_bagging} (also with \code{fixed_split}),
#' \code{\link{ordinal_forest}} and \code{\link{ordinal_boosting}} with its default tree base
#' learners. A missing response is still an error, and the wrappers of the other methods (the
#' decompositions, the generative models, the combiners) need complete predictors: they give an
#' error under \code{na.pass}.
#'
#' Randomness: without \code{random_state}, the seed is drawn from R's random numbers, so
#' \code{set.seed()} before the call makes the fit reproducible (for any \code{n_jobs}). The
#' fitted model keeps a serialised copy of the Python model, so it survives
#' \code{saveRDS}/\code{readRDS} and \code{save}/\code{load} into a new R session.
#'
#' @param formula A formula \code{y ~ x1 + x2 + ...}; \code{y} must be an ordered factor and the
#'   predictors numeric, logical or factors (ordered or not).
#' @param data A data frame (optional: without it the variables are taken from the
#'   environment of the formula).
#' @param weights Not supported by the ensembles (an error when given).
#' @param subset Optional expression selecting the rows to use, as in \code{lm}.
#' @param na.action What to do with rows that have missing values: \code{na.omit} (default),
#'   \code{na.exclude}, \code{na.fail} or \code{na.pass} (keep rows with missing predictors:
#'   the trees learn where they go, see Details of \code{\link{ordinal_bagging}}), a function
#'   or its name.
#' @param n_estimators Number of bootstrap samples.
#' @param aggregation \code{"vote"} (plurality), \code{"median"} (median predicted class) or
#'   \code{"proba"} (mean class proportions).
#' @param criterion Split criterion of the trees, any spelling accepted by
#'   \code{\link{ordinal_tree}} (\code{"ordinal"}, \code{"twoing"}, \code{"gini"},
#'   \code{"entropy"}, \code{"gini_linear"} or \code{"linear"}, \code{"gini_quadratic"} or
#'   \code{"quadratic"}, \code{"loss_linear"} or \code{"rpart_linear"}, \code{"loss_quadratic"}
#'   or \code{"rpart_quadratic"}).
#' @param min_split,cp Tree controls (the default trees are unpruned: \code{minsplit} 5,
#'   \code{cp} 0).
#' @param fixed_split Bag the dichotomies separately (trees of \code{max_leaf_nodes} leaves,
#'   Gini) and combine them by eq. (2) of Tutz and Hechenbichler (2003); \code{aggregation},
#'   \code{criterion}, \code{min_split} and \code{cp} are then not used.
#' @param weighted With \code{fixed_split}, weight each split by its prediction vote.
#' @param max_leaf_nodes Tree size for \code{fixed_split}.
#' @param n_jobs Number of parallel jobs (\code{NULL}: one; the result does not depend on it).
#' @param random_state Optional whole number: the seed (default: drawn from R's random
#'   numbers, see \code{set.seed}).
#' @param ... Further parameters of the Python class by their Python names
#'   (\code{oob_score}, \code{progress}; with \code{fixed_split}, \code{estimator}) and
#'   other packages' names (\code{ntree}, \code{num.trees}, \code{nbagg}, \code{minsplit},
#'   ...: see Details); any other name is an error.
#' @return An object of class \code{c("ordinal_bagging", "ordstat_ensemble")} (with
#'   \code{fixed_split}: \code{c("ordinal_fixed_split_bagging", "ordstat_ensemble")}) with
#'   \code{oob} (misclassification, mean_absolute, gamma), \code{oob_per_tree} (a data frame, one row per
#'   tree), \code{oob_confusion} (units by observed and out-of-bag predicted class),
#'   \code{split_importance} (the trees' mean normalised split goodness per predictor),
#'   \code{method}, \code{levels}, \code{xlevels}, \code{terms}, \code{na.action},
#'   \code{call} and the serialised Python model; it has \code{print}, \code{summary} and
#'   \code{predict} methods.
#' @references Archer, K. J. and Mas, V. R. (2009). Ordinal response prediction using bootstrap
#'   aggregation, with application to a high-throughput methylation data set.
#'   \emph{Statistics in Medicine}, 28, 3597-3610.
#'
#'   Tutz, G. and Hechenbichler, K. (2003). Aggregating classifiers with ordinal response
#'   structure. Discussion Paper 359, SFB 386, LMU Munich.
#' @seealso \code{\link{ordinal_forest}}, \code{\link{ordinal_boosting}},
#'   \code{\link{predict.ordstat_ensemble}}, \code{\link{importance}}.
#' @examples
#' if (ordstat_available()) {
#'   d <- data.frame(x = 1:60, z = rep(c(0, 1), 30))
#'   d$y <- cut(d$x, c(0, 20, 40, 60), labels = c("low", "mid", "high"), ordered_result = TRUE)
#'   set.seed(1)
#'   fit <- ordinal_bagging(y ~ x + z, d, n_estimators = 10)
#'   print(fit)
#'   predict(fit, d[1:3, ])
#' }
#' @export
ordinal_bagging <- function(formula, data, weights, subset, na.action = stats::na.omit,
                            n_estimators = 100L, aggregation = c("vote", "median", "proba"),
                            criterion = "ordinal", min_split = 5L, cp = 0,
                            fixed_split = FALSE, weighted = FALSE, max_leaf_nodes = 5L,
                            n_jobs = NULL, random_state = NULL, ...) {
  call <- match.call()  # here: a promise evaluated inside a callee sees other frames
  caller <- "ordinal_bagging()"
  dots <- ensemble_dots("bagging", list(...),
                        c(n_estimators = !missing(n_estimators), min_split = !missing(min_split),
                          criterion = !missing(criterion), n_jobs = !missing(n_jobs),
                          random_state = !missing(random_state)), caller, environment())
  common <- list(n_estimators = n_estimators, n_jobs = n_jobs,
                 random_state = random_seed(random_state))
  # fixed_split chooses the Python class: an R-only switch, checked here
  if (one_logical(fixed_split, "fixed_split", caller)) {
    params <- c(common, list(weighted = weighted, max_leaf_nodes = max_leaf_nodes))
    return(fit_ensemble("fixed_split_bagging", params, dots, call, parent.frame(), caller,
                        na.action, method = "Fixed-split bagging of ordinal dichotomies"))
  }
  aggregation <- option_value(aggregation, c("vote", "median", "proba"))
  tree <- list(kind = "tree", params = list(criterion = criterion, min_split = min_split,
                                            cp = cp, xval = 0L))
  params <- c(common, list(estimator = tree, aggregation = aggregation))
  fit_ensemble("bagging", params, dots, call, parent.frame(), caller, na.action,
               method = sprintf("Bagged ordinal trees (criterion \"%s\", %s)",
                                py_criterion_name(criterion), aggregation),
               criterion = py_criterion_name(criterion))
}

#' Random forest of ordinal trees
#'
#' A random forest (Breiman 2001) of fully grown ordinal trees with \code{max_features}
#' predictors drawn in each node, combined by the median or the plurality of the trees'
#' predictions, fitted by the Python \code{ordstat.ensemble.OrdinalRandomForestClassifier};
#' out-of-bag scores and a permutation importance measured with an ordinal metric. The formula
#' arguments (\code{na.pass} for missing predictors included), predictors, randomness and
#' persistence are as for \code{\link{ordinal_bagging}}.
#'
#' @inheritParams ordinal_bagging
#' @param criterion Split criterion (see \code{\link{ordinal_tree}}).
#' @param max_features Predictors drawn per node out of the M predictors: a count, a fraction,
#'   \code{"sqrt"} (floor of sqrt M), \code{"log2"} (floor of log2 M) or \code{"log2+1"}
#'   (floor of log2 M, plus 1, at most M: Breiman's choice, used in the dissertation
#'   "Ensemble methods for ordinal data classification", section 5.2).
#' @param aggregation \code{"median"}, \code{"vote"} or \code{"proba"}.
#' @param importance \code{"none"}, or the out-of-bag loss whose increase under permutation
#'   measures a predictor's importance: \code{"mean_absolute"}, \code{"gamma"} or
#'   \code{"misclassification"} (also \code{TRUE}, as in randomForest, or ranger's
#'   \code{"permutation"}; \code{FALSE} or ranger's \code{"impurity"} are \code{"none"}: the
#'   split importance is always computed). See \code{\link{importance}}.
#' @param min_split Minimum number of units in a node for a split to be tried.
#' @param ... Further parameters of the Python class by their Python names
#'   (\code{min_bucket}, \code{max_depth}, \code{oob_score}, \code{progress}) and
#'   randomForest's and ranger's names (\code{ntree}, \code{mtry}, \code{nodesize},
#'   \code{min.node.size}, ...: see Details of \code{\link{ordinal_bagging}}); any other name
#'   is an error.
#' @return An object of class \code{c("ordinal_forest", "ordstat_ensemble")} with \code{oob},
#'   \code{oob_per_tree}, \code{oob_confusion}, \code{split_importance}, \code{importance} (with \code{importance}
#'   set), \code{method}, \code{levels}, \code{call} and the serialised Python model.
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
ordinal_forest <- function(formula, data, weights, subset, na.action = stats::na.omit,
                           n_estimators = 100L, criterion = "ordinal", max_features = "sqrt",
                           aggregation = c("median", "vote", "proba"),
                           importance = c("none", "mean_absolute", "gamma",
                                          "misclassification"),
                           min_split = 2L, n_jobs = NULL, random_state = NULL, ...) {
  call <- match.call()
  caller <- "ordinal_forest()"
  dots <- ensemble_dots("forest", list(...),
                        c(n_estimators = !missing(n_estimators), criterion = !missing(criterion),
                          max_features = !missing(max_features), min_split = !missing(min_split),
                          n_jobs = !missing(n_jobs), random_state = !missing(random_state)),
                        caller, environment())
  aggregation <- option_value(aggregation, c("median", "vote", "proba"))
  # randomForest's importance = TRUE is its permutation importance by misclassification
  # (MeanDecreaseAccuracy); ranger's "permutation" the same, "impurity" our split importance,
  # which is always computed
  if (is.logical(importance) && length(importance) == 1L && !is.na(importance)) {
    importance <- if (importance) "misclassification" else "none"
  } else if (identical(importance, "permutation")) {
    importance <- "misclassification"
  } else if (is.character(importance) && length(importance) == 1L &&
             importance %in% c("impurity", "impurity_corrected")) {
    importance <- "none"
  }
  importance <- option_value(importance, c("none", "mean_absolute", "gamma",
                                           "misclassification"))
  # R has one number type: a whole number of predictors is a count (1 is one predictor, not
  # the fraction 1.0 of them)
  if (is.numeric(max_features) && length(max_features) == 1L && !is.na(max_features) &&
      max_features >= 1 && max_features == round(max_features)) {
    max_features <- as.integer(max_features)
  }
  params <- list(n_estimators = n_estimators, criterion = criterion,
                 max_features = max_features, aggregation = aggregation,
                 importance = if (identical(importance, "none")) NULL else importance,
                 min_split = min_split, n_jobs = n_jobs,
                 random_state = random_seed(random_state))
  fit_ensemble("forest", params, dots, call, parent.frame(), caller, na.action,
               method = sprintf("Random forest of ordinal trees (criterion \"%s\", %s)",
                                py_criterion_name(criterion), aggregation),
               criterion = py_criterion_name(criterion))
}

#' Boosting for an ordered response
#'
#' The boosting family of Tutz and Hechenbichler (2003), fitted by the Python
#' \code{ordstat.ensemble.OrdinalBoostingClassifier}: nominal Discrete and Real AdaBoost,
#' fixed-split boosting of the dichotomies, and Ordinal Discrete and Real AdaBoost. The formula
#' arguments (\code{na.pass} for missing predictors included, with the default tree base
#' learners), predictors, randomness and persistence are as for \code{\link{ordinal_bagging}}
#' (\code{boost_by = "weight"} reweights the units between cycles; case weights of the data are
#' not supported).
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
#' @param ... Further parameters of the Python class by their Python names
#'   (\code{estimator}, \code{progress}) and other packages' names (\code{mfinal},
#'   \code{n.trees}, ...: see Details of \code{\link{ordinal_bagging}}); any other name is an
#'   error.
#' @return An object of class \code{c("ordinal_boosting", "ordstat_ensemble")} with
#'   \code{n_cycles}, \code{cycle_weights} (the c_m of discrete variants), \code{method},
#'   \code{levels}, \code{call} and the serialised Python model.
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
ordinal_boosting <- function(formula, data, weights, subset, na.action = stats::na.omit,
                             variant = c("ordinal_discrete", "ordinal_real",
                                         "fixed_split_discrete", "fixed_split_real",
                                         "discrete", "real"),
                             error = NULL, n_estimators = 50L, max_leaf_nodes = 5L,
                             boost_by = c("resample", "weight"), weighted = FALSE,
                             n_jobs = NULL, random_state = NULL, ...) {
  call <- match.call()
  caller <- "ordinal_boosting()"
  dots <- ensemble_dots("boosting", list(...),
                        c(n_estimators = !missing(n_estimators), n_jobs = !missing(n_jobs),
                          random_state = !missing(random_state)), caller, environment())
  variant <- option_value(variant, c("ordinal_discrete", "ordinal_real", "fixed_split_discrete",
                                     "fixed_split_real", "discrete", "real"))
  boost_by <- option_value(boost_by, c("resample", "weight"))
  params <- list(variant = variant, error = error, n_estimators = n_estimators,
                 max_leaf_nodes = max_leaf_nodes, boost_by = boost_by, weighted = weighted,
                 n_jobs = n_jobs, random_state = random_seed(random_state))
  fit_ensemble("boosting", params, dots, call, parent.frame(), caller, na.action,
               method = sprintf("Ordinal boosting (%s%s, %s)", variant,
                                if (is.null(error)) "" else paste0(", ", error), boost_by),
               variant = variant)
}

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
