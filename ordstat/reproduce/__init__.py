"""``ordstat reproduce``: the experiments of the papers behind ordstat, run again.

Each experiment makes a table "paper | ordstat | difference" that goes into one self-contained
HTML report; the command prints one screen (a line per experiment, the misses grouped by cause).
Rows we claim to reproduce carry a tolerance; a miss is shown, explained and given its cause,
never tuned away.
"""

from ._criteria import bagged_criteria_oob
from ._report import CAUSES, NotRun, Row, Section, render_summary, render_text, write_html
from ._runner import EXPERIMENTS, run

__all__ = ["CAUSES", "EXPERIMENTS", "NotRun", "Row", "Section", "bagged_criteria_oob",
           "render_summary", "render_text", "run", "write_html"]
