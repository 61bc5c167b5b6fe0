"""The discrete models on real binary data: mlbench's HouseVotes84, read from R.

The paper's questionnaires (Brito et al. 2006, Table 2) are not available. HouseVotes84 (435
members of the 1984 US House, 16 yes/no votes, democrat/republican) gives real binary
predictors; subsets of 4 and 6 votes mimic the paper's 16- and 64-state questionnaires.

Missing votes (NA, 392 of them): for the binary models, units with an NA among the votes used are
dropped (complete cases of that subset); ``test_abstention_as_third_category`` instead reads NA as
a third category "?" to exercise the categorical models on the full data.

R computes the reference quantities from the paper's formulas with its own table(), lgamma() and
lbeta(), so these tests compare two independent implementations. The data and R's numbers are
also pinned in ``tests/reference/`` (``make_reference.R``): ``test_votes_against_r`` runs
against the stored numbers always and live against R when R is there; the other tests read the
stored data.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.naive_bayes import BernoulliNB, CategoricalNB

from tests._reference import HERE, load

from ordstat.discrete import (FullMultinomial, IndependenceModel, KernelMultinomial,
                              ZeroDensityWarning, class_union_affinity)

PARTIES = ["democrat", "republican"]
SUBSETS = {
    "four": ["V3", "V4", "V5", "V12"],
    "six": ["V1", "V2", "V3", "V4", "V8", "V11"],
}

_R_REFERENCE = """
function(vars) {
  data(HouseVotes84, package = "mlbench")
  d <- na.omit(HouseVotes84[, c("Class", vars)])
  X <- (as.matrix(d[, vars]) == "y") * 1
  cls <- d$Class
  nk <- as.vector(table(cls))
  n <- sum(nk)
  s <- 2^length(vars)
  state <- apply(X, 1, paste, collapse = "")
  tab <- table(cls, state)
  logLM <- sum(lgamma(s / 2) - lgamma(s / 2 + nk)) + sum(lgamma(tab[tab > 0] + 0.5) - lgamma(0.5))
  ones <- rowsum(X, cls)
  logLI <- sum(lbeta(ones + 0.5, nk - ones + 0.5)) - length(ones) * lbeta(0.5, 0.5)
  p1 <- ones / nk
  logf <- X %*% t(log(p1)) + (1 - X) %*% t(log(1 - p1))
  joint <- sweep(logf, 2, log(nk / n), "+")
  foim <- exp(joint - apply(joint, 1, max))
  foim <- foim / rowSums(foim)
  freq <- t(tab[, state] / nk)
  fmm <- sweep(freq, 2, nk / n, "*")
  fmm <- fmm / rowSums(fmm)
  list(rows = as.integer(rownames(d)) - 1L, y = as.integer(cls) - 1L, logLM = logLM, logLI = logLI,
       foim = unname(foim), fmm = unname(fmm), levels = levels(cls))
}
"""


def _stored_frame():
    frame = pd.read_csv(HERE / "housevotes84.csv", dtype=str, keep_default_na=False)
    return frame.where(frame != "", np.nan)


@pytest.fixture(scope="module")
def frame():
    return _stored_frame()


@pytest.fixture(scope="module", params=["stored", pytest.param("live", marks=pytest.mark.r)])
def votes(request):
    if request.param == "stored":
        ref = load("housevotes84")
        return _stored_frame(), {name: ref[name] for name in SUBSETS}
    ro = pytest.importorskip("rpy2.robjects")
    from rpy2.robjects import default_converter, numpy2ri, pandas2ri
    from rpy2.robjects.conversion import localconverter

    with localconverter(default_converter + pandas2ri.converter):
        ro.r('data(HouseVotes84, package = "mlbench")')
        frame = ro.conversion.get_conversion().rpy2py(ro.r["HouseVotes84"])
    reference = {}
    fn = ro.r(_R_REFERENCE)
    with localconverter(default_converter + numpy2ri.converter):
        for name, cols in SUBSETS.items():
            out = fn(ro.StrVector(cols))
            reference[name] = {key: np.asarray(value) for key, value in out.items()}
    return frame.reset_index(drop=True), reference


def _complete(frame, cols):
    d = frame.dropna(subset=cols)
    X = (d[cols].to_numpy(dtype=object) == "y").astype(int)
    # Party order is arbitrary; stating it avoids guessing it from the labels.
    y = pd.Categorical(d["Class"].astype(str), categories=PARTIES, ordered=True)
    return X, y


@pytest.mark.parametrize("subset", list(SUBSETS))
def test_votes_against_r(votes, subset):
    frame, reference = votes
    ref = reference[subset]
    X, y = _complete(frame, SUBSETS[subset])
    # The same complete cases in the same order as R's na.omit.
    rows = frame.dropna(subset=SUBSETS[subset]).index.to_numpy()
    np.testing.assert_array_equal(rows, ref["rows"])
    np.testing.assert_array_equal(y.codes, ref["y"])
    classes = ["democrat", "republican"]
    np.testing.assert_array_equal(classes, ref["levels"])
    fmm = FullMultinomial(categories="binary", classes=classes).fit(X, y)
    foim = IndependenceModel(categories="binary", classes=classes).fit(X, y)
    np.testing.assert_allclose(foim.predict_proba(X), ref["foim"], rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(fmm.predict_proba(X), ref["fmm"], rtol=1e-10, atol=1e-14)
    assert fmm.log_integrated_likelihood(X, y) == pytest.approx(
        float(np.ravel(ref["logLM"])[0]), rel=1e-12)
    assert foim.log_integrated_likelihood(X, y) == pytest.approx(
        float(np.ravel(ref["logLI"])[0]), rel=1e-12)
    d = X.shape[1]
    assert fmm.n_parameters_ == 2 * (2**d - 1) and foim.n_parameters_ == 2 * d


def test_votes_foim_equals_bernoulli_nb(frame):
    cols = [f"V{j}" for j in range(1, 17)]
    X, y = _complete(frame, cols)
    ours = IndependenceModel(categories="binary").fit(X, y)
    counts = np.stack(ours.category_count_)  # (d, K, 2)
    assert (counts > 0).all(), "every vote/class count positive: both models defined"
    nb = BernoulliNB(alpha=1e-10, force_alpha=True).fit(X, np.asarray(y))
    np.testing.assert_allclose(ours.predict_proba(X), nb.predict_proba(X), rtol=1e-6,
                               atol=1e-12)
    np.testing.assert_array_equal(ours.predict(X), nb.predict(X))


def test_abstention_as_third_category(frame):
    cols = [f"V{j}" for j in range(1, 17)]
    X = frame[cols].astype(object).where(frame[cols].notna(), "?")
    y = frame["Class"].astype(str).to_numpy()
    ours = IndependenceModel(classes=PARTIES).fit(X, y)
    assert list(ours.n_categories_) == [3] * 16
    assert ours.n_parameters_ == 2 * 16 * 2
    # CategoricalNB codes categories 0..c-1 itself: give it our codes.
    codes = np.column_stack([pd.Index(ours.categories_[j]).get_indexer(X.iloc[:, j])
                             for j in range(16)])
    nb = CategoricalNB(alpha=1e-10, force_alpha=True).fit(codes, y)
    assert min(c.min() for c in ours.category_count_) > 0, "both models defined everywhere"
    np.testing.assert_allclose(ours.predict_proba(X), nb.predict_proba(codes), rtol=1e-6,
                               atol=1e-12)


def test_votes_kernel_loo_and_integrated_weight(frame):
    X, y = _complete(frame, SUBSETS["six"])
    kern = KernelMultinomial(categories="binary").fit(X, y)
    assert 0.5 <= kern.smoothing_ <= 1.0
    for lam in (0.5, 0.8, 0.95, 0.99):
        fixed = KernelMultinomial(smoothing=lam, categories="binary").fit(X, y)
        assert fixed.smoothing_ == lam
        assert np.isfinite(fixed.log_integrated_likelihood(X, y))
    # The integrated-likelihood weight of FOIM against FMM (eq. 3.16), computed in log space.
    log_li = IndependenceModel(categories="binary").fit(X, y).log_integrated_likelihood(X, y)
    log_lm = FullMultinomial(categories="binary").fit(X, y).log_integrated_likelihood(X, y)
    beta = 1.0 / (1.0 + np.exp(log_lm - log_li))
    assert 0.0 <= beta <= 1.0
    # The two parties are well separated: misclassification by 5-fold CV well below 1/2.
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ZeroDensityWarning)
        for model in (FullMultinomial, IndependenceModel, KernelMultinomial):
            accuracy = cross_val_score(model(categories="binary"), X, y, cv=cv).mean()
            assert accuracy > 0.85
    fmm = FullMultinomial(categories="binary").fit(X, y)
    rho = class_union_affinity(fmm, ["democrat"], ["republican"])
    assert 0.0 < rho < 1.0
