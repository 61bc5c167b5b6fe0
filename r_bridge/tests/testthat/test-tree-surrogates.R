# rpart's surrogate splits (missing = "surrogate"): the tree, its rpart view and its
# predictions equal rpart's own fit on data with missing values, for every usesurrogate and
# surrogatestyle; rpart's controls reach the tree directly or through control.

surrogate_sets <- function() {
  aq <- datasets::airquality[!is.na(datasets::airquality$Ozone), ]
  sets <- list(
    ozone = data.frame(y = cut(aq$Ozone, c(-Inf, 30, 60, Inf), ordered_result = TRUE),
                       aq[, c("Solar.R", "Wind", "Temp", "Month", "Day")]),
    temp = data.frame(y = cut(datasets::airquality$Temp, c(-Inf, 72, 84, Inf),
                              ordered_result = TRUE),
                      datasets::airquality[, c("Ozone", "Solar.R", "Wind", "Month", "Day")]))
  if (requireNamespace("mlbench", quietly = TRUE)) {
    e <- new.env()
    utils::data("BreastCancer", package = "mlbench", envir = e)
    bc <- e$BreastCancer[, -1]
    bc$Class <- factor(bc$Class, levels = c("benign", "malignant"), ordered = TRUE)
    sets$breast_cancer <- data.frame(y = bc$Class, bc[, names(bc) != "Class"])
  }
  sets
}

# the splits matrix as rows (variable, count, improve, adj) in a fixed order: our rpart view
# puts the "<" side first where rpart may put it second, so the nodes come in another order
split_rows <- function(fit) {
  s <- fit$splits
  out <- data.frame(var = rownames(s), count = s[, "count"], improve = round(s[, "improve"], 9),
                    adj = round(s[, "adj"], 9), stringsAsFactors = FALSE)
  out <- out[do.call(order, out), ]
  rownames(out) <- NULL
  out
}

test_that("missing = 'surrogate' grows rpart's tree, surrogates and predictions", {
  skip_if_no_python()
  for (name in names(surrogate_sets())) {
    d <- surrogate_sets()[[name]]
    for (use in 0:2) for (style in 0:1) {
      label <- sprintf("%s usesurrogate=%d surrogatestyle=%d", name, use, style)
      ref <- rpart::rpart(y ~ ., d, method = "class",
                          control = rpart::rpart.control(xval = 0, maxcompete = 0,
                                                         usesurrogate = use,
                                                         surrogatestyle = style))
      fit <- ordinal_tree(y ~ ., d, na.action = na.pass, criterion = "gini", xval = 0,
                          missing = "surrogate", usesurrogate = use, surrogatestyle = style)
      want <- predict(ref, d, type = "prob")
      expect_equal(unname(predict(fit, d, type = "prob")), unname(want), tolerance = 1e-12,
                   label = label)
      # rpart's own predict on the rpart view follows the surrogates too
      expect_equal(unname(predict(fit$rpart, d, type = "prob")), unname(want),
                   tolerance = 1e-12, label = label)
      expect_equal(fit$rpart$variable.importance, ref$variable.importance, tolerance = 1e-9,
                   label = label)
      expect_equal(split_rows(fit$rpart), split_rows(ref), tolerance = 1e-9, label = label)
      expect_equal(sort(fit$rpart$frame$n), sort(ref$frame$n), label = label)
      expect_equal(sort(fit$rpart$frame$nsurrogate), sort(ref$frame$nsurrogate), label = label)
      expect_identical(fit$rpart$control$usesurrogate, ref$control$usesurrogate)
    }
  }
})

test_that("rpart's print and summary of the rpart view are those of rpart's own fit", {
  skip_if_no_python()
  # after the call: the cp table, importance, every node with its surrogate lines
  body <- function(f) {
    out <- utils::capture.output(summary(f))
    out[-seq_len(grep("^  n=", out)[1L])]
  }
  for (name in names(surrogate_sets())) {
    d <- surrogate_sets()[[name]]
    for (use in 0:2) {
      ref <- rpart::rpart(y ~ ., d, method = "class",
                          control = rpart::rpart.control(xval = 0, maxcompete = 0,
                                                         usesurrogate = use))
      fit <- ordinal_tree(y ~ ., d, na.action = na.pass, criterion = "gini", xval = 0,
                          missing = "surrogate", usesurrogate = use)
      label <- sprintf("%s usesurrogate=%d", name, use)
      expect_identical(body(fit$rpart), body(ref), label = label)
      expect_identical(utils::capture.output(print(fit$rpart)),
                       utils::capture.output(print(ref)), label = label)
    }
  }
  expect_true(any(grepl("Surrogate splits:", body(fit$rpart), fixed = TRUE)))
})

test_that("surrogate controls come through control = rpart.control() and are checked", {
  skip_if_no_python()
  d <- surrogate_sets()$temp
  fit <- ordinal_tree(y ~ ., d, na.action = na.pass, criterion = "gini", xval = 0,
                      missing = "surrogate",
                      control = rpart::rpart.control(maxsurrogate = 2, usesurrogate = 1))
  expect_identical(fit$rpart$control$usesurrogate, 1L)
  expect_true(all(fit$rpart$frame$nsurrogate <= 2L))
  expect_true(any(fit$rpart$frame$nsurrogate == 2L))
  expect_error(ordinal_tree(y ~ ., d, na.action = na.pass, missing = "surrogate",
                            usesurrogate = 3), "usesurrogate")
  expect_error(ordinal_tree(y ~ ., d, na.action = na.pass, missing = "rpart"), "missing")
  # the default (the learned side) keeps no surrogates
  learned <- ordinal_tree(y ~ ., d, na.action = na.pass, xval = 0)
  expect_true(all(learned$rpart$frame$nsurrogate == 0L))
})

test_that("the forest grows surrogate trees and predicts rows with missing values", {
  skip_if_no_python()
  d <- surrogate_sets()$temp
  fit <- suppressWarnings(ordinal_forest(y ~ ., d, na.action = na.pass, n_estimators = 5,
                                         missing = "surrogate", usesurrogate = 1,
                                         random_state = 1))
  pred <- predict(fit, d)
  expect_length(pred, nrow(d))
  expect_false(anyNA(pred))
  expect_error(ordinal_forest(y ~ ., d, na.action = na.pass, n_estimators = 2,
                              missing = "surrogate", surrogatestyle = 2), "surrogatestyle")
})

test_that("importance counts the surrogates as rpart's, even without missing values", {
  skip_if_no_python()
  skip_if_not_installed("MASS")
  h <- MASS::housing
  ref <- rpart::rpart(Sat ~ Infl + Type + Cont, h, weights = Freq, method = "class")
  fit <- ordinal_tree(Sat ~ Infl + Type + Cont, h, weights = Freq, criterion = "gini",
                      missing = "surrogate", random_state = 1)
  # rpart: Infl 42.55, Type 14.12 (Infl's surrogate adds to it), Cont 0.60
  expect_equal(fit$rpart$variable.importance, ref$variable.importance, tolerance = 1e-9)
  learned <- ordinal_tree(Sat ~ Infl + Type + Cont, h, weights = Freq, criterion = "gini",
                          random_state = 1)
  expect_false("Cont" %in% names(learned$rpart$variable.importance))
  expect_equal(unname(predict(fit, h, type = "prob")), unname(predict(ref, h, type = "prob")),
               tolerance = 1e-12)
})

test_that("ordinal_xpred() gives rpart's xpred.rpart on the same folds", {
  skip_if_no_python()
  d <- surrogate_sets()$temp
  folds <- rep_len(1:5, nrow(d))
  for (use in 1:2) {
    ref <- rpart::rpart(y ~ ., d, method = "class",
                        control = rpart::rpart.control(xval = 0, maxcompete = 0,
                                                       usesurrogate = use))
    fit <- ordinal_tree(y ~ ., d, na.action = na.pass, criterion = "gini", xval = 0,
                        missing = "surrogate", usesurrogate = use)
    cp <- ref$cptable[, "CP"]
    expect_equal(unname(ordinal_xpred(fit, xval = folds, cp = cp)),
                 unname(rpart::xpred.rpart(ref, xval = folds, cp = cp)),
                 label = sprintf("usesurrogate=%d", use))
  }
})

test_that("missing = 'surrogate' keeps rpart's rows by default (na.rpart), not na.omit's", {
  skip_if_no_python()
  d <- surrogate_sets()$ozone  # 5 rows miss Solar.R, none the response
  fit <- ordinal_tree(y ~ ., d, criterion = "gini", missing = "surrogate")
  rp <- rpart::rpart(y ~ ., d)
  expect_equal(fit$rpart$frame$n, rp$frame$n)
  expect_equal(fit$variable.importance, rp$variable.importance, tolerance = 1e-9)
  expect_identical(as.character(predict(fit, d)), as.character(predict(rp, d, type = "class")))
  # rows missing the response are dropped, as rpart drops them
  d2 <- rbind(d, transform(d[1:3, ], y = NA))
  expect_equal(ordinal_tree(y ~ ., d2, criterion = "gini", missing = "surrogate")$rpart$frame$n[1],
               nrow(d))
  # a given na.action is used; the learned rule keeps na.omit as its default
  expect_equal(ordinal_tree(y ~ ., d, criterion = "gini", missing = "surrogate",
                            na.action = na.omit)$rpart$frame$n[1], sum(complete.cases(d)))
  expect_equal(ordinal_tree(y ~ ., d, criterion = "gini")$rpart$frame$n[1],
               sum(complete.cases(d)))
})
