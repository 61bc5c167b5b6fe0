# Option names given as strings are matched as in the Python package (ordstat._core.names): case is
# ignored, surrounding blanks are dropped, and "-" or " " may stand for "_". `choices` is the
# default of the argument (its first element is the default), all in lower case. A unique
# abbreviation is accepted, as match.arg() does.
match_name <- function(arg, choices, caller, argname) {
  if (identical(arg, choices)) return(choices[[1L]])
  if (!is.character(arg) || length(arg) != 1L || is.na(arg)) {
    stop(sprintf("%s: '%s' must be one string, one of %s.", caller, argname,
                 paste(sprintf('"%s"', choices), collapse = ", ")), call. = FALSE)
  }
  key <- gsub("[- ]", "_", tolower(trimws(arg)))
  if (!key %in% choices && !is.na(pmatch(key, choices))) key <- choices[[pmatch(key, choices)]]
  if (!key %in% choices) {
    stop(sprintf('%s: unknown %s "%s"; use one of %s (case is ignored).', caller, argname, arg,
                 paste(sprintf('"%s"', choices), collapse = ", ")), call. = FALSE)
  }
  key
}
