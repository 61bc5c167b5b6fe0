# rpart trees grown with ordinal_split(), as R users handle rpart trees: predict() with the
# class labels, model.frame(), update() and cross-validated predictions.
#
# rpart::rpart() gives every user-method tree the plain class "rpart" and keeps the class labels
# (attribute "ylevels", which predict.rpart() needs for type = "class" and "prob") for its own
# method = "class" only; a user method has no hook to add them. ordinal_rpart() is rpart() plus
# these two things.

#' Ordinal classification tree grown by rpart
#'
#' \code{ordinal_rpart()} is \code{rpart::rpart()} with an ordinal split method
#' (\code{\link{ordinal_split}}): the same arguments and the same tree, returned as an object
#' of class \code{c("ordinal_rpart", "rpart")} that keeps the class labels, so that
#' \code{predict()} gives the ordered classes and the class probabilities
#' (\code{\link{predict.ordinal_rpart}}). Everything of rpart works on it (\code{print},
#' \code{summary}, \code{plot}, \code{text}, \code{printcp}, \code{prune}), and \code{update()}, \code{model.frame()}, \code{formula()} and
#' \code{terms()} too.
#'
#' Why not \code{rpart::rpart(method = ordinal_split())} directly: rpart returns a plain rpart
#' object for every user-written method and keeps the class labels for its own \code{method =
#' "class"} only, so rpart's \code{predict()} on such a tree gives class numbers
#' (\code{type = "vector"}) and fails for \code{type = "class"} and \code{"prob"} ("Invalid
#' prediction for rpart object"); a splitting method cannot change the object rpart returns.
#' The tree itself is the same: \code{ordinal_rpart(y ~ ., d, method = ordinal_split("twoing"))}
#' and \code{rpart::rpart(y ~ ., d, method = ordinal_split("twoing"))} have the same
#' \code{frame}, \code{splits} and \code{cptable}.
#'
#' rpart computes no cross-validated errors for user-written methods (the cp table has no
#' \code{xerror} column); \code{\link{ordinal_xpred}} gives the cross-validated predictions.
#'
#' @param formula,data,weights,subset,na.action As for \code{rpart::rpart} (\code{na.action}
#'   default \code{rpart::na.rpart}: rows with a missing response are dropped, rows with
#'   missing predictors kept and sent down the tree by surrogate splits).
#' @param method An \code{\link{ordinal_split}()} method (default: Piccarreta's ordinal
#'   impurity).
#' @param ... Further arguments of \code{rpart::rpart}: \code{control}, \code{model},
#'   \code{x}, \code{y}, \code{cost} (variable costs), or control parameters by name
#'   (\code{minsplit}, \code{cp}, \code{maxdepth}, ...).
#' @return An object of class \code{c("ordinal_rpart", "rpart")}: the rpart tree, with the
#'   attribute \code{"ylevels"} (the response's levels, lowest first) and \code{call} this
#'   call.
#' @seealso \code{\link{ordinal_tree}} for the same criteria in the Python tree (with
#'   cross-validated pruning), \code{\link{predict.ordinal_rpart}}.
#' @examples
#' d <- data.frame(x = 1:30, z = rep(c(0, 1), 15))
#' d$y <- cut(d$x + 3 * d$z, c(0, 10, 20, 40), labels = c("low", "mid", "high"),
#'            ordered_result = TRUE)
#' fit <- ordinal_rpart(y ~ x + z, d, method = ordinal_split("twoing"), minsplit = 5)
#' fit
#' predict(fit, d[1:3, ])                 # ordered factor
#' predict(fit, d[1:3, ], type = "prob")  # class probabilities
#' set.seed(1)
#' head(ordinal_xpred(fit, xval = 5))     # cross-validated class numbers, one column per cp
#' @export
ordinal_rpart <- function(formula, data, weights, subset, na.action = rpart::na.rpart,
                          method = ordinal_split(), ...) {
  call <- match.call()
  if (!inherits(method, "ordinal_split")) {
    stop("ordinal_rpart(): 'method' must be a method made by ordinal_split(), such as ",
         "ordinal_split(\"twoing\"); for rpart's own methods use rpart::rpart().", call. = FALSE)
  }
  rcall <- call
  rcall[[1L]] <- quote(rpart::rpart)
  rcall$method <- method
  fit <- eval(rcall, parent.frame())
  fit$call <- call
  attr(fit, "ylevels") <- split_fit_levels(fit)
  class(fit) <- c("ordinal_rpart", "rpart")
  fit
}

# The class labels of a tree grown with ordinal_split() (kept by its print function).
split_fit_levels <- function(fit) attr(fit$functions$print, "ylevels")

# The split, init and eval functions of a tree grown with ordinal_split(), or an error.
split_method_of <- function(fit, caller) {
  f <- if (is.list(fit)) fit$functions else NULL
  if (!inherits(fit, "rpart") || !is.function(f$split) ||
      is.null(attr(f$split, "ordinal_split"))) {
    stop(caller, ": 'fit' must be a tree fitted by ordinal_tree(), ordinal_rpart() or ",
         "rpart::rpart(method = ordinal_split()).", call. = FALSE)
  }
  f[c("init", "split", "eval")]
}

# The model frame of the fit: its own ($model), else the call's data evaluated again, as
# rpart::xpred.rpart() does (rows with a missing response dropped by rpart's na.rpart unless
# the call names another na.action).
split_model_frame <- function(fit, env, caller) {
  if (is.data.frame(fit$model)) return(fit$model)
  call <- fit$call
  m <- call[c(1L, match(c("formula", "data", "weights", "subset", "na.action"), names(call),
                        0L))]
  if (is.null(m$na.action)) m$na.action <- quote(rpart::na.rpart)
  m[[1L]] <- quote(stats::model.frame)
  tryCatch(eval(m, env), error = function(e) {
    stop(caller, ": the data of the fit were not found again (", conditionMessage(e), "); ",
         "call it where the call's data exist, or fit with model = TRUE to keep them in the ",
         "fit.", call. = FALSE)
  })
}

#' @export
model.frame.ordinal_rpart <- function(formula, ...) {
  split_model_frame(formula, environment(formula$terms), "model.frame()")
}

#' @export
formula.ordinal_rpart <- function(x, ...) stats::formula(x$terms)

#' Predictions of an rpart tree grown with ordinal_split()
#'
#' @param object A tree fitted by \code{\link{ordinal_rpart}}.
#' @param newdata A data frame with the predictors (the training data when omitted).
#' @param type \code{"class"} (the default: an ordered factor with the response's levels),
#'   \code{"prob"} (a matrix of class proportions in the leaf, one column per level), or
#'   rpart's \code{"vector"} (the class numbers) and \code{"matrix"} (class number, class
#'   counts and class proportions of the leaf).
#' @param na.action What to do with rows of \code{newdata} with missing values; rpart's
#'   default \code{na.pass} keeps them (one prediction per row; the tree sends them down by
#'   surrogate splits).
#' @param ... Passed to rpart's \code{predict} method.
#' @return An ordered factor (\code{"class"}), a numeric vector (\code{"vector"}) or a matrix,
#'   with the row names of \code{newdata}.
#' @export
predict.ordinal_rpart <- function(object, newdata, type = c("class", "prob", "vector", "matrix"),
                                  na.action = stats::na.pass, ...) {
  type <- match.arg(type)
  rpart_predict <- utils::getS3method("predict", "rpart")
  out <- if (missing(newdata)) rpart_predict(object, type = type, ...)
         else rpart_predict(object, newdata, type = type, na.action = na.action, ...)
  if (type == "class") out <- factor(out, levels = levels(out), ordered = TRUE)
  out
}

#' @rdname ordinal_xpred
#' @export
ordinal_xpred.rpart <- function(fit, xval = 10L, cp, return.all = FALSE, ...) {
  caller <- "ordinal_xpred()"
  method <- split_method_of(fit, caller)
  m <- split_model_frame(fit, parent.frame(), caller)
  n <- nrow(m)
  if (n != length(fit$where)) {
    stop(caller, ": the data of the fit give ", n, " rows but the tree was grown on ",
         length(fit$where), "; were they changed since?", call. = FALSE)
  }
  groups <- xval_groups(xval, n, caller, fit$na.action)
  cp <- xpred_cp(fit$cptable, if (!missing(cp)) cp, caller)
  y <- stats::model.response(m)
  wt <- stats::model.weights(m)
  if (is.null(wt)) wt <- rep(1, n)
  indicator <- class_indicator(y)
  toprisk <- fit$frame$dev[1L]
  cost <- if (is.null(fit$call$cost)) NULL else eval(fit$call$cost, parent.frame())
  out <- array(NA_real_, c(n, length(cp), fit$numresp),
               dimnames = list(rownames(m), format(cp), NULL))
  for (g in unique(groups)) {
    train <- groups != g
    # rpart's xpred: the cp values (and the control's cp) are in units of the whole tree's
    # root risk, scaled by the fold's share of the weight
    scale <- toprisk * sum(wt[train]) / sum(wt)
    root <- method$eval(indicator[train, , drop = FALSE], wt[train], fit$parms)$deviance
    relative <- function(value) if (root > 0) value * scale / root else value
    control <- fit$control
    control$xval <- 0L
    control$cp <- relative(fit$control$cp)
    args <- list(model = model_rows(m, train), method = method, control = control)
    if (!is.null(cost)) args$cost <- cost
    tree <- do.call(rpart::rpart, args)
    held_out <- model_rows(m, !train)
    for (j in seq_along(cp)) {
      out[!train, j, ] <- leaf_values(rpart::prune(tree, cp = relative(cp[j])), held_out)
    }
  }
  if (return.all) return(out)
  matrix(out[, , 1L], nrow = n, dimnames = dimnames(out)[1:2])
}

# Rows of a model frame that stay a model frame (its terms kept).
model_rows <- function(m, rows) {
  out <- m[rows, , drop = FALSE]
  attr(out, "terms") <- attr(m, "terms")
  out
}

# rpart's values of the leaf each row falls in (predict type "matrix"), one row per unit
# (rpart's predict drops the matrix to a vector for one row: the row is given twice).
leaf_values <- function(tree, newdata) {
  single <- nrow(newdata) == 1L
  if (single) newdata <- model_rows(newdata, c(1L, 1L))
  values <- stats::predict(tree, newdata, type = "matrix")
  if (single) values[1L, , drop = FALSE] else values
}
