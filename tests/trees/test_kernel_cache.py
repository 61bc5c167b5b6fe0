"""The tree kernels' on-disk numba cache when several processes compile at once.

Eight processes compile eight closures of one function (one index file, as the criteria's
closures of ``make_level_search``/``make_level_grow``) at the same moment into an empty cache;
a ninth process must then load every one from the cache and get its own closure's result.
Without the lock of ``ordstat.trees._kernels.cache.LockedCache`` this failed in 2 of 3 runs on a
2-core machine (entries lost, or one closure's index entry pointing at another's code).
"""

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytest.importorskip("numba")

ROOT = Path(__file__).resolve().parents[2]
N = 8

MODULE = """
from ordstat.trees._kernels.cache import jit

def make(k):
    def f(x):
        return x + k
    return jit(f)
"""

WORKER = """
import sys, time
import closures
f = closures.make(int(sys.argv[1]))
time.sleep(max(0.0, float(sys.argv[2]) - time.time()))  # all wake together, none spinning
f(1.0)
"""

CHECK = """
import closures
for k in range({n}):
    f = closures.make(k)
    value = f(1.0)
    print(k, value, sum(f.stats.cache_hits.values()))
"""


@pytest.mark.slow
def test_concurrent_compilations_do_not_corrupt_the_cache(tmp_path):
    (tmp_path / "closures.py").write_text(textwrap.dedent(MODULE))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(tmp_path)]))
    start = time.time() + 5.0  # after every process has imported numba
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, str(k), repr(start)],
                                cwd=tmp_path, env=env) for k in range(N)]
    assert all(w.wait(timeout=300) == 0 for w in workers)
    out = subprocess.run([sys.executable, "-c", CHECK.format(n=N)], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300, check=True).stdout
    rows = [line.split() for line in out.splitlines()]
    assert [(int(k), float(v)) for k, v, _ in rows] == [(k, 1.0 + k) for k in range(N)]
    assert all(int(hits) == 1 for _, _, hits in rows), out  # every closure from the cache



SEARCH = """
import sys
import numpy as np
from ordstat.trees import _fast
from ordstat.trees.criteria import get_criterion
rng = np.random.default_rng(0)
m, K = 40, 4
xs = np.sort(np.round(rng.normal(size=(1, m)), 1), axis=1)
ys = rng.integers(0, K, size=(1, m)).astype(np.int8)
ws = rng.uniform(0.5, 2.0, size=(1, m))
totals = np.bincount(ys[0], weights=ws[0], minlength=K)[None, :]
left = np.array([np.bincount(ys[0, :t + 1], weights=ws[0, :t + 1], minlength=K)
                 for t in range(m - 1)])
admissible = xs[0, :-1] < xs[0, 1:]
for name in sys.argv[1].split(","):
    criterion = get_criterion(name)
    good, pos = np.empty((1, 1)), np.empty((1, 1), dtype=np.int64)
    _fast.level_search(criterion)(xs, ys, ws, np.array([0]), np.array([m]), totals, 1,
                                  criterion.parameter(K), np.ones((1, 1), dtype=bool), good,
                                  pos)
    # the compiled search's best cut and the criterion's own (numpy) best goodness
    print(name, repr(float(good[0, 0])),
          repr(float(criterion(left, totals - left)[admissible].max())))
"""


@pytest.mark.slow
def test_kernels_of_two_criteria_compiled_apart_load_together(tmp_path):
    """Two processes compile the level search of two criteria at once into an empty cache; a
    third loads both and must find each criterion's best cut (its goodness differs between
    the two). Before the kernels were named after their criterion
    (``_kernels.cache.per_criterion``) the two compilations gave the scans they call the same
    symbols, and the third process searched with one criterion's kernel and the other's scan.
    (The level search is the smallest kernel built of per-criterion scans; the levels of
    the trees call them the same way.)"""
    env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(tmp_path))
    workers = [subprocess.Popen([sys.executable, "-c", SEARCH, name], env=env,
                                stdout=subprocess.DEVNULL) for name in ("entropy", "ordinal")]
    assert all(w.wait(timeout=600) == 0 for w in workers)
    out = subprocess.run([sys.executable, "-c", SEARCH, "entropy,ordinal"], env=env,
                         capture_output=True, text=True, timeout=600, check=True).stdout
    rows = [line.split() for line in out.splitlines()]
    assert [name for name, _, _ in rows] == ["entropy", "ordinal"], out
    assert rows[0][2] != rows[1][2]  # the two criteria's best goodness differ
    for _, compiled, numpy_best in rows:
        assert float(compiled) == pytest.approx(float(numpy_best), rel=1e-12), out
    assert len(list(tmp_path.rglob("*level_search*.nbi"))) == 2  # each criterion's own index


def test_a_change_in_any_kernel_file_changes_every_kernel_key(tmp_path):
    """numba keys a cached kernel by its own source file, but a kernel's machine code holds
    the helpers it calls from the package's other files: the key also hashes them all."""
    import shutil

    import numpy as np

    from ordstat.trees._kernels import cache

    folder = tmp_path / "kernels"
    shutil.copytree(Path(cache.__file__).parent, folder,
                    ignore=shutil.ignore_patterns("__pycache__"))
    before = cache.sources_version(folder)
    assert before == cache._SOURCES
    helpers = folder / "nodes.py"
    helpers.write_text(helpers.read_text() + "\n# edited\n")
    assert cache.sources_version(folder) != before
    key = cache.LockedCache(_plus_one)._index_key((), _Codegen())
    assert key[-2:] == (np.__version__, cache._SOURCES)


def _plus_one(x):
    return x + 1


class _Codegen:
    def magic_tuple(self):
        return ()



NESTED = """
from ordstat.trees._kernels.cache import jit


def make(k):
    @jit
    def inner(x):
        return x + k

    def outer(x):
        return inner(x) * 2.0
    return jit(outer)
"""

NESTED_RUN = """
import nested
f = nested.make(3)
print(f(1.0), sum(f.stats.cache_hits.values()), sum(f.stats.cache_misses.values()))
"""


def test_a_kernel_calling_a_kernel_of_its_closure_is_read_from_the_cache(tmp_path):
    """The compiled levels of a tree are a closure holding the compiled level (a dispatcher),
    which pickles differently in each process: numba's key missed the cache in every new
    process, which compiled the tree's levels again (8 s on each first forest fit)."""
    (tmp_path / "nested.py").write_text(NESTED)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(tmp_path)]),
               NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    runs = [subprocess.run([sys.executable, "-c", NESTED_RUN], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=300, check=True).stdout.split()
            for _ in range(2)]
    assert runs[0] == ["8.0", "0", "1"]  # compiled (and saved)
    assert runs[1] == ["8.0", "1", "0"]  # then read from the cache


def test_shipped_machine_code_for_a_generic_processor_is_loaded_instead_of_compiled(tmp_path):
    """A build process (``NUMBA_CPU_NAME=generic``, ``ORDSTAT_SHIP_KERNELS``) writes the
    machine code into the package's ``_machine_code`` folder, not numba's cache; a process
    on this processor, with an empty numba cache, then loads it (a cache hit, nothing
    compiled or written) and gets the same result."""
    import shutil

    from ordstat.trees._kernels import cache

    pkg = tmp_path / "pkg"
    shutil.copytree(ROOT / "ordstat", pkg / "ordstat",
                    ignore=shutil.ignore_patterns("__pycache__", "_machine_code"))
    (pkg / "nested.py").write_text(NESTED)
    shipped = pkg / Path(cache.SHIPPED).relative_to(ROOT)

    def run(cache_dir, **env):
        env = {**{k: v for k, v in os.environ.items() if k != "NUMBA_CPU_NAME"},
               "PYTHONPATH": str(pkg), "NUMBA_CACHE_DIR": str(cache_dir), **env}
        return subprocess.run([sys.executable, "-c", NESTED_RUN], cwd=pkg, env=env,
                              capture_output=True, text=True, timeout=300,
                              check=True).stdout.split()

    build, user = tmp_path / "build-cache", tmp_path / "user-cache"
    assert run(build, NUMBA_CPU_NAME="generic", **{cache.SHIP_ENV: "1"}) == ["8.0", "0", "1"]
    assert any(shipped.glob("nested.make.locals.outer*.nbi"))
    assert not any(build.rglob("*.nbi"))
    assert run(user) == ["8.0", "1", "0"]
    assert not any(user.rglob("*.nbi"))


def test_shipping_needs_the_generic_processor(monkeypatch):
    import numba

    from ordstat.trees._kernels import cache

    monkeypatch.setattr(numba.config, "CPU_NAME", None)
    with pytest.raises(RuntimeError, match="NUMBA_CPU_NAME is not 'generic'"):
        cache._ship(cache.LockedCache(_plus_one), (), None)


HASHED = """
from ordstat.trees._kernels.cache import _closure_hash, code_version, jit


def make(k):
    @jit
    def inner(x):
        return x + k

    def helper(x):
        return x in {"a", "b", "c", "d"}

    def outer(x):
        return inner(x) if helper("a") else x
    return outer


def gain(state, total, param, nl, n):  # a user criterion's, with a comprehension
    return sum([x * x for x in state]) / n


print(_closure_hash(make(3)), code_version(gain))
"""


def test_closure_keys_are_the_same_in_every_process_and_installation(tmp_path):
    """The cells' hash of a closure holding a compiled kernel and a local function (with a
    set constant), and the code version of a function holding a comprehension (a code object
    whose repr holds its address), are the same whatever the process's string hashing and the
    folder of the module (the shipped machine code is built in one folder and read in
    another)."""
    keys = set()
    for folder, seed in (("a", "1"), ("b", "2")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "hashed.py").write_text(HASHED)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(tmp_path / folder)]),
                   PYTHONHASHSEED=seed)
        keys.add(subprocess.run([sys.executable, "-c", "import hashed"], env=env,
                                capture_output=True, text=True, timeout=300,
                                check=True).stdout)
    assert len(keys) == 1, keys


def test_an_index_naming_a_type_that_moved_is_compiled_again(tmp_path):
    """numba unpickles a kernel file's whole cache index, whose keys hold the argument types,
    before it compares the file's stamp: after a record type moved to another module (the
    tree growths' records did, from ``_grow`` to ``_node_arrays``) every call of the kernel
    raised instead of compiling it again (``_kernels.cache.ReadableIndex``)."""
    (tmp_path / "kern.py").write_text(textwrap.dedent("""
        from ordstat.trees._kernels.cache import jit

        def first(r):
            return r.x + 1.0

        first = jit(first)
    """))
    record = "from typing import NamedTuple\n\nclass Rec(NamedTuple):\n    x: float\n"
    (tmp_path / "old_home.py").write_text(record)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(tmp_path)]),
               NUMBA_CACHE_DIR=str(tmp_path / "cache"))

    def call(home):
        return subprocess.run(
            [sys.executable, "-c", f"import kern, {home}; print(kern.first({home}.Rec(2.0)))"],
            env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)

    assert call("old_home").stdout.split() == ["3.0"]
    assert list((tmp_path / "cache").rglob("*.nbi"))  # an index naming old_home.Rec
    (tmp_path / "old_home.py").unlink()
    (tmp_path / "new_home.py").write_text(record)
    moved = call("new_home")
    assert moved.returncode == 0, moved.stderr
    assert moved.stdout.split() == ["3.0"]
