ensemble_data <- function(n = 150, seed = 4) {
  set.seed(seed)
  d <- data.frame(x1 = stats::rnorm(n), x2 = stats::runif(n), flag = stats::runif(n) > 0.5,
                  grade = factor(sample(c("a", "b", "c"), n, TRUE), ordered = TRUE))
  z <- 2 * d$x1 + 2 * d$x2 + 0.5 * d$flag + stats::rnorm(n, sd = 0.4)
  d$y <- cut(z, stats::quantile(z, c(0, 0.3, 0.6, 1)), include.lowest = TRUE,
             labels = c("low", "mid", "high"), ordered_result = TRUE)
  d
}

test_that("ordinal_bagging agrees with the Python estimator and keeps the levels", {
  skip_if_no_python()
  d <- ensemble_data()
  # (8 trees: a few units are in every bootstrap sample, which warns)
  fit <- suppressWarnings(ordinal_bagging(y ~ x1 + x2 + flag, d, n_estimators = 8L,
                                          criterion = "twoing", random_state = 3L))
  expect_s3_class(fit, "ordstat_ensemble")
  pred <- predict(fit, d[1:20, ])
  expect_true(is.ordered(pred))
  expect_identical(levels(pred), levels(d$y))
  prob <- predict(fit, d, type = "prob")
  expect_identical(colnames(prob), levels(d$y))
  expect_equal(unname(rowSums(prob)), rep(1, nrow(d)))
  # the same model built in Python directly
  ens <- reticulate::import("ordstat.ensemble", convert = FALSE)
  trees <- reticulate::import("ordstat.trees", convert = FALSE)
  X <- ordstat:::py_frame(data.frame(x1 = d$x1, x2 = d$x2, flag = as.double(d$flag)))
  y <- ordstat:::rside()$factor(as.array(as.integer(d$y) - 1L), as.list(levels(d$y)), TRUE)
  py <- ens$OrdinalBaggingClassifier(
    trees$OrdinalTreeClassifier(criterion = "twoing", min_split = 5L, cp = 0, xval = 0L),
    n_estimators = 8L, random_state = 3L)$fit(X, y)
  expect_equal(fit$oob[["misclassification"]], reticulate::py_to_r(py$oob_error_))
  expect_identical(as.character(predict(fit, d)),
                   as.character(reticulate::py_to_r(py$predict(X))))
  expect_identical(nrow(fit$oob_per_tree), 8L)
  expect_true(all(c("misclassification", "gamma", "mean_absolute") %in% names(fit$oob_per_tree)))
  expect_output(print(fit), "Out-of-bag")
  expect_output(print(summary(fit)), "per tree")
  # the out-of-bag confusion and the split importance, as Python computes them
  expect_identical(dimnames(fit$oob_confusion),
                   list(observed = levels(d$y), predicted = levels(d$y)))
  expect_equal(unname(fit$oob_confusion),
               matrix(as.integer(reticulate::py_to_r(py$oob_confusion_)), nrow = 3L))
  expect_equal(unname(fit$split_importance),
               as.double(reticulate::py_to_r(py$feature_importances_)))
  expect_output(print(summary(fit)), "class.error")
  expect_output(print(summary(fit)), "Split importance")
})

test_that("fixed-split bagging, forests and boosting fit and predict through R", {
  skip_if_no_python()
  d <- ensemble_data()
  fsb <- ordinal_bagging(y ~ x1 + x2, d, n_estimators = 5L, fixed_split = TRUE,
                         weighted = TRUE, random_state = 1L)
  expect_s3_class(fsb, "ordinal_fixed_split_bagging")
  expect_lt(mean(predict(fsb, d) != d$y), 0.4)
  forest <- suppressWarnings(ordinal_forest(y ~ x1 + x2 + flag + grade, d, n_estimators = 15L,
                                            importance = "mean_absolute", random_state = 2L))
  expect_named(forest$importance, c("x1", "x2", "flag", "grade"))
  expect_true(all(names(sort(forest$importance, decreasing = TRUE))[1:2] %in% c("x1", "x2")))
  expect_output(print(summary(forest)), "Permutation importance")
  # the dissertation's floor(log2 M) + 1 predictors per node: 3 of 4, as the count 3
  trees <- lapply(list("log2+1", 3), function(m) {
    ordinal_forest(y ~ x1 + x2 + flag + grade, d, n_estimators = 3L, max_features = m,
                   oob_score = FALSE, random_state = 2L)
  })
  expect_identical(predict(trees[[1]], d), predict(trees[[2]], d))
  for (variant in c("ordinal_discrete", "ordinal_real", "fixed_split_real", "discrete")) {
    boost <- ordinal_boosting(y ~ x1 + x2, d, variant = variant, n_estimators = 5L,
                              random_state = 1L)
    expect_identical(levels(predict(boost, d)), levels(d$y))
    expect_lt(mean(predict(boost, d) != d$y), 0.4)
  }
  expect_output(print(boost), "Boosting cycles")
})

test_that("the ensembles explain bad input", {
  skip_if_no_python()
  d <- ensemble_data()
  d$g <- factor(sample(c("u", "v"), nrow(d), TRUE))
  # an unordered factor is split as categories (test-ensemble-factors.R); the fixed-split
  # bagging of a base learner that takes numbers only refuses it, naming it in R terms
  skip_if_not(reticulate::py_module_available("sklearn"))
  sk <- reticulate::import("sklearn.tree", convert = FALSE)
  err <- expect_error(ordinal_bagging(y ~ x1 + g, d, fixed_split = TRUE, n_estimators = 2,
                                      estimator = sk$DecisionTreeClassifier(max_depth = 1L)),
                      "^ordinal_bagging\\(\\): predictor\\(s\\) 'g' are")
  expect_false(grepl("Categorical|pd\\.|DataFrame", conditionMessage(err)))
  expect_parameter_error(ordinal_boosting(y ~ x1, d, variant = "gentle"), "ordinal_boosting()",
                         "variant", "'gentle'")
  expect_error(ordinal_boosting(y ~ x1, d, variant = "discrete", error = "distance"),
               "error is only used")
  d$y <- factor(as.character(d$y))
  expect_error(ordinal_forest(y ~ x1, d), "ordered")
})

test_that("Python warnings come back as R warnings naming the R function", {
  skip_if_no_python()
  d <- ensemble_data(n = 40)
  # two bootstrap samples: many units are in both, so out of every out-of-bag score
  expect_warning(
    fit <- ordinal_bagging(y ~ x1 + x2, d, n_estimators = 2L, random_state = 1L),
    "^ordinal_bagging\\(\\): [0-9]+ unit\\(s\\) were in every bootstrap sample")
  expect_s3_class(fit, "ordstat_ensemble")
  # a warning-free fit and prediction leave none behind
  expect_silent(fit <- ordinal_bagging(y ~ x1 + x2, d, n_estimators = 30L, random_state = 1L))
  expect_silent(predict(fit, d))
  # suppressWarnings() applies, as to any R warning
  expect_silent(suppressWarnings(ordinal_bagging(y ~ x1 + x2, d, n_estimators = 2L)))
})
