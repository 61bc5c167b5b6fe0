# rpart's workflow on an ordinal_tree: prune() everywhere, snip.rpart(), xpred, logLik/nobs,
# model.frame/formula/terms/update, and the Gini tree against rpart's own.

# A full tree (cp = 0) and a cp strictly between two rows of its cp table that leaves a
# subtree with at least two splits.
full_and_cp <- function() {
  d <- ordered_data(200, seed = 2)
  fit <- ordinal_tree(y ~ x1 + x2 + g, d, cp = 0, minsplit = 10, maxdepth = 5, xval = 0L)
  cps <- fit$cptable[, "CP"]
  row <- which(fit$cptable[, "nsplit"] >= 2)[1L]
  list(d = d, fit = fit, cp = sqrt(cps[row] * cps[row + 1L]))
}

# The text that a plot drew (split labels and leaf labels), from the device's display list.
drawn_text <- function(draw) {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  grDevices::dev.control("enable")
  draw()
  rec <- grDevices::recordPlot()
  out <- unlist(lapply(rec[[1L]], function(e) {
    if (is.list(e[[2L]])) Filter(is.character, e[[2L]])
  }))
  out[!is.na(out) & grepl("[<>=]|\n", out)]
}

frame_cols <- c("var", "n", "wt", "dev", "yval", "complexity")

test_that("prune() prunes the tree predict, print, summary and plot use, as rpart's prune does", {
  skip_if_no_python()
  s <- full_and_cp()
  fit <- s$fit
  d <- s$d
  p <- prune(fit, cp = s$cp)
  expect_s3_class(p, c("ordinal_tree", "ordstat_model", "rpart"), exact = TRUE)
  expect_lt(nrow(p$frame), nrow(fit$frame))
  # the same subtree and cp table as rpart's prune.rpart on the frame
  rp <- rpart::prune.rpart(fit, cp = s$cp)
  expect_identical(rownames(p$frame), rownames(rp$frame))
  expect_identical(p$frame[frame_cols], rp$frame[frame_cols])
  expect_equal(unname(p$cptable), unname(rp$cptable))
  expect_identical(unname(p$where), unname(rp$where))
  expect_identical(p$rpart$frame, p$frame)
  # predictions: the pruned leaves' classes and proportions, not the full tree's
  pred <- predict(p, d)
  expect_false(identical(pred, predict(fit, d)))
  expect_identical(as.character(pred), levels(d$y)[p$frame$yval[p$where]])
  k <- nlevels(d$y)
  expect_equal(unname(predict(p, d, type = "prob")),
               unname(p$frame$yval2[p$where, 1L + k + seq_len(k)]))
  # ... which are those of the tree refitted with that cp
  refit <- ordinal_tree(y ~ x1 + x2 + g, d, cp = s$cp, minsplit = 10, maxdepth = 5, xval = 0L)
  expect_identical(refit$frame[frame_cols[1:5]], p$frame[frame_cols[1:5]])
  expect_identical(predict(p, d[1:40, ]), predict(refit, d[1:40, ]))
  # print and summary show the pruned tree
  out <- capture.output(print(p))
  expect_true(any(grepl("Pruned at cp", out)))
  expect_identical(sum(grepl("^ *[0-9]+\\)", out)), nrow(p$frame))
  sm <- summary(p)
  expect_identical(sm$n_nodes, nrow(p$frame))
  expect_identical(sm$n_leaves, sum(p$frame$var == "<leaf>"))
  expect_equal(sm$training_error, mean(pred != d$y))
  expect_output(print(sm), sprintf("leaves: %d", sm$n_leaves))
  # plot(p); text(p) draws the pruned tree's labels only (the full tree's splits are gone)
  drawn <- drawn_text(function() {
    plot(p)
    text(p)
  })
  gone <- setdiff(labels(fit), labels(p))
  expect_gt(length(gone), 0L)
  splits <- drawn[!grepl("\n", drawn)]  # each split labelled by plot(p) and by text(p)
  expect_length(setdiff(splits, labels(p)), 0L)
  expect_length(intersect(splits, gone), 0L)
  expect_identical(length(splits), 2L * sum(p$frame$var != "<leaf>"))
  expect_identical(sum(grepl("\n", drawn)), sum(p$frame$var == "<leaf>"))  # use.n labels
  # pruning again with a smaller cp changes nothing; a larger one prunes further
  expect_identical(prune(p, cp = s$cp / 2)$frame, p$frame)
  expect_lte(nrow(prune(p, cp = 1)$frame), 1L)
  expect_error(prune(fit, cp = "a"), "prune.ordinal_tree\\(\\): 'cp' must be one number")
})

test_that("prune at a CP of the cp table gives that row's tree, as printcp() suggests", {
  skip_if_no_python()
  # the frame's complexities are on exactly the table's scale (not off by a last bit)
  set.seed(1)
  n <- 300
  d <- data.frame(x1 = stats::rnorm(n), x2 = stats::runif(n), x3 = stats::rnorm(n))
  d$y <- cut(d$x1 + d$x2 + stats::rnorm(n), 4, ordered_result = TRUE)
  fit <- ordinal_tree(y ~ ., d, cp = 0, minsplit = 6, xval = 0, weights = stats::runif(n))
  nsplit <- vapply(fit$cptable[, "CP"], function(cp) {
    sum(prune(fit, cp = cp)$frame$var != "<leaf>")
  }, 1L)
  expect_identical(unname(nsplit), as.integer(fit$cptable[, "nsplit"]))
})

test_that("rpart's snip.rpart() and prune.rpart() on the frame are honoured by every method", {
  skip_if_no_python()
  s <- full_and_cp()
  fit <- s$fit
  d <- s$d
  p <- prune(fit, cp = s$cp)
  rp <- rpart::prune.rpart(fit, cp = s$cp)
  expect_identical(predict(rp, d), predict(p, d))
  expect_identical(predict(rp, d, type = "prob"), predict(p, d, type = "prob"))
  expect_identical(capture.output(print(rp)),
                   grep("^Pruned at cp", capture.output(print(p)), invert = TRUE, value = TRUE))
  # snip.rpart: node 2 made a leaf
  sn <- rpart::snip.rpart(fit, 2L)
  expect_false(any(rownames(sn$frame) %in% c("4", "5")))
  pred <- predict(sn, d)
  expect_identical(as.character(pred), levels(d$y)[sn$frame$yval[sn$where]])
  expect_identical(sum(grepl("^ *[0-9]+\\)", capture.output(print(sn)))), nrow(sn$frame))
  expect_identical(summary(sn)$n_nodes, nrow(sn$frame))
  expect_identical(unname(fitted(sn)), unname(pred))
  expect_identical(unname(residuals(sn)), as.integer(d$y) - as.integer(pred))
  # a frame that is not a subtree of the fitted tree is refused clearly
  bad <- fit
  rownames(bad$frame)[2L] <- "99"
  expect_error(predict(bad, d), "predict.ordinal_tree\\(\\): the tree's frame is not a subtree")
})

test_that("a pruned or snipped tree survives saveRDS/readRDS in a new R process", {
  skip_if_no_python()
  s <- full_and_cp()
  p <- prune(s$fit, cp = s$cp)
  sn <- rpart::snip.rpart(s$fit, 3L)
  dir <- tempfile("prune")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  saveRDS(list(p = p, sn = sn, d = s$d), file.path(dir, "trees.rds"))
  out <- rscript(sprintf('
    suppressPackageStartupMessages(library(ordstat))
    f <- readRDS("%1$s/trees.rds")
    res <- list(p = predict(f$p, f$d), prob = predict(f$p, f$d, type = "prob"),
                sn = predict(f$sn, f$d), lines = sum(grepl("^ *[0-9]+\\\\)", capture.output(print(f$p)))))
    saveRDS(res, "%1$s/out.rds")', dir))
  expect_null(attr(out, "status"))
  got <- readRDS(file.path(dir, "out.rds"))
  expect_identical(got$p, predict(p, s$d))
  expect_identical(got$prob, predict(p, s$d, type = "prob"))
  expect_identical(as.character(got$p), levels(s$d$y)[p$frame$yval[p$where]])
  expect_identical(got$sn, predict(sn, s$d))
  expect_false(identical(got$p, predict(s$fit, s$d)))
  expect_identical(got$lines, nrow(p$frame))
})

test_that("ordinal_xpred() gives the cross-validated predictions behind the cp table", {
  skip_if_no_python()
  d <- ordered_data(200, seed = 4)
  folds <- rep(1:5, length.out = nrow(d))[c(37, 5, 190, seq_len(200)[-c(37, 5, 190)])]
  fit <- ordinal_tree(y ~ x1 + x2 + g, d, cp = 0.005, minsplit = 10, xval = folds)
  xp <- ordinal_xpred(fit, xval = folds)
  expect_identical(dim(xp), c(nrow(d), nrow(fit$cptable)))
  expect_identical(rownames(xp), rownames(d))
  expect_true(all(xp %in% seq_len(nlevels(d$y))))
  # the cp table's xerror is these predictions' misclassification rate over the root's
  expect_equal(unname(colSums(xp != as.integer(d$y)) / fit$frame$dev[1L]),
               unname(fit$cptable[, "xerror"]))
  # rpart's xpred.rpart is not ours: a clear error pointing at ordinal_xpred
  expect_error(rpart::xpred.rpart(fit), "xpred.rpart\\(\\):.*use ordinal_xpred")
  expect_error(rpart::xpred.rpart(fit$rpart), "use ordinal_xpred")
  expect_error(ordinal_xpred(fit, xval = 1:3), "'xval' must be a whole number of groups")
  expect_error(ordinal_xpred(fit$rpart), "'fit' must be a tree fitted by ordinal_tree")
  # a given cp, and groups drawn from R's random numbers
  set.seed(5)
  a <- ordinal_xpred(fit, xval = 4, cp = c(0.1, 0.01))
  set.seed(5)
  expect_identical(ordinal_xpred(fit, xval = 4, cp = c(0.1, 0.01)), a)
  expect_identical(colnames(a), format(c(0.1, 0.01)))
})

test_that("logLik and nobs of a tree: the leaves' multinomial likelihood", {
  skip_if_no_python()
  s <- full_and_cp()
  d <- s$d
  p <- prune(s$fit, cp = s$cp)
  for (tree in list(s$fit, p)) {
    tab <- table(tree$where, d$y)
    hand <- sum(ifelse(tab > 0, tab * log(tab / rowSums(tab)), 0))
    l <- logLik(tree)
    expect_s3_class(l, "logLik")
    expect_equal(as.numeric(l), hand, tolerance = 1e-12)
    present <- sum(table(d$y) > 0)
    expect_identical(attr(l, "df"), as.numeric(nrow(tab) * (present - 1L)))
    expect_identical(nobs(tree), nrow(d))
    expect_equal(AIC(tree), -2 * hand + 2 * attr(l, "df"))
  }
  expect_lt(as.numeric(logLik(p)), as.numeric(logLik(s$fit)))
  w <- rep(c(0, 1, 2), length.out = nrow(d))
  fw <- ordinal_tree(y ~ x1 + x2, d, weights = w, minsplit = 10, xval = 0L)
  expect_identical(nobs(fw), sum(w > 0))
  tab <- xtabs(w ~ fw$where + d$y)
  expect_equal(as.numeric(logLik(fw)),
               sum(ifelse(tab > 0, tab * log(tab / rowSums(tab)), 0)), tolerance = 1e-12)
})

test_that("formula, terms and update work on a tree; model.frame returns", {
  skip_if_no_python()
  d <- ordered_data(120)
  fit <- ordinal_tree(y ~ x1 + x2, d, minsplit = 10, xval = 0L)
  expect_true(inherits(fit, "ordstat_model"))
  expect_identical(class(fit), c("ordinal_tree", "ordstat_model", "rpart"))
  expect_equal(formula(fit), y ~ x1 + x2, ignore_attr = TRUE)
  expect_identical(attr(terms(fit), "term.labels"), c("x1", "x2"))
  u <- update(fit, . ~ x1)
  expect_s3_class(u, "ordinal_tree")
  expect_identical(unique(setdiff(u$frame$var, "<leaf>")), "x1")
  # model.frame: rpart's method never returns on this object (it looks for an rpart() call);
  # the package's method for every model comes with the generics of R/generics.R
  skip_if_not(exists("model.frame.ordstat_model", asNamespace("ordstat")),
              "model.frame.ordstat_model is not in this build")
  setTimeLimit(elapsed = 20, transient = TRUE)
  on.exit(setTimeLimit(elapsed = Inf), add = TRUE)
  mf <- model.frame(fit)
  expect_identical(nrow(mf), nrow(d))
  expect_true(all(c("y", "x1", "x2") %in% names(mf)))
})

test_that("ordinal_tree(criterion = 'gini') is rpart's classification tree, up to left/right", {
  skip_if_no_python()
  # the comparison an R user made, on data sets R ships, ordered responses made by cut()
  leaf_sets <- function(where) {
    sets <- unname(split(seq_along(where), where))
    sets[order(vapply(sets, min, 1L))]
  }
  cases <- list(
    list(d = transform(iris, y = cut(Petal.Width, c(0, 0.6, 1.3, 1.8, 3),
                                     ordered_result = TRUE)),
         f = y ~ Sepal.Length + Sepal.Width + Petal.Length,
         ctl = list(minsplit = 10, minbucket = 3, cp = 0.001, maxdepth = 6)),
    list(d = transform(mtcars, y = cut(mpg, 3, ordered_result = TRUE)),
         f = y ~ hp + wt + qsec + disp + drat,
         ctl = list(minsplit = 6, minbucket = 2, cp = 0, maxdepth = 5)),
    list(d = transform(airquality[stats::complete.cases(airquality), ],
                       y = cut(Ozone, c(0, 30, 60, 90, 200), ordered_result = TRUE)),
         f = y ~ Solar.R + Wind + Temp + Month + Day,
         ctl = list(minsplit = 10, minbucket = 4, cp = 0.005, maxdepth = 6)))
  for (case in cases) {
    fit <- do.call(ordinal_tree, c(list(case$f, case$d, criterion = "gini", xval = 0L),
                                   case$ctl))
    rp <- rpart::rpart(case$f, case$d, method = "class",
                       control = do.call(rpart::rpart.control,
                                         c(case$ctl, xval = 0, maxcompete = 0,
                                           maxsurrogate = 0)))
    expect_gt(nrow(rp$frame), 8)
    expect_identical(leaf_sets(fit$where), leaf_sets(rp$where))
    expect_equal(unname(fit$cptable[, 1:3]), unname(rp$cptable[, 1:3]))
    # and the cross-validated predictions agree with rpart's xpred.rpart for the same groups
    # (default cp: rpart's C code sizes its cp list by the last rpart() fit, so rp is fitted
    # just before)
    folds <- rep(1:5, length.out = nrow(case$d))[rev(seq_len(nrow(case$d)))]
    expect_identical(unname(ordinal_xpred(fit, xval = folds)),
                     unname(rpart::xpred.rpart(rp, xval = folds)))
  }
})
