# Missing predictors inside the tree: na.pass keeps the rows, the tree learns where their
# missing values go, predict() uses that side (checked by walking the tree by hand).

# The leaf reached by each row, walking the exported arrays: x < threshold goes left, a
# missing value goes to the side stored in missing_left (numeric predictors only).
walk_tree <- function(a, x) {
  vapply(seq_len(nrow(x)), function(i) {
    v <- 1L
    while (a$children_left[v] >= 0L) {
      value <- x[[a$feature[v] + 1L]][i]
      left <- if (is.na(value)) a$missing_left[v] else value < a$threshold[v]
      v <- (if (left) a$children_left[v] else a$children_right[v]) + 1L
    }
    as.integer(v)
  }, integer(1))
}

air <- function() {
  d <- datasets::airquality  # Ozone: 37 missing, Solar.R: 7 missing
  d$temp <- cut(d$Temp, c(-Inf, 72, 84, Inf), labels = c("cool", "mild", "hot"),
                ordered_result = TRUE)
  d
}

test_that("na.pass keeps rows with missing predictors and predicts them (airquality)", {
  skip_if_no_python()
  d <- air()
  fit <- ordinal_tree(temp ~ Ozone + Solar.R + Wind, d, na.action = na.pass,
                      minsplit = 10L, xval = 0L)
  expect_equal(fit$frame$n[1L], nrow(d))  # all 153 rows, as rpart's na.rpart keeps them
  omitted <- ordinal_tree(temp ~ Ozone + Solar.R + Wind, d, minsplit = 10L, xval = 0L)
  expect_equal(omitted$frame$n[1L], sum(stats::complete.cases(d[c("Ozone", "Solar.R")])))
  pred <- predict(fit, d)
  expect_length(pred, nrow(d))
  expect_false(anyNA(pred))
  expect_true(is.ordered(pred))
  prob <- predict(fit, d, type = "prob")
  expect_equal(unname(rowSums(prob)), rep(1, nrow(d)))
  # the Python tree's predictions follow the learned sides: walk the tree by hand
  a <- ordstat:::py_value(ordstat:::rside()$tree_arrays(ordstat:::py_model(fit)))
  a$missing_left <- as.logical(a$missing_left)
  x <- d[c("Ozone", "Solar.R", "Wind")]
  leaves <- walk_tree(a, x)
  value <- matrix(as.double(a$value), nrow = length(a$children_left))
  expect_equal(unname(prob), value[leaves, ] / rowSums(value[leaves, , drop = FALSE]))
  # fit$where holds rows of the rpart view, whose children are in rpart's order
  expect_equal(attr(fit$rpart, "tree_rows")[as.vector(fit$where)] + 1L, leaves)
  # fit$rpart is the same tree for rows without missing values; rpart's own predict has no
  # learned side (it sends missing values by majority), so rows with them are not compared
  complete <- stats::complete.cases(x)
  expect_identical(as.character(predict(fit$rpart, d, type = "class"))[complete],
                   as.character(pred)[complete])
})

test_that("a missing predictor goes to the side learned at fitting (hand-computed stump)", {
  skip_if_no_python()
  # x = 1, 2 and the two missing x are "lo"; x = 3, 4 are "hi": only sending the missing
  # values left of x < 2.5 gives pure children
  d <- data.frame(x = c(1, 2, 3, 4, NA, NA))
  d$y <- factor(c("lo", "lo", "hi", "hi", "lo", "lo"), levels = c("lo", "hi"), ordered = TRUE)
  fit <- ordinal_tree(y ~ x, d, na.action = na.pass, criterion = "gini", minsplit = 2L,
                      minbucket = 1L, xval = 0L, maxdepth = 1L)
  expect_equal(fit$frame$n, c(6, 4, 2))
  expect_equal(unname(fit$splits[1L, "index"]), 2.5)
  new <- data.frame(x = c(NA, 0, 10))
  expect_identical(as.character(predict(fit, new)), c("lo", "lo", "hi"))
  # a tree fitted without missing values predicts them too (by the majority rule); predict()'s
  # na.action = na.omit leaves those rows out
  fit_omit <- ordinal_tree(y ~ x, d[1:4, ], criterion = "gini", minsplit = 2L,
                           minbucket = 1L, xval = 0L)
  expect_length(predict(fit_omit, new), 3L)
  expect_length(predict(fit_omit, new, na.action = na.omit), 2L)
  # a missing response is still an error
  d$y[1L] <- NA
  expect_error(ordinal_tree(y ~ x, d, na.action = na.pass), "missing value")
})

test_that("a factor predictor with missing values: missing is a level of its own", {
  skip_if_no_python()
  d <- data.frame(g = factor(rep(c("a", "b", NA), each = 6), levels = c("a", "b")))
  d$y <- factor(rep(c("lo", "mid", "hi"), each = 6), levels = c("lo", "mid", "hi"),
                ordered = TRUE)
  fit <- ordinal_tree(y ~ g, d, na.action = na.pass, criterion = "gini", minsplit = 2L,
                      minbucket = 1L, xval = 0L)
  new <- data.frame(g = factor(c(NA, "a", "b"), levels = c("a", "b")))
  expect_identical(as.character(predict(fit, new)), c("hi", "lo", "mid"))
  expect_s3_class(fit$rpart, "rpart")  # the export leaves the missing level out
})
