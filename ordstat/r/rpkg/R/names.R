# Option names given as strings are matched as in the Python package (ordstat._core.names): case is
# ignored, surrounding blanks are dropped, and "-" or " " may stand for "_". `choices` is the
# default of the argument (its first element is the default), all in lower case. A unique
# abbreviation is accepted, as match.arg() does.

# The choice `arg` stands for (the default when `arg` is the whole vector of choices), or NA.
option_match <- function(arg, choices) {
  if (identical(arg, choices)) return(choices[[1L]])
  if (!is.character(arg) || length(arg) != 1L || is.na(arg)) return(NA_character_)
  key <- gsub("[- ]", "_", tolower(trimws(arg)))
  if (!key %in% choices && !is.na(pmatch(key, choices))) key <- choices[[pmatch(key, choices)]]
  if (key %in% choices) key else NA_character_
}

# An option of a Python parameter: the choice it stands for, else `arg` unchanged, for the
# Python class to refuse with its own list of choices (the parameters are checked there only).
option_value <- function(arg, choices) {
  key <- option_match(arg, choices)
  if (is.na(key)) arg else key
}

# An option of an R-only argument (which Python never sees, such as the model family of
# discrete_da()): the choice it stands for, else an error naming the argument.
match_name <- function(arg, choices, caller, argname) {
  key <- option_match(arg, choices)
  if (!is.na(key)) return(key)
  if (!is.character(arg) || length(arg) != 1L || is.na(arg)) {
    stop(sprintf("%s: '%s' must be one string, one of %s.", caller, argname,
                 paste(sprintf('"%s"', choices), collapse = ", ")), call. = FALSE)
  }
  stop(sprintf('%s: unknown %s "%s"; use one of %s (case is ignored).', caller, argname, arg,
               paste(sprintf('"%s"', choices), collapse = ", ")), call. = FALSE)
}
