# Hierarchical coupling (Brito, Celeux and Sousa Ferreira 2006, section 4): S3 class
# "ordstat_coupling" over the Python HierarchicalCoupling.

#' Hierarchical coupling of classifiers
#'
#' A binary tree of class dichotomies: at each node the classes are cut in two and the
#' two-class problem between the two unions of classes gets the candidate model (or a serial
#' combination of the candidates) of lowest cross-validated error; each side is cut again until
#' every leaf is one class. Class probabilities are products of the node posteriors along the
#' paths; \code{predict} follows the nodes' hard decisions down the tree (the paper's rule)
#' unless \code{rule = "product"} is given in \code{...}. Fitted by the Python
#' \code{ordstat.combine.hierarchical.HierarchicalCoupling}.
#'
#' @template model-arguments
#' @templateVar response \code{y} a factor (ordered for \code{partition = "ordinal"}); numeric
#'   predictors for EDDA candidates, factors or logicals for the discrete ones.
#' @templateVar weights Not supported (the coupling takes no case weights): giving them is an error.
#' @templateVar na_choices \code{na.exclude} or \code{na.fail} (the candidates need complete rows)
#' @templateVar na_note ; recorded and applied by \code{predict(fit, newdata)}
#' @param candidates \code{"edda"} (the 14 EDDA models), \code{"discrete"} (FOIM, FMM,
#'   KERNEL), \code{"foim+fmm"} or \code{"foim+kernel"} (the paper's pairs, KERNEL at
#'   lambda = 0.99: with \code{partition = "affinity"} and \code{node = "committee"} or
#'   \code{"integrated"}, its HIER/CM and HIER/IL), or a vector of names: EDDA models
#'   (\code{"EII"}, ..., \code{"VVV"}), \code{"fmm"}, \code{"foim"}, \code{"kernel"}.
#' @param partition \code{"cv"} (every bipartition, by cross-validated error; at most 12
#'   classes), \code{"affinity"} (the bipartition of smallest affinity between the
#'   empirical distributions of the two class unions; every candidate must be discrete) or
#'   \code{"ordinal"} (only contiguous cuts of the ordered levels).
#' @param node \code{"select"} (the best single candidate) or a serial combination of all
#'   candidates: \code{"committee"}, \code{"likelihood"}, \code{"aic"}, \code{"bic"},
#'   \code{"integrated"}.
#' @param cv \code{"loo"} or a number of folds.
#' @param random_state Seed of the v-fold splits; by default drawn from R's random numbers,
#'   so \code{set.seed()} before the call makes the fit reproducible.
#' @param ... Further arguments of \code{HierarchicalCoupling} by their Python names
#'   (\code{n_jobs}, \code{rule}: \code{"sequential"}, the default, or \code{"product"}, the class
#'   of largest product of node posteriors; any other name is an error); unused by the
#'   methods.
#' @param x,object A model fitted by \code{hierarchical_coupling}, or its summary.
#' @param digits Significant digits printed.
#' @return An object of class \code{"ordstat_coupling"} with \code{tree} (a data frame, one
#'   row per node: \code{node}, \code{parent}, \code{depth}, \code{classes}, \code{left},
#'   \code{right}, \code{model} (as the paper writes it), \code{mclust} (as mclust names it),
#'   \code{error}, \code{affinity}, \code{leaf}), \code{cv_error}
#'   (the tree's cross-validated error under its prediction rule, its structure fixed),
#'   \code{levels}, \code{na.action}, \code{call} and the serialised Python model (so it survives
#'   \code{saveRDS}/\code{readRDS} into a new R session; read it only from files you trust,
#'   see \emph{Saving models} in \code{\link{ordstat-package}}). \code{summary} returns an object
#'   with the internal nodes and the training confusion matrix.
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
hierarchical_coupling <- function(formula, data, weights, subset, na.action = stats::na.omit,
                                  candidates = "edda",
                                  partition = c("cv", "affinity", "ordinal"),
                                  node = c("select", "committee", "likelihood", "aic", "bic",
                                           "integrated"),
                                  cv = "loo", random_state = NULL, ...) {
  call <- match.call()  # here: a promise evaluated inside a callee sees other frames
  caller <- "hierarchical_coupling()"
  partition <- option_value(partition, c("cv", "affinity", "ordinal"))
  node <- option_value(node, c("select", "committee", "likelihood", "aic", "bic", "integrated"))
  dots <- list(...)
  params <- list(candidates = if (length(candidates) == 1L) candidates else as.list(candidates),
                 partition = partition, node = node, cv = cv,
                 random_state = random_seed(random_state))
  # the order of the classes matters only to the ordinal partition
  object <- fit_wrapped("coupling", params, dots, call, parent.frame(), caller, na.action,
                        class = "ordstat_coupling", partition = partition, node = node,
                        ordered = identical(partition, "ordinal"), numeric_x = FALSE)
  py <- py_model(object)
  columns <- py_value(py$tree_table()$to_dict("list"))
  object$tree <- as.data.frame(lapply(columns, unlist), stringsAsFactors = FALSE)
  rownames(object$tree) <- NULL
  object$cv_error <- as.double(py_value(rside()$attribute(py, "cv_error_")))
  s <- py$summary()
  info <- py_value(s$info)
  object$info <- stats::setNames(vapply(info, function(p) as.character(p[[2L]]), ""),
                                 vapply(info, function(p) as.character(p[[1L]]), ""))
  object$text <- as.character(py_value(s$notes))  # the tree, one line per node
  object
}

# The header line of print and summary, and how the tree classifies and what its error is.
coupling_header <- function(x) {
  cat(sprintf("Hierarchical coupling (partition \"%s\", node \"%s\"), %d classes, %d units\n",
              x$partition, x$node, length(x$levels), nrow(x$x)))
  if (length(x$info)) {
    cat(sprintf("Rule: %s; tree error %s (%s)\n", x$info[["rule"]], x$info[["tree error"]],
                x$info[["error estimate"]]))
  }
  if (length(x$na.action)) cat(stats::naprint(x$na.action), "\n")
}

#' @rdname hierarchical_coupling
#' @export
print.ordstat_coupling <- function(x, ...) {
  coupling_header(x)
  cat("\n", x$text, "\n", sep = "")
  invisible(x)
}

#' @rdname hierarchical_coupling
#' @export
summary.ordstat_coupling <- function(object, ...) {
  structure(list(call = object$call, header = object[c("partition", "node", "levels", "x",
                                                       "info", "na.action")],
                 tree = object$tree[!object$tree$leaf, ], cv_error = object$cv_error,
                 confusion = table(observed = object$y, predicted = fitted_classes(object))),
            class = "summary.ordstat_coupling")
}

#' @rdname hierarchical_coupling
#' @export
print.summary.ordstat_coupling <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("Call:\n")
  print(x$call)
  cat("\n")
  coupling_header(x$header)
  cat("\nNodes (model: as the paper writes it; mclust: as mclust names it; error: the",
      "node's\ncross-validated error between its two unions):\n")
  cols <- c("classes", "left", "right", "model", "mclust", "error")
  # the affinity is computed by partition = "affinity" only
  if (any(!is.na(x$tree$affinity))) cols <- c(cols, "affinity")
  print(format(x$tree[intersect(cols, names(x$tree))], digits = digits), row.names = FALSE)
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
#' @param ... \code{na.action} for \code{newdata} (default \code{na.pass}, as in
#'   \code{predict.lm}; see \code{\link{ordstat_model}}); other arguments are ignored.
#' @return A factor or a numeric matrix, one element or row per row of \code{newdata}, named by
#'   its row names; \code{NA} for a row with a missing predictor, unless \code{na.action} drops
#'   it (\code{na.omit}) or refuses it (\code{na.fail}).
#' @export
predict.ordstat_coupling <- function(object, newdata = NULL, type = c("class", "prob"), ...) {
  predict_wrapped(object, newdata, match.arg(type), "predict()")
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
