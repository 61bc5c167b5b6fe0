# rpart's classification trees on unordered factors of many levels, the reference of
# tests/trees/test_category_subsets.py (ordstat searches every subset of a factor's levels for
# the criteria that ignore the class order, as rpart does with more than two classes).
# Regenerate, from the repository root (R with rpart and jsonlite):
#   python tests/_reference.py factors             # the inputs factors3.csv, factors4.csv, ...
#   Rscript tests/reference/rpart_factors.R [OUTDIR]   # default OUTDIR: tests/reference
# writes OUTDIR/rpart_factors.json: for every data set and split rule (gini, information),
# rpart's frame (n, variable of each node's split), the leaf of every unit (where, as rpart's
# node numbers) and every unit's predicted class (0-based). Controls: cp = 0, minsplit = 20,
# minbucket = 7, xval = 0, no surrogates or competitors; default priors (the class shares).
suppressMessages({library(rpart); library(jsonlite)})
args <- commandArgs(trailingOnly = FALSE)
script <- sub("^--file=", "", args[grep("^--file=", args)])
here <- dirname(normalizePath(script))
out <- commandArgs(trailingOnly = TRUE)
out <- if (length(out)) out[1] else here

factor_case <- function(data, split) {
  d <- read.csv(file.path(here, paste0(data, ".csv")), stringsAsFactors = TRUE)
  d$y <- factor(d$y, levels = 0:max(d$y))
  f <- rpart(y ~ g + h, data = d, method = "class", parms = list(split = split),
             control = rpart.control(cp = 0, minsplit = 20, minbucket = 7, xval = 0,
                                     maxsurrogate = 0, maxcompete = 0))
  list(node = as.integer(rownames(f$frame)), var = as.character(f$frame$var),
       n = f$frame$n, where = as.integer(rownames(f$frame))[unname(f$where)],
       predicted = as.integer(predict(f, d, type = "class")) - 1L)
}

cases <- list()
for (data in c("factors3", "factors4", "factors5")) {
  for (split in c("gini", "information")) {
    cases[[paste(data, split, sep = "_")]] <- factor_case(data, split)
  }
}
versions <- list(R = paste(R.version$major, R.version$minor, sep = "."),
                 rpart = as.character(packageVersion("rpart")))
writeLines(toJSON(c(list(versions = versions), cases), digits = I(15), auto_unbox = TRUE,
                  matrix = "rowmajor"),
           file.path(out, "rpart_factors.json"))
