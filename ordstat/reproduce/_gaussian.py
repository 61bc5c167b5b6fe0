"""EDDA on the continuous data sets of Brito, Celeux & Sousa Ferreira (2006), Tables 4, 5 and 8."""

from __future__ import annotations

from importlib import import_module

import numpy as np
import pandas as pd

from ._report import Row, Section

REFERENCE = ("Brito, Celeux & Sousa Ferreira (2006), Combining methods in supervised "
             "classification: a comparative study on discrete and continuous problems, "
             "Tables 4, 5 and 8 (EDDA columns); models by Bensmail & Celeux (1996).")

# data set -> (loader in ordstat.datasets, EDDA model and LOO error of Table 8 for the sets with
# more than two groups, of Table 4 for the two-group sets, which Table 8 leaves out).
PAPER_EDDA = {
    "iris": ("load_iris", "EEE", 0.02),
    "crabs": ("load_crabs", "EEV", 0.045),
    "thyroid": ("load_thyroid", "VEI", 0.0326),
    "haemophilia": ("load_haemophilia", "EEE", 0.1467),
    "bupa": ("load_bupa", "EEI", 0.4000),
    "haberman": ("load_haberman", "EVI", 0.2516),
}
QUICK = ("iris", "crabs", "thyroid")
MISS_NOTES = {
    "thyroid": "the paper's error .0326 is exactly that of our VVI ([lambda_k B_k]) and VVE; "
               "its label [lambda_k B] (VEI) is most likely a misprint",
}


def _load(name):
    """(X, y) of a data set, or None with the reason when its package is missing."""
    try:
        return getattr(import_module("ordstat.datasets"), name)(return_X_y=True), None
    except ImportError as exc:
        return None, str(exc).splitlines()[0]


def edda_tables(quick=False, n_jobs=1, random_state=0):
    """The 14 EDDA models with exact leave-one-out errors; the model chosen, beside the paper's."""
    from ..gaussian import EDDA

    section = Section("edda", "EDDA: model chosen by leave-one-out error (Table 8)", REFERENCE)
    errors = {}
    for name, (loader, paper_model, paper_error) in PAPER_EDDA.items():
        if quick and name not in QUICK:
            continue
        data, why = _load(loader)
        if data is None:
            section.notes.append(f"{name}: not run ({why})")
            continue
        X, y = data
        fit = EDDA(model="all", select="loo").fit(X, y)
        table = fit.summary()["models"]
        errors[name] = table["loo_error"]
        section.rows.append(Row(f"{name}: leave-one-out error of {paper_model}", paper_error,
                                float(table.loc[paper_model, "loo_error"]), tolerance=0.005,
                                note=MISS_NOTES.get(name, "")))
        section.rows.append(Row(f"{name}: model chosen", paper_model, fit.model_))
        section.rows.append(Row(f"{name}: its leave-one-out error", paper_error,
                                float(fit.loo_error_)))
    frame = pd.DataFrame(errors)
    section.tables.append(("leave-one-out error of each model", frame.round(4)))
    section.figures.append(("leave-one-out error of the 14 models", _error_figure(frame)))
    section.notes.append(
        "Claimed: the leave-one-out error of the model the paper reports. The model we choose "
        "is the one of smallest leave-one-out error among the 14 (ties to the simpler model); "
        "on bupa and haberman it beats the paper's choice (EEE .304 vs EEI .400; EVE .242 vs "
        "EVI .252), which suggests the paper's EDDA compared fewer models on the two-group "
        "sets.")
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
