"""Cross-checks of EDDA against R's mclust 6.0.0 (MclustDA with modelType = "EDDA") on iris.

Like with like: mclust 6.0.0 reports for EDDA the *mixture* log-likelihood
sum_i log sum_k (n_k/n) f_k(x_i) (our ``mixture_loglik_``), a df with the means and covariance
parameters but not the proportions (our ``df_mclust_``) and bic = 2 loglik - df log n (our
``bic_mclust``). The R code that produces the reference numbers is in ``_R_FIT`` / ``_R_CV``;
the same numbers are pinned in ``tests/reference/mclust.json`` (``make_reference.R``), so every
comparison runs twice: against the stored values (no R needed) and live against R.
"""

import numpy as np
import pytest
from tests._reference import load
from sklearn.datasets import load_iris

from ordstat.gaussian import EDDA, MODELS
from ordstat.gaussian._core import class_scatter
from ordstat.gaussian._models import COVARIANCE_MODELS

ITERATIVE = sorted(m for m, model in COVARIANCE_MODELS.items() if model.iterative)

_R_FIT = """
suppressMessages(library(mclust))
X <- as.matrix(iris[, 1:4]); cl <- iris$Species
res <- lapply(MODELS, function(m) {
  f <- MclustDA(X, cl, modelType = "EDDA", modelNames = m, verbose = FALSE)
  sig <- sapply(f$models, function(g) g$parameters$variance$sigma[, , 1], simplify = "array")
  list(loglik = f$loglik, df = f$df, bic = f$bic,
       pred = as.integer(predict(f, X)$classification) - 1L, sigma = sig,
       version = as.character(packageVersion("mclust")))
})
names(res) <- MODELS
res
"""

_R_CV = """
suppressMessages(library(mclust))
X <- as.matrix(iris[, 1:4]); cl <- iris$Species
sapply(MODELS, function(m) {
  f <- MclustDA(X, cl, modelType = "EDDA", modelNames = m, verbose = FALSE)
  cvMclustDA(f, nfold = nrow(X), verbose = FALSE)$ce
})
"""

# mclust's VVE M-step stops at a point of lower likelihood than the VVE maximum (see
# test_vve_ours_is_a_higher_maximum); its numbers are compared by inequality instead.
_NOT_AT_MAXIMUM = {"VVE"}


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


@pytest.fixture(scope="module", params=["stored", pytest.param("live", marks=pytest.mark.r)])
def mclust_fits(request):
    if request.param == "stored":
        ref = load("mclust")
        assert ref["versions"]["mclust"] == "6.0.0"
        return {m: {"loglik": np.atleast_1d(ref[m]["loglik"]), "df": np.atleast_1d(ref[m]["df"]),
                    "bic": np.atleast_1d(ref[m]["bic"]), "pred": ref[m]["pred"],
                    "sigma": np.asarray(ref[m]["sigma"]), "version": np.array(["6.0.0"]),
                    "loo_error": ref[m]["loo_error"]}
                for m in MODELS}
    pytest.importorskip("rpy2")
    from rpy2 import robjects as ro
    from rpy2.robjects import default_converter, numpy2ri
    from rpy2.robjects.conversion import localconverter

    try:
        ro.r('suppressMessages(library(mclust))')
    except Exception as exc:  # pragma: no cover
        pytest.skip(f"R package mclust unavailable: {exc}")
    models = "c(" + ", ".join(f'"{m}"' for m in MODELS) + ")"
    with localconverter(default_converter + numpy2ri.converter):
        res = ro.r(f"MODELS <- {models}\n" + _R_FIT)
        out = {}
        for m in MODELS:
            item = res[m]  # named R lists convert to OrdDict under this converter
            out[m] = {k: item[k] for k in ("loglik", "df", "bic", "pred", "sigma", "version")}
    for m in out:
        out[m] = {k: np.asarray(v) for k, v in out[m].items()}
        out[m]["sigma"] = np.moveaxis(out[m]["sigma"], -1, 0)
    return out


def test_mclust_version(mclust_fits):
    # mclust's df convention changed in 6.1.1 (the class proportions are counted from then on).
    assert str(mclust_fits["EII"]["version"][0]) == "6.0.0"


@pytest.mark.parametrize("model", list(MODELS))
def test_loglik_bic_df_predictions_match_mclust(model, mclust_fits, iris):
    X, y = iris
    ref = mclust_fits[model]
    clf = EDDA(model=model).fit(X, y)
    assert clf.df_mclust_ == round(float(ref["df"][0]))
    assert clf.n_parameters_ == round(float(ref["df"][0])) + 2  # + K - 1 proportions
    if model in _NOT_AT_MAXIMUM:
        assert clf.mixture_loglik_ > float(ref["loglik"][0])
        return
    rtol = 1e-4 if model in ITERATIVE else 1e-6
    assert clf.mixture_loglik_ == pytest.approx(float(ref["loglik"][0]), rel=rtol)
    assert clf.mixture_log_likelihood(X) == pytest.approx(clf.mixture_loglik_)
    assert clf.bic_mclust(X) == pytest.approx(float(ref["bic"][0]), rel=rtol)
    np.testing.assert_array_equal(clf.predict(X), ref["pred"])
    np.testing.assert_allclose(clf.covariances_, ref["sigma"], rtol=10 * rtol, atol=10 * rtol)


def test_vve_ours_is_a_higher_maximum(mclust_fits, iris):
    """mclust 6.0.0's VVE is not a maximum: from its own orientation our monotone iterations
    climb to a higher complete-data likelihood, the value our default start reaches too."""
    from ordstat.gaussian._models import _common_orientation

    X, y = iris
    n, _, W = class_scatter(X, y, np.ones(150), 3)

    def profile(S):
        return -0.5 * sum(n[k] * np.linalg.slogdet(S[k])[1] + np.trace(np.linalg.solve(S[k], W[k]))
                          for k in range(3))

    sig = mclust_fits["VVE"]["sigma"]
    # mclust's covariances share their eigenvectors (a valid VVE point) ...
    np.testing.assert_allclose(sig[0] @ sig[1], sig[1] @ sig[0], atol=1e-8)
    _, D = np.linalg.eigh(sig[0])
    # a single start at mclust's orientation (not the multi-start of the estimator)
    from_mclust = _common_orientation(W, n, tol=1e-13, max_iter=10_000, init=D,
                                      equal_volume=False)
    ours = EDDA(model="VVE").fit(X, y)
    assert profile(sig) < profile(from_mclust.cov) - 0.4
    assert profile(from_mclust.cov) == pytest.approx(profile(ours.covariances_), rel=1e-9)
    np.testing.assert_array_equal(ours.predict(X), mclust_fits["VVE"]["pred"])


@pytest.mark.slow
def test_loo_error_matches_stored_cvMclustDA(iris):
    ref = load("mclust")
    X, y = iris
    table = EDDA(model="all").fit(X, y).summary()["models"]
    for m in MODELS:
        if m in _NOT_AT_MAXIMUM:
            continue
        assert table.loc[m, "loo_error"] == pytest.approx(ref[m]["loo_error"], abs=1e-12), m


@pytest.mark.r
@pytest.mark.slow
def test_loo_error_matches_cvMclustDA_with_one_fold_per_unit(iris):
    pytest.importorskip("rpy2")
    from rpy2 import robjects as ro
    from rpy2.robjects import default_converter, numpy2ri
    from rpy2.robjects.conversion import localconverter

    models = "c(" + ", ".join(f'"{m}"' for m in MODELS) + ")"
    with localconverter(default_converter + numpy2ri.converter):
        ce = np.asarray(ro.r(f"MODELS <- {models}\n" + _R_CV))
    X, y = iris
    table = EDDA(model="all").fit(X, y).summary()["models"]
    for m, ref in zip(MODELS, ce):
        if m in _NOT_AT_MAXIMUM:
            continue
        assert table.loc[m, "loo_error"] == pytest.approx(ref, abs=1e-12), m
