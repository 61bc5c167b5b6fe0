# R's model generics for every fitted model (class "ordstat_model", added by fit_wrapped() and
# by ordinal_tree()): the model frame, formula and terms of the fit, update(), nobs(), fitted
# classes, residuals as class distances, and clear errors where a generic has no meaning.
# Documented in man/ordstat_model.Rd (written by hand; keep the two in sync), with predict()'s
# na.action (predict_wrapped(), wrap.R).

#' @rdname ordstat_model
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
