# Python's error messages in R terms. python_error() (model.R) has already removed the
# exception's class and reticulate's traceback and put the R argument names in place of the
# Python names; what is left here is Python's wording: scikit-learn's parameter checks
# ("The 'max_depth' parameter of OrdinalTreeClassifier must be an int in the range [1, inf) or
# None. Got 0 instead.") and the refusal of categorical columns, rewritten with R's words
# (whole number, NULL, TRUE/FALSE, factor). A message of another form is returned unchanged.
r_error_message <- function(msg) {
  for (translate in list(r_parameter_message, r_categorical_message)) {
    out <- translate(msg)
    if (!is.null(out)) return(out)
  }
  msg
}

# scikit-learn's InvalidParameterError: "'<arg>' must be <R description>; got <value>."
r_parameter_message <- function(msg) {
  m <- regmatches(msg, regexec(paste0("^The '([^']+)' parameter of [A-Za-z0-9_.]+ must be ",
                                      "(.*)\\. Got (.*) instead\\.$"), msg))[[1L]]
  if (!length(m)) return(NULL)
  sprintf("'%s' must be %s; got %s.", m[[2L]], r_constraints(m[[3L]]), r_value(m[[4L]]))
}

# "an int in the range [1, inf), a str among {'a', 'b'} or None" in R's words; constraints R
# cannot give (numpy generators, Python callables) are left out.
r_constraints <- function(text) {
  # split at ", " and " or " outside brackets and braces
  parts <- character()
  depth <- 0L
  start <- 1L
  chars <- strsplit(text, "")[[1L]]
  i <- 1L
  while (i <= length(chars)) {
    ch <- chars[[i]]
    if (ch %in% c("[", "(", "{")) depth <- depth + 1L
    if (ch %in% c("]", ")", "}")) depth <- depth - 1L
    if (depth == 0L) {
      rest <- substr(text, i, nchar(text))
      sep <- if (startsWith(rest, ", ")) 2L else if (startsWith(rest, " or ")) 4L else 0L
      if (sep) {
        parts <- c(parts, substr(text, start, i - 1L))
        start <- i + sep
        i <- i + sep
        next
      }
    }
    i <- i + 1L
  }
  parts <- c(parts, substr(text, start, nchar(text)))
  words <- unique(Filter(Negate(is.null), lapply(parts, r_constraint)))
  if (!length(words)) return(text)
  if (length(words) == 1L) return(words[[1L]])
  paste(paste(utils::head(unlist(words), -1L), collapse = ", "), "or",
        utils::tail(unlist(words), 1L))
}

r_constraint <- function(part) {
  part <- trimws(part)
  range <- regmatches(part, regexec(
    "^an? (int|float|real number) in the range ([[(])([^,]+), ([^])]+)([])])$", part))[[1L]]
  if (length(range)) {
    what <- if (range[[2L]] == "int") "a whole number" else "a number"
    low <- if (range[[4L]] %in% c("-inf", "-Inf")) NULL else
      sprintf("%s %s", if (range[[3L]] == "[") ">=" else ">", r_number(range[[4L]]))
    high <- if (range[[5L]] %in% c("inf", "Inf")) NULL else
      sprintf("%s %s", if (range[[6L]] == "]") "<=" else "<", r_number(range[[5L]]))
    if (range[[2L]] == "int" && !is.null(low) && !is.null(high) && range[[3L]] == "[" &&
        range[[6L]] == "]") {
      return(sprintf("%s from %s to %s", what, r_number(range[[4L]]), r_number(range[[5L]])))
    }
    bounds <- c(low, high)
    return(if (length(bounds)) paste(what, paste(bounds, collapse = " and ")) else what)
  }
  among <- regmatches(part, regexec("^a str among \\{(.*)\\}$", part))[[1L]]
  if (length(among)) {
    options <- gsub("'", "\"", trimws(strsplit(among[[2L]], ",")[[1L]]))
    return(sprintf("one of %s", paste(options, collapse = ", ")))
  }
  switch(part,
         "None" = "NULL",
         "a str" = "a string",
         "an int" = "a whole number",
         "a float" = , "a real number" = "a number",
         "array-like" = "a vector",
         "a callable" = NULL,
         "an instance of 'bool'" = , "an instance of 'numpy.bool_'" = , "boolean" = , "a bool" =
           "TRUE or FALSE",
         if (grepl("^an instance of '(numpy|sklearn)\\.", part)) NULL else part)
}

# Python's numbers and values as R prints them: 1.0 -> 1, inf -> Inf, True -> TRUE (a string
# keeps its quotes: 'mean').
r_number <- function(x) {
  x <- trimws(x)
  if (x %in% c("inf", "-inf")) return(sub("inf", "Inf", x))
  value <- suppressWarnings(as.numeric(x))
  if (is.na(value)) x else format(value)
}

r_value <- function(x) {
  x <- trimws(x)
  if (x %in% c("True", "False")) return(toupper(x))
  if (x == "None") return("NULL")
  r_number(x)
}

# ordstat's refusal of categorical predictors ("X has unordered categorical (...) values in
# feature 1 ('chas'); <Class> needs ..."): the columns named as R predictors, the way out in R.
r_categorical_message <- function(msg) {
  if (!grepl("^X has (unordered )?categorical ", msg)) return(NULL)
  columns <- regmatches(msg, gregexpr("feature [0-9]+ \\('[^']*'\\)", msg))[[1L]]
  columns <- sub("^feature [0-9]+ \\('([^']*)'\\)$", "\\1", columns)
  listed <- paste(sprintf("'%s'", columns), collapse = ", ")
  if (grepl("^X has unordered", msg)) {
    return(sprintf(paste0(
      "predictor(s) %s are unordered factors (or character); this method cuts each predictor ",
      "at thresholds, which needs ordered values: make them ordered factors ",
      "(factor(x, levels = ..., ordered = TRUE)), use indicator columns (model.matrix()), or ",
      "use ordinal_tree() or its ensembles, which split unordered factors."), listed))
  }
  sprintf(paste0(
    "predictor(s) %s are factors (or character); this model takes numbers only: use ",
    "indicator columns (model.matrix()) or numeric codes, or a method that takes factors ",
    "(ordinal_tree(), ordinal_bagging(), ordinal_forest(), ordinal_boosting(), ",
    "discrete_da())."), listed)
}
