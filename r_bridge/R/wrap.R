# What every model wrapper shares, on top of the model helpers of model.R and python-use.R:
# one fit, one predict, one training summary.
#
# A wrapper reads:
#   call <- match.call()
#   params <- list(..., random_state = random_seed(random_state))  # if stochastic
#   fit_wrapped("kind", params, list(...), call, parent.frame(), caller, na.action,
#               class = c("ordinal_x", "ordstat_ensemble"), method = "label", ...)
#
# Model parameters are checked once, by the Python class (scikit-learn's parameter constraints
# at the start of fit); its errors come back as R errors "<caller>: <message>" under the R
# argument names (py_fit()). The wrappers check only what Python cannot see: the formula and
# data, R-only arguments (the tree's control, predict()'s type) and the names in `...`.

# Fit the Python class behind `kind`: `dots` must be parameters of that class not set by
# `params` (else an R error naming them; `aliases` = c(r_spelling = "python_name") are other
# spellings accepted there, such as rpart's), `defaults` are parameters from an R-only argument
# that `dots` override (the tree's control); `r_names` = c(python_name = "r_name") are the R
# arguments whose names differ from Python's, used in Python's error messages. The model frame
# is built by prepare_fit(); case weights go to Python only when the class takes them (else an
# R error naming 'weights'). `...` are fields of the returned model object, evaluated after a
# successful fit (so they may label what only Python has checked). Models that do not use the
# class order (the combiners, the generative models) take ordered = FALSE (labels_ok = TRUE: a
# character response too); numeric_x = TRUE makes the predictors numbers (logical columns and
# ordered factors; unordered factors refused), numeric_x = FALSE passes factors as categories;
# allow_missing = TRUE lets missing predictors through to a model that handles them (the trees
# and the tree ensembles, with na.action = na.pass).
fit_wrapped <- function(kind, params, dots, call, env, caller, na.action, class, ...,
                        ordered = TRUE, labels_ok = FALSE, numeric_x = TRUE,
                        allow_missing = FALSE, aliases = character(), r_names = character(),
                        defaults = list()) {
  known <- setdiff(py_parameter_names(kind), c(names(params), "classes"))
  params <- c(params, utils::modifyList(defaults, check_dots(dots, known, caller, aliases)))
  prep <- prepare_fit(call, env, caller, na.action, ordered = ordered, labels_ok = labels_ok,
                      allow_missing = allow_missing)
  if (!is.null(prep$weights) && !py_value(rside()$takes_sample_weight(kind))) {
    stop(sprintf(paste0("%s: 'weights' are not supported: %s takes no case weights. Leave ",
                        "out 'weights' (or repeat rows in proportion to them)."), caller,
                 py_class_name(kind)), call. = FALSE)
  }
  # for model.frame(): the predictors as given where numeric_x turns them into numbers, and the
  # case weights under a name no wrapper reuses (serial_combine()'s `weights` are its models'
  # weights)
  given <- if (!isFALSE(numeric_x)) prep$x
  if (!isFALSE(numeric_x)) prep$x <- numeric_predictors(prep$x, caller, numeric_x)
  py <- py_fit(kind, params, prep, caller = caller, r_names = r_names)
  object <- new_model(py, prep, call, kind = kind,
                      has_proba = reticulate::py_has_attr(py, "predict_proba"),
                      numeric_x = numeric_x, allow_missing = allow_missing,
                      x_given = if (length(given)) given, case_weights = prep$weights, ...)
  # "ordstat_model": the R generics every model shares (generics.R)
  class(object) <- c(class, "ordstat_model")
  object
}

# The constructor parameters of the Python class behind `kind` (for check_dots).
py_parameter_names <- function(kind) {
  as.character(py_value(rside()$parameter_names(kind)))
}

py_class_name <- function(kind) as.character(py_value(rside()$class_name(kind)))

# The ensembles and decompositions take numeric predictors: logical columns and ordered factors
# become numbers (an ordered factor its level index, as rpart treats it); unordered factors are
# refused.
numeric_predictors <- function(x, caller, how = TRUE) {
  # "indicators": unordered factors as treatment-contrast columns (decomposition.R)
  if (identical(how, "indicators")) x <- indicator_columns(x)
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

# predict(): a factor with the levels of the response (ordered when it was), or a matrix of
# probabilities with those column names, one element or row per row of newdata, named by its
# row names (as predict.lm() and predict.rpart()). predict()'s `na.action` (as in predict.lm();
# default na.pass) applies to newdata: na.pass keeps every row, and a row with a missing
# predictor is predicted by the models that handle missing predictors (allow_missing: the tree
# and the tree ensembles) and NA for the others; na.omit drops those rows; na.exclude drops them
# and pads NA back in; na.fail refuses them. The predict methods need not pass `na.action` on:
# without it, it is read from their `...`. Without newdata, the training rows are predicted
# (padded with NA under the fit's na.exclude). Models of numeric predictors get newdata turned
# into numbers the same way as their training data.
predict_wrapped <- function(object, newdata, type, caller, ..., na.action = NULL) {
  type <- match.arg(type, c("class", "prob"))
  if (type == "prob" && isFALSE(object$has_proba)) {
    stop(sprintf("%s: %s gives classes only; use type = \"class\".", caller, object$method),
         call. = FALSE)
  }
  if (is.null(na.action)) na.action <- dots_na_action(parent.frame())
  if (!is.null(newdata)) {
    x <- prepare_newdata(object, newdata, caller, check_na_action(na.action, caller))
    object$na.action <- attr(x, "na.action")
    object$x <- if (isFALSE(object$numeric_x)) x else numeric_predictors(x, caller,
                                                                          object$numeric_x)
  }
  predict_rows(object, type, caller)
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

# TRUE or FALSE, for R-only switches (which Python never sees).
one_logical <- function(value, name, caller) {
  if (!is.logical(value) || length(value) != 1L || is.na(value)) {
    stop(sprintf("%s: '%s' must be TRUE or FALSE.", caller, name), call. = FALSE)
  }
  value
}
