test_that("split_goodness matches hand computations for every criterion", {
  left <- rbind(c(3, 1, 0))
  right <- rbind(c(0, 1, 3))
  expect_equal(split_goodness(left, right, "ordinal"), 3.75 - 0.75 - 0.75)
  expect_equal(split_goodness(left, right, "twoing"), 2 * 0.75^2)
  expect_equal(split_goodness(left, right, "gini"), 5.25 - 1.5 - 1.5)
  expect_equal(split_goodness(left, right, "linear"), 7.5 - 1.5 - 1.5)
  expect_equal(split_goodness(left, right, "quadratic"), 12 - 1.5 - 1.5)
  expect_equal(split_goodness(left, right, "entropy"), 6 * log(2))
  # rpart's loss matrix: Gini of the counts times the loss's row sums, linear (3, 2, 3):
  # children (9, 2, 0) | (0, 2, 9), parent (9, 4, 9), with N i = N - sum n^2 / N
  expect_equal(split_goodness(left, right, "loss_linear"),
               (22 - (81 + 16 + 81) / 22) - 2 * (11 - 85 / 11))
  expect_equal(split_goodness(left, right, "rpart_quadratic"),
               split_goodness(left * c(5, 2, 5)[col(left)], right * c(5, 2, 5)[col(right)], "gini"))
  # class scores 0, 1, 3 double the weight of the second cut
  expect_equal(split_goodness(left, right, "ordinal", scores = c(0, 1, 3)),
               (3 * 5 / 8 + 2 * 5 * 3 / 8) - (0.75) - (2 * 0.75))
  # an empty child contributes nothing, and no split means no goodness
  expect_equal(split_goodness(rbind(c(0, 0, 0)), rbind(c(2, 2, 2)), "twoing"), 0)
  expect_equal(split_goodness(rbind(c(0, 0, 0)), rbind(c(2, 2, 2)), "ordinal"), 0)
})

test_that("ordinal_split('gini') reproduces rpart's own method = 'class'", {
  d <- ordered_data()
  ctrl <- rpart::rpart.control(cp = 0, minsplit = 10, maxdepth = 4, maxsurrogate = 0)
  builtin <- rpart::rpart(y ~ x1 + x2 + g, d, method = "class", control = ctrl)
  # rpart searches all subsets of a factor's levels; so does factor_search = "exhaustive"
  ours <- rpart::rpart(y ~ x1 + x2 + g, d, method = ordinal_split("gini", factor_search = "exhaustive"),
                        control = ctrl)
  expect_identical(ours$frame$var, builtin$frame$var)
  expect_identical(rownames(ours$frame), rownames(builtin$frame))
  expect_equal(unname(ours$splits[, c("improve", "index")]),
               unname(builtin$splits[, c("improve", "index")]))
  expect_equal(ours$frame$yval, builtin$frame$yval)
  expect_equal(ours$frame$dev, builtin$frame$dev)
})

test_that("ordinal_split('loss_linear') reproduces rpart's method = 'class' with a loss matrix", {
  d <- ordered_data()
  d$y <- droplevels(d$y)  # rpart's loss matrix has one row per class present
  ctrl <- rpart::rpart.control(cp = 0, minsplit = 10, maxdepth = 4, maxsurrogate = 0,
                               maxcompete = 0)
  k <- nlevels(d$y)
  for (power in 1:2) {
    L <- abs(outer(seq_len(k), seq_len(k), "-"))^power
    builtin <- rpart::rpart(y ~ x1 + x2, d, method = "class", parms = list(loss = L),
                            control = ctrl)
    ours <- rpart::rpart(y ~ x1 + x2, d, control = ctrl,
                         method = ordinal_split(c("loss_linear", "loss_quadratic")[power]))
    # rpart may put the "x >= c" child first: compare the units' fitted classes and the leaves
    expect_identical(ours$frame$yval[ours$where], builtin$frame$yval[builtin$where])
    expect_equal(sort(ours$frame$dev), sort(builtin$frame$dev))
    # rpart's altered priors divide the goodness by sum_h pi_h sum_j L[h, j]
    pi <- as.vector(table(d$y)) / nrow(d)
    expect_equal(ours$splits[1, "improve"] / sum(pi * rowSums(L)),
                 unname(builtin$splits[1, "improve"]))
  }
  expect_error(ordinal_split("loss_linear", cost = rbind(c(0, 1), c(0, 0))), "row of zeros")
})

test_that("every criterion grows a tree, and rpart's print, summary, text and predict work", {
  d <- ordered_data()
  for (criterion in c("ordinal", "twoing", "gini", "entropy", "linear", "quadratic",
                      "loss_linear", "loss_quadratic")) {
    fit <- rpart::rpart(y ~ ., d, method = ordinal_split(criterion),
                        control = rpart::rpart.control(cp = 0, minsplit = 20, maxdepth = 3))
    expect_gt(nrow(fit$frame), 1)
    expect_output(print(fit), "root")
    pred <- predict(fit, d, type = "matrix")
    expect_equal(ncol(pred), 1 + 2 * nlevels(d$y))
  }
  expect_output(summary(fit), "predicted class")
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  plot(fit)
  expect_silent(text(fit, use.n = TRUE))
})

test_that("the twoing split is the best ordered-twoing split by brute force", {
  d <- ordered_data(60, seed = 3)
  fit <- rpart::rpart(y ~ x1, d, method = ordinal_split("twoing"),
                      control = rpart::rpart.control(cp = 0, minsplit = 2, minbucket = 1,
                                                     maxdepth = 1))
  xs <- sort(unique(d$x1))
  cuts <- (xs[-1] + xs[-length(xs)]) / 2
  counts <- function(f) as.numeric(table(f))
  phi <- sapply(cuts, function(c) {
    l <- counts(d$y[d$x1 < c]); r <- counts(d$y[d$x1 >= c])
    n <- sum(l) + sum(r)
    k <- length(l)
    fl <- cumsum(l)[-k] / sum(l); fr <- cumsum(r)[-k] / sum(r)
    sum(l) * sum(r) / n * max((fl - fr)^2)
  })
  expect_equal(fit$splits[1, "index"], cuts[which.max(phi)])
  expect_equal(fit$splits[1, "improve"], max(phi))
})

test_that("bad arguments and responses give errors that say what to do", {
  expect_error(ordinal_split("bogus"), "unknown criterion")
  expect_error(ordinal_split(3), "one string")
  expect_error(ordinal_split("ordinal", cost = diag(3)), "generalized Gini")
  expect_error(ordinal_split("linear", cost = matrix(1, 3, 3)), "zero diagonal")
  expect_error(ordinal_split("ordinal", scores = c(1, 1, 2)), "strictly increasing")
  expect_error(ordinal_split("gini", scores = 1:3), "ordinal")
  d <- ordered_data(40)
  d$u <- factor(as.character(d$y))
  expect_error(rpart::rpart(u ~ x1, d, method = ordinal_split()), "unordered factor")
  d$num <- as.integer(d$y)
  expect_error(rpart::rpart(num ~ x1, d, method = ordinal_split()), "must be an ordered factor")
  expect_error(rpart::rpart(y ~ x1, d, method = ordinal_split("ordinal", scores = 1:3)),
               "has 3 values but the response has 5")
  expect_error(split_goodness(matrix(1, 2, 3), matrix(1, 3, 3)), "same shape")
})
