"""Execute the vignettes and render them to HTML with their figures (run by ``make test``).

Python vignettes are jupytext "percent" scripts, executed with nbclient and rendered with
nbconvert; R vignettes are R Markdown (those of the R package are in r_bridge/vignettes),
rendered with rmarkdown and pandoc. A vignette that fails,
or that renders without a figure, fails the run.

    python vignettes/render.py [--out DIR] [NAME ...]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the R vignettes are the R package's own (built by R CMD build too)
R_VIGNETTES = HERE.parent / "r_bridge" / "vignettes"


def render_python(path: Path, out: Path) -> Path:
    import jupytext
    import nbformat
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter

    nb = jupytext.read(path)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    # The kernel listens on the loopback interface only (nbclient's default).
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(HERE)}}).execute()
    n_figures = sum(1 for cell in nb.cells if cell.cell_type == "code"
                    for o in cell.get("outputs", []) if "image/png" in o.get("data", {}))
    if n_figures == 0:
        raise RuntimeError(f"{path.name}: no figure in the executed notebook")
    target = out / (path.stem + ".html")
    body, _ = HTMLExporter().from_notebook_node(nb)
    target.write_text(body, encoding="utf-8")
    nbformat.write(nb, out / (path.stem + ".ipynb"))
    return target


def render_r(path: Path, out: Path) -> Path:
    target = out / (path.stem + ".html")
    expr = (f"rmarkdown::render({str(path)!r}, output_dir = {str(out)!r}, "
            f"intermediates_dir = tempdir(), quiet = TRUE, envir = new.env())")
    subprocess.run(["Rscript", "-e", expr], check=True, cwd=HERE)
    if "<img" not in target.read_text(encoding="utf-8", errors="replace"):
        raise RuntimeError(f"{path.name}: no figure in the rendered page")
    return target


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="vignettes to render (default: all)")
    parser.add_argument("--out", default=str(HERE / "_build"), help="output folder")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    paths = (sorted(HERE.glob("*.py")) + sorted(HERE.glob("*.Rmd"))
             + sorted(R_VIGNETTES.glob("*.Rmd")))
    paths = [p for p in paths if p.name != "render.py"
             and (not args.names or p.stem in args.names)]
    # figures inline in the notebooks, whatever backend the caller's environment names
    os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    for path in paths:
        start = time.perf_counter()
        target = (render_r if path.suffix == ".Rmd" else render_python)(path, out)
        print(f"vignette {path.name}: {target} ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
