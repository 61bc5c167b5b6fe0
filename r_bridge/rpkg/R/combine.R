# Serial combining of classifiers (committee of methods, likelihood, AIC, BIC, integrated
# likelihood): one S3 class "ordstat_serial".

combine_side <- function() {
  check_python()
  if (is.null(.ordstat$combine)) {
    .ordstat$combine <- reticulate::import("r_bridge._rside_combine", convert = FALSE)
  }
  .ordstat$combine
}

# prepare_fit() with a response of either kind: an unordered factor (or character vector) is
# passed through as ordered and its kind recorded, so that predictions come back alike.
prepare_any_response <- function(formula, data, caller) {
  ordered <- TRUE
  if (inherits(formula, "formula") && is.data.frame(data) && is.name(formula[[2L]])) {
    name <- as.character(formula[[2L]])
    y <- data[[name]]
    if (is.character(y)) y <- factor(y)
    if (is.factor(y) && !is.ordered(y)) {
      ordered <- FALSE
      data[[name]] <- factor(y, levels = levels(y), ordered = TRUE)
    }
  }
  prep <- prepare_fit(formula, data, caller)
  prep$ordered <- ordered
  if (!ordered) prep$y <- factor(prep$y, levels = levels(prep$y), ordered = FALSE)
  prep
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
#' @param formula A formula \code{y ~ x1 + x2 + ...}; \code{y} a factor (ordered or not: the
#'   class order plays no part) or a character vector. Numeric predictors for EDDA models,
#'   factors for the discrete models.
#' @param data A data frame.
#' @param models A character vector of models: EDDA covariance models (\code{"EEI"},
#'   \code{"EII"}, ... as in mclust), \code{"fmm"}, \code{"foim"}, \code{"kernel"}, or
#'   \code{"edda"} for all 14 EDDA models.
#' @param method \code{"committee"}, \code{"likelihood"}, \code{"aic"}, \code{"bic"} or
#'   \code{"integrated"}.
#' @param posteriors For the committee: \code{"resubstitution"} (the paper's), \code{"loo"}
#'   (exact leave-one-out) or \code{"cv"} (out-of-fold) posteriors of the training units.
#' @param n_models If given, only this many of the models, the most different ones by a
#'   correspondence analysis of their posteriors, are combined.
#' @param ... Further arguments of \code{SerialCombiner} (by their Python names, e.g.
#'   \code{cv}, \code{random_state}).
#' @return An object of class \code{"ordstat_serial"} with \code{py}, \code{weights} (named by
#'   the models in the paper's notation), \code{formula_text} (e.g.
#'   \code{"0.84 [lambda B] + 0.16 [lambda I]"}), \code{method}, \code{levels},
#'   \code{ordered}.
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
serial_combine <- function(formula, data, models = c("EEI", "EII"),
                           method = c("committee", "likelihood", "aic", "bic", "integrated"),
                           posteriors = c("resubstitution", "loo", "cv"), n_models = NULL,
                           ...) {
  caller <- "serial_combine()"
  method <- match_name(method, c("committee", "likelihood", "aic", "bic", "integrated"), caller,
                       "method")
  posteriors <- match_name(posteriors, c("resubstitution", "loo", "cv"), caller, "posteriors")
  if (!is.character(models) || !length(models) || anyNA(models)) {
    stop(paste0(caller, ": 'models' must be a character vector of model names such as ",
                "c(\"EEI\", \"EII\") or c(\"foim\", \"fmm\"), or \"edda\"."), call. = FALSE)
  }
  if (!is.null(n_models) && (!is.numeric(n_models) || length(n_models) != 1L ||
                             n_models < 2 || n_models != round(n_models))) {
    stop(sprintf("%s: 'n_models' must be NULL or one whole number >= 2.", caller),
         call. = FALSE)
  }
  prep <- prepare_any_response(formula, data, caller)
  p <- factor_parts(prep$y)
  params <- c(list(method = method, posteriors = posteriors, n_models = n_models), list(...))
  py <- combine_side()$fit_serial(as.list(models), params, py_frame(prep$x),
                                  as.array(p$codes), as.list(p$levels), prep$ordered)
  info <- py_value(combine_side()$serial_info(py))
  weights <- stats::setNames(as.double(info$weights), unlist(info$models))
  structure(list(py = py, weights = weights, mclust_names = unlist(info$mclust),
                 formula_text = info$formula, summary_text = info$summary, method = method,
                 posteriors = posteriors, levels = prep$levels, ordered = prep$ordered,
                 xlevels = prep$xlevels, terms = prep$terms, x = prep$x, y = prep$y,
                 call = match.call()),
            class = "ordstat_serial")
}

#' @export
print.ordstat_serial <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("Serial combination by %s%s\n", x$method,
              if (x$method == "committee") sprintf(" (%s posteriors)", x$posteriors) else ""))
  cat(sprintf("Classes: %s\n", paste(x$levels, collapse = if (x$ordered) " < " else ", ")))
  cat("Model:", x$formula_text, "\n")
  cat("Weights:\n")
  print(signif(x$weights, digits))
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
    loo_error <- py_value(combine_side()$loo_error(object$py, py_frame(object$x),
                                                   as.array(p$codes), as.list(p$levels),
                                                   object$ordered))
  }
  structure(list(call = object$call, text = object$summary_text, loo_error = loo_error,
                 confusion = table(observed = object$y, predicted = stats::predict(object))),
            class = "summary.ordstat_serial")
}

#' @export
print.summary.ordstat_serial <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("Call:\n")
  print(x$call)
  cat("\n", x$text, "\n", sep = "")
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
#' @param ... Unused.
#' @return A factor or a numeric matrix.
#' @export
predict.ordstat_serial <- function(object, newdata = NULL, type = c("class", "prob"), ...) {
  type <- match.arg(type)
  caller <- "predict()"
  x <- if (is.null(newdata)) object$x else prepare_newdata(object, newdata, caller)
  X <- py_frame(x)
  if (type == "class") {
    codes <- py_value(rside()$predict_codes(object$py, X))
    out <- factor_from_parts(as.integer(codes), object$levels, ordered = object$ordered)
    names(out) <- rownames(x)
    return(out)
  }
  prob <- matrix(as.double(py_value(rside()$predict_proba(object$py, X))), nrow = nrow(x))
  dimnames(prob) <- list(rownames(x), object$levels)
  prob
}
