# A fitted ordinal tree (the flat arrays of ordstat.trees.OrdinalTreeClassifier$tree_) as an
# object of class "rpart" with method "class", so that rpart's print, summary, predict, plot and
# text (and rpart.plot) work on it. Used by ordinal_tree() and, through rpy2, by Python's
# ordstat.r.to_rpart() (which sources this file alone: it needs rpart and nothing else).

# Node numbers of rpart (root 1, children 2i and 2i + 1) for nodes in depth-first preorder.
rpart_node_ids <- function(children_left, children_right) {
  n <- length(children_left)
  id <- numeric(n)
  id[1L] <- 1
  for (i in seq_len(n)) {
    if (children_left[i] >= 0L) {
      id[children_left[i] + 1L] <- 2 * id[i]
      id[children_right[i] + 1L] <- 2 * id[i] + 1
    }
  }
  id
}

# Weakest-link complexity of each internal node, scaled by the root risk as rpart does, and
# never larger than its parent's.
rpart_complexity <- function(children_left, children_right, dev) {
  n <- length(dev)
  subtree_risk <- dev
  leaves <- rep(1, n)
  for (i in rev(seq_len(n))) {
    if (children_left[i] >= 0L) {
      l <- children_left[i] + 1L
      r <- children_right[i] + 1L
      subtree_risk[i] <- subtree_risk[l] + subtree_risk[r]
      leaves[i] <- leaves[l] + leaves[r]
    }
  }
  root <- if (dev[1L] > 0) dev[1L] else 1
  cp <- ifelse(children_left >= 0L, (dev - subtree_risk) / pmax(leaves - 1, 1) / root, 0)
  for (i in seq_len(n)) {
    if (children_left[i] >= 0L) {
      for (child in c(children_left[i], children_right[i]) + 1L) {
        if (children_left[child] >= 0L) cp[child] <- min(cp[child], cp[i])
      }
    }
  }
  pmax(cp, 0)
}

# rpart's print, summary and text functions of method = "class", taken once per session from a
# small fit. The cache is this file's own: the file is also sourced alone into rpy2's R
# (ordstat.r), where the rest of the package does not exist.
.rpart_class <- new.env(parent = emptyenv())

.class_functions <- function() {
  if (is.null(.rpart_class$functions)) {
    d <- data.frame(y = factor(c("a", "b", "a", "b")), x = c(1, 2, 3, 4))
    .rpart_class$functions <- rpart::rpart(y ~ x, d, method = "class")$functions
  }
  .rpart_class$functions
}

#' Build an rpart object from the arrays of a fitted ordinal tree
#'
#' Low-level constructor used by \code{\link{ordinal_tree}} and by the Python function
#' \code{ordstat.r.to_rpart}; the result has class \code{"rpart"} and method \code{"class"}, so
#' \code{print}, \code{summary}, \code{predict}, \code{plot} and \code{text} from rpart work on it.
#'
#' @param children_left,children_right Integer vectors (0-based, -1 at leaves), nodes in
#'   depth-first preorder, root first, left subtree before right.
#' @param feature Integer vector, 0-based column of the split variable (-1 at leaves).
#' @param threshold Numeric split points: \code{x < threshold} goes left.
#' @param value Numeric matrix n_nodes x K of weighted class counts.
#' @param n_node_samples Integer vector, units in each node.
#' @param improvement Numeric vector, goodness of each node's split (0 at leaves).
#' @param feature_names Character vector of predictor names.
#' @param ylevels Character vector of the ordered class labels.
#' @param terms A terms object for the predictors (and response) used by \code{predict}.
#' @param xlevels Named list of levels of the factor predictors.
#' @param ordered Names of the ordered factor predictors among \code{xlevels}: their splits are
#'   thresholds on the 0-based level codes (\code{code < threshold} goes left), which rpart
#'   stores as factor splits (a \code{csplit} row sending the lower levels left).
#' @param left_categories List, one element per node: for a split on a factor, the 0-based codes
#'   of the levels sent left; \code{NULL} otherwise.
#' @param cptable Optional data frame with columns CP, nsplit, rel_error, xerror, xstd.
#' @param where Optional integer vector: the row of \code{frame} of each training unit's leaf.
#' @param call Optional call to store.
#' @param yval Optional 1-based class predicted in each node (default: the class of largest
#'   weighted count, the lowest on ties).
#' @param dev Optional risk of each node (default: weighted number misclassified by
#'   \code{yval}).
#' @param complexity Optional complexity of each node on rpart's CP scale (default: computed
#'   from \code{dev} by weakest link).
#' @param surrogates Optional list of the tree's surrogate splits (a tree grown with
#'   \code{missing = "surrogate"}), as Python's \code{surrogate_arrays} gives them: added to
#'   the object as rpart keeps them (see \code{rpart_surrogates}).
#' @return An object of class \code{"rpart"}.
#' @keywords internal
#' @noRd
rpart_from_tree <- function(children_left, children_right, feature, threshold, value,
                            n_node_samples, improvement, feature_names, ylevels, terms,
                            xlevels = list(), ordered = character(), left_categories = NULL,
                            cptable = NULL,
                            where = NULL, call = NULL, yval = NULL, dev = NULL,
                            complexity = NULL, surrogates = NULL) {
  children_left <- as.integer(children_left)
  children_right <- as.integer(children_right)
  feature <- as.integer(feature)
  value <- matrix(as.double(value), nrow = length(children_left))
  k <- ncol(value)
  n_nodes <- length(children_left)
  is_leaf <- children_left < 0L
  wt <- rowSums(value)
  if (is.null(yval)) yval <- max.col(value, ties.method = "first")
  yval <- as.integer(yval)
  if (is.null(dev)) dev <- wt - value[cbind(seq_len(n_nodes), yval)]
  dev <- as.double(dev)
  if (is.null(complexity)) complexity <- rpart_complexity(children_left, children_right, dev)
  ids <- rpart_node_ids(children_left, children_right)
  var <- ifelse(is_leaf, "<leaf>", feature_names[pmax(feature, 0L) + 1L])
  frame <- data.frame(var = var, n = as.integer(n_node_samples), wt = wt, dev = dev,
                      yval = yval,
                      complexity = as.double(complexity),
                      ncompete = 0L, nsurrogate = 0L, row.names = ids,
                      stringsAsFactors = FALSE)
  prob <- value / ifelse(wt > 0, wt, 1)
  frame$yval2 <- cbind(yval, value, prob, nodeprob = wt / wt[1L])

  internal <- which(!is_leaf)
  splits <- NULL
  csplit <- NULL
  if (length(internal)) {
    ncat <- rep(-1, length(internal))
    index <- as.double(threshold[internal])
    rows <- list()
    for (j in seq_along(internal)) {
      node <- internal[j]
      name <- var[node]
      if (!is.null(xlevels[[name]])) {
        # a split on a factor: csplit row, 1 = left, 3 = right (rpart's coding)
        nlev <- length(xlevels[[name]])
        if (name %in% ordered) {
          # a threshold on the ordered codes, as rpart keeps an ordered factor's split
          code <- ifelse(seq_len(nlev) - 1L < threshold[node], 1L, 3L)
        } else {
          code <- rep(3L, nlev)
          left <- as.integer(left_categories[[node]])
          code[left[left < nlev] + 1L] <- 1L  # code nlev: "missing", which rpart has not
        }
        rows[[length(rows) + 1L]] <- code
        ncat[j] <- nlev
        index[j] <- length(rows)
      }
    }
    splits <- cbind(count = as.double(n_node_samples[internal]), ncat = ncat,
                    improve = as.double(improvement[internal]), index = index, adj = 0)
    rownames(splits) <- var[internal]
    if (length(rows)) {
      width <- max(lengths(rows))
      csplit <- do.call(rbind, lapply(rows, function(r) c(r, rep(2L, width - length(r)))))
    }
  }

  if (is.null(cptable)) {
    cptable <- matrix(c(0, 0, 1), nrow = 1L,
                      dimnames = list("1", c("CP", "nsplit", "rel error")))
  } else {
    cptable <- as.data.frame(cptable)
    names(cptable) <- sub("rel_error", "rel error", names(cptable))
    cptable <- as.matrix(cptable)
    rownames(cptable) <- seq_len(nrow(cptable))
  }
  importance <- NULL
  if (length(internal)) {
    importance <- sort(tapply(improvement[internal], var[internal], sum), decreasing = TRUE)
    importance <- stats::setNames(as.double(importance), names(importance))
  }
  prior <- value[1L, ] / wt[1L]
  ans <- list(frame = frame,
              where = if (is.null(where)) NULL else stats::setNames(as.integer(where),
                                                                     seq_along(where)),
              call = call, terms = terms, cptable = cptable, method = "class",
              parms = list(prior = prior, loss = 1 - diag(k), split = 1),
              control = rpart::rpart.control(), functions = .class_functions(),
              numresp = k + 2L)
  if (!is.null(splits)) ans$splits <- splits
  if (!is.null(csplit)) ans$csplit <- csplit
  if (!is.null(importance)) ans$variable.importance <- importance
  ans$ordered <- stats::setNames(feature_names %in% ordered, feature_names)
  if (length(xlevels)) attr(ans, "xlevels") <- xlevels
  attr(ans, "ylevels") <- ylevels
  class(ans) <- "rpart"
  if (!is.null(surrogates)) {
    ans <- rpart_surrogates(ans, surrogates, feature_names, xlevels, ordered)
  }
  ans
}

# The surrogate splits `s` (Python's surrogate_arrays: per node nsurrogate, primary_count,
# primary_categories; per surrogate, in node order, feature, threshold, direction,
# left_categories, right_categories, agree, adj, count; and rpart's controls) added to the
# rpart object `ans` as rpart keeps them: each primary row of `splits` followed by its
# surrogates' rows (count: units sent; ncat: -1 when "<" goes to the left child, +1 when it
# goes right, or the number of levels of a factor, whose csplit row has 1 for the levels sent
# left, 3 right, 2 neither); the primary's count is the units not missing its variable and its
# factor levels not met in the node are 2 (rpart's predict then uses the surrogates);
# frame$nsurrogate; the importance counting adj times the primary's improvement
# (rpart's importance()); and control's maxsurrogate, usesurrogate, surrogatestyle, which
# rpart's predict reads.
rpart_surrogates <- function(ans, s, feature_names, xlevels, ordered) {
  frame <- ans$frame
  internal <- which(frame$var != "<leaf>")
  nsur <- as.integer(s$nsurrogate)
  frame$nsurrogate <- nsur
  first <- cumsum(c(0L, nsur))  # surrogates of node i: first[i] + seq_len(nsur[i])
  csplit <- if (is.null(ans$csplit)) list() else
    lapply(seq_len(nrow(ans$csplit)), function(r) ans$csplit[r, ])
  add_row <- function(code) {
    csplit[[length(csplit) + 1L]] <<- code
    length(csplit)
  }
  codes <- function(v) if (is.null(v)) integer(0) else as.integer(unlist(v))
  rows <- list()
  imp_names <- character(0)
  imp <- numeric(0)
  for (j in seq_along(internal)) {
    node <- internal[j]
    primary <- ans$splits[j, ]
    primary[["count"]] <- s$primary_count[node]
    met <- codes(s$primary_categories[[node]])
    name <- frame$var[node]
    if (length(met) && !(name %in% ordered)) {
      row <- csplit[[primary[["index"]]]]
      row[setdiff(seq_along(row), met + 1L)] <- 2L
      csplit[[primary[["index"]]]] <- row
    }
    rows[[length(rows) + 1L]] <- list(name, primary)
    imp_names <- c(imp_names, name)
    imp <- c(imp, primary[["improve"]])
    for (e in first[node] + seq_len(nsur[node])) {
      sname <- feature_names[s$feature[e] + 1L]
      dir <- s$direction[e]
      index <- s$threshold[e]
      ncat <- dir
      if (!is.null(xlevels[[sname]])) {
        nlev <- length(xlevels[[sname]])
        if (sname %in% ordered) {  # rpart shows an ordered factor's cut by its levels
          below <- seq_len(nlev) - 1L < s$threshold[e]
          code <- ifelse(below == (dir < 0), 1L, 3L)
        } else {
          code <- rep(2L, nlev)
          code[codes(s$left_categories[[e]]) + 1L] <- 1L
          code[codes(s$right_categories[[e]]) + 1L] <- 3L
        }
        ncat <- nlev
        index <- add_row(code)
      }
      rows[[length(rows) + 1L]] <- list(sname, c(count = s$count[e], ncat = ncat,
                                                 improve = s$agree[e], index = index,
                                                 adj = s$adj[e]))
      imp_names <- c(imp_names, sname)
      imp <- c(imp, s$adj[e] * primary[["improve"]])
    }
  }
  if (length(rows)) {
    splits <- do.call(rbind, lapply(rows, `[[`, 2L))
    rownames(splits) <- vapply(rows, `[[`, "", 1L)
    ans$splits <- splits
    importance <- sort(tapply(imp, imp_names, sum), decreasing = TRUE)
    ans$variable.importance <- stats::setNames(as.double(importance), names(importance))
  }
  if (length(csplit)) {
    width <- max(lengths(csplit))
    ans$csplit <- do.call(rbind, lapply(csplit, function(r) c(r, rep(2L, width - length(r)))))
  }
  ans$frame <- frame
  ans$control <- rpart::rpart.control(maxsurrogate = as.integer(s$maxsurrogate),
                                      usesurrogate = as.integer(s$usesurrogate),
                                      surrogatestyle = as.integer(s$surrogatestyle))
  ans
}
