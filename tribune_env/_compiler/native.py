"""``step`` for compiled code to call, and ``ready()``, which every Python function running such code calls first.

With :mod:`tribune_env._compiler.internals` on, ``step`` calls the machine code of the ``step`` that
Python calls, at the address ``ready()`` publishes (:mod:`tribune_env._compiler.step_address`);
off, it is ``dispatch.step`` itself, linked into each caller (a longer first compile), and
``ready()`` has nothing to do.
"""

from ..core import dispatch
from . import internals

if internals.ON:
    from .step_address import publish, step

    def ready() -> None:
        """Compile (or load) ``dispatch.step`` and publish its address for :func:`step`."""
        publish(dispatch.step)

else:
    step = dispatch.step

    def ready() -> None:
        """Nothing to publish: compiled code calls ``dispatch.step`` by name."""


__all__ = ["ready", "step"]
