test_that("factors cross as (codes, levels, ordered) and come back unchanged", {
  f <- factor(c("ZZ top", NA, "very low", "l\u00f3w"), levels = awkward_levels, ordered = TRUE)
  p <- ordstat:::factor_parts(f)
  expect_identical(p$codes, c(3L, -1L, 0L, 1L))
  expect_identical(p$levels, awkward_levels)
  expect_true(p$ordered)
  expect_identical(ordstat:::factor_from_parts(p$codes, p$levels, p$ordered), f)
})

test_that("new levels in newdata are an error naming the column and the levels", {
  expect_error(ordstat:::check_newdata_factors(data.frame(g = c("a", "zz")), list(g = c("a", "b"))),
               "column 'g' has level\\(s\\) \"zz\"")
  expect_error(ordstat:::check_newdata_factors(data.frame(h = 1), list(g = c("a", "b"))),
               "no column 'g'")
})

test_that("a Python without ordstat gives an error that says how to install", {
  python <- "/usr/bin/python3"
  skip_if_not(file.exists(python), "no system Python to try")
  code <- paste0("suppressPackageStartupMessages(library(ordstat)); ",
                 "lev <- factor(c('a', 'b'), ordered = TRUE); ",
                 "tryCatch(ordinal_metrics(lev, lev), error = function(e) cat(conditionMessage(e)))")
  out <- suppressWarnings(system2(
    file.path(R.home("bin"), "Rscript"), c("-e", shQuote(code)),
    env = c(paste0("ORDSTAT_PYTHON=", python),
            paste0("R_LIBS=", paste(.libPaths(), collapse = .Platform$path.sep))),
    stdout = TRUE, stderr = TRUE))
  expect_match(paste(out, collapse = "\n"), "install_ordstat\\(\\)")
})

test_that("character predictors are factors of their sorted values, as in rpart", {
  skip_if_no_python()
  d <- ordered_data(120)
  d$h <- as.character(d$g)
  d$h[d$h == "a"] <- "zz"  # sorted levels: "b", "c", "zz"
  fit <- ordinal_tree(y ~ x1 + h, d, minsplit = 10L, xval = 0L)
  expect_identical(fit$xlevels$h, c("b", "c", "zz"))
  d$f <- factor(d$h)
  ref <- ordinal_tree(y ~ x1 + f, d, minsplit = 10L, xval = 0L)
  expect_identical(unname(predict(fit, d)), unname(predict(ref, d)))
  expect_identical(fit$frame$n, ref$frame$n)
  # rpart itself, on the same character column, sees the same levels
  rp <- rpart::rpart(y ~ x1 + h, d)
  expect_identical(attr(rp, "xlevels")$h, fit$xlevels$h)
  # newdata may give the column as character or as a factor, with a subset of the levels
  new <- d[c(5, 1, 9), c("x1", "h")]
  as_factor <- transform(new, h = factor(h))
  expect_identical(predict(fit, new), predict(fit, as_factor))
  expect_identical(unname(predict(fit, new)), unname(predict(ref, d[c(5, 1, 9), ])))
  expect_error(predict(fit, transform(new, h = c("b", "new", "c"))),
               "column 'h' has level\\(s\\) \"new\" not seen")
})

test_that("a predictor with no observed value is an R error naming it", {
  skip_if_no_python()
  d <- ordered_data(60)
  d$x3 <- NA_real_
  for (na in list(stats::na.omit, stats::na.exclude, stats::na.fail, stats::na.pass)) {
    expect_error(ordinal_tree(y ~ x1 + x3, d, na.action = na, xval = 0L),
                 "^ordinal_tree\\(\\): predictor 'x3' has no observed value")
  }
  expect_error(ordinal_forest(y ~ x1 + x3, d, na.action = na.pass, n_estimators = 2L),
               "^ordinal_forest\\(\\): predictor 'x3' has no observed value")
  expect_error(frank_hall(y ~ x1 + x3, d), "^frank_hall\\(\\): predictor 'x3' has no observed")
  d$x4 <- NA
  expect_error(edda(y ~ x3 + x4 + x1, d), "^edda\\(\\): predictors 'x3', 'x4' have no observed")
  # observed in some rows only: an ordinary missing value
  d$x3[1:30] <- d$x1[1:30]
  expect_identical(nrow(ordinal_tree(y ~ x1 + x3, d, na.action = na.pass, xval = 0L)$x), 60L)
})

test_that("newdata may give a factor predictor as character; the training kind is kept", {
  skip_if_no_python()
  set.seed(1)
  d <- data.frame(x1 = stats::rnorm(80),
                  o = factor(sample(c("lo", "hi"), 80, TRUE), levels = c("lo", "hi"),
                             ordered = TRUE))
  d$y <- cut(d$x1 + (d$o == "hi") + stats::rnorm(80, sd = 0.4), c(-Inf, 0.3, 1.6, Inf),
             labels = c("low", "mid", "high"), ordered_result = TRUE)
  new <- d[1:8, ]
  as_text <- transform(new, o = as.character(o))
  for (fit in list(frank_hall(y ~ x1 + o, d), ordinal_tree(y ~ x1 + o, d, xval = 0L))) {
    expect_identical(predict(fit, as_text), predict(fit, new))
    expect_identical(predict(fit, as_text, type = "prob"), predict(fit, new, type = "prob"))
  }
})

test_that("an ordered-factor predictor's splits print, plot and predict as rpart keeps them", {
  skip_if_no_python()
  set.seed(3)
  n <- 300
  agegp <- factor(sample(c("25-34", "35-44", "45-54", "55-64", "65-74"), n, TRUE),
                  ordered = TRUE)
  x <- rnorm(n)
  y <- factor(cut(as.integer(agegp) + x + rnorm(n, sd = 0.5), c(-Inf, 2, 3.5, Inf),
                  labels = c("low", "mid", "high")), ordered = TRUE)
  d <- data.frame(agegp, x, y)
  fit <- ordinal_tree(y ~ agegp + x, d, minsplit = 20L, xval = 0L, cp = 0.01)
  rp <- fit$rpart
  expect_true(rp$ordered[["agegp"]])
  on_age <- rownames(rp$splits) == "agegp"
  expect_true(any(on_age))
  # every csplit row of an ordered split sends a run of the lowest levels left (1) and the
  # rest right (3), none of them empty, as rpart stores them
  for (row in rp$splits[on_age, "index"]) {
    codes <- rp$csplit[row, ]
    expect_true(all(codes %in% c(1L, 3L)))
    expect_true(any(codes == 1L) && any(codes == 3L))
    expect_identical(codes, sort(codes))
  }
  printed <- capture.output(print(rp))
  age_lines <- grep("agegp=", printed, value = TRUE)
  expect_true(length(age_lines) > 0)
  expect_false(any(grepl("agegp= ", age_lines)))  # no empty side
  # rpart's own predict on the object (what a readRDS'd fit gives without ordstat attached)
  # agrees with ours on every row
  ours <- predict(fit, d, type = "class")
  theirs <- rpart:::predict.rpart(structure(rp, class = "rpart"), d, type = "class")
  expect_identical(as.character(theirs), as.character(ours))
  expect_silent(capture.output({
    grDevices::pdf(NULL); plot(rp); text(rp); grDevices::dev.off()
  }))
})
