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
