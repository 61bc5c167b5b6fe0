"""Ordinal ensembles: bagged ordinal trees and random forests with out-of-bag error and gamma,
fixed-split bagging, and the boosting family of Tutz & Hechenbichler (2003).

Use these rather than scikit-learn's nominal meta-estimators around an ordinal estimator.
scikit-learn's ``BaggingClassifier`` and ``VotingClassifier`` fit the inner estimator on integer
codes 0..K-1 of the *sorted* labels, so string labels come in alphabetical order ("high" < "low" <
"mid") and an ordered Categorical loses its order, silently; ``OneVsRestClassifier`` fits binary
0/1 problems, where the order plays no part; ``AdaBoostClassifier`` passes the labels as a plain
array (an ordered Categorical loses its order and our estimator guesses it by sorting, with an
``OrderGuessWarning``); ``CalibratedClassifierCV`` passes ``y`` unchanged, but its own
``classes_`` and ``predict_proba`` columns are sorted. (Measured with scikit-learn 1.6 and 1.9.)

Our estimators do not warn when fitted on such codes: they cannot tell them from a user's own
integer labels, which are legitimate (``ordstat.model_selection.evaluate`` itself passes codes),
and a warning on every integer ``y`` would be a false alarm far more often than a help. To use a
scikit-learn meta-estimator anyway, give it ``y`` as ranks 0..K-1 in the ordinal order (sorted
integers keep their order), e.g. ``pd.Categorical(y, categories=order).codes``, and map the
predictions back with ``order[prediction]``.
"""

from ._bagging import OrdinalBaggingClassifier, OrdinalRandomForestClassifier
from ._boosting import OrdinalBoostingClassifier
from ._fixed_split import FixedSplitBaggingClassifier

__all__ = ["OrdinalBaggingClassifier", "OrdinalRandomForestClassifier",
           "OrdinalBoostingClassifier", "FixedSplitBaggingClassifier"]
