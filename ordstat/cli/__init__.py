"""The ``ordstat`` command.

    ordstat --version
    ordstat methods
    ordstat compare DATA.csv --response COL [--order a,b,c] [--methods m1,m2] [--scheme cv10]
                    [--metrics misclassification,gamma] [--jobs N] [--seed S] [--output R.csv]
                    [--sep ';'] [--ordered COL=a,b,c ...] [--full-warnings]
    ordstat compare --bundled NAME ...      (NAME from ordstat compare --list-data)
    ordstat compare --list-data
    ordstat reproduce [--quick] [--only NAME[,NAME]] [--out DIR] [--jobs N] [--seed S]
                      [--verbose]

Bad input (unreadable CSV, missing column, unusable predictors, fewer than two classes, unknown
method, with a did-you-mean when a name is misspelled) prints one line ``ordstat: error: ...``
and exits with code 2; so does a data set or a method that needs a missing optional package,
naming the extra that installs it (``pip install "ordstat[r]"``). ``ordstat reproduce`` runs
what it can: without matplotlib the report has no figures (one line says so), and an
experiment whose data cannot be loaded is reported as not run, with why; it exits with code 1
when no experiment could run. The warnings of ``ordstat compare`` are printed each once, on
one line, with a count (``ordstat.cli._warnings``).

pandas, scikit-learn and the estimators are imported only by the commands that need them, so
that ``ordstat --help`` and ``ordstat --version`` answer at once.
"""

from __future__ import annotations

import argparse
import re
import sys

from .._version import __version__
from ._data import ordered_spec, separator
from ._methods import DEFAULT_METHODS, METHODS, make_method, method_name
from ._warnings import LIMIT, WarningLog
from .._core.names import CRITERION_NAMES, METRIC_NAMES


class UsageError(Exception):
    """A problem with the user's input: reported in one line, exit code 2."""


def _csv_list(text):
    return [item.strip() for item in text.split(",") if item.strip()]


def _closest(name, spellings):
    """The name closest to a misspelled ``name`` (difflib's ratio at least 0.6), or None.

    ``spellings`` maps every accepted spelling (normalized as by
    ``ordstat._core.names.normalize``) to the name to suggest, so that a typo close to an alias
    suggests its canonical name.
    """
    import difflib

    from .._core.names import normalize

    close = difflib.get_close_matches(normalize(name), list(spellings), n=1, cutoff=0.6)
    return spellings[close[0]] if close else None


def _did_you_mean(name, spellings):
    """" (did you mean X?)" for a misspelled ``name``, or "" when nothing is close."""
    closest = _closest(name, spellings)
    return f" (did you mean {closest}?)" if closest else ""


def _unknown_names(names, spellings):
    """The unknown ``names``, each with its did-you-mean, comma-separated."""
    return ", ".join(f"{name}{_did_you_mean(name, spellings)}" for name in names)


def _aligned(rows):
    """Lines of two columns, the second starting at the same place in every line."""
    rows = list(rows)
    width = max((len(first) for first, _ in rows), default=0)
    return [f"{first:{width}s}  {second}" for first, second in rows]


def _names_epilog():
    """The canonical metric and criterion names, with their aliases, for --help."""
    from .._core.names import CRITERION_ALIASES, METRIC_ALIASES

    def rows(names, aliases):
        out = []
        for name, text in names.items():
            out.append(f"  {name:18s} {text}")
            also = [a for a, c in aliases.items() if c == name]
            if also:
                out.append(f"  {'':18s} (also: {', '.join(also)})")
        return out

    lines = ["metrics (--metrics; results use these names):"]
    lines += rows(METRIC_NAMES, METRIC_ALIASES)
    lines.append("split criteria (tree methods are named tree_CRITERION; tree = tree_ordinal):")
    lines += rows(CRITERION_NAMES, CRITERION_ALIASES)
    lines.append("Names ignore case, and '-' or a space may replace '_'.")
    return "\n".join(lines)


_COMPARE_INPUTS = """\
categorical predictors and missing values:
  String and categorical columns are used by the methods that take them as they
  are (the trees split them, fmm/foim/kernel take them as categories); every
  other method gets them coded as numbers, as R's model.matrix would (an
  indicator column per level but the first; an ordered column as its ranks),
  and a line says so per method. fmm, foim and kernel refuse a continuous
  column (every value a category of its own). --ordered COL=a,b,c declares an
  ordered predictor (the trees split it as a scale).
  Units with a missing predictor value are left out for every method when a
  method that cannot take missing values is compared, and a line says how many:
  all methods are trained and scored on the same units and the same splits, so
  their results can be compared. Units without a response value are left out.
  --dropna leaves out every unit with a missing value also when only the trees
  are compared (complete-case analysis).
"""


def _build_parser():
    parser = argparse.ArgumentParser(
        prog="ordstat", description="Classification into ordered categories.")
    parser.add_argument("--version", action="version", version=f"ordstat {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("methods", help="list the registered methods", epilog=_names_epilog(),
                   formatter_class=argparse.RawDescriptionHelpFormatter)

    cmp_ = sub.add_parser(
        "compare", help="compare methods on the same resampling splits",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Compare methods on the same resampling splits and the same units.",
        epilog=_COMPARE_INPUTS + "\n" + _names_epilog())
    cmp_.add_argument("data", nargs="?", help="CSV file with a header row")
    cmp_.add_argument("--bundled", metavar="NAME",
                      help="use a bundled or package data set instead of a CSV "
                           "(see --list-data)")
    cmp_.add_argument("--list-data", action="store_true",
                      help="list the data sets for --bundled with their sizes, and exit")
    cmp_.add_argument("--sep", type=separator, default=None,
                      help="the CSV file's column separator: one character, or tab, comma, "
                           "semicolon, pipe, space (default: guessed from the first lines "
                           "among , ; tab |, else a comma)")
    cmp_.add_argument("--na-values", type=_csv_list, default=None, metavar="STR,...",
                      help="the strings besides an empty field that mean a missing value, "
                           "comma-separated (default: NA,NaN,nan,N/A,#N/A; \"None\" is data); "
                           "a response level named in --order is data even when listed here")
    cmp_.add_argument("--response", help="name of the ordinal response column")
    cmp_.add_argument("--order", type=_csv_list,
                      help="class labels lowest to highest, comma-separated")
    cmp_.add_argument("--ordered", type=ordered_spec, action="append", default=[],
                      metavar="COL=LOW,...,HIGH",
                      help="an ordered predictor: column COL as an ordered categorical with "
                           "these levels, lowest first (e.g. edu=primary,secondary,tertiary); "
                           "repeat the option for several columns")
    cmp_.add_argument("--weights", metavar="COL",
                      help="a column of non-negative unit weights, e.g. the counts of a "
                           "frequency table (not a predictor); the methods whose fit takes no "
                           "weights are left out, and a line says so")
    cmp_.add_argument("--predictors", type=_csv_list,
                      help="predictor columns, comma-separated (default: all other columns)")
    cmp_.add_argument("--methods", type=_csv_list, default=None,
                      help="registered methods, comma-separated "
                           f"(default: {','.join(DEFAULT_METHODS)})")
    cmp_.add_argument("--scheme", default="cv10",
                      help="loo, half, cvV (e.g. cv10), splitsN (e.g. splits50), bootstrapB")
    cmp_.add_argument("--metrics", type=_csv_list, default=list(METRIC_NAMES),
                      help=f"comma-separated, from {','.join(METRIC_NAMES)} or their aliases "
                           "(listed below)")
    cmp_.add_argument("--jobs", type=int, default=1, help="parallel jobs (joblib)")
    cmp_.add_argument("--seed", type=int, default=None, help="random seed")
    cmp_.add_argument("--dropna", action="store_true",
                      help="leave out every unit with a missing predictor value, also for the "
                           "methods that handle missing values (complete-case analysis)")
    cmp_.add_argument("--output", help="write the tidy results (split, method, metric, value) "
                                       "to this CSV file")
    cmp_.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                      help="progress bar (default: when standard error is a terminal)")
    cmp_.add_argument("--full-warnings", action="store_true",
                      help="print warnings whole (by default each distinct warning is one line, "
                           f"shortened to about {LIMIT} characters, with how many times it was "
                           "raised)")

    rep = sub.add_parser("reproduce", help="run the papers' experiments again, ours beside theirs, "
                                           "and write an HTML report")
    rep.add_argument("--quick", action="store_true",
                     help="fewer repetitions in every experiment (a few minutes)")
    rep.add_argument("--only", type=_csv_list, default=None, action="extend",
                     help="experiments to run, comma-separated or the option repeated (default: "
                          "all; --list shows them)")
    rep.add_argument("--list", action="store_true", help="list the experiments and exit")
    rep.add_argument("--out", default="ordstat-report",
                     help="folder for report.html (default: ordstat-report)")
    rep.add_argument("--jobs", type=int, default=1, help="parallel jobs (joblib)")
    rep.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    rep.add_argument("--verbose", action="store_true",
                     help="also print every experiment's full tables and notes (always in the "
                          "report)")
    rep.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                     help="announce each experiment (default: when standard error is a terminal)")
    return parser


def _reproduce(args):
    from ..reproduce import EXPERIMENTS, run

    if args.list:
        print("\n".join(_aligned((name, title) for name, (_, title) in EXPERIMENTS.items())))
        return 0
    if args.jobs == 0:
        raise UsageError("--jobs must be a positive number (or -1 for all cores)")
    unknown = [n for n in args.only or [] if n not in EXPERIMENTS]
    if unknown:
        spellings = {name: name for name in EXPERIMENTS}
        raise UsageError(f"unknown experiment(s) {_unknown_names(unknown, spellings)}; "
                         f"choose from {', '.join(EXPERIMENTS)}")
    sections = run(args.only, quick=args.quick, out=args.out, n_jobs=args.jobs,
                   random_state=args.seed, progress=args.progress, verbose=args.verbose)
    return _reproduce_status(sections)


def _reproduce_status(sections):
    """Exit status of ``ordstat reproduce`` (the summary is printed by ``run``): 1 when no
    experiment could run; a note on standard error for figures left out."""
    from .._extras import install_hint

    left_out = sum(s.figures_left_out for s in sections)
    if left_out:
        print(f"ordstat reproduce: {left_out} figure(s) left out of the report: they need "
              f"matplotlib: {install_hint('matplotlib')}", file=sys.stderr)
    if all(s.status == "not run" for s in sections):
        print(f"no experiment could run ({len(sections)} not run): nothing was compared")
        return 1
    return 0


def _load(args):
    import pandas as pd

    if args.bundled and args.data:
        raise UsageError("give either a CSV file or --bundled, not both")
    if args.bundled:
        from ..datasets import BUNDLED

        if args.sep is not None:
            raise UsageError("--sep is for a CSV file, not --bundled")
        if args.bundled not in BUNDLED:
            spellings = {name: name for name in BUNDLED}
            raise UsageError(f"unknown bundled data set {args.bundled!r}"
                             f"{_did_you_mean(args.bundled, spellings)}; "
                             f"choose from {', '.join(BUNDLED)}")
        loader, response = BUNDLED[args.bundled]
        try:
            frame = loader()
        except ImportError as exc:
            raise UsageError(str(exc)) from None
        response = args.response or response
        y = frame[response] if response in frame.columns else None
        if (y is not None and isinstance(y.dtype, pd.CategoricalDtype) and not y.cat.ordered
                and not args.order):
            # a nominal response (e.g. iris): the ordinal methods need an order, so the listed
            # category order is used, and said so
            levels = ",".join(map(str, y.cat.categories))
            print(f"ordstat: warning: {args.bundled} has a nominal response; using the order "
                  f"{levels} (give --order to change it)", file=sys.stderr)
            frame = frame.assign(**{response: y.cat.as_ordered()})
        return frame, response, []
    if not args.data:
        raise UsageError("give a CSV file (ordstat compare DATA.csv --response COL) or --bundled")
    if not args.response:
        raise UsageError("--response is required with a CSV file")
    from ._data import NA_STRINGS, read_csv, separator_hint

    na_values = NA_STRINGS if args.na_values is None else ["", *args.na_values]
    try:
        frame, sep, notes = read_csv(args.data, args.sep, na_values,
                                     keep={args.response: args.order or ()})
    except FileNotFoundError:
        raise UsageError(f"no such file: {args.data}") from None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.response not in frame.columns:
        # e.g. a semicolon file read with commas: one column named "age;income;grade"
        raise UsageError(_no_response(args.response, frame.columns)
                         + separator_hint(frame.columns, sep))
    return frame, args.response, notes


def _column_spellings(columns):
    from .._core.names import normalize

    return {normalize(str(c)): str(c) for c in columns}


def _no_response(response, columns):
    return (f"response column {response!r} not found"
            f"{_did_you_mean(response, _column_spellings(columns))}; columns are "
            f"{', '.join(map(str, columns))}")


def _prepare(frame, response, args):
    import pandas as pd

    if response not in frame.columns:
        raise UsageError(_no_response(response, frame.columns))
    weights = args.weights
    if weights is not None and weights not in frame.columns:
        raise UsageError(f"--weights: no column {weights!r}"
                         f"{_did_you_mean(weights, _column_spellings(frame.columns))}")
    if weights in (response, *(args.predictors or ())):
        raise UsageError(f"--weights {weights}: that column is the response or a predictor")
    predictors = args.predictors or [c for c in frame.columns if c not in (response, weights)]
    missing = [c for c in predictors if c not in frame.columns]
    if missing:
        raise UsageError(f"predictor column(s) "
                         f"{_unknown_names(missing, _column_spellings(frame.columns))} not found")
    if not predictors:
        raise UsageError("no predictor columns")
    frame = frame[predictors + [response] + ([weights] if weights else [])]
    notes = [] if weights else _frequency_hint(frame[predictors])
    no_response = frame[response].isna()
    if no_response.any():
        notes.append(f"{int(no_response.sum())} of {len(frame)} units left out: no value of "
                     f"the response {response!r}")
        frame = frame[~no_response.to_numpy()]
    y = frame[response]
    if args.order:
        labels = y.astype(str)
        unknown = sorted(set(labels) - set(args.order))
        if unknown:
            raise UsageError(f"response value(s) {', '.join(unknown)} are not in --order")
        absent = [level for level in args.order if level not in set(labels)]
        if absent:
            raise UsageError(f"--order level(s) {', '.join(absent)} are not values of the "
                             f"response {response!r}; its values are "
                             f"{', '.join(sorted(set(labels)))}")
        y = pd.Categorical(labels, categories=args.order, ordered=True)
    elif not (isinstance(y.dtype, pd.CategoricalDtype) or pd.api.types.is_numeric_dtype(y)):
        print(f"ordstat: warning: class order guessed by sorting the labels of {response!r}; "
              "give --order lowest,...,highest", file=sys.stderr)
        y = pd.Categorical(y.astype(str), categories=sorted(y.astype(str).unique()),
                           ordered=True)
    if pd.Series(y).nunique() < 2:
        raise UsageError(f"response {response!r} has fewer than two classes")
    w = None
    if weights is not None:
        w = _unit_weights(frame[weights])
        notes.append(f"unit weights from column {weights!r} (total {w.sum():g} over {len(w)} "
                     "rows)")
    return frame[predictors], y, w, notes


# Column names that usually hold the counts of a frequency table (R's as.data.frame(table)
# names it Freq).
_COUNT_NAMES = ("freq", "frequency", "count", "counts", "n", "weight", "weights")


def _frequency_hint(X):
    """A note when a predictor looks like the counts of a frequency table."""
    import pandas as pd

    notes = []
    for column in X.columns:
        values = X[column]
        if (str(column).lower() in _COUNT_NAMES and pd.api.types.is_integer_dtype(values)
                and (values >= 0).all()):
            notes.append(f"column {column!r} is used as a predictor; if it holds the counts of "
                         f"a frequency table, give --weights {column}")
    return notes


def _unit_weights(column):
    """The --weights column as floats: numbers, non-negative, none missing."""
    import pandas as pd

    name = column.name
    if not pd.api.types.is_numeric_dtype(column):
        raise UsageError(f"--weights {name}: the column must hold numbers; found "
                         f"{column.dropna().astype(str).iloc[0]!r}")
    import numpy as np

    w = column.to_numpy(dtype=float)
    if np.isnan(w).any():
        raise UsageError(f"--weights {name}: {int(np.isnan(w).sum())} unit(s) have no weight")
    if (w < 0).any() or not np.isfinite(w).all():
        raise UsageError(f"--weights {name}: weights must be finite and non-negative")
    return w


def _apply_ordered(frame, response, specs):
    """The --ordered columns as ordered Categoricals (the response's order is --order)."""
    from ._data import apply_ordered

    if any(column == response for column, _ in specs):
        raise UsageError(f"--ordered {response}: that is the response; give its order with "
                         "--order")
    try:
        return apply_ordered(frame, specs)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _check_choices(args):
    """Cheap checks of the options, before any data is read."""
    methods = args.methods or DEFAULT_METHODS
    from ._peers import missing_peer_message

    resolved, unknown = [], []
    for name in methods:
        try:
            resolved.append(method_name(name))
        except ValueError:
            unknown.append(name)
    for name in unknown:
        if missing_peer_message(name):
            raise UsageError(missing_peer_message(name))
    if unknown:
        raise UsageError(f"unknown method(s) {_unknown_names(unknown, _method_spellings())}; "
                         f"choose from {', '.join(sorted(METHODS))}")
    methods = list(dict.fromkeys(resolved))
    args.metrics = _metric_names(args.metrics)
    if args.jobs == 0:
        raise UsageError("--jobs must be a positive number (or -1 for all cores)")
    from ..model_selection import make_cv

    try:
        make_cv(args.scheme)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return methods


def _method_spellings():
    """Every accepted spelling of a method -> its registered name (for did-you-mean)."""
    from .._core.names import CRITERION_ALIASES
    from ._methods import METHOD_ALIASES

    spellings = {name: name for name in METHODS}
    spellings.update(METHOD_ALIASES)
    spellings.update({f"tree_{alias}": "tree" if criterion == "ordinal" else f"tree_{criterion}"
                      for alias, criterion in CRITERION_ALIASES.items()})
    return spellings


def _metric_names(names):
    """The canonical names of --metrics, or a UsageError with a did-you-mean."""
    from .._core.names import METRIC_ALIASES, metric_name

    canonical = []
    for name in names:
        try:
            canonical.append(metric_name(name, "--metrics"))
        except ValueError as exc:
            spellings = {**{m: m for m in METRIC_NAMES}, **METRIC_ALIASES}
            closest = _closest(name, spellings)
            message = str(exc)
            if closest:
                message = message.replace("; choose from", f"; did you mean {closest}? Choose "
                                          "from", 1)
            raise UsageError(message) from None
    return list(dict.fromkeys(canonical))


def _list_data():
    """One line per data set for --bundled: units, predictors, classes, response kind."""
    import pandas as pd

    from ..datasets import BUNDLED

    print(f"{'name':14s} {'units':>6s} {'predictors':>10s} {'classes':>7s}  response")
    for name, (loader, response) in BUNDLED.items():
        try:
            frame = loader()
        except ImportError as exc:
            print(f"{name:14s} not available: {str(exc).splitlines()[0]}")
            continue
        y = frame[response]
        kind = ("ordinal" if isinstance(y.dtype, pd.CategoricalDtype) and y.cat.ordered
                else "nominal" if isinstance(y.dtype, pd.CategoricalDtype) else "numeric")
        print(f"{name:14s} {len(frame):6d} {frame.shape[1] - 1:10d} {y.nunique():7d}  "
              f"{response} ({kind})")
    return 0


def _ttest_sizes(scheme):
    """(n_train, n_test) in proportion for the corrected t-test, or None (loo, bootstrap)."""
    if scheme == "half":
        return 1, 1
    if re.fullmatch(r"cv\d+", scheme):
        return int(scheme[2:]) - 1, 1
    if re.fullmatch(r"splits\d+", scheme):
        return 2, 1
    return None


def _print_corrected_ttests(results, metric, scheme):
    from ..model_selection import pairwise_corrected_ttests

    sizes = _ttest_sizes(scheme)
    if sizes is None:
        return
    try:
        table = pairwise_corrected_ttests(results, metric, n_train=sizes[0], n_test=sizes[1])
    except ValueError as exc:
        print(f"{metric}: no corrected t-test ({exc})")
        return
    print(f"Corrected resampled t-tests (Nadeau & Bengio), test/learning ratio "
          f"{sizes[1]}/{sizes[0]}:")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.4g}"))


def _print_summary(results, X, y, scheme, n_categorical=0, notes=()):
    """The header line and the table of summarize(): mean (sd) over splits, or for pooled
    leave-one-out the value on all units (standard error; "-" where none is defined)."""
    import pandas as pd

    from ..model_selection import summarize

    summary = summarize(results)
    n_classes = pd.Series(y).nunique()
    pooled = "n_units" in summary.columns
    splits = (f"{len(X)} leave-one-out fits per method, scored on the pooled predictions"
              if pooled else f"{results['split'].nunique()} splits")
    n_cat = f" ({n_categorical} categorical)" if n_categorical else ""
    print(f"{len(X)} units, {X.shape[1]} predictors{n_cat}, {n_classes} ordered classes; "
          f"scheme {scheme}, {splits}")
    for note in notes:
        print(f"note: {note}")
    spread = summary["se" if pooled else "sd"].map(
        lambda v: "-" if pd.isna(v) else f"{v:.4f}")
    wide = summary["mean"].map("{:.4f}".format) + " (" + spread + ")"
    print("\npooled leave-one-out value (standard error)" if pooled
          else "\nmean (sd) over splits")
    print(wide.unstack("metric").to_string())


def _build(name, X, table):
    """The estimator of method ``name``; a discrete model with the categories of all units
    (``ordstat.cli._inputs.declared_categories``), so that no split meets an unseen value."""
    from ._inputs import declared_categories

    if "discrete" in table[name]:
        return make_method(name, categories=declared_categories(X))
    return make_method(name)


def _weighted_methods(methods):
    """The methods whose fit takes unit weights, and a note naming those left out."""
    from sklearn.utils.validation import has_fit_parameter

    kept = [m for m in methods if has_fit_parameter(make_method(m), "sample_weight")]
    left_out = [m for m in methods if m not in kept]
    if not kept:
        raise UsageError(f"--weights: none of the methods {', '.join(methods)} takes unit "
                         "weights")
    return kept, ([f"left out: {', '.join(left_out)} (they take no unit weights)"]
                  if left_out else [])


def _compare(args, log):
    if args.list_data:
        return _list_data()
    methods = _check_choices(args)
    frame, response, read_notes = _load(args)
    frame = _apply_ordered(frame, response, args.ordered)
    X, y, weights, notes = _prepare(frame, response, args)
    if weights is not None:
        methods, unweighted = _weighted_methods(methods)
        notes = notes + unweighted
    notes = read_notes + notes
    import pandas as pd

    from ._inputs import NumericCoded, plan_inputs
    from ._methods import accepts_table
    from ..model_selection import compare_methods, evaluate

    table = accepts_table()
    try:
        plan = plan_inputs(X, methods, table, dropna=args.dropna)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    X, y = X[plan.keep].reset_index(drop=True), pd.Series(y)[plan.keep].reset_index(drop=True)
    if weights is not None:
        weights = weights[plan.keep]
    if y.nunique() < 2:
        raise UsageError(f"response {response!r} has fewer than two classes among the units "
                         "without missing values")
    if isinstance(y.dtype, pd.CategoricalDtype):
        y = y.array
    estimators = {name: _build(name, X, table) for name in methods}
    estimators = {name: NumericCoded(est, plan.coding) if name in plan.coded else est
                  for name, est in estimators.items()}
    classes = list(y.categories) if isinstance(y, pd.Categorical) else None
    # (continuous columns never reach a discrete model: plan_inputs refuses them)
    results = evaluate(estimators, X, y, scheme=args.scheme, metrics=args.metrics,
                       classes=classes, n_jobs=args.jobs, random_state=args.seed,
                       progress=args.progress, on_error="drop", sample_weight=weights)
    log.flush()  # the fits' warnings, each once, before the results
    _print_summary(results, X, y, args.scheme, len(plan.categorical), notes + plan.notes)
    if len(methods) >= 2:
        for metric in args.metrics:
            try:
                print("\n" + str(compare_methods(results, metric)))
            except ValueError as exc:
                print(f"\n{metric}: no comparison ({exc})")
            _print_corrected_ttests(results, metric, args.scheme)
    if args.output:
        results.to_csv(args.output, index=False)
        print(f"\ntidy results written to {args.output}")
    return 0


def main(argv=None):
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "methods":
            print("\n".join(_aligned((name, description)
                                     for name, (_, _, description) in sorted(METHODS.items()))))
            return 0
        if args.command == "reproduce":
            return _reproduce(args)
        with WarningLog(full=args.full_warnings) as log:
            return _compare(args, log)
    except UsageError as exc:
        print(f"ordstat: error: {exc}", file=sys.stderr)
        return 2
    except (ValueError, TypeError) as exc:
        print(f"ordstat: error: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
