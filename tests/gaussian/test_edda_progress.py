"""EDDA's progress report (``progress=``): shown on request, estimated per model from the first
chunk of leave-one-out refits, silent by default off a terminal and inside evaluate's fits, and
without effect on the results."""

import io

import numpy as np
import pandas as pd
import pytest
from sklearn.neighbors import KNeighborsClassifier
from sklearn.utils._param_validation import InvalidParameterError

from ordstat.gaussian import EDDA, _loo
from ordstat.model_selection import _progress, evaluate


def _classes(K=5, n=150, d=3, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(K), n // K)
    X = rng.normal(size=(len(y), d)) + 0.8 * y[:, None] * np.array([1.0, 0.5, -0.3])[:d]
    return X, y


class _Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.fixture
def forced(monkeypatch):
    """Announce every estimate and cut the leave-one-out into chunks of 64 units."""
    monkeypatch.setattr(_progress, "ANNOUNCE_AFTER", 0.0)
    monkeypatch.setattr(_loo, "_CHUNK_ELEMENTS", 1)


def test_forced_progress_names_every_model_and_estimates_the_leave_one_out(capsys, forced):
    X, y = _classes()
    EDDA(model=["EII", "EVE", "VVV"], progress=True).fit(X, y)
    err = capsys.readouterr().err
    assert "EDDA: 6/6 steps" in err
    for model in ("EII", "EVE", "VVV"):
        assert f"{model} fit" in err
        # 150 units in chunks of 64: the first chunk announces the model's run time
        assert f"EDDA: {model} leave-one-out: about 0 s for 150 fits" in err
        assert f"{model} leave-one-out 64/150 fits" in err


def test_one_model_or_bic_has_no_leave_one_out_steps(capsys, forced):
    X, y = _classes()
    EDDA(model="VVV", progress=True).fit(X, y)
    err = capsys.readouterr().err
    assert "1/1 steps" in err and "leave-one-out" not in err
    EDDA(model="all", select="bic", progress=True).fit(X, y)
    err = capsys.readouterr().err
    assert "14/14 steps" in err and "leave-one-out" not in err


def test_loo_log_joints_reports_too(capsys, forced):
    X, y = _classes()
    EDDA(model=["EEE", "VEV"], progress=True).fit(X, y).loo_log_joints(X, y)
    assert capsys.readouterr().err.count("VEV leave-one-out: about") == 2  # fit, then here


def test_results_do_not_depend_on_progress(capsys, forced):
    X, y = _classes(K=4, n=120, seed=3)
    on = EDDA(model="all", progress=True).fit(X, y)
    off = EDDA(model="all", progress=False).fit(X, y)
    assert "leave-one-out" in capsys.readouterr().err
    assert on.model_ == off.model_ and on.loo_error_ == off.loo_error_
    np.testing.assert_array_equal(on.covariances_, off.covariances_)
    pd.testing.assert_frame_equal(on.summary()["models"], off.summary()["models"])
    np.testing.assert_array_equal(on.loo_log_joints(X, y)["EVE"],
                                  off.loo_log_joints(X, y)["EVE"])


def test_silent_by_default_off_a_terminal(capsys, forced):
    X, y = _classes()
    EDDA(model=["EII", "EVE"]).fit(X, y)  # progress=None; pytest's stderr is no terminal
    assert capsys.readouterr().err == ""


def test_auto_follows_the_terminal_but_not_inside_evaluate(monkeypatch, forced):
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    X, y = _classes()
    EDDA(model=["EII", "EVE"]).fit(X, y)
    assert "EVE leave-one-out" in terminal.getvalue()
    terminal.seek(0)
    terminal.truncate()
    evaluate({"edda": EDDA(model=["EII", "EVE"]), "1nn": KNeighborsClassifier(1)}, X, y,
             scheme="cv2", progress=False, random_state=0)
    assert terminal.getvalue() == ""  # evaluate's own fits are quiet unless asked
    assert _progress._task(_progress.resolve, (None,), {}) is False
    assert _progress.resolve(None) is True


def test_leave_one_out_reports_every_chunk(monkeypatch):
    monkeypatch.setattr(_loo, "_CHUNK_ELEMENTS", 1)
    X, y = _classes(n=150)
    model = EDDA(model="EVE").fit(X, y)
    calls = []
    from ordstat.gaussian._core import FitOptions, Sample, class_scatter
    from ordstat.gaussian._models import COVARIANCE_MODELS

    w = np.ones(len(y))
    _loo.leave_one_out(COVARIANCE_MODELS["EVE"], model._step, Sample(X, y, w, model.classes_),
                       class_scatter(X, y, w, 5), FitOptions(0.0, 1e-8, 2000),
                       progress=lambda *a: calls.append(a))
    assert calls == [(64, 150), (128, 150), (150, 150)]


def test_progress_must_be_a_bool_or_none():
    X, y = _classes()
    with pytest.raises(InvalidParameterError, match="progress"):
        EDDA(progress="yes").fit(X, y)
