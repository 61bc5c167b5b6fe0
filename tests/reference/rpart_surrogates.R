# rpart's surrogate splits on data with missing values, the reference of
# tests/trees/test_surrogates_rpart.py (OrdinalTreeClassifier(missing="surrogate")).
# Regenerate, from the repository root (R with rpart, mlbench and jsonlite):
#   Rscript tests/reference/rpart_surrogates.R [OUTDIR]   # default OUTDIR: tests/reference
# writes OUTDIR/rpart_surrogates.json: the data sets themselves (airquality with Ozone cut into
# three ordered classes; the same with Temp cut and Ozone a predictor; mlbench's BreastCancer;
# a small synthetic set with unordered factors), and for each data set and each usesurrogate
# 0/1/2 and surrogatestyle 0/1 (maxsurrogate 5; and maxsurrogate 1 and 0 with usesurrogate 2;
# case weights; 5-fold cross-validation on fixed folds, usesurrogate 1 and 2):
# rpart's frame, its splits matrix (primaries and surrogates, with count, ncat, improve, index,
# adj), its csplit matrix, the variable importance, predict(type = "prob") on the training data (newdata: rpart's
# prediction walk) and, with folds, the cp table. Controls: the defaults (cp = 0.01, minsplit = 20, gini) with xval = 0 and
# maxcompete = 0.
suppressMessages({library(rpart); library(jsonlite)})
args <- commandArgs(trailingOnly = FALSE)
script <- sub("^--file=", "", args[grep("^--file=", args)])
here <- dirname(normalizePath(script))
out <- commandArgs(trailingOnly = TRUE)
out <- if (length(out)) out[1] else here

data_sets <- function() {
  aq <- airquality[!is.na(airquality$Ozone), ]
  ozone <- data.frame(y = cut(aq$Ozone, c(-Inf, 30, 60, Inf), ordered_result = TRUE),
                      aq[, c("Solar.R", "Wind", "Temp", "Month", "Day")])
  temp <- data.frame(y = cut(airquality$Temp, c(-Inf, 72, 84, Inf), ordered_result = TRUE),
                     airquality[, c("Ozone", "Solar.R", "Wind", "Month", "Day")])
  data("BreastCancer", package = "mlbench", envir = environment())
  bc <- BreastCancer[, -1]
  names(bc)[names(bc) == "Class"] <- "y"
  bc$y <- factor(bc$y, levels = c("benign", "malignant"), ordered = TRUE)
  bc <- bc[, c("y", setdiff(names(bc), "y"))]
  set.seed(20261127)
  n <- 240
  x1 <- rnorm(n)
  g <- factor(sample(c("a", "b", "c", "d"), n, replace = TRUE))
  y <- cut(x1 + 0.8 * (g %in% c("c", "d")) + rnorm(n, sd = 0.6), c(-Inf, -0.2, 0.9, Inf),
           ordered_result = TRUE)
  synth <- data.frame(y = y, x1 = x1, x2 = x1 + rnorm(n, sd = 0.5),
                      g = g, h = factor(ifelse(g %in% c("a", "c"), "p", sample(c("p", "q", "r"),
                                                                              n, TRUE))),
                      x3 = round(rnorm(n), 1))
  synth$x1[runif(n) < 0.25] <- NA
  synth$x2[runif(n) < 0.10] <- NA
  synth$g[runif(n) < 0.15] <- NA
  synth$h[runif(n) < 0.10] <- NA
  list(airquality_ozone = ozone, airquality_temp = temp, breast_cancer = bc, synthetic = synth)
}

columns <- function(d) {
  lapply(d, function(col) {
    if (is.factor(col)) {
      list(type = if (is.ordered(col)) "ordered" else "factor", levels = levels(col),
           values = as.character(col))
    } else list(type = "numeric", values = as.numeric(col))
  })
}

fit_case <- function(d, maxsurrogate, usesurrogate, surrogatestyle, weights = NULL,
                     folds = NULL) {
  d$.w <- if (is.null(weights)) rep(1, nrow(d)) else weights
  f <- rpart(y ~ . - .w, data = d, method = "class", weights = .w,
             control = rpart.control(xval = if (is.null(folds)) 0 else folds, maxcompete = 0,
                                     maxsurrogate = maxsurrogate,
                                     usesurrogate = usesurrogate,
                                     surrogatestyle = surrogatestyle))
  fr <- f$frame
  sp <- if (is.null(f$splits)) matrix(numeric(0), 0, 5) else f$splits
  # weights, folds and the cp table only where given (toJSON writes NULL as {})
  extra <- Filter(Negate(is.null), list(weights = weights, folds = folds,
                                        cptable = if (!is.null(folds)) unname(f$cptable)))
  c(extra, list(controls = list(maxsurrogate = maxsurrogate, usesurrogate = usesurrogate,
                       surrogatestyle = surrogatestyle),
       frame = list(node = as.integer(rownames(fr)), var = as.character(fr$var), n = fr$n,
                    wt = fr$wt, dev = fr$dev, yval = fr$yval, ncompete = fr$ncompete,
                    nsurrogate = fr$nsurrogate),
       splits = list(var = rownames(sp), count = unname(sp[, "count"]),
                     ncat = unname(sp[, "ncat"]), improve = unname(sp[, "improve"]),
                     index = unname(sp[, "index"]), adj = unname(sp[, "adj"])),
       csplit = if (is.null(f$csplit)) list() else unname(f$csplit),
       importance = as.list(f$variable.importance),
       prob = unname(predict(f, d, type = "prob"))))
}

cases <- list()
sets <- data_sets()
for (name in names(sets)) {
  d <- sets[[name]]
  fits <- list()
  for (use in 0:2) for (style in 0:1) {
    fits[[sprintf("max5_use%d_style%d", use, style)]] <- fit_case(d, 5L, use, style)
  }
  fits[["max1_use2_style0"]] <- fit_case(d, 1L, 2L, 0L)
  fits[["max0_use2_style0"]] <- fit_case(d, 0L, 2L, 0L)
  # case weights (whole numbers 1 to 3), and cross-validation on fixed folds (rpart's xval
  # vector of fold ids): the cp table's xerror, with units stopped at internal nodes
  fits[["weighted_use2_style0"]] <- fit_case(d, 5L, 2L, 0L,
                                             weights = rep_len(c(1, 3, 2, 1, 2), nrow(d)))
  for (use in 1:2) {
    fits[[sprintf("xval_use%d_style0", use)]] <- fit_case(d, 5L, use, 0L,
                                                          folds = rep_len(1:5, nrow(d)))
  }
  cases[[name]] <- list(data = columns(d), fits = fits)
}
versions <- list(R = paste(R.version$major, R.version$minor, sep = "."),
                 rpart = as.character(packageVersion("rpart")),
                 mlbench = as.character(packageVersion("mlbench")))
writeLines(toJSON(c(list(versions = versions), cases), digits = I(15), auto_unbox = TRUE,
                  matrix = "rowmajor", na = "null"),
           file.path(out, "rpart_surrogates.json"))
