# Factors cross the R/Python border explicitly as (codes 0..K-1, levels, ordered): reticulate
# turns a bare ordered factor into character strings ("ordering will be lost"), so nothing here
# relies on its implicit conversion. Plain R (sourced into rpy2's R too, for split.R).

check_ordered_response <- function(y, what = "the response") {
  if (is.factor(y) && !is.ordered(y)) {
    stop(sprintf(paste0("%s is an unordered factor, so the order of its classes is unknown; ",
                        "make it ordered, e.g. factor(y, levels = c(\"low\", \"mid\", \"high\"), ",
                        "ordered = TRUE)."), what), call. = FALSE)
  }
  if (!is.ordered(y)) {
    stop(sprintf(paste0("%s must be an ordered factor (its levels give the order of the classes); ",
                        "got %s. Convert it with factor(y, levels = <lowest to highest>, ",
                        "ordered = TRUE)."), what, class(y)[1L]), call. = FALSE)
  }
  if (anyNA(y)) {
    stop(sprintf("%s has %d missing value(s); drop those rows or impute the response first.",
                 what, sum(is.na(y))), call. = FALSE)
  }
  if (nlevels(y) < 2L) {
    stop(sprintf("%s has %d level(s); at least two ordered classes are needed.", what,
                 nlevels(y)), call. = FALSE)
  }
  invisible(y)
}

# The three pieces of a factor; NA becomes code -1.
factor_parts <- function(f) {
  codes <- as.integer(f) - 1L
  codes[is.na(codes)] <- -1L
  list(codes = codes, levels = as.character(levels(f)), ordered = is.ordered(f))
}

# An R factor from codes 0..K-1 (negative = NA) and levels.
factor_from_parts <- function(codes, levels, ordered = TRUE) {
  codes <- as.integer(codes)
  codes[codes < 0L] <- NA_integer_
  factor(levels[codes + 1L], levels = levels, ordered = ordered)
}

# New data must carry the training levels of every factor predictor, in the same order.
check_newdata_factors <- function(newdata, xlevels, what = "newdata") {
  for (name in names(xlevels)) {
    col <- newdata[[name]]
    if (is.null(col)) {
      stop(sprintf("%s has no column '%s', which the model was fitted with.", what, name),
           call. = FALSE)
    }
    values <- as.character(col)
    unseen <- setdiff(unique(values[!is.na(values)]), xlevels[[name]])
    if (length(unseen)) {
      stop(sprintf(paste0("%s column '%s' has level(s) %s not seen when fitting (known: %s); ",
                          "recode them to known levels or refit with all levels."),
                   what, name, paste(sprintf('"%s"', unseen), collapse = ", "),
                   paste(sprintf('"%s"', xlevels[[name]]), collapse = ", ")), call. = FALSE)
    }
  }
  invisible(newdata)
}

# For the models that do not use the class order (EDDA, discrete models): any factor, ordered
# or not; predictions come back as a factor of the same kind.
check_factor_response <- function(y, what = "the response") {
  if (!is.factor(y)) {
    stop(sprintf(paste0("%s must be a factor (ordered or not); got %s. Convert it with ",
                        "factor(y)."), what, class(y)[1L]), call. = FALSE)
  }
  if (anyNA(y)) {
    stop(sprintf("%s has %d missing value(s); drop those rows or impute the response first.",
                 what, sum(is.na(y))), call. = FALSE)
  }
  if (nlevels(y) < 2L) {
    stop(sprintf("%s has %d level(s); at least two classes are needed.", what, nlevels(y)),
         call. = FALSE)
  }
  invisible(y)
}
