# Missing predictors in the tree ensembles: with na.action = na.pass the rows are kept and the
# trees learn where their missing values go; the R fit is the Python estimator's fit.

missing_data <- function(n = 90, seed = 11) {
  set.seed(seed)
  d <- data.frame(x1 = round(stats::rnorm(n), 3), x2 = round(stats::runif(n), 3))
  z <- d$x1 + 2 * d$x2 + stats::rnorm(n, sd = 0.4)
  d$y <- cut(z, c(-Inf, 0.3, 1.6, Inf), labels = c("low", "mid", "high"),
             ordered_result = TRUE)
  d$x2[seq(3, n, by = 7)] <- NA  # 13 rows
  d$x1[c(5, 40)] <- NA
  d
}

# The same estimator built directly in Python from the wrapper's defaults, fitted on the same
# rows with NaN for NA and the class codes 0..K-1 as labels.
python_twin <- function(name, seed) {
  ens <- reticulate::import("ordstat.ensemble", convert = FALSE)
  trees <- reticulate::import("ordstat.trees", convert = FALSE)
  switch(name,
    bagging = ens$OrdinalBaggingClassifier(
      estimator = trees$OrdinalTreeClassifier(criterion = "ordinal", min_split = 5L, cp = 0,
                                              xval = 0L),
      n_estimators = 4L, aggregation = "vote", random_state = seed),
    fixed_split = ens$FixedSplitBaggingClassifier(n_estimators = 3L, weighted = FALSE,
                                                  max_leaf_nodes = 5L, random_state = seed),
    forest = ens$OrdinalRandomForestClassifier(
      n_estimators = 4L, criterion = "ordinal", max_features = "sqrt", aggregation = "median",
      min_split = 2L, random_state = seed),
    boosting = ens$OrdinalBoostingClassifier(
      variant = "ordinal_discrete", n_estimators = 4L, max_leaf_nodes = 5L,
      boost_by = "resample", weighted = FALSE, random_state = seed))
}

fit_r <- function(name, d, seed, ...) {
  switch(name,
    bagging = ordinal_bagging(y ~ x1 + x2, d, n_estimators = 4L, random_state = seed,
                              oob_score = FALSE, ...),
    fixed_split = ordinal_bagging(y ~ x1 + x2, d, fixed_split = TRUE, n_estimators = 3L,
                                  random_state = seed, ...),
    forest = ordinal_forest(y ~ x1 + x2, d, n_estimators = 4L, random_state = seed,
                            oob_score = FALSE, ...),
    boosting = ordinal_boosting(y ~ x1 + x2, d, n_estimators = 4L, random_state = seed, ...))
}

test_that("na.pass: every row is predicted, as by the Python estimator on the same data", {
  skip_if_no_python()
  d <- missing_data()
  X <- as.matrix(d[c("x1", "x2")])
  X[is.na(X)] <- NaN
  X <- reticulate::r_to_py(X)
  codes <- reticulate::r_to_py(as.integer(d$y) - 1L)
  for (name in c("bagging", "fixed_split", "forest", "boosting")) {
    fit <- fit_r(name, d, 5L, na.action = na.pass)
    expect_identical(nrow(fit$x), 90L, info = name)
    pred <- predict(fit, d)
    expect_length(pred, 90L)
    expect_false(anyNA(pred), info = name)
    expect_true(is.ordered(pred), info = name)
    py <- python_twin(name, 5L)$fit(X, codes)
    expect_identical(as.integer(pred) - 1L,
                     as.integer(reticulate::py_to_r(py$predict(X))), info = name)
    expect_equal(unname(predict(fit, d, type = "prob")),
                 reticulate::py_to_r(py$predict_proba(X)), tolerance = 1e-12, info = name)
    # a new row with every predictor missing is predicted too
    expect_length(predict(fit, data.frame(x1 = NA_real_, x2 = NA_real_)), 1L)
    expect_output(print(summary(fit)), "Training confusion table")
  }
})

test_that("na.omit still drops the rows; the other wrappers refuse missing predictors", {
  skip_if_no_python()
  d <- missing_data()
  complete <- stats::complete.cases(d)
  for (name in c("bagging", "forest", "boosting")) {
    omit <- fit_r(name, d, 2L)
    expect_identical(nrow(omit$x), sum(complete), info = name)
    expect_length(predict(omit, d), nrow(d))  # predict()'s na.action: na.pass by default
    expect_length(predict(omit, d, na.action = na.omit), sum(complete))
    expect_identical(predict(omit, d[complete, ]), predict(fit_r(name, d[complete, ], 2L),
                                                           d[complete, ]), info = name)
  }
  expect_error(frank_hall(y ~ x1 + x2, d, na.action = na.pass), "missing values")
  expect_error(odt(y ~ x1 + x2, d, na.action = na.pass), "missing values")
  expect_error(serial_combine(y ~ x1 + x2, d, na.action = na.pass), "missing values")
  # a missing response is still an error
  d$y[1] <- NA
  expect_error(ordinal_forest(y ~ x1 + x2, d, n_estimators = 2L, na.action = na.pass),
               "missing value")
})
