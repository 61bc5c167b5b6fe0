# R habits: formula conventions (na.action, subset, weights, no data), rpart and mclust argument
# names, set.seed, criterion spellings, model objects of either factor kind.

small_tree <- function(...) ordinal_tree(..., minsplit = 10L, xval = 0L)

test_that("na.action: na.omit (default) drops rows, na.exclude pads with NA, na.fail refuses", {
  skip_if_no_python()
  d <- ordered_data(120)
  d$x2[c(4, 9)] <- NA
  d$y[20] <- NA
  fit <- small_tree(y ~ x1 + x2, d)
  complete <- d[stats::complete.cases(d[c("y", "x1", "x2")]), ]
  ref <- small_tree(y ~ x1 + x2, complete)
  expect_identical(fit$frame$var, ref$frame$var)
  expect_equal(fit$frame$n[1], nrow(d) - 3)
  expect_identical(sort(unname(as.integer(fit$na.action))), c(4L, 9L, 20L))
  expect_s3_class(fit$na.action, "omit")
  p <- predict(fit)
  expect_length(p, nrow(d) - 3)
  expect_identical(names(p), rownames(complete))
  expect_identical(predict(small_tree(y ~ x1 + x2, d, na.action = "na.omit"))[1:5], p[1:5])
  expect_output(print(fit), "3 observations deleted due to missingness")
  iris_na <- transform(iris, Sepal.Width = replace(Sepal.Width, 2, NA))
  expect_output(print(edda(Species ~ ., iris_na, model = "EEE")), "1 observation deleted")
  ex <- edda(Species ~ ., iris_na, model = "EEE", na.action = na.exclude)
  expect_identical(sum(summary(ex)$confusion), 149L)
  expect_true(is.na(predict(ex)[2]))
  grDevices::pdf(NULL)
  expect_invisible(plot(ex))
  grDevices::dev.off()
  direct <- ordinal_tree(y ~ x1 + x2, d, minsplit = 10L, xval = 0L)
  expect_identical(direct$frame$var, fit$frame$var)
  expect_identical(nrow(update(direct, cp = 0.5)$frame), 1L)  # update() refits from the call
  # na.exclude: the same tree, predictions padded to the rows of the data
  fe <- small_tree(y ~ x1 + x2, d, na.action = na.exclude)
  pe <- predict(fe)
  expect_length(pe, nrow(d))
  expect_true(all(is.na(pe[c(4, 9, 20)])))
  expect_identical(pe[-c(4, 9, 20)], p)
  expect_identical(dim(predict(fe, type = "prob")), c(nrow(d), nlevels(d$y)))
  # na.fail refuses missing values, with the name of the R function in the message
  expect_error(small_tree(y ~ x1 + x2, d, na.action = na.fail), "missing values")
  expect_error(small_tree(y ~ x1 + x2, d, na.action = 3), "'na.action' must be a function")
  # newdata gets predict()'s na.action (default na.pass, as predict.lm): the tree predicts
  # every row, na.omit drops, na.exclude pads NA, na.fail refuses
  new <- d[1:10, ]
  expect_identical(names(predict(fit, new)), as.character(1:10))
  expect_identical(names(predict(fit, new, na.action = na.omit)),
                   as.character(c(1:3, 5:8, 10)))
  expect_identical(unname(is.na(predict(fe, new, na.action = na.exclude))), 1:10 %in% c(4, 9))
  ff <- small_tree(y ~ x1 + x2, complete, na.action = na.fail)
  expect_error(predict(ff, new, na.action = na.fail), "missing values in 'x2'")
  expect_length(predict(ff, complete[1:3, ]), 3)
})

test_that("subset, weights as a column, and formulas without data work as in lm", {
  skip_if_no_python()
  d <- ordered_data(160)
  sub <- ordinal_tree(y ~ x1 + x2, d, subset = x1 > -0.5, minsplit = 10L, xval = 0L)
  ref <- small_tree(y ~ x1 + x2, d[d$x1 > -0.5, ])
  expect_identical(sub$frame$var, ref$frame$var)
  expect_equal(sub$frame$n[1], sum(d$x1 > -0.5))
  d$w <- rep(c(1, 2), length.out = nrow(d))
  by_name <- ordinal_tree(y ~ x1 + x2, d, weights = w, minsplit = 10L, xval = 0L)
  by_value <- small_tree(y ~ x1 + x2, d, weights = rep(c(1, 2), length.out = nrow(d)))
  expect_equal(by_name$frame$wt, by_value$frame$wt)
  expect_equal(by_name$frame$wt[1], sum(d$w))
  # no data: variables from the formula's environment
  y <- d$y
  x1 <- d$x1
  x2 <- d$x2
  free <- small_tree(y ~ x1 + x2)
  expect_identical(free$frame$var, small_tree(y ~ x1 + x2, d)$frame$var)
  expect_identical(predict(free, data.frame(x1 = x1[1:4], x2 = x2[1:4])), predict(free)[1:4])
  # EDDA: weight 2 on every unit is the data set twice (a hand-checkable invariance)
  e1 <- edda(Species ~ ., iris, model = "VVV", weights = rep(2, 150))
  e2 <- edda(Species ~ ., rbind(iris, iris), model = "VVV")
  expect_equal(e1$loglik, e2$loglik, tolerance = 1e-10)
  expect_equal(e1$means, e2$means, tolerance = 1e-12)
  sub_e <- edda(Species ~ Petal.Length + Petal.Width, iris, subset = Sepal.Length > 5,
                model = "EEE")
  expect_equal(nobs(sub_e), sum(iris$Sepal.Length > 5))
  expect_error(ordinal_tree(y ~ x1, d, subset = x1 > 100), "no rows left")
})

test_that("ordinal_tree takes rpart's control names, control = rpart.control(), and Python's", {
  skip_if_no_python()
  d <- ordered_data(200, seed = 3)
  a <- ordinal_tree(y ~ x1 + x2 + g, d, minsplit = 12, minbucket = 4, cp = 0.004, maxdepth = 3,
                    xval = 0)
  b <- ordinal_tree(y ~ x1 + x2 + g, d, control = rpart::rpart.control(
    minsplit = 12, minbucket = 4, cp = 0.004, maxdepth = 3, xval = 0))
  c <- ordinal_tree(y ~ x1 + x2 + g, d, min_split = 12L, min_bucket = 4L, cp = 0.004,
                    max_depth = 3L, xval = 0L)
  expect_identical(a$frame$var, b$frame$var)
  expect_identical(a$frame$var, c$frame$var)
  expect_gt(nrow(a$frame), 3)
  expect_lte(max(floor(log2(as.integer(rownames(a$frame))))), 3)
  expect_gte(min(a$frame$n), 4)
  # the same tree as R's rpart grown with the ordinal criterion and these controls
  rp <- rpart::rpart(y ~ x1 + x2 + g, d, method = ordinal_split("ordinal"),
                     control = rpart::rpart.control(minsplit = 12, minbucket = 4, cp = 0.004,
                                                    maxdepth = 3, xval = 0, maxsurrogate = 0,
                                                    maxcompete = 0))
  expect_identical(a$frame$var, rp$frame$var)
  # arguments given directly override control
  deep <- ordinal_tree(y ~ x1 + x2 + g, d, control = rpart::rpart.control(maxdepth = 1),
                       maxdepth = 3, minsplit = 12, minbucket = 4, cp = 0.004, xval = 0)
  expect_identical(deep$frame$var, a$frame$var)
  expect_error(ordinal_tree(y ~ x1, d, minsplit = 10, bogus = 1), "unknown argument 'bogus'")
  expect_error(ordinal_tree(y ~ x1, d, minsplit = 10, min_split = 10), "given twice")
  # the values are checked by Python only, its errors under rpart's names
  expect_parameter_error(ordinal_tree(y ~ x1, d, minsplit = 2.5), "ordinal_tree()", "minsplit",
                         "2.5", python = "min_split")
  expect_parameter_error(ordinal_tree(y ~ x1, d, control = list(maxdepth = 0)), "ordinal_tree()",
                         "maxdepth", python = "max_depth")
  expect_parameter_error(ordinal_tree(y ~ x1, d, cp = NA), "ordinal_tree()", "cp", "nan")
  expect_parameter_error(ordinal_tree(y ~ x1, d, min_bucket = 0), "ordinal_tree()",
                         "min_bucket", python = "minbucket")
  # Python's rules, not stricter ones of R's: a negative cp grows the tree as rpart's does
  expect_s3_class(ordinal_tree(y ~ x1, d, cp = -1, xval = 0), "ordinal_tree")
  expect_error(ordinal_tree(y ~ x1, d, control = 5), "'control' must be a list")
  expect_error(ordinal_tree(y ~ x1, d, weights = 1:3), "variable lengths differ")
  expect_error(ordinal_tree(y ~ x1, d, weights = nonexistent), "'weights' could not be evaluated")
})

test_that("set.seed() makes cross-validated fits identical; random_state is checked by Python", {
  skip_if_no_python()
  d <- ordered_data(150, seed = 4)
  set.seed(11)
  a <- ordinal_tree(y ~ x1 + x2 + g, d, minsplit = 10, cp = 0.002, xval = 5)
  set.seed(11)
  b <- ordinal_tree(y ~ x1 + x2 + g, d, minsplit = 10, cp = 0.002, xval = 5)
  expect_true("xerror" %in% colnames(a$cptable))
  expect_identical(a$cptable, b$cptable)
  # the seed comes from R's stream: different streams give different fold assignments
  xerr <- vapply(1:4, function(s) {
    set.seed(s)
    sum(ordinal_tree(y ~ x1 + x2 + g, d, minsplit = 10, cp = 0.002, xval = 5)$cptable[, "xerror"])
  }, numeric(1))
  expect_gt(length(unique(xerr)), 1L)
  fixed <- ordinal_tree(y ~ x1 + x2 + g, d, minsplit = 10, cp = 0.002, xval = 5,
                        random_state = 7)
  set.seed(99)
  again <- ordinal_tree(y ~ x1 + x2 + g, d, minsplit = 10, cp = 0.002, xval = 5,
                        random_state = 7)
  expect_identical(fixed$cptable, again$cptable)
  expect_parameter_error(ordinal_tree(y ~ x1, d, random_state = -1), "ordinal_tree()",
                         "random_state", "-1")
  expect_parameter_error(ordinal_tree(y ~ x1, d, random_state = "a"), "ordinal_tree()",
                         "random_state", "'a'")
})

test_that("every spelling of a criterion gives the same tree, stored under one name", {
  skip_if_no_python()
  d <- ordered_data(150)
  fits <- lapply(c("gini_linear", "linear", "Gini-Linear", "generalized_gini_linear"),
                 function(cr) small_tree(y ~ x1 + x2, d, criterion = cr))
  for (f in fits) {
    expect_identical(f$criterion, "gini_linear")
    expect_identical(f$frame$var, fits[[1]]$frame$var)
  }
  expect_identical(small_tree(y ~ x1 + x2, d, criterion = "quadratic")$criterion,
                   "gini_quadratic")
  expect_identical(ordstat:::criterion_name("ORDINAL", "f()"), "ordinal")
  s1 <- split_goodness(matrix(c(3, 1, 0), 1), matrix(c(0, 2, 4), 1), "gini_quadratic")
  s2 <- split_goodness(matrix(c(3, 1, 0), 1), matrix(c(0, 2, 4), 1), "quadratic")
  expect_identical(s1, s2)
  expect_parameter_error(small_tree(y ~ x1, d, criterion = c("gini", "ordinal")),
                         "ordinal_tree()", "criterion")
})

test_that("ordinal_tree is an rpart object too: printcp, plotcp, text; $rpart predicts ordered", {
  skip_if_no_python()
  d <- ordered_data(150)
  set.seed(1)
  fit <- ordinal_tree(y ~ x1 + x2 + g, d, minsplit = 10, cp = 0.005, xval = 5)
  expect_s3_class(fit, c("ordinal_tree", "ordstat_model", "rpart"), exact = TRUE)
  out <- capture.output(cp <- rpart::printcp(fit))
  expect_true(any(grepl("Root node error", out)))
  expect_equal(unname(cp), unname(fit$cptable))
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_silent(rpart::plotcp(fit))
  expect_silent(plot(fit))
  p <- predict(fit$rpart, d, type = "class")
  expect_true(is.ordered(p))
  expect_identical(levels(p), levels(d$y))
  expect_identical(as.character(p), as.character(predict(fit, d)))
  expect_false("rpart_from_tree" %in% getNamespaceExports("ordstat"))
})

test_that("edda and discrete_da: a plain factor in, a plain factor out; ordered stays ordered", {
  skip_if_no_python()
  d <- iris
  d$Species <- factor(d$Species, levels = c("virginica", "setosa", "versicolor"))
  fit <- edda(Species ~ ., d, model = "EEE")
  p <- predict(fit)
  expect_false(is.ordered(p))
  expect_identical(levels(p), levels(d$Species))
  prob <- predict(fit, d, type = "prob")
  expect_identical(colnames(prob), levels(d$Species))
  expect_identical(as.character(p), colnames(prob)[max.col(prob)])
  expect_gt(mean(p == d$Species), 0.95)
  do <- d
  do$Species <- factor(d$Species, levels = levels(d$Species), ordered = TRUE)
  po <- predict(edda(Species ~ ., do, model = "EEE"))
  expect_true(is.ordered(po))
  expect_identical(as.character(po), as.character(p))
  set.seed(2)
  dd <- data.frame(a = factor(sample(c("u", "v"), 90, TRUE)),
                   b = factor(sample(c("x", "y", "z"), 90, TRUE)))
  dd$y <- factor(ifelse(dd$a == "u", "zeta", "alpha"), levels = c("zeta", "alpha"))
  for (model in c("fmm", "foim", "kernel")) {
    f <- discrete_da(y ~ a + b, dd, model = model)
    q <- predict(f, dd)
    expect_false(is.ordered(q))
    expect_identical(levels(q), c("zeta", "alpha"))
    expect_identical(as.character(q), as.character(dd$y))
  }
  expect_error(edda(as.character(Species) ~ ., d), "must be a factor")
  expect_error(discrete_da(y ~ a + b, dd, bogus = 1), "unknown argument 'bogus'")
  expect_parameter_error(discrete_da(y ~ a, dd, priors = c(0.2, 0.2)), "discrete_da()",
                         "priors")
  expect_parameter_error(discrete_da(y ~ a, dd, priors = c(0.2, 0.3, 0.5)), "discrete_da()",
                         "priors")
})

test_that("edda takes mclust's model names and modelNames =; Python's errors use R's names", {
  skip_if_no_python()
  a <- edda(Species ~ ., iris, modelNames = "VEI")
  b <- edda(Species ~ ., iris, model = "vei")
  expect_identical(a$model, "VEI")
  expect_equal(a$loglik, b$loglik)
  one <- edda(Species ~ Petal.Length, iris, modelNames = c("E", "V"), select = "bic")
  ref <- edda(Species ~ Petal.Length, iris, model = c("EII", "VII"), select = "bic")
  expect_identical(one$model, ref$model)
  expect_equal(one$loglik, ref$loglik)
  # "E" and "V" are mclust's names with one predictor only
  expect_parameter_error(edda(Species ~ ., iris, modelNames = "E"), "edda()", "modelNames",
                         "'E'", python = "model")
  expect_parameter_error(edda(Species ~ ., iris, modelNames = "XYZ"), "edda()", "modelNames",
                         "'XYZ'", python = "model")
  expect_parameter_error(edda(Species ~ ., iris, models = "XYZ"), "edda()", "models", "'XYZ'",
                         python = "model")
  expect_parameter_error(edda(Species ~ ., iris, model = "XYZ"), "edda()", "model", "'XYZ'")
  expect_error(edda(Species ~ ., iris, model = "EEE", modelNames = "VVV"), "give the models once")
  expect_error(edda(Species ~ ., iris, tolerance = 1), "unknown argument 'tolerance'")
  expect_parameter_error(edda(Species ~ ., iris, reg_covar = -1), "edda()", "reg_covar", "-1")
  expect_parameter_error(edda(Species ~ ., iris, select = "aic"), "edda()", "select", "'aic'")
  # an error raised in Python reaches R as a plain R error, prefixed by the R function
  d <- transform(iris, Sepal.Length = ifelse(Species == "setosa", 1, Sepal.Length))
  err <- tryCatch(edda(Species ~ ., d, model = "VVV"), error = function(e) e)
  expect_match(conditionMessage(err), "^edda\\(\\): EDDA model 'VVV'.*'setosa' is singular")
  expect_false(grepl("Traceback|ValueError", conditionMessage(err)))
})

test_that("the model helpers other wrappers call: prepare_fit, persistence", {
  skip_if_no_python()
  d <- ordered_data(100)
  d$x1[3] <- NA
  all_rows <- ordstat:::prepare_fit(quote(f(formula = y ~ x1 + x2, data = d)), environment(),
                                    "f()")
  call <- quote(f(formula = y ~ x1 + x2, data = d, subset = x2 > 0.2))
  new <- ordstat:::prepare_fit(call, environment(), "f()", stats::na.omit)
  expect_identical(nrow(all_rows$x), 99L)
  expect_identical(nrow(new$x), sum(d$x2 > 0.2 & !is.na(d$x1)))
  expect_error(ordstat:::prepare_fit(quote(f(formula = y ~ x1, data = d)), environment(), "f()",
                                     stats::na.fail), "missing values")
  expect_error(ordstat:::prepare_fit(quote(f(formula = y ~ x1, data = list(1))), environment(),
                                     "f()"), "'data' must be a data frame")
  py <- ordstat:::py_fit("tree", list(min_split = 10L, xval = 0L), all_rows)
  obj <- ordstat:::new_model(py, all_rows, quote(f()))
  expect_true(is.raw(obj$pickle))
  codes <- ordstat:::py_value(ordstat:::rside()$predict_codes(py, ordstat:::py_frame(all_rows$x)))
  expect_identical(as.integer(ordstat:::predict_py(obj, "class", "f()")) - 1L,
                   as.integer(codes))
  expect_identical(ordstat:::random_seed(5), 5)
  set.seed(3)
  a <- ordstat:::random_seed(NULL)
  set.seed(3)
  expect_identical(ordstat:::random_seed(NULL), a)
})
