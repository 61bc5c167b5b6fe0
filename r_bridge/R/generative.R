# Generative discriminant models (EDDA, discrete models): one S3 class "ordstat_generative".

# The fields every generative model adds to the fitted object: priors, number of parameters and
# the complete-data log-likelihood of the training data.
generative_fields <- function(object) {
  py <- py_model(object)
  get <- function(name) py_value(rside()$attribute(py, name))
  object$priors <- stats::setNames(as.double(get("priors_")), object$levels)
  object$n_parameters <- as.double(get("n_parameters_"))
  p <- factor_parts(object$y)
  object$loglik <- py_value(rside()$log_likelihood(py, py_frame(object$x), as.array(p$codes),
                                                   as.list(object$levels), p$ordered,
                                                   if (is.null(object$weights)) NULL
                                                   else as.array(object$weights)))
  object
}

#' Eigenvalue decomposition discriminant analysis (EDDA)
#'
#' Gaussian discriminant analysis with one of the 14 parsimonious covariance models of Celeux
#' and Govaert (1995), fitted by the Python \code{ordstat.gaussian.EDDA}; with several models,
#' one is chosen by leave-one-out error (Bensmail and Celeux 1996) or BIC. Model names are
#' mclust's (\code{"EII"}, ..., \code{"VVV"}; \code{"E"}/\code{"V"} with one predictor), also
#' through mclust's argument name \code{modelNames}.
#'
#' The formula arguments are those of \code{lm}: \code{data} is optional, \code{weights},
#' \code{subset} and \code{na.action} (default \code{na.omit}) work as there, and
#' \code{predict(fit, newdata)} keeps its rows (\link{ordstat_model}). The response may be an
#' ordered or a plain factor (EDDA does not use the order); predictions are a factor of the
#' same kind. Fits survive \code{saveRDS}/\code{readRDS} (a serialised copy of the Python model
#' is kept); read them only from files you trust (see \emph{Saving models} in
#' \code{\link{ordstat-package}}).
#'
#' \code{logLik(fit)} is the complete-data log-likelihood \code{sum log(pi_k f_k(x_i))} at the
#' observed classes (Brito, Celeux and Sousa Ferreira 2006) with \code{df} = all free
#' parameters (means, covariances and the K - 1 proportions when estimated); \code{AIC} and
#' \code{BIC} use it (smaller is better). \code{logLik(fit, type = "mixture")} is the mixture
#' log-likelihood \code{sum log sum_k pi_k f_k(x_i)} that mclust 6.0.0 reports for EDDA, with
#' mclust 6.0.0's \code{df} (means and covariances only); mclust's BIC is
#' \code{2 logLik - df log n} (larger is better). \code{summary} prints both.
#'
#' @template model-arguments
#' @templateVar response \code{y} a factor (ordered or not), the predictors numeric.
#' @templateVar weights Optional case weights.
#' @param model A model name such as \code{"VVV"}, \code{"EEE"}, a vector of names, or
#'   \code{"all"}.
#' @param select \code{"loo"} or \code{"bic"}: how to choose among several models.
#' @param priors Optional class prior probabilities (in the order of the levels).
#' @param reg_covar Non-negative ridge added to every class covariance.
#' @param modelNames mclust's name for \code{model} (give one of the two).
#' @param ... \code{models} (another spelling of \code{model}), \code{tol} and
#'   \code{max_iter} (of the iterative M-steps) and \code{progress} (\code{TRUE}: report a
#'   long fit's progress and run time on standard error); any other name is an error.
#' @return An object of class \code{c("ordstat_edda", "ordstat_generative")} with \code{model}
#'   (the fitted model name), \code{loglik} (complete-data log-likelihood),
#'   \code{mixture_loglik} (mclust's), \code{n_parameters}, \code{df_mclust}, \code{priors},
#'   \code{means}, \code{levels}, \code{models} (one row per fitted model: log-likelihoods,
#'   parameters, AIC, BIC, mclust's BIC, leave-one-out error) and \code{loo_error} (the
#'   leave-one-out error of the selected model; \code{NA} unless several models were compared
#'   with \code{select = "loo"}).
#' @references Bensmail, H. and Celeux, G. (1996). Regularized Gaussian discriminant analysis
#'   through eigenvalue decomposition. \emph{JASA}, 91, 1743-1748.
#'
#'   Celeux, G. and Govaert, G. (1995). Gaussian parsimonious clustering models.
#'   \emph{Pattern Recognition}, 28, 781-793.
#'
#'   Brito, I., Celeux, G. and Sousa Ferreira, A. (2006). Combining methods in supervised
#'   classification: a comparative study on discrete and continuous problems. \emph{REVSTAT},
#'   4, 201-225.
#' @examples
#' if (ordstat_available()) {
#'   fit <- edda(Species ~ ., iris, modelNames = "EEE")
#'   fit
#'   logLik(fit)
#'   BIC(fit)
#'   table(predict(fit), iris$Species)
#' }
#' @export
edda <- function(formula, data, weights, subset, na.action = stats::na.omit, model = "VVV",
                 select = c("loo", "bic"), priors = NULL, reg_covar = 0, modelNames = NULL,
                 ...) {
  call <- match.call()  # here: a promise evaluated inside a callee sees other frames
  caller <- "edda()"
  dots <- list(...)
  # one argument under three spellings: R's, mclust's and the plural
  given <- c(model = !missing(model), modelNames = !is.null(modelNames),
             models = !is.null(dots[["models"]]))
  if (sum(given) > 1L) {
    stop(sprintf("%s: give the models once, as one of %s (got %s).", caller,
                 "'model', 'modelNames' or 'models'",
                 paste(sprintf("'%s'", names(given)[given]), collapse = " and ")),
         call. = FALSE)
  }
  if (given[["modelNames"]]) model <- modelNames
  if (given[["models"]]) model <- dots[["models"]]
  dots[["models"]] <- NULL
  spelled <- names(given)[given & names(given) != "model"]
  params <- list(model = if (length(model) == 1L) model else as.list(model),
                 select = option_value(select, c("loo", "bic")), priors = priors,
                 reg_covar = reg_covar)
  object <- fit_wrapped("edda", params, dots, call, parent.frame(), caller, na.action,
                        class = c("ordstat_edda", "ordstat_generative"), ordered = FALSE,
                        numeric_x = FALSE, r_names = c(model = spelled))
  get <- function(name) py_value(rside()$attribute(py_model(object), name))
  object$model <- as.character(get("model_"))
  object$mixture_loglik <- as.double(get("mixture_loglik_"))
  object$df_mclust <- as.double(get("df_mclust_"))
  object$means <- matrix(as.double(get("means_")), nrow = length(object$levels),
                         dimnames = list(object$levels, names(object$x)))
  object$models <- edda_model_table(py_model(object))
  loo <- get("loo_error_")
  object$loo_error <- if (is.null(loo)) NA_real_ else as.double(loo)
  generative_fields(object)
}

edda_model_table <- function(py) {
  t <- py_value(rside()$edda_table(py))
  cols <- lapply(t[setdiff(names(t), "model")], function(v) {
    v <- unlist(v)
    if (is.character(v)) v else as.double(v)
  })
  out <- data.frame(cols, check.names = FALSE, stringsAsFactors = FALSE)
  rownames(out) <- unlist(t$model)
  out
}

#' Discrete discriminant analysis
#'
#' The full multinomial model (\code{"fmm"}), the first-order independence model
#' (\code{"foim"}) or the kernel (Aitchison-Aitken) model (\code{"kernel"}) of Brito, Celeux and
#' Sousa Ferreira (2006), fitted by the Python package \code{ordstat.discrete}. The formula
#' arguments (\code{data}, \code{weights}, \code{subset}, \code{na.action}) work as in
#' \code{lm}; \code{logLik}, \code{AIC}, \code{BIC} and \code{nobs} use the complete-data
#' likelihood (see \code{\link{edda}}).
#'
#' @template model-arguments
#' @templateVar response \code{y} a factor (ordered or not: predictions are a factor of the same
#'   kind) and the predictors factors (or integer-coded categories).
#' @templateVar weights Optional case weights.
#' @param model \code{"fmm"}, \code{"foim"} or \code{"kernel"} (case is ignored). The full
#'   multinomial model (the default) has K (prod m_j - 1) free parameters for predictors of
#'   m_j categories: when they outnumber the units (131,070 for the 16 votes of mlbench's
#'   HouseVotes84 and its 232 complete rows) most combinations of categories never occur and
#'   a warning suggests \code{"foim"} or \code{"kernel"}.
#' @param priors Optional class prior probabilities (in the order of the levels).
#' @param ... Further arguments of the Python class: \code{smoothing} for the kernel model,
#'   \code{categories} (the categories of each predictor); any other name is an error.
#' @return An object of class \code{c("ordstat_discrete", "ordstat_generative")}.
#' @references Brito, I., Celeux, G. and Sousa Ferreira, A. (2006). Combining methods in
#'   supervised classification: a comparative study on discrete and continuous problems.
#'   \emph{REVSTAT}, 4, 201-225.
#' @examples
#' if (ordstat_available()) {
#'   set.seed(1)
#'   d <- data.frame(a = factor(sample(0:1, 60, TRUE)), b = factor(sample(0:1, 60, TRUE)))
#'   d$y <- factor(ifelse(d$a == "1", "high", "low"), levels = c("low", "high"))
#'   fit <- discrete_da(y ~ a + b, d, model = "foim")
#'   predict(fit, d[1:5, ], type = "prob")
#' }
#' @export
discrete_da <- function(formula, data, weights, subset, na.action = stats::na.omit,
                        model = c("fmm", "foim", "kernel"), priors = NULL, ...) {
  call <- match.call()  # here: a promise evaluated inside a callee sees other frames
  caller <- "discrete_da()"
  # the model family chooses the Python class: an R-only argument, checked here
  model <- match_name(model, c("fmm", "foim", "kernel"), caller, "model")
  object <- fit_wrapped(model, list(priors = priors), list(...), call, parent.frame(), caller,
                        na.action, class = c("ordstat_discrete", "ordstat_generative"),
                        model = model, ordered = FALSE, numeric_x = FALSE)
  object <- generative_fields(object)
  check_parameter_count(object, caller)
  object
}

# The full multinomial model has a probability for every combination of the predictors'
# categories in every class (K (prod m_j - 1) of them): with many predictors they far outnumber
# the units (131,070 for the 16 votes of HouseVotes84 and its 232 complete rows), most
# combinations never occur, and the model learns next to nothing. A warning names the models
# that suit such data (Brito, Celeux and Sousa Ferreira 2006, section 2: FOIM has
# K sum (m_j - 1) parameters, KERNEL one smoothing parameter per class).
check_parameter_count <- function(object, caller) {
  n <- nobs(object)
  if (object$model != "fmm" || object$n_parameters <= n) return(invisible(object))
  warning(sprintf(paste0(
    "%s: the full multinomial model (model = \"fmm\") has %s free parameters for %d units: ",
    "most combinations of the predictors' categories never occur in the data, so it has ",
    "little to learn from. With many predictors, use model = \"foim\" (independent ",
    "predictors within each class) or model = \"kernel\" (smoothed multinomial)."),
    caller, format(object$n_parameters, big.mark = ",", scientific = FALSE), n),
    call. = FALSE)
  invisible(object)
}

#' @export
print.ordstat_generative <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  title <- if (inherits(x, "ordstat_edda")) {
    sprintf("EDDA, model %s", x$model)
  } else {
    sprintf("Discrete discriminant analysis, model %s", toupper(x$model))
  }
  cat(title, "\n")
  cat(sprintf("Classes%s: %s\n", if (isFALSE(x$response_ordered)) "" else
                " (lowest to highest)",
              paste(x$levels, collapse = if (isFALSE(x$response_ordered)) ", " else " < ")))
  cat(sprintf("Units: %d   parameters: %g   log-likelihood (complete data): %s\n",
              nobs(x), x$n_parameters, format(x$loglik, digits = digits + 3L)))
  if (length(x$na.action)) cat(stats::naprint(x$na.action), "\n")
  cat("Priors:\n")
  print(signif(x$priors, digits))
  invisible(x)
}

#' Log-likelihood, AIC, BIC and number of units of a generative model
#'
#' \code{logLik} of a model fitted by \code{\link{edda}} or \code{\link{discrete_da}}: by
#' default the complete-data log-likelihood \code{sum_i log(pi_k f_k(x_i))} at the observed
#' classes (Brito, Celeux and Sousa Ferreira 2006), with attribute \code{df} = every free
#' parameter (means or category probabilities, covariances, and the K - 1 proportions when
#' estimated) and \code{nobs}; \code{stats::AIC} and \code{stats::BIC} use it (smaller is
#' better). For EDDA, \code{type = "mixture"} gives the mixture log-likelihood
#' \code{sum_i log sum_k pi_k f_k(x_i)} with mclust 6.0.0's \code{df} (means and covariances
#' only), the numbers mclust reports for \code{MclustDA(modelType = "EDDA")}; mclust's BIC is
#' then \code{2 * logLik - df * log(n)}, larger is better.
#'
#' @param object A model fitted by \code{\link{edda}} or \code{\link{discrete_da}}.
#' @param type \code{"complete"} (default) or \code{"mixture"} (EDDA only).
#' @param ... Unused.
#' @return \code{logLik}: an object of class \code{"logLik"} with attributes \code{df},
#'   \code{nobs} and \code{type}. \code{nobs}: the number of units with positive weight.
#' @examples
#' if (ordstat_available()) {
#'   fit <- edda(Species ~ ., iris, model = "VVV")
#'   logLik(fit)
#'   logLik(fit, type = "mixture")
#'   c(AIC = AIC(fit), BIC = BIC(fit), n = nobs(fit))
#' }
#' @export
logLik.ordstat_generative <- function(object, type = c("complete", "mixture"), ...) {
  type <- match.arg(type)
  if (type == "mixture") {
    if (!inherits(object, "ordstat_edda")) {
      stop("logLik(): type = \"mixture\" is available for EDDA fits only.", call. = FALSE)
    }
    value <- object$mixture_loglik
    df <- object$df_mclust
  } else {
    value <- object$loglik
    df <- object$n_parameters
  }
  structure(value, df = df, nobs = nobs(object), type = type, class = "logLik")
}

#' @rdname logLik.ordstat_generative
#' @export
nobs.ordstat_generative <- function(object, ...) {
  if (is.null(object$weights)) nrow(object$x) else sum(object$weights > 0)
}

#' @export
summary.ordstat_generative <- function(object, ...) {
  pred <- stats::predict(object)
  pred <- pred[!is.na(pred)]  # the rows na.exclude padded back in
  n <- nobs(object)
  ll <- logLik(object)
  out <- list(call = object$call, model = object$model, kind = object$kind,
              levels = object$levels, n = n, loglik = object$loglik,
              n_parameters = object$n_parameters, aic = stats::AIC(ll), bic = stats::BIC(ll),
              confusion = table(observed = object$y, predicted = pred),
              means = object$means, models = object$models, loo_error = object$loo_error)
  if (inherits(object, "ordstat_edda")) {
    out$mixture_loglik <- object$mixture_loglik
    out$df_mclust <- object$df_mclust
    out$bic_mclust <- 2 * object$mixture_loglik - object$df_mclust * log(n)
  }
  structure(out, class = "summary.ordstat_generative")
}

#' @export
print.summary.ordstat_generative <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  f <- function(v) format(v, digits = digits + 3L)
  cat("Call:\n")
  print(x$call)
  cat(sprintf("\nModel: %s   units: %d   parameters: %g\n", x$model, x$n, x$n_parameters))
  cat(sprintf("log-likelihood (complete data): %s   AIC: %s   BIC: %s (smaller is better)\n",
              f(x$loglik), f(x$aic), f(x$bic)))
  if (!is.null(x$mixture_loglik)) {
    cat(sprintf(paste0("log-likelihood (mixture, as mclust): %s   df (mclust 6.0.0): %g   ",
                       "BIC (mclust: 2 logLik - df log n): %s (larger is better)\n"),
                f(x$mixture_loglik), x$df_mclust, f(x$bic_mclust)))
  }
  if (!is.null(x$loo_error) && !is.na(x$loo_error)) {
    cat(sprintf("Leave-one-out error of the selected model: %s\n", f(x$loo_error)))
  }
  if (!is.null(x$models) && nrow(x$models) > 1L) {
    cat("\nModels compared (loglik, AIC, BIC: complete data; BIC_mclust: mixture, larger is",
        "better):\n")
    cols <- intersect(c("loglik", "nu", "AIC", "BIC", "mixture_loglik", "df_mclust",
                        "BIC_mclust", "loo_error"), names(x$models))
    tab <- x$models[cols]
    rownames(tab) <- ifelse(rownames(tab) == x$model, paste(rownames(tab), "*"),
                            rownames(tab))
    print(format(tab, digits = digits + 2L), quote = FALSE)
    cat("(* selected)\n")
  }
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
#' @param type \code{"class"} (a factor with the training levels, ordered when the response
#'   was) or \code{"prob"} (a matrix of posterior class probabilities, one column per level).
#' @param ... \code{na.action} for \code{newdata} (default \code{na.pass}, as in
#'   \code{predict.lm}; see \code{\link{ordstat_model}}); other arguments are ignored.
#' @return A factor or a numeric matrix, one element or row per row of \code{newdata}, named by
#'   its row names; \code{NA} for a row with a missing predictor, unless \code{na.action} drops
#'   it (\code{na.omit}) or refuses it (\code{na.fail}).
#' @export
predict.ordstat_generative <- function(object, newdata = NULL, type = c("class", "prob"), ...) {
  predict_wrapped(object, newdata, match.arg(type), "predict()")
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
  prob <- prob[stats::complete.cases(prob), , drop = FALSE]  # rows na.exclude padded back in
  o <- order(as.integer(x$y))
  graphics::barplot(t(prob[o, , drop = FALSE]), col = col, border = NA, space = 0,
                    xlab = "units (sorted by observed class)", ylab = "posterior probability",
                    legend.text = x$levels, args.legend = list(x = "topright", bty = "n"), ...)
  invisible(x)
}
