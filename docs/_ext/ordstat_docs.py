"""Sphinx extension writing the generated sources of ordstat's documentation.

At ``config-inited`` (before autosummary looks for its directives) it writes

- ``api/index.rst``: the API reference, one autosummary table per section, listing the public
  names of each module (its ``__all__``) and every registered estimator
  (``ordstat._core.registry.ESTIMATORS``), so that a new public name gets its page without an
  edit here; each object is documented once, in the first section that lists it;
- ``gallery/``: a page per Python vignette, converted from the notebook that
  ``vignettes/render.py`` executed (``vignettes/_build/NAME.ipynb``; the vignettes are not run
  again), with its figures as PNG files, and an index of thumbnails;
- ``_generated/r_topics.md``: the R package's help topics (name and title of each Rd file),
  linking to the pkgdown pages built into ``r/`` of the HTML output.

Files are rewritten only when their content changes, so that warm builds stay incremental.
"""

from __future__ import annotations

import base64
import importlib
import inspect
import re
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent
ROOT = DOCS.parent
VIGNETTES = ROOT / "vignettes"
RPKG = ROOT / "r_bridge"

# Titles of the estimator groups, by subpackage (a new subpackage shows under its module name).
ESTIMATOR_GROUPS = {
    "ordstat.baseline": "Proportional odds",
    "ordstat.trees": "Ordinal classification trees",
    "ordstat.ensemble": "Ensembles of trees",
    "ordstat.decomposition": "Decompositions into binary problems",
    "ordstat.gaussian": "Gaussian discriminant analysis",
    "ordstat.discrete": "Discrete discriminant models",
    "ordstat.combine": "Combining classifiers",
}

# (title, module, introduction, names beyond the module's __all__)
SECTIONS = [
    ("Warnings", "ordstat.exceptions",
     "Public warning classes, also importable from ``ordstat``.", ()),
    ("Other functions of the top-level namespace", "ordstat",
     "Functions exported from ``ordstat`` besides the estimators and the warnings.", ()),
    ("Metrics", "ordstat.metrics",
     "Ordinal and nominal scores of predictions, cost matrices and Bayes decisions.", ()),
    ("Model selection", "ordstat.model_selection",
     "Resampling schemes, evaluation of several methods on the same splits, and tests "
     "comparing them.", ()),
    ("Data sets", "ordstat.datasets",
     "The papers' data sets and simulation generators.",
     ("make_archer_simulation", "make_circle", "make_waegeman_synthetic", "load_zoo")),
    ("Plotting", "ordstat.plotting",
     "matplotlib figures (matplotlib is imported on use); each returns its Axes.", ()),
    ("Split criteria", "ordstat.trees.criteria",
     "The registry of split criteria of the trees and the built-in criteria.", ()),
    ("Trees", "ordstat.trees", "The fitted tree's arrays.", ()),
    ("Decomposition helpers", "ordstat.decomposition",
     "Building blocks of the decompositions: replica rules, weights, grid search.", ()),
    ("Combination helpers", "ordstat.combine",
     "Building blocks of the combiners.", ()),
    ("Hierarchical coupling helpers", "ordstat.combine.hierarchical",
     "The coupling tree's nodes and text rendering.", ()),
    ("Gaussian models", "ordstat.gaussian", "Covariance models of EDDA.", ()),
    ("Reproduction report", "ordstat.reproduce",
     "``ordstat reproduce``: the papers' experiments and their report.", ()),
    ("R bridge", "ordstat.r",
     "R through rpy2: R's rpart with the ordinal criteria, export of a tree as an rpart "
     "object, the pandas <-> R converter (needs the ``r`` extra and R).", ()),
]


def write_if_changed(path: Path, content) -> bool:
    """Write ``content`` (str or bytes) unless the file already holds it; True if written."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def _underline(title, char):
    return f"{title}\n{char * len(title)}\n"


def _autosummary(module, names, template=None):
    lines = [f".. currentmodule:: {module}", "", ".. autosummary::", "   :toctree: generated",
             "   :nosignatures:"]
    if template:
        lines.append(f"   :template: {template}")
    return "\n".join([*lines, "", *(f"   {name}" for name in names), "", ""])


def _documentable(obj):
    return inspect.isclass(obj) or inspect.isfunction(obj)


def api_index(documented) -> str:
    """The reST source of api/index.rst; adds the full name of every object listed to the set
    ``documented``."""
    from ordstat._core.registry import ESTIMATORS, estimator_class

    seen = set()  # ids of the objects already documented
    out = [_underline("API reference", "="), "",
           "Every public class and function of ordstat. The estimators follow scikit-learn "
           "(``fit``, ``predict``, ``predict_proba``, ``get_params``); their constructor "
           "parameters are listed on each page.", ""]
    out += [_underline("Estimators", "-"), "",
            "The registered estimators, all exported from ``ordstat``.", ""]
    groups = {}
    for entry in ESTIMATORS:
        package = ".".join(entry.module.split(".")[:2])
        groups.setdefault(package, []).append(entry.name)
        documented.add(f"ordstat.{entry.name}")
        seen.add(id(estimator_class(entry)))
    for package, names in groups.items():
        out += [_underline(ESTIMATOR_GROUPS.get(package, package), "~"), "",
                _autosummary("ordstat", names, template="autosummary/estimator.rst")]
    for title, module_name, intro, extra in SECTIONS:
        module = importlib.import_module(module_name)
        names = []
        for name in [*getattr(module, "__all__", ()), *extra]:
            if name.startswith("__") or name in names:
                continue
            obj = getattr(module, name)
            if not _documentable(obj) or id(obj) in seen:
                continue
            seen.add(id(obj))
            names.append(name)
            documented.add(f"{module_name}.{name}")
        if names:
            out += [_underline(title, "-"), "", intro, "", _autosummary(module_name, names)]
    return "\n".join(out)


# ---- the gallery ------------------------------------------------------------------------------

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _fence(text, info="text"):
    """A fenced block: source code (``info="python"``) or an output (shown as such)."""
    text = _ANSI.sub("", text).rstrip("\n")
    ticks = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", text)), default=0))
    if info == "text":
        return f"{ticks}{{code-block}} text\n:class: ordstat-output\n{text}\n{ticks}\n"
    return f"{ticks}{info}\n{text}\n{ticks}\n"


def _joined(value):
    return "".join(value) if isinstance(value, list) else value


def notebook_page(stem, nb, images: Path):
    """(markdown source, title, description, first image name, images {name: bytes})."""
    parts, figures = [], {}
    title, description = stem, ""
    for cell in nb["cells"]:
        source = _joined(cell["source"])
        if cell["cell_type"] == "markdown":
            if not parts:
                lines = source.strip().splitlines()
                if lines and lines[0].startswith("# "):
                    title = lines[0][2:].strip()
                    paragraphs = "\n".join(lines[1:]).strip().split("\n\n")
                    description = " ".join(paragraphs[0].split()) if paragraphs[0] else ""
            parts.append(source.strip() + "\n")
            continue
        if cell["cell_type"] != "code":
            continue
        parts.append(_fence(source, "python"))
        for output in cell.get("outputs", []):
            if output["output_type"] == "stream":
                parts.append(_fence(_joined(output["text"])))
            elif output["output_type"] == "error":
                parts.append(_fence("\n".join(output.get("traceback", []))))
            elif "data" in output:
                data = output["data"]
                if "image/png" in data:
                    name = f"{stem}_{len(figures) + 1:02d}.png"
                    figures[name] = base64.b64decode(_joined(data["image/png"]))
                    parts.append(f"![]({images.name}/{name})\n")
                elif "text/html" in data:
                    parts.append("```{raw} html\n" + _joined(data["text/html"]).strip()
                                 + "\n```\n")
                elif "text/plain" in data:
                    parts.append(_fence(_joined(data["text/plain"])))
    script = f"../../vignettes/{stem}.py"
    notebook = f"../../vignettes/_build/{stem}.ipynb"
    downloads = (f"Download this vignette as a {{download}}`Python script <{script}>` "
                 f"(jupytext percent format) or as an executed "
                 f"{{download}}`Jupyter notebook <{notebook}>`.\n")
    # the notebook's title, then the downloads, then the rest
    if parts and parts[0].startswith("# "):
        head, _, rest = parts[0].partition("\n")
        parts[0:1] = [head + "\n", downloads, rest]
    else:
        parts[0:0] = [f"# {title}\n", downloads]
    body = "\n".join(parts)
    first = next(iter(figures), None)
    return body, title, description, first, figures


def gallery(app=None):
    """Write gallery/*.md and their figures from vignettes/_build/*.ipynb; returns the missing
    notebooks' names."""
    import json

    out = DOCS / "gallery"
    images = out / "images"
    stems = sorted(p.stem for p in VIGNETTES.glob("*.py") if p.name != "render.py")
    cards, missing = [], []
    for stem in stems:
        path = VIGNETTES / "_build" / f"{stem}.ipynb"
        if not path.exists():
            missing.append(stem)
            continue
        nb = json.loads(path.read_text(encoding="utf-8"))
        body, title, description, first, figures = notebook_page(stem, nb, images)
        write_if_changed(out / f"{stem}.md", body)
        for name, data in figures.items():
            write_if_changed(images / name, data)
        cards.append((stem, title, description, first))
    index = ["# Gallery", "",
             "Walkthroughs of ordstat in Python, executed by `make vignettes` "
             "(`vignettes/render.py`); the R package's vignette is among the "
             "[R package's pages](../r_package.md).", "",
             "```{toctree}", ":hidden:", "", *(stem for stem, *_ in cards), "```", "",
             "::::{container} ordstat-gallery", ""]
    for stem, title, description, first in cards:
        index += [":::{container} ordstat-gallery-card", ""]
        if first:
            index += [f"```{{image}} images/{first}", f":alt: {title}",
                      f":target: {stem}.html", ":class: ordstat-gallery-thumb", "```", ""]
        index += [f"**[{title}]({stem}.md)**", "", description, "", ":::", ""]
    index += ["::::", ""]
    if missing:
        index += ["```{warning}", "Not rendered (run `make vignettes`): "
                  + ", ".join(missing) + ".", "```", ""]
    write_if_changed(out / "index.md", "\n".join(index))
    return missing


# ---- the R package's help topics --------------------------------------------------------------

def _rd_field(text, field):
    match = re.search(r"\\" + field + r"\{((?:[^{}]|\{[^{}]*\})*)\}", text)
    return " ".join(match.group(1).split()) if match else ""


def r_topics() -> str:
    rows = ["| topic | functions and methods | title |", "|---|---|---|"]
    for rd in sorted((RPKG / "man").glob("*.Rd")):
        text = rd.read_text(encoding="utf-8")
        title = re.sub(r"\\[a-zA-Z]+\{([^{}]*)\}", r"\1", _rd_field(text, "title"))
        name = _rd_field(text, "name") or rd.stem
        aliases = re.findall(r"\\alias\{([^{}]*)\}", text)
        functions = ", ".join(f"`{a}`" for a in aliases if a != name)
        rows.append(f'| <a href="r/reference/{rd.stem}.html">{name}</a> | {functions} '
                    f'| {title} |')
    return "\n".join(rows) + "\n"


# ---- docstrings inherited from scikit-learn ---------------------------------------------------

# ":ref:`text <label>`", ":term:`text`": labels of scikit-learn's own documentation
_SKLEARN_ROLE = re.compile(r":(?:ref|term):`([^`<]*?)\s*(?:<[^`>]*>)?`")


def plain_sklearn_roles(app, what, name, obj, options, lines):
    """Docstrings inherited from scikit-learn (``score``, ``get_params``, ...) cite labels of
    scikit-learn's documentation, unknown here (no intersphinx: the build is offline): keep
    their text, drop the link."""
    module = getattr(obj, "__module__", None) or ""
    if module.split(".")[0] != "sklearn":
        return
    lines[:] = [_SKLEARN_ROLE.sub(lambda m: m.group(1), line) for line in lines]


# ---- search excerpts on a site opened from disk ------------------------------------------------

PAGE_TEXT_JS = "ordstat_page_text.js"


def write_page_texts(app, exception):
    """Write _static/ordstat_page_text.js, every page's text by page name, for
    _static/ordstat_search.js: Sphinx's search fetch()es each result's page for its excerpt,
    which a browser refuses for file:// URLs, so a site opened from disk showed none."""
    if exception is not None or app.builder.format != "html":
        return
    import json

    texts = {name: app.env.get_doctree(name).astext() for name in sorted(app.env.found_docs)}
    write_if_changed(Path(app.outdir) / "_static" / PAGE_TEXT_JS,
                     f"window.ORDSTAT_PAGE_TEXT = {json.dumps(texts)};\n")


def search_page_script(app, pagename, templatename, context, doctree):
    if pagename == "search":
        app.add_js_file("ordstat_search.js")


# ---- the Methods tables ------------------------------------------------------------------------

def autosummary_table_visit(translator, node):
    """Write an autosummary table as it is: autosummary's own HTML visitor turns the spaces of
    the signatures ("fit(X, y[, sample_weight])") into non-breaking ones, so that a long one
    pushed a class's Methods table past the article's edge at 1280 px."""


def skip_node(translator, node):
    pass


def generate(app, config):
    documented = set()
    write_if_changed(DOCS / "api" / "index.rst", api_index(documented))
    # autosummary writes the stubs of the objects listed; drop those of objects no longer listed
    for stub in (DOCS / "api" / "generated").glob("*.rst"):
        if stub.stem not in documented:
            stub.unlink()
    missing = gallery(app)
    if missing:
        from sphinx.util import logging
        logging.getLogger(__name__).warning(
            "vignettes not executed (no vignettes/_build/NAME.ipynb): %s; run `make vignettes`",
            ", ".join(missing))
    write_if_changed(DOCS / "_generated" / "r_topics.md", r_topics())


def setup(app):
    app.connect("config-inited", generate)
    app.connect("autodoc-process-docstring", plain_sklearn_roles)
    app.connect("html-page-context", search_page_script)
    app.connect("build-finished", write_page_texts)
    from sphinx.ext.autosummary import autosummary_table
    app.add_node(autosummary_table, override=True, html=(autosummary_table_visit, skip_node))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
