"""The version of ordstat, in one place: pyproject.toml reads it (setuptools ``attr``, without
importing the package), ``ordstat.__version__`` and ``ordstat --version`` show it, and
tests/test_version.py checks that the R package, CITATION.cff and the changelogs agree."""

__version__ = "0.1.0"
