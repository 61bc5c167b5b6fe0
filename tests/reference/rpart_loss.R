# rpart's classification trees with a loss matrix (parms = list(loss = L)), the reference of
# tests/trees/test_loss_criterion.py for ordstat's "loss_linear" and "loss_quadratic" criteria.
# Regenerate, from the repository root (R with rpart and jsonlite):
#   python tests/_reference.py loss            # the inputs loss3.csv, loss4.csv, archer5.csv
#   Rscript tests/reference/rpart_loss.R [OUTDIR]   # default OUTDIR: tests/reference
# writes OUTDIR/rpart_loss.json: for every data set and loss (linear |i - j|, quadratic
# (i - j)^2), rpart's frame (node numbers, variables, n, dev, predicted class), its splits
# (count, direction, improve, cut), the leaf of every unit (where) and every unit's predicted
# class (0-based). Controls: cp = 0, minsplit = 5, minbucket = round(5 / 3) = 2, xval = 0,
# no surrogates or competitors; default priors (the class shares).
suppressMessages({library(rpart); library(jsonlite)})
args <- commandArgs(trailingOnly = FALSE)
script <- sub("^--file=", "", args[grep("^--file=", args)])
here <- dirname(normalizePath(script))
out <- commandArgs(trailingOnly = TRUE)
out <- if (length(out)) out[1] else here

loss_case <- function(data, power) {
  d <- read.csv(file.path(here, paste0(data, ".csv")))
  k <- max(d$y) + 1L
  d$y <- factor(d$y, levels = 0:(k - 1L))
  L <- abs(outer(seq_len(k), seq_len(k), "-"))^power
  f <- rpart(y ~ ., data = d, method = "class", parms = list(loss = L),
             control = rpart.control(cp = 0, minsplit = 5, minbucket = round(5 / 3), xval = 0,
                                     maxsurrogate = 0, maxcompete = 0))
  splits <- if (is.null(f$splits)) matrix(0, 0, 5) else unname(f$splits)
  list(node = as.integer(rownames(f$frame)), var = as.character(f$frame$var),
       n = f$frame$n, dev = f$frame$dev, yval = f$frame$yval - 1L, splits = splits,
       where = unname(f$where),
       predicted = as.integer(predict(f, d, type = "class")) - 1L)
}

cases <- list()
for (data in c("loss3", "loss4", "archer5")) {
  for (loss in c("linear", "quadratic")) {
    cases[[paste(data, loss, sep = "_")]] <- loss_case(data, if (loss == "linear") 1 else 2)
  }
}
versions <- list(R = paste(R.version$major, R.version$minor, sep = "."),
                 rpart = as.character(packageVersion("rpart")))
writeLines(toJSON(c(list(versions = versions), cases), digits = I(15), auto_unbox = TRUE,
                  matrix = "rowmajor"),
           file.path(out, "rpart_loss.json"))
