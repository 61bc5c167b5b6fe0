# Ordinal split criteria as an rpart user method (method = list(init, split, eval)).
#
# The formulas are those of ordstat.trees.criteria (Python), written again here in vectorised R
# so that rpart can call them: for the weighted class counts of the left and right children of
# every candidate split (matrices with one row per candidate, one column per class, lowest class
# first) each criterion returns the goodness of split on the count scale,
#   N i(t) - N_L i(t_L) - N_R i(t_R),
# i.e. the decrease of impurity of Piccarreta (2008) / Breiman et al. (1984) times the weight in
# the node, which is also rpart's "improve" for method = "class".
#
# The Python side sources this file into rpy2's R (ordstat.r, with aliases.R, factor.R and
# export.R; ordstat/r/R links to them): it needs those files and rpart only.

# N * i(t) for a matrix of counts (one row per node), 0 for empty rows.
# num / den with 0 where den is 0; den is recycled along the rows of a matrix num.
.safe_div <- function(num, den) {
  den <- rep_len(den, length(num))
  out <- num / ifelse(den > 0, den, 1)
  out[den <= 0] <- 0
  out
}

.impurity_gini <- function(counts) {
  n <- rowSums(counts)
  n - .safe_div(rowSums(counts^2), n)
}

.impurity_entropy <- function(counts) {
  n <- rowSums(counts)
  nlogn <- function(v) ifelse(v > 0, v * log(pmax(v, 1e-300)), 0)
  nlogn(n) - rowSums(matrix(nlogn(counts), nrow = nrow(counts)))
}

.impurity_cost <- function(cost) {
  force(cost)
  function(counts) {
    n <- rowSums(counts)
    # N sum_g sum_h C(h|g) p_g p_h = n' C n / N, with cost[g, h] = C(h|g)
    .safe_div(rowSums((counts %*% t(cost)) * counts), n)
  }
}

.impurity_ordinal <- function(steps) {
  force(steps)
  function(counts) {
    n <- rowSums(counts)
    k <- ncol(counts)
    cum <- t(apply(counts, 1L, cumsum))
    if (k == 1L) return(rep(0, nrow(counts)))
    cum <- matrix(cum, nrow = nrow(counts))[, -k, drop = FALSE]
    # N sum_g F(g) (1 - F(g)) (s_{g+1} - s_g) = sum_g c_g (N - c_g) / N ds_g
    .safe_div(drop((cum * (n - cum)) %*% steps), n)
  }
}

.goodness_from_impurity <- function(impurity) {
  force(impurity)
  fn <- function(left, right) impurity(left + right) - impurity(left) - impurity(right)
  attr(fn, "impurity") <- impurity
  fn
}

.goodness_twoing <- function(left, right) {
  nl <- rowSums(left)
  nr <- rowSums(right)
  k <- ncol(left)
  if (k < 2L) return(rep(0, nrow(left)))
  cl <- matrix(t(apply(left, 1L, cumsum)), nrow = nrow(left))[, -k, drop = FALSE]
  cr <- matrix(t(apply(right, 1L, cumsum)), nrow = nrow(right))[, -k, drop = FALSE]
  fl <- .safe_div(cl, nl)
  fr <- .safe_div(cr, nr)
  # N pL pR max_r (F_L(r) - F_R(r))^2, with N pL pR = nL nR / N
  .safe_div(nl * nr, nl + nr) * apply(matrix((fl - fr)^2, nrow = nrow(left)), 1L, max)
}

# rpart's loss matrix (Therneau & Atkinson, altered priors): plain Gini on the class counts
# multiplied by the row sums of L (rpart's altered priors up to one constant per tree, which
# leaves the choice of splits unchanged).
.impurity_loss <- function(loss) {
  force(loss)
  factors <- rowSums(loss)
  function(counts) .impurity_gini(sweep(counts, 2L, factors, "*"))
}

# The mean class (0-based) of each row of weighted class counts, the classes weighted by the
# row sums of the loss matrix where there is one (rpart's altered priors): rpart's class method
# sends the child of lower mean left.
.mean_class <- function(counts, loss = NULL) {
  if (!is.null(loss)) counts <- counts %*% diag(rowSums(loss), nrow = ncol(counts))
  drop(counts %*% (seq_len(ncol(counts)) - 1)) / pmax(rowSums(counts), .Machine$double.xmin)
}

# The distance loss |g - h|^power of K ordered classes.
.distance_loss <- function(k, power) {
  g <- seq_len(k)
  abs(outer(g, g, "-"))^power
}

# The loss matrix of a loss criterion for K classes (NULL for the other criteria).
.criterion_loss <- function(criterion, k, cost = NULL) {
  if (!criterion %in% c("loss_linear", "loss_quadratic")) return(NULL)
  if (!is.null(cost)) return(cost)
  .distance_loss(k, if (criterion == "loss_linear") 1 else 2)
}

# The canonical name of a criterion spelling (the tables are in aliases.R).
criterion_name <- function(criterion, caller) {
  if (!is.character(criterion) || length(criterion) != 1L || is.na(criterion)) {
    stop(sprintf("%s: 'criterion' must be one string, one of %s.", caller,
                 paste(sprintf('"%s"', .criterion_canonical), collapse = ", ")), call. = FALSE)
  }
  key <- gsub("[- ]", "_", tolower(trimws(criterion)))
  if (key %in% names(.criterion_aliases)) key <- .criterion_aliases[[key]]
  if (!key %in% .criterion_canonical) {
    stop(sprintf('%s: unknown criterion "%s"; use one of %s (or the aliases %s).', caller,
                 criterion, paste(sprintf('"%s"', .criterion_canonical), collapse = ", "),
                 paste(sprintf('"%s"', names(.criterion_aliases)), collapse = ", ")),
         call. = FALSE)
  }
  key
}

# The goodness function for K classes; checks the criterion's own parameters.
.make_goodness <- function(criterion, k, cost = NULL, scores = NULL) {
  switch(criterion,
    gini = .goodness_from_impurity(.impurity_gini),
    entropy = .goodness_from_impurity(.impurity_entropy),
    twoing = .goodness_twoing,
    linear = ,
    quadratic = {
      if (is.null(cost)) cost <- .distance_loss(k, if (criterion == "linear") 1 else 2)
      .goodness_from_impurity(.impurity_cost(cost))
    },
    loss_linear = ,
    loss_quadratic = .goodness_from_impurity(.impurity_loss(.criterion_loss(criterion, k, cost))),
    ordinal = {
      steps <- if (is.null(scores)) rep(1, k - 1L) else {
        if (length(scores) != k) {
          stop(sprintf("ordinal_split(): 'scores' has %d values but the response has %d classes; give one increasing score per class.",
                       length(scores), k), call. = FALSE)
        }
        diff(scores)
      }
      .goodness_from_impurity(.impurity_ordinal(steps))
    })
}

.check_split_args <- function(criterion, cost, scores) {
  criterion <- sub("^gini_", "", criterion_name(criterion, "ordinal_split()"))
  if (!is.null(cost)) {
    if (!criterion %in% c("linear", "quadratic", "loss_linear", "loss_quadratic")) {
      stop("ordinal_split(): 'cost' applies to the generalized Gini criteria (\"linear\", \"quadratic\") ",
           "and to rpart's loss matrices (\"loss_linear\", \"loss_quadratic\") only.", call. = FALSE)
    }
    if (!is.matrix(cost) || !is.numeric(cost) || nrow(cost) != ncol(cost) || nrow(cost) < 2L ||
        any(!is.finite(cost)) || any(cost < 0) || any(diag(cost) != 0)) {
      stop("ordinal_split(): 'cost' must be a square K x K numeric matrix, finite, non-negative, ",
           "with a zero diagonal (cost[g, h] = cost of predicting class h for class g).", call. = FALSE)
    }
    if (startsWith(criterion, "loss_") && any(rowSums(cost) == 0)) {
      stop("ordinal_split(): 'cost' (the loss matrix) must not have a row of zeros, as in rpart.",
           call. = FALSE)
    }
  }
  if (!is.null(scores)) {
    if (criterion != "ordinal") {
      stop("ordinal_split(): 'scores' applies to the \"ordinal\" criterion only.", call. = FALSE)
    }
    if (!is.numeric(scores) || any(!is.finite(scores)) || any(diff(scores) <= 0)) {
      stop("ordinal_split(): 'scores' must be finite and strictly increasing, one per class.",
           call. = FALSE)
    }
  }
  criterion
}

#' Ordinal splitting rules for rpart
#'
#' An rpart user-defined split method (\code{method = list(init, split, eval)}) for an ordered
#' factor response, with the ordinal split criteria of the Python package
#' (\code{ordstat.trees.criteria}): Piccarreta's ordinal impurity, ordered twoing, the Gini and
#' entropy impurities, the generalized Gini impurity with linear or quadratic misclassification
#' costs (eq. 9 of Archer and Mas 2009, proportional to the ordinal impurity for linear costs),
#' and rpart's loss matrix (altered priors) with linear or quadratic losses.
#'
#' The goodness of a split is on the count scale, \eqn{N_t i(t) - N_L i(t_L) - N_R i(t_R)}{N i(t) -
#' N_L i(t_L) - N_R i(t_R)} (rpart's \code{improve}); ordered twoing is
#' \eqn{N_t p_L p_R \max_r (F_L(r) - F_R(r))^2}{N pL pR max_r (F_L(r) - F_R(r))^2}. The fitted
#' value of a node is the class of largest weighted count (the lowest such class on ties) followed
#' by the K weighted class counts and the K class proportions (\code{frame$yval2}); the node
#' deviance, used by rpart's complexity pruning, is the weighted number of misclassified units, as
#' in rpart's \code{method = "class"}. For \code{"loss_linear"} and \code{"loss_quadratic"}
#' (Therneau and Atkinson, altered priors) the goodness is the Gini goodness of the class counts
#' multiplied by the row sums of the loss matrix L, the fitted class is the one of least expected
#' loss and the deviance that expected loss: the tree of \code{rpart(method = "class",
#' parms = list(loss = L))}, whose \code{improve} is this goodness divided by
#' \eqn{\sum_h \pi_h \sum_j L_{hj}}{sum_h pi_h sum_j L[h, j]} (class shares \eqn{\pi}{pi}).
#'
#' Factor predictors are split along the order of their categories by weighted mean class rank
#' in the node (\code{factor_search = "mean_rank"}, as the Python
#' \code{OrdinalTreeClassifier} does), or by searching all subsets of up to 12 present levels
#' (\code{"exhaustive"}, as rpart's \code{method = "class"} does). As in rpart's
#' \code{method = "class"}, the child of lower mean class is the left one (a numeric split's
#' \code{ncat} is -1 where \code{x < cut} goes left, +1 where \code{x >= cut} does), so the
#' nodes are numbered as rpart numbers them.
#'
#' Fit with \code{\link{ordinal_rpart}(formula, data, method = ordinal_split(...))}: the same
#' tree as \code{rpart::rpart(method = ordinal_split(...))}, whose \code{predict()} gives the
#' ordered classes (\code{type = "class"}, the default) and the class probabilities
#' (\code{type = "prob"}); rpart keeps the class labels for its own \code{method = "class"}
#' only, so its \code{predict()} on a plain rpart fit gives class numbers and fails for these
#' two types. rpart does no automatic cross-validation for user methods: use
#' \code{\link{ordinal_xpred}} (rather than \code{rpart::xpred.rpart}, whose compiled code
#' depends on the last tree grown in the session).
#'
#' Each \code{ordinal_split()} object carries its own criterion and parameters; the only
#' thing read from outside is rpart's \code{minbucket}, from the \code{rpart()} (or
#' \code{xpred.rpart()}) call that runs the split function.
#'
#' @param criterion One of \code{"ordinal"} (Piccarreta), \code{"twoing"} (ordered twoing),
#'   \code{"gini"}, \code{"entropy"}, \code{"gini_linear"} or \code{"gini_quadratic"} (generalized Gini; \code{"linear"} and \code{"quadratic"} are aliases),
#'   \code{"loss_linear"} or \code{"loss_quadratic"} (rpart's loss matrix, altered priors; \code{"rpart_linear"} and \code{"rpart_quadratic"} are aliases).
#' @param cost Optional K x K cost matrix for the generalized Gini criteria, or loss matrix for
#'   the loss criteria (\code{cost[g, h]} = cost of predicting class h for a unit of class g).
#' @param scores Optional increasing class scores for the ordinal criterion.
#' @param factor_search How splits of factor predictors are searched: \code{"mean_rank"} or
#'   \code{"exhaustive"} (see Details).
#' @return A list of class \code{"ordinal_split"} with elements \code{init}, \code{split}
#'   and \code{eval} for \code{ordinal_rpart(method = )} or \code{rpart::rpart(method = )}.
#' @references Piccarreta, R. (2008). Classification trees for ordinal variables.
#'   \emph{Computational Statistics}, 23, 407-427. Breiman, L., Friedman, J. H., Olshen, R. A. and
#'   Stone, C. J. (1984). \emph{Classification and Regression Trees}. Wadsworth. Archer, K. J. and
#'   Mas, V. R. (2009). Ordinal response prediction using bootstrap aggregation, with application
#'   to a high-throughput methylation data set. \emph{Statistics in Medicine}, 28. Therneau,
#'   T. M. and Atkinson, E. J. An introduction to recursive partitioning using the RPART
#'   routines (altered priors and loss matrices).
#' @examples
#' d <- data.frame(x = c(1:10), y = factor(rep(c("lo", "mid", "hi"), c(3, 4, 3)),
#'                                         levels = c("lo", "mid", "hi"), ordered = TRUE))
#' fit <- ordinal_rpart(y ~ x, d, method = ordinal_split("twoing"),
#'                      control = rpart::rpart.control(minsplit = 2, minbucket = 1, cp = 0))
#' fit
#' predict(fit, d[c(1, 5, 10), ])
#' @export
ordinal_split <- function(criterion = "ordinal", cost = NULL, scores = NULL,
                          factor_search = c("mean_rank", "exhaustive")) {
  criterion <- .check_split_args(criterion, cost, scores)
  factor_search <- match.arg(factor_search)

  init <- function(y, offset, parms = NULL, wt) {
    if (!is.null(offset)) {
      stop("ordinal_split(): offsets are not used by ordinal trees; remove offset().", call. = FALSE)
    }
    check_ordered_response(y, "the response of rpart()")
    lev <- levels(y)
    k <- length(lev)
    if (!is.null(cost) && nrow(cost) != k) {
      stop(sprintf("ordinal_split(): 'cost' is %d x %d but the response has %d classes.",
                   nrow(cost), nrow(cost), k), call. = FALSE)
    }
    if (!is.null(scores) && length(scores) != k) {
      stop(sprintf("ordinal_split(): 'scores' has %d values but the response has %d classes.",
                   length(scores), k), call. = FALSE)
    }
    label_of <- function(yval) lev[yval[, 1L]]
    list(
      y = class_indicator(y),
      parms = list(n_classes = k),
      numresp = 1L + 2L * k,
      numy = k,
      summary = function(yval, dev, wt, ylevel, digits, ...) {
        counts <- yval[, 1L + seq_len(k), drop = FALSE]
        paste0("  predicted class=", label_of(yval), "  expected loss=",
               formatg(dev / wt, digits), "\n    class counts: ",
               apply(counts, 1L, function(r) paste(formatg(r, digits), collapse = " ")))
      },
      # the class labels of this fit, read by ordinal_rpart() (rpart keeps them for its own
      # method = "class" only)
      print = structure(function(yval, ylevel, digits, ...) {
        counts <- yval[, 1L + seq_len(k), drop = FALSE]
        paste(label_of(yval),
              paste0("(", apply(counts, 1L, function(r) paste(formatg(r, digits), collapse = " ")),
                     ")"))
      }, ylevels = lev),
      text = function(yval, dev, wt, ylevel, digits, n, use.n, ...) {
        if (use.n) {
          counts <- yval[, 1L + seq_len(k), drop = FALSE]
          paste0(label_of(yval), "\n",
                 apply(counts, 1L, function(r) paste(formatg(r, digits), collapse = "/")))
        } else {
          label_of(yval)
        }
      }
    )
  }

  eval <- function(y, wt, parms) {
    counts <- colSums(y * wt)
    total <- sum(counts)
    loss <- .criterion_loss(criterion, length(counts), cost)
    if (is.null(loss)) {
      best <- which.max(counts)
      deviance <- total - counts[best]
    } else {
      # rpart's leaves with a loss matrix: least expected loss (the lowest class on ties)
      expected <- drop(counts %*% loss)
      best <- which.min(expected)
      deviance <- expected[best]
    }
    list(label = c(best, counts, if (total > 0) counts / total else counts),
         deviance = deviance)
  }

  goodness_cache <- new.env(parent = emptyenv())
  goodness_for <- function(k) {
    key <- as.character(k)
    if (is.null(goodness_cache[[key]])) {
      goodness_cache[[key]] <- .make_goodness(criterion, k, cost, scores)
    }
    goodness_cache[[key]]
  }

  split <- function(y, wt, x, parms, continuous) {
    k <- ncol(y)
    goodness <- goodness_for(k)
    wy <- y * wt
    if (continuous) {
      loss <- .criterion_loss(criterion, k, cost)
      # x is sorted; candidate i parts units 1..i ("x < cut") from the rest. As rpart's class
      # method, the side of lower mean class goes left (direction -1: "x < cut" left; +1:
      # "x >= cut" left, also on equal means), so the nodes are numbered as rpart's would be
      n <- nrow(wy)
      left <- apply(wy, 2L, cumsum)[-n, , drop = FALSE]
      right <- matrix(colSums(wy), nrow = n - 1L, ncol = k, byrow = TRUE) - left
      list(goodness = pmax(goodness(left, right), 0),
           direction = ifelse(.mean_class(left, loss) < .mean_class(right, loss), -1, 1))
    } else {
      cats <- sort(unique(x))
      counts <- rowsum(wy, x, reorder = TRUE)
      m <- nrow(counts)
      sizes <- drop(rowsum(rep(1, length(x)), x, reorder = TRUE))
      edge <- current_min_bucket()
      ord <- best_category_order(counts, goodness, sizes = sizes, edge = edge,
                                 max_exhaustive = if (factor_search == "exhaustive") 12L else 0L)
      counts <- counts[ord, , drop = FALSE]
      left <- apply(counts, 2L, cumsum)
      left <- matrix(left, nrow = m)[-m, , drop = FALSE]
      right <- matrix(colSums(counts), nrow = m - 1L, ncol = k, byrow = TRUE) - left
      good <- goodness(left, right)
      # rpart's C side checks min_bucket on the right side only: the left is checked here
      n_left <- cumsum(sizes[ord])[-m]
      good[n_left < edge | sum(sizes) - n_left < edge] <- 0
      list(goodness = pmax(good, 0), direction = cats[ord])
    }
  }

  # the mark by which ordinal_rpart(), ordinal_xpred() and model.frame() recognise a tree
  # grown with these rules (rpart copies init, split and eval into fit$functions)
  attr(split, "ordinal_split") <- criterion
  structure(list(init = init, split = split, eval = eval), class = "ordinal_split",
            criterion = criterion, factor_search = factor_search)
}

# One column per class, 1 where the unit is of that class (the response rpart passes to the
# split and eval functions).
class_indicator <- function(y) {
  out <- matrix(0, nrow = length(y), ncol = nlevels(y))
  out[cbind(seq_along(y), as.integer(y))] <- 1
  out
}

#' @export
print.ordinal_split <- function(x, ...) {
  cat(sprintf(paste0("Ordinal split rules for rpart (criterion \"%s\", factor search \"%s\"): ",
                     "use ordinal_rpart(formula, data, method = <this>) to fit a tree whose ",
                     "predict() gives the ordered classes.\n"),
              attr(x, "criterion"), attr(x, "factor_search")))
  invisible(x)
}

# rpart's user interface searches the splits along one order of the categories (a prefix goes
# left). By default the categories are ordered by their weighted mean class rank in the node,
# as ordstat.trees.OrdinalTreeClassifier does (stable order on ties). To search all
# 2^(m-1) - 1 splits of m <= max_exhaustive categories, as rpart's own "class" method does,
# the best subset is found and put first, so that it is one of the prefixes.
best_category_order <- function(counts, goodness, sizes = NULL, edge = 1L,
                                max_exhaustive = 12L) {
  m <- nrow(counts)
  k <- ncol(counts)
  if (m > max_exhaustive) {
    mean_rank <- drop(counts %*% seq_len(k)) / pmax(rowSums(counts), .Machine$double.xmin)
    return(order(mean_rank, method = "radix"))
  }
  # the last category stays right: each split is counted once
  subsets <- as.matrix(expand.grid(rep(list(c(FALSE, TRUE)), m - 1L)))
  subsets <- subsets[rowSums(subsets) > 0, , drop = FALSE]
  left <- (subsets + 0) %*% counts[-m, , drop = FALSE]
  right <- matrix(colSums(counts), nrow = nrow(left), ncol = k, byrow = TRUE) - left
  g <- goodness(left, right)
  if (!is.null(sizes)) {
    # rpart's C side checks the leaf size of one side only; both must hold min_bucket
    n_left <- drop((subsets + 0) %*% sizes[-m])
    g[n_left < edge | sum(sizes) - n_left < edge] <- -Inf
  }
  best <- subsets[which.max(g), ]
  c(which(best), which(!best), m)
}

# rpart's minbucket for the fit in progress: user split functions are not given it, but they
# run inside rpart::rpart(), whose local `controls` holds it.
current_min_bucket <- function() {
  controls <- dynGet("controls", ifnotfound = NULL, minframe = 1L)
  if (is.list(controls) && is.numeric(controls$minbucket)) controls$minbucket else 1L
}

formatg <- function(x, digits = getOption("digits")) {
  as.character(signif(x, digits))
}

#' Goodness of split of the ordinal criteria
#'
#' The goodness of every candidate split given the weighted class counts of its children, as
#' used by \code{\link{ordinal_split}}; exposed for checks against the Python criteria.
#'
#' @param left,right Numeric matrices (one row per candidate split, one column per class in
#'   ordinal order) of weighted class counts of the left and right child.
#' @inheritParams ordinal_split
#' @return A numeric vector, one goodness per row (count scale, larger is better).
#' @examples
#' split_goodness(rbind(c(3, 1, 0)), rbind(c(0, 1, 3)), "ordinal")
#' @export
split_goodness <- function(left, right, criterion = "ordinal", cost = NULL, scores = NULL) {
  criterion <- .check_split_args(criterion, cost, scores)
  left <- as.matrix(left)
  right <- as.matrix(right)
  if (!is.numeric(left) || !is.numeric(right) || !identical(dim(left), dim(right))) {
    stop("split_goodness(): 'left' and 'right' must be numeric matrices of the same shape.",
         call. = FALSE)
  }
  .make_goodness(criterion, ncol(left), cost, scores)(left, right)
}
