# %% [markdown]
# # Ordinal trees and ensembles with ordstat
#
# This walkthrough classifies party identification on a 7-point ordered scale (the 1996 American
# National Election Studies sample, 944 respondents) with classification trees whose splitting
# rules respect the order of the classes (Archer & Mas 2009; Piccarreta 2008), then compares
# methods with tests that respect the pairing of resampling splits.

# %%
import matplotlib.pyplot as plt
import numpy as np

from ordstat import OrdinalTreeClassifier, metrics
from ordstat.datasets import load_anes96
from ordstat.model_selection import compare_methods, evaluate, summarize

data = load_anes96()
X, y = data.drop(columns="PID"), data["PID"]
print(X.shape)
print(y.value_counts(sort=False))

# %% [markdown]
# ## Choosing a split criterion
#
# Gini ignores the order of the classes; generalized Gini with linear or quadratic costs, ordered
# twoing and the ordinal impurity use it. Generalized Gini with linear costs (Archer & Mas 2009,
# eq. 9) is proportional to the ordinal impurity, so those two grow the same tree. rpart's loss
# matrix (`loss_linear`, `loss_quadratic`, what `rpart(parms = list(loss = L))` grows) alters the
# class priors instead and labels each leaf by least expected loss (`leaf_rule="cost"`). Each
# tree is grown rpart-style on 70% of the respondents and pruned to the smallest
# cross-validated error plus one standard error; the errors are those of the other 30%, which
# no tree saw (errors on the training data would flatter the larger trees).

# %%
from sklearn.model_selection import train_test_split

X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0,
                                                    stratify=y)
criteria = ["gini", "gini_linear", "gini_quadratic", "loss_linear", "loss_quadratic", "twoing",
            "ordinal"]
rows = []
for criterion in criteria:
    leaf_rule = "cost" if criterion.startswith("loss") else "mode"
    tree = OrdinalTreeClassifier(criterion=criterion, leaf_rule=leaf_rule, prune="1se",
                                 random_state=0).fit(X_train, y_train)
    pred = tree.predict(X_test)
    rows.append((criterion, tree.tree_.n_leaves,
                 metrics.misclassification_rate(y_test, pred),
                 metrics.mean_absolute_distance(y_test, pred),
                 metrics.goodman_kruskal_gamma(y_test, pred)))
print("held-out errors (30% of the respondents)")
for row in rows:
    print("{:15s} leaves={} error={:.3f} MAD={:.3f} gamma={:.3f}".format(*row))

# %% [markdown]
# ## Pruning: the cost-complexity table
#
# `cp_table_` is rpart's `printcp` table: the cross-validated relative error of each subtree.
# `plot_cp` draws it as rpart's `plotcp` does: error bars of one standard error, and the dashed
# line at the smallest error plus its standard error (the one-standard-error rule keeps the
# smallest tree below it).

# %%
from ordstat.plotting import plot_confusion, plot_cp, plot_tree

tree = OrdinalTreeClassifier(criterion="ordinal", cp=0.001, random_state=0).fit(X, y)
print(tree.cp_table_.head(10))
plot_cp(tree)
plt.show()

# %% [markdown]
# ## The pruned tree: summary and picture
#
# `summary()` describes the tree in the spirit of rpart's `summary`: the cp table, the variable
# importance, and for every node its size, predicted class, expected loss, class counts and
# primary split. Its tables are DataFrames (`summary["nodes"]`).

# %%
pruned = OrdinalTreeClassifier(criterion="ordinal", prune="1se", random_state=0).fit(X, y)
summary = pruned.summary()
print(summary)

# %%
plot_tree(pruned)
plt.show()

# %% [markdown]
# The confusion matrix of the held-out respondents, classes in their order (rows true, columns
# predicted), from the same pruned tree grown on the training part: an ordinal tree's errors
# mostly fall next to the diagonal.

# %%
held_out = OrdinalTreeClassifier(criterion="ordinal", prune="1se",
                                 random_state=0).fit(X_train, y_train)
plot_confusion(y_test, held_out.predict(X_test), normalize="true")
plt.show()

# %% [markdown]
# ## The proportional-odds baseline
#
# The classical cumulative logit model (McCullagh 1980), fitted by maximum likelihood; its
# `summary()` gives the coefficients and the thresholds (named "lower|upper" as R's
# `MASS::polr` prints them) with standard errors, Wald z statistics and p-values.

# %%
from ordstat import ProportionalOddsClassifier

polr = ProportionalOddsClassifier().fit(X[["selfLR", "age", "educ", "income"]], y)
print(polr.summary())

# %% [markdown]
# ## Comparing methods on the same splits
#
# `evaluate` runs every method on the same ten folds (in parallel through joblib);
# `compare_methods` runs Friedman's test, then Holm-corrected pairwise Wilcoxon signed-rank tests.

# %%
results = evaluate({c: OrdinalTreeClassifier(criterion=c, prune="1se") for c in criteria},
                   X, y, scheme="cv10", n_jobs=2, random_state=1)
print(summarize(results))
print(compare_methods(results, "mean_absolute"))

# %% [markdown]
# ## Bagging with out-of-bag gamma
#
# `OrdinalBaggingClassifier` bags unpruned ordinal trees on bootstrap samples; every unit is
# scored by the trees that did not see it, which gives out-of-bag misclassification, mean absolute
# distance and Goodman-Kruskal gamma without a test set (Archer & Mas 2009).

# %%
from ordstat.ensemble import OrdinalBaggingClassifier, OrdinalBoostingClassifier

bag = OrdinalBaggingClassifier(n_estimators=50, aggregation="median", random_state=0,
                               n_jobs=2).fit(X, y)
print(f"out-of-bag error {bag.oob_error_:.3f}, MAD {bag.oob_mean_absolute_:.3f}, "
      f"gamma {bag.oob_gamma_:.3f}")
per_tree = bag.oob_per_estimator_
fig, ax = plt.subplots(figsize=(5, 3))
ax.hist(per_tree["gamma"], bins=15)
ax.set_xlabel("out-of-bag gamma of each tree")
plt.show()

# %% [markdown]
# ## Boosting curves
#
# Ordinal Discrete AdaBoost (Tutz & Hechenbichler 2003) weights the errors by their distance
# in ranks; `staged_predict` gives the held-out error after every cycle.

# %%
fig, ax = plt.subplots(figsize=(6, 3.5))
for variant in ["discrete", "ordinal_discrete"]:
    boost = OrdinalBoostingClassifier(variant=variant, n_estimators=40,
                                      random_state=0).fit(X_train, y_train)
    errors = [np.mean(np.asarray(p) != np.asarray(y_test))
              for p in boost.staged_predict(X_test)]
    ax.plot(np.arange(1, len(errors) + 1), errors, label=variant)
ax.set_xlabel("cycles")
ax.set_ylabel("test misclassification")
ax.legend()
plt.show()
