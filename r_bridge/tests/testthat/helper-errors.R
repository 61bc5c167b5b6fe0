# A bad parameter value as the R user sees Python's check of it: an R error that starts with the
# R function and names the R argument (a whole word; and not `python`, the Python name, where the
# two differ) and, when given, the value refused. Python's wording is not assumed: a class may
# check in fit or declare scikit-learn's parameter constraints.
expect_parameter_error <- function(object, caller, argument, value = NULL, python = NULL) {
  err <- expect_error(object)
  msg <- conditionMessage(err)
  word <- function(x) sprintf("(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])", x)
  expect_true(startsWith(msg, paste0(caller, ": ")), info = msg)
  expect_match(msg, word(argument), perl = TRUE)
  if (!is.null(value)) expect_match(msg, value, fixed = TRUE)
  if (!is.null(python)) expect_false(grepl(word(python), msg, perl = TRUE), info = msg)
  invisible(msg)
}
