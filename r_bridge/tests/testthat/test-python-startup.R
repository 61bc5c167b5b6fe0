# Which Python the package uses when something else chose one first. Each case runs in a new
# Rscript process (reticulate keeps the first Python it starts for the whole session).

ordstat_python <- function() {
  python <- Sys.getenv("ORDSTAT_PYTHON")
  if (!nzchar(python)) python <- ordstat_python_info()$python
  python
}

test_that("library(ordstat) loads after reticulate started a Python without ordstat, and says so on use", {
  skip_if_no_python()
  other <- Sys.which("python3")
  other <- if (file.exists("/usr/bin/python3")) "/usr/bin/python3" else unname(other)
  skip_if(!nzchar(other), "no second Python")
  has_ordstat <- suppressWarnings(system2(other, c("-c", shQuote("import ordstat")),
                                          stdout = FALSE, stderr = FALSE, env = "PYTHONPATH="))
  skip_if(identical(as.integer(has_ordstat), 0L), "the second Python has ordstat")
  out <- rscript(c(
    'Sys.unsetenv(c("ORDSTAT_PYTHON", "RETICULATE_PYTHON", "PYTHONPATH"))',
    sprintf('reticulate::use_python("%s", required = TRUE)', other),
    'invisible(reticulate::py_config())',
    'library(ordstat)',
    'cat("LOADED\\n")',
    'cat("AVAILABLE", ordstat_available(), "\\n")',
    'd <- data.frame(x = 1:30)',
    'd$y <- cut(d$x, 3, ordered_result = TRUE)',
    'msg <- tryCatch({ordinal_tree(y ~ x, d); "no error"}, error = conditionMessage)',
    'cat("ERROR", msg, "\\n")'))
  text <- paste(out, collapse = "\n")
  expect_null(attr(out, "status"), label = text)
  expect_match(text, "LOADED", fixed = TRUE)
  expect_match(text, "AVAILABLE FALSE", fixed = TRUE)
  error <- grep("^ERROR", out, value = TRUE)
  expect_length(error, 1L)
  expect_match(error, paste0("(", other, ")"), fixed = TRUE)
  for (hint in c("ORDSTAT_PYTHON", "RETICULATE_PYTHON", "install_ordstat()",
                 "before library(ordstat)")) {
    expect_match(error, hint, fixed = TRUE)
  }
  expect_no_match(text, "ModuleNotFoundError|Traceback|\\.py\"")
})

test_that("RETICULATE_PYTHON comes before the Python recorded at installation and .venv-r", {
  skip_if_no_python()
  python <- ordstat_python()
  skip_if(!nzchar(python), "the Python with ordstat is not known")
  # a working directory whose .venv-r holds a Python that does not work: found if
  # RETICULATE_PYTHON were skipped
  dir <- tempfile("decoy")
  dir.create(file.path(dir, ".venv-r", "bin"), recursive = TRUE)
  writeLines("#!/bin/sh\nexit 1", file.path(dir, ".venv-r", "bin", "python"))
  Sys.chmod(file.path(dir, ".venv-r", "bin", "python"), "0755")
  on.exit(unlink(dir, recursive = TRUE))
  out <- rscript(c(
    'Sys.unsetenv("ORDSTAT_PYTHON")',
    sprintf('Sys.setenv(RETICULATE_PYTHON = "%s")', python),
    sprintf('setwd("%s")', dir),
    'library(ordstat)',
    'cat("CHOSEN", is.null(ordstat_python_info()$python), "\\n")',
    'cat("AVAILABLE", ordstat_available(), "\\n")',
    'cat("RUNNING", reticulate::py_config()$python, "\\n")'))
  text <- paste(out, collapse = "\n")
  expect_null(attr(out, "status"), label = text)
  expect_match(text, "CHOSEN TRUE", fixed = TRUE)  # left to reticulate, i.e. RETICULATE_PYTHON
  expect_match(text, "AVAILABLE TRUE", fixed = TRUE)
  running <- sub("^RUNNING ", "", grep("^RUNNING", out, value = TRUE))
  expect_identical(normalizePath(trimws(running)), normalizePath(python))
})

test_that("a folder named ordstat in the working directory is not imported as the package", {
  skip_if_no_python()
  # R's own library folder, or the parent of a clone, holds a folder named ordstat: Python
  # would import it as an empty namespace package in place of the installed one
  here <- tempfile("workdir")
  dir.create(file.path(here, "ordstat", "R"), recursive = TRUE)
  out <- rscript(c(
    sprintf("setwd(%s)", deparse(here)),
    "suppressPackageStartupMessages(library(ordstat))",
    "lev <- factor(c('a', 'b', 'a'), ordered = TRUE)",
    "m <- ordinal_metrics(lev, lev)",
    "f <- reticulate::py_eval(\"__import__('ordstat').__file__\")",
    "cat('FILE', is.character(f) && file.exists(f), '\\n')"))
  text <- paste(out, collapse = "\n")
  expect_match(text, "FILE TRUE")
  expect_false(grepl("version unknown", text))
})
