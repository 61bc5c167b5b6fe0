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
  dir.create(file.path(tree, "ordstat", "r", "rpkg"), recursive = TRUE)
  file.create(file.path(tree, "pyproject.toml"), file.path(tree, "ordstat", "__init__.py"))
  expect_identical(ordstat:::find_source_tree(file.path(tree, "ordstat", "r", "rpkg")),
                   normalizePath(tree))
  expect_null(ordstat:::find_source_tree(tempdir()))
  unlink(tree, recursive = TRUE)
  info <- ordstat_python_info()
  expect_named(info, c("python", "recorded_python", "source_tree"))
})

test_that("install_ordstat() installs only from a local source tree", {
  bad <- tempfile("notree")
  dir.create(bad)
  expect_error(install_ordstat(bad), "'path' must be the ordstat source tree")
  expect_error(install_ordstat(c("a", "b")), "'path' must be the ordstat source tree")
  expect_error(ordstat:::install_packages(NULL, list(source = NULL)),
               "was not installed from an ordstat source tree")
  # what pip gets: the local tree as a path (never the name 'ordstat'), then version pins
  tree <- tempfile("src")
  dir.create(tree)
  file.create(file.path(tree, "pyproject.toml"))
  for (packages in list(ordstat:::install_packages(tree),
                        ordstat:::install_packages(NULL, list(source = tree)))) {
    expect_identical(packages[1L], normalizePath(tree))
    expect_false(any(grepl("^ordstat", packages)))
    if (utils::packageVersion("reticulate") < "1.36") expect_true("numpy>=1.26,<2" %in% packages)
  }
  recorded <- ordstat_python_info()$source_tree
  if (!is.null(recorded)) {
    expect_identical(ordstat:::install_packages()[1L], normalizePath(recorded))
  }
  unlink(c(bad, tree), recursive = TRUE)
})
