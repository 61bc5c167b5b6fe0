planted_four <- function(n = 25, seed = 3) {
  set.seed(seed)
  centres <- rbind(a = c(0, 0), b = c(0, 1.5), c = c(20, 0), d = c(20, 1.5))
  k <- rep(seq_len(4), each = n)
  data.frame(x1 = centres[k, 1] + stats::rnorm(4 * n, sd = 0.6),
             x2 = centres[k, 2] + stats::rnorm(4 * n, sd = 0.6),
             y = factor(rownames(centres)[k]))
}

test_that("hierarchical_coupling on iris: setosa split first, same tree as Python", {
  skip_if_no_python()
  fit <- hierarchical_coupling(Species ~ ., iris, candidates = c("EII", "VII", "EEE"))
  root <- fit$tree[fit$tree$parent == -1, ]
  expect_setequal(c(root$left, root$right), c("setosa", "versicolor, virginica"))
  expect_equal(sum(fit$tree$leaf), 3L)
  hier <- reticulate::import("ordstat.combine.hierarchical", convert = FALSE)
  X <- reticulate::r_to_py(as.matrix(iris[1:4]))
  py <- hier$HierarchicalCoupling(list("EII", "VII", "EEE"))$fit(
    X, reticulate::r_to_py(as.character(iris$Species)))
  expect_equal(fit$cv_error, reticulate::py_to_r(py$cv_error_), tolerance = 1e-12)
  expect_equal(unname(predict(fit, iris, type = "prob")),
               unname(reticulate::py_to_r(py$predict_proba(X))), tolerance = 1e-10)
  # an unordered response comes back unordered
  pred <- predict(fit)
  expect_true(is.factor(pred) && !is.ordered(pred))
  expect_identical(levels(pred), levels(iris$Species))
})

test_that("planted hierarchy, ordinal partition, print/summary/plot", {
  skip_if_no_python()
  d <- planted_four()
  fit <- hierarchical_coupling(y ~ x1 + x2, d, candidates = c("EII", "VVV"))
  root <- fit$tree[fit$tree$parent == -1, ]
  expect_setequal(c(root$left, root$right), c("a, b", "c, d"))
  prob <- predict(fit, d[1:7, ], type = "prob")
  expect_equal(unname(rowSums(prob)), rep(1, 7), tolerance = 1e-12)
  expect_identical(colnames(prob), levels(d$y))
  printed <- capture.output(print(fit))
  expect_length(grep("Hierarchical coupling", printed), 1L)  # one header
  expect_true(any(grepl("\\((EII|VVV)\\)", printed)))  # mclust's names beside the paper's
  summarised <- capture.output(print(summary(fit)))
  expect_length(grep("Hierarchical coupling", summarised), 1L)
  expect_false(any(grepl("`- ", summarised, fixed = TRUE)))  # the table, not the print again
  expect_true(any(grepl("confusion", summarised)))
  expect_true(any(grepl("mclust", summarised)))
  expect_false(any(grepl("affinity", summarised)))  # computed by partition = "affinity" only
  expect_setequal(fit$tree$mclust[!fit$tree$leaf], intersect(c("EII", "VVV"),
                                                             fit$tree$mclust))
  pdf(NULL)
  expect_invisible(plot(fit))
  dev.off()
  d$y <- factor(d$y, levels = c("a", "c", "b", "d"), ordered = TRUE)
  ord <- hierarchical_coupling(y ~ x1 + x2, d, candidates = "EII", partition = "ordinal")
  for (i in which(!ord$tree$leaf)) {
    cls <- strsplit(ord$tree$classes[i], ", ")[[1]]
    pos <- match(cls, levels(d$y))
    expect_identical(pos, seq(min(pos), max(pos)))
  }
  expect_true(is.ordered(predict(ord)))
})

test_that("hierarchical_coupling refuses bad input clearly", {
  skip_if_no_python()
  d <- planted_four(n = 6)
  expect_error(hierarchical_coupling(y ~ x1 + x2, d, partition = "ordinal"),
               "is an unordered factor")
  expect_parameter_error(hierarchical_coupling(y ~ x1 + x2, d, candidates = 3),
                         "hierarchical_coupling()", "candidates")
  expect_parameter_error(hierarchical_coupling(y ~ x1 + x2, d, cv = 1), "hierarchical_coupling()",
                         "cv")
  two <- droplevels(d[d$y %in% c("a", "b"), ])
  expect_error(hierarchical_coupling(y ~ x1 + x2, two), "at least three")
  expect_parameter_error(hierarchical_coupling(y ~ x1 + x2, d, partition = "bogus"),
                         "hierarchical_coupling()", "partition", "'bogus'")
})

test_that("R conventions: subset, na.exclude, data-less formula, seed of the v-fold splits", {
  skip_if_no_python()
  d <- planted_four(n = 15)
  d$x2[c(2, 31)] <- NA
  fit <- hierarchical_coupling(y ~ x1 + x2, d, candidates = c("EII", "VVV"),
                               na.action = "na.exclude", subset = x1 > -1.5)
  kept <- d$x1 > -1.5 & !is.na(d$x2)
  expect_identical(nrow(fit$x), sum(kept, na.rm = TRUE))
  p <- predict(fit, d)
  expect_length(p, 60L)
  expect_identical(unname(which(is.na(p))), c(2L, 31L))
  expect_true(is.factor(p) && !is.ordered(p))
  expect_output(print(fit), "observations deleted due to missingness")
  same <- hierarchical_coupling(y ~ x1 + x2, d[which(kept), ], candidates = c("EII", "VVV"))
  expect_identical(fit$tree, same$tree)
  expect_identical(predict(fit, d, type = "prob")[kept, ], predict(same, d[kept, ], type = "prob"))
  # without data
  y <- d$y[-c(2, 31)]
  x1 <- d$x1[-c(2, 31)]
  x2 <- d$x2[-c(2, 31)]
  free <- hierarchical_coupling(y ~ x1 + x2, candidates = "EII")
  expect_identical(free$tree, hierarchical_coupling(y ~ x1 + x2, d, candidates = "EII")$tree)
  # v-fold errors: the folds come from R's random numbers
  errors <- function(s) {
    set.seed(s)
    hierarchical_coupling(y ~ x1 + x2, d, candidates = c("EII", "VVV"), cv = 3)$tree$error
  }
  e <- lapply(c(5, 5, 6, 7), errors)
  expect_identical(e[[1]], e[[2]])
  expect_false(identical(e[[2]], e[[3]]) && identical(e[[3]], e[[4]]))
  expect_error(hierarchical_coupling(y ~ x1 + x2, d, weights = rep(1, 60)),
               "'weights' are not supported")
  expect_error(hierarchical_coupling(y ~ x1 + x2, d, seed = 1), "unknown argument 'seed'")
  expect_error(hierarchical_coupling(y ~ x1 + x2, d, na.action = na.pass), "missing values")
})
