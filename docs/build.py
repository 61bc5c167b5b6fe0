"""Build the documentation site into docs/_build/html (run by ``make docs``).

    python docs/build.py [--strict] [--no-r] [--clean]

- the Python vignettes' executed notebooks (vignettes/_build/NAME.ipynb, written by ``make
  vignettes``) are rendered again only when missing or older than their script;
- Sphinx builds the site (incremental: a second build rereads only what changed); with
  ``--strict`` every Sphinx warning is an error (``-W --keep-going``), as ``make test`` runs it;
- at the same time pkgdown builds the R package's help pages and its vignette into
  docs/_build/html/r/ (incremental too: pkgdown's lazy mode). R needs the R package installed
  in a library (``--rlib``, default $R_LIBS or .rlib) and, for the vignette, the Python that
  the R package uses (``--r-python``, default $ORDSTAT_PYTHON or .venv-r/bin/python). Without
  Rscript the R pages are skipped with a warning, or fail the build with ``--strict``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
BUILD = DOCS / "_build"
HTML = BUILD / "html"
VIGNETTES = ROOT / "vignettes"
RPKG = ROOT / "r_bridge"
# Debian's pkgdown links Bootstrap and jQuery from /usr/share/javascript (libjs-* packages);
# the site gets its own copies so that it works when published.
DEBIAN_JS = Path("/usr/share/javascript")
VENDORED = {"bootstrap/css/bootstrap.min.css", "bootstrap/js/bootstrap.min.js",
            "bootstrap/fonts", "jquery/jquery.min.js"}
MATHJAX_CDN = "https://cdnjs.cloudflare.com/ajax/libs/mathjax/2.7.5/MathJax.js"


def log(message):
    print(f"docs: {message}", flush=True)


# ---- vignettes ---------------------------------------------------------------------------------

def stale_vignettes():
    """The Python vignettes whose executed notebook is missing or older than the script."""
    stale = []
    for script in sorted(VIGNETTES.glob("*.py")):
        if script.name == "render.py":
            continue
        notebook = VIGNETTES / "_build" / f"{script.stem}.ipynb"
        if not notebook.exists() or notebook.stat().st_mtime < script.stat().st_mtime:
            stale.append(script.stem)
    return stale


def render_vignettes(names):
    log(f"executing the vignettes {', '.join(names)} (make vignettes does it for make test)")
    subprocess.run([sys.executable, str(VIGNETTES / "render.py"), *names], check=True, cwd=ROOT)


# ---- R pages: pkgdown --------------------------------------------------------------------------

PKGDOWN_YML = """\
navbar:
  structure:
    left: [reference, articles, python]
    right: []
  components:
    python:
      text: ordstat (Python)
      href: ../index.html
"""

PKGDOWN_SCRIPT = """\
options(pkgdown.internet = FALSE)
args <- commandArgs(TRUE)
pkg <- pkgdown::as_pkgdown(args[1], override = list(destination = args[2]))
pkgdown::init_site(pkg)
pkgdown::build_home(pkg, preview = FALSE, quiet = TRUE)
pkgdown::build_reference(pkg, lazy = TRUE, examples = FALSE, devel = FALSE, preview = FALSE)
pkgdown::build_articles(pkg, lazy = TRUE, quiet = TRUE, preview = FALSE)
"""


def sync_tree(source: Path, target: Path):
    """Make ``target`` a copy of ``source``, copying only changed files and keeping their
    times (pkgdown's lazy mode compares them)."""
    wanted = set()
    for path in source.rglob("*"):
        relative = path.relative_to(source)
        wanted.add(relative)
        dest = target / relative
        if path.is_dir():
            dest.mkdir(parents=True, exist_ok=True)
        elif not dest.exists() or dest.stat().st_mtime != path.stat().st_mtime \
                or dest.stat().st_size != path.stat().st_size:
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest)
    for path in sorted(target.rglob("*"), reverse=True):
        if path.relative_to(target) not in wanted and path.name != "_pkgdown.yml":
            shutil.rmtree(path) if path.is_dir() else path.unlink()


def start_pkgdown(rlib, r_python, log_path):
    """Start pkgdown on a copy of the R package (pkgdown writes into the package's folder);
    returns the process."""
    source = BUILD / "r_bridge"
    sync_tree(RPKG, source)
    (source / "_pkgdown.yml").write_text(PKGDOWN_YML, encoding="utf-8")
    script = BUILD / "pkgdown.R"
    script.write_text(PKGDOWN_SCRIPT, encoding="utf-8")
    env = dict(os.environ, R_LIBS=str(rlib), ORDSTAT_PYTHON=str(r_python),
               ORDSTAT_REQUIRE_PYTHON="true",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT),
                                                        os.environ.get("PYTHONPATH")])))
    out = open(log_path, "w")
    return subprocess.Popen(["Rscript", str(script), str(source), str(HTML / "r")],
                            stdout=out, stderr=subprocess.STDOUT, env=env, cwd=BUILD)


def vendor_assets(site: Path):
    """Copy the Debian JavaScript files the pages link as file:// into site/deps and link the
    copies; MathJax (54 MB there) is linked from its CDN, as pkgdown does elsewhere."""
    deps = site / "deps"
    for item in VENDORED:
        source, dest = DEBIAN_JS / item, deps / item
        if source.is_dir():
            shutil.copytree(source, dest, dirs_exist_ok=True)
        elif source.exists() and not dest.exists():
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest)
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        if "file:///" not in text:
            continue
        prefix = "../" * (len(page.relative_to(site).parts) - 1) + "deps/"
        text = text.replace("file:///usr/share/javascript/mathjax/MathJax.js", MATHJAX_CDN)
        text = re.sub(r"file:///usr/share/javascript/", prefix, text)
        # pkgdown's integrity hashes are those of the CDN's files, not of Debian's
        text = re.sub(r'((?:src|href)="(?:\.\./)*deps/[^"]*")\s+integrity="[^"]*"'
                      r'(?:\s+crossorigin="[^"]*")?', r"\1", text)
        page.write_text(text, encoding="utf-8")


# ---- Sphinx ------------------------------------------------------------------------------------

def sphinx(strict, clean):
    from sphinx.cmd.build import build_main

    if clean:
        shutil.rmtree(BUILD / "doctrees", ignore_errors=True)
    args = ["-b", "html", "-q", "-d", str(BUILD / "doctrees"), str(DOCS), str(HTML)]
    if strict:
        args += ["-W", "--keep-going"]
    return build_main(args)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strict", action="store_true",
                        help="Sphinx warnings are errors; missing R pages fail the build")
    parser.add_argument("--no-r", action="store_true", help="skip the R package's pages")
    parser.add_argument("--clean", action="store_true", help="rebuild everything")
    parser.add_argument("--rlib", default=os.environ.get("R_LIBS") or str(ROOT / ".rlib"),
                        help="R library holding the installed R package")
    parser.add_argument("--r-python", default=os.environ.get("ORDSTAT_PYTHON")
                        or str(ROOT / ".venv-r" / "bin" / "python"),
                        help="the Python the R package uses (its vignette runs it)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.clean:
        shutil.rmtree(BUILD, ignore_errors=True)
    BUILD.mkdir(parents=True, exist_ok=True)

    stale = stale_vignettes()
    if stale:
        render_vignettes(stale)

    pkgdown, r_problem = None, None
    if args.no_r:
        pass
    elif shutil.which("Rscript") is None:
        r_problem = "Rscript is not on PATH"
    elif not (Path(args.rlib) / "ordstat").is_dir():
        r_problem = f"the R package is not installed in {args.rlib} (make rpkg)"
    else:
        pkgdown = start_pkgdown(args.rlib, args.r_python, BUILD / "pkgdown.log")

    status = sphinx(args.strict, args.clean)
    log(f"Sphinx {'failed' if status else 'done'} ({time.perf_counter() - start:.0f} s)")

    if pkgdown is not None:
        if pkgdown.wait() != 0:
            r_problem = "pkgdown failed:\n" + (BUILD / "pkgdown.log").read_text()
        else:
            vendor_assets(HTML / "r")
            log(f"R pages done ({time.perf_counter() - start:.0f} s)")
    if r_problem:
        log(f"R pages not built: {r_problem}")
        if args.strict:
            status = status or 1
    log(f"{'failed' if status else 'built'}: {HTML / 'index.html'} "
        f"({time.perf_counter() - start:.0f} s)")
    return status


if __name__ == "__main__":
    sys.exit(main())
