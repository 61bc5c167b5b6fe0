# logLik, AIC, BIC, nobs of the generative models against hand computations and mclust.

# log N(x; mu, S) for the rows of x
dmvnorm_log <- function(x, mu, S) {
  R <- chol(S)
  z <- backsolve(R, t(x) - mu, transpose = TRUE)
  -0.5 * colSums(z^2) - sum(log(diag(R))) - 0.5 * ncol(x) * log(2 * pi)
}

# VVV by hand: class means and ML covariances; returns the joint log density n x K
vvv_joint <- function(train_x, train_y, x) {
  sapply(levels(train_y), function(k) {
    xk <- train_x[train_y == k, , drop = FALSE]
    mu <- colMeans(xk)
    S <- crossprod(sweep(xk, 2, mu)) / nrow(xk)
    log(nrow(xk) / nrow(train_x)) + dmvnorm_log(x, mu, S)
  })
}

test_that("EDDA logLik, AIC, BIC and nobs equal a hand computation (VVV on iris)", {
  skip_if_no_python()
  fit <- edda(Species ~ ., iris, model = "VVV")
  x <- as.matrix(iris[1:4])
  joint <- vvv_joint(x, iris$Species, x)
  ll <- sum(joint[cbind(seq_len(150), as.integer(iris$Species))])
  mix <- sum(log(rowSums(exp(joint))))
  df <- 3 * 4 + 3 * 10 + 2  # means, covariances, proportions
  l <- logLik(fit)
  expect_s3_class(l, "logLik")
  expect_equal(as.numeric(l), ll, tolerance = 1e-10)
  expect_identical(attr(l, "df"), df)
  expect_identical(nobs(fit), 150L)
  expect_equal(AIC(fit), -2 * ll + 2 * df, tolerance = 1e-10)
  expect_equal(BIC(fit), -2 * ll + df * log(150), tolerance = 1e-10)
  lm_ <- logLik(fit, type = "mixture")
  expect_equal(as.numeric(lm_), mix, tolerance = 1e-10)
  expect_identical(attr(lm_, "df"), df - 2)
  expect_output(print(summary(fit)), "BIC \\(mclust: 2 logLik - df log n\\)")
  expect_output(print(summary(fit)), "log-likelihood \\(complete data\\)")
  d <- data.frame(a = factor(rep(c("u", "v"), 30)), y = factor(rep(c("p", "q", "q"), 20)))
  disc <- discrete_da(y ~ a, d, model = "fmm")
  # FMM by hand: pi_k * relative frequency of the state within class k
  tab <- table(d$y, d$a)
  p <- tab / rowSums(tab)
  hand <- sum(log((rowSums(tab) / 60)[as.character(d$y)] *
                    p[cbind(as.character(d$y), as.character(d$a))]))
  expect_equal(as.numeric(logLik(disc)), hand, tolerance = 1e-10)
  expect_error(logLik(disc, type = "mixture"), "EDDA fits only")
})

test_that("EDDA's mixture logLik and mclust-convention BIC equal mclust's", {
  skip_if_no_python()
  skip_if_not_installed("mclust")
  suppressPackageStartupMessages(library(mclust))  # MclustDA needs it attached
  fit <- edda(Species ~ ., iris, model = "VEV")
  m <- MclustDA(iris[1:4], iris$Species, modelType = "EDDA", modelNames = "VEV",
                        verbose = FALSE)
  cat(sprintf("\n  mclust %s EDDA VEV: loglik %.6f df %g bic %.6f | ordstat %.6f %g %.6f\n",
              utils::packageVersion("mclust"), m$loglik, m$df, m$bic,
              fit$mixture_loglik, fit$df_mclust, summary(fit)$bic_mclust))
  expect_equal(fit$mixture_loglik, m$loglik, tolerance = 1e-6)
  if (utils::packageVersion("mclust") < "6.1.1") {
    expect_equal(fit$df_mclust, m$df)
    expect_equal(summary(fit)$bic_mclust, m$bic, tolerance = 1e-6)
  }
})

test_that("summary(edda(models = 'all')) shows every model with its leave-one-out error", {
  skip_if_no_python()
  fit <- edda(Species ~ ., iris, models = "all")
  expect_identical(nrow(fit$models), 14L)
  expect_true(all(c("loglik", "BIC", "BIC_mclust", "loo_error") %in% names(fit$models)))
  expect_identical(fit$loo_error, min(fit$models$loo_error))
  expect_identical(fit$loo_error, fit$models[fit$model, "loo_error"])
  # VVV's leave-one-out error by hand: refit without each unit, classify it
  x <- as.matrix(iris[1:4])
  wrong <- vapply(seq_len(150), function(i) {
    joint <- vvv_joint(x[-i, ], iris$Species[-i], x[i, , drop = FALSE])
    levels(iris$Species)[which.max(joint)] != iris$Species[i]
  }, logical(1))
  expect_equal(fit$models["VVV", "loo_error"], mean(wrong))
  out <- capture.output(print(summary(fit)))
  expect_true(any(grepl("Models compared", out)))
  expect_true(any(grepl(paste0("^", fit$model, " \\*"), out)))
  expect_true(is.na(edda(Species ~ ., iris, model = "EEE")$loo_error))
})
