# Hierarchical coupling (Brito, Celeux and Sousa Ferreira 2006, section 4): S3 class
# "ordstat_coupling" over the Python HierarchicalCoupling.

#' Hierarchical coupling of classifiers
#'
#' A binary tree of class dichotomies: at each node the classes are cut in two and the
#' two-class problem between the two unions of classes gets the candidate model (or a serial
#' combination of the candidates) of lowest cross-validated error; each side is cut again until
#' every leaf is one class. Class probabilities are products of the node posteriors along the
#' paths. Fitted by the Python \code{ordstat.combine.hierarchical.HierarchicalCoupling}.
#'
#' @param formula A formula \code{y ~ x1 + x2 + ...}; \code{y} a factor (ordered for
#'   \code{partition = "ordinal"}); numeric predictors for EDDA candidates, factors or logicals
#'   for the discrete ones.
#' @param data A data frame.
#' @param candidates \code{"edda"} (the 14 EDDA models), \code{"discrete"} (FOIM, FMM,
#'   KERNEL), or a vector of names: EDDA models (\code{"EII"}, ..., \code{"VVV"}),
#'   \code{"fmm"}, \code{"foim"}, \code{"kernel"}.
#' @param partition \code{"cv"} (every bipartition, by cross-validated error; at most 12
#'   classes), \code{"affinity"} (the bipartition of smallest affinity between the two class
#'   unions under the first candidate, which must be discrete) or \code{"ordinal"} (only
#'   contiguous cuts of the ordered levels).
#' @param node \code{"select"} (the best single candidate) or a serial combination of all
#'   candidates: \code{"committee"}, \code{"likelihood"}, \code{"aic"}, \code{"bic"},
#'   \code{"integrated"}.
#' @param cv \code{"loo"} or a number of folds.
#' @param seed Random seed (v-fold splits).
#' @param ... Further arguments of \code{HierarchicalCoupling} (by their Python names).
#' @return An object of class \code{"ordstat_coupling"} with \code{py}, \code{tree} (a data
#'   frame, one row per node: \code{node}, \code{parent}, \code{depth}, \code{classes},
#'   \code{left}, \code{right}, \code{model}, \code{error}, \code{affinity}, \code{leaf}),
#'   \code{cv_error} (the tree's cross-validated error with its structure fixed) and
#'   \code{levels}.
#' @references Brito, I., Celeux, G. and Sousa Ferreira, A. (2006). Combining methods in
#'   supervised classification: a comparative study on discrete and continuous problems.
#'   \emph{REVSTAT}, 4, 201-225.
#' @examples
#' if (ordstat_available()) {
#'   fit <- hierarchical_coupling(Species ~ ., iris, candidates = c("EII", "VVV"))
#'   fit
#'   table(predict(fit), iris$Species)
#' }
#' @export
hierarchical_coupling <- function(formula, data, candidates = "edda",
                                  partition = c("cv", "affinity", "ordinal"),
                                  node = c("select", "committee", "likelihood", "aic", "bic",
                                           "integrated"),
                                  cv = "loo", seed = NULL, ...) {
  caller <- "hierarchical_coupling()"
  partition <- match_name(partition, c("cv", "affinity", "ordinal"), caller, "partition")
  node <- match_name(node, c("select", "committee", "likelihood", "aic", "bic", "integrated"),
                     caller, "node")
  if (!is.character(candidates) || !length(candidates)) {
    stop(paste0(caller, ": 'candidates' must be \"edda\", \"discrete\" or a vector of model ",
                "names such as c(\"EII\", \"VVV\")."), call. = FALSE)
  }
  if (!(identical(cv, "loo") || (is.numeric(cv) && length(cv) == 1L && cv >= 2))) {
    stop(paste0(caller, ": 'cv' must be \"loo\" or a number of folds >= 2; got ",
                deparse(cv), "."), call. = FALSE)
  }
  unordered <- FALSE
  if (is.data.frame(data) && inherits(formula, "formula") && length(formula) == 3L) {
    response <- all.vars(formula[[2L]])
    if (length(response) == 1L && response %in% names(data)) {
      y <- data[[response]]
      if (is.factor(y) && !is.ordered(y)) {
        if (partition == "ordinal") {
          stop(sprintf(paste0("%s: partition = \"ordinal\" needs an ordered response; '%s' is ",
                              "an unordered factor. Make it ordered, e.g. factor(y, levels = ",
                              "<lowest to highest>, ordered = TRUE)."), caller, response),
               call. = FALSE)
        }
        # The other partitions ignore the order: carry the levels over as they are.
        data[[response]] <- factor(y, levels = levels(y), ordered = TRUE)
        unordered <- TRUE
      }
    }
  }
  prep <- prepare_fit(formula, data, caller)
  if (nlevels(droplevels(prep$y)) < 3L) {
    stop(sprintf(paste0("%s: the response has %d observed classes; hierarchical coupling ",
                        "needs at least three."), caller, nlevels(droplevels(prep$y))),
         call. = FALSE)
  }
  params <- c(list(candidates = if (length(candidates) == 1L) candidates
                                else as.list(candidates),
                   partition = partition, node = node,
                   cv = if (is.numeric(cv)) as.integer(cv) else cv,
                   random_state = if (is.null(seed)) NULL else as.integer(seed)),
              list(...))
  py <- py_fit("coupling", params, prep)
  columns <- py_value(py$tree_table()$to_dict("list"))
  tree <- as.data.frame(lapply(columns, unlist), stringsAsFactors = FALSE)
  rownames(tree) <- NULL
  structure(list(py = py, tree = tree, cv_error = as.double(py_value(
                   rside()$attribute(py, "cv_error_"))),
                 text = as.character(reticulate::py_str(py$summary())),
                 levels = prep$levels, unordered = unordered, xlevels = prep$xlevels,
                 terms = prep$terms, x = prep$x, y = prep$y, partition = partition,
                 node = node, call = match.call()),
            class = "ordstat_coupling")
}

#' @export
print.ordstat_coupling <- function(x, ...) {
  cat(sprintf("Hierarchical coupling (partition \"%s\", node \"%s\"), %d classes, %d units\n",
              x$partition, x$node, length(x$levels), nrow(x$x)))
  cat(x$text, "\n", sep = "")
  invisible(x)
}

#' @export
summary.ordstat_coupling <- function(object, ...) {
  pred <- stats::predict(object)
  structure(list(call = object$call, tree = object$tree[!object$tree$leaf, ],
                 cv_error = object$cv_error, text = object$text,
                 confusion = table(observed = object$y, predicted = pred)),
            class = "summary.ordstat_coupling")
}

#' @export
print.summary.ordstat_coupling <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("Call:\n")
  print(x$call)
  cat("\n", x$text, "\n\nNodes:\n", sep = "")
  cols <- c("classes", "left", "right", "model", "error", "affinity")
  print(format(x$tree[cols], digits = digits), row.names = FALSE)
  cat("\nTraining confusion matrix:\n")
  print(x$confusion)
  invisible(x)
}

#' Predictions of a hierarchical coupling model
#'
#' @param object A model fitted by \code{\link{hierarchical_coupling}}.
#' @param newdata A data frame with the predictors (the training data when omitted).
#' @param type \code{"class"} (a factor with the training levels, ordered when the response
#'   was) or \code{"prob"} (a matrix of class probabilities, one column per level).
#' @param ... Unused.
#' @return A factor or a numeric matrix.
#' @export
predict.ordstat_coupling <- function(object, newdata = NULL, type = c("class", "prob"), ...) {
  out <- predict_py(object, newdata, match.arg(type), "predict()")
  if (is.factor(out) && isTRUE(object$unordered)) {
    out <- factor(as.character(out), levels = object$levels)
  }
  out
}

#' Plot a hierarchical coupling tree
#'
#' Draws the tree (Brito et al. 2006, Figures 1 and 2): each internal node is labelled with its
#' model or combination, its cross-validated error and, for \code{partition = "affinity"}, the
#' affinity between its two unions of classes; each leaf with its class.
#'
#' @param x A model fitted by \code{\link{hierarchical_coupling}}.
#' @param digits Digits of the error and the affinity.
#' @param ... Passed to \code{plot.default}.
#' @return \code{x}, invisibly.
#' @export
plot.ordstat_coupling <- function(x, digits = 3L, ...) {
  tree <- x$tree
  n <- nrow(tree)
  xs <- rep(NA_real_, n)
  xs[tree$leaf] <- seq_len(sum(tree$leaf))  # depth-first order puts leaves left to right
  for (i in rev(seq_len(n))) {
    if (!tree$leaf[i]) xs[i] <- mean(xs[tree$parent == tree$node[i]])
  }
  ys <- -tree$depth
  graphics::plot(xs, ys, type = "n", axes = FALSE, xlab = "", ylab = "",
                 xlim = range(xs) + c(-0.8, 0.8), ylim = range(ys) + c(-0.5, 0.6), ...)
  for (i in which(tree$parent >= 0)) {
    p <- which(tree$node == tree$parent[i])
    graphics::segments(xs[p], ys[p], xs[i], ys[i], col = "grey40")
  }
  inner <- !tree$leaf
  lab <- sprintf("%s\nerror %s", tree$model, formatC(tree$error, digits = digits, format = "f"))
  has_aff <- !is.na(tree$affinity)
  lab[has_aff] <- paste0(lab[has_aff], "\naffinity ",
                         formatC(tree$affinity[has_aff], digits = digits, format = "f"))
  graphics::points(xs[inner], ys[inner], pch = 19)
  graphics::text(xs[inner], ys[inner], lab[inner], pos = 3, cex = 0.8)
  graphics::text(xs[!inner], ys[!inner], tree$classes[!inner], pos = 1)
  invisible(x)
}
