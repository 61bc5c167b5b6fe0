"""The result object of ``summary()``: a title, (label, value) lines, named tables and notes.

One renderer for every summary, as text (``str``) and as HTML (``_repr_html_``, shown by Jupyter),
so that estimators only build rows.
"""

from __future__ import annotations

import html

import pandas as pd

__all__ = ["Summary", "feature_names"]


def feature_names(estimator):
    """The training column names, or ``x0, x1, ...`` for a plain array."""
    if hasattr(estimator, "feature_names_in_"):
        return [str(name) for name in estimator.feature_names_in_]
    return [f"x{j}" for j in range(estimator.n_features_in_)]


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
