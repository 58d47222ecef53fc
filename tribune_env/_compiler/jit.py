"""How the compiled packages are compiled: their numba options, decorators and caches.

Each compiled function is one of two kinds, and says so at its decoration:

- :meth:`Compiler.compiled`: a function only compiled code calls (nearly all of them).
- :meth:`Compiler.entry`: a function Python calls (``dispatch.step``, ``observe``, the
  heuristic's ``choose``...).

With :mod:`tribune_env._compiler.internals` on, the two differ (:mod:`tribune_env._compiler.linking`): a
compiled-only function has no Python wrapper, refuses a call from Python and is only ever
linked into its callers, and calls from compiled code are compiled for plain argument
types. Off, both are ``numba.njit``; with ``NUMBA_DISABLE_JIT=1``, plain Python, and
:func:`intrinsic` gives each intrinsic its Python twin.

Numba keys its cache on each function's own source file, not on the constants it
imports (state layout, task kinds, parameter indices) or the compiled functions it calls
in other modules, so editing one module could leave stale code in use. Each compiled
package therefore caches in a directory of its own, named by a hash of its compiled
sources and of the keys of the compiled packages it calls: the engine's own files here,
the agents' files and the engine's key in :mod:`agents.compiled` (the heuristic runs on
the engine's state inside a search's rollouts). Any change there compiles afresh, and a
change to an agent leaves the engine's cache as it is. Inside that directory a module's
functions cache under the module's path in the project (:class:`ProjectLocator`), not
under a hash of its absolute path as numba would have it, so clones and installs of the
same sources share one cache and a fresh clone does not compile again. Compiled with
numba's public API alone, a package caches apart (``engine-public-...``): numba's internals leave objects in
the cache that ``numba.njit`` cannot load.

Bounds checking is on, so that no state, however it was made, lets compiled code read
or write outside its arrays: an index out of range raises ``IndexError``. It costs the
engine about 7% of its speed (``benchmarks/engine_speed.py``, 70,400 against 65,500
decisions a second).
"""

import hashlib
import os
from pathlib import Path

import numba
from numba.core import event
from numba.extending import intrinsic as numba_intrinsic

from ..console import say
from . import internals

if internals.ON:
    from .linking import dispatcher

try:  # numba's cache classes, outside its public API: without them each clone caches apart
    from numba.core.caching import CacheImpl, UserProvidedCacheLocator
except ImportError:
    CacheImpl, UserProvidedCacheLocator = None, object

ROOT = Path(__file__).resolve().parents[2]  # holds the compiled packages
OPTIONS = dict(nogil=True, boundscheck=True)  # an index outside its array raises, whatever a state holds
ENGINE_SOURCES = (
    "_compiler/*.py",
    "kernel.py",
    "data.py",
    "state.py",
    "actions.py",
    "observation.py",
    "tasks.py",
    "task_switch.py",
    "invariants.py",
    "core/*.py",
)


class Compiler:
    """The decorators of one compiled package, caching in its own directory (see the module's docstring)."""

    def __init__(self, package: str, key: str):
        self.directory = cache_dir(package, key)

    def compiled(self, function=None, *, inline: str = "never"):
        """Compile a function only compiled code calls (``inline="always"``: into each caller's numba IR)."""
        decorate = self._decorator(inline, compiled_only=True)
        return decorate(function) if function else decorate

    def entry(self, function=None, *, inline: str = "never"):
        """Compile a function Python calls (and compiled code may call too)."""
        decorate = self._decorator(inline, compiled_only=False)
        return decorate(function) if function else decorate

    def _decorator(self, inline: str, compiled_only: bool):
        options = dict(OPTIONS, inline=inline)

        def decorate(function):
            saved, numba.config.CACHE_DIR = numba.config.CACHE_DIR, self.directory  # read when the cache is made
            ProjectLocator.directory = self.directory
            try:
                if internals.ON:
                    return dispatcher(function, options, compiled_only, self.directory)
                return numba.njit(cache=True, **options)(function)
            finally:
                numba.config.CACHE_DIR, ProjectLocator.directory = saved, None

        return decorate


class ProjectLocator(UserProvidedCacheLocator):
    """Numba's cache locator for the functions a :class:`Compiler` decorates (while it does,
    `directory` is its package's): the module's directory in the project, under the package's.
    Numba stamps each source file by its content, so nothing in the cache depends on where the
    project lies."""

    directory: str | None = None

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = os.path.join(self.directory, *Path(py_file).resolve().parent.relative_to(ROOT).parts)

    @classmethod
    def from_function(cls, py_func, py_file):
        if cls.directory is None or not Path(py_file).resolve().is_relative_to(ROOT):
            return None  # numba's own locators place it
        return super().from_function(py_func, py_file)


if isinstance(getattr(CacheImpl, "_locator_classes", None), list):
    CacheImpl._locator_classes.insert(0, ProjectLocator)


class Announcer(event.Listener):
    """Says, once a process, that a package compiles: numba signals a compile only when its
    cache has nothing to load, which happens once for each version of the sources (the first
    run, or the first after an update). Any other numba user's compiles pass unremarked."""

    WHAT = {"tribune_env": "the engine", "agents": "the heuristic and the searches"}

    def __init__(self):
        self.said = set()

    def on_start(self, happening):
        function = getattr(happening.data.get("dispatcher"), "py_func", None)
        package = (getattr(function, "__module__", None) or "").split(".")[0]
        if package in self.WHAT and package not in self.said:
            self.said.add(package)
            say(f"tribune: compiling {self.WHAT[package]} with numba, once for this version (cached in {cache_base()})")

    def on_end(self, happening):
        pass


event.register("numba:compile", Announcer())


def intrinsic(python):
    """Numba's ``@intrinsic``, or `python` in its place when numba runs compiled code as Python (an intrinsic cannot)."""

    def decorate(definition):
        return python if internals.AS_PYTHON else numba_intrinsic(definition)

    return decorate


def source_key(root: Path, patterns, below: str = "") -> str:
    """A hash of numba's version, `below` (the keys of the packages called) and the files of `patterns` in `root`."""
    digest = hashlib.sha1(numba.__version__.encode())
    digest.update(below.encode())
    for path in sorted(p for pattern in patterns for p in root.glob(pattern)):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_base() -> str:
    """Where the compiled packages cache: $NUMBA_CACHE_DIR, or tribune/ in the user's cache directory."""
    return os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "tribune"
    )


def cache_dir(package: str, key: str) -> str:
    """Where `package` compiled from the sources of `key` caches, under :func:`cache_base`."""
    return os.path.join(cache_base(), f"{package}-{key}" if internals.ON else f"{package}-public-{key}")


ENGINE_KEY = source_key(ROOT / "tribune_env", ENGINE_SOURCES)
_ENGINE = Compiler("engine", ENGINE_KEY)
compiled, entry = _ENGINE.compiled, _ENGINE.entry
