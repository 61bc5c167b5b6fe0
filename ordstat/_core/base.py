"""Small pieces shared by the estimators: prediction from probabilities, contract 3
(generative models) written once from ``class_log_density``, and the clone of a
sub-estimator given its classes and seed.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp
from sklearn.base import ClassifierMixin, clone

from .validation import check_sample_weight


def configured_clone(estimator, *, classes=None, random_state=None, keep_seed=False):
    """A clone of ``estimator`` given ``classes`` and ``random_state`` where it takes them.

    A value left None is not set. With ``keep_seed``, a ``random_state`` the estimator already
    has (not None) is kept: the user's own seed wins over the one drawn for it. The one place
    where sub-estimators (an ensemble's trees, a decomposition's binary models, a coupling's
    node models, the methods of ``evaluate``) are cloned and seeded.
    """
    est = clone(estimator)
    params = est.get_params(deep=False)
    updates = {}
    if classes is not None and "classes" in params:
        updates["classes"] = classes
    if random_state is not None and "random_state" in params \
            and not (keep_seed and params["random_state"] is not None):
        updates["random_state"] = random_state
    return est.set_params(**updates) if updates else est


def complete_log_likelihood(joint, codes, w):
    """sum_i w_i joint[i, codes_i] over the units of positive weight.

    ``joint`` holds log(pi_k f_k(x_i)); a zero weight times a -inf log-density is no evidence,
    not NaN. The one place where the complete-data log-likelihood is summed.
    """
    use = w > 0
    return float(np.sum(w[use] * joint[np.flatnonzero(use), codes[use]]))


class OrdinalClassifierMixin(ClassifierMixin):
    """``predict`` = the class of highest probability, returned as the user's label.

    Subclasses provide ``predict_proba`` (columns follow ``classes_``, lowest to highest).
    """

    def predict(self, X):
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


class GenerativeClassifierMixin(OrdinalClassifierMixin):
    """Contract 3 of docs/architecture.md for class-conditional density models.

    Subclasses provide ``class_log_density(X)`` (n x K array of log f_k(x)), and the fitted
    attributes ``priors_`` (length K) and ``n_parameters_`` (the nu of Brito et al. 2006).

    The likelihood here is the *complete-data* (classification) likelihood of the labelled
    sample, L = prod_i pi_{k_i} f_{k_i}(x_i), the one Brito et al. (2006, eq. 3.8) use in the
    likelihood, AIC and BIC combining weights.
    """

    def _joint_log_density(self, X):
        with np.errstate(divide="ignore"):
            return self.class_log_density(X) + np.log(self.priors_)

    def predict_log_proba(self, X):
        joint = self._joint_log_density(X)
        norm = logsumexp(joint, axis=1, keepdims=True)
        return joint - norm

    def predict_proba(self, X):
        return np.exp(self.predict_log_proba(X))

    def log_likelihood(self, X, y, sample_weight=None):
        """sum_i w_i log(pi_{k_i} f_{k_i}(x_i)) over the units, k_i the true class (eq. 3.8).

        -inf when a unit with positive weight is in a state its class gives density zero; units
        of zero weight are left out (no evidence), so an absent class never gives NaN.
        """
        codes = self._encoding.encode(y)
        joint = self._joint_log_density(X)
        if joint.shape[0] != codes.shape[0]:
            raise ValueError(
                "X and y have inconsistent numbers of units: "
                f"{joint.shape[0]} and {codes.shape[0]}."
            )
        w = check_sample_weight(sample_weight, codes.shape[0])
        return complete_log_likelihood(joint, codes, w)

    def aic(self, X, y):
        """AIC = -2 ln L + 2 nu (Brito et al. 2006, section 3.1); smaller is better."""
        return -2.0 * self.log_likelihood(X, y) + 2.0 * self.n_parameters_

    def bic(self, X, y):
        """BIC = -2 ln L + nu ln n (Schwarz); smaller is better."""
        n = len(self._encoding.encode(y))
        return -2.0 * self.log_likelihood(X, y) + self.n_parameters_ * np.log(n)
