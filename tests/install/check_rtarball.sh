#!/usr/bin/env bash
# The R package as R users get it: installed from its built tarball into a library of its own
# and used from new R sessions outside the repository.
#
#   tests/install/check_rtarball.sh ordstat_0.1.0.tar.gz /path/to/python
#
# The Python (also taken from ORDSTAT_PYTHON when no second argument is given) must have the
# ordstat Python package, with numpy < 2 for reticulate < 1.36 (the repository's .venv-r). It is
# given to R as ORDSTAT_PYTHON at run time only, not at install time, as for a user.
# PYTHONPATH is passed on as the caller sets it (only needed to try a source tree that the
# Python does not have installed).
#
# In a scratch directory: R CMD INSTALL the tarball into lib/; then, in work/, a first Rscript
# loads the package from lib/, fits an ordinal tree, EDDA and an ordinal forest on iris with an
# ordered response, predicts, saves the models and predictions with saveRDS, and loads a data set
# built in R (crabs, boston) and one from Python (anes96), and checks that the R vignette was
# installed (vignette(package = "ordstat") lists it, with its HTML: R CMD build ships it in
# inst/doc; an install of the source directory has none); a second Rscript reads the models
# back and must predict the same. Any mismatch is an R error (stop()), and the script fails.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 ordstat_<version>.tar.gz [python]" >&2
    exit 2
fi
tarball=$(realpath "$1")
python=${2:-${ORDSTAT_PYTHON:-}}
if [ ! -f "$tarball" ]; then
    echo "$0: no tarball $1" >&2
    exit 2
fi
if [ -z "$python" ] || [ ! -x "$python" ]; then
    echo "$0: give a Python with the ordstat Python package (argument or ORDSTAT_PYTHON)" >&2
    exit 2
fi

start=$(date +%s)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/ordstat-rtarball.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/lib" "$scratch/work"
cd "$scratch/work"

# A user's install: no ORDSTAT_PYTHON to record, no other ordstat on the library path.
if ! env -u ORDSTAT_PYTHON -u R_LIBS -u R_LIBS_USER \
        R CMD INSTALL --no-multiarch --library="$scratch/lib" "$tarball" \
        >"$scratch/install.log" 2>&1; then
    cat "$scratch/install.log" >&2
    echo "$0: R CMD INSTALL of $tarball failed" >&2
    exit 1
fi

run_r() {  # a new R process in the work directory, with only the scratch library added
    env -u R_LIBS -u R_LIBS_USER -u RETICULATE_PYTHON ORDSTAT_PYTHON="$python" \
        ORDSTAT_SCRATCH_LIB="$scratch/lib" Rscript --vanilla -e "$1"
}

run_r '
lib <- Sys.getenv("ORDSTAT_SCRATCH_LIB")
library(ordstat, lib.loc = lib)
if (!identical(normalizePath(dirname(find.package("ordstat"))), normalizePath(lib))) {
  stop("ordstat was not loaded from the scratch library: ", find.package("ordstat"))
}
if (!ordstat_available()) stop("no Python side: ", ordstat_python_info()$problem)
d <- transform(iris, Species = factor(Species, ordered = TRUE))
set.seed(1)
models <- list(
  tree = ordinal_tree(Species ~ ., data = d, minsplit = 10),
  edda = edda(Species ~ ., data = d, model = "VEV"),
  forest = ordinal_forest(Species ~ ., data = d, n_estimators = 20))
predictions <- lapply(models, function(m) {
  list(class = predict(m, d), prob = predict(m, d, type = "prob"))
})
for (name in names(predictions)) {
  p <- predictions[[name]]
  if (!is.ordered(p$class) || !identical(levels(p$class), levels(d$Species))) {
    stop(name, ": predictions are not an ordered factor with the response levels")
  }
  if (mean(p$class == d$Species) < 0.9) stop(name, ": training accuracy below 0.9")
  if (!isTRUE(all.equal(unname(rowSums(p$prob)), rep(1, nrow(d))))) {
    stop(name, ": probabilities do not sum to one")
  }
}
saveRDS(list(models = models, predictions = predictions, data = d), "models.rds")

crabs <- ordstat_data("crabs")
if (!identical(dim(crabs), c(200L, 6L)) || !identical(levels(crabs$group),
                                                      c("B.F", "B.M", "O.F", "O.M"))) {
  stop("ordstat_data(\"crabs\") is not the 200 x 6 crabs set")
}
boston <- ordstat_data("boston")
if (nrow(boston) != 506L || !is.ordered(boston$rank) ||
    !identical(as.vector(table(boston$rank)), c(102L, 101L, 101L, 101L, 101L))) {
  stop("ordstat_data(\"boston\") does not have 5 equal-frequency ranks of 506 tracts")
}
anes <- ordstat_data("anes96")
if (!identical(dim(anes), c(944L, 9L)) || !is.ordered(anes$PID)) {
  stop("ordstat_data(\"anes96\") is not the 944 x 9 set with an ordered PID")
}
vignettes <- vignette(package = "ordstat")$results
if (!"ordinal-r" %in% vignettes[, "Item"]) {
  stop("vignette(package = \"ordstat\") does not list the R vignette ordinal-r (found: ",
       paste(vignettes[, "Item"], collapse = ", "), ")")
}
doc <- file.path(find.package("ordstat"), "doc")
for (file in c("ordinal-r.html", "ordinal-r.Rmd", "ordinal-r.R")) {
  if (!file.exists(file.path(doc, file))) stop("the installed package has no doc/", file)
}
html <- paste(readLines(file.path(doc, "ordinal-r.html"), warn = FALSE), collapse = "\n")
if (!grepl("Ordinal classification from R with ordstat", html, fixed = TRUE)) {
  stop("doc/ordinal-r.html is not the rendered R vignette")
}
cat("first R session: fitted, predicted, saved; data sets from R and from Python loaded;",
    "the vignette is installed\n")
'

run_r '
library(ordstat, lib.loc = Sys.getenv("ORDSTAT_SCRATCH_LIB"))
saved <- readRDS("models.rds")
for (name in names(saved$models)) {
  model <- saved$models[[name]]
  again <- list(class = predict(model, saved$data),
                prob = predict(model, saved$data, type = "prob"))
  if (!identical(again$class, saved$predictions[[name]]$class)) {
    stop(name, ": the model read back in a new session predicts other classes")
  }
  if (!isTRUE(all.equal(again$prob, saved$predictions[[name]]$prob, tolerance = 1e-12))) {
    stop(name, ": the model read back in a new session predicts other probabilities")
  }
}
cat("second R session: the models read back predict the same\n")
'

echo "check_rtarball: $(basename "$tarball") OK in $(( $(date +%s) - start )) s"
