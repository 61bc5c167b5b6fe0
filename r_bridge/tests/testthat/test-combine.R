test_that("serial_combine takes a plain factor and returns a plain factor", {
  skip_if_no_python()
  fit <- serial_combine(Species ~ ., iris, models = c("EEI", "EII"))
  expect_s3_class(fit, "ordstat_serial")
  expect_equal(sum(fit$weights), 1, tolerance = 1e-12)
  # weights named by the models as the user named them, the paper's names kept beside
  expect_identical(names(fit$weights), c("EEI", "EII"))
  expect_identical(fit$paper_names, c("[lambda B]", "[lambda I]"))
  expect_output(print(fit), "EII +\\[lambda I\\] +0\\.[0-9]+")
  expect_match(fit$formula_text, "^0\\.[0-9]{2} \\[lambda B\\] \\+ 0\\.[0-9]{2} \\[lambda I\\]$")
  pred <- predict(fit)
  expect_true(is.factor(pred) && !is.ordered(pred))
  expect_identical(levels(pred), levels(iris$Species))
  expect_gt(mean(pred == iris$Species), 0.9)
  prob <- predict(fit, iris[1:5, ], type = "prob")
  expect_equal(dim(prob), c(5L, 3L))
  expect_equal(unname(rowSums(prob)), rep(1, 5), tolerance = 1e-12)
  expect_output(print(fit), "committee")
})

test_that("ordered in, ordered out; weights equal the Python combiner's", {
  skip_if_no_python()
  d <- iris
  d$Species <- factor(d$Species, levels = c("virginica", "setosa", "versicolor"),
                      ordered = TRUE)
  fit <- serial_combine(Species ~ ., d, models = c("EEI", "EII"), method = "bic")
  pred <- predict(fit, d)
  expect_true(is.ordered(pred))
  expect_identical(levels(pred), levels(d$Species))
  combine <- reticulate::import("ordstat.combine", convert = FALSE)
  gaussian <- reticulate::import("ordstat.gaussian", convert = FALSE)
  X <- reticulate::r_to_py(as.matrix(d[1:4]))
  y <- reticulate::r_to_py(as.character(d$Species))
  py <- combine$SerialCombiner(list(gaussian$EDDA(model = "EEI"), gaussian$EDDA(model = "EII")),
                               method = "bic")$fit(X, y)
  expect_equal(unname(fit$weights), as.double(reticulate::py_to_r(py$weights_)),
               tolerance = 1e-12)
})

test_that("the committee on iris is close to the paper's .82 [lambda B] + .18 [lambda I]", {
  skip_if_no_python()
  fit <- serial_combine(Species ~ ., iris, models = c("EEI", "EII"))
  expect_equal(unname(fit$weights[1]), 0.82, tolerance = 0.05 / 0.82)
  s <- summary(fit, loo = TRUE)
  expect_equal(s$loo_error, 0.04, tolerance = 1e-12)  # the paper's Table 4
  expect_output(print(s), "Leave-one-out error of the whole procedure: 0.04")
})

test_that("discrete models with factor predictors", {
  skip_if_no_python()
  set.seed(2)
  d <- data.frame(a = factor(sample(c("n", "y"), 80, TRUE)), b = factor(sample(c("n", "y"), 80, TRUE)))
  d$g <- ifelse(d$a == "y" & runif(80) < 0.8, "yes", "no")
  fit <- serial_combine(g ~ a + b, d, models = c("foim", "fmm"), method = "integrated")
  expect_identical(names(fit$weights), c("foim", "fmm"))
  expect_identical(fit$paper_names, c("FOIM", "FMM"))
  # in any case the user wrote them; all 14 of "edda" by their mclust names
  upper <- serial_combine(g ~ a + b, d, models = c("FOIM", "Fmm"), method = "integrated")
  expect_identical(names(upper$weights), c("FOIM", "Fmm"))
  expect_identical(unname(upper$weights), unname(fit$weights))
  expect_output(print(summary(fit)), "exact")
  expect_true(is.factor(predict(fit)) && !is.ordered(predict(fit)))
})

test_that("bad input gives clear errors", {
  skip_if_no_python()
  # the parameters are checked by Python; its errors name the R function and R's argument
  expect_parameter_error(serial_combine(Species ~ ., iris, models = character()),
                         "serial_combine()", "models", python = "estimators")
  expect_parameter_error(serial_combine(Species ~ ., iris, models = 3), "serial_combine()",
                         "models", "3", python = "estimators")
  expect_error(serial_combine(Species ~ ., iris, models = c("EEI", "XYZ")), "unknown model 'XYZ'")
  expect_parameter_error(serial_combine(Species ~ ., iris, n_models = 1), "serial_combine()",
                         "n_models")
  expect_parameter_error(serial_combine(Species ~ ., iris, method = "vote"),
                         "serial_combine()", "method", "'vote'")
})

test_that("R conventions with a plain factor: na.exclude, newdata, data-less formula, seed", {
  skip_if_no_python()
  d <- iris
  d$Sepal.Width[c(4, 60)] <- NA
  fit <- serial_combine(Species ~ ., d, models = c("EEI", "EII"), na.action = na.exclude)
  expect_identical(nrow(fit$x), 148L)
  expect_output(print(fit), "2 observations deleted due to missingness")
  p <- predict(fit)
  expect_length(p, 150L)
  expect_identical(unname(which(is.na(p))), c(4L, 60L))
  expect_true(is.factor(p) && !is.ordered(p))
  # the fit's na.action is applied to newdata: rows padded with NA, in place
  pn <- predict(fit, d[55:62, ], type = "prob")
  expect_identical(dim(pn), c(8L, 3L))
  expect_identical(unname(which(is.na(pn[, 1]))), 6L)
  expect_identical(sum(summary(fit)$confusion), 148L)
  # same fit as on the complete rows
  complete <- serial_combine(Species ~ ., d[-c(4, 60), ], models = c("EEI", "EII"))
  expect_identical(fit$weights, complete$weights)
  expect_error(serial_combine(Species ~ ., d, na.action = na.fail), "missing values")
  # without data: the variables of the formula's environment
  y <- iris$Species
  a <- iris$Petal.Length
  b <- iris$Petal.Width
  free <- serial_combine(y ~ a + b, models = c("EEI", "EII"), method = "bic")
  framed <- serial_combine(Species ~ Petal.Length + Petal.Width, iris, models = c("EEI", "EII"),
                           method = "bic")
  expect_identical(free$weights, framed$weights)
  # out-of-fold posteriors: the folds come from R's random numbers
  cv_weights <- function(s) {
    set.seed(s)
    serial_combine(Species ~ ., iris, models = c("EEI", "EII", "VVV"), posteriors = "cv",
                   cv = 3)$weights
  }
  w <- lapply(c(1, 1, 2, 3), cv_weights)
  expect_identical(w[[1]], w[[2]])
  expect_false(identical(w[[2]], w[[3]]) && identical(w[[3]], w[[4]]))
  expect_error(serial_combine(Species ~ ., iris, weights = rep(1, 150)),
               "'weights' are not supported")
  expect_error(serial_combine(Species ~ ., iris, prefit = TRUE), "unknown argument 'prefit'")
  expect_parameter_error(serial_combine(Species ~ ., iris, cv = 1.5), "serial_combine()", "cv",
                         "1.5")
})
