"""EDDA: Gaussian discriminant analysis with the 14 eigen-decomposition covariance models."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from .._core.base import GenerativeClassifierMixin, complete_log_likelihood
from .._core.categories import feature_label
from .._core.summary import Summary
from .._core.validation import (Integral, Interval, Real, StrOptions, check_priors,
                                check_sample_weight, validate_fit, validate_predict)
from .._core.warnings import warn as _warn
from ..model_selection import _progress
from ._core import (FitOptions, Sample, as_full, check_class_scatter, check_min_units,
                    class_scatter, fit_model, label, log_density, logsumexp_rows,
                    one_blas_thread)
from ._loo import leave_one_out
from ._models import COVARIANCE_MODELS, MStep

__all__ = ["EDDA"]



def _parse_models(model):
    """A list of valid model names from a name, a list of names, or "all"."""
    if isinstance(model, str):
        if model.lower() == "all":
            return list(COVARIANCE_MODELS)
        names = [model]
    elif isinstance(model, (list, tuple)) and len(model) > 0:
        names = list(model)
    else:
        raise TypeError(
            f"model must be a model name, a non-empty list of names or 'all'; got {model!r}."
        )
    out = []
    for m in names:
        if not isinstance(m, str) or m.upper() not in COVARIANCE_MODELS:
            raise ValueError(
                f"model must be one of {list(COVARIANCE_MODELS)} (or a list of them, or 'all'); "
                f"got {m!r}."
            )
        if m.upper() not in out:
            out.append(m.upper())
    return out


class EDDA(GenerativeClassifierMixin, BaseEstimator):
    """Eigenvalue Decomposition Discriminant Analysis (Gaussian classes, 14 covariance models).

    Each class k has a Gaussian density with mean mu_k and covariance
    Sigma_k = lambda_k D_k A_k D_k' (volume, orientation, shape); the 14 models constrain these
    to be equal (E), variable (V) across classes or the identity (I). Parameters are maximum
    likelihood estimates from the labelled data (Celeux & Govaert 1995); the posterior is
    pi_k f_k(x) / sum_l pi_l f_l(x) (Brito et al. 2006, eq. 1.2).

    Parameters
    ----------
    model : str, list of str or "all", default="VVV"
        A model name (EII, VII, EEI, VEI, EVI, VVI, EEE, VEE, EVE, VVE, EEV, VEV, EVV, VVV; see
        ``ordstat.gaussian.PAPER_NAMES`` for the paper's notation), a list of them, or "all".
        With several models every one is fitted and one is retained by ``select``. The default
        fits the one unconstrained model VVV (as R's ``edda()`` does); the ``edda`` method of the
        ``ordstat`` command is ``EDDA(model="all", select="loo")``, the EDDA strategy of choosing
        among all 14 models.
    select : {"loo", "bic"}, default="loo"
        How to choose among several models: the exact leave-one-out misclassification rate (the
        EDDA strategy of Bensmail & Celeux 1996; ties go to the model listed first, i.e. the more
        parsimonious one in the order of "all") or the smallest complete-data BIC.
    priors : array-like of shape (K,), optional
        Class prior probabilities pi_k in ``classes_`` order; default n_k / n.
    reg_covar : float, default=0.0
        reg_covar n_k I is added to each class scatter W_k before the M-step, so that every
        covariance gains reg_covar on its diagonal (exactly for EII, VII, EEI, VVI, EEE, VVV;
        approximately for the models that renormalise shapes) and stays non-singular.
    tol : float, default=1e-8
        Relative change of the profile log-likelihood that stops the iterative M-steps
        (VEI, VEE, EVE, VVE, VEV); mclust uses sqrt(machine epsilon), about 1.5e-8. The
        log-likelihood is then accurate to about tol; where it is flat in the parameters they
        are known less precisely (set a smaller tol for those).
    max_iter : int, default=2000
        Iterations allowed to those M-steps; an ``ordstat.exceptions.ConvergenceWarning``
        naming the model is issued when reached.
    classes : sequence, optional
        All class labels, lowest to highest (see ``ordstat._core.labels``).
    progress : bool or None, default=None
        Report the progress of a long fit on standard error: a bar over the steps (each
        model's fit, then, with ``select="loo"``, each model's leave-one-out, the long part
        with many classes), naming the model under way, shown once the fit has lasted a few
        seconds; and, for a model whose leave-one-out will take more than a few seconds (as
        its first chunk of refits says), "EDDA: EVE leave-one-out: about N min for M fits".
        None: on when standard error is a terminal (off inside ``evaluate``'s fits), as
        ``ordstat.model_selection.evaluate`` does. The results do not depend on it.

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
    model_ : str
        The fitted (selected) model.
    means_ : ndarray of shape (K, d)
    covariances_ : ndarray of shape (K, d, d)
    volumes_ : ndarray of shape (K,)
        ``lambda_k = |Sigma_k|^(1/d)``.
    shapes_ : ndarray of shape (K, d)
        Diagonal of A_k (``|A_k| = 1``): decreasing for the models with class-specific orientation
        and for EEE/VEE; in the columns order of the common D for EVE/VVE; in feature order for
        the diagonal models (the paper's B_k); ones for the spherical models.
    orientations_ : ndarray of shape (K, d, d)
        D_k, eigenvectors in columns (identity for diagonal and spherical models).
    priors_ : ndarray of shape (K,)
    n_parameters_ : int
        nu: K d means + covariance parameters + K - 1 proportions (when not given).
    df_mclust_ : int
        Means and covariance parameters only (mclust 6.0.0's ``df``).
    loglik_ : float
        Complete-data log-likelihood of the training data, sum_i w_i log(pi_{k_i} f_{k_i}(x_i)).
    mixture_loglik_ : float
        Mixture log-likelihood of the training data, sum_i w_i log sum_k pi_k f_k(x_i)
        (mclust's ``loglik`` for EDDA).
    loo_error_ : float or None
        Leave-one-out misclassification rate of ``model_`` when computed (select="loo" with
        several models), else None; see :meth:`loo_error`.
    n_iter_ : int
    converged_ : bool
        Of the iterative M-step of ``model_`` (1 and True for closed-form models).
    n_features_in_ : int

    Notes
    -----
    :meth:`log_likelihood`, :meth:`aic` and :meth:`bic` use the complete-data likelihood with the
    true class (Brito et al. 2006, eq. 3.8); :meth:`mixture_log_likelihood` and
    :meth:`bic_mclust` reproduce mclust 6.0.0's conventions. Classes listed in ``classes`` but
    absent from the training data get prior 0 and density 0 (their parameters are NaN).

    VEI, VEE, VEV alternate closed-form updates of the volumes and the common shape (or matrix);
    EVE and VVE alternate the shapes/volumes with over-relaxed Flury-Gautschi rotations of the
    common orientation. Every step increases the likelihood, but the common-orientation models
    can have several local maxima, so they are run from K + 1 starting orientations (the
    eigenvectors of the pooled and of each class scatter) and the best is kept. On iris,
    mclust 6.0.0's VVE stops at a point of lower likelihood than ours (from which our iterations
    climb to ours), so the two differ for that model only. The leave-one-out refits of these
    five models start from the full-data solution (for EVE and VVE from its distinct local
    maxima), which takes a few iterations instead of a fit from scratch; they reach the
    maximum a refit from scratch reaches, to the tolerance ``tol``, except where removing a
    unit creates a new, higher maximum away from the full-data ones (see
    ``ordstat.gaussian._loo``).

    References
    ----------
    Bensmail, H. and Celeux, G. (1996). Regularized Gaussian discriminant analysis through
    eigenvalue decomposition. JASA 91, 1743-1748.
    Celeux, G. and Govaert, G. (1995). Gaussian parsimonious clustering models. Pattern
    Recognition 28, 781-793.
    Brito, I., Celeux, G. and Sousa Ferreira, A. (2006). Combining methods in supervised
    classification: a comparative study on discrete and continuous problems. REVSTAT 4, 201-225,
    section 2.
    Flury, B. N. and Gautschi, W. (1986). An algorithm for simultaneous orthogonal transformation
    of several positive definite symmetric matrices to nearly diagonal form. SIAM J. Sci. Stat.
    Comput. 7, 169-184 (the pairwise rotations of the common orientation in EVE and VVE).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from ordstat.gaussian import EDDA
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = EDDA(model="EEE").fit(X, y)
    >>> round(clf.loo_error(X, y), 2)
    0.02
    """

    _parameter_constraints = {
        "model": [str, list, tuple],
        "select": [StrOptions({"loo", "bic"})],
        "priors": ["array-like", None],
        "reg_covar": [Interval(Real, 0, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "classes": ["array-like", None],
        "progress": ["boolean", None],
    }
    _uses_class_order = False  # nominal responses are fine: the order plays no part

    def __init__(self, model="VVV", select="loo", priors=None, reg_covar=0.0, tol=1e-8,
                 max_iter=2000, classes=None, progress=None):
        self.model = model
        self.select = select
        self.priors = priors
        self.reg_covar = reg_covar
        self.tol = tol
        self.max_iter = max_iter
        self.classes = classes
        self.progress = progress

    # --- fitting ------------------------------------------------------------------------------

    def fit(self, X, y, sample_weight=None):
        """Fit the model(s) by maximum likelihood and select one if several are given.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Ordered class labels.
        sample_weight : array-like of shape (n_samples,), optional
            Unit weights (frequency weights).

        Returns
        -------
        self
        """
        self._validate_params()
        models = _parse_models(self.model)
        reg = float(self.reg_covar)
        X, codes, w = validate_fit(self, X, y, sample_weight, classes=self.classes)
        K, d = self.n_classes_, X.shape[1]
        priors = check_priors(self.priors, K)
        names = self.classes_
        stats = class_scatter(X, codes, w, K)
        n, means = stats.n, stats.means
        present = n > 0
        if not present.all():
            absent = [label(names, k) for k in np.flatnonzero(~present)]
            _warn(
                f"EDDA: class(es) {absent} have no units with positive weight in the training "
                "data; they get prior 0 and parameters NaN.", UserWarning,
            )
        if reg <= 0:
            _check_constant_features(X[w > 0], _column_names(self))
        priors_ = n / n.sum() if priors is None else priors
        loo_steps = len(models) if len(models) > 1 and self.select == "loo" else 0
        steps = self._steps(len(models) + loo_steps)
        try:
            sample = Sample(X, codes, w, names)
            fits = self._fit_models(models, sample, stats, steps)
            multi = len(fits) > 1
            joints = {}
            if multi and self.select == "loo":
                for _ in range(len(models) - len(fits)):
                    steps.done()  # models that could not be fitted
                joints = self._leave_one_out_of(fits, sample, stats, priors, steps=steps)
        finally:
            steps.close()
        loo = {}
        if multi and self.select == "loo":
            loo = {m: _error_rate(joint, codes, w) for m, joint in joints.items()}
            if not loo:
                raise ValueError("EDDA: the leave-one-out error could not be computed for any "
                                 "model (the warnings give the reason for each, e.g. a class "
                                 "too small to leave a unit out); use select='bic', "
                                 "reg_covar > 0 or more data.")

        rows = _comparison_rows(fits, loo, X, codes, w, means, present, priors_,
                                priors is None)
        if not multi:
            chosen, criterion = next(iter(fits)), "single"
        elif self.select == "loo":
            chosen, criterion = min(loo, key=lambda m: (loo[m], models.index(m))), "loo"
        else:
            chosen, criterion = min(rows, key=lambda m: (rows[m]["BIC"], models.index(m))), "bic"
        self._set_model(chosen, fits[chosen], means, priors_, present, priors is None, d)
        self.loglik_ = rows[chosen]["loglik"]
        self.mixture_loglik_ = rows[chosen]["mixture_loglik"]
        self.loo_error_ = loo.get(chosen)
        self._comparison = (rows, criterion)  # the summary's table, built on request
        return self

    def _set_model(self, model, step: MStep, means, priors_, present, priors_estimated, d):
        """Store the parameters of one fitted model (absent classes: NaN, prior 0)."""
        K, Kp = len(present), int(present.sum())
        self.model_ = model
        self._step = step
        self._present = present
        self.means_ = np.where(present[:, None], means, np.nan)
        self.covariances_ = np.full((K, d, d), np.nan)
        self.covariances_[present] = as_full(step.kind, step.cov, d)
        record = COVARIANCE_MODELS[model]
        vol, shape, orient = _decompose(record, step, d)
        self.volumes_ = np.full(K, np.nan)
        self.volumes_[present] = vol
        self.shapes_ = np.full((K, d), np.nan)
        self.shapes_[present] = shape
        self.orientations_ = np.full((K, d, d), np.nan)
        self.orientations_[present] = orient
        self.priors_ = np.asarray(priors_, dtype=float)
        self.df_mclust_ = int(Kp * d + record.n_parameters(Kp, d))
        self.n_parameters_ = self.df_mclust_ + (Kp - 1 if priors_estimated else 0)
        self.n_iter_ = int(step.n_iter) if record.iterative else 1
        self.converged_ = bool(step.converged)

    # --- densities and likelihoods ---------------------------------------------------------

    def class_log_density(self, X):
        """log f_k(x) for every unit and class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, K); -inf for classes absent from the training data.
        """
        X = validate_predict(self, X)
        return self._class_log_density(X)

    def _class_log_density(self, X):
        out = np.full((X.shape[0], self.n_classes_), -np.inf)
        out[:, self._present] = log_density(X, self.means_[self._present], self._step)
        return out

    def _mixture_loglik(self, X, w):
        with np.errstate(divide="ignore"):
            joint = self._class_log_density(X) + np.log(self.priors_)
        pos = w > 0
        return float(np.sum(w[pos] * logsumexp_rows(joint[pos])))

    def mixture_log_likelihood(self, X, sample_weight=None):
        """sum_i w_i log sum_k pi_k f_k(x_i): the mixture log-likelihood (mclust's ``loglik``).

        Unlike :meth:`log_likelihood` (complete data, the paper's eq. 3.8) it does not use the
        classes of the units.
        """
        X = validate_predict(self, X)
        return self._mixture_loglik(X, check_sample_weight(sample_weight, X.shape[0]))

    def bic_mclust(self, X):
        """``2 mixture_log_likelihood(X) - df_mclust_ log n`` (mclust 6.0.0's BIC, larger is
        better)."""
        X = validate_predict(self, X)
        return 2.0 * self._mixture_loglik(X, np.ones(X.shape[0])) \
            - self.df_mclust_ * np.log(X.shape[0])

    # --- leave-one-out and summary ---------------------------------------------------------

    def _fixed_model(self):
        """Whether ``model`` names one model: refitting the estimator without a unit is then the
        down-dated fit of that model (with several, the refit would also select again)."""
        return isinstance(self.model, str) and self.model.lower() != "all"

    def _steps(self, total):
        """The progress of a fit of ``total`` steps (``ordstat.model_selection._progress``)."""
        return _progress.Steps(total, "EDDA", _progress.resolve(self.progress))

    def _options(self, priors=None):
        """The settings of every fit and leave-one-out refit (``priors``: the checked fixed
        priors, or None)."""
        return FitOptions(float(self.reg_covar), float(self.tol), int(self.max_iter), priors)

    def _fit_models(self, models, sample, stats, steps=None):
        """{model: fit} of each of ``models`` (names) on the class statistics ``stats`` of
        ``sample``; a model that cannot be fitted is skipped with a warning (an error when it
        is the only one). ``steps``: the fit's progress, one step per model."""
        steps = self._steps(0) if steps is None else steps
        options = self._options()
        reg = options.reg_covar
        present, d = stats.n > 0, sample.X.shape[1]
        names = np.asarray(sample.class_names)[present]
        counts = np.bincount(sample.codes[sample.w > 0], minlength=len(present))[present]
        fits, errors = {}, {}
        for m in models:
            model = COVARIANCE_MODELS[m]
            steps.start(f"{m} fit")
            try:
                check_min_units(model, counts, d, names, reg)
                check_class_scatter(model, stats.W[present], names, reg, _column_names(self))
                with one_blas_thread():  # K d x d matrices: one thread is fastest
                    fits[m] = fit_model(model, stats.W[present], stats.n[present], options,
                                        class_names=names)
            except ValueError as exc:
                if len(models) == 1:
                    raise
                errors[m] = str(exc)
            steps.done()
        if not fits:
            raise ValueError("EDDA: no model could be fitted:\n" + "\n".join(errors.values()))
        if errors:
            _warn("EDDA: model(s) " + ", ".join(errors) + " skipped: "
                  + " | ".join(errors.values()), UserWarning)
        return fits

    def _leave_one_out_of(self, fits, sample, stats, priors, pairs=False, steps=None):
        """{model: leave-one-out log joint densities} of each fit (``ordstat.gaussian._loo``)
        on ``sample`` with class statistics ``stats`` and fixed ``priors`` (or None); a model
        whose leave-one-out fails (a class left too small) is dropped with a warning (an error
        when it is the only one). ``steps``: the fit's progress, one step per model, told of
        every chunk of leave-one-out refits."""
        options = self._options(priors)
        steps = self._steps(0) if steps is None else steps
        joints = {}
        for m, step in fits.items():
            part = steps.start(f"{m} leave-one-out")
            try:
                joints[m] = leave_one_out(COVARIANCE_MODELS[m], step, sample, stats, options,
                                          pairs=pairs, progress=part)
            except ValueError as exc:
                if len(fits) == 1:
                    raise
                _warn(f"EDDA: model {m!r} dropped from the leave-one-out selection: {exc}",
                      UserWarning)
            steps.done()
        return joints

    def _leave_one_out(self, X, y, sample_weight, models=None, pairs=False):
        """The leave-one-out of ``models`` (default: ``model_``) on (X, y): the one set-up
        (class scatter, the full fits whose end points warm-start the iterative refits, priors)
        for every public method.

        Returns ({model: joint}, codes, sample weights).
        """
        check_is_fitted(self)
        models = [self.model_] if models is None else models
        check = type(self)(**{**self.get_params(), "model": models})
        X, codes, w = validate_fit(check, X, y, sample_weight, classes=self.classes_)
        sample = Sample(X, codes, w, self.classes_)
        stats = class_scatter(X, codes, w, len(self.classes_))
        priors = check_priors(self.priors, len(self.classes_))
        steps = self._steps(2 * len(models))  # as fit: a fit, then a leave-one-out per model
        try:
            fits = self._fit_models(models, sample, stats, steps)
            for _ in range(len(models) - len(fits)):
                steps.done()
            joints = self._leave_one_out_of(fits, sample, stats, priors, pairs, steps)
        finally:
            steps.close()
        return joints, codes, w

    @available_if(_fixed_model)
    def loo_log_joint(self, X, y, sample_weight=None):
        """Leave-one-out log joint densities: row i holds log(pi_k f_k(x_i)) under the fit
        without unit i.

        The fit without unit i is the same model, priors rule and ``reg_covar`` refitted on the
        other units; it comes from a rank-one down-date of the class statistics and, for all i
        at once, one batched M-step (warm-started from the full fit for the iterative models)
        or the matrix determinant lemma (see ``ordstat.gaussian._loo``), not from n refits
        (Bensmail & Celeux 1996). Available when
        ``model`` names one model, so that this is exactly the leave-one-out of the estimator
        (with several models a refit would also select again). Normally (X, y) is the training
        data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional
            Leaving out a unit of weight zero leaves the fit as it is: its row is the fit's own.

        Returns
        -------
        ndarray of shape (n_samples, K)
            Columns in ``classes_`` order; -inf for classes absent from (X, y). The
            leave-one-out posteriors are its rows normalised by their sum of exponentials.

        Raises
        ------
        ValueError
            When leaving a unit out leaves its class too few units for the model (the message
            names the class and the model).
        """
        return self._leave_one_out(X, y, sample_weight)[0][self.model_]

    def loo_log_joints(self, X, y, sample_weight=None):
        """Leave-one-out log joint densities of every model that ``model`` names (all 14 with
        ``model="all"``), computed with one set-up: ``{model: array}``, each array as
        :meth:`loo_log_joint` gives for that model alone. The selection by leave-one-out
        error in :meth:`fit` compares these.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional

        Returns
        -------
        dict of str -> ndarray of shape (n_samples, K)
            In mclust's order of the models; a model that cannot be fitted, or whose
            leave-one-out leaves a class too few units, is left out with a warning.
        """
        return self._leave_one_out(X, y, sample_weight, _parse_models(self.model))[0]

    @available_if(_fixed_model)
    def loo_log_joint_pairs(self, X, y, sample_weight=None):
        """Every leave-one-out fit at every unit: [i, j, k] = log(pi_k f_k(x_j)) under the fit
        without unit i.

        The diagonal [i, i] is :meth:`loo_log_joint` (up to rounding: that method uses
        rank-one formulas for VVV, EEE and EVV). A serial combination refits its weights on the
        units other than i from these, so its whole leave-one-out needs no refit. Available
        when ``model`` names one model.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional

        Returns
        -------
        ndarray of shape (n_samples, n_samples, K)
            -inf for classes absent from (X, y).
        """
        return self._leave_one_out(X, y, sample_weight, pairs=True)[0][self.model_]

    def loo_error(self, X, y, sample_weight=None):
        """Exact leave-one-out misclassification rate of ``model_`` on (X, y).

        Each unit is classified by the model refitted without it (same model, priors rule,
        reg_covar), computed by rank-one down-dates and batched, warm-started refits (see
        ``ordstat.gaussian._loo``), not by n refits. Normally (X, y) is the training data.

        Returns
        -------
        float
            sum_i w_i [k_hat(-i) != k_i] / sum_i w_i.
        """
        joints, codes, w = self._leave_one_out(X, y, sample_weight)
        return _error_rate(joints[self.model_], codes, w)

    def summary(self):
        """The comparison of the fitted models, as the EDDA routine reports it (Brito et al.
        2006, section 2).

        Returns
        -------
        ordstat._core.summary.Summary
            Info lines ``selected`` (``model_``) and ``criterion`` (how it was selected:
            "loo", "bic", or "single" when one model was fitted), and the table ``"models"``
            (``summary()["models"]``), indexed by model name, with columns:

            - ``paper``: the model in the notation of Bensmail & Celeux (1996);
            - ``loglik``: complete-data log-likelihood sum_i log(pi_{k_i} f_{k_i}(x_i)) (the
              paper's, eq. 3.8), ``nu``: its number of free parameters (means, covariances
              and, when estimated, the K - 1 proportions), ``AIC`` = -2 loglik + 2 nu, ``BIC``
              = -2 loglik + nu log n (smaller is better);
            - ``mixture_loglik``: sum_i log sum_k pi_k f_k(x_i), ``df_mclust``: means and
              covariance parameters only, ``BIC_mclust`` = 2 mixture_loglik - df_mclust log n
              (larger is better): the quantities mclust 6.0.0 reports for
              ``MclustDA(modelType = "EDDA")``;
            - ``loo_error``: exact leave-one-out misclassification rate (NaN when not
              computed);
            - ``n_iter``, ``converged``: of the iterative M-steps (1 / True for closed forms).
        """
        check_is_fitted(self)
        rows, criterion = self._comparison
        # Built here, not in fit: a DataFrame costs more than fitting a simple model.
        table = pd.DataFrame.from_dict(rows, orient="index")
        table.index.name = "model"
        notes = ("loglik, nu, AIC, BIC: complete-data likelihood (Brito et al. 2006, eq. 3.8); "
                 "smaller AIC and BIC are better.\nmixture_loglik, df_mclust, BIC_mclust: "
                 "mclust 6.0.0's conventions for EDDA; larger BIC_mclust is better.")
        return Summary("EDDA models", [("selected", self.model_), ("criterion", criterion)],
                       {"models": table}, notes, digits=6)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags


def _column_names(estimator):
    """The training DataFrame's column names (None for an array), for messages."""
    names = getattr(estimator, "feature_names_in_", None)
    return None if names is None else [str(c) for c in names]


def _check_constant_features(X, names=None):
    spread = np.ptp(X, axis=0)
    const = np.flatnonzero(spread <= 1e-12 * np.maximum(1.0, np.abs(X).max(axis=0)))
    if const.size:
        features = ", ".join(feature_label(j, names) for j in const)
        raise ValueError(
            f"X has constant feature(s): {features}; every Gaussian covariance model is "
            "singular. Remove them or set reg_covar > 0."
        )


def _comparison_rows(fits, loo, X, codes, w, means, present, priors_, priors_estimated):
    """{model: row} of the summary's table, one density evaluation per model."""
    K, d, Kp = len(present), X.shape[1], int(present.sum())
    pos = w > 0  # zero-weight units of an absent class would give 0 * -inf
    Ntot = w.sum()
    with np.errstate(divide="ignore"):
        log_priors = np.log(priors_)
    rows = {}
    for m, f in fits.items():
        model = COVARIANCE_MODELS[m]
        joint = np.full((X.shape[0], K), -np.inf)
        joint[:, present] = log_density(X, means[present], f)
        joint += log_priors
        ll = complete_log_likelihood(joint, codes, w)
        mix = float(np.sum(w[pos] * logsumexp_rows(joint[pos])))
        df = int(Kp * d + model.n_parameters(Kp, d))
        nu = df + (Kp - 1 if priors_estimated else 0)
        rows[m] = {
            "paper": model.paper_name, "loglik": ll, "nu": nu,
            "AIC": -2 * ll + 2 * nu, "BIC": -2 * ll + nu * np.log(Ntot),
            "mixture_loglik": mix, "df_mclust": df, "BIC_mclust": 2 * mix - df * np.log(Ntot),
            "loo_error": loo.get(m, np.nan),
            "n_iter": f.n_iter if model.iterative else 1, "converged": f.converged,
        }
    return rows


def _error_rate(joint, codes, w):
    """Weighted misclassification rate of the leave-one-out joint densities (units of positive
    weight)."""
    pos = np.flatnonzero(w > 0)
    wrong = np.argmax(joint[pos], axis=1) != codes[pos]
    return float(np.sum(w[pos] * wrong) / np.sum(w[pos]))


def _decompose(model, step: MStep, d):
    """(volumes (K,), shapes (K, d), orientations (K, d, d)) of the covariances of ``model``
    (a :class:`~._models.CovarianceModel`) fitted in ``step``."""
    K = step.cov.shape[0]
    eye = np.broadcast_to(np.eye(d), (K, d, d)).copy()
    if step.kind == "spherical":
        return step.cov.copy(), np.ones((K, d)), eye
    if step.kind == "diagonal":
        vol = np.exp(np.mean(np.log(step.cov), axis=-1))
        return vol, step.cov / vol[:, None], eye
    if model.multistart:
        D = step.state[0]  # end points of the starts, the retained one first
        ev = np.einsum("ji,kjl,li->ki", D, step.cov, D)
        orient = np.broadcast_to(D, (K, d, d)).copy()
    else:
        ev, orient = np.linalg.eigh(step.cov)
        ev, orient = ev[:, ::-1], orient[:, :, ::-1]
    vol = np.exp(np.mean(np.log(ev), axis=-1))
    return vol, ev / vol[:, None], orient
