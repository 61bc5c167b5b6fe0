"""Evaluation protocols and comparisons of methods on the same splits.

Resampling schemes (all scikit-learn compatible splitters with ``split(X, y)``):

- leave-one-out (``"loo"``), as in Brito et al. (2006, section 5);
- stratified v-fold cross-validation (``"cv10"``, ``"cv5"``, ...);
- half-sampling, i.e. stratified two-fold cross-validation, optionally repeated (``"half"``;
  Brito et al. 2006, Table 6);
- repeated random learning/validation splits, 2/3 vs 1/3 (``"splits50"``; Tutz & Hechenbichler
  2003, section 4.1);
- bootstrap resamples with their out-of-bag units (``"bootstrap100"``; the OOB design of the
  ordinal-splitting paper, section 5).

:func:`evaluate` fits several estimators on the *same* splits and returns a tidy DataFrame;
:func:`compare_methods` runs Friedman's test over methods and pairwise Wilcoxon signed-rank tests
with Holm's correction (the dependent K-sample design of the ordinal-splitting paper, section 5).
With leave-one-out, :func:`evaluate` pools the out-of-fold predictions and scores them once
(``split == "pooled"``), and :func:`summarize` and :func:`compare_methods` switch to a standard
error and to tests over units (McNemar, Cochran's Q, Wilcoxon, Friedman;
``ordstat.model_selection._pooled``).
"""

from ._compare import (CorrectedTTest, MethodComparison, compare_methods,
                       corrected_resampled_ttest, pairwise_corrected_ttests)
from ._evaluate import evaluate, summarize
from ._splits import BootstrapOOB, HalfSampling, RepeatedLearningTestSplits, make_cv

__all__ = [
    "HalfSampling",
    "RepeatedLearningTestSplits",
    "BootstrapOOB",
    "make_cv",
    "evaluate",
    "summarize",
    "compare_methods",
    "MethodComparison",
    "corrected_resampled_ttest",
    "CorrectedTTest",
    "pairwise_corrected_ttests",
]
