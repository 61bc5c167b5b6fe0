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

# rpart's order of each node's two children (its gini.c): the child whose classes have the
# lower mean rank goes left, the `x >= c` side when the means are equal; with a loss matrix
# `loss` (true class in rows) each class counts in proportion to its row sum (rpart's altered
# priors). TRUE where that is our right child (ours always puts `x < c`, or the codes of
# left_categories, first).
rpart_swap <- function(children_left, children_right, value, loss) {
  value <- value %*% diag(rowSums(loss), nrow = ncol(value))
  rank <- (value / pmax(rowSums(value), .Machine$double.xmin)) %*% (seq_len(ncol(value)) - 1)
  inner <- children_left >= 0L
  swap <- logical(length(children_left))
  swap[inner] <- !(rank[children_left[inner] + 1L] < rank[children_right[inner] + 1L])
  swap
}

# Our nodes in the order of rpart's frame: depth-first preorder, rpart's left child first
# (`swap`: see rpart_swap). Returns `rows` (our 1-based row of each frame row), `pos` (the
# frame row of each of ours) and the children as frame rows (0-based, -1 at leaves).
rpart_order <- function(children_left, children_right, swap) {
  first <- ifelse(swap, children_right, children_left)
  second <- ifelse(swap, children_left, children_right)
  n <- length(first)
  rows <- integer(n)
  stack <- integer(n + 1L)
  stack[1L] <- 1L
  top <- 1L
  for (m in seq_len(n)) {
    i <- stack[top]
    rows[m] <- i
    top <- top - 1L
    if (first[i] >= 0L) {
      stack[top + 1:2] <- c(second[i], first[i]) + 1L
      top <- top + 2L
    }
  }
  pos <- order(rows)
  kid <- function(k) ifelse(k >= 0L, pos[pmax(k, 0L) + 1L] - 1L, -1L)
  list(rows = rows, pos = pos, left = kid(first[rows]), right = kid(second[rows]))
}

# The csplit row of a factor split over `nlev` levels: 1 = left, 3 = right, 2 = a level absent
# from the node at fitting (rpart's coding; its print, text and labels name only 1 and 3).
# `left`: 0-based codes sent left by our tree; `present`: those present (NULL: all); `swap`:
# rpart's left child is our right one.
rpart_csplit_row <- function(nlev, left, present, swap) {
  code <- rep(3L, nlev)
  left <- as.integer(left)
  code[left[left < nlev] + 1L] <- 1L  # code nlev: "missing", which rpart has not
  if (swap) code <- 4L - code
  if (!is.null(present)) {
    code[!(seq_len(nlev) - 1L) %in% as.integer(present)] <- 2L
  }
  code
}

# The class proportions of each node as rpart computes them (its rpart.R, default priors: the
# root's shares), so that print shows the same rounded digits (0.425 can print as 0.43 there).
rpart_yprob <- function(value) {
  counts <- value[1L, ]
  scaled <- value %*% diag(counts / sum(counts) / pmax(1, counts), nrow = ncol(value))
  total <- rowSums(scaled)
  scaled / ifelse(total > 0, total, 1)
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
#' The children of each node are ordered, and the nodes numbered, as rpart orders them (the
#' child of lower mean class first, see \code{rpart_swap}); attribute \code{"tree_rows"} holds
#' the 0-based row of the given arrays of each row of \code{frame}.
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
#' @param loss Optional K x K loss matrix of the tree's leaf rule, rpart's \code{parms$loss}
#'   (true class in rows; default: 0 on the diagonal, 1 elsewhere).
#' @param present_categories Optional list like \code{left_categories}: the 0-based codes of the
#'   levels present in the node at fitting; the others are marked absent (\code{csplit} 2, not
#'   printed, as rpart does). \code{NULL} (or a \code{NULL} element): all present.
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
                            cptable = NULL, present_categories = NULL, loss = NULL,
                            where = NULL, call = NULL, yval = NULL, dev = NULL,
                            complexity = NULL, surrogates = NULL) {
  children_left <- as.integer(children_left)
  children_right <- as.integer(children_right)
  feature <- as.integer(feature)
  value <- matrix(as.double(value), nrow = length(children_left))
  k <- ncol(value)
  loss <- if (is.null(loss)) 1 - diag(k) else matrix(as.double(loss), nrow = k)
  # every per-node argument in rpart's frame order
  swap <- rpart_swap(children_left, children_right, value, loss)
  ord <- rpart_order(children_left, children_right, swap)
  tree_rows <- ord$rows
  children_left <- ord$left
  children_right <- ord$right
  swap <- swap[tree_rows]
  feature <- feature[tree_rows]
  threshold <- threshold[tree_rows]
  value <- value[tree_rows, , drop = FALSE]
  n_node_samples <- n_node_samples[tree_rows]
  improvement <- improvement[tree_rows]
  left_categories <- left_categories[tree_rows]
  present_categories <- present_categories[tree_rows]
  if (!is.null(yval)) yval <- yval[tree_rows]
  if (!is.null(dev)) dev <- dev[tree_rows]
  if (!is.null(complexity)) complexity <- complexity[tree_rows]
  if (!is.null(where)) where <- ord$pos[where]
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
  prob <- rpart_yprob(value)
  frame$yval2 <- cbind(yval, value, prob, nodeprob = wt / wt[1L])

  internal <- which(!is_leaf)
  splits <- NULL
  csplit <- NULL
  if (length(internal)) {
    ncat <- ifelse(swap[internal], 1, -1)  # 1: rpart's left child is `x >= threshold`
    index <- as.double(threshold[internal])
    rows <- list()
    for (j in seq_along(internal)) {
      node <- internal[j]
      name <- var[node]
      if (!is.null(xlevels[[name]])) {
        # a split on a factor: csplit row, 1 = left, 3 = right (rpart's coding)
        nlev <- length(xlevels[[name]])
        if (name %in% ordered) {
          # a threshold on the ordered codes, as rpart keeps an ordered factor's split (every
          # level coded, present or not)
          code <- ifelse(seq_len(nlev) - 1L < threshold[node], 1L, 3L)
          if (swap[node]) code <- 4L - code
        } else {
          code <- rpart_csplit_row(nlev, left_categories[[node]], present_categories[[node]],
                                   swap[node])
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
              parms = list(prior = prior, loss = loss, split = 1),
              control = rpart::rpart.control(), functions = .class_functions(),
              numresp = k + 2L)
  if (!is.null(splits)) ans$splits <- splits
  if (!is.null(csplit)) ans$csplit <- csplit
  if (!is.null(importance)) ans$variable.importance <- importance
  ans$ordered <- stats::setNames(feature_names %in% ordered, feature_names)
  if (length(xlevels)) attr(ans, "xlevels") <- xlevels
  attr(ans, "ylevels") <- ylevels
  attr(ans, "tree_rows") <- tree_rows - 1L
  class(ans) <- "rpart"
  if (!is.null(surrogates)) {
    ans <- rpart_surrogates(ans, surrogates, feature_names, xlevels, ordered, swap)
  }
  ans
}

# The surrogate splits `s` (Python's surrogate_arrays: per node of the Python tree
# nsurrogate, primary_count; per surrogate, in that tree's node order, feature, threshold,
# direction, left_categories, right_categories, agree, adj, count; and rpart's controls) added
# to the rpart object `ans` as rpart keeps them: each primary row of `splits` followed by its
# surrogates' rows (count: units sent; ncat: -1 when "<" goes to rpart's left child, +1 when it
# goes right, or the number of levels of a factor, whose csplit row has 1 for the levels sent
# left, 3 right, 2 neither); the primary's count is the units not missing its variable;
# frame$nsurrogate; the importance counting adj times the primary's improvement (rpart's
# importance()); and control's maxsurrogate, usesurrogate, surrogatestyle, which rpart's
# predict reads. `swap` (frame order): rpart's left child is the Python tree's right one.
rpart_surrogates <- function(ans, s, feature_names, xlevels, ordered, swap) {
  frame <- ans$frame
  tree_rows <- attr(ans, "tree_rows") + 1L  # the Python tree's node of each frame row
  internal <- which(frame$var != "<leaf>")
  nsur <- as.integer(s$nsurrogate)
  first <- cumsum(c(0L, nsur))  # surrogates of our node i: first[i] + seq_len(nsur[i])
  frame$nsurrogate <- nsur[tree_rows]
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
    ours <- tree_rows[node]
    primary <- ans$splits[j, ]
    primary[["count"]] <- s$primary_count[ours]
    name <- frame$var[node]
    rows[[length(rows) + 1L]] <- list(name, primary)
    imp_names <- c(imp_names, name)
    imp <- c(imp, primary[["improve"]])
    for (e in first[ours] + seq_len(nsur[ours])) {
      sname <- feature_names[s$feature[e] + 1L]
      dir <- s$direction[e]  # -1: "<" goes to our left child
      index <- s$threshold[e]
      ncat <- if (swap[node]) -dir else dir
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
        if (swap[node]) code <- 4L - code  # 2 (neither side) stays 2
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
