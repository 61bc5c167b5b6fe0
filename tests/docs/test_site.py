"""The documentation site built by ``python docs/build.py`` (``make docs``), opened in a real
headless browser (Debian's chromium-headless-shell): the index, one API page per registered
estimator, the vignette gallery with its figures, the R package's pages.

Skips when the site is not built, unless ORDSTAT_REQUIRE_DOCS=1 (set by ``make test``, after
``make docs``): then a missing site or browser fails, as ORDSTAT_REQUIRE_R does for R.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import os
import re
import shutil
import struct
import subprocess
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from ordstat._core.registry import ESTIMATORS, estimator_class

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "docs" / "_build" / "html"
VIGNETTES = sorted(p.stem for p in (ROOT / "vignettes").glob("*.py") if p.name != "render.py")
R_TOPICS = sorted(p.stem for p in (ROOT / "r_bridge" / "man").glob("*.Rd"))
# pkgdown's reference index leaves out topics marked internal (the re-exports page)
R_INDEXED = [t for t in R_TOPICS if "\\keyword{internal}" not in
             (ROOT / "r_bridge" / "man" / f"{t}.Rd").read_text(encoding="utf-8")]
REQUIRE = os.environ.get("ORDSTAT_REQUIRE_DOCS", "").strip().lower() in ("1", "true", "yes")
BROWSER = next(filter(None, map(shutil.which, ("chromium-headless-shell", "chromium",
                                               "chromium-browser"))), None)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _unavailable(reason):
    if REQUIRE:
        pytest.fail(f"ORDSTAT_REQUIRE_DOCS is set but {reason}")
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def site():
    if not (SITE / "index.html").exists():
        _unavailable(f"the documentation is not built ({SITE}; python docs/build.py)")
    if BROWSER is None:
        _unavailable("no headless Chromium (Debian package chromium-headless-shell)")
    return SITE


@functools.lru_cache(maxsize=None)
def dom(page: Path) -> str:
    """The page's DOM after its scripts ran, as the browser serialises it."""
    assert page.exists(), f"{page} is missing"
    result = subprocess.run(
        [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
         "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "</html>" in result.stdout, result.stderr[-2000:]
    return result.stdout


def measured(page: Path, script: str, tmp_path: Path, width=1280, query=""):
    """What ``script`` (a JavaScript expression) evaluates to, as JSON, once ``page`` has
    loaded in a ``width`` x 900 window: a copy of the page in ``tmp_path`` (its links resolved
    against the site by a <base>) runs it and writes the result into its DOM."""
    html = page.read_text(encoding="utf-8")
    base = f'<base href="{page.parent.as_uri()}/">'
    probe = ("<script>window.addEventListener('load', () => setTimeout(() => {"
             "const out = document.createElement('pre'); out.id = 'ordstat-measured';"
             f"out.textContent = JSON.stringify({script}); document.body.appendChild(out);"
             "}, 500));</script>")
    copy = tmp_path / page.name
    html = html.replace("<head>", "<head>" + base, 1).replace("</body>", probe + "</body>", 1)
    copy.write_text(html, encoding="utf-8")
    result = subprocess.run(
        [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
         f"--window-size={width},900", "--dump-dom", copy.as_uri() + query],
        capture_output=True, text=True, timeout=120)
    out = re.search(r'<pre id="ordstat-measured">(.*?)</pre>', result.stdout, re.S)
    assert out, f"the probe did not run: {result.stderr[-2000:]}"
    return json.loads(unescape(out.group(1)))


class _Links(HTMLParser):
    """href and src of a page, and its <img> sources."""

    def __init__(self):
        super().__init__()
        self.links, self.images = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("href", "src"):
            if attrs.get(name):
                self.links.append(attrs[name])
        if tag == "img" and attrs.get("src"):
            self.images.append(attrs["src"])


def links(html):
    parser = _Links()
    parser.feed(html)
    return parser


def local_target(page: Path, url: str):
    """The file a relative link of ``page`` points to, or None for other links."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path:
        return None
    return (page.parent / unquote(parts.path)).resolve()


def png_size(path: Path):
    """(width, height) of a PNG file, read from its IHDR chunk; fails on anything else."""
    data = path.read_bytes()[:24]
    assert data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR", f"{path} is not a PNG file"
    return struct.unpack(">II", data[16:24])


def images_loaded(paths, tmp_path):
    """naturalWidth of each image once loaded in the browser (0 when it does not load): a
    small page shows them and writes the widths into its DOM."""
    tags = "".join(f'<img src="{p.as_uri()}">' for p in paths)
    page = tmp_path / "images.html"
    page.write_text(
        "<html><body>" + tags + '<pre id="out"></pre><script>window.onload = () => {'
        'document.getElementById("out").textContent = JSON.stringify('
        '[...document.images].map(i => i.naturalWidth));};</script></body></html>')
    out = re.search(r'<pre id="out">(.*?)</pre>', dom.__wrapped__(page), re.S)
    assert out and out.group(1), "the page's script did not run"
    return json.loads(out.group(1))


# ---- the index ---------------------------------------------------------------------------------

def test_index_renders_with_its_scripts(site):
    html = dom(site / "index.html")
    # the theme's JavaScript sets the colour theme on <html>; the file itself has none
    assert re.search(r'<html[^>]*data-theme="(light|dark)"', html)
    assert 'data-theme="' not in (site / "index.html").read_text(encoding="utf-8")[:2000]
    assert "Classification into ordered categories" in html
    targets = {local_target(site / "index.html", u) for u in links(html).links}
    for page in ("quickstart", "user_guide", "features", "gallery/index", "api/index",
                 "r_package", "dask", "architecture", "trees_engine", "algorithms",
                 "references"):
        assert (site / f"{page}.html").resolve() in targets, page


def test_index_opens_with_an_example_and_a_figure_before_the_install(site, tmp_path):
    html = dom(site / "index.html")
    example = html.find("OrdinalTreeClassifier")
    figure = html.find("<figure")
    install = html.find('id="install"')
    assert 0 <= example < figure < install, (example, figure, install)
    images = [local_target(site / "index.html", src) for src in links(html).images]
    images = [i for i in images if i is not None and i.suffix == ".png"]
    assert images and all(w > 10 for w in images_loaded(images, tmp_path))


def _headings(markdown):
    """The ## and ### headings of a Markdown page, outside its code blocks."""
    markdown = re.sub(r"^```.*?^```", "", markdown, flags=re.S | re.M)
    return re.findall(r"^#{2,3} (.+)$", markdown, re.M)


def test_guide_pages_render_their_sections(site):
    """The user guide, getting started and R pages are written in docs/ (the README links to
    them): every section heading of their source is a heading of the built page."""
    for page in ("user_guide", "quickstart", "r_package", "features"):
        headings = _headings((ROOT / "docs" / f"{page}.md").read_text(encoding="utf-8"))
        assert len(headings) >= 3, page
        # Sphinx's smart quotes print an apostrophe as a typographic one
        html = dom(site / f"{page}.html").replace("\u2019", "'").replace("&#8217;", "'")
        for heading in headings:
            text = re.escape(heading.replace("`", "")).replace(r"\ ", r"\s+")
            assert re.search(r"<h[23][^>]*>\s*(?:<[^>]+>\s*)*" + text, html), \
                f"{page}: {heading}"
    features = dom(site / "features.html")
    for entry in ESTIMATORS:  # each has an item with its paper (test_registries)
        assert entry.name in features, entry.name


# ---- the API reference -------------------------------------------------------------------------

def _parameters_section(html):
    """The text of the first "Parameters" field of a numpydoc page (the class's)."""
    match = re.search(r'<dt class="field-\w+">Parameters(.*?)(?:<dt class="field-\w+">|$)',
                      html, re.S)
    assert match, "no Parameters section"
    return re.sub(r"<[^>]+>", " ", match.group(1))


@pytest.mark.parametrize("entry", ESTIMATORS, ids=lambda e: e.name)
def test_estimator_page(site, entry):
    page = site / "api" / "generated" / f"ordstat.{entry.name}.html"
    assert page.exists(), f"no API page for {entry.name}"
    html = dom(page)
    assert re.search(rf"<h1>{entry.name}\b", html)
    assert re.search(rf'<dt class="sig[^"]*" id="ordstat.{entry.name}">', html)
    parameters = _parameters_section(html)
    for name in inspect.signature(estimator_class(entry).__init__).parameters:
        if name != "self":
            assert re.search(rf"\b{name}\b", parameters), f"{entry.name}: {name} undocumented"
    # the methods (fit, predict, ...) are documented on the page
    assert f'id="ordstat.{entry.name}.fit"' in html


def _page_toc(html):
    """The entries of the page's table of contents ("On this page"), as text."""
    nav = re.search(r'<nav [^>]*class="[^"]*page-toc[^"]*"[^>]*>(.*?)</nav>', html, re.S)
    assert nav, "no page-toc"
    entries = re.findall(r'<a class="[^"]*nav-link[^"]*"[^>]*>(.*?)</a>', nav.group(1), re.S)
    return [" ".join(unescape(re.sub(r"<[^>]+>", "", e)).split()) for e in entries]


@pytest.mark.parametrize("entry", ESTIMATORS, ids=lambda e: e.name)
def test_estimator_page_toc_entries_are_distinct(site, entry):
    """"On this page" names each method once and briefly ("fit()"), not as entries that all
    begin with the class's name and are cut to the same text by the sidebar."""
    html = dom(site / "api" / "generated" / f"ordstat.{entry.name}.html")
    toc = _page_toc(html)
    assert toc[0] == entry.name and "fit()" in toc, toc
    assert len(set(toc)) == len(toc), toc
    assert not [e for e in toc[1:] if e.startswith(entry.name)], toc


_OVERFLOW = ("[...document.querySelectorAll('article.bd-article table')].filter(t => "
             "t.getBoundingClientRect().right > "
             "document.querySelector('article.bd-article').getBoundingClientRect().right + 1"
             " || t.parentElement.scrollWidth > t.parentElement.clientWidth + 1)"
             ".map(t => t.rows[0].textContent.trim().slice(0, 60))")


def test_api_tables_fit_the_article_at_1280_px(site, tmp_path):
    """No table of an API page (a class's Methods, above all) runs past the article's edge
    or needs a horizontal scroll in a 1280 px wide window."""
    clipped = {}
    for page in sorted((site / "api" / "generated").glob("ordstat.*.html")):
        if "<table" in page.read_text(encoding="utf-8"):
            tables = measured(page, _OVERFLOW, tmp_path)
            if tables:
                clipped[page.name] = tables
    assert not clipped, clipped


def test_search_results_show_excerpts_from_disk(site):
    """The search page opened from disk (file://) shows an excerpt of each page found, with
    the term searched highlighted (Sphinx fetches the pages, which browsers refuse there;
    _static/ordstat_search.js answers from the pages' text)."""
    result = subprocess.run(
        [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=8000",
         "--dump-dom", (site / "search.html").as_uri() + "?q=bootstrap"],
        capture_output=True, text=True, timeout=120)
    results = re.findall(r'<li class="kind-text">(.*?)</li>', result.stdout, re.S)
    assert results, "no page found for 'bootstrap'"
    excerpts = [r for r in results if '<p class="context">' in r]
    assert len(excerpts) == len(results), results[:3]
    assert all(re.search(r'<span class="highlighted">bootstrap</span>', e, re.I)
               for e in excerpts), excerpts[:3]


def test_api_index_links_every_page(site):
    index = site / "api" / "index.html"
    html = dom(index)
    targets = {local_target(index, u) for u in links(html).links}
    for entry in ESTIMATORS:
        assert (site / "api" / "generated" / f"ordstat.{entry.name}.html").resolve() \
            in targets, entry.name
    # every public class and function of these modules has a page (under this module's name
    # or another public one); names without a page must be data (ordstat.r.converter, ...)
    pages = {p.stem.rsplit(".", 1)[-1] for p in (site / "api" / "generated").glob("*.html")}
    for module_name in ("ordstat.metrics", "ordstat.model_selection", "ordstat.datasets",
                        "ordstat.plotting", "ordstat.exceptions", "ordstat.r"):
        module = importlib.import_module(module_name)
        for name in module.__all__:
            if name in pages:
                continue
            try:
                obj = getattr(module, name)
            except ImportError:  # ordstat.r's converter without rpy2
                continue
            assert not (inspect.isclass(obj) or inspect.isfunction(obj)), \
                f"no API page for {module_name}.{name}"


# ---- the gallery -------------------------------------------------------------------------------

def test_gallery_lists_every_vignette(site):
    index = site / "gallery" / "index.html"
    html = dom(index)
    parsed = links(html)
    targets = {local_target(index, u) for u in parsed.links}
    assert VIGNETTES
    for stem in VIGNETTES:
        assert (site / "gallery" / f"{stem}.html").resolve() in targets, stem
    assert len(parsed.images) >= len(VIGNETTES)  # a thumbnail each


@pytest.mark.parametrize("stem", VIGNETTES)
def test_gallery_page_shows_its_figures(site, stem, tmp_path):
    page = site / "gallery" / f"{stem}.html"
    html = dom(page)
    assert "<pre" in html  # code and outputs
    figures = [local_target(page, src) for src in links(html).images]
    figures = [f for f in figures if f is not None and f.suffix == ".png"]
    assert figures, f"{stem}: no figure"
    for figure in figures:
        assert figure.exists(), figure
        width, height = png_size(figure)
        assert width > 10 and height > 10
    assert all(w > 10 for w in images_loaded(figures, tmp_path)), "a figure does not load"


# ---- the R package's pages ---------------------------------------------------------------------

def test_r_reference_pages(site):
    reference = site / "r" / "reference"
    html = dom(reference / "index.html")
    targets = {local_target(reference / "index.html", u) for u in links(html).links}
    assert R_INDEXED
    for topic in R_INDEXED:
        assert (reference / f"{topic}.html").resolve() in targets, topic
    tree = re.sub(r"<[^>]+>", "", dom(reference / "ordinal_tree.html"))
    assert "ordinal_tree(" in tree and "Arguments" in tree


def test_r_vignette_and_links_from_the_site(site, tmp_path):
    article = site / "r" / "articles" / "ordinal-r.html"
    html = dom(article)
    figures = [local_target(article, s) for s in links(html).images]
    figures = [f for f in figures if f is not None]
    assert figures and all(f.exists() for f in figures)
    assert all(w > 10 for w in images_loaded(figures, tmp_path))
    r_package = site / "r_package.html"
    targets = {local_target(r_package, u) for u in links(dom(r_package)).links}
    assert article.resolve() in targets
    for topic in R_TOPICS:
        assert (site / "r" / "reference" / f"{topic}.html").resolve() in targets, topic


def test_r_pages_are_self_contained(site):
    """No link to the build machine's files (Debian's pkgdown links /usr/share/javascript)."""
    for page in (site / "r").rglob("*.html"):
        assert "file://" not in page.read_text(encoding="utf-8"), page


# ---- every page --------------------------------------------------------------------------------

def test_local_links_resolve(site):
    """Every relative link and image of every page points to a file of the site."""
    broken = []
    for page in site.rglob("*.html"):
        if "_sources" in page.parts or "_static" in page.parts:
            continue
        for url in links(page.read_text(encoding="utf-8")).links:
            target = local_target(page, url)
            if target is not None and not target.exists():
                broken.append(f"{page.relative_to(site)} -> {url}")
    assert not broken, "\n".join(broken[:20])
