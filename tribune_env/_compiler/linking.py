"""Numba's dispatcher and code library, changed to shorten the first compile (numba's internals).

Only :mod:`tribune_env._compiler.jit` uses this, and only when :mod:`tribune_env._compiler.internals` is on.
Three changes, each measured in ``docs/architecture.md``, "Start-up":

- :func:`plain`: a call from compiled code with a constant, an ``int32`` read from the
  state or an ``IntEnum`` member compiles the callee once, for ``int64``, where numba would
  compile it again for each constant value and integer width (and re-optimise the whole
  closure of what it calls each time).
- :class:`_CompiledOnly`: a function only compiled code calls gets no Python wrapper, and
  called from Python it raises ``TypeError`` where numba alone would jump into machine
  code that expects no Python caller.
- :class:`_LinkedLibrary`: its code is optimised once and only linked into its callers,
  never made machine code of its own.
"""

from llvmlite import binding, ir
from numba.core import compiler, config, types
from numba.core.codegen import CPUCodegen, JITCodeLibrary, remove_redundant_nrt_refct
from numba.core.compiler_lock import global_compiler_lock
from numba.core.compiler_machinery import AnalysisPass, register_pass
from numba.core.registry import CPUDispatcher
from numba.core.typed_passes import AnnotateTypes

from .compile_lock import CompileLock

# the private names overridden or called below: a numba that renamed one would otherwise ignore an override silently
for owner, names in (
    (JITCodeLibrary, ("_optimize_final_module", "_finalize_final_module", "_finalize_dynamic_globals")),
    (CPUCodegen, ("_module_pass_manager", "_create_empty_module")),
    (CPUDispatcher, ("get_call_template", "_compile_for_args", "add_overload", "compile")),
):
    missing = [name for name in names if not hasattr(owner, name)]
    if missing:
        raise ImportError(f"numba's {owner.__name__} has no {', '.join(missing)}")


def plain(argument: types.Type) -> types.Type:
    """The type a function is compiled for when called with `argument`: no literal value, signed integers as int64."""
    argument = types.unliteral(argument)
    if isinstance(argument, types.IntEnumMember) or (isinstance(argument, types.Integer) and argument.signed):
        return types.int64
    return argument


class _Dispatcher(CPUDispatcher):
    """Numba's dispatcher, compiling a call from compiled code for the call's :func:`plain` types, and
    compiling or loading from its cache one process at a time (:mod:`.compile_lock`)."""

    cache_directory: str | None = None  # its package's (None: one rebuilt by unpickling, which compiles unlocked)

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(map(plain, args)), {name: plain(t) for name, t in kws.items()})

    def compile(self, sig):
        if self.cache_directory is None:
            return super().compile(sig)
        with global_compiler_lock, CompileLock(self.cache_directory):  # numba's lock first: see compile_lock
            return super().compile(sig)


class _LinkedLibrary(JITCodeLibrary):
    """The code of a compiled-only function: optimised for linking, then only linked into its callers.

    Numba treats every function's library as one Python may call: after the function-level
    passes, it optimises the function's whole closure as a module twice (a cheap round at
    -O0 that inlines, so that reference-count pruning sees across calls, then the full -O3
    round with the loop vectoriser) and makes machine code of it. A compiled-only function's
    code is only ever linked into its callers, and the entry point at the top runs both
    rounds over all it links, then makes the machine code Python calls. So here the cheap
    round is enough, and no machine code is made: the machine code Python runs is as fast.
    Only the environments (the globals that numba points at each function's constants once
    compiled) go to the JIT, so that they have an address as before; the cache holds that
    small object and the IR.

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


def dispatcher(function, options: dict, compiled_only: bool, cache_directory: str):
    """`function` compiled in nopython mode with numba `options` (:class:`_CompiledOnly` if `compiled_only`),
    caching in `cache_directory`, which numba's configuration names now."""
    options = dict(options, nopython=True)
    if compiled_only:
        compiled = _CompiledOnly(function, targetoptions=dict(options, no_cpython_wrapper=True, no_cfunc_wrapper=True))
    else:
        compiled = _Dispatcher(function, targetoptions=options)
    compiled.cache_directory = cache_directory
    compiled.enable_caching()
    return compiled
