# Ordinal ensembles (bagging, random forests, boosting): the three wrappers, one S3 class
# "ordstat_ensemble", fitted through fit_wrapped() (wrap.R); other packages' argument names
# are in aliases.R, what a fitted ensemble gives (print, summary, predict, importance) in
# ensemble-methods.R.

# Unordered factors (and character columns) go to Python as categories, which the trees split
# as rpart does; the Python class refuses them for base learners that take numbers only.
fit_ensemble <- function(kind, params, dots, call, env, caller, na.action, ...) {
  object <- fit_wrapped(kind, params, dots, call, env, caller, na.action,
                        class = c(paste0("ordinal_", kind), "ordstat_ensemble"), ...,
                        numeric_x = FALSE, allow_missing = TRUE)
  ensemble_fields(object)
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
#' keeps its rows (\link{ordstat_model}). Case weights (\code{weights}) act through the
#' bootstrap: whole numbers are the counts of a frequency table, and the ensemble grows exactly
#' the trees of the table expanded into repeated rows (its bootstrap samples drawn from the
#' same random numbers); other weights draw the units with probability proportional to them. A
#' unit of weight 0 is never in a bootstrap sample, and the out-of-bag scores are weighted by
#' the units' weights (the out-of-bag confusion matrix sums them). Predictors may be numeric, logical, ordered factors (used as their level
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
#' \code{saveRDS}/\code{readRDS} and \code{save}/\code{load} into a new R session; read it
#' only from files you trust (see \emph{Saving models} in \code{\link{ordstat-package}}).
#'
#' @template model-arguments
#' @templateVar response \code{y} must be an ordered factor and the predictors numeric, logical or
#'   factors (ordered or not).
#' @templateVar weights Case weights: a frequency table's counts or other non-negative
#'   weights (see Details).
#' @templateVar na_choices \code{na.exclude}, \code{na.fail} or \code{na.pass} (keep rows with
#'   missing predictors: the trees learn where they go, see Details of
#'   \code{\link{ordinal_bagging}})
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
#'   (\code{min_bucket}, \code{max_depth}, \code{oob_score}, \code{progress}, and
#'   \code{missing = "surrogate"} with \code{maxsurrogate}, \code{usesurrogate},
#'   \code{surrogatestyle}: trees with rpart's surrogate splits, see
#'   \code{\link{ordinal_tree}}) and randomForest's and ranger's names (\code{ntree}, \code{mtry}, \code{nodesize},
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
#' (\code{boost_by = "weight"} reweights the units between cycles). Case weights
#' (\code{weights}) are the boosting weights of the first cycle, normalised, instead of the
#' uniform ones; whole numbers are the counts of a frequency table (each resample draws their
#' sum, and with \code{boost_by = "weight"} the fit is that of the table expanded into repeated
#' rows).
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
