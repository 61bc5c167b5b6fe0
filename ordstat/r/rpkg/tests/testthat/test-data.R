test_that("ordstat_data lists the data sets and returns ordered responses", {
  skip_if_no_python()
  names <- ordstat_data()
  expect_true(all(c("anes96", "esl", "bupa", "boston", "wine") %in% names))
  d <- ordstat_data("anes96")
  expect_equal(dim(d), c(944L, 9L))
  expect_identical(attr(d, "response"), "PID")
  expect_true(is.ordered(d$PID))
  expect_identical(levels(d$PID)[c(1, 7)], c("strong Democrat", "strong Republican"))
  expect_true(all(vapply(d[setdiff(names(d), "PID")], is.numeric, logical(1))))
})

test_that("ordstat_data gives the Table 2.1 sizes when skordinal is installed", {
  skip_if_no_python()
  esl <- tryCatch(ordstat_data("esl"), error = function(e) e)
  if (inherits(esl, "error")) {
    # the missing-package path: the message says what to install
    expect_match(conditionMessage(esl), "pip install skordinal", fixed = TRUE)
    skip("the Python package skordinal is not installed in this Python")
  }
  expect_equal(dim(esl), c(488L, 5L))
  expect_identical(levels(esl$y), as.character(1:9))
  expect_true(is.ordered(esl$y))
})

test_that("ordstat_data refuses bad names clearly", {
  skip_if_no_python()
  expect_error(ordstat_data("nope"), "unknown data set 'nope'")
  expect_error(ordstat_data(c("a", "b")), "one data set name")
  expect_error(ordstat_data(1), "one data set name")
})

test_that("corrected_ttest matches the hand computation", {
  skip_if_no_python()
  # d = 1, 2, 3, 4: mean 2.5, s^2 = 5/3; J = 4, n_test/n_train = 1/2 -> t = sqrt(5), df 3
  res <- corrected_ttest(c(2, 4, 6, 8), c(1, 2, 3, 4), n_train = 2, n_test = 1)
  expect_equal(res$statistic, sqrt(5))
  expect_identical(res$df, 3L)
  expect_equal(res$p_value, 2 * stats::pt(-sqrt(5), df = 3))
  # no correction: the plain paired t-test
  a <- c(0.21, 0.25, 0.19, 0.30, 0.22); b <- c(0.20, 0.21, 0.20, 0.24, 0.18)
  plain <- stats::t.test(a, b, paired = TRUE)
  res <- corrected_ttest(a, b, n_train = 1, n_test = 1e-12)
  expect_equal(res$statistic, unname(plain$statistic), tolerance = 1e-6)
  expect_equal(res$p_value, plain$p.value, tolerance = 1e-6)
})

test_that("corrected_ttest refuses bad input clearly", {
  expect_error(corrected_ttest("a", 1:2, 9, 1), "numeric vectors")
  expect_error(corrected_ttest(1:3, 1:3, 0, 1), "'n_train' must be one positive number")
  expect_error(corrected_ttest(1:3, 1:3, 9, c(1, 2)), "'n_test' must be one positive number")
  skip_if_no_python()
  expect_error(corrected_ttest(1:3, 1:2, 9, 1), "same length")
})
