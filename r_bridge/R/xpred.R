# ordinal_xpred(): rpart's xpred.rpart for the package's trees. Its methods live with the trees
# (tree-prune.R: ordinal_tree; split_fit.R: rpart trees grown with ordinal_split()).

#' Cross-validated predictions of an ordinal tree
#'
#' @param fit A fitted \code{\link{ordinal_tree}}, or a tree fitted by
#'   \code{\link{ordinal_rpart}} or \code{rpart::rpart(method = ordinal_split())}.
#' @param xval The number of groups, or a vector of group ids with one entry per unit used by
#'   the fit (or per row of the data, including those \code{na.action} dropped, as for
#'   \code{xpred.rpart}).
#' @param cp Values of the complexity parameter, on the scale of \code{printcp}; by default,
#'   as \code{xpred.rpart}: the geometric means of successive CP values of the cp table (for
#'   the first row, the mean of 1 and its CP).
#' @param ... Unused.
#' @param return.all For rpart trees: \code{FALSE} gives the predicted class numbers,
#'   \code{TRUE} every value of the predicted leaf (class number, class counts and class
#'   proportions), as \code{xpred.rpart(return.all = TRUE)}.
#' @return A numeric matrix with one row per unit used by the fit (named as its rows) and one
#'   column per \code{cp} (named \code{format(cp)}): the predicted class number (index into the
#'   levels of the response); with \code{return.all = TRUE} an array (units x cp values x leaf
#'   values).
#' @description
#' rpart's \code{xpred.rpart} for the package's trees: each unit is predicted by the tree
#' grown without its group, pruned at each complexity parameter. The units are divided into
#' \code{xval} groups as \code{xpred.rpart} divides them, so \code{set.seed()} first gives the
#' same groups; the results depend only on the fit, the groups and the cp values.
#' @details
#' For an \code{\link{ordinal_tree}}, each group's tree is grown with the fit's criterion and
#' controls (its cp scaled by the share of the weight used, as in the cross-validation behind
#' the cp table); for each value of \code{cp}, a unit stops at the first node whose complexity
#' is at most that value. rpart's own \code{xpred.rpart} is not generic and would regrow an
#' ordinal tree with rpart's Gini splits: on an \code{ordinal_tree} it gives an error that
#' points here. \code{return.all} is not offered for it.
#'
#' For an rpart tree grown with \code{\link{ordinal_split}} (\code{\link{ordinal_rpart}} or
#' \code{rpart::rpart(method = ordinal_split())}), each group's tree is grown with
#' \code{rpart::rpart} and pruned with \code{rpart::prune}, with the fit's controls and its
#' \code{cp} taken relative to the whole tree's root risk scaled by the group's share of the
#' weight, as \code{xpred.rpart} does. rpart 4.1's compiled \code{xpred} sizes its nodes and
#' its cp list by the last tree \code{rpart()} grew in the session, whatever its method, so its
#' results change after any other rpart fit; right after fitting, with the same seed, both
#' give the same predictions.
#' @examples
#' d <- data.frame(x = 1:30, z = rep(c(0, 1), 15))
#' d$y <- cut(d$x + 3 * d$z, c(0, 10, 20, 40), labels = c("low", "mid", "high"),
#'            ordered_result = TRUE)
#' fit <- ordinal_rpart(y ~ x + z, d, minsplit = 5)
#' set.seed(1)
#' xp <- ordinal_xpred(fit, xval = 5)
#' colMeans(xp != as.integer(d$y))   # cross-validated error rate at each cp
#' if (ordstat_available()) {
#'   tree <- ordinal_tree(y ~ x + z, d, minsplit = 5, cp = 0)
#'   colMeans(ordinal_xpred(tree, xval = 5) != as.integer(d$y))
#' }
#' @seealso \code{\link{ordinal_tree}}, \code{\link{ordinal_rpart}}
#' @name ordinal_xpred
#' @order 1
#' @export
ordinal_xpred <- function(fit, xval = 10L, cp, ...) UseMethod("ordinal_xpred")

#' @rdname ordinal_xpred
#' @export
ordinal_xpred.default <- function(fit, xval = 10L, cp, ...) {
  stop(sprintf(paste0("ordinal_xpred(): 'fit' must be a tree fitted by ordinal_tree(), ",
                      "ordinal_rpart() or rpart(method = ordinal_split()); got %s."),
               class(fit)[1L]), call. = FALSE)
}

# The cp values of xpred: the given ones (checked), or rpart's default from the cp table.
xpred_cp <- function(cptable, cp, caller) {
  if (is.null(cp)) {
    cp <- cptable[, 1L]
    cp <- sqrt(cp * c(10, cp[-length(cp)]))
    cp[1L] <- (1 + cptable[1L, 1L]) / 2
    return(cp)
  }
  if (!is.numeric(cp) || !length(cp) || any(!is.finite(cp)) || any(cp < 0)) {
    stop(sprintf("%s: 'cp' must be non-negative numbers.", caller), call. = FALSE)
  }
  cp
}

# Group ids 1..V of the n units: a number of groups (drawn as xpred.rpart draws them) or one
# id per unit (or per row of the data before na.action dropped rows).
xval_groups <- function(xval, n, caller, na_action = NULL) {
  bad <- function(got) {
    stop(sprintf(paste0("%s: 'xval' must be a whole number of groups from 2 to the number of ",
                        "units (%d), or one group id per unit used by the fit; got %s."),
                 caller, n, got), call. = FALSE)
  }
  if (length(xval) == 1L && n != 1L) {
    if (!is.numeric(xval) || !is.finite(xval) || xval != round(xval) || xval < 2 || xval > n) {
      bad(paste(format(xval), collapse = " "))
    }
    return(sample(rep(seq_len(xval), length.out = n), n, replace = FALSE))
  }
  if (length(xval) != n && length(na_action) && length(xval) == n + length(na_action)) {
    xval <- xval[-as.integer(na_action)]
  }
  if (length(xval) != n || anyNA(xval)) bad(sprintf("%d ids", length(xval)))
  groups <- as.integer(factor(xval))
  if (max(groups) < 2L) bad("a single group")
  groups
}
