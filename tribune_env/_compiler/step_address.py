"""``dispatch.step`` called from compiled code through its machine code, not linked in again (numba's internals).

A compiled function that calls ``dispatch.step`` by name gets the whole engine linked into
its own code, and numba optimises and compiles all of it once more: the heuristic's
lookahead and rollouts and the vector games' batch step each did, over 2 s of the first
start each (``docs/architecture.md``, "Start-up"). With :mod:`tribune_env._compiler.internals` on,
they call :func:`step` here instead (through :mod:`tribune_env._compiler.native`): the ``step``
that Python calls, at the address :func:`publish` leaves in a global. The address is never
a constant of the compiled code, so the cache stays valid in another process. Before
:func:`publish` the address is null, and a call raises.
"""

import ctypes

from llvmlite import binding, ir
from numba.core import cgutils, types
from numba.core.errors import TypingError
from numba.extending import intrinsic

STEP_TYPES = (
    types.Array(types.int32, 1, "C"),  # the state buffer
    types.Array(types.int64, 1, "C"),  # its parameters (kernel.params)
    types.Array(types.int32, 2, "C"),  # the events
    types.Array(types.int8, 1, "C"),  # the legal-action mask
    types.int64,  # the action
)
_SYMBOL = "tribune.step_address"
_ADDRESS = ctypes.c_int64(0)  # this process's step, once publish() has found it
binding.add_symbol(_SYMBOL, ctypes.addressof(_ADDRESS))


def publish(dispatcher) -> None:
    """Compile (or load) `dispatcher` (``dispatch.step``) for :data:`STEP_TYPES` and publish its address."""
    if not _ADDRESS.value:
        dispatcher.compile(STEP_TYPES)
        result = dispatcher.overloads[STEP_TYPES]
        address = result.library.get_pointer_to_function(result.fndesc.llvm_func_name)
        if result.signature != types.none(*STEP_TYPES) or not address:  # step() below passes no room for a result
            raise RuntimeError(
                f"dispatch.step compiled as {result.signature} at {address:#x}, not as native.step calls it"
            )
        _ADDRESS.value = address


@intrinsic
def step(typingctx, buf, params, events, mask, action):
    """``dispatch.step(buf, k, ev, m, action)``, for arrays of :data:`STEP_TYPES`."""
    if (buf, params, events, mask) != STEP_TYPES[:4] or not isinstance(action, types.Integer):
        raise TypingError(f"native.step takes {STEP_TYPES}, not {(buf, params, events, mask, action)}")

    def codegen(context, builder, signature, args):
        cell = builder.module.globals.get(_SYMBOL) or ir.GlobalVariable(builder.module, ir.IntType(64), _SYMBOL)
        address = builder.load(cell)
        with cgutils.if_unlikely(builder, cgutils.is_null(builder, address)):
            message = "dispatch.step has no address yet: call tribune_env._compiler.native.ready() first"
            context.call_conv.return_user_exc(builder, RuntimeError, (message,))
        function = context.call_conv.get_function_type(types.none, STEP_TYPES)
        callee = builder.inttoptr(address, function.as_pointer())
        status, _ = context.call_conv.call_function(builder, callee, types.none, STEP_TYPES, args)
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return context.get_dummy_value()

    return types.none(*STEP_TYPES), codegen
