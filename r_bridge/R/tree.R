#' Classification tree for an ordered response
#'
#' Fits the Python \code{ordstat.trees.OrdinalTreeClassifier} (an rpart-style tree grown with an
#' ordinal split criterion, pruned by cost-complexity) through reticulate, with rpart's
#' conventions: the formula arguments of \code{rpart} and \code{lm} (\code{data} optional,
#' \code{weights}, \code{subset}, \code{na.action}) and rpart's control parameters
#' (\code{minsplit}, \code{minbucket}, \code{cp}, \code{maxdepth}, \code{xval}, or
#' \code{control = rpart::rpart.control(...)}). The fitted object is also an \code{rpart}
#' object, so \code{printcp}, \code{plotcp} and \code{text} from rpart work on it, and
#' \code{$rpart} holds the same tree as a plain rpart object (its \code{predict} returns an
#' ordered factor).
#'
#' Missing values: rows with a missing response, predictor or weight are handled by
#' \code{na.action} (default \code{na.omit}: dropped; \code{na.exclude}: dropped, and
#' \code{predict} returns \code{NA} for them; \code{na.fail}: an error).
#' \code{predict(fit, newdata)} keeps all rows (see \code{\link{ordstat_model}}). rpart's
#' default, \code{na.rpart}, keeps rows with missing predictors (dropping only those with a
#' missing response or weight); \code{na.action = na.pass} does the same here: the rows are
#' kept, in fitting and in \code{predict}, and the tree handles their missing predictors.
#' A missing response or weight is still an error. With \code{missing = "surrogate"} and no
#' \code{na.action} given, the default is rpart's own, \code{rpart::na.rpart} (rows missing
#' the response, or every predictor, are dropped; the others are kept for the surrogates), so
#' the tree is fitted on the rows rpart's would be.
#'
#' How an unordered factor is split: with a criterion that ignores the class order
#' (\code{"gini"}, \code{"entropy"}, \code{"loss_linear"}, \code{"loss_quadratic"}) and more
#' than two classes, every subset of the levels present in the node is tried (up to 12
#' levels), as rpart does; with the ordinal criteria (and with two classes, where it is exact,
#' or more levels) the levels are ordered by their mean class in the node and cut as a
#' numeric scale, so that a split respects the order of the classes. \code{ordinal_split()}
#' used inside \code{rpart()} always orders the levels (rpart's user split methods cannot
#' search subsets).
#'
#' How the tree handles missing predictors (\code{missing = "learned"}, the default): in each
#' node, a numeric predictor's cuts are evaluated with the node's missing values sent left and
#' sent right, and the better side is learned (right on ties); a node that had no missing
#' values on its split variable at fitting sends them to the child with the larger training
#' weight (rpart's majority rule). In an unordered factor with missing values, "missing" is a
#' level of its own, ordered with the others. The plain rpart object \code{fit$rpart} has no
#' way to store a learned side: rpart's own \code{predict} on it sends a missing value the
#' majority way (no surrogates, \code{usesurrogate = 2}), which can differ from the tree's
#' side; \code{predict(fit, newdata)} gives the tree's predictions.
#'
#' With \code{missing = "surrogate"} the tree uses rpart's surrogate splits (Therneau and
#' Atkinson), with rpart's controls \code{maxsurrogate}, \code{usesurrogate} and
#' \code{surrogatestyle} (given directly or in \code{control}): each split is chosen on the
#' units not missing its variable, and units missing it go by the splits on other variables
#' that agree best with it, then by the majority (\code{usesurrogate = 2}). The splits, the
#' surrogates, the variable importance and the predictions are rpart's (the package's tests
#' compare them), and \code{fit$rpart} keeps the surrogates as rpart does, so that rpart's
#' \code{print} and \code{summary} of it are those of rpart's own fit (surrogate lines
#' included) and its \code{predict} gives the tree's predictions. The
#' default stays \code{"learned"}: its growth is compiled, the surrogates' is several
#' times slower.
#'
#' Randomness: without \code{random_state}, the seed of the cross-validation folds is drawn
#' from R's random numbers, so \code{set.seed()} before the call makes the fit (its cp table
#' included) reproducible.
#'
#' The fitted model keeps a serialised copy of the Python tree, so it survives
#' \code{saveRDS}/\code{readRDS} and \code{save}/\code{load} into a new R session; read it
#' only from files you trust (see \emph{Saving models} in \code{\link{ordstat-package}}).
#'
#' @template model-arguments
#' @templateVar response \code{y} must be an ordered factor.
#' @templateVar na_choices \code{na.exclude}, \code{na.fail} or \code{na.pass} (keep rows with
#'   missing predictors; the tree handles them, see Details)
#' @param criterion Split criterion: \code{"ordinal"} (Piccarreta's ordinal impurity),
#'   \code{"twoing"} (ordered twoing), \code{"gini"}, \code{"entropy"}, \code{"gini_linear"} or
#'   \code{"gini_quadratic"} (generalized Gini with linear or quadratic costs, eq. 9 of Archer
#'   and Mas 2009; the aliases \code{"linear"} and \code{"quadratic"} are accepted too),
#'   \code{"loss_linear"} or \code{"loss_quadratic"} (rpart's loss matrix, altered priors, as
#'   \code{rpart(parms = list(loss = L))}; aliases \code{"rpart_linear"},
#'   \code{"rpart_quadratic"}; give \code{leaf_rule = "cost"} for rpart's leaves of least
#'   expected loss), in any case or with \code{"-"} for \code{"_"}; \code{"deviance"}, the
#'   criterion of the nominal trees of Tutz and Hechenbichler (2003), is \code{"entropy"}: a
#'   node's deviance is twice its number of units times its entropy, so the splits are the
#'   same.
#' @param control Optional list of control parameters, e.g. \code{rpart::rpart.control(cp =
#'   0.02)}; \code{minsplit}, \code{minbucket}, \code{cp}, \code{maxdepth}, \code{xval},
#'   and with \code{missing = "surrogate"} \code{maxsurrogate}, \code{usesurrogate} and
#'   \code{surrogatestyle} are used (no competitor splits are kept). Arguments given
#'   directly override it.
#' @param random_state Optional whole number: the seed of the cross-validation folds (default:
#'   drawn from R's random numbers).
#' @param ... Control parameters by rpart's names: \code{minsplit} (minimum units in a node
#'   for a split to be tried, default 20), \code{minbucket} (minimum units in a leaf, default
#'   \code{round(minsplit / 3)}), \code{cp} (complexity parameter: splits that do not decrease
#'   the risk by \code{cp} times the root risk are pruned, default 0.01), \code{maxdepth}
#'   (default 30, root depth 0), \code{xval} (folds of the cross-validated cp table, 0 for
#'   none, default 10); the Python names \code{min_split}, \code{min_bucket} and
#'   \code{max_depth} are accepted as aliases. Also the further parameters of
#'   \code{OrdinalTreeClassifier}: \code{max_leaf_nodes}, \code{max_features}, \code{prune}
#'   (\code{"min"} or \code{"1se"}: the cp table's row chosen by cross-validation; or a
#'   whole number k: the largest subtree of the table with at most k leaves, needing no
#'   cross-validation), \code{leaf_rule}, \code{missing} (\code{"learned"} or
#'   \code{"surrogate"}, see Details) with rpart's \code{maxsurrogate} (default 5),
#'   \code{usesurrogate} (0, 1 or 2, default 2) and \code{surrogatestyle} (0 or 1, default
#'   0). rpart's \code{maxcompete} is accepted and has no effect. Any other name is an error.
#'   The values are checked by \code{OrdinalTreeClassifier}; its errors name them as
#'   given (by rpart's names unless the Python names were used).
#' @return An object of class \code{c("ordinal_tree", "ordstat_model", "rpart")}: the
#'   components of an rpart object (\code{frame}, \code{splits}, \code{cptable}, \code{where},
#'   ...) plus \code{rpart} (the same tree as a plain rpart object), \code{criterion},
#'   \code{levels}, \code{xlevels}, \code{terms}, \code{na.action}, \code{call} and the
#'   serialised Python model. The rpart view orders each node's children and numbers the
#'   nodes as rpart's \code{method = "class"} does (the child of lower mean class first) and
#'   a factor split names only the levels present in the node, so \code{print} shows rpart's
#'   lines for the same tree. \code{prune(fit, cp)} prunes it everywhere
#'   (\code{\link{prune.ordinal_tree}}); \code{\link{ordinal_xpred}} gives the
#'   cross-validated predictions of rpart's \code{xpred.rpart}; \code{logLik} and \code{nobs}
#'   are described in \code{\link{logLik.ordinal_tree}}.
#' @references Therneau, T. M. and Atkinson, E. J. An Introduction to Recursive Partitioning
#'   Using the RPART Routines (vignette of the rpart package), section on missing data.
#'
#'   Piccarreta, R. (2008). Classification trees for ordinal variables.
#'   \emph{Computational Statistics}, 23, 407-427.
#'
#'   Archer, K. J. and Mas, V. R. (2009). Ordinal response prediction using bootstrap
#'   aggregation, with application to a high-throughput methylation data set.
#'   \emph{Statistics in Medicine}, 28, 3597-3610.
#'
#'   Tutz, G. and Hechenbichler, K. (2003). Aggregating classifiers with ordinal response
#'   structure. Discussion Paper 359, SFB 386, LMU Munich (section 4.1: trees grown by the
#'   deviance and pruned to a fixed number of leaves).
#' @seealso \code{\link{ordinal_split}} to grow the tree with R's rpart instead.
#' @examples
#' if (ordstat_available()) {
#'   d <- data.frame(x = 1:30, z = rep(c(0, 1), 15))
#'   d$y <- cut(d$x, c(0, 10, 20, 30), labels = c("low", "mid", "high"), ordered_result = TRUE)
#'   set.seed(1)
#'   fit <- ordinal_tree(y ~ x + z, d, minsplit = 5, xval = 5)
#'   print(fit)
#'   rpart::printcp(fit)
#'   predict(fit, d[1:3, ])
#' }
#' @export
ordinal_tree <- function(formula, data, weights, subset, na.action = stats::na.omit,
                         criterion = "ordinal", control = NULL, random_state = NULL, ...) {
  call <- match.call()  # here: a promise evaluated inside a callee sees other frames
  caller <- "ordinal_tree()"
  dots <- list(...)
  if (!is.null(names(dots))) dots <- dots[!names(dots) %in% .rpart_unused]
  # rpart's rows for rpart's rule: the surrogates need the rows with missing predictors
  if (missing(na.action) && identical(dots$missing, "surrogate")) na.action <- rpart::na.rpart
  params <- list(criterion = criterion, random_state = random_seed(random_state))
  object <- fit_wrapped("tree", params, dots, call, parent.frame(), caller, na.action,
                        class = "ordinal_tree", criterion = py_criterion_name(criterion),
                        numeric_x = FALSE, allow_missing = TRUE, aliases = .tree_control_names,
                        defaults = tree_control(control, caller),
                        r_names = rpart_names(names(dots)))
  with_rpart(unclass(object), py_model(object))
}

# The fields of the model object that are the rpart view of its tree (rebuilt with it), as
# opposed to the model's own (call, terms, x, y, the pickled Python model, ...).
.rpart_fields <- c("frame", "where", "cptable", "method", "parms", "control", "functions",
                   "numresp", "splits", "csplit", "variable.importance", "ordered", "rpart")

# The tree object: the model fields of `object` with the rpart view of the Python tree `py`
# (the object's pickled model). The object is itself that rpart object (printcp,
# plotcp, text), with our fields; $rpart is the same tree as a plain rpart object. Its class
# puts "ordstat_model" before "rpart", so that the package's methods for every model
# (model.frame, ...) win over rpart's, which look for an rpart() call.
with_rpart <- function(object, py) {
  object <- object[setdiff(names(object), .rpart_fields)]
  rp <- tree_as_rpart(object, py, object$x)
  rp$na.action <- object$na.action  # print.rpart reports the rows dropped
  # unclass() keeps rpart's "xlevels" and "ylevels" attributes
  out <- unclass(rp)
  out[names(object)] <- object
  out$rpart <- rp
  class(out) <- c("ordinal_tree", "ordstat_model", "rpart")
  out
}

# rpart's controls that the tree accepts and ignores (it keeps no competitor splits); the
# others are renamed by .tree_control_names (aliases.R).
.rpart_unused <- c("maxcompete")

# The tree parameters in `control` (a list such as rpart::rpart.control()), by their Python
# names; the tree checks their values.
tree_control <- function(control, caller) {
  if (!is.null(control) && !is.list(control)) {
    stop(sprintf("%s: 'control' must be a list such as rpart::rpart.control(cp = 0.02); got %s.",
                 caller, class(control)[1L]), call. = FALSE)
  }
  out <- list()
  for (name in intersect(names(control), names(.tree_control_names))) {
    out[[.tree_control_names[[name]]]] <- control[[name]]
  }
  out
}

# The rpart names of the tree parameters in Python's errors, unless the Python spelling was
# used (`given`: the names in `...`).
rpart_names <- function(given) {
  renamed <- .tree_control_names[names(.tree_control_names) != .tree_control_names]
  out <- stats::setNames(names(renamed), renamed)
  out[!names(out) %in% given]
}

# The registry name of a criterion given in any accepted spelling (asked after the fit, which
# checks the criterion).
py_criterion_name <- function(criterion) {
  as.character(py_value(rside()$criterion_name(criterion)))
}

tree_as_rpart <- function(object, py, x) {
  a <- py_value(rside()$tree_arrays(py, py_frame(x)))
  codes <- function(lists) lapply(lists, function(v) if (is.null(v)) NULL else unlist(v))
  left_categories <- codes(a$left_categories)
  cptable <- if (is.null(a$cptable)) NULL else as.data.frame(lapply(a$cptable, as.double))
  rp <- rpart_from_tree(
    children_left = as.integer(a$children_left), children_right = as.integer(a$children_right),
    feature = as.integer(a$feature), threshold = as.double(a$threshold),
    value = a$value, n_node_samples = as.integer(a$n_node_samples),
    improvement = as.double(a$improvement), feature_names = names(x),
    ylevels = object$levels, terms = object$terms, xlevels = object$xlevels,
    ordered = names(x)[vapply(x, is.ordered, TRUE)],
    left_categories = left_categories, present_categories = codes(a$present_categories),
    loss = a$loss,
    cptable = cptable, where = as.integer(a$where),
    call = object$call, yval = as.integer(a$yval), dev = as.double(a$dev),
    complexity = as.double(a$complexity), surrogates = a$surrogates)
  class(rp) <- c("ordstat_rpart", "rpart")
  rp
}

# rpart's predict on the exported tree, with the classes as an ordered factor (rpart's own
# predict returns a plain factor).
#' @export
predict.ordstat_rpart <- function(object, ...) {
  out <- NextMethod()
  lev <- attr(object, "ylevels")
  if (is.factor(out) && identical(levels(out), lev)) out <- factor(out, levels = lev,
                                                                   ordered = TRUE)
  out
}

#' @export
print.ordinal_tree <- function(x, ...) {
  x <- synced_tree(x, "print.ordinal_tree()")
  cat(sprintf("Ordinal classification tree (criterion \"%s\"), %d classes: %s\n",
              x$criterion, length(x$levels), paste(x$levels, collapse = " < ")))
  if (!is.null(x$pruned_cp)) cat(sprintf("Pruned at cp = %s\n", format(x$pruned_cp)))
  print(x$rpart, ...)
  invisible(x)
}

#' @export
summary.ordinal_tree <- function(object, ...) {
  object <- synced_tree(object, "summary.ordinal_tree()")
  frame <- object$rpart$frame
  leaf <- frame$var == "<leaf>"
  structure(list(call = object$call, criterion = object$criterion, levels = object$levels,
                 n = frame$n[1L], n_nodes = nrow(frame), n_leaves = sum(leaf),
                 pruned_cp = object$pruned_cp, cptable = object$rpart$cptable,
                 importance = object$rpart$variable.importance,
                 # the leaves' risk (rpart's "loss") over the root's weight
                 training_error = sum(frame$dev[leaf]) / frame$wt[1L]),
            class = "summary.ordinal_tree")
}

#' @export
print.summary.ordinal_tree <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("Call:\n")
  print(x$call)
  cat(sprintf("\nCriterion: %s\nClasses (lowest to highest): %s\n", x$criterion,
              paste(x$levels, collapse = " < ")))
  cat(sprintf("Units: %d   nodes: %d   leaves: %d\n", x$n, x$n_nodes, x$n_leaves))
  if (!is.null(x$pruned_cp)) cat(sprintf("Pruned at cp = %s\n", format(x$pruned_cp)))
  cat(sprintf("Training error (the leaves' risk over the total weight): %s\n",
              format(signif(x$training_error, digits))))
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
#' @param ... \code{na.action} for \code{newdata} (default \code{na.pass}, as in
#'   \code{predict.lm}; see \code{\link{ordstat_model}}); other arguments are ignored.
#' @return An ordered factor or a numeric matrix, one element or row per row of \code{newdata},
#'   named by its row names; a row with a missing predictor is predicted (the tree sends each
#'   missing predictor to the side it learned, or by its surrogate splits with
#'   \code{missing = "surrogate"}, see \code{\link{ordinal_tree}}) unless
#'   \code{na.action} drops it (\code{na.omit}), pads it with \code{NA} (\code{na.exclude}) or
#'   refuses it (\code{na.fail}).
#' @export
predict.ordinal_tree <- function(object, newdata = NULL, type = c("class", "prob"), ...) {
  object <- synced_tree(object, "predict.ordinal_tree()")
  predict_wrapped(object, newdata, match.arg(type), "predict.ordinal_tree()")
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
  x <- synced_tree(x, "plot.ordinal_tree()")
  if (nrow(x$rpart$frame) < 2L) {
    graphics::plot.new()
    graphics::text(0.5, 0.5, paste("single node:", x$levels[x$rpart$frame$yval[1L]]))
    return(invisible(x))
  }
  graphics::plot(x$rpart, uniform = uniform, margin = margin)
  graphics::text(x$rpart, use.n = use.n, ...)
  invisible(x)
}
