"""How the compiled packages are compiled: their numba options, dispatchers and caches.

Each compiled function is one of two kinds, and says so at its decoration:

- :meth:`Compiler.compiled`: a function only compiled code calls (nearly all of them). It
  gets no Python wrapper (numba writes one per function otherwise: 8% of the first
  compile); called from Python it raises ``TypeError``, where numba alone would jump into
  machine code that expects no Python caller. Its code is optimised once and only linked
  into its callers, never made machine code of its own (:class:`_LinkedLibrary`).
- :meth:`Compiler.entry`: a function Python calls (``dispatch.step``, ``observe``, the
  heuristic's ``choose``...).

Both are compiled for plain argument types: a call from compiled code with a constant, an
``int32`` read from the state or an ``IntEnum`` member compiles the function once, for
``int64``, where numba would compile it again for each constant value and integer width
(:func:`plain`). Every extra compilation also re-optimises the whole closure of what it calls.

Numba keys its cache on each function's own source file, not on the constants it
imports (state layout, task kinds, parameter indices) or the compiled functions it calls
in other modules, so editing one module could leave stale code in use. Each compiled
package therefore caches in a directory of its own, named by a hash of its compiled
sources and of the keys of the compiled packages it calls: the engine's own files here,
the agents' files and the engine's key in :mod:`agents.compiled` (the heuristic runs on
the engine's state inside a search's rollouts). Any change there compiles afresh, and a
change to an agent leaves the engine's cache as it is.

Bounds checking is on, so that no state, however it was made, lets compiled code read
or write outside its arrays: an index out of range raises ``IndexError``. It costs the
engine about 7% of its speed (``benchmarks/engine_speed.py``, 70,400 against 65,500
decisions a second).
"""

import hashlib
import os
from pathlib import Path

import numba
from llvmlite import binding, ir
from numba.core import compiler, config, types
from numba.core.codegen import JITCodeLibrary, remove_redundant_nrt_refct
from numba.core.compiler_machinery import AnalysisPass, register_pass
from numba.core.registry import CPUDispatcher
from numba.core.typed_passes import AnnotateTypes

OPTIONS = dict(nopython=True, nogil=True, boundscheck=True)  # an index outside its array raises, whatever a state holds
ENGINE_SOURCES = (
    "jit.py",
    "kernel.py",
    "state_ref.py",
    "data.py",
    "state.py",
    "actions.py",
    "observation.py",
    "tasks.py",
    "core/*.py",
)


def plain(argument: types.Type) -> types.Type:
    """The type a function is compiled for when called with `argument`: no literal value, signed integers as int64."""
    argument = types.unliteral(argument)
    if isinstance(argument, types.IntEnumMember) or (isinstance(argument, types.Integer) and argument.signed):
        return types.int64
    return argument


class _Dispatcher(CPUDispatcher):
    """Numba's dispatcher, compiling a call from compiled code for the call's :func:`plain` types."""

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(map(plain, args)), {name: plain(t) for name, t in kws.items()})


class _LinkedLibrary(JITCodeLibrary):
    """The code of a compiled-only function: optimised for linking, then only linked into its callers.

    Numba treats every function's library as one Python may call: after the function-level
    passes, it optimises the function's whole closure as a module twice (a cheap round at
    -O0 that inlines, so that reference-count pruning sees across calls, then the full -O3
    round with the loop vectoriser) and makes machine code of it. A compiled-only function's
    code is only ever linked into its callers, and the entry point at the top runs both
    rounds over all it links, then makes the machine code Python calls. So here the cheap
    round is enough, and no machine code is made: the machine code Python runs is as fast
    (``benchmarks/engine_speed.py``), and the first compile 31% shorter
    (``docs/architecture.md``, "Start-up"). Only the environments (the globals that numba
    points at each function's constants once compiled) go to the JIT, so that they have an
    address as before; the cache holds that small object and the IR.

    No compiled-only function may be recursive: numba resolves a recursive call when it
    makes machine code, which these libraries never do.
    """

    def _optimize_final_module(self):
        """Numba's cheap round alone (its ``cost="cheap"`` passes), then its reference-count pruning."""
        passes, builder = self._codegen._module_pass_manager(
            loop_vectorize=self._codegen._loopvect, slp_vectorize=False, opt=self._codegen._opt_level, cost="cheap"
        )
        with self._recorded_timings.record("Module passes (cheap optimization for refprune)", builder):
            passes.run(self._final_module, builder)
        if not config.LLVM_REFPRUNE_PASS:
            self._final_module = remove_redundant_nrt_refct(self._final_module)

    def _finalize_final_module(self):
        """Hand the JIT the environments alone, and keep the whole module for the callers to link."""
        whole = self._final_module
        self._finalize_dynamic_globals()  # of the whole module: a dynamic global still forbids caching
        self._final_module = binding.parse_assembly(str(self._environments(whole)))
        try:
            super()._finalize_final_module()
        finally:
            self._final_module = whole

    def _environments(self, whole):
        """A module of the environment globals of `whole` alone, declared as numba declares them."""
        module = self._codegen._create_empty_module(self.name)
        for variable in whole.global_variables:
            if variable.name.startswith("_ZN08NumbaEnv"):
                environment = ir.GlobalVariable(module, ir.IntType(8).as_pointer(), name=variable.name)
                environment.linkage = "common"
                environment.initializer = ir.Constant(environment.type.pointee, None)
        return module


@register_pass(mutates_CFG=False, analysis_only=True)
class _LinkOnly(AnalysisPass):
    """Give the function a :class:`_LinkedLibrary` before it is lowered."""

    _name = "tribune_link_only"

    def __init__(self):  # numba's passes declare it abstract
        AnalysisPass.__init__(self)

    def run_pass(self, state):
        if state.library is None:  # as numba's lowering would make one
            state.library = _LinkedLibrary(state.targetctx.codegen(), state.func_id.func_qualname)
            state.library.enable_object_caching()
        return False


class _LinkOnlyCompiler(compiler.CompilerBase):
    """Numba's nopython pipeline, lowering into a :class:`_LinkedLibrary`."""

    def define_pipelines(self):
        pipeline = compiler.DefaultPassBuilder.define_nopython_pipeline(self.state)
        pipeline.add_pass_after(_LinkOnly, AnnotateTypes)
        pipeline.finalize()
        return [pipeline]


class _CompiledOnly(_Dispatcher):
    """A function without a Python wrapper: calling it from Python raises instead of jumping into machine code."""

    # numba's argument order: unpickling rebuilds a dispatcher as cls(py_func, locals, targetoptions)
    def __init__(self, py_func, locals=None, targetoptions=None, pipeline_class=_LinkOnlyCompiler):
        super().__init__(py_func, locals, targetoptions, pipeline_class)

    def _compile_for_args(self, *args, **kws):
        raise TypeError(f"{self.py_func.__module__}.{self.py_func.__qualname__} is called only from compiled code")

    def add_overload(self, cres):
        self.overloads[tuple(cres.signature.args)] = cres  # for compiled callers only: Python never finds it


class Compiler:
    """The decorators of one compiled package, caching in its own directory (see the module's docstring)."""

    def __init__(self, package: str, key: str):
        self.directory = cache_dir(package, key)

    def compiled(self, function=None, *, inline: str = "never"):
        """Compile a function only compiled code calls (``inline="always"``: into each caller's numba IR)."""
        decorate = self._decorator(
            _CompiledOnly, dict(OPTIONS, inline=inline, no_cpython_wrapper=True, no_cfunc_wrapper=True)
        )
        return decorate(function) if function else decorate

    def entry(self, function=None, *, inline: str = "never"):
        """Compile a function Python calls (and compiled code may call too)."""
        decorate = self._decorator(_Dispatcher, dict(OPTIONS, inline=inline))
        return decorate(function) if function else decorate

    def _decorator(self, dispatcher, options):
        def decorate(function):
            saved, numba.config.CACHE_DIR = numba.config.CACHE_DIR, self.directory  # read when the cache is made
            try:
                compiled = dispatcher(py_func=function, targetoptions=options)
                compiled.enable_caching()
            finally:
                numba.config.CACHE_DIR = saved
            return compiled

        return decorate


def source_key(root: Path, patterns, below: str = "") -> str:
    """A hash of numba's version, `below` (the keys of the packages called) and the files of `patterns` in `root`."""
    digest = hashlib.sha1(numba.__version__.encode())
    digest.update(below.encode())
    for path in sorted(p for pattern in patterns for p in root.glob(pattern)):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir(package: str, key: str) -> str:
    """Where `package` compiled from the sources of `key` caches: under $NUMBA_CACHE_DIR or ~/.cache/tribune."""
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "tribune"
    )
    return os.path.join(base, f"{package}-{key}")


ENGINE_KEY = source_key(Path(__file__).resolve().parent, ENGINE_SOURCES)
_ENGINE = Compiler("engine", ENGINE_KEY)
compiled, entry = _ENGINE.compiled, _ENGINE.entry
