# predict() keeps one prediction per row of newdata, as predict.lm() and predict.rpart() do: the
# models that handle missing predictors (the tree, the tree ensembles) predict rows with missing
# values, the others give NA there; predict()'s na.action (default na.pass) is honoured.

na_data <- function(n = 90, seed = 7) {
  set.seed(seed)
  d <- data.frame(x1 = round(stats::rnorm(n), 3), x2 = round(stats::runif(n), 3))
  z <- d$x1 + 2 * d$x2 + stats::rnorm(n, sd = 0.5)
  d$y <- cut(z, c(-Inf, 0.3, 1.6, Inf), labels = c("low", "mid", "high"),
             ordered_result = TRUE)
  d
}

# Ten rows named "r1".."r10", with x2 missing in rows 2 and 7 and x1 in row 9.
na_newdata <- function(d) {
  new <- d[1:10, c("x1", "x2")]
  rownames(new) <- paste0("r", 1:10)
  new$x2[c(2L, 7L)] <- NA
  new$x1[9L] <- NA
  new
}

na_rows <- c(2L, 7L, 9L)

test_that("the tree and the forest predict every row of newdata, missing predictors too", {
  skip_if_no_python()
  d <- na_data()
  new <- na_newdata(d)
  set.seed(1)
  fits <- list(tree = ordinal_tree(y ~ x1 + x2, d, minsplit = 10L, xval = 0L),
               forest = ordinal_forest(y ~ x1 + x2, d, n_estimators = 10L, oob_score = FALSE))
  for (name in names(fits)) {
    fit <- fits[[name]]
    p <- predict(fit, new)
    expect_length(p, nrow(new))
    expect_identical(names(p), rownames(new), info = name)
    expect_false(anyNA(p), info = name)  # the model handles the missing values
    expect_true(is.ordered(p), info = name)
    # the complete rows are predicted as without the incomplete ones
    expect_identical(unname(p[-na_rows]), unname(predict(fit, new[-na_rows, ])), info = name)
    prob <- predict(fit, new, type = "prob")
    expect_identical(dim(prob), c(nrow(new), 3L))
    expect_identical(rownames(prob), rownames(new), info = name)
    expect_false(anyNA(prob), info = name)
    expect_equal(unname(rowSums(prob)), rep(1, nrow(new)))
  }
})

test_that("models without missing-value handling give NA for those rows, keeping the rows", {
  skip_if_no_python()
  d <- na_data()
  new <- na_newdata(d)
  fits <- list(frank_hall = frank_hall(y ~ x1 + x2, d, random_state = 1),
               edda = edda(y ~ x1 + x2, d, model = "VVV"))
  for (name in names(fits)) {
    fit <- fits[[name]]
    p <- predict(fit, new)
    expect_length(p, nrow(new))
    expect_identical(names(p), rownames(new), info = name)
    expect_identical(which(is.na(p)), stats::setNames(na_rows, rownames(new)[na_rows]),
                     info = name)
    expect_identical(levels(p), levels(d$y), info = name)
    expect_identical(unname(p[-na_rows]), unname(predict(fit, new[-na_rows, ])), info = name)
    prob <- predict(fit, new, type = "prob")
    expect_identical(dim(prob), c(nrow(new), 3L))
    expect_identical(rownames(prob), rownames(new), info = name)
    expect_true(all(is.na(prob[na_rows, ])), info = name)
    expect_equal(prob[-na_rows, ], predict(fit, new[-na_rows, ], type = "prob"), info = name)
  }
})

test_that("predict()'s na.action: na.omit drops, na.exclude pads NA, na.fail refuses", {
  skip_if_no_python()
  d <- na_data()
  new <- na_newdata(d)
  fits <- list(tree = ordinal_tree(y ~ x1 + x2, d, minsplit = 10L, xval = 0L),
               edda = edda(y ~ x1 + x2, d, model = "EEE"))
  for (name in names(fits)) {
    fit <- fits[[name]]
    omitted <- predict(fit, new, na.action = na.omit)
    expect_identical(names(omitted), rownames(new)[-na_rows], info = name)
    expect_identical(omitted, predict(fit, new[-na_rows, ]), info = name)
    expect_identical(predict(fit, new, na.action = "na.omit"), omitted, info = name)
    prob <- predict(fit, new, type = "prob", na.action = na.omit)
    expect_identical(rownames(prob), rownames(new)[-na_rows], info = name)
    # na.exclude: NA in the dropped rows, even for a model that could predict them
    excluded <- predict(fit, new, na.action = na.exclude)
    expect_identical(names(excluded), rownames(new), info = name)
    expect_identical(which(is.na(excluded)), stats::setNames(na_rows, rownames(new)[na_rows]))
    expect_identical(excluded[-na_rows], omitted, info = name)
    expect_identical(dim(predict(fit, new, type = "prob", na.action = na.exclude)), c(10L, 3L))
    # na.fail: an R error naming the columns with missing values
    err <- expect_error(predict(fit, new, na.action = na.fail), "na.action")
    expect_match(conditionMessage(err), "'x1', 'x2'")
    expect_length(predict(fit, new[-na_rows, ], na.action = na.fail), 7L)
    expect_error(predict(fit, new, na.action = 3), "'na.action' must be a function")
    # other arguments in ... are ignored, as by predict.lm()
    expect_identical(predict(fit, new, bogus = 1), predict(fit, new), info = name)
  }
})

test_that("every predict method keeps the rows and takes na.action", {
  skip_if_no_python()
  d <- na_data()
  new <- na_newdata(d)
  set.seed(2)
  fits <- list(
    bagging = ordinal_bagging(y ~ x1 + x2, d, n_estimators = 3L, oob_score = FALSE),
    boosting = ordinal_boosting(y ~ x1 + x2, d, n_estimators = 3L),
    odt = odt(y ~ x1 + x2, d),
    weighted_svm = weighted_svm(y ~ x1 + x2, d),
    serial = serial_combine(y ~ x1 + x2, d, models = c("EII", "VVV"), posteriors = "cv",
                            cv = 3),
    coupling = hierarchical_coupling(y ~ x1 + x2, d, candidates = c("EII", "VVV"), cv = 3))
  handles_missing <- c("bagging", "boosting")
  for (name in names(fits)) {
    fit <- fits[[name]]
    p <- predict(fit, new)
    expect_length(p, nrow(new))
    expect_identical(names(p), rownames(new), info = name)
    expect_identical(anyNA(p[na_rows]), !name %in% handles_missing, info = name)
    expect_false(anyNA(p[-na_rows]), info = name)
    expect_identical(names(predict(fit, new, na.action = na.omit)), rownames(new)[-na_rows],
                     info = name)
    expect_error(predict(fit, new, na.action = na.fail), "missing values", info = name)
  }
})

test_that("without newdata, the training rows are predicted as before (na.exclude pads)", {
  skip_if_no_python()
  d <- na_data()
  d$x2[c(4L, 5L)] <- NA
  fit <- frank_hall(y ~ x1 + x2, d, na.action = na.exclude, random_state = 1)
  p <- predict(fit, na.action = na.omit)  # the fit's na.action decides here, as in lm
  expect_length(p, nrow(d))
  expect_true(all(is.na(p[4:5])))
  expect_identical(p[-(4:5)], predict(fit, d[-(4:5), ]))
})

test_that("text in a numeric column of newdata is an error naming the column, not NA", {
  skip_if_no_python()
  d <- na_data()
  fits <- list(tree = ordinal_tree(y ~ x1 + x2, d, minsplit = 10L, xval = 0L),
               edda = edda(y ~ x1 + x2, d))
  new <- d[1:6, c("x1", "x2")]
  commas <- transform(new, x2 = sub(".", ",", format(x2), fixed = TRUE))
  as_text <- transform(new, x2 = format(x2))
  for (fit in fits) {
    expect_error(predict(fit, commas),
                 "column 'x2' was numeric when the model was fitted but holds text: \"0,")
    expect_error(predict(fit, commas), "decimal commas\\?")
    # numbers written as text are the numbers
    expect_identical(predict(fit, as_text), predict(fit, new))
  }
  expect_error(predict(fits$tree, transform(new, x1 = "high")),
               "column 'x1' was numeric .* holds text: \"high\"\\.$")
})
