"""The dissertation's tables beside ours: the binding of a printed table to our methods
(``PaperTable``), the side-by-side tables "ordstat | paper" per data set, and the figure of our
means against the paper's."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._claims import our_marks
from ._cv import split_values
from ._paper_tables import Cell

__all__ = ["METRICS", "PaperTable", "comparison_table", "fmt_cell", "ours_vs_paper_figure"]

METRICS = {"error": ("error %", 2), "mae": ("MAE", 2), "size": ("tree size", 2)}


@dataclass
class PaperTable:
    """One table of the dissertation: its label, our method names for its columns (None for a
    column not run) with the printed names, and the printed cells per metric."""

    label: str
    columns: tuple  # ((our method name or None, printed name), ...)
    cells: dict  # metric -> {dataset: (Cell, ...)}
    marked: bool = True  # mean (sd) and marks against the first column

    def printed(self):
        return [printed for _, printed in self.columns]


def fmt_cell(mean, sd=None, mark=""):
    text = f"{mean:.2f}" if sd is None else f"{mean:.2f} ({sd:.2f})"
    return f"{text} {mark}".rstrip()


def comparison_table(results, table, metric, *, paper_marks=None, order=None):
    """Our cells and the paper's side by side: rows the data sets, columns (method, source).

    ``order`` re-orders the columns (indices), the first one being the reference of the marks;
    ``paper_marks`` replaces the printed marks ({dataset: marks of columns 2..}).
    """
    order = list(range(len(table.columns))) if order is None else list(order)
    names = [table.columns[i][0] for i in order]
    printed = [table.columns[i][1] for i in order]
    frame = {}
    for dataset, cells in table.cells[metric].items():
        if dataset not in set(results["dataset"]):
            continue
        cells = [cells[i] for i in order]
        marks = (our_marks(results, dataset, names, metric) if table.marked
                 else [""] * len(names))
        if paper_marks is not None:
            given = paper_marks.get(dataset, ("",) * (len(names) - 1))
            cells = [cells[0]] + [Cell(c.mean, c.sd, m) for c, m in zip(cells[1:], given)]
        row = {}
        for name, label, cell, mark in zip(names, printed, cells, marks):
            values = split_values(results, dataset, name, metric) if name else np.array([])
            if not len(values):
                ours = "not run"
            else:
                sd = float(np.std(values, ddof=1)) if len(values) > 1 else 0.0
                ours = fmt_cell(values.mean(), sd if table.marked else None, mark or "")
            row[(label, "ordstat")] = ours
            row[(label, "paper")] = fmt_cell(cell.mean, cell.sd, cell.mark)
        frame[dataset] = row
    out = pd.DataFrame.from_dict(frame, orient="index")
    out.columns = pd.MultiIndex.from_tuples(out.columns)
    return out


def ours_vs_paper_figure(rows, title):
    """Scatter of our means against the paper's (error % and MAE), one point per claimed
    cell; the diagonal is perfect agreement, the bars our tolerance."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9, 4))
    axes = fig.subplots(1, 2)
    for ax, (key, label) in zip(axes, (("error %", "error %"), ("MAE", "mean absolute error"))):
        points = [r for r in rows if f" {key}, " in r.quantity and r.tolerance is not None]
        if not points:
            ax.set_axis_off()
            continue
        paper = np.array([r.paper for r in points], dtype=float)
        ours = np.array([r.ours for r in points], dtype=float)
        tol = np.array([r.tolerance for r in points], dtype=float)
        miss = np.array([r.status == "miss" for r in points])
        ax.errorbar(paper[~miss], ours[~miss], yerr=tol[~miss], fmt="o", ms=3, lw=0.6,
                    color="tab:blue", label="within tolerance")
        if miss.any():
            ax.errorbar(paper[miss], ours[miss], yerr=tol[miss], fmt="s", ms=4, lw=0.6,
                        color="tab:red", label="miss")
        low, high = min(paper.min(), ours.min()), max(paper.max(), ours.max())
        ax.plot([low, high], [low, high], color="grey", lw=0.8, ls="--")
        ax.set_xlabel(f"paper, {label}")
        ax.set_ylabel(f"ordstat, {label}")
        ax.legend(frameon=False, fontsize=8)
    fig.suptitle(title, fontsize=10)
    return fig
