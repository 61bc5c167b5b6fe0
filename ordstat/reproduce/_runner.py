"""The table of experiments and the loop that runs them."""

from __future__ import annotations

import os
import sys
import time
import warnings
from importlib import import_module

import pandas as pd

from .._extras import MissingExtraError, install_hint, missing_extra
from ._report import NotRun, Section, render_summary, render_text, write_html

__all__ = ["EXPERIMENTS", "run"]

# name -> ("module:function", title). Each function takes (quick, n_jobs, random_state) and
# returns a Section; modules are imported only when their experiment runs.
EXPERIMENTS = {
    "edda": ("ordstat.reproduce._gaussian:edda_tables",
             "EDDA: the 14 covariance models chosen by leave-one-out error"),
    "serial": ("ordstat.reproduce._combine:serial_tables",
               "Serial combining: committee of methods and penalised likelihood"),
    "coupling": ("ordstat.reproduce._combine:coupling_tables",
                 "Hierarchical coupling of the EDDA models"),
    "archer": ("ordstat.reproduce._ordinal:archer_bagging",
               "Bagged ordinal trees: out-of-bag error and gamma by split criterion"),
    "boosting": ("ordstat.reproduce._ordinal:boosting_curves",
                 "Ordinal boosting: error against the number of cycles"),
    "tutz": ("ordstat.reproduce._tutz:tutz_tables",
             "Ordinal bagging and boosting: the twelve methods of Tables 1-2"),
    "wsvm": ("ordstat.reproduce._waegeman:weighted_svm",
             "Weighted SVM ensemble on synthetic data 1 and 2"),
    "wsvm_benchmark": ("ordstat.reproduce._waegeman:weighted_svm_benchmark",
                       "Weighted SVM ensemble against SVORIM on Boston housing"),
    "odt": ("ordstat.reproduce._dissertation:odt_tables",
            "Replicated ordinal tree (oDT): combination rules, C4.5, Frank & Hall"),
    "oadaboost": ("ordstat.reproduce._dissertation:oadaboost_tables",
                  "Ordinal AdaBoost: combination rules and AdaBoost variants"),
    "forests": ("ordstat.reproduce._dissertation:forest_tables",
                "Random forests with the median and with oDT trees"),
}


def _resolve(name):
    module, func = EXPERIMENTS[name][0].split(":")
    return getattr(import_module(module), func)


def _run_one(name, **kwargs):
    """One experiment's section; an experiment that cannot run at all (``NotRun``, or a
    missing optional package anywhere in it) gives a section that says why."""
    title = EXPERIMENTS[name][1]
    try:
        return _resolve(name)(**kwargs)
    except NotRun as exc:
        return Section(name, title, "").skip(str(exc))
    except ImportError as exc:
        if missing_extra(exc) is None:  # not an optional package: a real error
            raise
        why = (exc.reason if isinstance(exc, MissingExtraError)
               else f"needs {missing_extra(exc)}: {install_hint(missing_extra(exc))}")
        return Section(name, title, "").skip(why)


def _comparison(sections):
    """Every section's "paper | ordstat | difference" rows, with the experiment's name."""
    frames = [s.comparison().assign(experiment=s.name) for s in sections if s.rows]
    if not frames:
        return Section("", "", "").comparison().assign(experiment=[])
    return pd.concat(frames, ignore_index=True)


def run(names=None, *, quick=False, out=None, n_jobs=1, random_state=0, progress=None,
        verbose=False, echo=print):
    """Run experiments, print one screen of results and write the HTML report.

    Parameters
    ----------
    names : list of str, optional
        Experiments to run (keys of ``EXPERIMENTS``); all by default.
    quick : bool
        Fewer repetitions in every experiment (each section is kept).
    out : str or path, optional
        Folder for ``report.html`` and ``comparison.csv`` (every section's "paper | ordstat |
        difference" rows); nothing is written when None.
    n_jobs : int
        Parallel jobs (joblib) inside the experiments.
    random_state : int
        Seed of every experiment.
    progress : bool, optional
        Announce each experiment on standard error (default: when it is a terminal).
    verbose : bool
        Also print every section's full tables and notes as it ends (they are always in the
        HTML report).
    echo : callable
        Where the text goes: the summary (one line per experiment, the misses grouped by
        cause) at the end, and the full sections when ``verbose``.

    Returns
    -------
    sections : list of Section
        One per experiment, in order; ``Section.status`` says whether it ran ("run", "partly
        run": some data sets or methods could not, "not run": ``Section.skipped`` says why).
    """
    names = list(EXPERIMENTS) if names is None else list(names)
    unknown = [n for n in names if n not in EXPERIMENTS]
    if unknown:
        raise ValueError(f"unknown experiment(s) {', '.join(unknown)}; choose from "
                         f"{', '.join(EXPERIMENTS)}.")
    if not isinstance(n_jobs, int) or n_jobs == 0:
        raise ValueError(f"n_jobs must be a non-zero integer; got {n_jobs!r}.")
    progress = sys.stderr.isatty() if progress is None else progress
    sections = []
    for i, name in enumerate(names, 1):
        if progress:
            print(f"[{i}/{len(names)}] {EXPERIMENTS[name][1]} ...", file=sys.stderr, flush=True)
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the report states what matters
            section = _run_one(name, quick=quick, n_jobs=n_jobs, random_state=random_state)
        section.seconds = time.perf_counter() - start
        sections.append(section)
        if verbose:
            echo(render_text(section) + "\n")
    mode = "quick run (fewer repetitions)" if quick else "full run"
    header = f"{mode}, seed {random_state}, {n_jobs} job(s)"
    echo(f"ordstat reproduce: {header}\n{render_summary(sections)}")
    if out is not None:
        os.makedirs(out, exist_ok=True)
        path = os.path.join(out, "report.html")
        write_html(sections, path, header=header)
        _comparison(sections).to_csv(os.path.join(out, "comparison.csv"), index=False)
        echo(f"\nThe full tables and notes: {path}" + ("" if verbose else
                                                        " (or run with --verbose)"))
    return sections
