"""``ordstat reproduce``: the experiments of the papers behind ordstat, run again.

Each experiment prints a table "paper | ordstat | difference" and goes into one self-contained
HTML report. Rows we claim to reproduce carry a tolerance; a miss is shown and explained in the
report, never tuned away.
"""

from ._criteria import bagged_criteria_oob
from ._report import NotRun, Row, Section, render_text, write_html
from ._runner import EXPERIMENTS, run

__all__ = ["EXPERIMENTS", "NotRun", "Row", "Section", "bagged_criteria_oob", "render_text",
           "run", "write_html"]
