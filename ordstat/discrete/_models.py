"""The discrete discriminant models of Brito, Celeux & Sousa Ferreira (2006), section 2.

FMM (eq. 2.1) estimates each class distribution by the observed state frequencies, FOIM (eq. 2.3)
assumes the variables independent within each class, KERNEL (eq. 2.2) smooths the FMM frequencies
with the Aitchison-Aitken kernel. All three implement contract 3 of docs/architecture.md through
:class:`ordstat._core.base.GenerativeClassifierMixin` plus the exact integrated likelihoods of
section 3.2.
"""

from __future__ import annotations


import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted, validate_data

from .._core.base import GenerativeClassifierMixin
from ..exceptions import ZeroDensityWarning
from .._core.summary import Summary, class_info, class_table, feature_names
from .._core.validation import (Interval, Real, StrOptions, check_positive_int, check_priors,
                                check_sample_weight, check_weighted_classes, validate_fit)
from .._core.warnings import warn as _warn
from . import _kernel, _states
from ._integrated import log_il_independence, log_il_multinomial

__all__ = ["FullMultinomial", "IndependenceModel", "KernelMultinomial", "ZeroDensityWarning"]


def _count_states(active_codes, radices, codes_y, w, n_classes):
    """Distinct states (sorted int64 ids) and their (u, K) class weights; zero rows dropped."""
    ids = _states.state_ids(active_codes, radices)
    states, inverse = np.unique(ids, return_inverse=True)
    counts = np.bincount(inverse * n_classes + codes_y, weights=w,
                         minlength=len(states) * n_classes).reshape(len(states), n_classes)
    keep = counts.sum(axis=1) > 0
    return states[keep], counts[keep]


def _weighted_sum(counts, logs):
    """sum counts * logs over the cells with positive counts (a cell of no units adds nothing,
    even where its log is -inf)."""
    use = counts > 0
    return float(np.sum(counts[use] * logs[use]))


def _listed(values, most=8):
    """Category values as text, the first ``most`` of them."""
    shown = ", ".join(map(str, values[:most]))
    return shown + (f", ... ({len(values)} in all)" if len(values) > most else "")


class _DiscreteClassifier(GenerativeClassifierMixin, BaseEstimator):
    """Shared fit/predict plumbing: input checks, class counts, priors, the zero-density rule."""

    _parameter_constraints = {
        # the categories of a list are checked against the data by ``_states.fit_space``
        "categories": [StrOptions({"auto", "binary"}), "array-like"],
        "priors": ["array-like", None],
        "classes": ["array-like", None],
    }
    _uses_class_order = False  # nominal responses are fine: the order plays no part

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags

    # ------------------------------------------------------------------ fitting
    def fit(self, X, y, sample_weight=None):
        """Estimate the class distributions from a labelled sample.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Category values: integers, strings, booleans or pandas Categoricals.
        y : array-like of shape (n_samples,)
            Class labels (see ``classes``).
        sample_weight : array-like of shape (n_samples,), optional
            Frequency weights (number of units each row stands for); counts become weighted.
            With ``categories="auto"`` a value seen only in zero-weight rows is still a category.

        Returns
        -------
        self
        """
        self._validate_params()
        space, codes, _ = _states.fit_space(X, self.categories)
        _, codes_y, w = validate_fit(self, X, y, sample_weight, classes=self.classes,
                                     skip_check_array=True)
        weighted = check_weighted_classes(self, codes_y, w)
        self._space = space
        self.categories_ = [np.asarray(c) for c in space.categories]
        self.n_categories_ = space.n_categories
        self.n_states_ = space.n_states
        self.class_count_ = weighted
        self.priors_ = (self.class_count_ / self.class_count_.sum() if self.priors is None
                        else check_priors(self.priors, self.n_classes_))
        self._fit_codes(codes[:, space.active], codes_y, w)
        self.n_parameters_ = self._n_parameters()
        return self

    # -------------------------------------------------------------------- summary
    def summary(self, digits=4):
        """The fitted model described for reading: classes, variables, state space, and the
        likelihood criteria of Brito et al. (2006, section 3.1) on the training sample.

        Parameters
        ----------
        digits : int, default=4
            Significant digits of the printed numbers (the tables keep full precision).

        Returns
        -------
        Summary
            Printable (``str``, and HTML in Jupyter); its tables are DataFrames:
            ``summary["classes"]`` (training units per class and the ``prior``),
            ``summary["likelihood"]`` (``loglik``: the complete-data log-likelihood
            sum_i w_i log(pi_k f_k(x_i)) of the training sample, ``nu``: ``n_parameters_``,
            ``AIC`` = -2 loglik + 2 nu, ``BIC`` = -2 loglik + nu log n with n the total
            training weight, as ``aic``/``bic`` give on the training data; smaller is better)
            and ``summary["variables"]`` (each variable's number of categories and values).
        """
        check_is_fitted(self)
        digits = check_positive_int(digits, "digits")
        ll = self._training_log_likelihood()
        nu = self.n_parameters_
        n = float(np.sum(self.class_count_))
        likelihood = pd.DataFrame({"loglik": [ll], "nu": [nu], "AIC": [-2.0 * ll + 2.0 * nu],
                                   "BIC": [-2.0 * ll + nu * np.log(n)]},
                                  index=pd.Index([self._short_name], name="model"))
        variables = pd.DataFrame(
            {"categories": self.n_categories_, "values": [_listed(c) for c in self.categories_]},
            index=pd.Index(feature_names(self), name="variable"))
        info = class_info(self, digits) + [
            ("variables", str(self.n_features_in_)),
            ("states", f"{self.n_states_} (s = product of the numbers of categories)"),
        ] + self._summary_info(digits)
        tables = {"classes": class_table(self, prior=self.priors_), "likelihood": likelihood,
                  "variables": variables}
        return Summary(self._title, info, tables, "", digits)

    def _summary_info(self, digits):
        return []

    def _training_log_likelihood(self):
        """``log_likelihood`` of the training sample, from the distinct training states and
        their class weights (FMM, KERNEL keep them)."""
        codes = _states.states_to_codes(self._state_ids, self._space.radices)
        with np.errstate(divide="ignore"):
            joint = self._log_density_codes(codes) + np.log(self.priors_)
        return _weighted_sum(self._counts, joint)

    def _n_observed_classes(self):
        return int(np.count_nonzero(self.class_count_ > 0))

    def _log_class_count(self):
        with np.errstate(divide="ignore"):
            return np.log(self.class_count_)

    # ------------------------------------------------------------------ prediction
    def _active_codes(self, X):
        check_is_fitted(self)
        checked = _states.as_columns(X)
        validate_data(self, X, skip_check_array=True, reset=False)
        codes = _states.encode(X, self._space, _checked=checked)
        return codes[:, self._space.active]

    def class_log_density(self, X):
        """log f_k(x) for every unit and class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, K)
            -inf where a class gives the state probability zero (never NaN).
        """
        return self._log_density_codes(self._active_codes(X))

    def _posterior_parts(self, X):
        """Shifted joint log-densities z (row max 0) and their row sums of exp(z)."""
        joint = self._joint_log_density(X)
        top = joint.max(axis=1)
        dead = ~np.isfinite(top)
        if dead.any():
            _warn(
                f"{type(self).__name__}: {int(dead.sum())} of {len(dead)} unit(s) are in states "
                "with zero probability under every class (never seen in training); their "
                "posterior probabilities fall back to the priors.",
                ZeroDensityWarning,
            )
            with np.errstate(divide="ignore"):
                joint[dead] = np.log(self.priors_)
            top = joint.max(axis=1)
        z = joint - top[:, None]
        e = np.exp(z)
        return z, e, e.sum(axis=1, keepdims=True)

    def predict_log_proba(self, X):
        """log posterior probabilities (eq. 1.2), columns in ``classes_`` order.

        Units whose state has zero density under every class (possible for FMM and FOIM on
        states or category combinations never seen in training) get the priors, with one
        :class:`ZeroDensityWarning` per call.
        """
        z, _, total = self._posterior_parts(X)
        return z - np.log(total)

    def predict_proba(self, X):
        """Posterior probabilities (eq. 1.2), shape (n_samples, K), rows sum to one."""
        _, e, total = self._posterior_parts(X)
        return e / total

    def log_integrated_likelihood(self, X, y, sample_weight=None):
        """Exact log integrated likelihood of ``X`` given ``y`` under Jeffreys priors.

        The model structure (variables, categories, classes) is the fitted one; the counts are
        those of (``X``, ``y``), so ``X, y`` are normally the training data. Brito et al. (2006),
        eq. 3.14 (FOIM) and 3.15 (FMM), in log space.

        Returns
        -------
        float
        """
        codes = self._active_codes(X)
        codes_y = self._encoding.encode(y)
        if codes_y.shape[0] != codes.shape[0]:
            raise ValueError(
                f"X and y have inconsistent numbers of units: X has {codes.shape[0]} rows, "
                f"y has {codes_y.shape[0]} labels."
            )
        w = check_sample_weight(sample_weight, codes.shape[0])
        return self._log_integrated(codes, codes_y, w)



_COMMON_PARAMS = """categories : {"auto", "binary"} or list of array-like, default="auto"
        Categories of each variable: ``"binary"`` declares every variable 0/1 (the paper's
        setting; other values are an error), ``"auto"`` takes the categories of pandas
        Categoricals and the sorted distinct training values otherwise (any numeric X works,
        each distinct value being a category), a list gives them per variable in code order.
        A category unseen at fit time is an error when predicting: declare it here.
    priors : array-like of shape (K,), optional
        Class prior probabilities in ``classes_`` order; default n_k / n.
    classes : sequence, optional
        All class labels from lowest to highest (see ``ordstat._core.labels``)."""

_COMMON_ATTRS = """classes_ : ndarray of shape (K,)
        Class labels, lowest to highest.
    categories_ : list of ndarray
        Categories of each variable in code order.
    n_categories_ : ndarray of shape (n_features,)
        c_j; variables with c_j = 1 are constant and never change a density.
    n_states_ : int
        s = prod_j c_j (2^d for binary data).
    class_count_ : ndarray of shape (K,)
        Weighted number of training units n_k per class.
    priors_ : ndarray of shape (K,)
    n_parameters_ : int
        The nu of the paper (see Notes).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only for DataFrame input."""


class FullMultinomial(_DiscreteClassifier):
    __doc__ = f"""Full multinomial model (FMM): class distributions are the observed frequencies.

    f_k(x) = N(x | k) / n_k, Brito et al. (2006), eq. 2.1, over the s = prod_j c_j states.

    Parameters
    ----------
    {_COMMON_PARAMS}

    Attributes
    ----------
    {_COMMON_ATTRS}

    Notes
    -----
    nu = K (s - 1) (the paper's K (2^d - 1) for binary data), K counting the classes present in
    the training data. States never seen in training have probability zero under every class:
    their posterior falls back to the priors with a :class:`ZeroDensityWarning`. Only observed
    states are stored, so s may be huge (up to 2^62).

    References
    ----------
    Brito, I., Celeux, G. & Sousa Ferreira, A. (2006). Combining methods in supervised
    classification: a comparative study on discrete and continuous problems. REVSTAT 4(3),
    201-225. Eq. 2.1 and 3.15.
    Goldstein, M. & Dillon, W. (1978). Discrete Discriminant Analysis. Wiley.

    Examples
    --------
    >>> import numpy as np
    >>> from ordstat.discrete import FullMultinomial
    >>> X = np.array([[0, 1], [0, 1], [1, 0], [1, 1]])
    >>> FullMultinomial(categories="binary").fit(X, [0, 0, 1, 1]).predict_proba([[0, 1]])
    array([[1., 0.]])
    """

    _title = "Full multinomial model (FMM)"
    _short_name = "FMM"

    def __init__(self, categories="auto", priors=None, classes=None):
        self.categories = categories
        self.priors = priors
        self.classes = classes

    def _summary_info(self, digits):
        return [("observed states", str(len(self._state_ids)))]

    def _fit_codes(self, codes, codes_y, w):
        _states.check_state_space(self._space, type(self).__name__)
        self._state_ids, self._counts = _count_states(codes, self._space.radices, codes_y, w,
                                                      self.n_classes_)

    def _n_parameters(self):
        return self._n_observed_classes() * (self.n_states_ - 1)

    def _log_density_codes(self, codes):
        ids = _states.state_ids(codes, self._space.radices)
        pos = np.minimum(np.searchsorted(self._state_ids, ids), len(self._state_ids) - 1)
        hit = self._state_ids[pos] == ids
        counts = np.where(hit[:, None], self._counts[pos], 0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.log(counts) - self._log_class_count()
        out[:, self.class_count_ <= 0] = -np.inf  # no training units: no distribution
        return out

    def _log_integrated(self, codes, codes_y, w):
        _, counts = _count_states(codes, self._space.radices, codes_y, w, self.n_classes_)
        return log_il_multinomial(counts, self.n_states_)


class IndependenceModel(_DiscreteClassifier):
    __doc__ = f"""First-order independence model (FOIM): variables independent within classes.

    f_k(x) = prod_j N(x_j | k) / n_k, Brito et al. (2006), eq. 2.3 (for binary data the
    Bernoulli naive Bayes classifier without smoothing).

    Parameters
    ----------
    {_COMMON_PARAMS}

    Attributes
    ----------
    {_COMMON_ATTRS}
    category_count_ : list of ndarray of shape (K, c_j)
        Weighted counts N(x_j = c | k) of each variable.

    Notes
    -----
    nu = K sum_j (c_j - 1) (the paper's K d for binary data), K counting the classes present in
    the training data. A category a class never shows in training has probability zero in that
    class; when every class gives a unit probability zero its posterior falls back to the
    priors with a :class:`ZeroDensityWarning`.

    References
    ----------
    Brito, I., Celeux, G. & Sousa Ferreira, A. (2006). Combining methods in supervised
    classification: a comparative study on discrete and continuous problems. REVSTAT 4(3),
    201-225. Eq. 2.3 and 3.14.

    Examples
    --------
    >>> import numpy as np
    >>> from ordstat.discrete import IndependenceModel
    >>> X = np.array([[0, 1], [1, 1], [1, 0], [0, 0]])
    >>> IndependenceModel(categories="binary").fit(X, [0, 0, 1, 1]).predict_proba([[0, 1]])
    array([[1., 0.]])
    """

    _title = "First-order independence model (FOIM)"
    _short_name = "FOIM"

    def __init__(self, categories="auto", priors=None, classes=None):
        self.categories = categories
        self.priors = priors
        self.classes = classes

    def _training_log_likelihood(self):
        """``log_likelihood`` of the training sample from the counts: sum_k n_k log pi_k +
        sum_j sum_(k, c) N(x_j = c | k) log P(x_j = c | k)."""
        counts = [cc for cc, c in zip(self.category_count_, self._space.n_categories) if c >= 2]
        table = np.concatenate(counts, axis=1) if counts else np.zeros((self.n_classes_, 0))
        with np.errstate(divide="ignore"):
            log_priors = np.log(self.priors_)
        return _weighted_sum(table, self._log_table.T) + _weighted_sum(self.class_count_,
                                                                       log_priors)

    def _category_counts(self, codes, codes_y, w):
        K = self.n_classes_
        return [np.bincount(codes_y * c + codes[:, j], weights=w, minlength=K * c).reshape(K, c)
                for j, c in enumerate(self._space.radices)]

    def _fit_codes(self, codes, codes_y, w):
        active_counts = iter(self._category_counts(codes, codes_y, w))
        K = self.n_classes_
        # A constant variable (c_j = 1) has all n_k units of class k in its one category.
        self.category_count_ = [next(active_counts) if c >= 2
                                else self.class_count_[:, None].copy()
                                for c in self._space.n_categories]
        counts = [cc for cc, c in zip(self.category_count_, self._space.n_categories) if c >= 2]
        self._offsets = np.concatenate([[0], np.cumsum(self._space.radices)[:-1]]).astype(np.intp)
        table = np.concatenate(counts, axis=1) if counts else np.zeros((K, 0))
        with np.errstate(divide="ignore", invalid="ignore"):
            log_table = np.log(table) - self._log_class_count()[:, None]
        # A class without training units has no distribution: -inf everywhere, not NaN.
        log_table[self.class_count_ <= 0] = -np.inf
        self._log_table = np.ascontiguousarray(log_table.T)  # (sum_j c_j, K)
        # For binary variables, log f_k(x) = sum_j log P(0) + x @ (log P(1) - log P(0)): one
        # matrix product. Zero probabilities are carried as a count of zero factors instead of
        # -inf, whose differences would be NaN.
        self._binary = bool(np.all(self._space.radices == 2))
        if self._binary and len(self._space.radices):
            zero = ~np.isfinite(self._log_table)
            finite = np.where(zero, 0.0, self._log_table)
            self._base = finite[0::2].sum(axis=0)
            self._slope = finite[1::2] - finite[0::2]
            self._zero_base = zero[0::2].sum(axis=0).astype(np.float64)
            self._zero_slope = zero[1::2].astype(np.float64) - zero[0::2]

    def _n_parameters(self):
        return self._n_observed_classes() * int(np.sum(self._space.n_categories - 1))

    def _log_density_codes(self, codes):
        if codes.shape[1] == 0:
            empty = np.zeros((codes.shape[0], self.n_classes_))
            empty[:, self.class_count_ <= 0] = -np.inf
            return empty
        if self._binary:
            x = codes.astype(np.float64)
            out = x @ self._slope + self._base
            zeros = x @ self._zero_slope + self._zero_base
            out[zeros > 0.5] = -np.inf
            return out
        out = np.zeros((codes.shape[0], self.n_classes_))
        for j in range(codes.shape[1]):
            out += self._log_table[codes[:, j] + self._offsets[j]]
        return out

    def _log_integrated(self, codes, codes_y, w):
        return log_il_independence(self._category_counts(codes, codes_y, w))


class KernelMultinomial(_DiscreteClassifier):
    __doc__ = f"""Kernel-smoothed multinomial model (KERNEL, Aitchison-Aitken kernel).

    f_k(x | lambda) = (1/n_k) sum_(i in class k) prod_j K_j(x_j, x_ij), with K_j = lambda on a
    match and (1 - lambda)/(c_j - 1) on a mismatch: Brito et al. (2006), eq. 2.2, which is
    lambda^(d - ||x - x_i||) (1 - lambda)^||x - x_i|| for binary data. lambda = 1 is FMM; the
    smoothing grows as lambda decreases.

    Parameters
    ----------
    smoothing : "loo" or float in (0, 1], default="loo"
        lambda, or "loo" to choose it by maximising the leave-one-out pseudo-log-likelihood
        sum_i log f_(k_i, -i)(x_i | lambda) (one lambda for all classes, as in the paper) over
        [1 / min_j c_j, 1] (1/2 for binary data), the range where the kernel does not increase
        with the distance (Aitchison & Aitken 1976).
    {_COMMON_PARAMS}

    Attributes
    ----------
    smoothing_ : float
        The lambda used.
    loo_log_likelihood_ : float or None
        The maximised pseudo-log-likelihood (``smoothing="loo"`` only).
    {_COMMON_ATTRS}

    Notes
    -----
    Every state has positive probability when lambda < 1. The paper gives no parameter count for
    KERNEL; here nu = K (s - 1) as for FMM (the smoothed cell probabilities), plus 1 when lambda
    is estimated. With ``sample_weight`` the leave-one-out criterion reads the weights as
    frequencies (a state with weight >= 1 loses one unit). ``log_integrated_likelihood`` is an
    ordstat extension (the paper reports integrated-likelihood weights for lambda = 0.95 without
    a formula): eq. 3.15 evaluated at the smoothed pseudo-counts n_k f_k(h | lambda) of all s
    states; at lambda = 1 it equals FMM's. Densities come from a dense table of all states when
    K s is small (binary d up to ~20), otherwise from Hamming distances between the distinct
    query and training states.

    References
    ----------
    Brito, I., Celeux, G. & Sousa Ferreira, A. (2006). Combining methods in supervised
    classification: a comparative study on discrete and continuous problems. REVSTAT 4(3),
    201-225. Eq. 2.2.
    Aitchison, J. & Aitken, C. G. G. (1976). Multivariate binary discrimination by the kernel
    method. Biometrika 63, 413-420.

    Examples
    --------
    >>> import numpy as np
    >>> from ordstat.discrete import KernelMultinomial
    >>> X = np.array([[0, 1], [0, 1], [1, 0], [1, 1]])
    >>> model = KernelMultinomial(smoothing=0.9, categories="binary").fit(X, [0, 0, 1, 1])
    >>> model.predict_proba([[0, 0]]).round(3)
    array([[0.643, 0.357]])
    """

    _parameter_constraints = {
        **_DiscreteClassifier._parameter_constraints,
        "smoothing": [StrOptions({"loo"}), Interval(Real, 0, 1, closed="right")],
    }

    _title = "Kernel-smoothed multinomial model (KERNEL, Aitchison-Aitken kernel)"
    _short_name = "KERNEL"

    def __init__(self, smoothing="loo", categories="auto", priors=None, classes=None):
        self.smoothing = smoothing
        self.categories = categories
        self.priors = priors
        self.classes = classes

    def _summary_info(self, digits):
        lam = f"lambda = {self.smoothing_:.{digits}g}"
        if self.loo_log_likelihood_ is not None:
            how = (f"chosen by leave-one-out (pseudo-log-likelihood "
                   f"{self.loo_log_likelihood_:.{digits + 2}g})")
        elif self.smoothing == "loo":
            how = "leave-one-out undefined here: lambda = 1 (FMM)"
        else:
            how = "given"
        return [("observed states", str(len(self._state_ids))), ("smoothing", f"{lam}, {how}")]

    def _fit_codes(self, codes, codes_y, w):
        _states.check_state_space(self._space, type(self).__name__)
        radices = self._space.radices
        self._state_ids, self._counts = _count_states(codes, radices, codes_y, w,
                                                      self.n_classes_)
        K, s, n_active = self.n_classes_, self.n_states_, len(radices)
        self.loo_log_likelihood_ = None
        lam = self._choose_lambda(radices, n_active) if self.smoothing == "loo" \
            else float(self.smoothing)
        self.smoothing_ = lam
        self._table = None
        if K * s <= _kernel.KEEP_TABLE:
            # Small state spaces keep the smoothed table: predictions are then lookups.
            table = _kernel.dense_table(self._state_ids, self._counts, s)
            self._table = _kernel.dense_smooth(table, radices, lam)

    def _choose_lambda(self, radices, n_active):
        K, s, u = self.n_classes_, self.n_states_, len(self._state_ids)
        if n_active == 0:
            return 1.0
        # Distance histograms at the training states make every lambda cheap; they come from
        # dense passes over all states (in blocks, to bound memory) or, when the distinct
        # training states are few for the size of the state space, from their distances.
        if _kernel.loo_strategy(K, s, u, radices) == "histograms":
            hist = _kernel.training_histograms(self._state_ids, self._counts, radices)
        else:
            codes = _states.states_to_codes(self._state_ids, radices)
            hist = _kernel.distance_histograms(codes, codes, self._counts, radices)

        def make_smoothed(use):
            cells = np.ascontiguousarray(hist[use])  # (n_cells, d + 1)
            return lambda lam: cells @ _kernel.kernel_profile(lam, n_active)

        objective, defined = _kernel.loo_objective(make_smoothed, self._counts,
                                                   self.class_count_, n_active)
        if not defined:
            _warn(
                "KernelMultinomial: no class has two or more training units, so the "
                "leave-one-out criterion is undefined; using smoothing lambda = 1 (FMM).",
                UserWarning,
            )
            return 1.0
        lam, value = _kernel.choose_lambda(objective, 1.0 / float(np.min(radices)))
        self.loo_log_likelihood_ = value
        return lam

    def _n_parameters(self):
        extra = 1 if isinstance(self.smoothing, str) else 0
        return self._n_observed_classes() * (self.n_states_ - 1) + extra

    def _smoothed_counts(self, codes):
        """S_k(x) = sum_t N(t, k) K_lambda(x, t) for each row of ``codes``: shape (n, K)."""
        radices = self._space.radices
        ids = _states.state_ids(codes, radices)
        if self._table is not None:
            return self._table[:, ids].T
        K, s = self.n_classes_, self.n_states_
        query, inverse = np.unique(ids, return_inverse=True)
        n_active = len(radices)
        dense_cost = K * s * max(n_active, 1)
        pair_cost = len(query) * len(self._state_ids) * (np.sum(radices) + K)
        if K * s <= _kernel.MAX_TABLE and dense_cost <= pair_cost:
            table = _kernel.dense_table(self._state_ids, self._counts, s)
            S = _kernel.dense_smooth(table, radices, self.smoothing_)[:, query].T
        else:
            train_codes = _states.states_to_codes(self._state_ids, radices)
            hist = _kernel.distance_histograms(_states.states_to_codes(query, radices),
                                               train_codes, self._counts, radices)
            S = hist @ _kernel.kernel_profile(self.smoothing_, n_active)
        return S[inverse.ravel()]

    def _log_density_codes(self, codes):
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.log(self._smoothed_counts(codes)) - self._log_class_count()
        out[:, self.class_count_ <= 0] = -np.inf
        return out

    def _log_integrated(self, codes, codes_y, w):
        K, s = self.n_classes_, self.n_states_
        radices = self._space.radices
        if K * s > _kernel.MAX_TABLE:
            raise ValueError(
                f"KernelMultinomial.log_integrated_likelihood sums over all s = {s} states, "
                f"too many here (K s = {K * s} > {_kernel.MAX_TABLE}); use FullMultinomial's, "
                "which only needs the observed states."
            )
        states, counts = _count_states(codes, radices, codes_y, w, K)
        table = _kernel.dense_table(states, counts, s)
        pseudo = _kernel.dense_smooth(table, radices, self.smoothing_)
        return log_il_multinomial(pseudo.T, s)
