"""The peer methods the dissertation ran in Weka: C4.5 (J48, ordstat's ``C45Classifier``) and
stand-ins for AdaBoost.M1 and M1W on decision stumps.

The command line's peers from other packages (``ordstat compare``'s ``peer:`` methods) are in
``ordstat/cli/_peers.py`` and ``_peer_estimators.py``; these are the reproduction's own.

- ``c45``: the estimator of Table 4.2's C4.5 column, and of Frank & Hall's binary models:
  ordstat's ``C45Classifier`` (C4.5 release 8 as Weka's J48 runs it), with the MDL correction
  off as the dissertation ran it.
- ``AdaBoostM1Stumps``: Freund & Schapire's (1996) AdaBoost.M1 on entropy stumps, and Eibl &
  Pfeiffer's (2002) AdaBoost.M1W (Table 5.2).
"""

from __future__ import annotations

import numpy as np

__all__ = ["AdaBoostM1Stumps", "c45"]

#: what the report says of the C4.5 column (and of Frank & Hall's trees)
C45_NAME = "C4.5 (J48)"


def c45(seed):
    """The C4.5 of Table 4.2: Weka's J48 as the dissertation ran it (pruned at confidence 0.25,
    at least 2 units in two branches, subtree raising, MDL correction off). ``seed`` is
    unused: J48 draws nothing at random."""
    from ..trees import C45Classifier

    return C45Classifier(use_mdl_correction=False)


class AdaBoostM1Stumps:
    """AdaBoost.M1 (Freund & Schapire 1996) or AdaBoost.M1W (Eibl & Pfeiffer 2002) with
    entropy decision stumps, as the dissertation ran them (Weka, reweighting).

    A round fits a stump on the weights D, takes its weighted error e and stops when e >= 1/2
    (the first stump is kept anyway, as Weka does) or e = 0; otherwise the correctly classified
    units' weights are multiplied by beta = e / (1 - e) and renormalised. The class is the
    argmax of sum_t log(1 / beta_t) [h_t(x) = k]. M1W changes the one line of beta:
    beta = e / ((K - 1)(1 - e)) with K classes, a vote weight of log((K - 1)(1 - e) / e), so
    that boosting goes on while a stump beats random guessing, e < 1 - 1/K (the weight of
    scikit-learn's SAMME); M1 stops stumps worse than 1/2.

    Parameters
    ----------
    n_estimators : int, default=100
        Largest number of rounds.
    variant : {"M1", "M1W"}, default="M1"
    random_state : int, RandomState or None, default=None
        Seed of the stumps (scikit-learn's trees break ties between equally good features
        at random).

    Attributes
    ----------
    classes_ : ndarray
        The classes seen in fit.
    stumps_ : list of DecisionTreeClassifier
    vote_weights_ : list of float
        log(1 / beta_t) of each stump (1 for a first stump kept past the stopping error).
    """

    def __init__(self, n_estimators=100, variant="M1", random_state=None):
        self.n_estimators = n_estimators
        self.variant = variant
        self.random_state = random_state

    def fit(self, X, y):
        from sklearn.tree import DecisionTreeClassifier

        if self.variant not in ("M1", "M1W"):
            raise ValueError(f"variant must be 'M1' or 'M1W'; got {self.variant!r}.")
        y = np.asarray(y)
        self.classes_ = np.unique(y)
        # M1W: a stump is kept while it beats random guessing among K classes
        guesses = len(self.classes_) - 1 if self.variant == "M1W" else 1
        weights = np.full(len(y), 1.0 / len(y))
        self.stumps_, self.vote_weights_ = [], []
        for _ in range(self.n_estimators):
            stump = DecisionTreeClassifier(criterion="entropy", max_depth=1,
                                           random_state=self.random_state)
            stump.fit(X, y, sample_weight=weights)
            wrong = stump.predict(X) != y
            error = float(weights[wrong].sum())
            if error >= guesses / (guesses + 1):
                if not self.stumps_:  # Weka keeps the first stump whatever its error
                    self.stumps_.append(stump)
                    self.vote_weights_.append(1.0)
                break
            beta = max(error, 1e-10) / (1.0 - error) / guesses
            self.stumps_.append(stump)
            self.vote_weights_.append(np.log(1.0 / beta))
            if error <= 0.0:  # a perfect stump: nothing left to reweight
                break
            weights = np.where(wrong, weights, weights * beta)
            weights /= weights.sum()
        return self

    def predict(self, X):
        votes = np.zeros((len(X), len(self.classes_)))
        rows = np.arange(len(X))
        for stump, weight in zip(self.stumps_, self.vote_weights_):
            votes[rows, np.searchsorted(self.classes_, stump.predict(X))] += weight
        return self.classes_[votes.argmax(axis=1)]
