# R's model generics for every fitted model (class "ordstat_model", added by fit_wrapped() and
# by ordinal_tree()): the model frame, formula and terms of the fit, update(), nobs(), fitted
# classes, residuals as class distances, and clear errors where a generic has no meaning.
# The help page ordstat_model documents them, with predict()'s na.action (predict_wrapped(),
# wrap.R).

#' R's model generics on every fitted ordstat model, and predict()'s na.action
#'
#' @aliases ordstat_model
#' @description
#' Every model fitted by this package (\code{\link{ordinal_tree}}, the ensembles, the
#' decompositions, \code{\link{edda}}, \code{\link{discrete_da}}, \code{\link{serial_combine}},
#' \code{\link{hierarchical_coupling}}) has class \code{"ordstat_model"} too, with the methods
#' below, as R users know them from \code{lm} and \code{rpart}: \code{model.frame},
#' \code{formula}, \code{terms}, \code{update}, \code{nobs}, \code{fitted}, \code{residuals} (as
#' class distances), \code{coef} (for EDDA) and clear errors where a generic has no meaning
#' (\code{coef} of a tree, \code{logLik} of a model without a likelihood).
#' @param formula,x,object A fitted model of this package.
#' @param type For \code{fitted}: \code{"class"} (default; the fitted classes) or \code{"prob"}
#'   (the fitted class probabilities). For \code{residuals}: \code{"distance"} (default; the
#'   observed class rank minus the fitted class rank) or \code{"usual"} (rpart's residual of a
#'   classification tree: 1 for a misclassified unit, 0 otherwise).
#' @param ... For \code{model.frame}: \code{data}, \code{subset} or \code{na.action} rebuild the
#'   frame from the fit's call with those values, as \code{model.frame.lm} does; otherwise unused.
#' @details
#' \code{model.frame(fit)} is the model frame of the fit, as \code{lm}'s: the response and the
#' predictors as given (a character predictor as the factor it was turned into), a
#' \code{"(weights)"} column when case weights were given, the rows used as row names, the
#' \code{terms} attribute and, when rows were dropped, the \code{na.action} attribute. It is
#' built from the data the fit keeps, without evaluating anything again. \code{formula} and
#' \code{terms} are those of the fit; \code{update(fit, . ~ . - x)}, \code{update(fit, data =
#' d2)} and \code{update(fit, n_estimators = 50)} refit from the call, as for \code{lm}.
#' \code{nobs} is the number of units used (with positive weight when weighted).
#'
#' \code{fitted(fit)} are the classes the fitted model gives the training units (resubstitution:
#' for the ensembles these are not out-of-bag predictions), an ordered factor when the response
#' was ordered; under \code{na.action = na.exclude} the dropped rows are \code{NA}, as for
#' \code{lm}. \code{residuals(fit)} are, for an ordered response, the integer class distances
#' \code{rank(observed) - rank(fitted)} (the ranks are the level indices: 0 for a correct
#' prediction, positive when the model predicted too low a class), padded with \code{NA} under
#' \code{na.exclude}; \code{type = "usual"} gives rpart's 0/1 misclassification residual, the
#' only one for an unordered response (\code{type = "distance"} is then an error).
#'
#' \code{coef} of an \code{\link{edda}} fit is a list with \code{model} (the covariance model's
#' name), \code{priors} (the class proportions), \code{means} (classes by predictors, as
#' \code{fit$means} and \code{MASS::lda}'s \code{means}; \code{t(means)} is mclust's
#' \code{parameters$mean}) and \code{covariances} (predictors by predictors by classes, the
#' layout of mclust's \code{parameters$variance$sigma}). For the other models \code{coef} is an
#' error saying there are no coefficients to report. \code{logLik}, \code{AIC} and \code{BIC} are those of the
#' generative models (\code{\link{logLik.ordstat_generative}}) and of \code{\link{ordinal_tree}}
#' (\code{\link{logLik.ordinal_tree}}); on the other models
#' \code{logLik} is an error saying so.
#' @section Predictions and missing values:
#' \code{predict(fit, newdata)} gives one prediction per row of \code{newdata} (an element of a
#' factor, or a row of the probability matrix), named by the row names of \code{newdata}, as
#' \code{predict.lm} and \code{predict.rpart} do. Every predict method of the package takes
#' \code{na.action} (in its \code{...}), with \code{predict.lm}'s meaning; it is applied to
#' \code{newdata}, whatever \code{na.action} the fit used:
#' \itemize{
#'   \item \code{na.pass} (default): every row is kept. A row with a missing predictor is
#'     predicted by the models that handle missing predictors (\code{\link{ordinal_tree}},
#'     \code{\link{ordinal_bagging}}, \code{\link{ordinal_forest}},
#'     \code{\link{ordinal_boosting}}; the tree sends a missing value to the side it learned, or
#'     to its larger child) and is \code{NA} for the other models.
#'   \item \code{na.omit}: rows with a missing predictor are left out.
#'   \item \code{na.exclude}: they are left out and come back as \code{NA} (also for the models
#'     that could predict them).
#'   \item \code{na.fail}: an error naming the predictors with missing values.
#' }
#' Other arguments in \code{...} of \code{predict} are ignored, as by \code{predict.lm}. Without
#' \code{newdata}, the training units are predicted and the fit's \code{na.action} decides (its
#' dropped rows are \code{NA} under \code{na.exclude}).
#' @return \code{model.frame}: a data frame with a \code{terms} attribute. \code{formula}: a formula.
#'   \code{terms}: a \code{terms} object. \code{nobs}: a whole number. \code{fitted}: a factor
#'   (\code{type = "class"}) or a matrix of probabilities with one column per class.
#'   \code{residuals}: an integer vector named by the row names. \code{coef}: for EDDA, the list
#'   described in Details.
#' @seealso \code{\link{predict.ordinal_tree}}, \code{\link{predict.ordstat_ensemble}},
#'   \code{\link{predict.ordstat_decomposition}}, \code{\link{predict.ordstat_generative}},
#'   \code{\link{logLik.ordstat_generative}}.
#' @examples
#' if (ordstat_available()) {
#'   d <- data.frame(x1 = c(1:30, 1:30), x2 = rep(c(0, 1), 30))
#'   d$y <- cut(d$x1 + 5 * d$x2, c(-Inf, 12, 24, Inf), labels = c("low", "mid", "high"),
#'              ordered_result = TRUE)
#'   fit <- frank_hall(y ~ x1 + x2, d)
#'   head(model.frame(fit))
#'   formula(fit)
#'   nobs(fit)
#'   table(residuals(fit))
#'   smaller <- update(fit, . ~ . - x2)
#'   new <- data.frame(x1 = c(3, NA, 28), x2 = c(0, 1, 1))
#'   predict(fit, new)                      # NA for the row with a missing predictor
#'   predict(fit, new, na.action = na.omit)  # that row left out
#'   coef(edda(Species ~ ., iris, model = "EEE"))$means
#' }
#' @name ordstat_model
#' @importFrom stats coef fitted formula logLik model.frame nobs residuals terms
#' @export
model.frame.ordstat_model <- function(formula, ...) {
  object <- formula
  # as model.frame.lm: data, na.action or subset given rebuild the frame from the call
  dots <- list(...)
  given <- dots[intersect(c("data", "na.action", "subset"), names(dots))]
  if (length(given)) return(rebuilt_model_frame(object, given))
  x <- if (is.null(object$x_given)) object$x else object$x_given
  vars <- vapply(as.list(attr(object$terms, "variables"))[-1L], deparse1, "")
  y <- object$y
  names(y) <- NULL  # the rows are named by the frame's row names
  cols <- c(stats::setNames(list(y), vars[attr(object$terms, "response")]), as.list(x))
  if (!is.null(object$case_weights)) cols[["(weights)"]] <- object$case_weights
  mf <- structure(cols, class = "data.frame", row.names = rownames(object$x))
  attr(mf, "terms") <- object$terms
  if (length(object$na.action)) attr(mf, "na.action") <- object$na.action
  mf
}

# The model frame of the fit's call with some of data, na.action and subset replaced, evaluated
# where the formula was written (as model.frame.lm does).
rebuilt_model_frame <- function(object, given) {
  fcall <- object$call
  keep <- match(c("formula", "data", "subset", "weights", "na.action"), names(fcall), 0L)
  fcall <- fcall[c(1L, keep)]
  fcall[[1L]] <- quote(stats::model.frame)
  fcall$formula <- object$terms
  fcall$drop.unused.levels <- FALSE
  if (length(object$xlevels)) fcall$xlev <- object$xlevels
  fcall[names(given)] <- given
  env <- environment(object$terms)
  if (is.null(env)) env <- parent.frame(2L)
  eval(fcall, env)
}

#' @rdname ordstat_model
#' @export
formula.ordstat_model <- function(x, ...) stats::formula(x$terms)

#' @rdname ordstat_model
#' @export
terms.ordstat_model <- function(x, ...) x$terms

#' @rdname ordstat_model
#' @export
nobs.ordstat_model <- function(object, ...) {
  if (is.null(object$case_weights)) nrow(object$x) else sum(object$case_weights > 0)
}

#' @rdname ordstat_model
#' @export
fitted.ordstat_model <- function(object, type = c("class", "prob"), ...) {
  type <- match.arg(type)
  if (type == "prob" && isFALSE(object$has_proba)) {
    stop(sprintf("fitted(): %s gives classes only; use type = \"class\".", model_label(object)),
         call. = FALSE)
  }
  predict_rows(synced_model(object, "fitted()"), type, "fitted()")
}

# A tree cut by rpart's snip.rpart() or prune.rpart() has a new frame and the old Python
# model: the model is cut to match first (tree-prune.R).
synced_model <- function(object, caller) {
  if (inherits(object, "ordinal_tree")) synced_tree(object, caller) else object
}

#' @rdname ordstat_model
#' @export
residuals.ordstat_model <- function(object, type = c("distance", "usual"), ...) {
  type <- match.arg(type)
  if (type == "distance" && isFALSE(object$response_ordered)) {
    stop(paste0("residuals(): the response is an unordered factor, so class distances have no ",
                "meaning; use type = \"usual\" (1 for a misclassified unit, 0 otherwise)."),
         call. = FALSE)
  }
  observed <- as.integer(object$y)
  predicted <- as.integer(fitted_classes(synced_model(object, "residuals()"), "residuals()"))
  r <- if (type == "distance") observed - predicted else as.integer(observed != predicted)
  names(r) <- rownames(object$x)
  stats::naresid(object$na.action, r)
}

#' @rdname ordstat_model
#' @export
coef.ordstat_model <- function(object, ...) {
  stop(sprintf(paste0("coef(): %s has no coefficients to report; use predict(), fitted() and ",
                      "summary() (coef() gives the class means and covariances of an edda() ",
                      "fit)."), model_label(object)), call. = FALSE)
}

#' @rdname ordstat_model
#' @export
logLik.ordstat_model <- function(object, ...) {
  stop(sprintf(paste0("logLik(): %s has no likelihood; logLik(), AIC() and BIC() are ",
                      "available for the generative models (edda(), discrete_da()) and ordinal_tree()."),
               model_label(object)), call. = FALSE)
}

#' @rdname ordstat_model
#' @export
coef.ordstat_edda <- function(object, ...) {
  cov <- py_value(rside()$attribute(py_model(object), "covariances_"))
  vars <- colnames(object$means)
  # Python's (class, row, column) -> mclust's parameters$variance$sigma layout (row, column,
  # class)
  cov <- array(as.double(cov), dim = c(length(object$levels), length(vars), length(vars)))
  cov <- aperm(cov, c(2L, 3L, 1L))
  dimnames(cov) <- list(vars, vars, object$levels)
  list(model = object$model, priors = object$priors, means = object$means, covariances = cov)
}

# "an ordinal_forest() fit" and the like (by the function called), for the generics' messages.
model_label <- function(object) {
  f <- object$call[[1L]]
  name <- if (is.name(f)) sprintf("%s()", as.character(f)) else class(object)[1L]
  sprintf("%s %s fit", if (grepl("^[aeiou]", name)) "an" else "a", name)
}
