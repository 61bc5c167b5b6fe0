# The data sets that the Python package reads from R packages through rpy2 (ordstat.datasets:
# _r_data.py and _zoo.py), built here in R itself. Asking Python for them from R would start
# R again inside this R process (R -> reticulate -> Python -> rpy2 -> R), which aborts the
# session ("Fatal Python error: PyThreadState_Get"). Each builder gives the columns, types, row
# order and values of the Python loader: numeric columns double, counts integer, flags
# logical, the response last, a factor (ordered where the Python Categorical is ordered).
#
# This file uses only base R and utils, so that the Python tests can source it through rpy2
# and compare its results with the Python loaders (tests/r/test_rdatasets.py).

# name -> the R package and data set read, the response column, and the builder.
r_side_sets <- list(
  iris = list(package = "datasets", data = "iris", response = "Species",
              build = function(raw) {
                raw$Species <- factor(as.character(raw$Species), levels = levels(raw$Species))
                raw
              }),
  crabs = list(package = "MASS", data = "crabs", response = "group",
               build = function(raw) {
                 out <- raw[c("FL", "RW", "CL", "CW", "BD")]
                 out[] <- lapply(out, as.double)
                 out$group <- factor(paste(raw$sp, raw$sex, sep = "."),
                                     levels = c("B.F", "B.M", "O.F", "O.M"))
                 out
               }),
  thyroid = list(package = "mclust", data = "thyroid", response = "Diagnosis",
                 build = function(raw) {
                   out <- raw[setdiff(names(raw), "Diagnosis")]
                   # R's level order Hypo, Normal, Hyper; nominal, as in the paper
                   out$Diagnosis <- factor(as.character(raw$Diagnosis),
                                           levels = levels(raw$Diagnosis))
                   out
                 }),
  haemophilia = list(package = "rrcov", data = "hemophilia", response = "gr",
                     build = function(raw) {
                       raw$gr <- factor(as.character(raw$gr), levels = c("normal", "carrier"))
                       raw
                     }),
  boston = list(package = "MASS", data = "Boston", response = "rank",
                build = function(raw) {
                  out <- raw[setdiff(names(raw), "medv")]
                  out[] <- lapply(out, as.double)
                  out$rank <- equal_frequency_ranks(raw$medv, 5L)
                  out
                }),
  machine_cpu = list(package = "MASS", data = "cpus", response = "rank",
                     build = function(raw) {
                       out <- raw[c("syct", "mmin", "mmax", "cach", "chmin", "chmax")]
                       out[] <- lapply(out, as.double)
                       out$rank <- equal_frequency_ranks(raw$perf, 5L)
                       out
                     }),
  wine = list(package = "ordinal", data = "wine", response = "rating",
              build = function(raw) {
                data.frame(temp = as.double(raw$temp == "warm"),
                           contact = as.double(raw$contact == "yes"),
                           rating = factor(as.character(raw$rating),
                                           levels = levels(raw$rating), ordered = TRUE))
              }),
  zoo = list(package = "mlbench", data = "Zoo", response = "type",
             build = function(raw) {
               # the Python frame has no animal names (a plain 0..n-1 index)
               raw$type <- factor(as.character(raw$type), levels = levels(raw$type))
               raw
             })
)

# Ranks 1..n_ranks of equal size (differing by at most one) by the order of x, ties broken by
# position: the discretisation of Boston's medv and cpus' perf in Waegeman and Boullart (2006), section V.A.
equal_frequency_ranks <- function(x, n_ranks) {
  position <- rank(x, ties.method = "first") - 1
  codes <- floor(position * n_ranks / length(x))
  factor(as.character(codes + 1), levels = as.character(seq_len(n_ranks)), ordered = TRUE)
}

# One of r_side_sets as a data frame (response last, rows 1..n, attribute "response").
load_r_side <- function(name) {
  spec <- r_side_sets[[name]]
  if (!requireNamespace(spec$package, quietly = TRUE)) {
    stop(sprintf(paste0("ordstat_data(): the %s data set comes from the R package '%s', ",
                        "which is not installed; install it with install.packages(\"%s\")."),
                 name, spec$package, spec$package), call. = FALSE)
  }
  env <- new.env(parent = emptyenv())
  utils::data(list = spec$data, package = spec$package, envir = env)
  out <- spec$build(as.data.frame(get(spec$data, envir = env)))
  out <- out[c(setdiff(names(out), spec$response), spec$response)]
  rownames(out) <- NULL
  attr(out, "response") <- spec$response
  out
}
