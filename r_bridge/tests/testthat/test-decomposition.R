circle_data <- function(n = 300, seed = 3) {
  set.seed(seed)
  d <- data.frame(a = stats::runif(n), b = stats::runif(n))
  ring <- floor(6 * ((d$a - 0.5)^2 + (d$b - 0.5)^2))
  d$y <- factor(c("inner", "middle", "outer", "corner")[ring + 1L],
                levels = c("inner", "middle", "outer", "corner"), ordered = TRUE)
  d
}

test_that("every decomposition fits, prints, summarises and predicts an ordered factor", {
  skip_if_no_python()
  d <- circle_data()
  fits <- list(frank_hall(y ~ a + b, d, estimator = "tree", random_state = 1),
               data_replication(y ~ a + b, d),
               odt(y ~ a + b, d),
               oadaboost(y ~ a + b, d, n_estimators = 20L),
               adaboost_or(y ~ a + b, d, n_estimators = 10L),
               weighted_svm(y ~ a + b, d, C = 1, gamma = 1))
  for (fit in fits) {
    expect_s3_class(fit, "ordstat_decomposition")
    pred <- predict(fit, d[1:20, ])
    expect_true(is.ordered(pred))
    expect_identical(levels(pred), levels(d$y))
    expect_output(print(fit), "classes: inner < middle < outer < corner")
    s <- summary(fit)
    expect_output(print(s), "Training error")
    expect_equal(sum(s$confusion), nrow(d))
  }
})

test_that("the R wrapper gives the Python estimator's predictions", {
  skip_if_no_python()
  d <- circle_data(200, seed = 4)
  fit <- odt(y ~ a + b, d)
  dec <- reticulate::import("ordstat.decomposition", convert = FALSE)
  X <- ordstat:::py_frame(d[c("a", "b")])
  y <- ordstat:::rside()$factor(as.array(as.integer(d$y) - 1L), as.list(levels(d$y)), TRUE)
  py <- dec$ReplicatedTreeClassifier()$fit(X, y)
  expect_identical(as.character(predict(fit, d)),
                   as.character(reticulate::py_to_r(py$predict(X))))
  expect_output(print(fit), "<  \\[")  # the K-1 thresholds of a node (x < threshold goes left)
})

test_that("probabilities: Frank & Hall rows sum to one; classes-only methods refuse", {
  skip_if_no_python()
  d <- circle_data(200, seed = 5)
  p <- predict(frank_hall(y ~ a + b, d), d, type = "prob")
  expect_equal(unname(rowSums(p)), rep(1, nrow(d)))
  expect_identical(colnames(p), levels(d$y))
  expect_error(predict(weighted_svm(y ~ a + b, d), d, type = "prob"), "classes only")
})

test_that("bad input is refused with clear messages", {
  skip_if_no_python()
  d <- circle_data(100)
  expect_parameter_error(frank_hall(y ~ a + b, d, estimator = "forest"), "frank_hall()",
                         "estimator", "'forest'")
  expect_parameter_error(data_replication(y ~ a + b, d, h = -1), "data_replication()", "h", "-1")
  expect_parameter_error(frank_hall(y ~ a + b, d, combine = "median"), "frank_hall()", "combine",
                         "'median'")
  d$g <- factor(rep(c("u", "v"), 50))
  expect_error(oadaboost(y ~ a + g, d), "needs numeric predictors")
  d$y2 <- factor(d$y, ordered = FALSE)
  expect_error(odt(y2 ~ a + b, d), "ordered")
  expect_parameter_error(odt(y ~ a + b, d, rule = "median"), "odt()", "rule", "'median'")
})

test_that("unordered factors: indicator columns for the binary learners, refused by oAdaBoost & co", {
  skip_if_no_python()
  d <- boston_ranks()
  # chas1 is the indicator model.matrix() makes of the factor: the same fit as with that column
  numeric <- transform(d, chas1 = as.double(chas == "1"), chas = NULL)
  numeric <- numeric[c(names(numeric)[1:3], "chas1", setdiff(names(numeric)[-(1:3)], "chas1"))]
  fits <- list(frank_hall = function(data) frank_hall(rank ~ ., data, random_state = 1),
               data_replication = function(data) data_replication(rank ~ ., data,
                                                                  random_state = 1),
               weighted_svm = function(data) weighted_svm(rank ~ ., data))
  for (f in fits) {
    fit <- f(d)
    expect_identical(names(fit$x), colnames(stats::model.matrix(rank ~ ., d))[-1L])
    ref <- f(numeric)
    expect_identical(unname(predict(fit, d[1:50, ])), unname(predict(ref, numeric[1:50, ])))
    # new data with the training levels, also when a level is absent from them
    expect_length(predict(fit, d[d$chas == "0", ][1:5, ]), 5L)
  }
  # a three-level factor gives two indicator columns
  d3 <- transform(d, zone = factor(cut(zn, c(-1, 0, 20, 100), labels = c("none", "some", "many"))))
  fit <- frank_hall(rank ~ lstat + zone, d3)
  expect_identical(names(fit$x), c("lstat", "zonesome", "zonemany"))
  for (f in list(oadaboost, adaboost_or)) {
    msg <- conditionMessage(expect_error(f(rank ~ ., d)))
    expect_match(msg, "^[a-z_]+\\(\\): predictor\\(s\\) 'chas' are unordered factors")
    expect_false(grepl("Categorical|pd\\.|DataFrame|ReplicatedTree", msg))
  }
  # an ordered factor is its level index there
  expect_s3_class(odt(rank ~ ., transform(d, chas = factor(chas, ordered = TRUE))),
                  "ordstat_odt")
})

test_that("odt() splits an unordered factor one branch per level, as C4.5", {
  skip_if_no_python()
  set.seed(2)
  n <- 240
  d <- data.frame(g = factor(sample(c("u", "v", "w"), n, replace = TRUE),
                             levels = c("u", "v", "w", "z")),
                  a = stats::runif(n))
  d$y <- factor(pmin(as.integer(d$g) - 1L + (d$a > 0.8), 2L), ordered = TRUE)
  fit <- odt(y ~ g + a, d, min_num_obj = 2L, collapse_tree = TRUE, subtree_raising = TRUE)
  out <- paste(capture.output(print(fit)), collapse = "\n")
  for (level in c("u", "v", "w", "z")) expect_match(out, paste0("g = ", level, ":"), fixed = TRUE)
  # the same tree as the Python estimator on an unordered Categorical
  dec <- reticulate::import("ordstat.decomposition", convert = FALSE)
  X <- ordstat:::py_frame(d[c("g", "a")])
  y <- ordstat:::rside()$factor(as.array(as.integer(d$y) - 1L), as.list(levels(d$y)), TRUE)
  py <- dec$ReplicatedTreeClassifier()$fit(X, y)
  expect_identical(as.character(predict(fit, d)),
                   as.character(reticulate::py_to_r(py$predict(X))))
  expect_identical(summary(fit)$n_nodes, as.integer(reticulate::py_to_r(py$node_count_)))
  # level "z" has no training units: its branch predicts as the root
  new <- data.frame(g = factor(c("z", "u"), levels = levels(d$g)), a = c(0.1, 0.1))
  expect_length(predict(fit, new), 2L)
  # J48's parameters are checked as the others
  expect_parameter_error(odt(y ~ g + a, d, min_num_obj = 0L), "odt()", "min_num_obj", "0")
})

test_that("weighted_svm() standardises the predictors by default, as e1071::svm", {
  skip_if_no_python()
  d <- boston_ranks()
  d$chas <- NULL
  scaled <- weighted_svm(rank ~ ., d)
  raw <- weighted_svm(rank ~ ., d, scale = FALSE)
  accuracy <- function(fit) mean(predict(fit, d) == d$rank)
  expect_gt(accuracy(scaled), 0.65)
  expect_lt(accuracy(raw), 0.45)
  # the same as standardising by hand with the training means and standard deviations
  x <- scale(d[setdiff(names(d), "rank")])
  by_hand <- data.frame(x, rank = d$rank)
  fit <- weighted_svm(rank ~ ., by_hand, scale = FALSE)
  new <- d[1:40, ]
  new_x <- scale(new[colnames(x)], attr(x, "scaled:center"), attr(x, "scaled:scale"))
  expect_identical(unname(predict(scaled, new)),
                   unname(predict(fit, data.frame(new_x, rank = new$rank))))
  expect_output(print(scaled), "standardised")
  # the scaling travels with the model
  file <- tempfile(fileext = ".rds")
  on.exit(unlink(file))
  saveRDS(scaled, file)
  expect_identical(predict(readRDS(file), new), predict(scaled, new))
})

test_that("frank_hall()'s default logistic model converges; a convergence warning is R's", {
  skip_if_no_python()
  d <- boston_ranks()
  expect_no_warning(fit <- frank_hall(rank ~ ., d))
  expect_no_warning(data_replication(rank ~ ., d))
  expect_gt(mean(predict(fit, d) == d$rank), 0.6)
  # a learner that stops early: the warning says what to do in R, without Python's advice
  sk <- reticulate::import("sklearn.linear_model", convert = FALSE)
  w <- NULL
  withCallingHandlers(
    frank_hall(rank ~ ., d, estimator = sk$LogisticRegression(max_iter = 3L)),
    warning = function(cond) {
      w <<- c(w, conditionMessage(cond))
      invokeRestart("muffleWarning")
    })
  expect_true(length(w) >= 1L)
  expect_match(w[[1]], "^frank_hall\\(\\): a binary model did not converge.*scale\\(\\)")
  expect_false(any(grepl("https?://|max_iter|lbfgs", w)))
})

test_that("print() of a large oDT summarises it; max_nodes = Inf shows every node", {
  skip_if_no_python()
  d <- boston_ranks()
  d$chas <- as.double(d$chas == "1")
  fit <- odt(rank ~ ., d)
  out <- capture.output(print(fit))
  expect_lte(length(out), 5L)
  expect_match(out[length(out)], "^oDT: [0-9]+ nodes, [0-9]+ leaves, depth [0-9]+")
  n_nodes <- as.integer(sub("^oDT: ([0-9]+) nodes.*$", "\\1", out[length(out)]))
  expect_gt(n_nodes, 31L)
  expect_gt(length(capture.output(print(fit, max_nodes = Inf))), n_nodes / 2)
  small <- odt(rank ~ lstat, d, max_depth = 2)
  expect_gt(length(capture.output(print(small))), 3L)
  expect_false(any(grepl("^oDT: [0-9]+ nodes", capture.output(print(small)))))
})

test_that("invalid control values of the decompositions are R errors in R's words", {
  skip_if_no_python()
  d <- boston_ranks()
  d$chas <- NULL
  msg <- conditionMessage(expect_error(odt(rank ~ ., d, max_depth = 0)))
  expect_identical(msg, "odt(): 'max_depth' must be a whole number >= 1 or NULL; got 0.")
  msg <- conditionMessage(expect_error(weighted_svm(rank ~ ., d, C = -1)))
  expect_identical(msg, "weighted_svm(): 'C' must be a number > 0; got -1.")
  msg <- conditionMessage(expect_error(weighted_svm(rank ~ ., d, scale = "yes")))
  expect_match(msg, "^weighted_svm\\(\\): 'scale' must be TRUE or FALSE; got 'yes'\\.$")
})
