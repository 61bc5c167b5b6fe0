# Python's wording in R's words (R/errors.R): scikit-learn's parameter checks and ordstat's
# refusal of categorical columns.

test_that("scikit-learn's parameter messages are rewritten in R's words", {
  tr <- ordstat:::r_error_message
  expect_identical(
    tr(paste0("The 'maxdepth' parameter of OrdinalTreeClassifier must be an int in the range ",
              "[1, inf) or None. Got 0 instead.")),
    "'maxdepth' must be a whole number >= 1 or NULL; got 0.")
  expect_identical(
    tr(paste0("The 'maxdepth' parameter of OrdinalTreeClassifier must be an int in the range ",
              "[1, 60]. Got 0 instead.")),
    "'maxdepth' must be a whole number from 1 to 60; got 0.")
  expect_identical(
    tr(paste0("The 'max_features' parameter of OrdinalRandomForestClassifier must be an int in ",
              "the range [1, inf), a float in the range (0.0, 1.0], a str among {'sqrt', ",
              "'log2'} or None. Got 1.5 instead.")),
    paste0("'max_features' must be a whole number >= 1, a number > 0 and <= 1, one of ",
           "\"sqrt\", \"log2\" or NULL; got 1.5."))
  expect_identical(
    tr(paste0("The 'random_state' parameter of X must be an int in the range [0, 4294967295], ",
              "an instance of 'numpy.random.mtrand.RandomState' or None. Got -2 instead.")),
    "'random_state' must be a whole number from 0 to 4294967295 or NULL; got -2.")
  expect_identical(
    tr(paste0("The 'weighted' parameter of X must be an instance of 'bool' or an instance of ",
              "'numpy.bool_'. Got 'yes' instead.")),
    "'weighted' must be TRUE or FALSE; got 'yes'.")
  expect_identical(tr("The 'tol' parameter of X must be a float in the range [0.0, 1.0). Got 1.0 instead."),
                   "'tol' must be a number >= 0 and < 1; got 1.")
  expect_identical(tr("The 'flag' parameter of X must be an instance of 'bool'. Got None instead."),
                   "'flag' must be TRUE or FALSE; got NULL.")
  # any other message unchanged
  expect_identical(tr("criterion must be a string"), "criterion must be a string")
})

test_that("ordstat's refusal of categorical columns names the R predictors", {
  tr <- ordstat:::r_error_message
  msg <- tr(paste0("X has unordered categorical (string or unordered Categorical) values in ",
                   "feature 1 ('chas'), feature 2 ('g'); ReplicatedTreeClassifier needs numeric ",
                   "predictors or ordered Categoricals (taken as their codes): ..."))
  expect_match(msg, "^predictor\\(s\\) 'chas', 'g' are unordered factors")
  expect_match(msg, "ordered = TRUE", fixed = TRUE)
  msg <- tr(paste0("X has categorical (string or Categorical) values in feature 3 ('f'); EDDA ",
                   "needs numeric predictors. Encode them as numbers first, e.g. with ",
                   "pd.get_dummies(X, columns=['f'], drop_first=True)"))
  expect_match(msg, "^predictor\\(s\\) 'f' are factors .*model\\.matrix")
  expect_false(grepl("pd\\.|EDDA|Categorical", msg))
})

test_that("a fit with a bad value gives the R message (the caller, the R argument)", {
  skip_if_no_python()
  d <- data.frame(x = 1:30, y = factor(rep(1:3, each = 10), ordered = TRUE))
  msg <- conditionMessage(expect_error(ordinal_forest(y ~ x, d, max_features = 1.5)))
  # (the order of the names follows a Python set)
  expect_match(msg, paste0("^ordinal_forest\\(\\): 'max_features' must be a whole number >= 1, ",
                           "a number > 0 and <= 1, one of (\"(sqrt|log2|log2\\+1)\"(, )?){3} or ",
                           "NULL; got 1\\.5\\.$"))
  msg <- conditionMessage(expect_error(ordinal_tree(y ~ x, d, maxdepth = 0)))
  expect_match(msg, "^ordinal_tree\\(\\): 'maxdepth' must be a whole number (>= 1|from 1 to [0-9]+)")
  expect_match(msg, "; got 0\\.$")
  expect_false(grepl("InvalidParameterError|sklearn|Classifier|instead", msg))
})
