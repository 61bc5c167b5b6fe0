"""The import structure: no cycles between modules or between subpackages, and the arrows point
down (the shared core imports no subpackage; no other part of ordstat imports the R bridge,
ordstat.r).

Every ``import`` statement counts, also those inside functions (imported on use): a lazy import
hides a cycle from Python, not from the reader.

The layout of the two languages: the Python package in ordstat/, the R package in r_bridge/ (a
sibling, as LightGBM's and xgboost's R-package/), neither inside the other; the R files that
ordstat.r sources into rpy2's R are the R package's own (linked from ordstat/r/R) and need
nothing else of it.
"""

import ast
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGES = ("ordstat",)


def _module_name(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules():
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            found[_module_name(path)] = path
    return found


MODULES = _modules()


def _resolve(node, module, is_package):
    """The modules an import statement of ``module`` refers to (ours only)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = module if is_package else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        base = base.rpartition(".")[0]
    target = ".".join(p for p in (base if node.level else "", node.module or "") if p)
    # "from pkg import name": name may be a submodule
    return [f"{target}.{alias.name}" if f"{target}.{alias.name}" in MODULES else target
            for alias in node.names]


def _imports():
    graph = {}
    for module, path in MODULES.items():
        is_package = path.name == "__init__.py"
        targets = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _resolve(node, module, is_package):
                    # the nearest module of ours that the target names
                    while target and target not in MODULES:
                        target = target.rpartition(".")[0]
                    if target and target != module:
                        targets.add(target)
        graph[module] = targets
    return graph


GRAPH = _imports()


def _unit(module):
    """The subpackage (or root module) a module belongs to: ordstat.trees, ordstat._core,
    ordstat.metrics, ordstat.r, ..."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "ordstat" else parts[0]


def _cycles(graph):
    """The strongly connected components with more than one node (Tarjan)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _unit_graph():
    units = {}
    for module, targets in GRAPH.items():
        if module == "ordstat":  # the package's lazy exports name every subpackage
            continue
        units.setdefault(_unit(module), set()).update(
            _unit(t) for t in targets if _unit(t) != _unit(module) and t != "ordstat")
    return units


def test_the_scan_sees_the_imports():
    assert "ordstat._core.labels" in GRAPH["ordstat._core.validation"]
    assert "ordstat.trees" in GRAPH["ordstat.ensemble._bagging"]
    assert "ordstat._core.names" in GRAPH["ordstat.r._rpart"]


def test_no_import_cycle_between_modules():
    assert _cycles(GRAPH) == []


def test_no_import_cycle_between_subpackages():
    assert _cycles(_unit_graph()) == []


def test_the_core_imports_no_subpackage():
    for module, targets in GRAPH.items():
        if _unit(module) == "ordstat._core":
            assert {_unit(t) for t in targets} <= {"ordstat._core", "ordstat.exceptions"}, module


def test_ordstat_never_imports_the_r_bridge():
    for module, targets in GRAPH.items():
        if _unit(module) != "ordstat.r":
            assert not any(_unit(t) == "ordstat.r" for t in targets), module


# --- the two languages ------------------------------------------------------------------------

RPKG = ROOT / "r_bridge"


def test_the_r_package_is_a_sibling_of_the_python_package():
    assert (RPKG / "DESCRIPTION").read_text().startswith("Package: ordstat\n")
    for part in ("NAMESPACE", "R", "man", "tests", "vignettes"):
        assert (RPKG / part).exists(), part
    # no R package inside the Python one, no Python package inside the R one
    assert not [p for p in (ROOT / "ordstat").rglob("*") if p.name in ("DESCRIPTION", "NAMESPACE")]
    assert not list(RPKG.rglob("__init__.py"))


def _sourced_r_files():
    """The R files ordstat.r sources (ordstat/r/_rpart.py's R_FILES, read without importing it:
    importing starts R)."""
    text = (ROOT / "ordstat" / "r" / "_rpart.py").read_text()
    return ast.literal_eval(re.search(r"^R_FILES = (\(.*?\))$", text, re.M).group(1))


def test_the_r_files_ordstat_r_sources_are_the_r_package_s():
    # one copy of each: ordstat/r/R holds links to r_bridge/R and nothing else
    links = {p.name: p for p in (ROOT / "ordstat" / "r" / "R").iterdir()}
    assert set(links) == set(_sourced_r_files())
    for name, path in links.items():
        assert path.is_symlink(), name
        assert path.resolve() == (RPKG / "R" / name).resolve(), name


def _r_code(path):
    """The code of an R file without its comments and string literals."""
    text = re.sub(r"#.*", "", path.read_text())
    return re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'', '""', text)


def _r_definitions(path):
    return set(re.findall(r"^([.\w]+) <- ", _r_code(path), re.M))


def test_the_sourced_r_files_need_nothing_else_of_the_r_package():
    sourced = [RPKG / "R" / name for name in _sourced_r_files()]
    others = {name: path.name for path in (RPKG / "R").glob("*.R") if path not in sourced
              for name in _r_definitions(path)}
    for path in sourced:
        code = _r_code(path)
        assert "reticulate" not in code, path.name
        # names the file assigns itself (local variables too) are its own
        own = set(re.findall(r"(?<![\w.$@])([.A-Za-z][.\w]*)\s*<-", code))
        used = set(re.findall(r"(?<![\w.$@:])([.A-Za-z][.\w]*)", code)) - own
        assert {n: others[n] for n in used if n in others} == {}, path.name
