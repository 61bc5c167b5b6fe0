"""EDDA on the continuous data sets of Brito, Celeux & Sousa Ferreira (2006), Tables 4, 5 and 8."""

from __future__ import annotations

from importlib import import_module

import numpy as np
import pandas as pd

from ._report import Row, Section

REFERENCE = ("Brito, Celeux & Sousa Ferreira (2006), Combining methods in supervised "
             "classification: a comparative study on discrete and continuous problems, "
             "Tables 4, 5 and 8 (EDDA columns); models by Bensmail & Celeux (1996).")

# data set -> (loader "module:function", EDDA model and LOO error of Table 8 (or of Tables 4-5
# for the two-class sets, which Table 8 leaves out)).
PAPER_EDDA = {
    "iris": ("ordstat.reproduce._gaussian:_iris", "EEE", 0.02),
}


def _iris():
    from sklearn.datasets import load_iris

    data = load_iris(as_frame=True)
    return data.data, data.target.map(dict(enumerate(data.target_names)))


def _load(path):
    module, func = path.split(":")
    return getattr(import_module(module), func)()


def edda_tables(quick=False, n_jobs=1, random_state=0):
    """The 14 EDDA models with exact leave-one-out errors; the model chosen, beside the paper's."""
    from ..gaussian import EDDA

    section = Section("edda", "EDDA: model chosen by leave-one-out error (Table 8)", REFERENCE)
    errors = {}
    for name, (loader, paper_model, paper_error) in PAPER_EDDA.items():
        X, y = _load(loader)
        fit = EDDA(model="all", select="loo").fit(X, y)
        table = fit.summary().table
        errors[name] = table["loo_error"]
        section.rows.append(Row(f"{name}: model", paper_model, fit.model_, tolerance=0))
        section.rows.append(Row(f"{name}: leave-one-out error", paper_error,
                                float(fit.loo_error_), tolerance=0.005))
    frame = pd.DataFrame(errors)
    section.tables.append(("leave-one-out error of each model", frame.round(4)))
    section.figures.append(("leave-one-out error of the 14 models", _error_figure(frame)))
    section.notes.append("Every model is fitted by maximum likelihood; the leave-one-out errors "
                         "are exact (rank-one down-dates or refits without the unit).")
    return section


def _error_figure(frame):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 3))
    ax = fig.subplots()
    x = np.arange(len(frame))
    width = 0.8 / frame.shape[1]
    for j, col in enumerate(frame.columns):
        ax.bar(x + j * width, frame[col].to_numpy(), width, label=col)
    ax.set_xticks(x + 0.4 - width / 2, frame.index, rotation=90)
    ax.set_ylabel("leave-one-out error")
    ax.legend(frameon=False)
    return fig
