"""The one switch between numba's internals and numba's public API alone.

Three mechanisms shorten the first compile by building on numba's internals, some of them
private (``docs/architecture.md``, "Start-up"): compiled-only functions linked and never
made machine code (:mod:`tribune_env._compiler.linking`), the state passed by reference
(:mod:`tribune_env._compiler.state_ref`) and the engine's step called at its address
(:mod:`tribune_env._compiler.step_address`). Any numba release may change those, so every use
sits behind :data:`ON`, decided here alone, once. Off, tribune compiles with ``numba.njit``
and numba's public extension API: the same games, a slower first compile and slower code.

It is off when ``TRIBUNE_NUMBA_INTERNALS=0``; when ``NUMBA_DISABLE_JIT=1`` (numba runs the
compiled code as Python, to step through it in a debugger: nothing is compiled, see
:data:`AS_PYTHON`); and when importing the three modules fails, with a warning that says why.
"""

import os
import warnings

import numba

AS_PYTHON = bool(numba.config.DISABLE_JIT)
"""Numba runs every compiled function as Python (``NUMBA_DISABLE_JIT=1``)."""


def _internals_on() -> bool:
    if os.environ.get("TRIBUNE_NUMBA_INTERNALS", "1") == "0" or AS_PYTHON:
        return False
    try:
        from . import linking, state_ref, step_address  # noqa: F401
    except Exception as error:  # whatever a numba release changed: tribune must still import and play
        warnings.warn(
            f"tribune compiles with numba's public API alone, so its first compile and its code are slower: "
            f"numba {numba.__version__} lacks internals it builds on ({type(error).__name__}: {error})",
            RuntimeWarning,
            stacklevel=2,
        )
        return False
    return True


ON = _internals_on()
"""tribune builds on numba's internals (``TRIBUNE_NUMBA_INTERNALS=0`` turns them off)."""
