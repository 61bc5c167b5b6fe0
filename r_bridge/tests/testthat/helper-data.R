# Data sets the tests share.

# Boston as an R user has it: chas a factor, the median value cut into 5 ordered ranks
boston_ranks <- function() {
  skip_if_not_installed("MASS")
  d <- MASS::Boston
  d$chas <- factor(d$chas)
  d$rank <- cut(d$medv, stats::quantile(d$medv, 0:5 / 5), include.lowest = TRUE,
                ordered_result = TRUE)
  d$medv <- NULL
  d
}
