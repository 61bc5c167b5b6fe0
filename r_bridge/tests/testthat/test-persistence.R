# Fitted models must survive saveRDS()/readRDS() and save()/load() into a NEW R session, where
# the reticulate pointers they held are dead: checked in a second Rscript process.

# rscript(): helper-rscript.R

test_that("models predict in a new R session after saveRDS and save", {
  skip_if_no_python()
  d <- ordered_data(150)
  set.seed(1)
  tree <- ordinal_tree(y ~ x1 + x2 + g, d, minsplit = 10, xval = 3)
  gauss <- edda(Species ~ ., iris, model = c("EEE", "VVV"))
  dd <- data.frame(a = factor(rep(c("u", "v"), 30)), b = factor(rep(c("x", "y", "y"), 20)))
  dd$y <- factor(ifelse(dd$a == "u", "lo", "hi"), levels = c("lo", "hi"), ordered = TRUE)
  disc <- discrete_da(y ~ a + b, dd, model = "kernel")
  dir <- tempfile("persist")
  dir.create(dir)
  saveRDS(list(tree = tree, gauss = gauss, disc = disc, d = d, dd = dd),
          file.path(dir, "fits.rds"))
  save(tree, file = file.path(dir, "tree.RData"))
  expected <- list(tree = predict(tree, d, type = "prob"), gauss = predict(gauss, iris),
                   disc = predict(disc, dd), tree_class = predict(tree, d))
  code <- sprintf('
    suppressPackageStartupMessages(library(ordstat))
    f <- readRDS("%1$s/fits.rds")
    load("%1$s/tree.RData")
    out <- list(tree = predict(f$tree, f$d, type = "prob"), gauss = predict(f$gauss, iris),
                disc = predict(f$disc, f$dd), tree_class = predict(tree, f$d),
                again = predict(f$tree, f$d, type = "prob"),
                rpart_class = predict(f$tree$rpart, f$d, type = "class"),
                loglik = logLik(f$gauss))
    saveRDS(out, "%1$s/out.rds")
    cat("done\\n")', dir)
  out <- rscript(code)
  expect_true("done" %in% out, info = paste(out, collapse = "\n"))
  got <- readRDS(file.path(dir, "out.rds"))
  expect_identical(got$tree, expected$tree)
  expect_identical(got$again, expected$tree)
  expect_identical(got$gauss, expected$gauss)
  expect_identical(got$disc, expected$disc)
  expect_identical(got$tree_class, expected$tree_class)
  expect_true(is.ordered(got$rpart_class))
  expect_identical(as.character(got$rpart_class), as.character(expected$tree_class))
  expect_equal(as.numeric(got$loglik), gauss$loglik)
  unlink(dir, recursive = TRUE)
})

test_that("a corrupt saved model gives an R error that says to refit", {
  skip_if_no_python()
  fit <- edda(Species ~ ., iris, model = "EEE")
  fit$cache$py <- NULL
  expect_identical(predict(fit, iris[1:3, ]), predict(edda(Species ~ ., iris, model = "EEE"),
                                                      iris[1:3, ]))
  broken <- fit
  broken$cache <- new.env()
  broken$pickle <- as.raw(1:10)
  expect_error(predict(broken, iris), "could not be restored.*Refit")
})
