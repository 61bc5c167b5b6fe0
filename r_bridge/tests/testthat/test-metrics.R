test_that("ordinal_metrics matches hand computations", {
  skip_if_no_python()
  lev <- c("low", "mid", "high")
  truth <- factor(c("low", "mid", "high", "mid"), levels = lev, ordered = TRUE)
  pred <- factor(c("low", "high", "high", "low"), levels = lev, ordered = TRUE)
  m <- ordinal_metrics(truth, pred)
  expect_named(m, c("misclassification", "mean_absolute", "mean_squared", "gamma"))
  expect_equal(m[["misclassification"]], 2 / 4)
  expect_equal(m[["mean_absolute"]], (0 + 1 + 0 + 1) / 4)
  expect_equal(m[["mean_squared"]], (0 + 1 + 0 + 1) / 4)
  # pairs (truth, pred) ranks: (1,1) (2,3) (3,3) (2,1): concordant 3 (12, 13, 24... see below)
  t <- as.integer(truth); p <- as.integer(pred)
  conc <- 0; disc <- 0
  for (i in 1:3) for (j in (i + 1):4) {
    s <- sign(t[i] - t[j]) * sign(p[i] - p[j])
    if (s > 0) conc <- conc + 1 else if (s < 0) disc <- disc + 1
  }
  expect_equal(m[["gamma"]], (conc - disc) / (conc + disc))
})

test_that("ordinal_metrics refuses mismatched or unordered inputs", {
  lev <- c("low", "mid", "high")
  truth <- factor(c("low", "mid"), levels = lev, ordered = TRUE)
  expect_error(ordinal_metrics(truth, factor(c("low", "mid"), levels = lev)), "ordered factor")
  expect_error(ordinal_metrics(truth, factor(c("low", "mid"), levels = rev(lev), ordered = TRUE)),
               "different levels or orders")
  expect_error(ordinal_metrics(truth, truth[1]), "has 2 values but 'pred' has 1")
  expect_error(ordinal_metrics(factor(c("a", "b")), truth), "unordered factor")
  expect_error(ordinal_metrics(truth, factor(c("low", NA), levels = lev, ordered = TRUE)),
               "missing")
})

test_that("ordinal_metrics takes metric names or their aliases and reports canonical names", {
  skip_if_no_python()
  lev <- c("low", "mid", "high")
  truth <- factor(c("low", "mid", "high", "high"), levels = lev, ordered = TRUE)
  pred <- factor(c("low", "high", "high", "low"), levels = lev, ordered = TRUE)
  m <- ordinal_metrics(truth, pred, metrics = c("MAE", "mean_squared_distance", "Error"))
  expect_named(m, c("mean_absolute", "mean_squared", "misclassification"))
  expect_equal(unname(m), c((0 + 1 + 0 + 2) / 4, (0 + 1 + 0 + 4) / 4, 2 / 4))
  expect_error(ordinal_metrics(truth, pred, metrics = "auc"),
               "ordinal_metrics\\(\\): unknown metric 'auc'.*mean_absolute")
  expect_error(ordinal_metrics(truth, pred, metrics = 1), "character vector of metric names")
})
