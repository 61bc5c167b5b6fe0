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

# Argument names of other packages (randomForest's ntree, ranger's num.trees, rpart's minsplit)
# given in `...` of a wrapper. `aliases` = c(other = "ours"): the same meaning under our name;
# an alias of a formal argument of the wrapper (listed in `formal`, TRUE when the user gave it)
# is returned in $formals (an error when both spellings are given), any other alias is renamed
# in $dots (for the Python class). `refused` = c(other = "why, in R terms"): names with no
# counterpart here, an error saying so. An unknown name close to a known one (formals, Python
# names, aliases) is an error that suggests it; any other name is left for check_dots().
foreign_args <- function(dots, aliases, refused, caller, formal, known = character()) {
  out <- list(formals = list(), dots = dots)
  nms <- names(dots)
  if (!length(dots) || is.null(nms)) return(out)
  for (i in seq_along(dots)) {
    name <- nms[[i]]
    if (!nzchar(name)) next
    if (name %in% names(refused)) {
      stop(sprintf("%s: argument '%s' is not supported: %s", caller, name, refused[[name]]),
           call. = FALSE)
    }
    if (name %in% names(aliases)) {
      ours <- aliases[[name]]
      if (ours %in% names(formal)) {
        if (isTRUE(formal[[ours]]) || ours %in% names(out$formals)) {
          stop(sprintf("%s: '%s' and '%s' are the same argument; give one of them.", caller,
                       name, ours), call. = FALSE)
        }
        out$formals[[ours]] <- dots[[i]]
        out$dots[name] <- NULL
      } else {
        names(out$dots)[names(out$dots) == name] <- ours
      }
      next
    }
    candidates <- unique(c(names(formal), known, names(aliases)))
    if (!name %in% candidates) {
      suggestion <- did_you_mean(name, candidates)
      if (!is.na(suggestion)) {
        target <- if (suggestion %in% names(aliases)) aliases[[suggestion]] else suggestion
        stop(sprintf("%s: unknown argument '%s'; did you mean '%s'?", caller, name, target),
             call. = FALSE)
      }
    }
  }
  out
}

# The candidate closest to `name` (ignoring case, ".", "_"), or NA when none is close.
did_you_mean <- function(name, candidates) {
  if (!length(candidates)) return(NA_character_)
  key <- function(x) gsub("[._]", "", tolower(x))
  d <- utils::adist(key(name), key(candidates))[1L, ]
  best <- which.min(d)
  if (d[[best]] <= max(1L, floor(nchar(key(name)) / 4))) candidates[[best]] else NA_character_
}
