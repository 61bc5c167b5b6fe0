"""The warnings of an ``ordstat compare`` run, each distinct one printed once, on one line, with
how many times it was raised.

``evaluate`` already collects the warnings of its splits and re-issues each distinct one once,
"evaluate, method 'edda': ... (raised in 9 of 10 splits)" (``ordstat._core.warnings.reemit``);
on the command line those are a screenful of long messages. Here they become
"ordstat: UserWarning: edda: ... (9 times)", shortened to :data:`LIMIT` characters unless
``--full-warnings`` is given; messages that differ only in their numbers count as one, as in
``reemit``.
"""

from __future__ import annotations

import re
import sys
import warnings

from .._core.warnings import _NUMBER  # what "the same warning" means, shared with evaluate

__all__ = ["LIMIT", "WarningLog", "condense", "shorten"]

# Characters of a warning's text shown on its line (the whole text with --full-warnings).
LIMIT = 200

# A warning re-issued by evaluate for one method (ordstat._core.warnings.reemit)
_EVALUATE = re.compile(r"evaluate, method '(?P<method>[^']*)': (?P<text>.*) "
                       r"\(raised in (?P<count>\d+) of \d+ \w+\)", re.DOTALL)
# Where a long text is best cut: between joined messages, clauses, sentences.
_BREAKS = (" | ", "; ", ". ")


def shorten(text, limit=LIMIT):
    """``text`` on one line, cut to at most about ``limit`` characters at a natural break
    (" | ", "; ", ". ", else a space) in its second half, with " ..." after the cut."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit]
    for mark in _BREAKS:
        at = cut.rfind(mark)
        if at >= limit // 2:
            return cut[:at + 1 if mark == ". " else at] + " ..."
    return cut.rsplit(" ", 1)[0] + " ..."


def condense(caught, full=False):
    """``(lines, shortened)``: one line per distinct warning of ``caught`` (as recorded by
    ``warnings.catch_warnings(record=True)``), in order of first appearance, with "(N times)"
    when raised more than once; ``shortened`` tells whether a text was cut."""
    counts, first = {}, {}
    for w in caught:
        text, count = str(w.message), 1
        found = _EVALUATE.fullmatch(text)
        if found:  # one line per method, its count the number of splits that raised it
            text, count = f"{found['method']}: {found['text']}", int(found["count"])
        key = (w.category.__name__, _NUMBER.sub("#", " ".join(text.split())))
        counts[key] = counts.get(key, 0) + count
        first.setdefault(key, text)
    lines, shortened = [], False
    for key, count in counts.items():
        whole = " ".join(first[key].split())
        text = whole if full else shorten(whole)
        shortened |= text != whole
        lines.append(f"ordstat: {key[0]}: {text}" + (f" ({count} times)" if count > 1 else ""))
    return lines, shortened


class WarningLog:
    """A context that records every warning (future and deprecation warnings aside) and prints
    them condensed on standard error at :meth:`flush` and on exit."""

    def __init__(self, full=False):
        self.full = full
        self._context = warnings.catch_warnings(record=True)
        self._done = 0
        self._shortened = False

    def __enter__(self):
        self._caught = self._context.__enter__()
        warnings.simplefilter("always")  # counted here, not dropped as repeats
        for category in (FutureWarning, DeprecationWarning, PendingDeprecationWarning):
            warnings.simplefilter("ignore", category)  # notes between libraries
        return self

    def flush(self):
        """Print the warnings recorded since the last flush."""
        lines, shortened = condense(self._caught[self._done:], self.full)
        self._done = len(self._caught)
        self._shortened |= shortened
        for line in lines:
            print(line, file=sys.stderr)

    def __exit__(self, *exc_info):
        self.flush()
        if self._shortened:
            print("ordstat: (long warnings shortened; --full-warnings prints them whole)",
                  file=sys.stderr)
        return self._context.__exit__(*exc_info)
