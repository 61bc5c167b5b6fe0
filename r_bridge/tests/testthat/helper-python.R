# Tests that need Python skip when it is missing (so R CMD check passes anywhere), except when
# ORDSTAT_REQUIRE_PYTHON=true (set by `make test`), where a missing Python is a failure.
skip_if_no_python <- function() {
  if (ordstat_available()) return(invisible(TRUE))
  if (identical(Sys.getenv("ORDSTAT_REQUIRE_PYTHON"), "true")) {
    stop("the Python side of ordstat is required here (ORDSTAT_REQUIRE_PYTHON=true) but is not available")
  }
  skip("Python with the ordstat module is not available")
}

awkward_levels <- c("very low", "l\u00f3w", "Mid dle", "ZZ top", "a (unused)")

ordered_data <- function(n = 120, seed = 1) {
  set.seed(seed)
  d <- data.frame(x1 = round(stats::rnorm(n), 3), x2 = round(stats::runif(n), 3),
                  g = factor(sample(c("a", "b", "c"), n, TRUE)))
  z <- d$x1 + 2 * d$x2 + (d$g == "b") + stats::rnorm(n, sd = 0.5)
  d$y <- cut(z, c(-Inf, 0, 1, 2, Inf), labels = awkward_levels[1:4], ordered_result = TRUE)
  d$y <- factor(as.character(d$y), levels = awkward_levels, ordered = TRUE)
  d
}
