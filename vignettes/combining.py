# %% [markdown]
# # Combining discriminant models
#
# Brito, Celeux & Sousa Ferreira (2006) combine several discriminant models instead of picking
# one: serially (one convex combination of the models' posterior probabilities) or
# hierarchically (a tree of class dichotomies, each node with its own model). This walkthrough
# follows their continuous examples with the 14 EDDA models, then a discrete one.

# %%
import matplotlib.pyplot as plt

from ordstat import EDDA
from ordstat.combine import HierarchicalCoupling, SerialCombiner
from ordstat.datasets import load_iris
from ordstat.plotting import plot_coupling_tree

X, y = load_iris(return_X_y=True)

# %% [markdown]
# ## The EDDA model table
#
# Each of the 14 covariance models Sigma_k = lambda_k D_k A_k D_k' with its complete-data
# log-likelihood, AIC, BIC and exact leave-one-out error.

# %%
edda = EDDA(model="all", select="loo").fit(X, y)
print(edda.summary())
edda.summary()["models"]["loo_error"].plot.bar(figsize=(6, 3), ylabel="leave-one-out error")
plt.show()

# %% [markdown]
# ## Committee of methods against likelihood weights
#
# The committee minimises the estimated squared error of the combined posteriors; the
# likelihood, AIC and BIC rules weight each model by its (penalised) likelihood.

# %%
models = [EDDA(model="EEI"), EDDA(model="EII")]
for method in ["committee", "likelihood", "aic", "bic"]:
    comb = SerialCombiner(models, method=method, posteriors="loo").fit(X, y)
    print(f"{method:10s} {comb.describe()}   leave-one-out error {comb.loo_error(X, y):.3f}")

# %% [markdown]
# ## Hierarchical coupling
#
# Every bipartition of the classes is tried with every model, by leave-one-out error; the best
# pair becomes the root and the procedure recurses.

# %%
coupling = HierarchicalCoupling("edda", partition="cv", cv="loo").fit(X, y)
print(coupling.summary())
plot_coupling_tree(coupling)
plt.show()

# %% [markdown]
# ## A discrete example
#
# With binary predictors the candidates are the full multinomial model, the first-order
# independence model and the kernel model; the integrated-likelihood weight is exact.

# %%
import numpy as np

from ordstat import FullMultinomial, IndependenceModel

rng = np.random.default_rng(0)
yb = rng.integers(0, 2, 300)
Xb = (rng.random((300, 4)) < np.where(yb[:, None] == 1, 0.7, 0.35)).astype(int)
for method in ["committee", "bic", "integrated"]:
    comb = SerialCombiner([IndependenceModel(), FullMultinomial()], method=method).fit(Xb, yb)
    print(f"{method:10s} {comb.describe()}")
