circle_data <- function(n = 300, seed = 3) {
  set.seed(seed)
  d <- data.frame(a = stats::runif(n), b = stats::runif(n))
  ring <- floor(6 * ((d$a - 0.5)^2 + (d$b - 0.5)^2))
  d$y <- factor(c("inner", "middle", "outer", "corner")[ring + 1L],
                levels = c("inner", "middle", "outer", "corner"), ordered = TRUE)
  d
}

test_that("every decomposition fits, prints, summarises and predicts an ordered factor", {
  skip_if_no_python()
  d <- circle_data()
  fits <- list(frank_hall(y ~ a + b, d, estimator = "tree", random_state = 1),
               data_replication(y ~ a + b, d),
               odt(y ~ a + b, d),
               oadaboost(y ~ a + b, d, n_estimators = 20L),
               adaboost_or(y ~ a + b, d, n_estimators = 10L),
               weighted_svm(y ~ a + b, d, C = 1, gamma = 1))
  for (fit in fits) {
    expect_s3_class(fit, "ordstat_decomposition")
    pred <- predict(fit, d[1:20, ])
    expect_true(is.ordered(pred))
    expect_identical(levels(pred), levels(d$y))
    expect_output(print(fit), "classes: inner < middle < outer < corner")
    s <- summary(fit)
    expect_output(print(s), "Training error")
    expect_equal(sum(s$confusion), nrow(d))
  }
})

test_that("the R wrapper gives the Python estimator's predictions", {
  skip_if_no_python()
  d <- circle_data(200, seed = 4)
  fit <- odt(y ~ a + b, d)
  dec <- reticulate::import("ordstat.decomposition", convert = FALSE)
  X <- ordstat:::py_frame(d[c("a", "b")])
  y <- ordstat:::rside()$factor(as.array(as.integer(d$y) - 1L), as.list(levels(d$y)), TRUE)
  py <- dec$ReplicatedTreeClassifier()$fit(X, y)
  expect_identical(as.character(predict(fit, d)),
                   as.character(reticulate::py_to_r(py$predict(X))))
  expect_output(print(fit), "<  \\[")  # the K-1 thresholds of a node (x < threshold goes left)
})

test_that("probabilities: Frank & Hall rows sum to one; classes-only methods refuse", {
  skip_if_no_python()
  d <- circle_data(200, seed = 5)
  p <- predict(frank_hall(y ~ a + b, d), d, type = "prob")
  expect_equal(unname(rowSums(p)), rep(1, nrow(d)))
  expect_identical(colnames(p), levels(d$y))
  expect_error(predict(weighted_svm(y ~ a + b, d), d, type = "prob"), "classes only")
})

test_that("bad input is refused with clear messages", {
  skip_if_no_python()
  d <- circle_data(100)
  expect_parameter_error(frank_hall(y ~ a + b, d, estimator = "forest"), "frank_hall()",
                         "estimator", "'forest'")
  expect_parameter_error(data_replication(y ~ a + b, d, h = -1), "data_replication()", "h", "-1")
  expect_parameter_error(frank_hall(y ~ a + b, d, combine = "median"), "frank_hall()", "combine",
                         "'median'")
  d$g <- factor(rep(c("u", "v"), 50))
  expect_error(odt(y ~ a + g, d), "needs numeric predictors")
  d$y2 <- factor(d$y, ordered = FALSE)
  expect_error(odt(y2 ~ a + b, d), "ordered")
  expect_parameter_error(odt(y ~ a + b, d, rule = "median"), "odt()", "rule", "'median'")
})
