"""What ``ordstat compare`` reads from a CSV file: its separator (``--sep``, or guessed from the
first lines), decimal commas in a file not separated by commas, the strings that mean a missing
value (``--na-values``), and the ordered predictors declared with ``--ordered COL=a,b,c``.

The functions raise ``ValueError`` with a one-line message; the command reports it as a usage
error. pandas is imported by the functions that need it, so that ``ordstat --help`` stays fast.
"""

from __future__ import annotations

import argparse
import csv
import itertools

__all__ = ["SEPARATORS", "NA_STRINGS", "separator", "sniff_separator", "read_csv",
           "separator_hint", "ordered_spec", "apply_ordered"]

# The separators sniffing chooses from: the usual ones; a comma when none fits.
SEPARATORS = ",;\t|"
# Names for separators that are awkward to type in a shell.
_NAMED = {"tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";", "pipe": "|", "space": " "}
_SNIFF_LINES = 20
# The strings read as a missing value unless --na-values says otherwise: an empty field and
# R's and spreadsheets' markers. Not pandas' longer default list, which also reads "None",
# "null" and "n/a" as missing: "None" is a response level of real survey data (MASS::survey's
# exercise frequency), and dropping those units silently changes the classes.
NA_STRINGS = ("", "NA", "NaN", "nan", "N/A", "#N/A")


def separator(text):
    """``--sep``: one character, or tab / \\t / comma / semicolon / pipe / space."""
    sep = _NAMED.get(text.lower(), text)
    if len(sep) != 1:
        raise argparse.ArgumentTypeError(
            f"expected one character (e.g. ';') or tab, \\t, comma, semicolon, pipe, space; "
            f"got {text!r}")
    return sep


def _shown(sep):
    return "tab" if sep == "\t" else repr(sep)


def sniff_separator(path):
    """The separator of a CSV file, guessed by ``csv.Sniffer`` from its first lines among
    :data:`SEPARATORS`; a comma when the sniffer cannot tell (one column, unreadable file)."""
    try:
        with open(path, encoding="utf-8", errors="replace", newline="") as fh:
            sample = "".join(itertools.islice(fh, _SNIFF_LINES))
    except OSError:
        return ","  # reading the file reports it
    try:
        return csv.Sniffer().sniff(sample, delimiters=SEPARATORS).delimiter
    except csv.Error:
        return ","


def read_csv(path, sep=None, na_values=NA_STRINGS, keep=None):
    """``(frame, sep, notes)``: the CSV file read with ``sep`` or else the sniffed separator
    (returned); the notes say which separator was sniffed when it is not a comma.

    ``na_values`` are the strings read as missing values in every column, except those that
    ``keep`` (``{column: strings}``) names for a column: there they are data (a response level
    "None" or "NA" named in ``--order``).

    Raises ``FileNotFoundError`` for a missing file and ``ValueError`` (one line) for a file
    that is not CSV.
    """
    import pandas as pd

    notes = []
    if sep is None:
        sep = sniff_separator(path)
        if sep != ",":
            notes.append(f"{path}: columns separated by {_shown(sep)} (guessed from the first "
                         "lines; give --sep to change it)")
    try:
        columns = pd.read_csv(path, sep=sep, nrows=0).columns
        keep = keep or {}
        missing = {c: [v for v in na_values if v not in set(keep.get(c, ()))] for c in columns}
        options = dict(sep=sep, keep_default_na=False, na_values=missing)
        frame = pd.read_csv(path, **options)
        decimal = _decimal_comma_columns(frame) if sep != "," else []
        if decimal:
            # a spreadsheet's export with decimal commas (1,5;2,25;low): numbers, not labels
            frame = pd.read_csv(path, decimal=",", **options)
            notes.append(f"{path}: decimal commas read as numbers in "
                         f"{', '.join(map(str, decimal))}")
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read {path} as CSV: {str(exc).splitlines()[0]}") from None
    return frame, sep, notes


_DECIMAL_COMMA = r"[-+]?\d*,\d+"


def _decimal_comma_columns(frame):
    """The text columns whose every value is a number written with a decimal comma (or a whole
    number), at least one with a comma."""
    import pandas as pd

    found = []
    for column in frame.columns:
        values = frame[column].dropna()
        if pd.api.types.is_numeric_dtype(values.dtype) or not len(values):
            continue
        text = values.astype(str).str.strip()
        comma = text.str.fullmatch(_DECIMAL_COMMA)
        if comma.any() and (comma | text.str.fullmatch(r"[-+]?\d+")).all():
            found.append(column)
    return found


def separator_hint(columns, used):
    """"; the header contains ';': use --sep ';'" when a column name holds a separator other
    than the one ``used`` (the file was split at the wrong character), else ""."""
    for sep in SEPARATORS:
        if sep != used and any(sep in str(c) for c in columns):
            return f"; the header contains {_shown(sep)}: use --sep {_option(sep)}"
    return ""


def _option(sep):
    """The separator as typed after --sep in a shell."""
    return "tab" if sep == "\t" else f"'{sep}'"


def ordered_spec(text):
    """``--ordered COL=a,b,c``: ``(COL, [a, b, c])``, the levels lowest to highest."""
    column, eq, levels = text.partition("=")
    levels = [level.strip() for level in levels.split(",") if level.strip()]
    if not eq or not column.strip() or not levels:
        raise argparse.ArgumentTypeError(
            f"expected COLUMN=lowest,...,highest (e.g. edu=primary,secondary,tertiary); "
            f"got {text!r}")
    duplicated = sorted({level for level in levels if levels.count(level) > 1})
    if duplicated:
        raise argparse.ArgumentTypeError(
            f"{column.strip()}: level(s) {', '.join(duplicated)} given more than once")
    return column.strip(), levels


def _labels(values, levels, column):
    """The values of a column as level labels: as text, or, for a numeric column, by number
    (so that 1.0 read from the file matches the level "1")."""
    import pandas as pd

    if not pd.api.types.is_numeric_dtype(values.dtype) or pd.api.types.is_bool_dtype(
            values.dtype):
        return values.map(lambda v: v if pd.isna(v) else str(v))
    try:
        numbers = [float(level) for level in levels]
    except ValueError:
        raise ValueError(f"--ordered {column}: the column holds numbers, so its levels must be "
                         f"numbers; got {','.join(levels)}") from None
    by_number = dict(zip(numbers, levels))
    return values.map(lambda v: v if pd.isna(v) else by_number.get(float(v), _number(v)))


def _number(value):
    """A number as a user writes it: 2.0 as "2" (for the message on values not listed)."""
    value = float(value)
    return str(int(value)) if value.is_integer() else str(value)


def apply_ordered(frame, specs):
    """``frame`` with each column of ``specs`` (from :func:`ordered_spec`) as an ordered
    Categorical with the given levels; ``ValueError`` naming the column for an unknown column,
    a column declared twice, or values not among its levels (missing values stay missing)."""
    import pandas as pd

    seen = set()
    frame = frame.copy()
    for column, levels in specs:
        if column in seen:
            raise ValueError(f"--ordered {column}: the column is declared more than once")
        seen.add(column)
        if column not in frame.columns:
            raise ValueError(f"--ordered {column}: no column {column!r}; columns are "
                             f"{', '.join(map(str, frame.columns))}")
        labels = _labels(frame[column], levels, column)
        unknown = sorted(set(labels.dropna()) - set(levels), key=str)
        if unknown:
            shown = ", ".join(map(str, unknown[:5])) + (
                f" and {len(unknown) - 5} more" if len(unknown) > 5 else "")
            raise ValueError(f"--ordered {column}: value(s) {shown} of column {column!r} are "
                             f"not among its levels {','.join(levels)}")
        frame[column] = pd.Categorical(labels, categories=levels, ordered=True)
    return frame
