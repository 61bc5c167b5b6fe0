"""Did-you-mean for misspelled method, metric, data set and experiment names."""

import pytest

from ordstat import cli


def _error(argv, capsys):
    code = cli.main(argv)
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    return err


@pytest.mark.parametrize("typo, suggestion", [
    ("tre_gini", "tree_gini"), ("Tree-Twoin", "tree_twoing"), ("edd", "edda"),
    ("baging", "bagging"), ("tree_devianc", "tree_entropy"),  # an alias's typo: its method
    ("tree_quadratc", "tree_gini_quadratic"),
])
def test_misspelled_method_suggests_the_closest(typo, suggestion, capsys):
    err = _error(["compare", "--bundled", "wine", "--methods", f"polr,{typo}"], capsys)
    assert f"unknown method(s) {typo} (did you mean {suggestion}?); choose from" in err


def test_several_misspelled_methods_each_get_their_own_suggestion(capsys):
    err = _error(["compare", "--bundled", "wine", "--methods", "tre_gini,zzzzzz,edd"], capsys)
    assert ("unknown method(s) tre_gini (did you mean tree_gini?), zzzzzz, edd (did you mean "
            "edda?); choose from") in err


@pytest.mark.parametrize("typo, suggestion", [("gama", "gamma"),
                                              ("missclassification", "misclassification"),
                                              ("mean_absolut", "mean_absolute"),
                                              ("errror_rate", "misclassification")])
def test_misspelled_metric_suggests_the_closest(typo, suggestion, capsys):
    err = _error(["compare", "--bundled", "wine", "--metrics", f"mae,{typo}"], capsys)
    assert (f"unknown metric '{typo}' (argument --metrics); did you mean {suggestion}? "
            "Choose from") in err


def test_misspelled_data_set_suggests_the_closest(capsys):
    err = _error(["compare", "--bundled", "wines"], capsys)
    assert "unknown bundled data set 'wines' (did you mean wine?); choose from" in err
    err = _error(["compare", "--bundled", "balance-scale"], capsys)
    assert "(did you mean balance_scale?)" in err


def test_misspelled_experiment_suggests_the_closest(capsys):
    err = _error(["reproduce", "--only", "tutz,boostng"], capsys)
    assert "unknown experiment(s) boostng (did you mean boosting?); choose from" in err


def test_no_suggestion_when_nothing_is_close(capsys):
    err = _error(["compare", "--bundled", "wine", "--methods", "qqqqqq"], capsys)
    assert "did you mean" not in err and "unknown method(s) qqqqqq; choose from" in err
    err = _error(["compare", "--bundled", "qqqqqq"], capsys)
    assert "did you mean" not in err


def test_misspelled_columns_suggest_the_closest(tmp_path, capsys):
    path = tmp_path / "d.csv"
    path.write_text("age,income,grade\n1,2,low\n2,3,high\n3,1,low\n")
    err = _error(["compare", str(path), "--response", "Grad"], capsys)
    assert ("response column 'Grad' not found (did you mean grade?); columns are age, income, "
            "grade") in err
    err = _error(["compare", str(path), "--response", "grade", "--predictors", "Age,incme,qq"],
                 capsys)
    assert ("predictor column(s) Age (did you mean age?), incme (did you mean income?), qq not "
            "found") in err
