# Package metadata, and how the Python side is found.

test_that("citation, package help page and every export documented", {
  cit <- utils::citation("ordstat")
  expect_gte(length(cit), 5L)
  text <- paste(format(cit, style = "text"), collapse = "\n")
  for (who in c("Piccarreta", "Archer", "Bensmail", "Brito", "Tutz")) expect_match(text, who)
  expect_gt(length(utils::help("ordstat-package", package = "ordstat")), 0L)
  expect_gt(length(utils::help("ordstat", package = "ordstat")), 0L)
  for (fun in getNamespaceExports("ordstat")) {
    expect_gt(length(utils::help(fun, package = "ordstat")), 0L, label = fun)
  }
  desc <- utils::packageDescription("ordstat")
  for (fun in getNamespaceExports("ordstat")) expect_match(desc$Description, fun, fixed = TRUE)
})

test_that("NEWS starts with this version; the citation's year is the Date's", {
  # read directly: utils::news() would need the commonmark package for NEWS.md
  news <- readLines(system.file("NEWS.md", package = "ordstat"), n = 1L, encoding = "UTF-8")
  expect_identical(news, paste("# ordstat", utils::packageVersion("ordstat")))
  desc <- utils::packageDescription("ordstat")
  cit <- utils::citation("ordstat")[[1L]]
  expect_identical(cit$year, substr(desc$Date, 1L, 4L))
  expect_match(format(cit$author), "The ordstat developers", fixed = TRUE)
  expect_match(desc$Maintainer, "^The ordstat developers <")
})

test_that("the Python is found: option, then ORDSTAT_PYTHON, then the install record, then .venv-r", {
  find <- ordstat:::find_ordstat_python
  old <- Sys.getenv(c("ORDSTAT_PYTHON", "RETICULATE_PYTHON"), unset = NA)
  old_opt <- options(ordstat.python = NULL)
  on.exit({
    for (v in names(old)) {
      if (is.na(old[[v]])) Sys.unsetenv(v) else do.call(Sys.setenv, as.list(old[v]))
    }
    options(old_opt)
  })
  Sys.unsetenv(c("ORDSTAT_PYTHON", "RETICULATE_PYTHON"))
  root <- tempfile("repo")
  dir.create(file.path(root, ".venv-r", "bin"), recursive = TRUE)
  dir.create(file.path(root, "deep", "er"), recursive = TRUE)
  file.create(file.path(root, ".venv-r", "bin", "python"))
  recorded <- tempfile("python")
  file.create(recorded)
  none <- list(python = NULL, source = NULL)
  expect_identical(find(file.path(root, "deep", "er"), none),
                   file.path(normalizePath(root), ".venv-r", "bin", "python"))
  expect_identical(find(file.path(root, "deep"), list(python = recorded)), recorded)
  Sys.setenv(ORDSTAT_PYTHON = "/env/python")
  expect_identical(find(root, list(python = recorded)), "/env/python")
  options(ordstat.python = "/option/python")
  expect_identical(find(root, list(python = recorded)), "/option/python")
  options(ordstat.python = NULL)
  Sys.unsetenv("ORDSTAT_PYTHON")
  Sys.setenv(RETICULATE_PYTHON = "/reticulate/python")
  expect_null(find(root, list(python = recorded)))
  unlink(c(root, recorded), recursive = TRUE)
  # the install record: the source tree is found upwards from where the package was built
  tree <- tempfile("src")
  dir.create(file.path(tree, "ordstat"), recursive = TRUE)
  dir.create(file.path(tree, "r_bridge", "R"), recursive = TRUE)
  file.create(file.path(tree, "pyproject.toml"), file.path(tree, "ordstat", "__init__.py"))
  expect_identical(ordstat:::find_source_tree(file.path(tree, "r_bridge", "R")),
                   normalizePath(tree))
  expect_null(ordstat:::find_source_tree(tempdir()))
  unlink(tree, recursive = TRUE)
  info <- ordstat_python_info()
  expect_named(info, c("python", "recorded_python", "source_tree", "problem"))
})

test_that("install_ordstat() takes a source tree, a wheel, an sdist or a requirement", {
  source <- ordstat:::python_package_source
  version <- as.character(utils::packageVersion("ordstat"))
  # default: this R package's version from the package index
  default <- source(NULL)
  expect_identical(default$kind, "requirement")
  expect_identical(default$spec, paste0("ordstat==", version))
  expect_identical(source(NULL, version = "9.8.7")$spec, "ordstat==9.8.7")
  for (req in c("ordstat", "ordstat==0.1.0", "ordstat>=0.1,<0.2", "ordstat[r]==0.1.0",
                "ordstat @ https://example.org/ordstat-0.1.0.tar.gz", "OrdStat~=0.1")) {
    got <- source(req)
    expect_identical(got$kind, "requirement", info = req)
    expect_identical(got$spec, req, info = req)
  }
  for (other in c("numpy", "ordstatx==1", "ordstat-extra", "pip install ordstat")) {
    expect_error(source(other), "neither an existing path nor a pip requirement for ordstat",
                 info = other)
  }
  # local paths: a source tree, a wheel, an sdist
  root <- tempfile("pkgs")
  tree <- file.path(root, "src")
  dir.create(tree, recursive = TRUE)
  file.create(file.path(tree, "pyproject.toml"))
  wheel <- file.path(root, "ordstat-0.1.0-py3-none-any.whl")
  sdist <- file.path(root, "ordstat-0.1.0.tar.gz")
  other <- file.path(root, "numpy-2.0.0-py3-none-any.whl")
  text <- file.path(root, "ordstat-0.1.0.txt")
  file.create(wheel, sdist, other, text)
  expect_identical(source(tree)[c("kind", "spec")],
                   list(kind = "directory", spec = normalizePath(tree)))
  expect_identical(source(wheel)[c("kind", "spec")],
                   list(kind = "wheel", spec = normalizePath(wheel)))
  expect_identical(source(sdist)[c("kind", "spec")],
                   list(kind = "sdist", spec = normalizePath(sdist)))
  expect_error(source(root), "not an ordstat source tree (it has no pyproject.toml)",
               fixed = TRUE)
  expect_error(source(other), "not a wheel or source distribution of ordstat")
  expect_error(source(text), "not a wheel or source distribution of ordstat")
  # path-like names that exist nowhere are errors, never requirements for pip to look up
  for (missing in c(file.path(root, "ordstat-9.whl"), "ordstat-0.1.0.tar.gz", "./ordstat",
                    "~/no/such/ordstat", file.path(root, "nothing"))) {
    expect_error(source(missing), "there is no file or directory", info = missing)
  }
  for (bad in list(c("a", "b"), 1, NA_character_, "")) {
    expect_error(source(bad), "'package' must be one string")
  }
  expect_error(install_ordstat(c("a", "b")), "'package' must be one string")
  expect_error(install_ordstat(root), "no pyproject.toml")
  unlink(root, recursive = TRUE)
})

test_that("install_ordstat() gives pip ordstat first, then reticulate's pins", {
  packages <- ordstat:::install_packages
  req <- list(kind = "requirement", spec = "ordstat==0.1.0")
  old <- packages(req, reticulate_version = package_version("1.28"))
  expect_identical(old, c("ordstat==0.1.0", "numpy>=1.26,<2", "pandas>=2.2,<2.3",
                          "scikit-learn>=1.6,<1.7"))
  expect_identical(packages(req, reticulate_version = package_version("1.36")),
                   "ordstat==0.1.0")
  wheel <- list(kind = "wheel", spec = "/tmp/ordstat-0.1.0-py3-none-any.whl")
  expect_identical(packages(wheel, package_version("1.40")), wheel$spec)
  expect_identical(ordstat:::pip_arguments(old),
                   c("-m", "pip", "install", "--upgrade", old))
})

test_that("a Python package of another version warns once per session, saying how to fix it", {
  warn <- ordstat:::warn_version_mismatch
  state <- new.env()
  expect_silent(warn("0.1.0", "0.1.0", state = state))
  expect_false(isTRUE(state$version_warned))
  w <- expect_warning(warn("0.2.0", "0.1.0", state = state), "version 0.2.0")
  msg <- conditionMessage(w)
  expect_match(msg, "R package is version 0.1.0", fixed = TRUE)
  expect_match(msg, "install_ordstat()", fixed = TRUE)
  expect_match(msg, "ordstat==0.1.0", fixed = TRUE)
  expect_match(msg, "ORDSTAT_PYTHON", fixed = TRUE)
  # once per session
  expect_silent(warn("0.3.0", "0.1.0", state = state))
  expect_false(warn("0.3.0", "0.1.0", state = state))
})

test_that("the Python package in use has the R package's version", {
  skip_if_no_python()
  py_version <- reticulate::py_to_r(reticulate::import("ordstat", convert = FALSE)$`__version__`)
  expect_identical(py_version, as.character(utils::packageVersion("ordstat")))
  expect_null(ordstat_python_info()$problem)
})

test_that("ordstat_available() records what is missing when Python cannot be used", {
  out <- rscript(c(
    "options(ordstat.python = '/nonexistent/python')",
    "library(ordstat)",
    "cat('available', ordstat_available(), '\\n')",
    "cat('problem', ordstat_python_info()$problem, '\\n')"))
  text <- paste(out, collapse = "\n")
  expect_match(text, "available FALSE", fixed = TRUE)
  expect_match(text, "problem ordstat: ", fixed = TRUE)
  expect_match(text, "install_ordstat()", fixed = TRUE)
})
