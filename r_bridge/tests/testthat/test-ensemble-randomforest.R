# The ensembles as randomForest and ranger users use them: unordered factors (Boston's chas),
# out-of-bag predictions without newdata, importance(), their argument names, the out-of-bag
# print.

test_that("unordered factors (Boston's chas) go through the forest, bagging and boosting", {
  skip_if_no_python()
  d <- boston_ranks()
  numeric <- transform(d, chas = as.double(chas == "1"))
  fits <- list(
    forest = function(data) ordinal_forest(rank ~ ., data, n_estimators = 10, random_state = 1,
                                           oob_score = FALSE),
    bagging = function(data) ordinal_bagging(rank ~ ., data, n_estimators = 10,
                                             random_state = 1, oob_score = FALSE),
    boosting = function(data) ordinal_boosting(rank ~ ., data, n_estimators = 5,
                                               random_state = 1))
  for (name in names(fits)) {
    fit <- fits[[name]](d)
    expect_true(is.factor(fit$x$chas), info = name)
    p <- predict(fit, d[1:40, ])
    expect_length(p, 40L)
    expect_identical(levels(p), levels(d$rank))
    # a two-level factor splits as the 0/1 column does: (nearly) the same trees (ties between
    # equally good splits may go another way)
    agree <- mean(predict(fit, d) == predict(fits[[name]](numeric), numeric))
    expect_gt(agree, 0.95)
  }
  # new data must carry the training levels
  expect_error(predict(fits$forest(d), transform(d[1:5, ], chas = factor("2"))), "chas")
})

test_that("predict() without newdata gives out-of-bag predictions, as predict.randomForest", {
  skip_if_no_python()
  d <- boston_ranks()
  set.seed(3)
  fit <- ordinal_forest(rank ~ ., d, n_estimators = 30)
  oob <- predict(fit)
  train <- predict(fit, d)
  expect_length(oob, nrow(d))
  expect_identical(levels(oob), levels(d$rank))
  # the training-set fit is (nearly) perfect; the out-of-bag error is the one printed
  expect_lt(mean(train != d$rank), 0.05)
  expect_equal(mean(oob != d$rank, na.rm = TRUE), fit$oob[["misclassification"]])
  expect_gt(mean(oob != d$rank, na.rm = TRUE), 0.15)
  prob <- predict(fit, type = "prob")
  expect_identical(dim(prob), c(nrow(d), nlevels(d$rank)))
  expect_identical(colnames(prob), levels(d$rank))
  seen <- !is.na(oob)
  expect_equal(unname(rowSums(prob[seen, ])), rep(1, sum(seen)))
  # the median of the out-of-bag votes is the out-of-bag class
  votes <- prob[seen, ]
  median_class <- apply(votes, 1, function(v) which(cumsum(v) >= 0.5 - 1e-12)[1L])
  expect_identical(unname(median_class), as.integer(oob[seen]))
  expect_identical(unname(table(observed = d$rank, predicted = oob)),
                   unname(as.table(fit$oob_confusion)))
  # bagging too; saveRDS keeps them; na.exclude pads them as predict() pads
  bag <- ordinal_bagging(rank ~ ., d, n_estimators = 25, random_state = 2)
  expect_equal(mean(predict(bag) != d$rank, na.rm = TRUE), bag$oob[["misclassification"]])
  file <- tempfile(fileext = ".rds")
  on.exit(unlink(file))
  saveRDS(bag, file)
  expect_identical(predict(readRDS(file)), predict(bag))
  d$crim[c(2, 7)] <- NA
  ex <- ordinal_forest(rank ~ ., d, n_estimators = 25, random_state = 2,
                       na.action = na.exclude)
  p <- predict(ex)
  expect_length(p, nrow(d))
  expect_true(all(is.na(p[c(2, 7)])))
  # models without out-of-bag predictions give the training-set fit
  boost <- ordinal_boosting(rank ~ ., boston_ranks(), n_estimators = 5, random_state = 1)
  expect_identical(predict(boost), predict(boost, boston_ranks()))
  nooob <- ordinal_forest(rank ~ ., boston_ranks(), n_estimators = 5, random_state = 1,
                          oob_score = FALSE)
  expect_identical(predict(nooob), predict(nooob, boston_ranks()))
})

test_that("print() shows the out-of-bag error rate and confusion matrix as randomForest's", {
  skip_if_no_python()
  d <- boston_ranks()
  fit <- ordinal_forest(rank ~ ., d, n_estimators = 30, random_state = 5)
  out <- capture.output(print(fit))
  rate <- sprintf("%.2f%%", 100 * fit$oob[["misclassification"]])
  expect_true(any(grepl(paste0("^ +OOB estimate of  error rate: ", rate, "$"), out)),
              info = paste(out, collapse = "\n"))
  expect_true(any(grepl("Number of trees: 30 +predictors tried at each split: 3", out)))
  expect_true(any(grepl("class.error", out, fixed = TRUE)))
  fixed <- ordinal_bagging(rank ~ ., d, fixed_split = TRUE, n_estimators = 3, random_state = 1)
  expect_output(print(fixed), "Number of trees: 12 \\(3 per dichotomy\\)")
  # the same line as randomForest's print, on the same data
  skip_if_not_installed("randomForest")
  set.seed(1)
  rf <- randomForest::randomForest(rank ~ ., d, ntree = 30)
  rf_out <- capture.output(print(rf))
  rf_line <- grep("OOB estimate of", rf_out, value = TRUE)
  expect_identical(sub("[0-9.]+%$", "", rf_line),
                   sub("[0-9.]+%$", "", grep("OOB estimate of", out, value = TRUE)))
  expect_true(any(grepl("class.error", rf_out, fixed = TRUE)))
})

test_that("importance() gives split and permutation importances; no clash with randomForest", {
  skip_if_no_python()
  d <- boston_ranks()
  fit <- suppressWarnings(ordinal_forest(rank ~ ., d, n_estimators = 20, importance = TRUE,
                                         random_state = 1))
  imp <- importance(fit)
  expect_identical(colnames(imp), c("split", "permutation"))
  expect_identical(rownames(imp), setdiff(names(d), "rank"))
  expect_equal(imp[, "split"], fit$split_importance)
  expect_equal(imp[, "permutation"], fit$importance)
  # lstat and rm matter most for Boston's medv
  expect_true(all(c("lstat", "rm") %in% names(sort(imp[, "permutation"], TRUE))[1:3]))
  expect_identical(colnames(importance(fit, type = "split")), "split")
  no_perm <- ordinal_forest(rank ~ ., d, n_estimators = 5, random_state = 1, oob_score = FALSE)
  expect_identical(colnames(importance(no_perm)), "split")
  expect_error(importance(no_perm, type = "permutation"), "importance = TRUE")
  expect_error(importance(lm(dist ~ speed, cars)), "^importance\\(\\): no importance")
  # randomForest attached after or before ordstat: importance() works for both kinds of fit
  skip_if_not_installed("randomForest")
  file <- tempfile(fileext = ".rds")
  on.exit(unlink(file))
  saveRDS(fit, file)
  for (order in list(c("ordstat", "randomForest"), c("randomForest", "ordstat"))) {
    out <- rscript(sprintf('
      suppressPackageStartupMessages({library(%s); library(%s)})
      fit <- readRDS("%s")
      stopifnot(identical(colnames(importance(fit)), c("split", "permutation")))
      rf <- randomForest(Species ~ ., iris, ntree = 5)
      stopifnot(identical(dim(importance(rf)), c(4L, 1L)))
      cat("done\\n")', order[[1]], order[[2]], file))
    expect_true("done" %in% out, info = paste(c(order, out), collapse = "\n"))
  }
})

test_that("randomForest's and ranger's argument names are accepted or refused clearly", {
  skip_if_no_python()
  d <- boston_ranks()
  # (12 trees: a unit may be in every bootstrap sample, which warns)
  ours <- suppressWarnings(ordinal_forest(rank ~ ., d, n_estimators = 12, max_features = 4, min_split = 5,
                         importance = "misclassification", random_state = 1, min_bucket = 2,
                         max_depth = 6))
  rf <- suppressWarnings(ordinal_forest(rank ~ ., d, ntree = 12, mtry = 4, min.node.size = 5,
                       importance = TRUE, seed = 1, nodesize = 2, max.depth = 6))
  ranger_style <- suppressWarnings(ordinal_forest(rank ~ ., d, num.trees = 12, mtry = 4, minsplit = 5,
                                 importance = "permutation", random_state = 1,
                                 min.bucket = 2, maxdepth = 6))
  expect_identical(predict(rf, d), predict(ours, d))
  expect_identical(predict(ranger_style, d), predict(ours, d))
  expect_identical(rf$importance, ours$importance)
  expect_identical(rf$n_trees, 12L)
  expect_identical(ordinal_bagging(rank ~ ., d, nbagg = 4, coob = FALSE, random_state = 1)$n_trees,
                   4L)
  expect_identical(ordinal_boosting(rank ~ ., d, mfinal = 3, random_state = 1)$n_cycles, 3L)
  # refused: no counterpart, a reason given; misspelt: the closest name suggested
  expect_error(ordinal_forest(rank ~ ., d, sampsize = 100),
               "^ordinal_forest\\(\\): argument 'sampsize' is not supported: .*bootstrap")
  expect_error(ordinal_forest(rank ~ ., d, replace = FALSE), "'replace' is not supported")
  expect_error(ordinal_bagging(rank ~ ., d, mtry = 3),
               "^ordinal_bagging\\(\\): argument 'mtry' is not supported: .*ordinal_forest")
  expect_error(ordinal_forest(rank ~ ., d, ntrees = 10),
               "^ordinal_forest\\(\\): unknown argument 'ntrees'; did you mean 'n_estimators'\\?")
  expect_error(ordinal_forest(rank ~ ., d, num_trees = 10), "did you mean 'n_estimators'")
  expect_error(ordinal_forest(rank ~ ., d, min_buket = 10), "did you mean 'min_bucket'")
  expect_error(ordinal_forest(rank ~ ., d, ntree = 10, n_estimators = 5),
               "'ntree' and 'n_estimators' are the same argument")
  expect_error(ordinal_forest(rank ~ ., d, bogus_arg = 1), "unknown argument 'bogus_arg'")
})

test_that("invalid control values are R errors in R's words", {
  skip_if_no_python()
  d <- boston_ranks()
  msg <- conditionMessage(expect_error(ordinal_forest(rank ~ ., d, max_features = 1.5)))
  expect_match(msg, paste0("^ordinal_forest\\(\\): 'max_features' must be a whole number >= 1, ",
                           "a number > 0 and <= 1, one of .*\"sqrt\".* or NULL; got 1\\.5\\.$"))
  expect_false(grepl("InvalidParameter|Classifier|None|instead|\\[", msg))
  msg <- conditionMessage(expect_error(ordinal_forest(rank ~ ., d, ntree = 0)))
  expect_identical(msg, "ordinal_forest(): 'n_estimators' must be a whole number >= 1; got 0.")
})

test_that("print and summary methods keep working when the class vector gains 'ordstat_model'", {
  skip_if_no_python()
  d <- boston_ranks()
  d$chas <- NULL
  small <- d[seq(1, nrow(d), by = 3), ]
  fits <- list(ordinal_forest(rank ~ ., small, n_estimators = 30, random_state = 1),
               ordinal_boosting(rank ~ ., small, n_estimators = 3, random_state = 1),
               odt(rank ~ ., small), weighted_svm(rank ~ ., small),
               edda(Species ~ ., iris, model = "EEE"),
               serial_combine(Species ~ ., iris, models = c("EEI", "EII")),
               hierarchical_coupling(Species ~ ., iris, candidates = c("EII", "VVV"), cv = 3,
                                     random_state = 1))
  for (fit in fits) {
    before <- capture.output(print(fit), print(summary(fit)))
    class(fit) <- c(class(fit), "ordstat_model")
    expect_identical(capture.output(print(fit), print(summary(fit))), before,
                     info = class(fit)[1])
  }
})
