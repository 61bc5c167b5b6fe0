"""The discrete two-model case (FOIM with FMM or KERNEL, one weight beta; Brito et al. 2006,
eq. 3.9, 3.11, 3.16 and the committee of eq. 3.5) on real binary data: mlbench's HouseVotes84,
read from R. R computes every reference quantity from the formulas with its own table(),
lgamma() and lbeta(), so the two implementations are independent.
"""

import numpy as np
import pandas as pd
import pytest

from ordstat.combine import SerialCombiner
from ordstat.discrete import FullMultinomial, IndependenceModel, KernelMultinomial

pytestmark = pytest.mark.r

VOTES = {"four": ["V3", "V4", "V5", "V12"], "six": ["V1", "V2", "V3", "V4", "V8", "V11"]}

_R_BETAS = """
function(vars) {
  data(HouseVotes84, package = "mlbench")
  d <- na.omit(HouseVotes84[, c("Class", vars)])
  X <- (as.matrix(d[, vars]) == "y") * 1
  k <- as.integer(d$Class)
  nk <- tabulate(k, 2); n <- length(k); K <- 2; p <- ncol(X); s <- 2^p
  key <- apply(X, 1, paste, collapse = "")
  # complete-data log-likelihoods, sum_i log(pi_k f_k(x_i)) at the true class
  ones <- rowsum(X, k)
  theta <- ones / nk
  logfI <- X %*% t(log(theta)) + (1 - X) %*% t(log(1 - theta))
  cnt <- table(factor(k), key)
  logfM <- log(t(sapply(1:2, function(g) cnt[g, key] / nk[g])))
  logfM <- t(logfM)
  prior <- log(nk / n)
  jointI <- sweep(logfI, 2, prior, "+"); jointM <- sweep(logfM, 2, prior, "+")
  llI <- sum(jointI[cbind(1:n, k)]); llM <- sum(jointM[cbind(1:n, k)])
  post <- function(j) { e <- exp(j - apply(j, 1, max)); e / rowSums(e) }
  Y <- diag(2)[k, ]
  EI <- Y - post(jointI); EM <- Y - post(jointM)
  C11 <- sum(EI * EI) / n; C22 <- sum(EM * EM) / n; C12 <- sum(EI * EM) / n
  committee <- min(1, max(0, (C22 - C12) / (C11 + C22 - 2 * C12)))
  logLI <- sum(lbeta(ones + 0.5, nk - ones + 0.5)) - K * p * lbeta(0.5, 0.5)
  logLM <- K * lgamma(s / 2) - sum(lgamma(s / 2 + nk)) +
    sum(lgamma(cnt[cnt > 0] + 0.5)) - sum(cnt > 0) * lgamma(0.5)
  c(committee = committee,
    likelihood = 1 / (1 + exp(llM - llI)),
    aic = 1 / (1 + exp((llM - K * (s - 1)) - (llI - K * p))),
    bic = 1 / (1 + exp((llM - 0.5 * K * (s - 1) * log(n)) - (llI - 0.5 * K * p * log(n)))),
    integrated = 1 / (1 + exp(logLM - logLI)))
}
"""


@pytest.fixture(scope="module")
def votes():
    ro = pytest.importorskip("rpy2.robjects")
    from rpy2.robjects import default_converter, pandas2ri
    from rpy2.robjects.conversion import localconverter

    with localconverter(default_converter + pandas2ri.converter):
        ro.r('data(HouseVotes84, package = "mlbench")')
        frame = ro.conversion.get_conversion().rpy2py(ro.r["HouseVotes84"])
    fn = ro.r(_R_BETAS)
    betas = {}
    for name, cols in VOTES.items():
        out = fn(ro.StrVector(cols))
        betas[name] = dict(zip(out.names, np.asarray(out)))
    return frame.reset_index(drop=True), betas


def _complete(frame, cols):
    d = frame.dropna(subset=cols)
    X = (d[cols].to_numpy(dtype=object) == "y").astype(int)
    # nominal labels: the order of the parties plays no part in these models
    return X, d["Class"].astype(str).to_numpy(dtype=object)


@pytest.mark.parametrize("subset", list(VOTES))
@pytest.mark.parametrize("method", ["committee", "likelihood", "aic", "bic", "integrated"])
def test_single_beta_against_r(votes, subset, method):
    frame, betas = votes
    X, y = _complete(frame, VOTES[subset])
    comb = SerialCombiner([IndependenceModel(categories="binary"),
                           FullMultinomial(categories="binary")], method=method).fit(X, y)
    expected = betas[subset][method]
    print(f"\n{subset} {method}: beta(FOIM) R {expected:.6f}, ours {comb.weights_[0]:.6f}; "
          f"{comb.describe()}")
    assert comb.weights_[0] == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert comb.weights_.sum() == pytest.approx(1.0)
    if method == "aic" and subset == "six":  # the paper's remark: AIC gives beta 0 or 1
        assert min(comb.weights_) < 1e-6
    if method == "integrated":
        assert "FOIM exact, FMM exact" in str(comb.summary())


def test_foim_with_kernel_committee_is_the_two_model_formula(votes):
    frame, _ = votes
    X, y = _complete(frame, VOTES["six"])
    foim = IndependenceModel(categories="binary").fit(X, y)
    kern = KernelMultinomial(categories="binary").fit(X, y)
    comb = SerialCombiner([foim, kern], prefit=True).fit(X, y)
    Y = (y[:, None] == foim.classes_[None, :]).astype(float)
    e1, e2 = Y - foim.predict_proba(X), Y - kern.predict_proba(X)
    c11, c22, c12 = (e1 * e1).sum(), (e2 * e2).sum(), (e1 * e2).sum()
    beta = np.clip((c22 - c12) / (c11 + c22 - 2 * c12), 0, 1)
    assert comb.weights_[0] == pytest.approx(beta, rel=1e-10)
    assert "KERNEL" in comb.describe(names="short")
    # the integrated likelihood of KERNEL is exact too (a sum over the 64 states)
    integ = SerialCombiner([foim, kern], prefit=True, method="integrated").fit(X, y)
    assert "KERNEL exact" in str(integ.summary())
    assert isinstance(pd.Series(integ.predict(X)).iloc[0], str)
