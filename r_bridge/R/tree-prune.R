# rpart's workflow on an ordinal_tree: prune() and snip.rpart() prune the Python tree too (so
# predict, print, summary, plot and saveRDS see the pruned tree), ordinal_xpred() is
# xpred.rpart() with the tree's own criterion, and logLik()/nobs().
#
# The object holds two views of one tree: the Python model (pickled, used by predict) and the
# rpart view built from it (the object's own frame/splits and $rpart). prune.ordinal_tree()
# prunes the Python model and rebuilds the view. rpart's own snip.rpart() and prune.rpart()
# change only the object's frame; synced_tree() notices (the frame's nodes are no longer those
# of $rpart) and prunes the Python model to that frame before anything uses it.

#' Prune an ordinal tree
#'
#' rpart's \code{prune} for an \code{\link{ordinal_tree}}: every split whose complexity
#' (the \code{complexity} column of \code{fit$frame}, on the CP scale of \code{printcp}) is at
#' most \code{cp} is cut, exactly the rule of rpart's \code{prune.rpart}, and the cp table is
#' cut as rpart cuts it. The Python tree is pruned to the same subtree, so \code{predict},
#' \code{print}, \code{summary}, \code{plot}/\code{text}, \code{logLik} and a copy saved with
#' \code{saveRDS} all use the pruned tree. The pruning starts from the tree given (a pruned
#' tree cannot grow back). rpart's \code{snip.rpart(fit, toss)} (and \code{rpart::prune.rpart}
#' called directly) work too: they cut the object's \code{frame}, and every method of
#' \code{ordinal_tree} then uses the Python tree cut to that frame (\code{fit$rpart} is
#' refreshed by the next \code{prune}).
#'
#' @param tree A fitted \code{\link{ordinal_tree}}.
#' @param cp The complexity parameter: splits of complexity at most \code{cp} are removed (a
#'   value of the \code{CP} column of \code{printcp(tree)}, or between two of them).
#' @param ... Unused.
#' @return The pruned \code{ordinal_tree} (the tree itself when no split is removed), with
#'   \code{pruned_cp} set to \code{cp}.
#' @seealso \code{\link{ordinal_xpred}} for the cross-validated predictions behind the cp
#'   table.
#' @examples
#' if (ordstat_available()) {
#'   d <- mtcars
#'   d$mpg3 <- cut(d$mpg, 3, labels = c("low", "mid", "high"), ordered_result = TRUE)
#'   set.seed(1)
#'   fit <- ordinal_tree(mpg3 ~ hp + wt + qsec, d, minsplit = 6, cp = 0)
#'   p <- prune(fit, cp = 0.1)
#'   print(p)
#'   table(predict(p, d), d$mpg3)
#' }
#' @importFrom rpart prune
#' @export
prune.ordinal_tree <- function(tree, cp, ...) {
  caller <- "prune.ordinal_tree()"
  if (missing(cp) || !is.numeric(cp) || length(cp) != 1L || is.na(cp)) {
    stop(sprintf("%s: 'cp' must be one number, such as a CP value of printcp(tree).", caller),
         call. = FALSE)
  }
  tree <- synced_tree(tree, caller)
  ff <- tree$frame
  toss <- which(ff$complexity <= cp & ff$var != "<leaf>")  # prune.rpart's rule
  if (!length(toss)) return(tree)
  out <- snip_model(tree, toss, caller, cp = cp)
  out$pruned_cp <- cp
  out
}

# The tree with the nodes at rows `rows` of its frame (rows of the Python tree through the
# view's "tree_rows": rpart orders the children its own way) made leaves, in Python and in the
# rpart view; with `cp`, the cp table is cut as prune.rpart cuts it.
snip_model <- function(object, rows, caller, cp = NULL) {
  py_rows <- attr(object$rpart, "tree_rows")[as.integer(rows)]
  pruned <- tryCatch(
    rside()$tree_snip(py_model(object), as.array(as.integer(py_rows)), cp),
    error = function(e) stop(python_error(e, caller), call. = FALSE))
  model <- unclass(object)
  model[c("pickle", "cache")] <- py_persist(pruned)
  with_rpart(model, pruned)
}

# The tree whose Python model has the nodes of its frame: the object itself, or, when rpart's
# snip.rpart() or prune.rpart() cut the frame, the object with its Python tree cut the same
# way (and the cp table those left).
synced_tree <- function(object, caller) {
  ids <- rownames(object$frame)
  model_frame <- object$rpart$frame
  if (identical(ids, rownames(model_frame))) return(object)
  pos <- match(ids, rownames(model_frame))
  out <- NULL
  if (!anyNA(pos)) {
    cut <- pos[object$frame$var == "<leaf>" & model_frame$var[pos] != "<leaf>"]
    out <- snip_model(object, cut, caller)
  }
  if (is.null(out) || !identical(rownames(out$frame), ids)) {
    stop(sprintf(paste0("%s: the tree's frame is not a subtree of the fitted tree (was it ",
                        "changed by hand?); refit it, and prune it with prune(fit, cp = ...)."),
                 caller), call. = FALSE)
  }
  out$cptable <- object$cptable
  out$rpart$cptable <- object$cptable
  out
}

#' @rdname ordinal_xpred
#' @export
ordinal_xpred.ordinal_tree <- function(fit, xval = 10L, cp, ...) {
  caller <- "ordinal_xpred()"
  fit <- synced_tree(fit, caller)
  n <- nrow(fit$x)
  cp <- xpred_cp(fit$cptable, if (!missing(cp)) cp, caller)
  groups <- xval_groups(xval, n, caller, fit$na.action)
  p <- factor_parts(fit$y)
  w <- if (is.null(fit$weights)) NULL else as.array(as.double(fit$weights))
  pred <- tryCatch(
    py_value(rside()$tree_xpred(py_model(fit), py_frame(fit$x), as.array(p$codes),
                                as.list(p$levels), as.array(groups), as.array(as.double(cp)),
                                w)),
    error = function(e) stop(python_error(e, caller), call. = FALSE))
  matrix(as.double(pred), nrow = n, dimnames = list(rownames(fit$x), format(cp)))
}

# rpart's xpred.rpart() is not generic and would cross-validate with rpart's Gini splits; its
# first use of the object is `fit$method`, where an ordinal tree stops it with an error that
# names ordinal_xpred(). Every other `$` is the list's own.
#' @export
`$.ordinal_tree` <- function(x, name) {
  if (identical(name, "method") && called_from_xpred_rpart()) {
    stop(paste0("xpred.rpart(): rpart would regrow this tree with its own Gini splits, not the ",
                "ordinal tree's criterion; use ordinal_xpred(fit, xval, cp), which returns the ",
                "same matrix (class numbers, one row per unit, one column per cp) grown with ",
                "the tree's criterion."), call. = FALSE)
  }
  .subset2(x, name, exact = FALSE)
}

#' @export
`$.ordstat_rpart` <- `$.ordinal_tree`

called_from_xpred_rpart <- function() {
  caller <- sys.function(sys.parent(2L))
  identical(caller, rpart::xpred.rpart)
}

#' Log-likelihood and number of units of an ordinal tree
#'
#' rpart has neither; for an \code{\link{ordinal_tree}} (pruned or not), \code{logLik} is the
#' multinomial log-likelihood of the training units under their leaves' class proportions,
#' \eqn{\sum_{leaves} \sum_k n_{lk} \log(n_{lk} / n_l)} with \eqn{n_{lk}} the (weighted) number
#' of units of class k in leaf l, with \code{df} = leaves x (K - 1) free proportions (K: the
#' classes present in the training data), as for a classification tree read as a multinomial
#' model; the tree's splits are not counted as parameters, so \code{AIC} and \code{BIC} compare
#' trees only loosely. \code{nobs} is the number of units used by the fit (rows left by
#' \code{subset} and \code{na.action}, with non-zero weight).
#'
#' @param object A fitted \code{\link{ordinal_tree}}.
#' @param ... Unused.
#' @return \code{logLik}: an object of class \code{"logLik"} with attributes \code{df} and
#'   \code{nobs}; \code{nobs}: an integer.
#' @examples
#' if (ordstat_available()) {
#'   d <- mtcars
#'   d$mpg3 <- cut(d$mpg, 3, labels = c("low", "mid", "high"), ordered_result = TRUE)
#'   fit <- ordinal_tree(mpg3 ~ hp + wt, d, minsplit = 6, xval = 0)
#'   logLik(fit)
#'   nobs(fit)
#' }
#' @name logLik.ordinal_tree
#' @export
logLik.ordinal_tree <- function(object, ...) {
  object <- synced_tree(object, "logLik.ordinal_tree()")
  ff <- object$frame
  k <- length(object$levels)
  counts <- ff$yval2[ff$var == "<leaf>", 1L + seq_len(k), drop = FALSE]
  share <- counts / rowSums(counts)
  ll <- sum(ifelse(counts > 0, counts * log(share), 0))
  present <- sum(ff$yval2[1L, 1L + seq_len(k)] > 0)
  structure(ll, df = as.numeric(nrow(counts) * (present - 1L)), nobs = nobs(object),
            class = "logLik")
}

#' @rdname logLik.ordinal_tree
#' @export
nobs.ordinal_tree <- function(object, ...) {
  if (is.null(object$weights)) nrow(object$x) else sum(object$weights > 0)
}

# rpart's prune() generic, so that prune(fit, cp) works without attaching rpart.
#' @importFrom rpart prune
#' @export
rpart::prune
