# ordinal_xpred(): rpart's xpred.rpart for the package's trees. Its methods live with the trees
# (tree-prune.R: ordinal_tree; split_fit.R: rpart trees grown with ordinal_split()); the
# documentation is man/ordinal_xpred.Rd.

#' @export
ordinal_xpred <- function(fit, xval = 10L, cp, ...) UseMethod("ordinal_xpred")

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
