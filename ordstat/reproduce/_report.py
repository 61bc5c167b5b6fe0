"""Sections of the reproduction report and their text and HTML renderings.

A section holds one comparison table ("paper | ordstat | difference"): each row is a number the
paper reports, ours beside it, and, for the rows we claim to reproduce, the tolerance we allow. A
row without a tolerance is reported, not claimed; a claimed row outside its tolerance is a miss and
must carry an explanation and its cause, one of ``CAUSES``: a misprint in the paper, a difference of
design (data, implementation) that the paper's numbers cannot be reached through, a reduction of
the quick run (fewer repetitions), or "open" (not understood: a bug until shown otherwise). Extra
tables and matplotlib figures go along.

``render_summary`` is the one screen ``ordstat reproduce`` prints: a line per experiment and the
misses grouped by cause; ``render_text`` is one section in full (``--verbose``), ``write_html``
the report with every section.

What could not run is said, never counted as agreement: a part of an experiment (a data set that
cannot be loaded, a peer method whose package is missing) is listed as "not run (why)", and an
experiment with nothing to run is marked not run as a whole. Without matplotlib the figures are
left out, each with a line saying how to get them.
"""

from __future__ import annotations

import base64
import html
import io
import math
import textwrap
from dataclasses import dataclass, field

import pandas as pd

from .._extras import install_hint, missing_extra

__all__ = ["CAUSES", "NotRun", "Row", "Section", "render_summary", "render_text", "write_html"]

#: why a claimed number is missed, in the order the summary lists them
MISPRINT, DESIGN, QUICK, OPEN = CAUSES = (
    "misprint in the paper", "design difference", "quick-run reduction", "open")

NO_FIGURE = f"figure left out: it needs matplotlib ({install_hint('matplotlib')})"


class NotRun(Exception):
    """Raised by an experiment that cannot run at all; the runner reports it as not run, with
    the message as the reason."""


@dataclass
class Row:
    """One number of a paper beside ours."""

    quantity: str
    paper: float | str
    ours: float | str
    tolerance: float | None = None  # absolute; None: reported, not claimed
    note: str = ""
    cause: str = ""  # why a miss misses, one of CAUSES; a miss without one is "open"

    def __post_init__(self):
        if self.cause and self.cause not in CAUSES:
            raise ValueError(f"cause must be one of {', '.join(map(repr, CAUSES))}; got "
                             f"{self.cause!r}.")

    @property
    def miss_cause(self) -> str:
        """The cause of a miss ("open" when none was given); "" for a row that is no miss."""
        return (self.cause or OPEN) if self.status == "miss" else ""

    @property
    def difference(self):
        if isinstance(self.paper, str) or isinstance(self.ours, str):
            # a label or a placeholder such as "(Figure 2)": only a claimed label can differ
            return "differs" if self.tolerance is not None and self.paper != self.ours else ""
        return self.ours - self.paper

    @property
    def status(self):
        if self.tolerance is None:
            return "reported"
        diff = self.difference
        if isinstance(diff, str):
            return "ok" if diff == "" else "miss"
        return "ok" if math.isfinite(diff) and abs(diff) <= self.tolerance + 1e-12 else "miss"


@dataclass
class Section:
    """One experiment of one paper."""

    name: str
    title: str
    reference: str
    rows: list[Row] = field(default_factory=list)
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)
    figures: list[tuple[str, object]] = field(default_factory=list)  # (caption, Figure)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    not_run: list[tuple[str, str]] = field(default_factory=list)  # (part, why)
    skipped: str = ""  # why the whole experiment was not run ("" when it ran)

    @property
    def status(self) -> str:
        """"run", "partly run" (some parts not run) or "not run"."""
        if self.skipped:
            return "not run"
        return "partly run" if self.not_run else "run"

    def skip_part(self, part: str, why: str) -> None:
        """Record a part (data set, method) that could not run, and why."""
        self.not_run.append((part, why))

    def skip(self, why: str) -> Section:
        """Mark the whole experiment as not run; returns the section."""
        self.skipped = why
        return self

    def add_figure(self, caption: str, draw, *args, **kwargs):
        """Add ``draw(*args, **kwargs)``, a matplotlib Figure; without matplotlib the figure is
        left out (kept as None, which the report says) and the experiment goes on."""
        try:
            fig = draw(*args, **kwargs)
        except ImportError as exc:
            if missing_extra(exc) != "matplotlib":
                raise
            fig = None
        self.figures.append((caption, fig))
        return fig

    @property
    def figures_left_out(self) -> int:
        return sum(fig is None for _, fig in self.figures)

    def not_run_lines(self) -> list[str]:
        """The parts not run, one line per reason: "crabs, iris: not run (needs rpy2: ...)"."""
        by_reason = {}
        for part, why in self.not_run:
            by_reason.setdefault(why, []).append(part)
        return [f"{', '.join(parts)}: not run ({why})" for why, parts in by_reason.items()]

    def comparison(self) -> pd.DataFrame:
        """The "paper | ordstat | difference" table."""
        return pd.DataFrame([{
            "quantity": r.quantity, "paper": r.paper, "ordstat": r.ours,
            "difference": r.difference, "tolerance": r.tolerance, "status": r.status,
            "cause": r.miss_cause, "note": r.note} for r in self.rows],
            columns=["quantity", "paper", "ordstat", "difference", "tolerance", "status",
                     "cause", "note"])

    @property
    def misses(self) -> list[Row]:
        return [r for r in self.rows if r.status == "miss"]


def _fmt(value):
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.4g}"
    return "" if value is None else str(value)


def render_text(section: Section) -> str:
    """The section as plain text for the terminal."""
    lines = [f"== {section.title}"] + ([f"   {section.reference}"] if section.reference else [])
    if section.skipped:
        lines.append(f"NOT RUN: {section.skipped}")
    lines += section.not_run_lines()
    table = section.comparison().drop(columns=["cause", "note"])
    if len(table):
        # formatted cell by cell: pandas' formatters skip missing values (printed "None", "NaN")
        lines.append(table.map(_fmt).to_string(index=False))
    for caption, frame in section.tables:
        lines += ["", f"-- {caption}", frame.to_string()]
    lines += [f"note: {n}" for n in section.notes]
    lines += [f"note ({r.quantity}): {r.note}" for r in section.rows if r.note]
    if section.figures_left_out:
        lines.append(f"{section.figures_left_out} figure(s) left out: they need matplotlib "
                     f"({install_hint('matplotlib')})")
    lines.append(f"({section.seconds:.1f} s)")
    return "\n".join(lines)


def _counts(section: Section) -> dict:
    statuses = [r.status for r in section.rows]
    return {s: statuses.count(s) for s in ("ok", "miss", "reported")}


def _line(indent: int, text: str, width: int) -> str:
    """``text`` indented and cut to ``width`` characters (the full text is in the report)."""
    return " " * indent + textwrap.shorten(text, width - indent, placeholder=" ...")


def render_summary(sections: list[Section], *, width: int = 100) -> str:
    """One screen: a line per experiment (claims ok, missed, numbers reported, time), what
    could not run and why, then every miss under its cause with the first words of its
    explanation (the rest is in the report); only the misses' lines are cut to ``width``."""
    lines = [f"{'experiment':<16}{'claims ok':>10}{'missed':>8}{'reported':>10}{'time':>9}  "
             "status"]
    for s in sections:
        c = _counts(s)
        lines.append(f"{s.name:<16}{c['ok']:>10}{c['miss']:>8}{c['reported']:>10}"
                     f"{s.seconds:>7.1f} s  {s.status}")
    lines += ["(claims: the paper's numbers and findings we reproduce within a tolerance;",
              " reported: shown beside the paper's, not claimed)"]
    for s in sections:
        if s.status != "run":
            # in full: what to install is in these lines
            lines.append(f"{s.name}: {s.status}" + (f" ({s.skipped})" if s.skipped else ""))
            lines += [f"  {line}" for line in s.not_run_lines()]
    ran = [s for s in sections if s.status != "not run"]
    if not ran:
        return "\n".join(lines)
    partly = sum(s.status == "partly run" for s in ran)
    misses = [(s.name, r) for s in ran for r in s.misses]
    lines += ["", f"{len(ran)} of {len(sections)} experiment(s) run"
              + (f" ({partly} in part)" if partly else "")
              + f", {len(misses)} claimed number(s) missed" + (", by cause:" if misses else "")]
    for cause in CAUSES:
        group = [(name, r) for name, r in misses if r.miss_cause == cause]
        if group:
            lines.append(f"  {cause} ({len(group)})")
        for name, r in group:
            lines.append(_line(4, f"{name}: {r.quantity}: paper {_fmt(r.paper)}, ours "
                                  f"{_fmt(r.ours)}", width))
            if r.note:
                lines.append(_line(6, r.note, width))
    return "\n".join(lines)


def _figure_html(fig) -> str:
    if fig is None:
        return f"<p class='nofig'>{html.escape(NO_FIGURE)}</p>"
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return f'<img alt="figure" src="data:image/png;base64,{data}">'


_CSS = """body{font-family:sans-serif;max-width:70em;margin:2em auto;line-height:1.4}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em}
.miss{background:#fde0dc}.ok{background:#e3f4e1}figure{margin:1em 0}img{max-width:100%}
.notrun{background:#fff4ce;padding:.3em .6em}.nofig{color:#666;font-style:italic}"""


def _toc_status(section: Section) -> str:
    """What the table of contents says beside a section: misses, parts or all not run."""
    marks = []
    if section.status != "run":
        marks.append(section.status)
    if section.misses:
        marks.append(f"{len(section.misses)} miss(es)")
    return "".join(f" &mdash; {m}" for m in marks)


def write_html(sections: list[Section], path, *, title="ordstat: reproduction report",
               header="") -> None:
    """Write one self-contained HTML file (figures embedded as PNG)."""
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
             f"</title><style>{_CSS}</style></head><body><h1>{html.escape(title)}</h1>",
             f"<p>{html.escape(header)}</p>" if header else "", "<ul>"]
    parts += [f"<li><a href='#{s.name}'>{html.escape(s.title)}</a>{_toc_status(s)}</li>"
              for s in sections]
    parts.append(f"</ul><pre>{html.escape(render_summary(sections))}</pre>")
    for s in sections:
        parts.append(f"<h2 id='{s.name}'>{html.escape(s.title)}</h2>")
        if s.reference:
            parts.append(f"<p><i>{html.escape(s.reference)}</i></p>")
        if s.skipped:
            parts.append(f"<p class='notrun'><b>Not run:</b> {html.escape(s.skipped)}</p>")
        parts += [f"<p class='notrun'>{html.escape(line)}</p>" for line in s.not_run_lines()]
        table = s.comparison()
        if len(table):
            rows = []
            for _, r in table.iterrows():
                cells = "".join(f"<td>{html.escape(_fmt(r[c]))}</td>" for c in table.columns)
                rows.append(f"<tr class='{r['status']}'>{cells}</tr>")
            head = "".join(f"<th>{c}</th>" for c in table.columns)
            parts.append(f"<table><tr>{head}</tr>{''.join(rows)}</table>")
        for caption, frame in s.tables:
            parts.append(f"<h3>{html.escape(caption)}</h3>{frame.to_html()}")
        for caption, fig in s.figures:
            parts.append(f"<figure>{_figure_html(fig)}<figcaption>{html.escape(caption)}"
                         "</figcaption></figure>")
        parts += [f"<p>{html.escape(n)}</p>" for n in s.notes]
        parts.append(f"<p><small>{s.seconds:.1f} s</small></p>")
    parts.append("</body></html>")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(parts))
