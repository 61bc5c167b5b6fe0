# One set of names: the R package spells metrics and criteria as the Python package and the
# ordstat command do, and matches option names without regard to case.

test_that("R's criterion table is the Python one", {
  skip_if_no_python()
  tables <- reticulate::py_to_r(ordstat:::rside()$name_tables())
  expect_identical(ordstat:::.criterion_canonical, unlist(tables$criteria))
  py_aliases <- unlist(tables$criterion_aliases)
  expect_identical(ordstat:::.criterion_aliases[order(names(ordstat:::.criterion_aliases))],
                   py_aliases[order(names(py_aliases))])
  expect_identical(names(ordinal_metrics(factor(c("a", "b"), ordered = TRUE),
                                         factor(c("a", "b"), ordered = TRUE))),
                   unlist(tables$metrics))
})

test_that("option names ignore case, blanks and '-' for '_', and take abbreviations", {
  choices <- c("committee", "likelihood", "aic", "bic", "integrated")
  expect_identical(ordstat:::match_name(choices, choices, "f()", "method"), "committee")
  expect_identical(ordstat:::match_name(" BIC ", choices, "f()", "method"), "bic")
  expect_identical(ordstat:::match_name("Lik", choices, "f()", "method"), "likelihood")
  expect_identical(ordstat:::match_name("resub-stitution", "resub_stitution", "f()", "x"),
                   "resub_stitution")
  expect_error(ordstat:::match_name("chi2", choices, "f()", "method"),
               'f\\(\\): unknown method "chi2"; use one of "committee"')
  expect_error(ordstat:::match_name(c("aic", "bic"), choices, "f()", "method"),
               "'method' must be one string")
})

test_that("discrete_da(), edda() and serial_combine() take option names in any case", {
  skip_if_no_python()
  set.seed(1)
  d <- data.frame(a = factor(sample(0:1, 60, TRUE)), b = factor(sample(0:1, 60, TRUE)))
  d$y <- factor(ifelse(d$a == "1", "high", "low"), levels = c("low", "high"))
  upper <- discrete_da(y ~ a + b, d, model = "FOIM")
  lower <- discrete_da(y ~ a + b, d, model = "foim")
  expect_identical(upper$model, "foim")
  expect_equal(predict(upper, d, type = "prob"), predict(lower, d, type = "prob"))
  expect_error(discrete_da(y ~ a + b, d, model = "naive"),
               'discrete_da\\(\\): unknown model "naive"')
  fit <- edda(Species ~ ., iris, model = c("EII", "VVV"), select = "BIC")
  expect_identical(fit$model, edda(Species ~ ., iris, model = c("EII", "VVV"),
                                   select = "bic")$model)
  comb <- serial_combine(Species ~ ., iris, models = c("EEI", "EII"), method = "AIC")
  expect_s3_class(comb, "ordstat_serial")
})

test_that("other packages' argument names: aliases, refusals and did-you-mean", {
  fa <- ordstat:::foreign_args
  out <- fa(list(ntree = 5, mtry = 2, nodesize = 3, other = 1),
            aliases = c(ntree = "n_estimators", mtry = "max_features", nodesize = "min_bucket"),
            refused = c(sampsize = "no."), caller = "f()",
            formal = c(n_estimators = FALSE, max_features = FALSE),
            known = c("min_bucket", "other"))
  expect_identical(out$formals, list(n_estimators = 5, max_features = 2))
  expect_identical(out$dots, list(min_bucket = 3, other = 1))
  expect_error(fa(list(sampsize = 5), c(), c(sampsize = "no such thing."), "f()", c()),
               "^f\\(\\): argument 'sampsize' is not supported: no such thing\\.$")
  expect_error(fa(list(ntree = 5), c(ntree = "n_estimators"), c(), "f()",
                  c(n_estimators = TRUE)),
               "'ntree' and 'n_estimators' are the same argument")
  expect_error(fa(list(n.estimators = 5), c(), c(), "f()", c(n_estimators = FALSE)),
               "unknown argument 'n.estimators'; did you mean 'n_estimators'\\?")
  # a misspelt alias suggests the name it stands for
  expect_error(fa(list(ntrees = 5), c(ntree = "n_estimators"), c(), "f()",
                  c(n_estimators = FALSE)), "did you mean 'n_estimators'")
  # nothing close: left for the unknown-argument check
  expect_identical(fa(list(zzz = 1), c(), c(), "f()", c(n_estimators = FALSE))$dots,
                   list(zzz = 1))
  expect_identical(ordstat:::did_you_mean("min.node.size", c("min_node_size", "max_depth")),
                   "min_node_size")
  expect_true(is.na(ordstat:::did_you_mean("alpha", c("n_estimators", "max_depth"))))
})
