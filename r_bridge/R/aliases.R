# Every other spelling the package accepts for a name, in one place (the tables only; the
# functions that use them are criterion_name() in split.R and foreign_args() in names.R).
#
# - the split criteria: the Python package's table (ordstat/_core/names.py: CRITERION_NAMES,
#   CRITERION_ALIASES), copied because ordinal_split() works without Python; a test compares
#   the two (tests/testthat/test-names.R through Python, and the Python test suite);
# - rpart's control names for the tree's parameters;
# - the argument names of randomForest, ranger, ipred, adabag and rpart in `...` of the
#   ensembles, with our name or the reason they are refused.
#
# This file is sourced by the Python side too (ordstat.r, into rpy2's R, with split.R), so it
# holds plain R only: no reticulate, nothing of the package's other files.

# One spelling of each criterion, the Python registry's (ordstat.trees.criteria.CRITERIA);
# the others are aliases, accepted wherever a criterion is named (ordinal_tree(),
# ordinal_split()): case, "-" or " " for "_", "linear"/"quadratic" for the generalized Gini and
# "rpart_linear"/"rpart_quadratic" for rpart's loss matrices.
.criterion_canonical <- c("ordinal", "twoing", "gini", "entropy", "gini_linear",
                          "gini_quadratic", "loss_linear", "loss_quadratic")
.criterion_aliases <- c(linear = "gini_linear", quadratic = "gini_quadratic",
                        generalized_gini_linear = "gini_linear",
                        generalized_gini_quadratic = "gini_quadratic",
                        ordinal_impurity = "ordinal", ordered_twoing = "twoing",
                        deviance = "entropy",
                        rpart_linear = "loss_linear", rpart_quadratic = "loss_quadratic")

# rpart's control names -> OrdinalTreeClassifier's; the surrogate controls keep their names
# (they act with missing = "surrogate"); maxcompete is accepted and has no effect (the tree keeps
# no competitor splits).
.tree_control_names <- c(minsplit = "min_split", minbucket = "min_bucket", cp = "cp",
                         maxdepth = "max_depth", xval = "xval", maxsurrogate = "maxsurrogate",
                         usesurrogate = "usesurrogate", surrogatestyle = "surrogatestyle")

# randomForest's, ranger's, ipred's, adabag's and rpart's argument names in `...` of the
# ensembles (see foreign_args()): the same meaning under our name, or refused with the reason.
ensemble_aliases <- list(
  forest = c(ntree = "n_estimators", num.trees = "n_estimators", mtry = "max_features",
             nodesize = "min_bucket", min.node.size = "min_split", min.bucket = "min_bucket",
             minsplit = "min_split", minbucket = "min_bucket", maxdepth = "max_depth",
             max.depth = "max_depth", num.threads = "n_jobs", seed = "random_state",
             oob.error = "oob_score", verbose = "progress", splitrule = "criterion"),
  bagging = c(ntree = "n_estimators", num.trees = "n_estimators", nbagg = "n_estimators",
              minsplit = "min_split", coob = "oob_score", num.threads = "n_jobs",
              seed = "random_state", verbose = "progress", splitrule = "criterion"),
  boosting = c(mfinal = "n_estimators", n.trees = "n_estimators", num.threads = "n_jobs",
               seed = "random_state", verbose = "progress"))

ensemble_refused <- function(kind) {
  bootstrap <- paste0("every tree is grown on a bootstrap sample of all n units, drawn with ",
                      "replacement (randomForest's replace = TRUE, sampsize = n).")
  out <- c(replace = bootstrap, sampsize = bootstrap, sample.fraction = bootstrap,
           classwt = "class weights are not supported.",
           class.weights = "class weights are not supported.",
           case.weights = "case weights are not supported by the ensembles.",
           cutoff = "the classes are voted by the aggregation argument.",
           strata = "stratified bootstrap samples are not supported.",
           maxnodes = "the forest's trees are limited by max_depth, min_split and min_bucket.",
           proximity = "proximities are not computed.",
           keep.forest = "the fitted trees are always kept (for predict()).",
           keep.inbag = "the bootstrap samples are always kept by the Python model.",
           do.trace = "use progress = TRUE to report the progress.",
           probability = "predict(fit, type = \"prob\") gives class probabilities.",
           respect.unordered.factors = paste0("unordered factors are split as categories, ",
                                              "as rpart does."),
           write.forest = "the fitted trees are always kept (for predict()).")
  if (kind != "forest") {
    out[["mtry"]] <- paste0("bagging and boosting use every predictor in each node; ",
                            "ordinal_forest() draws max_features (mtry) of them.")
  }
  out
}
