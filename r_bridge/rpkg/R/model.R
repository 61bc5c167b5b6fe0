# Formula + data -> what Python needs, shared by every model wrapper.

# The model frame, the checked ordered response and the predictors (as columns for Python).
prepare_fit <- function(formula, data, caller) {
  if (!inherits(formula, "formula")) {
    stop(sprintf("%s: 'formula' must be a formula such as y ~ x1 + x2; got %s.", caller,
                 class(formula)[1L]), call. = FALSE)
  }
  if (!is.data.frame(data)) {
    stop(sprintf("%s: 'data' must be a data frame; got %s.", caller, class(data)[1L]),
         call. = FALSE)
  }
  mf <- stats::model.frame(formula, data, na.action = stats::na.pass,
                           drop.unused.levels = FALSE)
  terms <- attr(mf, "terms")
  if (attr(terms, "response") != 1L) {
    stop(sprintf("%s: the formula has no response; write it as y ~ predictors.", caller),
         call. = FALSE)
  }
  y <- stats::model.response(mf)
  check_ordered_response(y, sprintf("%s: the response '%s'", caller,
                                    deparse(formula[[2L]])))
  x <- mf[-1L]
  if (!ncol(x)) {
    stop(sprintf("%s: the formula has no predictors.", caller), call. = FALSE)
  }
  xlevels <- list()
  for (name in names(x)) {
    col <- x[[name]]
    if (is.character(col)) {
      stop(sprintf("%s: predictor '%s' is character; convert it with factor() first.", caller,
                   name), call. = FALSE)
    }
    if (is.factor(col)) xlevels[[name]] <- levels(col)
    else if (!is.numeric(col) && !is.logical(col)) {
      stop(sprintf("%s: predictor '%s' has class %s; use numeric, logical or factor columns.",
                   caller, name, class(col)[1L]), call. = FALSE)
    }
    if (is.matrix(col)) {
      stop(sprintf("%s: predictor '%s' is a matrix; give its columns as separate variables.",
                   caller, name), call. = FALSE)
    }
  }
  check_no_missing(x, caller, "data")
  list(y = y, x = x, terms = terms, xlevels = xlevels, levels = levels(y))
}

# The Python models do not take missing predictors (yet): say so in R terms.
check_no_missing <- function(x, caller, what) {
  n_missing <- vapply(x, function(col) sum(is.na(col)), numeric(1))
  if (any(n_missing > 0)) {
    bad <- names(n_missing)[n_missing > 0]
    stop(sprintf(paste0("%s: predictor(s) %s in '%s' have missing values (%s); the models do ",
                        "not handle missing predictors: drop those rows (e.g. na.omit()) or ",
                        "impute them first."), caller,
                 paste(sprintf("'%s'", bad), collapse = ", "), what,
                 paste(n_missing[n_missing > 0], collapse = ", ")), call. = FALSE)
  }
  invisible(x)
}

# Predictors of new data, with the training levels of factors enforced.
prepare_newdata <- function(object, newdata, caller) {
  if (!is.data.frame(newdata)) {
    stop(sprintf("%s: 'newdata' must be a data frame; got %s.", caller, class(newdata)[1L]),
         call. = FALSE)
  }
  check_newdata_factors(newdata, object$xlevels, sprintf("%s: newdata", caller))
  terms <- stats::delete.response(object$terms)
  mf <- stats::model.frame(terms, newdata, na.action = stats::na.pass, xlev = object$xlevels)
  for (name in names(object$xlevels)) {
    mf[[name]] <- factor(as.character(mf[[name]]), levels = object$xlevels[[name]],
                         ordered = is.ordered(mf[[name]]))
  }
  check_no_missing(mf, caller, "newdata")
  mf
}

# The predictors as a pandas DataFrame, factors passed explicitly as (codes, levels, ordered).
py_frame <- function(x) {
  columns <- lapply(x, function(col) {
    if (is.factor(col)) {
      p <- factor_parts(col)
      list(kind = "factor", codes = as.array(p$codes), levels = as.list(p$levels),
           ordered = p$ordered)
    } else {
      list(kind = "numeric", values = as.array(as.double(col)))
    }
  })
  rside()$frame(unname(columns), as.list(names(x)))
}

py_fit <- function(kind, params, prep, weights = NULL) {
  X <- py_frame(prep$x)
  p <- factor_parts(prep$y)
  w <- if (is.null(weights)) NULL else as.array(as.double(weights))
  rside()$fit(kind, params, X, as.array(p$codes), as.list(p$levels), w)
}

# Shared predict for the S3 wrappers: ordered factor with the training levels, or a matrix of
# class probabilities with the levels as column names.
predict_py <- function(object, newdata, type, caller) {
  type <- match.arg(type, c("class", "prob"))
  x <- if (is.null(newdata)) object$x else prepare_newdata(object, newdata, caller)
  X <- py_frame(x)
  if (type == "class") {
    codes <- py_value(rside()$predict_codes(object$py, X))
    out <- factor_from_parts(as.integer(codes), object$levels, ordered = TRUE)
    names(out) <- rownames(x)
    out
  } else {
    prob <- py_value(rside()$predict_proba(object$py, X))
    prob <- matrix(as.double(prob), nrow = nrow(x))
    dimnames(prob) <- list(rownames(x), object$levels)
    prob
  }
}

check_weights <- function(weights, n, caller) {
  if (is.null(weights)) return(NULL)
  if (!is.numeric(weights) || length(weights) != n || anyNA(weights) || any(weights < 0)) {
    stop(sprintf("%s: 'weights' must be %d non-negative numbers, one per row of data.", caller,
                 n), call. = FALSE)
  }
  as.double(weights)
}
