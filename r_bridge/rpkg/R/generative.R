# Generative discriminant models (EDDA, discrete models): one S3 class "ordstat_generative".

new_generative <- function(py, prep, kind, call, extra = list()) {
  object <- c(list(py = py, kind = kind, levels = prep$levels, xlevels = prep$xlevels,
                   terms = prep$terms, x = prep$x, y = prep$y, call = call), extra)
  get <- function(name) py_value(rside()$attribute(py, name))
  object$priors <- stats::setNames(as.double(get("priors_")), prep$levels)
  object$n_parameters <- as.double(get("n_parameters_"))
  object$loglik <- py_value(rside()$log_likelihood(py, py_frame(prep$x),
                                                   as.array(factor_parts(prep$y)$codes),
                                                   as.list(prep$levels)))
  class(object) <- c(paste0("ordstat_", kind), "ordstat_generative")
  object
}

#' Eigenvalue decomposition discriminant analysis (EDDA)
#'
#' Gaussian discriminant analysis with one of the 14 parsimonious covariance models of Celeux
#' and Govaert (1995), fitted by the Python \code{ordstat.gaussian.EDDA}; with several models,
#' one is chosen by leave-one-out error (Bensmail and Celeux 1996) or BIC.
#'
#' @param formula A formula \code{y ~ x1 + x2 + ...}; \code{y} must be an ordered factor and
#'   the predictors numeric.
#' @param data A data frame.
#' @param model A model name such as \code{"VVV"}, \code{"EEE"}, a vector of names, or
#'   \code{"all"}.
#' @param select \code{"loo"} or \code{"bic"}: how to choose among several models.
#' @param priors Optional class prior probabilities (in the order of the levels).
#' @param reg_covar Non-negative ridge added to every class covariance.
#' @param weights Optional case weights.
#' @param ... Further arguments of \code{EDDA} (by their Python names).
#' @return An object of class \code{c("ordstat_edda", "ordstat_generative")} with \code{py},
#'   \code{model} (the fitted model name), \code{loglik} (complete-data log-likelihood,
#'   \code{sum log(pi_k f_k(x))} at the true classes), \code{mixture_loglik} (mclust's
#'   convention), \code{n_parameters}, \code{priors}, \code{means}, \code{levels}.
#' @references Bensmail, H. and Celeux, G. (1996). Regularized Gaussian discriminant analysis
#'   through eigenvalue decomposition. \emph{JASA}, 91, 1743-1748.
#' @examples
#' if (ordstat_available()) {
#'   d <- iris
#'   d$Species <- factor(d$Species, ordered = TRUE)
#'   fit <- edda(Species ~ ., d, model = "EEE")
#'   fit
#'   table(predict(fit), d$Species)
#' }
#' @export
edda <- function(formula, data, model = "VVV", select = c("loo", "bic"), priors = NULL,
                 reg_covar = 0, weights = NULL, ...) {
  select <- match.arg(select)
  caller <- "edda()"
  if (!is.character(model) || !length(model)) {
    stop("edda(): 'model' must be a model name such as \"VVV\", a vector of names or \"all\".",
         call. = FALSE)
  }
  prep <- prepare_fit(formula, data, caller)
  if (length(prep$xlevels)) {
    stop(sprintf("edda(): predictor(s) %s are factors; EDDA needs numeric predictors.",
                 paste(sprintf("'%s'", names(prep$xlevels)), collapse = ", ")), call. = FALSE)
  }
  weights <- check_weights(weights, nrow(prep$x), caller)
  params <- c(list(model = if (length(model) == 1L) model else as.list(model), select = select,
                   priors = if (is.null(priors)) NULL else as.array(as.double(priors)),
                   reg_covar = as.double(reg_covar)), list(...))
  py <- py_fit("edda", params, prep, weights)
  get <- function(name) py_value(rside()$attribute(py, name))
  means <- matrix(as.double(get("means_")), nrow = length(prep$levels),
                  dimnames = list(prep$levels, names(prep$x)))
  new_generative(py, prep, "edda", match.call(),
                 list(model = as.character(get("model_")),
                      mixture_loglik = as.double(get("mixture_loglik_")),
                      means = means))
}

#' Discrete discriminant analysis
#'
#' The full multinomial model (\code{"fmm"}), the first-order independence model
#' (\code{"foim"}) or the kernel (Aitchison-Aitken) model (\code{"kernel"}) of Brito, Celeux and
#' Sousa Ferreira (2006), fitted by the Python package \code{ordstat.discrete}.
#'
#' @param formula A formula \code{y ~ x1 + x2 + ...}; \code{y} must be an ordered factor and the
#'   predictors factors (or integer-coded categories).
#' @param data A data frame.
#' @param model \code{"fmm"}, \code{"foim"} or \code{"kernel"}.
#' @param priors Optional class prior probabilities (in the order of the levels).
#' @param weights Optional case weights.
#' @param ... Further arguments of the Python class (e.g. \code{smoothing} for the kernel).
#' @return An object of class \code{c("ordstat_discrete", "ordstat_generative")}.
#' @references Brito, I., Celeux, G. and Sousa Ferreira, A. (2006). Combining methods in
#'   supervised classification: a comparative study on discrete and continuous problems.
#'   \emph{REVSTAT}, 4, 201-225.
#' @examples
#' if (ordstat_available()) {
#'   set.seed(1)
#'   d <- data.frame(a = factor(sample(0:1, 60, TRUE)), b = factor(sample(0:1, 60, TRUE)))
#'   d$y <- factor(ifelse(d$a == "1", "high", "low"), levels = c("low", "high"), ordered = TRUE)
#'   fit <- discrete_da(y ~ a + b, d, model = "foim")
#'   predict(fit, d[1:5, ], type = "prob")
#' }
#' @export
discrete_da <- function(formula, data, model = c("fmm", "foim", "kernel"), priors = NULL,
                        weights = NULL, ...) {
  model <- match.arg(model)
  caller <- "discrete_da()"
  prep <- prepare_fit(formula, data, caller)
  weights <- check_weights(weights, nrow(prep$x), caller)
  params <- c(list(priors = if (is.null(priors)) NULL else as.array(as.double(priors))),
              list(...))
  py <- py_fit(model, params, prep, weights)
  new_generative(py, prep, "discrete", match.call(), list(model = model))
}

#' @export
print.ordstat_generative <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  title <- if (inherits(x, "ordstat_edda")) {
    sprintf("EDDA, model %s", x$model)
  } else {
    sprintf("Discrete discriminant analysis, model %s", toupper(x$model))
  }
  cat(title, "\n")
  cat(sprintf("Classes (lowest to highest): %s\n", paste(x$levels, collapse = " < ")))
  cat(sprintf("Units: %d   parameters: %g   log-likelihood (complete data): %s\n",
              nrow(x$x), x$n_parameters, format(x$loglik, digits = digits + 3L)))
  cat("Priors:\n")
  print(signif(x$priors, digits))
  invisible(x)
}

#' @export
summary.ordstat_generative <- function(object, ...) {
  pred <- stats::predict(object)
  structure(list(call = object$call, model = object$model, kind = object$kind,
                 levels = object$levels, n = nrow(object$x), loglik = object$loglik,
                 n_parameters = object$n_parameters,
                 aic = -2 * object$loglik + 2 * object$n_parameters,
                 bic = -2 * object$loglik + object$n_parameters * log(nrow(object$x)),
                 confusion = table(observed = object$y, predicted = pred),
                 means = object$means),
            class = "summary.ordstat_generative")
}

#' @export
print.summary.ordstat_generative <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("Call:\n")
  print(x$call)
  cat(sprintf("\nModel: %s   units: %d   parameters: %g\n", x$model, x$n, x$n_parameters))
  cat(sprintf("log-likelihood (complete data): %s   AIC: %s   BIC: %s\n",
              format(x$loglik, digits = digits + 3L), format(x$aic, digits = digits + 3L),
              format(x$bic, digits = digits + 3L)))
  if (!is.null(x$means)) {
    cat("\nClass means:\n")
    print(signif(x$means, digits))
  }
  cat("\nTraining confusion matrix:\n")
  print(x$confusion)
  invisible(x)
}

#' Predictions of a generative discriminant model
#'
#' @param object A model fitted by \code{\link{edda}} or \code{\link{discrete_da}}.
#' @param newdata A data frame with the predictors (the training data when omitted).
#' @param type \code{"class"} (an ordered factor with the training levels) or \code{"prob"}
#'   (a matrix of posterior class probabilities, one column per level).
#' @param ... Unused.
#' @return An ordered factor or a numeric matrix.
#' @export
predict.ordstat_generative <- function(object, newdata = NULL, type = c("class", "prob"), ...) {
  predict_py(object, newdata, match.arg(type), "predict()")
}

#' Plot a generative discriminant model
#'
#' The posterior probability of each class for every training unit, units sorted by their
#' observed class (a stacked bar per unit): well-separated classes show as blocks.
#'
#' @param x A model fitted by \code{\link{edda}} or \code{\link{discrete_da}}.
#' @param col Colours, one per class.
#' @param ... Passed to \code{barplot}.
#' @return \code{x}, invisibly.
#' @importFrom grDevices hcl.colors
#' @export
plot.ordstat_generative <- function(x, col = hcl.colors(length(x$levels)), ...) {
  prob <- stats::predict(x, type = "prob")
  o <- order(as.integer(x$y))
  graphics::barplot(t(prob[o, , drop = FALSE]), col = col, border = NA, space = 0,
                    xlab = "units (sorted by observed class)", ylab = "posterior probability",
                    legend.text = x$levels, args.legend = list(x = "topright", bty = "n"), ...)
  invisible(x)
}
