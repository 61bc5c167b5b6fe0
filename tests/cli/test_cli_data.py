"""``ordstat compare --list-data`` / ``--bundled NAME`` for the package data sets, and the peer
methods' registry entries."""

import importlib.util

import numpy as np
import pandas as pd
import pytest

from ordstat import cli, datasets
from ordstat.cli._methods import METHODS
from ordstat.cli._peers import PEERS, available_peers, missing_peer_message

HAS_SKORDINAL = importlib.util.find_spec("skordinal") is not None


def _tiny(ordered=True):
    rng = np.random.default_rng(0)
    x = rng.normal(size=60)
    y = pd.Categorical(np.array(["lo", "mid", "hi"])[np.digitize(
        x + 0.3 * rng.normal(size=60), [-0.4, 0.4])],
                       categories=["lo", "mid", "hi"], ordered=ordered)
    return pd.DataFrame({"x": x, "z": rng.normal(size=60), "grade": y})


def _unavailable():
    raise ImportError("the demo data set comes from the R package 'nothere'")


def test_list_data_prints_sizes_and_unavailable_sets(monkeypatch, capsys):
    fake = {"tiny": (lambda: _tiny(), "grade"), "nominal": (lambda: _tiny(False), "grade"),
            "gone": (_unavailable, "y")}
    monkeypatch.setattr(datasets, "BUNDLED", fake)
    assert cli.main(["compare", "--list-data"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split() == ["tiny", "60", "2", "3", "grade", "(ordinal)"]
    assert out[2].split()[-1] == "(nominal)"
    assert out[3].startswith("gone") and "not available" in out[3] and "nothere" in out[3]


def test_every_loader_is_listed():
    expected = {"iris", "crabs", "thyroid", "haemophilia", "bupa", "haberman", "era", "esl",
                "lev", "swd", "balance_scale", "boston", "wine", "zoo", "anes96"}
    assert expected <= set(datasets.BUNDLED)
    # every loader ordstat.datasets offers can be run by --bundled (zoo once was not)
    loaders = {name for name in dir(datasets) if name.startswith("load_")}
    assert loaders == {loader.__name__ for loader, _ in datasets.BUNDLED.values()}


def test_list_data_lists_exactly_what_bundled_accepts(monkeypatch, capsys):
    # the real names, each with a quick stand-in loader (the real ones read R and files)
    fake = {name: (lambda: _tiny(), "grade") for name in datasets.BUNDLED}
    monkeypatch.setattr(datasets, "BUNDLED", fake)
    assert cli.main(["compare", "--list-data"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()[1:]]
    assert listed == list(fake) and "zoo" in listed


def _zoo_or_skip():
    pytest.importorskip("rpy2")
    try:
        datasets.load_zoo()
    except ImportError as exc:  # R or mlbench missing: the message says which
        pytest.skip(str(exc))


def test_zoo_through_bundled(capsys):
    _zoo_or_skip()
    code = cli.main(["compare", "--bundled", "zoo", "--methods", "tree_gini,polr",
                     "--scheme", "cv3", "--seed", "0", "--metrics", "misclassification"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "zoo has a nominal response; using the order mammal,bird" in captured.err
    assert "101 units, 16 predictors, 7 ordered classes" in captured.out


def test_bundled_unavailable_is_a_usage_error(monkeypatch, capsys):
    monkeypatch.setitem(datasets.BUNDLED, "gone", (_unavailable, "y"))
    assert cli.main(["compare", "--bundled", "gone", "--methods", "polr"]) == 2
    assert "R package 'nothere'" in capsys.readouterr().err


def test_bundled_nominal_response_gets_the_category_order(monkeypatch, capsys):
    monkeypatch.setitem(datasets.BUNDLED, "nominal", (lambda: _tiny(False), "grade"))
    code = cli.main(["compare", "--bundled", "nominal", "--methods", "polr", "--scheme", "cv3",
                     "--seed", "0", "--metrics", "misclassification"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "nominal response; using the order lo,mid,hi" in captured.err
    assert "3 ordered classes" in captured.out


@pytest.mark.skipif(not HAS_SKORDINAL, reason="skordinal not installed")
def test_bundled_esl_with_a_peer(capsys):
    code = cli.main(["compare", "--bundled", "esl", "--methods", "peer:cart_entropy",
                     "--scheme", "cv3", "--seed", "1", "--metrics", "mean_absolute"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "488 units, 4 predictors, 9 ordered classes" in captured.out
    assert "peer:cart_entropy" in captured.out


def test_bundled_bupa_warns_about_its_nominal_response(capsys):
    code = cli.main(["compare", "--bundled", "bupa", "--methods", "polr", "--scheme", "cv3",
                     "--seed", "1", "--metrics", "misclassification"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "bupa has a nominal response" in captured.err
    assert "345 units, 6 predictors, 2 ordered classes" in captured.out


def test_peers_registered_only_when_their_package_is_found(monkeypatch):
    from ordstat.cli import _peers

    monkeypatch.setattr(_peers, "available", lambda module: module != "skordinal")
    present = available_peers()
    assert "peer:svorim" not in present and "peer:frank_hall" not in present
    assert "peer:cart_entropy" in present  # scikit-learn is a runtime dependency
    assert set(present) <= set(PEERS)
    assert all(name.startswith("peer:") for name in PEERS)


def test_missing_peer_gives_the_package_to_install(monkeypatch, capsys):
    monkeypatch.delitem(METHODS, "peer:svorim", raising=False)  # as if skordinal were absent
    assert cli.main(["compare", "--bundled", "anes96", "--methods", "peer:svorim"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == ('ordstat: error: method peer:svorim needs skordinal: '
                           'pip install "ordstat[compare]"')
    assert missing_peer_message("tree") is None
    assert missing_peer_message("peer:mass_polr") == (
        'method peer:mass_polr needs rpy2: pip install "ordstat[r]" (and R itself); it also '
        'needs the R package MASS')


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.r) if name == "peer:mass_polr" else name
    for name in sorted(available_peers())])
def test_each_available_peer_fits_and_predicts_codes(name):
    if name == "peer:mass_polr":
        pytest.importorskip("rpy2")
    from ordstat.cli._methods import make_method

    frame = _tiny()
    X, codes = frame[["x", "z"]].to_numpy(), frame["grade"].cat.codes.to_numpy()
    pred = np.asarray(make_method(name).fit(X, codes).predict(X))
    assert pred.shape == (60,) and set(pred) <= {0, 1, 2}
    assert np.mean(pred == codes) > 0.5  # x carries the class: better than chance (1/3)


def test_compare_prints_corrected_ttests_that_match_the_results(monkeypatch, capsys, tmp_path):
    from ordstat.model_selection import corrected_resampled_ttest

    monkeypatch.setitem(datasets.BUNDLED, "tiny", (lambda: _tiny(), "grade"))
    out_csv = tmp_path / "r.csv"
    code = cli.main(["compare", "--bundled", "tiny", "--methods", "polr,tree_gini",
                     "--scheme", "cv3", "--seed", "2", "--metrics", "mean_absolute",
                     "--output", str(out_csv)])
    out = capsys.readouterr().out
    assert code == 0
    assert "Corrected resampled t-tests (Nadeau & Bengio), test/learning ratio 1/2" in out
    tidy = pd.read_csv(out_csv)
    a = tidy[tidy.method == "polr"].sort_values("split")["value"]
    b = tidy[tidy.method == "tree_gini"].sort_values("split")["value"]
    expected = corrected_resampled_ttest(a, b, n_train=2, n_test=1)
    after = out.split("Corrected resampled t-tests")[1].splitlines()
    line = next(row for row in after if row.split()[:2] == ["polr", "tree_gini"])
    assert float(line.split()[-1]) == pytest.approx(expected.pvalue, rel=1e-3)


@pytest.mark.parametrize("scheme, sizes", [("cv10", (9, 1)), ("half", (1, 1)),
                                           ("splits20", (2, 1)), ("loo", None),
                                           ("bootstrap50", None)])
def test_ttest_sizes_follow_the_scheme(scheme, sizes):
    assert cli._ttest_sizes(scheme) == sizes
