# Trees grown by rpart with ordinal_split(): predict() with the classes, R's model generics, and
# cross-validated predictions that depend on nothing else grown in the session.

test_that("ordinal_rpart() is rpart's tree, and predict() gives the ordered classes and probabilities", {
  d <- ordered_data()
  ctrl <- rpart::rpart.control(cp = 0.005, minsplit = 10)
  plain <- rpart::rpart(y ~ x1 + x2 + g, d, method = ordinal_split("twoing"), control = ctrl)
  fit <- ordinal_rpart(y ~ x1 + x2 + g, d, method = ordinal_split("twoing"), control = ctrl)
  expect_s3_class(fit, c("ordinal_rpart", "rpart"), exact = TRUE)
  for (part in c("frame", "splits", "csplit", "cptable", "where")) {
    expect_identical(fit[[part]], plain[[part]], label = part)
  }
  expect_identical(attr(fit, "ylevels"), levels(d$y))
  # rpart's own predict on the plain tree: class numbers, and no class labels
  expect_identical(unname(predict(plain, d)), fit$frame$yval[fit$where])
  expect_error(predict(plain, d, type = "class"), "Invalid prediction")
  expected <- factor(levels(d$y)[fit$frame$yval[fit$where]], levels = levels(d$y),
                     ordered = TRUE)
  for (cls in list(predict(fit, d), predict(fit, d, type = "class"), predict(fit))) {
    expect_true(is.ordered(cls))
    expect_identical(levels(cls), levels(d$y))
    expect_identical(unname(cls), expected)
  }
  expect_identical(names(predict(fit, d)), rownames(d))
  prob <- predict(fit, d, type = "prob")
  expect_identical(colnames(prob), levels(d$y))
  expect_identical(dim(prob), c(nrow(d), nlevels(d$y)))
  # the leaf's class proportions, by hand
  leaf_counts <- table(factor(fit$where, levels = seq_len(nrow(fit$frame))), d$y)
  by_hand <- unclass(prop.table(leaf_counts, 1L))[as.character(fit$where), , drop = FALSE]
  expect_equal(unname(prob), unname(by_hand))
  # rpart's own types keep rpart's meaning
  expect_identical(unname(predict(fit, d, type = "vector")), fit$frame$yval[fit$where])
  expect_identical(ncol(predict(fit, d, type = "matrix")), 1L + 2L * nlevels(d$y))
  # one prediction per row of newdata, missing predictors included (surrogates)
  nd <- d[1:6, ]
  nd$x1[2] <- NA
  expect_length(predict(fit, nd), 6L)
  expect_identical(nrow(predict(fit, nd, type = "prob")), 6L)
  expect_error(ordinal_rpart(y ~ x1, d, method = "class"), "ordinal_split\\(\\)")
})

test_that("print, summary, prune, model.frame, formula and update work on ordinal_rpart()", {
  d <- ordered_data()
  fit <- ordinal_rpart(y ~ x1 + x2 + g, d, cp = 0.001, minsplit = 10)
  expect_output(print(fit), "root")
  expect_output(print(ordinal_split("gini")), "ordinal_rpart")
  pruned <- rpart::prune(fit, cp = 0.05)
  expect_s3_class(pruned, "ordinal_rpart")
  expect_lt(nrow(pruned$frame), nrow(fit$frame))
  expect_true(is.ordered(predict(pruned, d)))
  setTimeLimit(elapsed = 20, transient = TRUE)
  on.exit(setTimeLimit(elapsed = Inf))
  mf <- model.frame(fit)
  expect_identical(nrow(mf), nrow(d))
  expect_identical(names(mf), c("y", "x1", "x2", "g"))
  expect_identical(formula(fit), y ~ x1 + x2 + g, ignore_formula_env = TRUE)
  again <- update(fit, method = ordinal_split("gini"))
  expect_s3_class(again, "ordinal_rpart")
  expect_identical(again$frame,
                   ordinal_rpart(y ~ x1 + x2 + g, d, method = ordinal_split("gini"), cp = 0.001,
                                 minsplit = 10)$frame)
})

test_that("ordinal_xpred() is rpart's xpred.rpart and stays the same after other rpart fits", {
  d <- ordered_data()
  fit_a <- ordinal_rpart(y ~ x1 + x2 + g, d, method = ordinal_split("ordinal"),
                         control = rpart::rpart.control(minbucket = 7, cp = 0.01))
  # right after fit A, rpart's own xpred.rpart (whose compiled code keeps the last fit's
  # sizes) gives the same predictions
  set.seed(2)
  rpart_a <- rpart::xpred.rpart(fit_a, xval = 5)
  set.seed(2)
  ours_a <- ordinal_xpred(fit_a, xval = 5)
  expect_identical(dim(ours_a), c(nrow(d), nrow(fit_a$cptable)))
  expect_equal(ours_a, rpart_a)
  # another tree, with other levels and another criterion, grown in between
  d2 <- data.frame(z = 1:40, y = factor(rep(1:2, 20), ordered = TRUE))
  fit_b <- rpart::rpart(y ~ z, d2, method = ordinal_split("twoing"),
                        control = rpart::rpart.control(minbucket = 1, minsplit = 2, cp = 0))
  expect_gt(nrow(fit_b$frame), 1)
  set.seed(2)
  expect_identical(ordinal_xpred(fit_a, xval = 5), ours_a)
  # every value of the leaf, as xpred.rpart(return.all = TRUE)
  set.seed(2)
  all_a <- ordinal_xpred(fit_a, xval = 5, return.all = TRUE)
  expect_identical(dim(all_a), c(nrow(d), nrow(fit_a$cptable), 1L + 2L * nlevels(d$y)))
  expect_identical(unname(all_a[, , 1L]), unname(ours_a))
  # fold labels given, and the first cp (the root): every unit gets its fold's majority class
  folds <- rep(1:4, length.out = nrow(d))
  root_only <- ordinal_xpred(fit_a, xval = folds, cp = 0.99)
  majority <- sapply(1:4, function(f) which.max(table(d$y[folds != f])))
  expect_equal(unname(root_only[, 1L]), unname(majority[folds]))
  expect_error(ordinal_xpred(rpart::rpart(y ~ x1, d), xval = 5), "ordinal_split")
  expect_error(ordinal_xpred(fit_a, xval = 1), "'xval' must be a whole number of groups.*got 1")
  expect_error(ordinal_xpred(fit_a, xval = 1:3), "got 3 ids")
})

test_that("an ordinal_rpart() fit predicts the same after saveRDS in a new session; its data are needed again or kept", {
  d <- ordered_data(80)
  grow <- function(model) {
    local_data <- d
    ordinal_rpart(y ~ x1 + x2 + g, local_data, minsplit = 10, model = model)
  }
  without <- grow(FALSE)
  expect_error(ordinal_xpred(without, xval = 4), "ordinal_xpred\\(\\): the data of the fit were not found again.*model = TRUE")
  kept <- grow(TRUE)
  set.seed(3)
  xp <- ordinal_xpred(kept, xval = 4)
  expect_identical(dim(xp), c(nrow(d), nrow(kept$cptable)))
  file <- tempfile(fileext = ".rds")
  on.exit(unlink(file))
  saveRDS(list(fit = kept, d = d, class = predict(kept, d), prob = predict(kept, d, type = "prob"),
               xp = xp), file)
  out <- rscript(c(
    "library(ordstat)",
    sprintf('s <- readRDS("%s")', file),
    'set.seed(3)',
    'cat("SAME", identical(predict(s$fit, s$d), s$class),',
    '    identical(predict(s$fit, s$d, type = "prob"), s$prob),',
    '    identical(ordinal_xpred(s$fit, xval = 4), s$xp), "\\n")'))
  expect_match(paste(out, collapse = "\n"), "SAME TRUE TRUE TRUE", fixed = TRUE)
})
