"""The shared core of ordstat: class labels, input checks, categorical predictors, names,
warnings and the summary type, used by every subpackage and importing none of them."""
