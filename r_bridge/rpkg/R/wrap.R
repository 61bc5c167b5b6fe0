# What the ensemble (ensemble.R) and decomposition (decomposition.R) wrappers share, on top of
# the model helpers of model.R and python.R: one fit, one predict, one training summary, and
# the checks of their numeric arguments.
#
# A wrapper reads:
#   call <- match.call()
#   params <- list(..., random_state = random_seed(random_state, caller))  # if stochastic
#   fit_wrapped("kind", params, list(...), call, parent.frame(), caller, na.action,
#               class = c("ordinal_x", "ordstat_ensemble"), method = "label", ...)

# Fit the Python class behind `kind`: `dots` must be parameters of that class not set by
# `params` (else an R error naming them), the model frame is built by prepare_fit() and its
# predictors made numeric, case weights go to Python only when the class takes them (else an R
# error naming 'weights'). `...` are fields of the returned model object. For the models that
# do not use the class order (the combiners), ordered = FALSE and labels_ok = TRUE take any
# factor or character response, and numeric_x = FALSE passes factor predictors as factors;
# allow_missing = TRUE lets missing predictors through to a model that handles them (the tree
# ensembles, with na.action = na.pass).
fit_wrapped <- function(kind, params, dots, call, env, caller, na.action, class, ...,
                        ordered = TRUE, labels_ok = FALSE, numeric_x = TRUE,
                        allow_missing = FALSE) {
  known <- setdiff(py_parameter_names(kind), c(names(params), "classes"))
  params <- c(params, check_dots(dots, known, caller))
  prep <- prepare_fit(call, env, caller, na.action, ordered = ordered, labels_ok = labels_ok,
                      allow_missing = allow_missing)
  if (!is.null(prep$weights) && !py_value(rside()$takes_sample_weight(kind))) {
    stop(sprintf(paste0("%s: 'weights' are not supported: %s takes no case weights. Leave ",
                        "out 'weights' (or repeat rows in proportion to them)."), caller,
                 py_class_name(kind)), call. = FALSE)
  }
  if (numeric_x) prep$x <- numeric_predictors(prep$x, caller)
  py <- py_fit(kind, params, prep, caller = caller)
  object <- new_model(py, prep, call, kind = kind,
                      has_proba = reticulate::py_has_attr(py, "predict_proba"),
                      allow_missing = allow_missing, ...)
  class(object) <- class
  object
}

py_class_name <- function(kind) as.character(py_value(rside()$class_name(kind)))

# The ensembles and decompositions take numeric predictors: logical columns and ordered factors
# become numbers (an ordered factor its level index, as rpart treats it); unordered factors are
# refused.
numeric_predictors <- function(x, caller) {
  unordered <- names(x)[vapply(x, function(col) is.factor(col) && !is.ordered(col), NA)]
  if (length(unordered)) {
    stop(sprintf(paste0("%s: predictor(s) %s are unordered factors; this method needs numeric ",
                        "predictors (logical columns and ordered factors are used as numbers): ",
                        "use ordinal_tree(), an ordered factor, or indicator columns ",
                        "(model.matrix())."), caller,
                 paste(sprintf("'%s'", unordered), collapse = ", ")), call. = FALSE)
  }
  for (name in names(x)) {
    col <- x[[name]]
    if (is.factor(col) || is.logical(col)) x[[name]] <- as.double(as.integer(col))
  }
  x
}

# predict(): an ordered factor with the levels of the response, or a matrix of probabilities
# with those column names; newdata gets the fit's na.action and the same numeric predictors.
predict_wrapped <- function(object, newdata, type, caller) {
  type <- match.arg(type, c("class", "prob"))
  if (type == "prob" && isFALSE(object$has_proba)) {
    stop(sprintf("%s: %s gives classes only; use type = \"class\".", caller, object$method),
         call. = FALSE)
  }
  if (!is.null(newdata)) {
    x <- prepare_newdata(object, newdata, caller)
    object$na.action <- attr(x, "na.action")
    object$x <- numeric_predictors(x, caller)
  }
  predict_py(object, NULL, type, caller)
}

# Resubstitution: confusion table, misclassification rate and mean absolute class distance.
training_fit <- function(object) {
  pred <- fitted_classes(object)
  truth <- object$y
  list(confusion = table(observed = truth, predicted = pred),
       training = c(error = mean(as.integer(pred) != as.integer(truth)),
                    mean_absolute = mean(abs(as.integer(pred) - as.integer(truth)))))
}

# Header lines of print(): the method, the classes, the units (and rows dropped).
print_header <- function(x) {
  cat(sprintf("%s, %d classes: %s\n", x$method, length(x$levels),
              paste(x$levels, collapse = " < ")))
  cat(sprintf("Units: %d   predictors: %d\n", nrow(x$x), ncol(x$x)))
  if (length(x$na.action)) cat(stats::naprint(x$na.action), "\n")
}

# The first lines of print(summary(fit)): the call, the method, the classes, the units and the
# training fit.
print_summary_head <- function(x, digits) {
  cat("Call:\n")
  print(x$call)
  cat(sprintf("\n%s\nClasses (lowest to highest): %s\nUnits: %d\n", x$method,
              paste(x$levels, collapse = " < "), x$n))
  if (length(x$na.action)) cat(stats::naprint(x$na.action), "\n")
  cat(sprintf("Training error (resubstitution): %s   mean absolute distance: %s\n",
              format(signif(x$training[["error"]], digits)),
              format(signif(x$training[["mean_absolute"]], digits))))
  cat("\nTraining confusion table:\n")
  print(x$confusion)
}

# One whole number >= lower (or NULL when null_ok), as an integer for Python.
whole_number <- function(value, name, caller, lower = 1, null_ok = FALSE) {
  if (is.null(value) && null_ok) return(NULL)
  if (!is.numeric(value) || length(value) != 1L || is.na(value) || value != round(value) ||
      value < lower || abs(value) > .Machine$integer.max) {
    stop(sprintf("%s: '%s' must be %sone whole number >= %s; got %s.", caller, name,
                 if (null_ok) "NULL or " else "", format(lower),
                 paste(format(value), collapse = " ")), call. = FALSE)
  }
  as.integer(value)
}

# One number > lower (>= lower with closed = TRUE), as a double for Python.
positive_number <- function(value, name, caller, lower = 0, closed = FALSE) {
  if (!is.numeric(value) || length(value) != 1L || !is.finite(value) ||
      (if (closed) value < lower else value <= lower)) {
    stop(sprintf("%s: '%s' must be one number %s %s; got %s.", caller, name,
                 if (closed) ">=" else ">", format(lower), paste(format(value), collapse = " ")),
         call. = FALSE)
  }
  as.double(value)
}

# n_jobs: NULL (one job) or a whole number (negative: all cores but -n_jobs - 1).
n_jobs_value <- function(n_jobs, caller) {
  if (is.null(n_jobs)) return(NULL)
  if (!is.numeric(n_jobs) || length(n_jobs) != 1L || is.na(n_jobs) || n_jobs == 0 ||
      n_jobs != round(n_jobs)) {
    stop(sprintf(paste0("%s: 'n_jobs' must be NULL or one whole number other than 0 (-1: all ",
                        "cores); got %s."), caller, paste(format(n_jobs), collapse = " ")),
         call. = FALSE)
  }
  as.integer(n_jobs)
}

one_logical <- function(value, name, caller) {
  if (!is.logical(value) || length(value) != 1L || is.na(value)) {
    stop(sprintf("%s: '%s' must be TRUE or FALSE.", caller, name), call. = FALSE)
  }
  value
}
