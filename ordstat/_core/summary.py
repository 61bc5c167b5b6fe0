"""The result object of ``summary()``: a title, (label, value) lines, named tables and notes.

One renderer for every summary, as text (``str``) and as HTML (``_repr_html_``, shown by Jupyter),
so that estimators only build rows. The rows that several summaries share are built here once:
the classes and their training sizes (:func:`class_info`, :func:`class_table`) and the K-1 cuts
between consecutive classes of the decompositions and fixed-split ensembles (:func:`cut_table`).
"""

from __future__ import annotations

import html

import numpy as np
import pandas as pd

from .labels import uses_class_order

__all__ = ["Summary", "feature_names", "class_info", "class_table", "cut_table", "cut_names",
           "one_line"]


def feature_names(estimator):
    """The training column names, or ``x0, x1, ...`` for a plain array."""
    if hasattr(estimator, "feature_names_in_"):
        return [str(name) for name in estimator.feature_names_in_]
    return [f"x{j}" for j in range(estimator.n_features_in_)]


def one_line(obj):
    """``repr(obj)`` on one line (a sub-estimator in an info line)."""
    return " ".join(repr(obj).split())


def _sizes(estimator):
    """{"units": per class, "weight": per class (only when fitted with sample_weight)}, as
    recorded by ``validate_fit``."""
    sizes = {"units": estimator._class_units}
    if estimator._class_weight is not None:
        sizes["weight"] = estimator._class_weight
    return sizes


def class_info(estimator, digits=4):
    """The info lines every summary starts with: the classes (in order when the estimator uses
    it) and the number of training units (and their total weight)."""
    joint = " < " if uses_class_order(estimator) else ", "
    units = f"{int(np.sum(estimator._class_units))}"
    if estimator._class_weight is not None:
        units += f" (total weight {np.sum(estimator._class_weight):.{digits}g})"
    return [("classes", joint.join(map(str, estimator.classes_))), ("units", units)]


def class_table(estimator, **columns):
    """One row per class: its training units (and weight), then ``columns`` (name -> K values)."""
    index = pd.Index([str(c) for c in estimator.classes_], name="class")
    return pd.DataFrame({**_sizes(estimator), **columns}, index=index)


def cut_names(estimator):
    """``"a|b"`` for each cut between consecutive classes a < b (as the thresholds of the
    proportional-odds summary are named)."""
    classes = [str(c) for c in estimator.classes_]
    return [f"{a}|{b}" for a, b in zip(classes[:-1], classes[1:])]


def cut_table(estimator, **columns):
    """One row per cut k between consecutive classes, the binary problem Y > C_k: the training
    units (and weight) ``below`` and ``above`` it, then ``columns`` (name -> K-1 values)."""
    table = {}
    for name, per_class in _sizes(estimator).items():
        below = np.cumsum(per_class)[:-1]
        suffix = "" if name == "units" else " weight"
        table["below" + suffix] = below
        table["above" + suffix] = np.sum(per_class) - below
    index = pd.Index(cut_names(estimator), name="cut")
    return pd.DataFrame({**table, **columns}, index=index)


def _float_format(digits):
    return lambda v: f"{v:.{digits}g}"


class Summary:
    """A fitted model described for reading.

    Attributes
    ----------
    title : str
        First line.
    info : list of (str, str)
        Label and value lines printed under the title.
    tables : dict of str -> pandas.DataFrame
        The tables, in print order, keyed by their heading; use them for further computation.
    notes : str
        Free text printed after the tables ("" for none).
    digits : int
        Significant digits of the printed floats.
    """

    def __init__(self, title, info, tables, notes="", digits=4):
        self.title = title
        self.info = list(info)
        self.tables = dict(tables)
        self.notes = notes
        self.digits = digits

    def __getitem__(self, name):
        """The table called ``name``."""
        try:
            return self.tables[name]
        except KeyError:
            raise KeyError(f"no table {name!r} in this summary; tables: {list(self.tables)}") \
                from None

    def __str__(self):
        width = max((len(label) for label, _ in self.info), default=0)
        lines = [self.title, ""]
        lines += [f"{label + ':':<{width + 1}} {value}" for label, value in self.info]
        with pd.option_context("display.width", 200, "display.max_columns", 50,
                               "display.max_rows", 500):
            for name, table in self.tables.items():
                lines += ["", f"{name}:",
                          table.to_string(float_format=_float_format(self.digits))]
        if self.notes:
            lines += ["", self.notes.rstrip("\n")]
        return "\n".join(lines) + "\n"

    __repr__ = __str__

    def _repr_html_(self):
        parts = [f"<p><b>{html.escape(self.title)}</b></p>"]
        if self.info:
            parts.append("<table>" + "".join(
                f"<tr><th style='text-align:left'>{html.escape(label)}</th>"
                f"<td style='text-align:left'>{html.escape(str(value))}</td></tr>"
                for label, value in self.info) + "</table>")
        for name, table in self.tables.items():
            parts.append(f"<p>{html.escape(name)}</p>")
            parts.append(table.to_html(float_format=_float_format(self.digits)))
        if self.notes:
            parts.append(f"<pre>{html.escape(self.notes)}</pre>")
        return "\n".join(parts)
