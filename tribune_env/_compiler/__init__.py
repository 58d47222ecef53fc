"""How tribune's rules become machine code: numba's options, caches and the internals that speed it.

A person changing a rule needs three things from here, and nothing else:

- ``@compiled`` on a function only compiled code calls (nearly every rules function), and
  ``@entry`` on one Python calls too (``dispatch.step``, ``observe``...): ``from .._compiler
  import compiled, entry``. A compiled function is compiled for plain argument types, once;
  called from Python it raises ``TypeError``.
- ``intrinsic``: numba's ``@intrinsic``, with a Python twin for ``NUMBA_DISABLE_JIT=1``.
- Compiled code that plays moves (the heuristic's lookahead, the batched step) calls
  ``native.step``, the engine's ``step`` at its machine-code address; Python code that runs
  such code calls ``native.ready()`` first, which publishes that address (a call without it
  raises a ``RuntimeError`` that says so).

The rest is the machinery behind those: :mod:`.jit` (decorators and per-package caches keyed
by their sources), :mod:`.internals` (the one switch between numba's internals and its public
API alone), :mod:`.linking` (compiled-only functions linked, never made machine code),
:mod:`.state_ref` (the state's views passed by reference), :mod:`.step_address` (the
address ``native.step`` calls) and :mod:`.compile_lock` (one process at a time compiles a cache). Each only shortens the first compile or speeds the code:
with ``TRIBUNE_NUMBA_INTERNALS=0`` the same games are played through numba's public API.
docs/architecture.md, "Start-up", measures each.
"""

from .jit import ENGINE_KEY, Compiler, compiled, entry, intrinsic, source_key

__all__ = ["ENGINE_KEY", "Compiler", "compiled", "entry", "intrinsic", "source_key"]
