# R's model generics on every fitted model (class "ordstat_model"): model.frame, formula, terms,
# update, nobs, fitted, residuals, coef and logLik where they have a meaning, a clear R error
# where not.

generics_data <- function(n = 80, seed = 3) {
  set.seed(seed)
  d <- data.frame(x1 = round(stats::rnorm(n), 3), x2 = round(stats::runif(n), 3),
                  o = factor(sample(c("lo", "hi"), n, TRUE), levels = c("lo", "hi"),
                             ordered = TRUE))
  z <- d$x1 + 2 * d$x2 + (d$o == "hi") + stats::rnorm(n, sd = 0.5)
  d$y <- cut(z, c(-Inf, 0.8, 2, Inf), labels = c("low", "mid", "high"), ordered_result = TRUE)
  d
}

generics_fits <- function(d) {
  set.seed(1)
  list(tree = ordinal_tree(y ~ x1 + x2 + o, d, minsplit = 10L, xval = 0L),
       forest = ordinal_forest(y ~ x1 + x2 + o, d, n_estimators = 5L, oob_score = FALSE),
       boosting = ordinal_boosting(y ~ x1 + x2 + o, d, n_estimators = 3L),
       frank_hall = frank_hall(y ~ x1 + x2 + o, d),
       odt = odt(y ~ x1 + x2 + o, d),
       edda = edda(y ~ x1 + x2, d, model = "EEE"),
       serial = serial_combine(y ~ x1 + x2, d, models = c("EII", "VVV"), posteriors = "cv",
                               cv = 3),
       coupling = hierarchical_coupling(y ~ x1 + x2, d, candidates = c("EII", "VVV"), cv = 3))
}

test_that("model.frame is the fit's frame, as lm's, and returns promptly (also on the tree)", {
  skip_if_no_python()
  d <- generics_data()
  d$x1[c(5L, 12L)] <- NA
  fits <- generics_fits(d)
  for (name in names(fits)) {
    fit <- fits[[name]]
    expect_s3_class(fit, "ordstat_model")
    f <- stats::formula(fit)
    expect_s3_class(f, "formula")
    ref <- stats::model.frame(f, d)  # lm's frame: na.omit drops rows 5 and 12
    setTimeLimit(elapsed = 20)
    mf <- tryCatch(stats::model.frame(fit), finally = setTimeLimit(elapsed = Inf))
    expect_identical(names(mf), names(ref), info = name)
    expect_identical(rownames(mf), rownames(ref), info = name)
    # the predictors as given: the ordered factor o stays a factor where it went as a number
    for (v in names(ref)) expect_identical(mf[[v]], ref[[v]], info = paste(name, v))
    expect_identical(stats::terms(mf), stats::terms(fit), info = name)
    expect_identical(stats::formula(stats::terms(fit)), f, info = name)
    expect_identical(sort(unname(as.integer(attr(mf, "na.action")))), c(5L, 12L), info = name)
    expect_identical(stats::nobs(fit), nrow(ref), info = name)
    expect_identical(stats::model.response(mf), d$y[-c(5L, 12L)], ignore_attr = TRUE)
  }
  # weights come back as lm's "(weights)" column; nobs counts the positive ones
  w <- rep(c(0, 1, 2, 1), length.out = nrow(d))
  fh <- frank_hall(y ~ x1 + x2, d, weights = w)
  expect_identical(stats::model.weights(stats::model.frame(fh)), w[-c(5L, 12L)])
  expect_identical(stats::nobs(fh), sum(w[-c(5L, 12L)] > 0))
  # discrete_da() (factor predictors) too
  set.seed(4)
  f <- data.frame(a = factor(sample(0:1, 60, TRUE)), b = factor(sample(0:2, 60, TRUE)))
  f$y <- factor(ifelse(f$a == "1", "high", "low"), levels = c("low", "high"))
  dd <- discrete_da(y ~ a + b, f, model = "foim")
  expect_s3_class(dd, "ordstat_model")
  expect_identical(as.list(stats::model.frame(dd)), as.list(stats::model.frame(y ~ a + b, f)))
  expect_identical(stats::fitted(dd), predict(dd, f))
  expect_error(coef(dd), "^coef\\(\\): a discrete_da\\(\\) fit has no coefficients")
  # data, subset or na.action given rebuild the frame from the call, as model.frame.lm does
  tree <- fits$tree
  expect_identical(nrow(stats::model.frame(tree, data = d[1:30, ])), 28L)
  expect_identical(nrow(stats::model.frame(tree, na.action = stats::na.pass)), nrow(d))
})

test_that("update() refits: a changed formula, new data, a changed argument", {
  skip_if_no_python()
  d <- generics_data()
  fits <- generics_fits(d)
  for (name in c("tree", "forest", "frank_hall", "edda")) {
    fit <- fits[[name]]
    smaller <- update(fit, . ~ . - x2)
    expect_identical(names(smaller$x), setdiff(names(fit$x), "x2"), info = name)
    expect_identical(stats::formula(smaller), update(stats::formula(fit), . ~ . - x2))
    half <- update(fit, data = d[1:40, ])
    expect_identical(stats::nobs(half), 40L, info = name)
  }
  set.seed(1)
  five <- update(fits$forest, n_estimators = 7L)
  expect_identical(ordstat:::py_value(ordstat:::py_model(five)$n_estimators), 7L)
  expect_identical(nrow(update(fits$tree, cp = 0.9)$frame), 1L)
  expect_identical(update(fits$edda, model = "VVV")$model, "VVV")
})

test_that("fitted classes and residuals as class distances, padded under na.exclude", {
  skip_if_no_python()
  d <- generics_data()
  d$x2[c(3L, 8L)] <- NA
  fits <- list(tree = ordinal_tree(y ~ x1 + x2, d, minsplit = 10L, xval = 0L,
                                   na.action = na.exclude),
               forest = ordinal_forest(y ~ x1 + x2, d, n_estimators = 5L, oob_score = FALSE,
                                       random_state = 2, na.action = na.exclude),
               frank_hall = frank_hall(y ~ x1 + x2, d, na.action = na.exclude))
  for (name in names(fits)) {
    fit <- fits[[name]]
    cls <- stats::fitted(fit)
    expect_length(cls, nrow(d))
    expect_true(is.ordered(cls), info = name)
    expect_identical(names(cls), rownames(d), info = name)
    expect_true(all(is.na(cls[c(3L, 8L)])), info = name)
    # the training rows through the fitted model (resubstitution)
    expect_identical(cls[-c(3L, 8L)], predict(fit, d[-c(3L, 8L), ]), info = name)
    prob <- stats::fitted(fit, type = "prob")
    expect_identical(dim(prob), c(nrow(d), 3L))
    r <- stats::residuals(fit)
    expect_type(r, "integer")
    expect_identical(names(r), rownames(d), info = name)
    expect_identical(unname(r), as.integer(d$y) - as.integer(cls), info = name)
    expect_identical(unname(stats::residuals(fit, type = "usual")),
                     as.integer(as.integer(d$y) != as.integer(cls)), info = name)
  }
  # a hand-checked stump: x < 2.5 is "lo"; the unit (x = 2, "hi") is one class too low
  s <- data.frame(x = c(1, 2, 3, 4, 2, 4))
  s$y <- factor(c("lo", "lo", "hi", "hi", "hi", "hi"), levels = c("lo", "hi"), ordered = TRUE)
  stump <- ordinal_tree(y ~ x, s, criterion = "gini", minsplit = 2L, minbucket = 1L, xval = 0L,
                        maxdepth = 1L)
  expect_identical(unname(stats::residuals(stump)), c(0L, 0L, 0L, 0L, 1L, 0L))
  # an unordered response has no class distances
  e <- edda(Species ~ ., iris, model = "EEE")
  expect_error(stats::residuals(e), "^residuals\\(\\): the response is an unordered factor")
  expect_identical(sum(stats::residuals(e, type = "usual")),
                   sum(predict(e) != iris$Species))
})

test_that("coef() gives EDDA's priors, means and covariances; a clear error elsewhere", {
  skip_if_no_python()
  fit <- edda(Species ~ ., iris, model = "VVV")
  cf <- coef(fit)
  expect_identical(names(cf), c("model", "priors", "means", "covariances"))
  expect_identical(cf$model, "VVV")
  vars <- names(iris)[1:4]
  expect_identical(dim(cf$covariances), c(4L, 4L, 3L))
  expect_identical(dimnames(cf$covariances), list(vars, vars, levels(iris$Species)))
  # VVV: each class's maximum-likelihood mean and covariance
  for (k in levels(iris$Species)) {
    x <- as.matrix(iris[iris$Species == k, vars])
    expect_equal(cf$means[k, ], colMeans(x), tolerance = 1e-12)
    expect_equal(cf$covariances[, , k], stats::cov(x) * (nrow(x) - 1) / nrow(x),
                 tolerance = 1e-10)
  }
  expect_equal(unname(cf$priors), rep(1 / 3, 3))
  if (requireNamespace("mclust", quietly = TRUE)) {
    suppressPackageStartupMessages(library(mclust))  # MclustDA calls mclust's functions by name
    m <- MclustDA(iris[vars], iris$Species, modelType = "EDDA", modelNames = "VVV",
                          verbose = FALSE)
    for (k in levels(iris$Species)) {  # EDDA's models: one per class
      expect_equal(cf$covariances[, , k], m$models[[k]]$parameters$variance$sigma[, , 1],
                   tolerance = 1e-10, ignore_attr = TRUE)
    }
  }
  d <- generics_data()
  set.seed(1)
  forest <- ordinal_forest(y ~ x1 + x2, d, n_estimators = 3L, oob_score = FALSE)
  expect_error(coef(forest), "^coef\\(\\): an ordinal_forest\\(\\) fit has no coefficients")
  tree <- ordinal_tree(y ~ x1 + x2, d, xval = 0L)
  expect_error(coef(tree), "^coef\\(\\): an ordinal_tree\\(\\) fit has no coefficients")
  expect_error(stats::logLik(forest), "^logLik\\(\\): an ordinal_forest\\(\\) fit has no likelihood")
  expect_s3_class(stats::logLik(tree), "logLik")  # the tree's: its leaves' multinomial
  expect_identical(stats::nobs(tree), nrow(d))
  expect_s3_class(stats::logLik(fit), "logLik")  # the generative models keep theirs
})
