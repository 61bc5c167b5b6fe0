#' Classification tree for an ordered response
#'
#' Fits the Python \code{ordstat.trees.OrdinalTreeClassifier} (an rpart-style tree grown with an
#' ordinal split criterion, pruned by cost-complexity) through reticulate. The fitted tree is also
#' kept as an \code{rpart} object (\code{$rpart}), so rpart's tools apply to it.
#'
#' @param formula A formula \code{y ~ x1 + x2 + ...}; \code{y} must be an ordered factor.
#' @param data A data frame.
#' @param criterion Split criterion: \code{"ordinal"} (Piccarreta's ordinal impurity),
#'   \code{"twoing"} (ordered twoing), \code{"gini"}, \code{"entropy"}, \code{"linear"} or
#'   \code{"quadratic"} (generalized Gini with linear or quadratic costs).
#' @param min_split Minimum number of units in a node for a split to be tried.
#' @param min_bucket Minimum number of units in a leaf (default \code{round(min_split / 3)}).
#' @param cp Complexity parameter: splits that do not decrease the risk by \code{cp} times the
#'   root risk are not kept.
#' @param max_depth Maximum depth of a node (root depth 0).
#' @param xval Number of cross-validation folds for the cp table (0 for none).
#' @param weights Optional case weights.
#' @param random_state Optional integer seed for the cross-validation folds.
#' @param ... Further arguments of \code{OrdinalTreeClassifier} (by their Python names).
#' @return An object of class \code{"ordinal_tree"}: \code{py} (the Python estimator),
#'   \code{rpart} (the same tree as an rpart object), \code{levels}, \code{xlevels},
#'   \code{terms}, \code{call}.
#' @references Piccarreta, R. (2008). Classification trees for ordinal variables.
#'   \emph{Computational Statistics}, 23, 407-427.
#' @seealso \code{\link{ordinal_split}} to grow the tree with R's rpart instead.
#' @examples
#' if (ordstat_available()) {
#'   d <- data.frame(x = 1:30, z = rep(c(0, 1), 15))
#'   d$y <- cut(d$x, c(0, 10, 20, 30), labels = c("low", "mid", "high"), ordered_result = TRUE)
#'   fit <- ordinal_tree(y ~ x + z, d, min_split = 5, xval = 0)
#'   print(fit)
#'   predict(fit, d[1:3, ])
#' }
#' @export
ordinal_tree <- function(formula, data, criterion = c("ordinal", "twoing", "gini", "entropy",
                                                      "linear", "quadratic"),
                         min_split = 20L, min_bucket = NULL, cp = 0.01, max_depth = 30L,
                         xval = 10L, weights = NULL, random_state = NULL, ...) {
  criterion <- match.arg(criterion)
  caller <- "ordinal_tree()"
  prep <- prepare_fit(formula, data, caller)
  weights <- check_weights(weights, nrow(prep$x), caller)
  params <- c(list(criterion = criterion, min_split = as.integer(min_split),
                   min_bucket = if (is.null(min_bucket)) NULL else as.integer(min_bucket),
                   cp = as.double(cp), max_depth = as.integer(max_depth),
                   xval = as.integer(xval),
                   random_state = if (is.null(random_state)) NULL else as.integer(random_state)),
              list(...))
  py <- py_fit("tree", params, prep, weights)
  object <- list(py = py, levels = prep$levels, xlevels = prep$xlevels, terms = prep$terms,
                 x = prep$x, criterion = criterion, call = match.call())
  object$rpart <- tree_as_rpart(object, prep$x)
  class(object) <- "ordinal_tree"
  object
}

tree_as_rpart <- function(object, x) {
  a <- py_value(rside()$tree_arrays(object$py, py_frame(x)))
  left_categories <- lapply(a$left_categories, function(v) if (is.null(v)) NULL else unlist(v))
  cptable <- if (is.null(a$cptable)) NULL else as.data.frame(lapply(a$cptable, as.double))
  rpart_from_tree(
    children_left = as.integer(a$children_left), children_right = as.integer(a$children_right),
    feature = as.integer(a$feature), threshold = as.double(a$threshold),
    value = a$value, n_node_samples = as.integer(a$n_node_samples),
    improvement = as.double(a$improvement), feature_names = names(x),
    ylevels = object$levels, terms = object$terms, xlevels = object$xlevels,
    left_categories = left_categories, cptable = cptable, where = as.integer(a$where),
    call = object$call, yval = as.integer(a$yval), dev = as.double(a$dev),
    complexity = as.double(a$complexity))
}

#' @export
print.ordinal_tree <- function(x, ...) {
  cat(sprintf("Ordinal classification tree (criterion \"%s\"), %d classes: %s\n",
              x$criterion, length(x$levels), paste(x$levels, collapse = " < ")))
  print(x$rpart, ...)
  invisible(x)
}

#' @export
summary.ordinal_tree <- function(object, ...) {
  frame <- object$rpart$frame
  structure(list(call = object$call, criterion = object$criterion, levels = object$levels,
                 n = frame$n[1L], n_nodes = nrow(frame),
                 n_leaves = sum(frame$var == "<leaf>"),
                 cptable = object$rpart$cptable,
                 importance = object$rpart$variable.importance,
                 training_error = frame$dev[1L] / frame$wt[1L]),
            class = "summary.ordinal_tree")
}

#' @export
print.summary.ordinal_tree <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("Call:\n")
  print(x$call)
  cat(sprintf("\nCriterion: %s\nClasses (lowest to highest): %s\n", x$criterion,
              paste(x$levels, collapse = " < ")))
  cat(sprintf("Units: %d   nodes: %d   leaves: %d\n", x$n, x$n_nodes, x$n_leaves))
  cat("\nComplexity table:\n")
  print(signif(x$cptable, digits))
  if (!is.null(x$importance)) {
    cat("\nVariable importance (sum of split improvements):\n")
    print(signif(x$importance, digits))
  }
  invisible(x)
}

#' Predictions of an ordinal tree
#'
#' @param object A fitted \code{ordinal_tree}.
#' @param newdata A data frame with the predictors (the training data when omitted).
#' @param type \code{"class"} (an ordered factor with the training levels) or \code{"prob"}
#'   (a matrix of class probabilities, one column per level).
#' @param ... Unused.
#' @return An ordered factor or a numeric matrix.
#' @export
predict.ordinal_tree <- function(object, newdata = NULL, type = c("class", "prob"), ...) {
  predict_py(object, newdata, match.arg(type), "predict.ordinal_tree()")
}

#' Plot an ordinal tree
#'
#' Draws the tree with rpart's \code{plot} and labels it with \code{text}.
#'
#' @param x A fitted \code{ordinal_tree}.
#' @param uniform,margin Passed to \code{plot} for rpart objects.
#' @param use.n Show the class counts at the leaves.
#' @param ... Passed to \code{text} for rpart objects.
#' @return \code{x}, invisibly.
#' @export
plot.ordinal_tree <- function(x, uniform = TRUE, margin = 0.1, use.n = TRUE, ...) {
  if (nrow(x$rpart$frame) < 2L) {
    graphics::plot.new()
    graphics::text(0.5, 0.5, paste("single node:", x$levels[x$rpart$frame$yval[1L]]))
    return(invisible(x))
  }
  graphics::plot(x$rpart, uniform = uniform, margin = margin)
  graphics::text(x$rpart, use.n = use.n, ...)
  invisible(x)
}
