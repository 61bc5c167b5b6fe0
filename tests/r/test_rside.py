"""The functions the R package calls through reticulate (ordstat.r._rside); no R needed."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris

from ordstat.r import _rside


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True)
    return pd.DataFrame(X, columns=["a", "b", "c", "d"]), y.astype(np.int64)


def test_dumps_loads_round_trip_keeps_predictions(iris):
    X, codes = iris
    est = _rside.fit("edda", {"model": "EEE"}, X, codes, ["s", "v", "g"])
    raw = _rside.dumps(est)
    assert raw.dtype == np.int32 and raw.min() >= 0 and raw.max() <= 255
    back = _rside.loads(list(raw))
    np.testing.assert_array_equal(back.predict_proba(X), est.predict_proba(X))


def test_unordered_response_keeps_the_level_order(iris):
    X, codes = iris
    levels = ["zeta", "alpha", "mid"]  # not sorted: the R factor's order must be kept
    est = _rside.fit("edda", {"model": "EEE"}, X, codes, levels, None, False)
    assert list(est.classes_) == levels
    pred = _rside.predict_codes(est, X)
    assert np.mean(pred == codes) > 0.95


def test_log_likelihood_weights(iris):
    X, codes = iris
    levels = ["s", "v", "g"]
    est = _rside.fit("edda", {"model": "VVV"}, X, codes, levels)
    one = _rside.log_likelihood(est, X, codes, levels)
    two = _rside.log_likelihood(est, X, codes, levels, True, np.full(len(codes), 2.0))
    assert two == pytest.approx(2 * one)


def test_edda_table_and_parameter_names(iris):
    X, codes = iris
    est = _rside.fit("edda", {"model": ["EEE", "VVV"], "select": "loo"}, X, codes,
                     ["s", "v", "g"])
    table = _rside.edda_table(est)
    assert table["model"] == ["EEE", "VVV"]
    assert len(table["loo_error"]) == 2 and np.all(np.isfinite(table["loo_error"]))
    assert "smoothing" in _rside.parameter_names("kernel")
    assert "min_split" in _rside.parameter_names("tree")
    with pytest.raises(ValueError, match="unknown estimator kind"):
        _rside.parameter_names("bogus")


def test_sub_estimators_are_built_from_their_r_description(iris):
    X, codes = iris
    levels = ["s", "v", "g"]
    tree = {"kind": "tree", "params": {"criterion": "gini_linear", "min_split": 5, "xval": 0}}
    bag = _rside.fit("bagging", {"estimator": tree, "n_estimators": 3, "random_state": 0}, X,
                     codes, levels)
    assert bag.estimator.criterion == "gini_linear" and bag.estimator.min_split == 5
    fh = _rside.fit("frank_hall", {"estimator": "tree", "random_state": 0}, X, codes, levels)
    assert type(fh.estimator).__name__ == "DecisionTreeClassifier"
    assert fh.estimator.min_samples_leaf == 2
    with pytest.raises(ValueError, match="estimator must be one of"):
        _rside.fit("frank_hall", {"estimator": "forest"}, X, codes, levels)


def test_which_classes_take_sample_weight():
    # fit(X, y) against fit(X, y, sample_weight=None), read from the signatures
    assert _rside.takes_sample_weight("odt") and _rside.takes_sample_weight("edda")
    assert _rside.takes_sample_weight("forest") and _rside.takes_sample_weight("boosting")
    assert _rside.class_name("forest") == "ordstat.ensemble.OrdinalRandomForestClassifier"
    with pytest.raises(ValueError, match="unknown estimator kind 'nope'"):
        _rside.takes_sample_weight("nope")


def test_parameter_names_match_get_params_and_cover_required_parameters():
    # the combiners need their models to be built, so their names come from the signature
    for kind in _rside.ESTIMATORS:
        names = _rside.parameter_names(kind)
        if kind in ("serial", "coupling"):
            continue
        assert names == sorted(_rside._class(kind)().get_params()), kind
    assert "estimators" in _rside.parameter_names("serial")
    assert "candidates" in _rside.parameter_names("coupling")
    assert "random_state" in _rside.parameter_names("coupling")
    assert not _rside.takes_sample_weight("serial")
    assert not _rside.takes_sample_weight("coupling")


def test_serial_combination_from_model_names(iris):
    X, codes = iris
    levels = ["zeta", "alpha", "mid"]
    comb = _rside.fit("serial", {"estimators": ["eei", "EII"], "method": "bic"}, X, codes,
                      levels, None, False)
    assert [e.model for e in comb.estimators_] == ["EEI", "EII"]
    assert list(comb.classes_) == levels
    assert comb.weights_.sum() == pytest.approx(1.0)
    assert _rside.fit("serial", {"estimators": "EDDA", "n_models": 2}, X, codes,
                      levels).estimators == "edda"
    discrete = _rside._model_list(["FMM", "foim", "Kernel"])
    assert [type(m).__name__ for m in discrete] == ["FullMultinomial", "IndependenceModel",
                                                     "KernelMultinomial"]
    with pytest.raises(ValueError, match="unknown model 'XYZ'; use EDDA model names"):
        _rside.fit("serial", {"estimators": ["EEI", "XYZ"]}, X, codes, levels)


def test_warnings_of_the_last_fit_or_prediction_are_kept_for_r(iris):
    X, codes = iris
    levels = ["s", "v", "g"]
    # two bootstrap samples: units in both are left out of the out-of-bag scores, with a warning
    est = _rside.fit("bagging", {"n_estimators": 2, "random_state": 0}, X, codes, levels)
    (message,) = _rside.take_warnings()
    assert "were in every bootstrap sample" in message
    assert _rside.take_warnings() == []  # taken once
    _rside.predict_codes(est, X)
    assert _rside.take_warnings() == []
    _rside.fit("bagging", {"n_estimators": 2, "random_state": 0}, X, codes, levels)
    _rside.fit("tree", {}, X, codes, levels)  # a fit without warnings clears the last ones
    assert _rside.take_warnings() == []


def test_whole_r_numbers_become_ints_where_the_class_wants_ints():
    tree = _rside._class("tree")
    params = _rside._from_r(tree, {"min_split": 5.0, "cp": 0.0, "max_features": 1.0,
                                   "xval": 10.0, "random_state": 3.0, "min_bucket": 2.5,
                                   "max_depth": -1.0, "criterion": "gini"})
    # the constraints take an int and refuse the float: an int (also out of range, so that
    # the tree's error shows -1, not -1.0); a float they accept stays (max_features=1.0 is
    # the fraction 1); a fractional number stays, for the tree to refuse
    assert params == {"min_split": 5, "cp": 0.0, "max_features": 1.0, "xval": 10,
                      "random_state": 3, "min_bucket": 2.5, "max_depth": -1,
                      "criterion": "gini"}
    assert type(params["min_split"]) is int and type(params["cp"]) is float
    assert type(params["max_features"]) is float and type(params["max_depth"]) is int
    assert _rside._from_r(tree, {"max_features": 2.0})["max_features"] == 2
    # a parameter without constraints (checked by hand in fit) takes a whole number as an int
    bagging = _rside._class("bagging")
    assert type(_rside._from_r(bagging, {"n_estimators": 10.0})["n_estimators"]) is int
    assert _rside._from_r(bagging, {"n_estimators": 2.5, "oob_score": True}) == {
        "n_estimators": 2.5, "oob_score": True}


def test_r_numbers_reach_nested_estimators_and_the_class_checks_them(iris):
    X, codes = iris
    levels = ["s", "v", "g"]
    tree = {"kind": "tree", "params": {"min_split": 1.0, "cp": -1.0, "xval": 0.0}}
    bag = _rside.fit("bagging", {"estimator": tree, "n_estimators": 2.0, "random_state": 0.0,
                                 "oob_score": False}, X, codes, levels)
    assert bag.estimator.min_split == 1 and type(bag.estimator.min_split) is int
    assert len(bag.estimators_) == 2
    with pytest.raises(ValueError, match="'min_split' parameter .* Got 0 instead"):
        _rside.fit("tree", {"min_split": 0.0}, X, codes, levels)


def test_mclust_names_with_one_predictor(iris):
    X, codes = iris
    levels = ["s", "v", "g"]
    one = X[["c"]]
    est = _rside.fit("edda", {"model": ["e", "V"], "select": "bic"}, one, codes, levels)
    assert list(est.summary()["models"].index) == ["EII", "VII"]
    assert _rside._mclust_names("E", 1) == "EII"
    assert _rside._mclust_names("E", 2) == "E"  # not a name with two predictors: EDDA refuses
    with pytest.raises(ValueError, match="model must be one of .*got 'E'"):
        _rside.fit("edda", {"model": "E"}, X, codes, levels)


def test_criterion_names_and_model_names_from_r():
    assert _rside.criterion_name("Linear") == "gini_linear"
    assert _rside.criterion_name("bogus") == "bogus"  # the tree refuses it when fitted
    with pytest.raises(TypeError, match="estimators must be model names .*got 3.0"):
        _rside._model_list([3.0])


def test_rside_logistic_learner_converges_on_unscaled_predictors():
    """R's default binary learner ("logistic") is fitted by Newton's method: no convergence
    warning on predictors of very different scales, where lbfgs stops at its limit."""
    import warnings

    from ordstat.r import _rside

    rng = np.random.default_rng(1)
    X = np.column_stack([rng.normal(0, 1, 300), rng.normal(0, 1000, 300), rng.normal(5, 0.01, 300)])
    y = (X[:, 0] + X[:, 1] / 1000 + rng.normal(0, 0.5, 300) > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = _rside._sub_estimator("logistic").fit(X, y)
    assert model.n_iter_[0] < 50


def test_rside_ensemble_info_and_odt_size():
    from ordstat.decomposition import ReplicatedTreeClassifier
    from ordstat.ensemble import OrdinalRandomForestClassifier
    from ordstat.r import _rside

    rng = np.random.default_rng(2)
    X = rng.normal(size=(80, 9))
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    forest = OrdinalRandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    assert _rside.ensemble_info(forest) == {"n_trees": 3, "n_estimators": 3, "mtry": 3}
    tree = ReplicatedTreeClassifier(max_depth=2).fit(X, y)
    size = _rside.odt_size(tree)
    assert size["nodes"] == tree.node_count_ and size["depth"] <= 2
    assert size["leaves"] == (size["nodes"] + 1) // 2
