"""Scorers that rank by the estimator's class order (ordstat.metrics.get_scorer and friends).

The labels are strings whose ordinal order (low < mid < high) is not the alphabetical one
(high < low < mid), so a scorer that lost the order gives different numbers.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import make_scorer
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score, cross_validate

from ordstat import OrdinalTreeClassifier
from ordstat import metrics as M

ORDER = ["low", "mid", "high"]


class ColumnClassifier(ClassifierMixin, BaseEstimator):
    """Predicts the class whose ordinal code is in column ``column`` of X (a stand-in whose
    predictions are known, with classes_ in ordinal order like ordstat's estimators)."""

    def __init__(self, column=0, classes=None):
        self.column = column
        self.classes = classes

    def fit(self, X, y):
        self.classes_ = np.asarray(self.classes if self.classes is not None else ORDER)
        return self

    def predict(self, X):
        return self.classes_[np.asarray(X)[:, self.column].astype(int)]


# Six units, two folds of three (KFold without shuffling). Column 0 predicts "low" for one
# "high" unit in each fold (rank distance 2, alphabetical distance 1); column 1 predicts
# "high" for one "mid" unit in each fold (rank distance 1, alphabetical distance 2).
Y = np.array(["low", "mid", "high", "high", "mid", "low"], dtype=object)
CODES = {"low": 0, "mid": 1, "high": 2}
X = np.array([[0, 0], [1, 2], [0, 2], [0, 2], [1, 2], [0, 0]])
# the true ranks are 0 1 2 | 2 1 0; column 0 predicts 0 1 0 | 0 1 0, column 1 0 2 2 | 2 2 0
CV = KFold(2)


def test_named_scorer_hand_computation_in_cross_val_score():
    scores = cross_val_score(ColumnClassifier(0), X, Y, cv=CV,
                             scoring=M.get_scorer("neg_mean_absolute_distance"))
    # each fold: |2 - 0| / 3; alphabetically ("high" < "low" < "mid") it would be 1/3
    np.testing.assert_allclose(scores, [-2 / 3, -2 / 3])
    squared = cross_val_score(ColumnClassifier(0), X, Y, cv=CV, scoring=M.SCORERS["neg_mse"])
    np.testing.assert_allclose(squared, [-4 / 3, -4 / 3])
    errors = cross_val_score(ColumnClassifier(0), X, Y, cv=CV,
                             scoring=M.get_scorer("neg_misclassification"))
    np.testing.assert_allclose(errors, [-1 / 3, -1 / 3])


@pytest.mark.filterwarnings("ignore::ordstat.OrderGuessWarning")
def test_sklearn_make_scorer_is_the_wrong_order_the_ordinal_scorer_fixes():
    # the user's report: make_scorer(mean_absolute_distance) ranks alphabetically
    plain = cross_val_score(ColumnClassifier(0), X, Y, cv=CV,
                            scoring=make_scorer(M.mean_absolute_distance,
                                                greater_is_better=False))
    np.testing.assert_allclose(plain, [-1 / 3, -1 / 3])
    ordinal = cross_val_score(ColumnClassifier(0), X, Y, cv=CV,
                              scoring=M.make_ordinal_scorer(M.mean_absolute_distance))
    np.testing.assert_allclose(ordinal, [-2 / 3, -2 / 3])


@pytest.mark.filterwarnings("ignore::ordstat.OrderGuessWarning")
def test_gamma_scorer_hand_computation():
    # fold 1: true ranks 0 1 2, predicted 0 2 2 (column 1): pairs (1,2) concordant,
    # (1,3) concordant, (2,3) tied in the prediction -> gamma = 1
    # fold 2: true 2 1 0, predicted 2 2 0: (1,2) tied, (1,3) and (2,3) concordant -> 1
    scores = cross_val_score(ColumnClassifier(1), X, Y, cv=CV, scoring=M.get_scorer("gamma"))
    np.testing.assert_allclose(scores, [1.0, 1.0])
    # alphabetically "high" (0) < "low" (1) < "mid" (2): fold 1 true 1 2 0, predicted 1 0 0:
    # (1,2) discordant, (1,3) concordant, (2,3) tied -> 0
    assert M.goodman_kruskal_gamma(Y[:3], ColumnClassifier(1).fit(X, Y).predict(X[:3])) == 0


@pytest.mark.filterwarnings("ignore::ordstat.OrderGuessWarning")
def test_grid_search_picks_the_better_model_in_the_ordinal_order():
    # column 0 costs 2/3 per fold in ranks (1/3 alphabetically), column 1 costs 1/3 (2/3):
    # the ordinal scorer must pick column 1, the alphabetical one picks column 0
    search = GridSearchCV(ColumnClassifier(), {"column": [0, 1]}, cv=CV,
                          scoring=M.get_scorer("neg_mae")).fit(X, Y)
    assert search.best_params_ == {"column": 1}
    np.testing.assert_allclose(search.cv_results_["mean_test_score"], [-2 / 3, -1 / 3])
    wrong = GridSearchCV(ColumnClassifier(), {"column": [0, 1]}, cv=CV,
                         scoring=make_scorer(M.mean_absolute_distance,
                                             greater_is_better=False)).fit(X, Y)
    assert wrong.best_params_ == {"column": 0}


def test_scorers_in_a_dict_with_cross_validate():
    result = cross_validate(ColumnClassifier(1), X, Y, cv=CV,
                            scoring={"mae": M.SCORERS["neg_mean_absolute"],
                                     "gamma": M.SCORERS["gamma"]})
    np.testing.assert_allclose(result["test_mae"], [-1 / 3, -1 / 3])
    np.testing.assert_allclose(result["test_gamma"], [1.0, 1.0])


def test_ordstat_estimator_with_ordered_categorical_in_grid_search():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(60, 2))
    codes = np.digitize(x[:, 0] + 0.3 * rng.normal(size=60), [-0.5, 0.5])
    y = pd.Series(pd.Categorical.from_codes(codes, ORDER, ordered=True))
    search = GridSearchCV(OrdinalTreeClassifier(random_state=0), {"max_depth": [1, 3]},
                          cv=KFold(3), scoring=M.get_scorer("neg_mean_absolute")).fit(x, y)
    # refit on every unit: the score of the best tree equals the metric in the ordinal order
    tree = search.best_estimator_
    assert list(tree.classes_) == ORDER
    expected = -M.mean_absolute_distance(y, tree.predict(x), classes=ORDER)
    assert search.scorer_(tree, x, y) == pytest.approx(expected)


def test_every_metric_name_and_alias_has_a_scorer():
    for name, (function, greater) in M.METRICS.items():
        key = name if greater else f"neg_{name}"
        assert M.SCORERS[key].metric is function
        assert M.SCORERS[key].sign == (1 if greater else -1)
    for alias, canonical in M.METRIC_ALIASES.items():
        greater = M.METRICS[canonical][1]
        assert M.SCORERS[alias if greater else f"neg_{alias}"].metric is M.METRICS[canonical][0]
    assert M.get_scorer("Neg-Mean Absolute-Distance").metric is M.mean_absolute_distance


def test_wrong_names_say_the_right_spelling():
    with pytest.raises(ValueError, match="use 'neg_mean_absolute_distance'"):
        M.get_scorer("mean_absolute_distance")
    with pytest.raises(ValueError, match="use 'gamma'"):
        M.get_scorer("neg_gamma")
    with pytest.raises(ValueError, match="unknown scoring 'accuracy'"):
        M.get_scorer("accuracy")
    scorer = M.get_scorer("gamma")
    assert M.get_scorer(scorer) is scorer


def test_make_ordinal_scorer_checks_direction_and_classes_keyword():
    with pytest.raises(ValueError, match="contradicts the metric 'mean_absolute'"):
        M.make_ordinal_scorer("mae", greater_is_better=True)
    with pytest.raises(ValueError, match="greater_is_better must be given"):
        M.make_ordinal_scorer(lambda y_true, y_pred, classes=None, sample_weight=None: 0.0)
    with pytest.raises(TypeError, match="does not take classes="):
        M.make_ordinal_scorer(lambda y_true, y_pred: 0.0, greater_is_better=False)


def test_make_ordinal_scorer_passes_keywords_and_explicit_classes():
    # expected cost with a cost matrix in the ordinal order, classes fixed by the scorer
    cost = np.array([[0, 1, 5], [1, 0, 1], [5, 1, 0]])
    scorer = M.make_ordinal_scorer(M.expected_cost, greater_is_better=False, cost=cost)
    scores = cross_val_score(ColumnClassifier(0), X, Y, cv=CV, scoring=scorer)
    np.testing.assert_allclose(scores, [-5 / 3, -5 / 3])
    # an estimator with sorted classes_ (scikit-learn's) scored in the order given to the scorer
    alphabetical = ColumnClassifier(0, classes=sorted(ORDER)).fit(X, Y)
    given = M.make_ordinal_scorer("mae", classes=ORDER)
    # alphabetical classes_ map codes 0 1 0 to high low high: true low mid high
    assert given(alphabetical, X[:3], Y[:3]) == pytest.approx(-(2 + 1 + 0) / 3)


def test_scorer_refuses_an_ordered_categorical_in_another_order():
    y = pd.Series(pd.Categorical(Y[:3], categories=ORDER[::-1], ordered=True))
    with pytest.raises(ValueError, match="contradicts the order of the ordered Categorical y_true"):
        M.get_scorer("neg_mae")(ColumnClassifier(0).fit(X, Y), X[:3], y)


def test_scorer_warnings_point_at_the_users_line():
    # every prediction "low": gamma is undefined in both folds
    constant = np.zeros((6, 2))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scores = cross_val_score(ColumnClassifier(0), constant, Y, cv=CV,
                                 scoring=M.get_scorer("gamma"))
    assert np.isnan(scores).all()
    undefined = [w for w in caught if issubclass(w.category, UndefinedMetricWarning)]
    assert undefined and all(w.filename == __file__ for w in undefined), \
        [(w.filename, str(w.message)) for w in caught]
