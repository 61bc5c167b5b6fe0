#' <% v <- function(name, default) gsub("\n\\s*", "\n#'   ", get0(name, envir = parent.env(environment()), inherits = FALSE, ifnotfound = default)) %>
#' @param formula A formula \code{y ~ x1 + x2 + ...}; <%= v("response", "") %>
#' @param data A data frame (optional: without it the variables are taken from the
#'   environment of the formula, as in \code{lm}).
#' @param weights <%= v("weights", "Optional case weights (a column of \\code{data} or a vector).") %>
#' @param subset Optional expression selecting the rows to use, as in \code{lm}.
#' @param na.action What to do with rows that have missing values: \code{na.omit} (default),
#'   <%= v("na_choices", "\\code{na.exclude} or \\code{na.fail}") %>, a function or its
#'   name<%= v("na_note", "") %>.
