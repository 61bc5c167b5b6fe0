# Regenerates the reference numbers of the ordstat tests (R 4.2, rpart, mclust 6.0.0, MASS,
# mlbench, jsonlite). Usage, from the repository root:
#   python tests/_reference.py                      # the numpy-generated inputs (CSV), once
#   Rscript tests/reference/make_reference.R [OUTDIR]   # default OUTDIR: tests/reference
# The inputs are read from the directory of this script; one JSON file per computation is
# written to OUTDIR. Numbers are written with 15 significant digits.
suppressMessages({
  library(rpart); library(mclust); library(MASS); library(jsonlite)
})
args <- commandArgs(trailingOnly = FALSE)
script <- sub("^--file=", "", args[grep("^--file=", args)])
here <- dirname(normalizePath(script))
out <- commandArgs(trailingOnly = TRUE)
out <- if (length(out)) out[1] else here
dir.create(out, showWarnings = FALSE, recursive = TRUE)
save <- function(x, name) {
  writeLines(toJSON(x, digits = I(15), auto_unbox = TRUE, matrix = "rowmajor"),
             file.path(out, paste0(name, ".json")))
}
versions <- list(R = paste(R.version$major, R.version$minor, sep = "."),
                 rpart = as.character(packageVersion("rpart")),
                 mclust = as.character(packageVersion("mclust")),
                 MASS = as.character(packageVersion("MASS")),
                 mlbench = as.character(packageVersion("mlbench")))

# --- rpart (method = "class", Gini) with fixed cross-validation folds ---------------------------
# Surrogates and competitors off: they do not change the primary splits without missing values.
rpart_case <- function(data, minsplit, cp) {
  d <- read.csv(file.path(here, paste0(data, ".csv")))
  folds <- d$fold + 1L
  d$fold <- NULL
  d$y <- factor(as.character(d$y))
  f <- rpart(y ~ ., data = d, method = "class",
             control = rpart.control(minsplit = minsplit, minbucket = round(minsplit / 3),
                                     cp = cp, xval = folds, maxcompete = 0, maxsurrogate = 0))
  splits <- if (is.null(f$splits)) matrix(0, 0, 5) else unname(f$splits)
  list(cptable = unname(f$cptable), var = as.character(f$frame$var), n = f$frame$n,
       splits = splits, where = unname(f$where), node = as.integer(rownames(f$frame)))
}
cases <- list(iris = list("iris", 20, 0.01), five3_m20 = list("five3", 20, 0.01),
              five4_m10 = list("five4", 10, 0.001), five0_m20 = list("five0", 20, 0.005),
              five0_m10 = list("five0", 10, 0.001), five3_m10 = list("five3", 10, 0.001))
save(c(list(versions = versions),
       lapply(cases, function(a) rpart_case(a[[1]], a[[2]], a[[3]]))), "rpart")

# --- mclust: EDDA, the 14 covariance models, on R's iris ---------------------------------------
# mclust 6.0.0 reports the mixture log-likelihood and a df without the class proportions.
MODELS <- c("EII", "VII", "EEI", "VEI", "EVI", "VVI", "EEE", "VEE", "EVE", "VVE", "EEV",
            "VEV", "EVV", "VVV")
X <- as.matrix(iris[, 1:4]); cl <- iris$Species
fits <- lapply(MODELS, function(m) {
  f <- MclustDA(X, cl, modelType = "EDDA", modelNames = m, verbose = FALSE)
  sig <- lapply(f$models, function(g) g$parameters$variance$sigma[, , 1])
  list(loglik = f$loglik, df = f$df, bic = f$bic,
       pred = as.integer(predict(f, X)$classification) - 1L, sigma = unname(sig),
       loo_error = cvMclustDA(f, nfold = nrow(X), verbose = FALSE)$ce)
})
names(fits) <- MODELS
save(c(list(versions = versions), fits), "mclust")

# --- MASS::polr, logit and probit ---------------------------------------------------------------
d <- read.csv(file.path(here, "polr.csv"))
d$y <- factor(d$y, levels = c("c0", "c1", "c2", "c3"), ordered = TRUE)
polr_fit <- function(method) {
  f <- polr(y ~ x1 + x2, data = d, method = method, Hess = TRUE,
            control = list(reltol = 1e-12, maxit = 1000))
  # se: summary.polr's "Std. Error", coefficients then zeta (optim's finite-difference Hessian)
  list(coefficients = unname(coef(f)), zeta = unname(f$zeta), loglik = as.numeric(logLik(f)),
       se = unname(sqrt(diag(vcov(f)))))
}
save(list(versions = versions, logit = polr_fit("logistic"), probit = polr_fit("probit")), "polr")

# --- HouseVotes84 (mlbench): the discrete models' quantities from the paper's formulas ----------
# Brito, Celeux & Sousa Ferreira (2006), eq. 3.14-3.15 (Jeffreys priors), FOIM and FMM posteriors.
data(HouseVotes84, package = "mlbench")
votes <- HouseVotes84
votes_ref <- function(vars) {
  d <- na.omit(votes[, c("Class", vars)])
  X <- (as.matrix(d[, vars]) == "y") * 1
  cls <- d$Class
  nk <- as.vector(table(cls))
  n <- sum(nk)
  s <- 2^length(vars)
  state <- apply(X, 1, paste, collapse = "")
  tab <- table(cls, state)
  logLM <- sum(lgamma(s / 2) - lgamma(s / 2 + nk)) + sum(lgamma(tab[tab > 0] + 0.5) - lgamma(0.5))
  ones <- rowsum(X, cls)
  logLI <- sum(lbeta(ones + 0.5, nk - ones + 0.5)) - length(ones) * lbeta(0.5, 0.5)
  p1 <- ones / nk
  logf <- X %*% t(log(p1)) + (1 - X) %*% t(log(1 - p1))
  joint <- sweep(logf, 2, log(nk / n), "+")
  foim <- exp(joint - apply(joint, 1, max))
  foim <- foim / rowSums(foim)
  freq <- t(tab[, state] / nk)
  fmm <- sweep(freq, 2, nk / n, "*")
  fmm <- fmm / rowSums(fmm)
  list(rows = as.integer(rownames(d)) - 1L, y = as.integer(cls) - 1L, logLM = logLM,
       logLI = logLI, foim = unname(unclass(foim)), fmm = matrix(as.numeric(fmm), nrow(fmm)),
       levels = levels(cls))
}
save(list(versions = versions,
          four = votes_ref(c("V3", "V4", "V5", "V12")),
          six = votes_ref(c("V1", "V2", "V3", "V4", "V8", "V11"))), "housevotes84")
# the data themselves, for the Python tests ("" for a missing vote)
write.csv(votes, file.path(out, "housevotes84.csv"), row.names = FALSE, na = "")
