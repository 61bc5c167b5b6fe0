# The ensemble, decomposition and combining wrappers follow the R conventions of ordinal_tree(): set.seed(),
# saveRDS() into a new session, unknown arguments, subset, weights, na.action.

# Each wrapper with small settings; `stochastic` ones draw their seed from R's random numbers.
# Ensembles of a few trees have no out-of-bag scores (units in every bootstrap sample would
# warn), except the forest, with enough trees for its out-of-bag line.
wrappers <- list(
  ordinal_bagging = list(fun = "ordinal_bagging", args = list(n_estimators = 4L, oob_score = FALSE),
                         stochastic = TRUE, weights = TRUE),
  fixed_split = list(fun = "ordinal_bagging", args = list(fixed_split = TRUE, n_estimators = 3L),
                     stochastic = TRUE, weights = TRUE),
  ordinal_forest = list(fun = "ordinal_forest", args = list(n_estimators = 20L),
                        stochastic = TRUE, weights = TRUE),
  ordinal_boosting = list(fun = "ordinal_boosting", args = list(n_estimators = 4L),
                          stochastic = TRUE, weights = TRUE),
  frank_hall = list(fun = "frank_hall", args = list(estimator = "tree"), stochastic = TRUE,
                    weights = TRUE),
  data_replication = list(fun = "data_replication", args = list(), stochastic = TRUE,
                          weights = TRUE),
  odt = list(fun = "odt", args = list(), stochastic = FALSE, weights = TRUE),
  oadaboost = list(fun = "oadaboost", args = list(n_estimators = 5L), stochastic = FALSE,
                   weights = TRUE),
  adaboost_or = list(fun = "adaboost_or", args = list(n_estimators = 5L), stochastic = TRUE,
                     weights = TRUE),
  weighted_svm = list(fun = "weighted_svm", args = list(gamma = 1), stochastic = FALSE,
                      weights = TRUE),
  # the combiners: out-of-fold posteriors and v-fold errors make them depend on the seed
  serial_combine = list(fun = "serial_combine", args = list(posteriors = "cv", cv = 3),
                        stochastic = TRUE, weights = FALSE),
  hierarchical_coupling = list(fun = "hierarchical_coupling",
                               args = list(candidates = c("EII", "VVV"), cv = 3),
                               stochastic = TRUE, weights = FALSE))

# The call is built with the expressions given (as subset = quote(x1 > 0)), so that they are
# evaluated in `data` as in a direct call.
fit_wrapper <- function(w, data, ...) {
  do.call(w$fun, c(list(y ~ x1 + x2, data = data), w$args, list(...)))
}

wrapper_data <- function(n = 90, seed = 7) {
  set.seed(seed)
  d <- data.frame(x1 = stats::rnorm(n), x2 = stats::runif(n))
  z <- d$x1 + 2 * d$x2 + stats::rnorm(n, sd = 0.5)
  d$y <- cut(z, c(-Inf, 0.3, 1.6, Inf), labels = c("low", "mid", "high"),
             ordered_result = TRUE)
  d
}

both_predictions <- function(fit, newdata) {
  list(class = predict(fit, newdata),
       prob = if (isTRUE(fit$has_proba)) predict(fit, newdata, type = "prob"))
}

test_that("set.seed() twice gives identical fits; another seed another ensemble", {
  skip_if_no_python()
  d <- wrapper_data()
  for (name in names(wrappers)) {
    w <- wrappers[[name]]
    set.seed(1)
    a <- fit_wrapper(w, d)
    set.seed(1)
    b <- fit_wrapper(w, d)
    expect_identical(both_predictions(a, d), both_predictions(b, d), info = name)
    p <- predict(a, d)
    expect_true(is.ordered(p), info = name)
    expect_identical(levels(p), levels(d$y), info = name)
    if (isTRUE(a$has_proba)) {
      expect_identical(colnames(predict(a, d, type = "prob")), levels(d$y), info = name)
    }
  }
  # the seed really comes from R's stream: bagging's vote shares differ between seeds
  shares <- lapply(1:3, function(s) {
    set.seed(s)
    predict(ordinal_bagging(y ~ x1 + x2, d, n_estimators = 4L, oob_score = FALSE), d,
            type = "prob")
  })
  expect_false(identical(shares[[1]], shares[[2]]) && identical(shares[[2]], shares[[3]]))
  # an explicit random_state wins over set.seed()
  set.seed(5)
  f1 <- ordinal_forest(y ~ x1 + x2, d, n_estimators = 4L, random_state = 3, oob_score = FALSE)
  set.seed(6)
  f2 <- ordinal_forest(y ~ x1 + x2, d, n_estimators = 4L, random_state = 3, oob_score = FALSE)
  expect_identical(predict(f1, d, type = "prob"), predict(f2, d, type = "prob"))
  # numpy's message for a negative seed does not name random_state (until FrankHallClassifier
  # declares random_state among its parameter constraints)
  expect_error(frank_hall(y ~ x1, d, random_state = -2),
               "^frank_hall\\(\\): .*(random_state|non-negative)")
})

test_that("every wrapper predicts identically after saveRDS/readRDS in a new R session", {
  skip_if_no_python()
  d <- wrapper_data()
  set.seed(2)
  fits <- lapply(wrappers, fit_wrapper, data = d)
  expected <- lapply(fits, both_predictions, newdata = d)
  dir <- tempfile("persist")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  saveRDS(list(fits = fits, d = d), file.path(dir, "fits.rds"))
  code <- sprintf('
    suppressPackageStartupMessages(library(ordstat))
    f <- readRDS("%1$s/fits.rds")
    out <- lapply(f$fits, function(fit) list(
      class = predict(fit, f$d),
      prob = if (isTRUE(fit$has_proba)) predict(fit, f$d, type = "prob")))
    out$summary <- capture.output(print(summary(f$fits$odt)), print(f$fits$ordinal_forest),
                                  print(summary(f$fits$serial_combine, loo = TRUE)),
                                  print(summary(f$fits$hierarchical_coupling)))
    saveRDS(out, "%1$s/out.rds")
    cat("done\\n")', dir)
  out <- rscript(code)
  expect_true("done" %in% out, info = paste(out, collapse = "\n"))
  got <- readRDS(file.path(dir, "out.rds"))
  for (name in names(wrappers)) expect_identical(got[[name]], expected[[name]], info = name)
  expect_true(any(grepl("Training confusion table", got$summary)))
  expect_true(any(grepl("Out-of-bag", got$summary)))
  expect_true(any(grepl("Leave-one-out error of the whole procedure", got$summary)))
  expect_true(any(grepl("Nodes:", got$summary)))
})

test_that("unknown arguments are R errors naming them", {
  skip_if_no_python()
  d <- wrapper_data(40)
  for (name in names(wrappers)) {
    expect_error(fit_wrapper(wrappers[[name]], d, bogus_arg = 1),
                 "unknown argument 'bogus_arg'", info = name)
  }
  # the Python names the wrappers do not set themselves are accepted
  fit <- ordinal_forest(y ~ x1 + x2, d, n_estimators = 3L, max_depth = 1L, random_state = 1,
                        oob_score = FALSE)
  expect_lte(length(unique(predict(fit, d))), 3L)
  expect_error(odt(y ~ x1, d, classes = c("a", "b")), "unknown argument 'classes'")
  # n_jobs is checked by the Python class, also when it would not run in parallel
  expect_parameter_error(ordinal_boosting(y ~ x1, d, n_jobs = 0), "ordinal_boosting()", "n_jobs",
                         "got 0")
  expect_parameter_error(serial_combine(y ~ x1, d, models = c("EII", "VII"), n_jobs = 1.5),
                         "serial_combine()", "n_jobs", "1.5")
})

test_that("bad parameter values are Python's errors, naming the R function and argument", {
  skip_if_no_python()
  d <- wrapper_data(40)
  expect_parameter_error(ordinal_bagging(y ~ x1, d, n_estimators = 2.5), "ordinal_bagging()",
                         "n_estimators", "2.5")
  expect_parameter_error(ordinal_bagging(y ~ x1, d, n_estimators = 0), "ordinal_bagging()",
                         "n_estimators")
  expect_parameter_error(ordinal_bagging(y ~ x1, d, min_split = 0), "ordinal_bagging()",
                         "min_split")
  expect_parameter_error(ordinal_bagging(y ~ x1, d, aggregation = "mean"), "ordinal_bagging()",
                         "aggregation", "'mean'")
  expect_parameter_error(ordinal_bagging(y ~ x1, d, fixed_split = TRUE, max_leaf_nodes = 1),
                         "ordinal_bagging()", "max_leaf_nodes")
  expect_parameter_error(ordinal_forest(y ~ x1, d, criterion = "bogus"), "ordinal_forest()",
                         "criterion", "'bogus'")
  expect_parameter_error(odt(y ~ x1, d, max_depth = 0), "odt()", "max_depth")
  # R's NA crosses as NaN, which Python refuses (reticulate would make a logical NA True)
  expect_parameter_error(odt(y ~ x1, d, prune = NA), "odt()", "prune", "nan")
  expect_parameter_error(ordinal_boosting(y ~ x1, d, weighted = NA), "ordinal_boosting()",
                         "weighted", "nan")
  expect_parameter_error(weighted_svm(y ~ x1, d, C = 0), "weighted_svm()", "C")
  # Python's rules, not stricter ones of R's: trees of one-unit nodes may split
  set.seed(1)
  fit <- ordinal_bagging(y ~ x1 + x2, d, n_estimators = 2, min_split = 1, cp = 0,
                         oob_score = FALSE)
  tree <- ordstat:::py_model(fit)$estimator
  expect_identical(reticulate::py_to_r(tree$min_split), 1L)
  expect_identical(levels(predict(fit, d)), levels(d$y))
  set.seed(1)
  forest <- ordinal_forest(y ~ x1 + x2, d, n_estimators = 2, min_split = 1, oob_score = FALSE)
  expect_identical(reticulate::py_to_r(ordstat:::py_model(forest)$min_split), 1L)
})

test_that("subset selects the rows as in lm, for every wrapper", {
  skip_if_no_python()
  d <- wrapper_data(100)
  for (name in names(wrappers)) {
    w <- wrappers[[name]]
    set.seed(3)
    a <- fit_wrapper(w, d, subset = quote(x1 > -0.5))
    set.seed(3)
    b <- fit_wrapper(w, d[d$x1 > -0.5, ])
    expect_identical(nrow(a$x), sum(d$x1 > -0.5), info = name)
    expect_identical(both_predictions(a, d), both_predictions(b, d), info = name)
  }
  expect_error(odt(y ~ x1 + x2, d, subset = x1 > 100), "no rows left")
})

test_that("weights: a column or a vector where Python takes them, an error naming them if not", {
  skip_if_no_python()
  d <- wrapper_data(100)
  d$w <- ifelse(d$y == "high", 25, 1)
  for (name in names(wrappers)) {
    w <- wrappers[[name]]
    if (!w$weights) {
      expect_error(fit_wrapper(w, d, weights = quote(w)), "'weights' are not supported",
                   info = name)
      next
    }
    # the forest's units of weight 25 are in every bootstrap sample (a warning about its
    # out-of-bag scores, as 25 repeated rows would give)
    set.seed(4)
    by_name <- suppressWarnings(fit_wrapper(w, d, weights = quote(w)))
    set.seed(4)
    by_value <- suppressWarnings(fit_wrapper(w, d, weights = d$w))
    set.seed(4)
    plain <- fit_wrapper(w, d)
    expect_identical(predict(by_name, d), predict(by_value, d), info = name)
    # a heavy weight on the top class pulls predictions towards it
    expect_gt(sum(predict(by_name, d) == "high"), sum(predict(plain, d) == "high"))
  }
  # unit weights are no weights (deterministic oDT); integer weights are not repeated rows
  # since oDT's min_samples_leaf counts units (the tree package's split search)
  d$k <- rep(1, nrow(d))
  expect_identical(predict(odt(y ~ x1 + x2, d, weights = k), d),
                   predict(odt(y ~ x1 + x2, d), d))
  expect_error(odt(y ~ x1 + x2, d, weights = -k), "'weights' must be")
  expect_error(ordinal_forest(y ~ x1 + x2, d, weights = -k), "'weights' must be")
})

test_that("ensembles: a frequency table's counts as weights grow the ensemble of its rows", {
  skip_if_no_python()
  d <- wrapper_data(60)
  set.seed(2)
  d$n <- sample(0:3, nrow(d), replace = TRUE)
  rows <- d[rep(seq_len(nrow(d)), d$n), ]
  fits <- list(
    forest = function(data, ...) ordinal_forest(y ~ x1 + x2, data, n_estimators = 8L,
                                                oob_score = FALSE, random_state = 5L, ...),
    bagging = function(data, ...) ordinal_bagging(y ~ x1 + x2, data, n_estimators = 5L,
                                                  oob_score = FALSE, random_state = 5L, ...),
    fixed_split = function(data, ...) ordinal_bagging(y ~ x1 + x2, data, fixed_split = TRUE,
                                                      n_estimators = 3L, random_state = 5L, ...),
    boosting = function(data, ...) ordinal_boosting(y ~ x1 + x2, data, n_estimators = 3L,
                                                    boost_by = "weight", random_state = 5L,
                                                    ...))
  for (name in names(fits)) {
    weighted <- fits[[name]](d, weights = d$n)
    repeated <- fits[[name]](rows)
    expect_identical(unname(predict(weighted, d)), unname(predict(repeated, d)), info = name)
  }
  # the forest's out-of-bag confusion sums the weights of the units out of bag
  forest <- suppressWarnings(ordinal_forest(y ~ x1 + x2, d, weights = n + 0.5,
                                            n_estimators = 30L, random_state = 1L))
  expect_type(forest$oob_confusion, "double")
  expect_output(print(forest), "OOB estimate of")
})

test_that("na.action: na.omit drops rows, na.exclude pads predictions with NA", {
  skip_if_no_python()
  d <- wrapper_data(80)
  d$x2[c(3, 10)] <- NA
  set.seed(1)
  omit <- ordinal_forest(y ~ x1 + x2, d, n_estimators = 3L, oob_score = FALSE)
  expect_identical(nrow(omit$x), 78L)
  expect_output(print(omit), "2 observations deleted due to missingness")
  ex <- odt(y ~ x1 + x2, d, na.action = na.exclude)
  p <- predict(ex)
  expect_length(p, 80L)
  expect_true(all(is.na(p[c(3, 10)])))
  expect_identical(dim(predict(ex, d[1:12, ], type = "prob")), c(12L, 3L))
  expect_identical(sum(summary(ex)$confusion), 78L)
  expect_length(predict(omit, d[1:12, ]), 12L)  # the forest predicts rows with missing x2
  expect_length(predict(omit, d[1:12, ], na.action = na.omit), 10L)
  expect_error(frank_hall(y ~ x1 + x2, d, na.action = na.fail), "missing values")
  # data optional: variables from the formula's environment
  y <- d$y[-c(3, 10)]
  x1 <- d$x1[-c(3, 10)]
  x2 <- d$x2[-c(3, 10)]
  expect_identical(unname(predict(odt(y ~ x1 + x2))), unname(predict(odt(y ~ x1 + x2, d))))
})
