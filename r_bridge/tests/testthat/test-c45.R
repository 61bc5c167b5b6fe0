# c45(): C4.5 as Weka's J48, through fit_wrapped().

test_that("c45() grows J48's iris tree and prints it as Weka does", {
  skip_if_no_python()
  d <- iris
  names(d) <- c("sepallength", "sepalwidth", "petallength", "petalwidth", "class")
  fit <- c45(class ~ ., d)
  expect_s3_class(fit, "ordstat_c45")
  expect_identical(c(fit$n_leaves, fit$size), c(5L, 9L))
  expect_output(print(fit), "petalwidth <= 0.6: setosa (50.0)", fixed = TRUE)
  expect_output(print(fit), "petallength <= 4.9: versicolor (48.0/1.0)", fixed = TRUE)
  pred <- predict(fit, d)
  expect_false(is.ordered(pred))
  expect_identical(levels(pred), levels(d$class))
  expect_equal(mean(pred != d$class), 3 / 150)
  p <- predict(fit, d[c(1, 51), ], type = "prob")
  expect_identical(colnames(p), levels(d$class))
  expect_equal(unname(p[1, ]), c(1, 0, 0))
  expect_equal(unname(p[2, ]), c(0, 47, 1) / 48)
  expect_output(print(summary(fit)), "size of the tree: 9")
})

test_that("c45() gives the Python estimator's predictions, factors as nominal attributes", {
  skip_if_no_python()
  d <- ordered_data(150)
  fit <- c45(y ~ x1 + x2 + g, d)
  trees <- reticulate::import("ordstat.trees", convert = FALSE)
  X <- ordstat:::py_frame(d[c("x1", "x2", "g")])
  y <- ordstat:::rside()$factor(as.array(as.integer(d$y) - 1L), as.list(levels(d$y)), TRUE)
  py <- trees$C45Classifier()$fit(X, y)
  expect_identical(as.character(predict(fit, d)),
                   as.character(reticulate::py_to_r(py$predict(X))))
  # a character response is nominal too, its classes in sorted order (the order breaks J48's
  # ties between classes): the same tree as a plain factor of the sorted labels
  d$label <- as.character(d$y)
  p <- predict(c45(label ~ x1 + x2 + g, d), d)
  expect_true(is.factor(p) && !is.ordered(p))
  d$plain <- factor(d$label)
  expect_identical(as.character(p), as.character(predict(c45(plain ~ x1 + x2 + g, d), d)))
})

test_that("c45() keeps rows with missing predictors under na.pass", {
  skip_if_no_python()
  d <- ordered_data(150, seed = 2)
  d$x1[c(3, 10, 40)] <- NA
  d$g[c(5, 11)] <- NA
  fit <- c45(y ~ x1 + x2 + g, d, na.action = na.pass)
  expect_equal(nobs(fit), 150)
  p <- predict(fit, d, type = "prob")
  expect_false(anyNA(p))
  expect_equal(unname(rowSums(p)), rep(1, nrow(d)))
})

test_that("c45() survives saveRDS and refuses bad parameters naming them", {
  skip_if_no_python()
  d <- ordered_data(100, seed = 3)
  fit <- c45(y ~ x1 + x2 + g, d)
  path <- tempfile(fileext = ".rds")
  saveRDS(fit, path)
  expect_identical(predict(readRDS(path), d), predict(fit, d))
  expect_parameter_error(c45(y ~ x1 + x2, d, confidence_factor = 0.7), "c45()",
                         "confidence_factor", "0.7")
  expect_parameter_error(c45(y ~ x1 + x2, d, min_num_obj = 0), "c45()", "min_num_obj", "0")
  expect_error(c45(y ~ x1 + x2, d, minNumObj = 3), "minNumObj")
})

test_that("frank_hall() takes C4.5 as its binary learner", {
  skip_if_no_python()
  d <- ordered_data(200, seed = 6)
  fit <- frank_hall(y ~ x1 + x2 + g, d, estimator = "c45")
  p <- predict(fit, d, type = "prob")
  expect_equal(unname(rowSums(p)), rep(1, nrow(d)))
  expect_true(is.ordered(predict(fit, d)))
})
