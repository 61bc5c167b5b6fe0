# ordstat_data(): the sets read from R packages are built in R (no Python), the others come
# from Python; either way as the Python loaders give them.

# What the Python loaders give (computed with rpy2, outside R): sizes, column names and types
# (d double, i integer, l logical), response levels and counts, column sums and the checksum
# sum(i * code_i) of the response over rows i (codes 1..K), which fixes the row order.
python_reference <- list(
  iris = list(n = 150L, columns = c("Sepal.Length", "Sepal.Width", "Petal.Length",
                                    "Petal.Width"), types = "dddd",
              response = "Species", ordered = FALSE,
              levels = c("setosa", "versicolor", "virginica"), counts = c(50, 50, 50),
              sums = c(876.5, 458.6, 563.7, 179.9), checksum = 27650),
  crabs = list(n = 200L, columns = c("FL", "RW", "CL", "CW", "BD"), types = "ddddd",
               response = "group", ordered = FALSE, levels = c("B.F", "B.M", "O.F", "O.M"),
               counts = c(50, 50, 50, 50), sums = c(3116.6, 2547.7, 6421.1, 7282.9, 2806.1),
               checksum = 57750),
  thyroid = list(n = 215L, columns = c("RT3U", "T4", "T3", "TSH", "DTSH"), types = "ddddd",
                 response = "Diagnosis", ordered = FALSE,
                 levels = c("Hypo", "Normal", "Hyper"), counts = c(30, 150, 35),
                 sums = c(23563, 2108, 440.8, 619.2, 902.8), checksum = 46305),
  haemophilia = list(n = 75L, columns = c("AHFactivity", "AHFantigen"), types = "dd",
                     response = "gr", ordered = FALSE, levels = c("normal", "carrier"),
                     counts = c(30, 45), sums = c(-17.9037, -2.6053), checksum = 5235),
  boston = list(n = 506L, columns = c("crim", "zn", "indus", "chas", "nox", "rm", "age", "dis",
                                      "rad", "tax", "ptratio", "black", "lstat"),
                types = "ddddddddddddd", response = "rank", ordered = TRUE,
                levels = as.character(1:5), counts = c(102, 101, 101, 101, 101),
                sums = c(1828.44292, 5750, 5635.21, 35, 280.6757, 3180.025, 34698.9, 1920.2916,
                         4832, 206568, 9338.5, 180477.06, 6402.45), checksum = 357188),
  machine_cpu = list(n = 209L, columns = c("syct", "mmin", "mmax", "cach", "chmin", "chmax"),
                     types = "dddddd", response = "rank", ordered = TRUE,
                     levels = as.character(1:5), counts = c(42, 42, 42, 42, 41),
                     sums = c(42599, 599408, 2465396, 5268, 982, 3818), checksum = 66459),
  wine = list(n = 72L, columns = c("temp", "contact"), types = "dd", response = "rating",
              ordered = TRUE, levels = as.character(1:5), counts = c(5, 22, 26, 12, 7),
              sums = c(36, 36), checksum = 7334),
  zoo = list(n = 101L, columns = c("hair", "feathers", "eggs", "milk", "airborne", "aquatic",
                                   "predator", "toothed", "backbone", "breathes", "venomous",
                                   "fins", "legs", "tail", "domestic", "catsize"),
             types = "llllllllllllilll", response = "type", ordered = FALSE,
             levels = c("mammal", "bird", "reptile", "fish", "amphibian", "insect",
                        "mollusc.et.al"),
             counts = c(41, 20, 5, 13, 4, 8, 10),
             sums = c(43, 20, 59, 41, 24, 36, 56, 61, 83, 80, 8, 17, 287, 75, 13, 44),
             checksum = 15074)
)

type_letter <- function(x) {
  if (is.logical(x)) "l" else if (is.integer(x)) "i" else if (is.double(x)) "d" else "?"
}

test_that("the sets read from R packages are built in R, as the Python loaders give them", {
  expect_setequal(names(ordstat:::r_side_sets), names(python_reference))
  for (name in names(python_reference)) {
    ref <- python_reference[[name]]
    if (!requireNamespace(ordstat:::r_side_sets[[name]]$package, quietly = TRUE)) next
    d <- ordstat_data(name)
    info <- name
    expect_s3_class(d, "data.frame")
    expect_identical(names(d), c(ref$columns, ref$response), info = info)
    expect_identical(attr(d, "response"), ref$response, info = info)
    expect_identical(nrow(d), ref$n, info = info)
    expect_identical(rownames(d), as.character(seq_len(ref$n)), info = info)
    expect_identical(paste(vapply(d[ref$columns], type_letter, ""), collapse = ""), ref$types,
                     info = info)
    y <- d[[ref$response]]
    expect_true(is.factor(y), info = info)
    expect_identical(is.ordered(y), ref$ordered, info = info)
    expect_identical(levels(y), ref$levels, info = info)
    expect_equal(as.vector(table(y)), ref$counts, info = info)
    expect_false(anyNA(d), info = info)
    expect_equal(unname(vapply(d[ref$columns], function(x) sum(as.double(x)), 0)), ref$sums,
                 tolerance = 1e-12, info = info)
    expect_equal(sum(as.integer(y) * seq_len(ref$n)), ref$checksum, info = info)
  }
})

test_that("the Boston ranks cut the order of medv into equal parts, ties by position", {
  r <- ordstat:::equal_frequency_ranks(c(5, 1, 3, 3, 2, 9, 3), 3L)
  # order by value, ties by position: 1 (pos 2), 2 (5), 3 (3), 3 (4), 3 (7), 5 (1), 9 (6);
  # positions 0..6 -> floor(p * 3 / 7) = 0 0 0 1 1 2 2
  expect_identical(as.character(r), c("3", "1", "1", "2", "1", "3", "2"))
  expect_true(is.ordered(r))
  expect_identical(levels(r), c("1", "2", "3"))
})

test_that("the R-side sets need no Python and say which R package is missing", {
  # a package that is not installed: the message names it and how to install it
  sets <- ordstat:::r_side_sets
  sets$nowhere <- list(package = "noSuchPackage123", data = "x", response = "y",
                       build = identity)
  load <- ordstat:::load_r_side
  environment(load) <- list2env(list(r_side_sets = sets), parent = environment(load))
  expect_error(load("nowhere"), "install.packages(\"noSuchPackage123\")", fixed = TRUE)
  # in a new R process with no Python to be found, "crabs" still loads
  out <- rscript(c(
    "Sys.setenv(RETICULATE_PYTHON = '/nonexistent/python')",
    "options(ordstat.python = '/nonexistent/python')",
    "library(ordstat)",
    "d <- ordstat_data('crabs')",
    "cat('rows', nrow(d), 'python', reticulate::py_available(), '\\n')"))
  expect_true(any(grepl("rows 200 python FALSE", out)), info = paste(out, collapse = "\n"))
})

test_that("the R-side sets equal the Python loaders run on the same R data without rpy2", {
  skip_if_no_python()
  helper <- reticulate::import_from_path("loaders_on_r_data", path = testthat::test_path(),
                                         convert = FALSE)
  for (name in names(ordstat:::r_side_sets)) {
    spec <- ordstat:::r_side_sets[[name]]
    if (!requireNamespace(spec$package, quietly = TRUE)) next
    env <- new.env()
    utils::data(list = spec$data, package = spec$package, envir = env)
    raw <- as.data.frame(get(spec$data, envir = env))
    columns <- lapply(raw, function(x) {
      if (is.factor(x)) {
        list(kind = "factor", codes = as.array(as.integer(x) - 1L), levels = as.list(levels(x)),
             ordered = is.ordered(x))
      } else if (is.character(x)) {
        list(kind = "character", values = as.list(x))
      } else {
        list(kind = "values", values = as.array(x))
      }
    })
    plain <- reticulate::py_to_r(helper$python_loader(name, as.list(names(raw)),
                                                      unname(columns)))
    expect_identical(ordstat_data(name), ordstat:::plain_frame(plain), info = name)
  }
})

test_that("ordstat_data() lists every set that loads here, and every listed set loads", {
  skip_if_no_python()
  sets <- ordstat_data()
  expect_true(all(c("anes96", "bupa", "boston", "wine", "iris", "zoo") %in% sets))
  expect_true(all(c(sets, "esl") %in% ordstat_data(all = TRUE)))
  expect_false(anyDuplicated(sets) > 0)
  # every Python loader that reads R through rpy2 is built on the R side (asking Python for it
  # would abort this R session), and Python refuses to load those itself
  rdata <- ordstat:::rdata()
  python_sets <- unlist(reticulate::py_to_r(rdata$names()))
  for (name in python_sets) {
    expect_identical(reticulate::py_to_r(rdata$reads_r(name)),
                     name %in% names(ordstat:::r_side_sets), info = name)
  }
  expect_error(reticulate::py_to_r(rdata$load("crabs")), "builds it in R")
  for (name in sets) {
    # each listed set loads: a data frame with a factor (ordered or not) response
    d <- ordstat_data(name)
    expect_s3_class(d, "data.frame")
    response <- attr(d, "response")
    expect_true(is.factor(d[[response]]), info = name)
    expect_identical(names(d)[ncol(d)], response, info = name)
    expect_gt(nrow(d), 50L)
  }
})

test_that("ordstat_data loads the Python-side sets with ordered responses", {
  skip_if_no_python()
  d <- ordstat_data("anes96")
  expect_equal(dim(d), c(944L, 9L))
  expect_identical(attr(d, "response"), "PID")
  expect_true(is.ordered(d$PID))
  expect_identical(levels(d$PID)[c(1, 7)], c("strong Democrat", "strong Republican"))
  expect_true(all(vapply(d[setdiff(names(d), "PID")], is.double, logical(1))))
})

test_that("ordstat_data gives the Table 2.1 sizes when skordinal is installed", {
  skip_if_no_python()
  esl <- tryCatch(ordstat_data("esl"), error = function(e) e)
  if (inherits(esl, "error")) {
    # the missing-package path: the message says what to install
    expect_match(conditionMessage(esl), paste0("^ordstat_data\\(\\): the ESL data set needs ",
                                               "the Python package 'skordinal'.*",
                                               "reticulate::py_install\\(\"skordinal\"\\)"))
    expect_false(grepl("pip install", conditionMessage(esl), fixed = TRUE))
    expect_false("esl" %in% ordstat_data())
    expect_true("esl" %in% ordstat_data(all = TRUE))
    skip("the Python package skordinal is not installed in this Python")
  }
  expect_equal(dim(esl), c(488L, 5L))
  expect_identical(levels(esl$y), as.character(1:9))
  expect_true(is.ordered(esl$y))
})

test_that("the plain form keeps every column type", {
  plain <- list(names = list("f", "o", "l", "i", "d"), response = "o",
                columns = list(
                  list(kind = "factor", codes = c(1, -1, 0), levels = list("b", "a"),
                       ordered = FALSE),
                  list(kind = "factor", codes = c(0, 1, 1), levels = list("lo", "hi"),
                       ordered = TRUE),
                  list(kind = "logical", values = c(TRUE, FALSE, TRUE)),
                  list(kind = "integer", values = c(4, 0, 2)),
                  list(kind = "numeric", values = c(0.5, NaN, 2))))
  d <- ordstat:::plain_frame(plain)
  expect_identical(d$f, factor(c("a", NA, "b"), levels = c("b", "a")))
  expect_identical(d$o, factor(c("lo", "hi", "hi"), levels = c("lo", "hi"), ordered = TRUE))
  expect_identical(d$l, c(TRUE, FALSE, TRUE))
  expect_identical(d$i, c(4L, 0L, 2L))
  expect_identical(d$d, c(0.5, NaN, 2))
  expect_identical(attr(d, "response"), "o")
})

test_that("ordstat_data refuses bad names clearly", {
  expect_error(ordstat_data(c("a", "b")), "one data set name")
  expect_error(ordstat_data(1), "one data set name")
  expect_error(ordstat_data(NA_character_), "one data set name")
  skip_if_no_python()
  expect_error(ordstat_data("nope"), "unknown data set 'nope'")
})

test_that("corrected_ttest matches the hand computation", {
  skip_if_no_python()
  # d = 1, 2, 3, 4: mean 2.5, s^2 = 5/3; J = 4, n_test/n_train = 1/2 -> t = sqrt(5), df 3
  res <- corrected_ttest(c(2, 4, 6, 8), c(1, 2, 3, 4), n_train = 2, n_test = 1)
  expect_equal(res$statistic, sqrt(5))
  expect_identical(res$df, 3L)
  expect_equal(res$p_value, 2 * stats::pt(-sqrt(5), df = 3))
  # no correction: the plain paired t-test
  a <- c(0.21, 0.25, 0.19, 0.30, 0.22); b <- c(0.20, 0.21, 0.20, 0.24, 0.18)
  plain <- stats::t.test(a, b, paired = TRUE)
  res <- corrected_ttest(a, b, n_train = 1, n_test = 1e-12)
  expect_equal(res$statistic, unname(plain$statistic), tolerance = 1e-6)
  expect_equal(res$p_value, plain$p.value, tolerance = 1e-6)
})

test_that("corrected_ttest refuses bad input clearly", {
  expect_error(corrected_ttest("a", 1:2, 9, 1), "numeric vectors")
  expect_error(corrected_ttest(1:3, 1:3, 0, 1), "'n_train' must be one positive number")
  expect_error(corrected_ttest(1:3, 1:3, 9, c(1, 2)), "'n_test' must be one positive number")
  skip_if_no_python()
  expect_error(corrected_ttest(1:3, 1:2, 9, 1), "same length")
})
