# Serial combining of classifiers (committee of methods, likelihood, AIC, BIC, integrated
# likelihood): one S3 class "ordstat_serial".

combine_side <- function() {
  check_python()
  if (is.null(.ordstat$combine)) {
    .ordstat$combine <- reticulate::import("ordstat.r._rside_combine", convert = FALSE)
  }
  .ordstat$combine
}

#' Serial combination of classifiers
#'
#' A convex combination \code{sum_m beta_m p_m(x)} of the posterior probabilities of several
#' models with one weight per model (Brito, Celeux and Sousa Ferreira 2006, section 3): the
#' committee of methods (weights minimising the squared error of the combined posteriors on
#' the training data), or weights proportional to the likelihoods, to the AIC- or BIC-penalised
#' likelihoods, or to the integrated likelihoods (exact for the discrete models, the BIC
#' approximation otherwise). Fitted by the Python class \code{ordstat.combine.SerialCombiner}.
#'
#' @template model-arguments
#' @templateVar response \code{y} a factor (ordered or not: the class order plays no part) or a
#'   character vector. Numeric predictors for EDDA models, factors for the discrete models.
#' @templateVar weights Not supported (the combiner takes no case weights): giving them is an error.
#' @templateVar na_choices \code{na.exclude} or \code{na.fail} (the models need complete rows)
#' @templateVar na_note ; recorded and applied by \code{predict(fit, newdata)}
#' @param models A character vector of models: EDDA covariance models (\code{"EEI"},
#'   \code{"EII"}, ... as in mclust), \code{"fmm"}, \code{"foim"}, \code{"kernel"}, or
#'   \code{"edda"} for all 14 EDDA models.
#' @param method \code{"committee"}, \code{"likelihood"}, \code{"aic"}, \code{"bic"} or
#'   \code{"integrated"}.
#' @param posteriors For the committee: \code{"resubstitution"} (the paper's), \code{"loo"}
#'   (exact leave-one-out) or \code{"cv"} (out-of-fold) posteriors of the training units.
#' @param n_models If given, only this many of the models, the most different ones by a
#'   correspondence analysis of their posteriors, are combined.
#' @param random_state Seed of the cross-validation folds (\code{posteriors = "cv"}); by
#'   default drawn from R's random numbers, so \code{set.seed()} before the call makes the fit
#'   reproducible.
#' @param ... Further arguments of \code{SerialCombiner} by their Python names (\code{cv},
#'   the number of folds; \code{n_jobs}); any other name is an error.
#' @return An object of class \code{"ordstat_serial"} with \code{weights} (named by the
#'   models as given in \code{models}, e.g. \code{"EII"}; the 14 models of \code{"edda"} by
#'   their mclust names), \code{paper_names} (the same models in the paper's notation, e.g.
#'   \code{"[lambda I]"}), \code{mclust_names}, \code{formula_text} (e.g.
#'   \code{"0.84 [lambda B] + 0.16 [lambda I]"}), \code{method}, \code{levels},
#'   \code{response_ordered}, \code{na.action}, \code{call} and the serialised Python model
#'   (so it survives \code{saveRDS}/\code{readRDS} into a new R session; read it only from
#'   files you trust, see \emph{Saving models} in \code{\link{ordstat-package}}).
#' @references Brito, I., Celeux, G. and Sousa Ferreira, A. (2006). Combining methods in
#'   supervised classification: a comparative study on discrete and continuous problems.
#'   \emph{REVSTAT}, 4, 201-225.
#' @examples
#' if (ordstat_available()) {
#'   fit <- serial_combine(Species ~ ., iris, models = c("EEI", "EII"))
#'   fit
#'   table(predict(fit), iris$Species)
#' }
#' @export
serial_combine <- function(formula, data, weights, subset, na.action = stats::na.omit,
                           models = c("EEI", "EII"),
                           method = c("committee", "likelihood", "aic", "bic", "integrated"),
                           posteriors = c("resubstitution", "loo", "cv"), n_models = NULL,
                           random_state = NULL, ...) {
  call <- match.call()  # here: a promise evaluated inside a callee sees other frames
  caller <- "serial_combine()"
  dots <- list(...)
  # prefit is set: the models are named here, so they are never fitted already
  params <- list(estimators = as.list(models),
                 method = option_value(method, c("committee", "likelihood", "aic", "bic",
                                                 "integrated")),
                 posteriors = option_value(posteriors, c("resubstitution", "loo", "cv")),
                 n_models = n_models, prefit = FALSE, random_state = random_seed(random_state))
  object <- fit_wrapped("serial", params, dots, call, parent.frame(), caller, na.action,
                        class = "ordstat_serial", method = params$method,
                        posteriors = params$posteriors, ordered = FALSE, labels_ok = TRUE,
                        numeric_x = FALSE, r_names = c(estimators = "models"))
  info <- py_value(combine_side()$serial_info(py_model(object)))
  object$mclust_names <- unlist(info$mclust)
  object$paper_names <- unlist(info$models)
  object$weights <- stats::setNames(as.double(info$weights),
                                    user_model_names(object$mclust_names, models))
  object$formula_text <- info$formula
  object$summary_text <- info$summary
  object
}

# The models as the user named them in `models` ("EII", "fmm"), matched to the fitted models'
# mclust names ("EII", "FMM") ignoring case; models the user did not name one by one (all 14 of
# "edda") keep their mclust names.
user_model_names <- function(fitted, given) {
  given <- as.character(unlist(given))
  vapply(fitted, function(name) {
    hit <- given[toupper(given) == toupper(name)]
    if (length(hit)) hit[[1L]] else name
  }, "", USE.NAMES = FALSE)
}

#' @export
print.ordstat_serial <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("Serial combination by %s%s\n", x$method,
              if (x$method == "committee") sprintf(" (%s posteriors)", x$posteriors) else ""))
  cat(sprintf("Classes: %s\n", paste(x$levels,
                                     collapse = if (x$response_ordered) " < " else ", ")))
  if (length(x$na.action)) cat(stats::naprint(x$na.action), "\n")
  cat("Model:", x$formula_text, "\n")
  cat("Weights:\n")
  table <- data.frame(paper = x$paper_names, weight = signif(unname(x$weights), digits),
                      row.names = make.unique(names(x$weights)), stringsAsFactors = FALSE)
  if (is.null(x$paper_names)) table$paper <- NULL  # a fit saved before they were kept
  print(table)
  invisible(x)
}

#' Summary of a serial combination
#'
#' @param object A model fitted by \code{\link{serial_combine}}.
#' @param loo If \code{TRUE}, also the leave-one-out misclassification rate of the whole
#'   procedure (weights recomputed without each unit).
#' @param ... Unused.
#' @return An object of class \code{"summary.ordstat_serial"} with the weights table (text),
#'   the training confusion matrix and, when asked, \code{loo_error}.
#' @export
summary.ordstat_serial <- function(object, loo = FALSE, ...) {
  loo_error <- NULL
  if (isTRUE(loo)) {
    p <- factor_parts(object$y)
    loo_error <- py_value(combine_side()$loo_error(py_model(object), py_frame(object$x),
                                                   as.array(p$codes), as.list(p$levels),
                                                   object$response_ordered))
  }
  structure(list(call = object$call, text = object$summary_text, loo_error = loo_error,
                 na.action = object$na.action,
                 confusion = table(observed = object$y, predicted = fitted_classes(object))),
            class = "summary.ordstat_serial")
}

#' @export
print.summary.ordstat_serial <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("Call:\n")
  print(x$call)
  cat("\n", x$text, "\n", sep = "")
  if (length(x$na.action)) cat(stats::naprint(x$na.action), "\n")
  if (!is.null(x$loo_error)) {
    cat(sprintf("\nLeave-one-out error of the whole procedure: %s\n",
                format(x$loo_error, digits = digits)))
  }
  cat("\nTraining confusion matrix:\n")
  print(x$confusion)
  invisible(x)
}

#' Predictions of a serial combination
#'
#' @param object A model fitted by \code{\link{serial_combine}}.
#' @param newdata A data frame with the predictors (the training data when omitted).
#' @param type \code{"class"} (a factor with the training levels, ordered if the response
#'   was) or \code{"prob"} (a matrix of combined posterior probabilities, one column per
#'   level).
#' @param ... \code{na.action} for \code{newdata} (default \code{na.pass}, as in
#'   \code{predict.lm}; see \code{\link{ordstat_model}}); other arguments are ignored.
#' @return A factor or a numeric matrix, one element or row per row of \code{newdata}, named by
#'   its row names; \code{NA} for a row with a missing predictor, unless \code{na.action} drops
#'   it (\code{na.omit}) or refuses it (\code{na.fail}).
#' @export
predict.ordstat_serial <- function(object, newdata = NULL, type = c("class", "prob"), ...) {
  predict_wrapped(object, newdata, match.arg(type), "predict()")
}
