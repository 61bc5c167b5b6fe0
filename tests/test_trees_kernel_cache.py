"""The tree kernels' on-disk numba cache when several processes compile at once.

Eight processes compile eight closures of one function (one index file, as the criteria's
closures of ``make_level_search``/``make_level_grow``) at the same moment into an empty cache;
a ninth process must then load every one from the cache and get its own closure's result.
Without the lock of ``ordstat.trees._kernels.LockedCache`` this failed in 2 of 3 runs on a
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

ROOT = Path(__file__).resolve().parents[1]
N = 8

MODULE = """
from ordstat.trees._kernels import jit

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
