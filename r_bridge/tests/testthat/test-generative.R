ordered_iris <- function() {
  d <- datasets::iris
  d$Species <- factor(d$Species, levels = c("setosa", "versicolor", "virginica"), ordered = TRUE)
  d
}

test_that("EDDA from R equals EDDA from Python on iris", {
  skip_if_no_python()
  d <- ordered_iris()
  for (model in c("VVV", "EEE", "VEI")) {
    fit <- edda(Species ~ ., d, model = model)
    gaussian <- reticulate::import("ordstat.gaussian", convert = FALSE)
    X <- reticulate::r_to_py(as.matrix(d[1:4]))
    y <- ordstat:::rside()$factor(as.array(as.integer(d$Species) - 1L), as.list(levels(d$Species)), TRUE)
    py <- gaussian$EDDA(model = model)$fit(X, y)
    expect_equal(fit$loglik, reticulate::py_to_r(py$loglik_), tolerance = 1e-10)
    expect_equal(fit$mixture_loglik, reticulate::py_to_r(py$mixture_loglik_), tolerance = 1e-10)
    expect_identical(as.character(predict(fit, d)),
                     as.character(reticulate::py_to_r(py$predict(X))))
    expect_equal(unname(predict(fit, d, type = "prob")),
                 unname(reticulate::py_to_r(py$predict_proba(X))), tolerance = 1e-10)
  }
})

test_that("EDDA's mixture log-likelihood equals mclust's (6.0.0 convention)", {
  skip_if_no_python()
  skip_if_not_installed("mclust")
  suppressPackageStartupMessages(library(mclust))
  d <- ordered_iris()
  fit <- edda(Species ~ ., d, model = "VVV")
  m <- MclustDA(d[1:4], as.character(d$Species), modelType = "EDDA", modelNames = "VVV",
                verbose = FALSE)
  expect_equal(fit$mixture_loglik, m$loglik, tolerance = 1e-8)
})

test_that("edda and discrete_da print, summarise, plot and predict ordered factors", {
  skip_if_no_python()
  d <- ordered_iris()
  fit <- edda(Species ~ Petal.Length + Petal.Width, d, model = c("EEE", "VVV"), select = "bic")
  expect_true(fit$model %in% c("EEE", "VVV"))
  expect_output(print(fit), "EDDA, model")
  expect_output(print(summary(fit)), "Training confusion matrix")
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_invisible(plot(fit))
  set.seed(1)
  dd <- data.frame(a = factor(sample(c("no", "yes"), 80, TRUE)),
                   b = factor(sample(c("x", "y", "z"), 80, TRUE)))
  # a third, unused level must survive too
  dd$y <- factor(ifelse(dd$a == "yes", "l\u00f3w", "very low"), levels = awkward_levels[1:3],
                 ordered = TRUE)
  for (model in c("fmm", "foim", "kernel")) {
    f <- discrete_da(y ~ a + b, dd, model = model)
    p <- predict(f, dd)
    expect_identical(levels(p), awkward_levels[1:3])
    expect_identical(as.character(p), as.character(dd$y))
  }
  expect_output(print(f), "KERNEL")
  expect_error(edda(Species ~ ., transform(d, f = factor(Petal.Width > 1))),
               "^edda\\(\\): predictor\\(s\\) 'f' are factors.*takes numbers only")
  expect_parameter_error(edda(Species ~ ., d, model = character()), "edda()", "model")
})

test_that("discrete_da() warns when the full multinomial model outnumbers the units", {
  skip_if_no_python()
  skip_if_not_installed("mlbench")
  data("HouseVotes84", package = "mlbench", envir = environment())
  msg <- conditionMessage(expect_warning(fit <- discrete_da(Class ~ ., HouseVotes84)))
  expect_identical(nobs(fit), 232L)
  expect_match(msg, paste0("^discrete_da\\(\\): the full multinomial model \\(model = \"fmm\"\\) ",
                           "has 131,070 free parameters for 232 units"))
  expect_match(msg, "model = \"foim\"", fixed = TRUE)
  expect_identical(fit$n_parameters, 131070)
  # the models it suggests fit these data without a warning
  expect_no_warning(foim <- discrete_da(Class ~ ., HouseVotes84, model = "foim"))
  expect_gt(mean(predict(foim) == foim$y), 0.85)
  # few predictors: no warning
  expect_no_warning(discrete_da(Class ~ V1 + V2 + V3, HouseVotes84))
})
