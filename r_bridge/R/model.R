# Formula + data -> what Python needs, and the model objects, shared by every model wrapper
# through fit_wrapped() and predict_wrapped() (wrap.R):
#   prep <- prepare_fit(call, parent.frame(), "f()", na.action)
#   py <- py_fit("kind", params, prep, caller = "f()")        # Python checks the parameters
#   object <- new_model(py, prep, call, extra = ...)          # pickled: survives saveRDS
#   predict_py(object, type, "predict()")                      # restores the model lazily

# The model frame, the checked response and the predictors (as columns for Python), the
# way lm() and rpart() build theirs: `call` is the wrapper's match.call() and `env` its
# parent.frame(), so that `subset` and `weights` are evaluated in `data` (or, for a formula
# without data, in the formula's environment). Rows are dropped or refused by `na.action`.
# ordered = FALSE accepts a plain factor response (models that do not use the class order),
# and labels_ok = TRUE a character one too (as factor(y)); allow_missing = TRUE lets missing
# predictors through (models that handle them: the tree and its ensembles).
prepare_fit <- function(call, env, caller, na.action = stats::na.omit, ordered = TRUE,
                        allow_missing = FALSE, labels_ok = FALSE) {
  formula <- eval(call$formula, env)
  if (!inherits(formula, "formula")) {
    stop(sprintf("%s: 'formula' must be a formula such as y ~ x1 + x2; got %s.", caller,
                 class(formula)[1L]), call. = FALSE)
  }
  data <- if (is.null(call$data)) NULL else eval(call$data, env)
  if (!is.null(data) && !is.data.frame(data)) {
    stop(sprintf("%s: 'data' must be a data frame; got %s.", caller, class(data)[1L]),
         call. = FALSE)
  }
  na_fun <- check_na_action(na.action, caller)
  mf <- call("model.frame", formula = formula, drop.unused.levels = FALSE,
             na.action = na_fun)
  if (!is.null(data)) mf$data <- data
  # subset and weights are evaluated here, in data and then the caller's frame (where a
  # wrapper's ..1 resolves), and handed to model.frame as values
  for (arg in c("subset", "weights")) {
    if (!is.null(call[[arg]])) {
      mf[[arg]] <- tryCatch(eval(call[[arg]], data, env), error = function(e) {
        stop(sprintf("%s: '%s' could not be evaluated: %s", caller, arg, conditionMessage(e)),
             call. = FALSE)
      })
    }
  }
  mf[[1L]] <- quote(stats::model.frame)
  mf_call <- mf
  mf <- tryCatch(eval(mf, env), error = function(e) {
    refuse_unobserved(mf_call, env, caller)
    stop(sprintf("%s: the model frame could not be built: %s", caller, conditionMessage(e)),
         call. = FALSE)
  })
  terms <- attr(mf, "terms")
  if (attr(terms, "response") != 1L) {
    stop(sprintf("%s: the formula has no response; write it as y ~ predictors.", caller),
         call. = FALSE)
  }
  if (!nrow(mf)) {
    refuse_unobserved(mf_call, env, caller)
    stop(sprintf("%s: no rows left to fit (after 'subset' and 'na.action').", caller),
         call. = FALSE)
  }
  y <- stats::model.response(mf)
  if (labels_ok && !ordered && is.character(y)) y <- factor(y)
  what <- sprintf("%s: the response '%s'", caller, deparse(formula[[2L]]))
  if (ordered) check_ordered_response(y, what) else check_factor_response(y, what)
  x <- mf[-1L]
  x <- x[!grepl("^\\(.*\\)$", names(x))]  # (weights), (subset) and the like
  if (!ncol(x)) {
    stop(sprintf("%s: the formula has no predictors.", caller), call. = FALSE)
  }
  xlevels <- list()
  for (name in names(x)) {
    col <- x[[name]]
    # as rpart: a character predictor is a factor of its sorted values, whose levels xlevels
    # keeps (predict() then takes character or factor columns in newdata)
    if (is.character(col)) col <- x[[name]] <- factor(col)
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
  check_observed(x, caller)
  if (!allow_missing) check_no_missing(x, caller, "data")
  weights <- check_weights(stats::model.weights(mf), nrow(x), caller)
  list(y = y, x = x, terms = terms, xlevels = xlevels, levels = levels(y),
       ordered = is.ordered(y), weights = weights, na.action = attr(mf, "na.action"),
       na_fun = na_fun)
}

# A predictor with no observed value (in the rows used) cannot be used, also by the models that
# handle missing predictors: an R error naming it.
check_observed <- function(x, caller) {
  empty <- names(x)[vapply(x, function(col) all(is.na(col)), NA)]
  if (length(empty)) {
    stop(sprintf(paste0("%s: predictor%s %s %s no observed value (every value is missing in the ",
                        "rows used), so %s cannot be used; drop %s from the formula."), caller,
                 if (length(empty) > 1L) "s" else "",
                 paste(sprintf("'%s'", empty), collapse = ", "),
                 if (length(empty) > 1L) "have" else "has",
                 if (length(empty) > 1L) "they" else "it",
                 if (length(empty) > 1L) "them" else "it"), call. = FALSE)
  }
  invisible(x)
}

# When the model frame could not be built or has no rows left (na.omit drops every row when one
# predictor is all NA): if a predictor has no observed value, say so, naming it.
refuse_unobserved <- function(mf_call, env, caller) {
  mf_call$na.action <- stats::na.pass
  mf <- tryCatch(eval(mf_call, env), error = function(e) NULL)
  if (is.null(mf) || !nrow(mf)) return(invisible(NULL))
  x <- mf[-1L]
  check_observed(x[!grepl("^\\(.*\\)$", names(x))], caller)
}

# na.action as a function: a function, or the name of one (as "na.omit").
check_na_action <- function(na.action, caller) {
  if (is.character(na.action) && length(na.action) == 1L) {
    fun <- tryCatch(match.fun(na.action), error = function(e) NULL)
    if (!is.null(fun)) return(fun)
  }
  if (is.function(na.action)) return(na.action)
  stop(sprintf(paste0("%s: 'na.action' must be a function such as na.omit, na.exclude or ",
                      "na.fail (or its name); got %s."), caller,
               paste(format(na.action), collapse = " ")), call. = FALSE)
}

# Predictions back to the rows of the data given: rows dropped by na.exclude come back as NA
# (na.omit leaves them out), as napredict() does for lm.
pad_excluded <- function(pred, na) {
  if (!inherits(na, "exclude") || !length(na)) return(pred)
  n <- length(na) + NROW(pred)
  keep <- setdiff(seq_len(n), na)
  all_names <- character(n)
  all_names[keep] <- if (is.matrix(pred)) rownames(pred) else names(pred)
  all_names[na] <- names(na)
  if (is.matrix(pred)) {
    out <- matrix(NA_real_, n, ncol(pred), dimnames = list(all_names, colnames(pred)))
    out[keep, ] <- pred
  } else {
    out <- pred[rep(NA_integer_, n)]
    out[keep] <- pred
    names(out) <- all_names
  }
  out
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

# Predictors of new data, with the training levels of factors enforced (character columns
# become factors with them); `na_fun` is predict()'s na.action (na.pass: every row kept, a row
# with a missing predictor is predicted by the models that handle them and NA by the others).
prepare_newdata <- function(object, newdata, caller, na_fun = stats::na.pass) {
  if (!is.data.frame(newdata)) {
    stop(sprintf("%s: 'newdata' must be a data frame; got %s.", caller, class(newdata)[1L]),
         call. = FALSE)
  }
  check_newdata_factors(newdata, object$xlevels, sprintf("%s: newdata", caller))
  given <- if (is.null(object$x_given)) object$x else object$x_given
  newdata <- check_newdata_numbers(newdata, given, sprintf("%s: newdata", caller))
  terms <- stats::delete.response(object$terms)
  frame <- function(na_fun) stats::model.frame(terms, newdata, na.action = na_fun,
                                               xlev = object$xlevels)
  mf <- tryCatch(frame(na_fun), error = function(e) {
    all_rows <- tryCatch(frame(stats::na.pass), error = function(e) NULL)
    if (!is.null(all_rows) && anyNA(all_rows)) {
      missing <- names(all_rows)[vapply(all_rows, anyNA, NA)]
      stop(sprintf(paste0("%s: 'newdata' has missing values in %s, which predict()'s ",
                          "'na.action' refuses (%s); na.action = na.pass (the default) keeps ",
                          "those rows, na.omit drops them."), caller,
                   paste(sprintf("'%s'", missing), collapse = ", "), conditionMessage(e)),
           call. = FALSE)
    }
    stop(sprintf("%s: 'newdata' could not be used: %s", caller, conditionMessage(e)),
         call. = FALSE)
  })
  na <- attr(mf, "na.action")
  # the training column's kind decides (newdata may give an ordered factor as character)
  for (name in names(object$xlevels)) {
    ordered <- if (is.null(given[[name]])) is.ordered(mf[[name]]) else is.ordered(given[[name]])
    mf[[name]] <- factor(as.character(mf[[name]]), levels = object$xlevels[[name]],
                         ordered = ordered)
  }
  attr(mf, "na.action") <- na
  mf
}

# Columns that were numbers at training and come as text in newdata: numbers written as text
# become numbers; any other text is an error naming the column (coercing it would make it NA, a
# missing value routed as such, without a word beyond R's generic coercion warning).
check_newdata_numbers <- function(newdata, given, what) {
  for (name in intersect(names(given), names(newdata))) {
    values <- newdata[[name]]
    if (!is.numeric(given[[name]]) || is.numeric(values) || is.logical(values)) next
    text <- trimws(as.character(values))
    number <- suppressWarnings(as.numeric(text))
    bad <- unique(text[is.na(number) & !is.na(text) & nzchar(text)])
    if (length(bad)) {
      comma <- any(grepl("^[-+]?[0-9]*,[0-9]+$", bad))
      stop(sprintf("%s: column '%s' was numeric when the model was fitted but holds text: %s%s.",
                   what, name, paste(sprintf('"%s"', utils::head(bad, 3L)), collapse = ", "),
                   if (comma) " (decimal commas? read the file with dec = \",\")" else ""),
           call. = FALSE)
    }
    newdata[[name]] <- number
  }
  newdata
}

# predict()'s na.action when the predict method did not pass it on: the argument of that name
# in the `...` of the method's frame `env` (only that one is evaluated), else na.pass.
dots_na_action <- function(env) {
  if (!exists("...", envir = env, inherits = FALSE)) return(stats::na.pass)
  i <- match("na.action", eval(quote(...names()), env))
  if (is.na(i)) stats::na.pass else eval(call("...elt", i), env)
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

# Fit on the Python side. The Python class checks the parameters (and the data); any error it
# raises becomes an R error "<caller>: <message>", with the Python names of `r_names`
# (c(python_name = "r_name")) replaced by the R argument names.
py_fit <- function(kind, params, prep, weights = prep$weights, caller = "fit",
                   r_names = character()) {
  X <- py_frame(prep$x)
  p <- factor_parts(prep$y)
  w <- if (is.null(weights)) NULL else as.array(as.double(weights))
  py <- tryCatch(
    rside()$fit(kind, na_as_nan(params), X, as.array(p$codes), as.list(p$levels), w,
                p$ordered),
    error = function(e) stop(python_error(e, caller, r_names), call. = FALSE))
  py_warnings(caller)
  py
}

# The message of an R error for an error raised in Python: the caller, then Python's message
# without the exception's class and reticulate's traceback, with every whole-word Python name
# of `r_names` replaced by its R name.
python_error <- function(e, caller, r_names = character()) {
  msg <- sub("\nDetailed traceback:.*$", "", conditionMessage(e))
  msg <- sub("^([A-Za-z_][A-Za-z0-9_]*\\.)*[A-Za-z_][A-Za-z0-9_]*(Error|Exception): ", "",
             trimws(msg))
  for (name in names(r_names)) {
    msg <- gsub(sprintf("(?<![A-Za-z0-9_.])%s(?![A-Za-z0-9_])", name), r_names[[name]], msg,
                perl = TRUE)
  }
  msg <- r_error_message(msg)  # Python's wording in R terms (errors.R)
  sprintf("%s: %s", caller, msg)
}

# R's NA has no Python counterpart (reticulate turns a logical NA into True and an integer NA
# into -2147483648): a missing value in a parameter crosses as NaN, which Python's checks
# refuse. Lists (such as a base learner's parameters) are translated element by element.
na_as_nan <- function(x) {
  if (is.list(x) && !is.object(x)) return(lapply(x, na_as_nan))
  if (is.atomic(x) && !is.double(x) && anyNA(x)) {
    if (length(x) == 1L) return(NaN)
    x <- as.list(x)
    x[vapply(x, is.na, NA)] <- list(NaN)
  }
  x
}

# The Python warnings of the last fit or prediction as R warnings, prefixed with the caller.
py_warnings <- function(caller) {
  for (msg in py_value(rside()$take_warnings())) {
    warning(sprintf("%s: %s", caller, msg), call. = FALSE)
  }
  invisible(NULL)
}

# The fields every model object shares (a wrapper adds its own and sets its class).
new_model <- function(py, prep, call, ...) {
  c(list(levels = prep$levels, response_ordered = prep$ordered, xlevels = prep$xlevels,
         terms = prep$terms, x = prep$x, y = prep$y, weights = prep$weights,
         na.action = prep$na.action, na_fun = prep$na_fun, call = call),
    py_persist(py), list(...))
}

# The predictions of the Python model for the predictors object$x (the training rows, or the new
# data put there by predict_wrapped()): a factor with the training levels (ordered when the
# response was), or a matrix of class probabilities with the levels as column names; rows in
# object$na.action come back as NA under na.exclude.
predict_py <- function(object, type, caller) {
  x <- object$x
  na <- object$na.action
  ordered <- !isFALSE(object$response_ordered)
  if (!nrow(x)) {
    out <- if (type == "class") factor(character(), object$levels, ordered = ordered)
           else matrix(numeric(), 0L, length(object$levels),
                       dimnames = list(NULL, object$levels))
    return(pad_excluded(out, na))
  }
  X <- py_frame(x)
  py <- py_model(object)
  on_python <- function(f) {
    tryCatch(py_value(f(py, X)),
             error = function(e) stop(python_error(e, caller), call. = FALSE))
  }
  if (type == "class") {
    codes <- on_python(rside()$predict_codes)
    py_warnings(caller)
    out <- factor_from_parts(as.integer(codes), object$levels, ordered = ordered)
    names(out) <- rownames(x)
  } else {
    prob <- on_python(rside()$predict_proba)
    py_warnings(caller)
    out <- matrix(as.double(prob), nrow = nrow(x))
    dimnames(out) <- list(rownames(x), object$levels)
  }
  pad_excluded(out, na)
}

# predict_py() for every row of object$x: a row with a missing predictor gets NA from a model
# that does not handle missing predictors (the others predict it), its name kept, as
# predict.lm() does under na.pass.
predict_rows <- function(object, type, caller) {
  x <- object$x
  if (isTRUE(object$allow_missing) || !anyNA(x)) return(predict_py(object, type, caller))
  ok <- stats::complete.cases(x)
  na <- object$na.action
  object$na.action <- NULL
  object$x <- x[ok, , drop = FALSE]
  part <- predict_py(object, type, caller)
  if (is.matrix(part)) {
    out <- matrix(NA_real_, nrow(x), ncol(part), dimnames = list(rownames(x), colnames(part)))
    out[ok, ] <- part
  } else {
    out <- part[rep(NA_integer_, nrow(x))]
    out[ok] <- part
    names(out) <- rownames(x)
  }
  pad_excluded(out, na)
}

# Predicted classes of the training rows, without the NA that na.exclude pads in (for the
# confusion tables of summary()).
fitted_classes <- function(object, caller = "summary()") {
  object$na.action <- NULL
  predict_rows(object, "class", caller)
}

# Arguments in `...` must be known: an R error naming the unknown one, never a Python
# TypeError. `aliases` maps other spellings (rpart's, mclust's) to the Python names.
check_dots <- function(dots, known, caller, aliases = character()) {
  if (!length(dots)) return(list())
  nms <- names(dots)
  if (is.null(nms) || any(!nzchar(nms))) {
    stop(sprintf("%s: extra arguments must be named (one of %s).", caller,
                 paste(sprintf("'%s'", c(known, names(aliases))), collapse = ", ")),
         call. = FALSE)
  }
  nms <- ifelse(nms %in% names(aliases), aliases[nms], nms)
  bad <- setdiff(nms, known)
  if (length(bad)) {
    stop(sprintf("%s: unknown argument%s %s; known extra arguments: %s.", caller,
                 if (length(bad) > 1L) "s" else "",
                 paste(sprintf("'%s'", bad), collapse = ", "),
                 paste(sprintf("'%s'", sort(unique(c(known, names(aliases))))), collapse = ", ")),
         call. = FALSE)
  }
  if (anyDuplicated(nms)) {
    stop(sprintf("%s: argument '%s' is given twice (under two spellings).", caller,
                 nms[anyDuplicated(nms)]), call. = FALSE)
  }
  stats::setNames(dots, nms)
}

check_weights <- function(weights, n, caller) {
  if (is.null(weights)) return(NULL)
  if (!is.numeric(weights) || length(weights) != n || anyNA(weights) || any(weights < 0)) {
    stop(sprintf("%s: 'weights' must be %d non-negative numbers, one per row of data.", caller,
                 n), call. = FALSE)
  }
  as.double(weights)
}
