"""numba's on-disk cache for the tree kernels: read and written under a file lock keyed by
numpy's version (:class:`LockedCache`), after machine code shipped in the package (for a
generic processor), and kernels built for a criterion named after its code version
(:func:`per_criterion`)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import types

import numba
import numpy as np
from numba.core.caching import FunctionCache, IndexDataCacheFile
from numba.core.dispatcher import Dispatcher
from numba.core.serialize import dumps

try:
    import fcntl
except ImportError:  # not POSIX: numba's cache without the lock
    fcntl = None

__all__ = ["LockedCache", "ReadableIndex", "jit", "per_criterion", "code_version",
           "sources_version"]


class LockedCache(FunctionCache):
    """numba's on-disk cache (``cache=True``), read and written under a file lock.

    numba numbers the data files of a function's overloads without a lock, so two processes
    compiling different overloads of one function at once (joblib workers, pytest-xdist) can
    leave one overload's index entry pointing at the other's machine code. The closures of
    level kernels share one index per function (one overload per criterion), so this gave
    silently wrong trees until the cache was cleared.

    The index key also holds numpy's version: environments with different numpy releases that
    import the same source tree (a development checkout) must not share machine code. And it
    holds a hash of every source file of this package: numba keys a kernel by its own file,
    but the machine code of a kernel includes the compiled helpers it calls from the other
    files (the scan, the sorts, the level pieces), and a change there must not be served
    stale code.

    numba's key hashes a closure's cell contents pickled, and a compiled function (a
    dispatcher) pickles with an identifier drawn anew in each process: a kernel calling
    another kernel of its closure (a tree's levels calling its level) was never found in the
    cache by another process, which compiled it again (8 s of CPU on each forest's first fit).
    Its cells are hashed here with each dispatcher replaced by its function (see
    :func:`_closure_hash`).

    Machine code shipped with the package (:data:`SHIPPED`, compiled for a generic processor
    of the platform by :func:`ordstat._compile.ship_kernels`) is read first, without a lock
    (nothing writes it after the build): its key holds the generic processor instead of this
    one, and the rest of the key is the same, so it is found only by the same numba, numpy,
    Python and sources (their hashes, not file times); otherwise numba's cache as usual.
    """

    def __init__(self, py_func):
        super().__init__(py_func)
        stamp = self._impl.locator.get_source_stamp()
        self._cache_file = ReadableIndex(self._cache_path, self._impl.filename_base, stamp)
        self._shipped = ReadableIndex(SHIPPED, self._impl.filename_base, stamp)

    def _index_key(self, sig, codegen):
        sig_, magic, (code, cells) = super()._index_key(sig, codegen)
        if self._py_func.__closure__ is not None:
            cells = _closure_hash(self._py_func)
        return (sig_, magic, (code, cells), np.__version__, _SOURCES)

    def _shipped_key(self, sig, codegen):
        key = self._index_key(sig, codegen)
        return (key[0], (key[1][0], "generic", "")) + key[2:]

    def load_overload(self, sig, target_context):
        if os.path.isdir(SHIPPED):
            target_context.refresh()
            data = self._shipped.load(self._shipped_key(sig, target_context.codegen()))
            if data is not None:
                return self._impl.rebuild(target_context, data)
        with _locked(self.cache_path):
            return super().load_overload(sig, target_context)

    def save_overload(self, sig, data):
        if os.environ.get(SHIP_ENV):
            _ship(self, sig, data)
            return
        with _locked(self.cache_path):
            super().save_overload(sig, data)


class ReadableIndex(IndexDataCacheFile):
    """numba's index of a kernel file's cached overloads, read as empty where it cannot be
    unpickled. numba unpickles the whole index before comparing its stamp, and the keys hold
    the argument types: an index written before a record type moved to another module (an
    upgrade of the package, a checkout of another commit) raised AttributeError on every
    call of the kernel instead of compiling it again. It is then written anew."""

    def _load_index(self):
        try:
            return super()._load_index()
        except (AttributeError, ImportError, EOFError, pickle.UnpicklingError):
            return {}


#: machine code for a generic processor, shipped in the package (see :class:`LockedCache`)
SHIPPED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_machine_code")
#: set in the process that writes :data:`SHIPPED` (by :func:`ordstat._compile.ship_kernels`)
SHIP_ENV = "ORDSTAT_SHIP_KERNELS"


def _ship(cache, sig, data):
    """Save a compiled kernel into :data:`SHIPPED` instead of numba's cache."""
    if numba.config.CPU_NAME != "generic":
        raise RuntimeError(f"{SHIP_ENV} is set but NUMBA_CPU_NAME is not 'generic': the "
                           "shipped machine code must run on any processor of the platform.")
    if cache._impl.check_cachable(data):
        os.makedirs(SHIPPED, exist_ok=True)
        with _locked(SHIPPED):
            cache._shipped.save(cache._shipped_key(sig, data.codegen), cache._impl.reduce(data))


@contextlib.contextmanager
def _locked(directory):
    """An exclusive lock on ``directory``/ordstat-numba.lock (none where it cannot be made:
    numba then cannot write its cache there either)."""
    try:
        fd = os.open(os.path.join(directory, "ordstat-numba.lock"), os.O_RDWR | os.O_CREAT,
                     0o666) if fcntl is not None else None
    except OSError:
        fd = None
    try:
        if fd is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        if fd is not None:
            os.close(fd)  # releases the lock


def _closure_hash(fn, _seen=()):
    """A hash of the cell contents of ``fn``, the same in every process and installation: a
    compiled or plain function in a cell stands for its name (which holds its criterion's
    code version, see :func:`per_criterion`), its code and its own cells, instead of numba's
    pickle (a dispatcher's identifier drawn in each process, a local function's file path)."""
    seen = _seen + (fn,)

    def stable(value):
        if isinstance(value, Dispatcher):
            return "dispatcher", stable(value.py_func)
        if isinstance(value, types.FunctionType):
            cells = "" if value.__closure__ is None else (
                "itself" if value in seen else _closure_hash(value, seen))  # (recursion)
            return ("function", value.__module__, value.__qualname__, _code_hash(value.__code__),
                    cells)
        if isinstance(value, (tuple, list)):
            return type(value).__name__, tuple(stable(v) for v in value)
        return value

    return hashlib.sha256(dumps(stable([cell.cell_contents for cell in fn.__closure__]))
                          ).hexdigest()


def _code_hash(code):
    """A hash of a code object's instructions and constants (nested code objects by their own
    hash: their repr holds an address; sets sorted: their order changes with the process's
    string hashing)."""
    h = hashlib.sha256(code.co_code)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            const = _code_hash(const)
        elif isinstance(const, frozenset):
            const = sorted(map(repr, const))
        h.update(repr(const).encode())
    return h.hexdigest()


def sources_version(folder):
    """A hash of the source files in ``folder`` (this package's: see :class:`LockedCache`)."""
    h = hashlib.sha256()
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py"):
            with open(os.path.join(folder, name), "rb") as f:
                h.update(name.encode() + b"\0" + f.read())
    return h.hexdigest()


_SOURCES = sources_version(os.path.dirname(os.path.abspath(__file__)))


def jit(fn):
    """``numba.njit(cache=True, nogil=True, error_model="numpy")`` with the locked cache.

    numpy's error model: a division by zero gives inf or NaN instead of raising, so the
    compiled code checks no divisor. The kernels guard their divisions (an empty child's
    share is 0), so the results are the same, and each criterion compiles faster (the
    changelog has the measurement)."""
    dispatcher = numba.njit(nogil=True, error_model="numpy")(fn)
    dispatcher._cache = LockedCache(fn)  # what Dispatcher.enable_caching sets
    return dispatcher


def per_criterion(version, variant=""):
    """Rename a kernel built for one criterion after the criterion's code ``version`` (and the
    ``variant`` of the kernel, where one criterion has several built from one function).

    numba names compiled functions by their qualified name and a counter of the compiling
    process. Two processes compiling the same closure for different criteria could give the
    scans called by the level kernels the same symbol, and a process loading both from the
    on-disk cache would link one criterion's kernel to the other's scan (wrong trees, found
    when parallel jobs filled an empty cache). With the version in the name the symbols, and
    the cache index files, are the criterion's own."""
    suffix = f"_{variant}" if variant else ""

    def rename(fn):
        fn.__qualname__ = f"{fn.__qualname__}{suffix}_{version[:16]}"
        return fn
    return rename


def code_version(*fns):
    """A hash of the code of ``fns``, the same in every process (see :func:`_code_hash`)."""
    h = hashlib.sha256()
    for fn in fns:
        h.update(_code_hash(fn.__code__).encode())
    return h.hexdigest()
