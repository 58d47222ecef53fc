"""Switches over task kinds, written out from a table that declares each kind's rule once.

Numba can neither index a table of functions nor inline a call through one, so a compiled
switch over task kinds has to be an if/elif chain. Written by hand, each chain restates
which rule serves which kind and which of the task's arguments ``(a, b, c)`` it takes.
Here a table ``{kind: function}`` says the first, the function's own parameter names say
the second, and :func:`task_switch` writes the chain out: each parameter is passed by name,
either from the switch's parameters (``state``, ``params``, ``action``...) or from the task's
arguments as :data:`tribune_env.tasks.ARGS` names them (a rule taking ``faction`` is given
the task's ``b`` where ``ARGS`` names ``b`` "faction"). A name that is neither is refused at
import, so a table cannot call a rule with the wrong argument.
"""

import inspect

from .tasks import ARGS, Task

TASK_ARGS = ("a", "b", "c")  # the switch's parameters that carry the task's arguments


def task_switch(name: str, parameters: tuple, table: dict, *, default=None, module: str, file: str):
    """The Python function ``name(*parameters)`` that calls ``table[kind]`` for its ``kind``.

    Each call is a ``return``, so the switch returns what the rule returns; a kind not in the
    table calls `default` (if given) or returns None. `module` and `file` are the calling
    module's ``__name__`` and ``__file__``: numba's cache locates compiled code by the
    source file of its Python function, so a traceback or a debugger shows the switch at
    lines of that module; its own text is the function's ``source``. Decorate the result
    with the package's compiler.
    """
    namespace = {"__name__": module}
    branches = {}  # call -> the kinds it serves, in table order
    for kind, function in table.items():
        call = _call(function, name, parameters, Task(kind), namespace)
        branches.setdefault(call, []).append(Task(kind))
    lines = [f"def {name}({', '.join(parameters)}):"]
    for i, (call, kinds) in enumerate(branches.items()):
        test = " or ".join(f"kind == {int(kind)}" for kind in kinds)
        lines.append(f"    {'if' if i == 0 else 'elif'} {test}:  # {', '.join(kind.name for kind in kinds)}")
        lines.append(f"        return {call}")
    if default is not None:
        lines.append(f"    return {_call(default, name, parameters, None, namespace)}")
    source = "\n".join(lines) + "\n"
    exec(compile(source, file, "exec"), namespace)
    switch = namespace[name]
    switch.source = source
    return switch


def _call(function, switch: str, parameters: tuple, kind, namespace: dict) -> str:
    """The call of `function` in the switch `switch`, its arguments matched by name; registers `function` in `namespace`."""
    python = getattr(function, "py_func", function)
    own = python.__name__
    if own in parameters or own == switch:
        raise ValueError(f"rule {own!r} has the name of the task switch or of one of its parameters {parameters}")
    if namespace.setdefault(own, function) is not function:
        raise ValueError(f"two rules named {own!r} in one task switch")
    task = ARGS[kind] if kind is not None else ()
    arguments = []
    for parameter in inspect.signature(python).parameters:
        if parameter in parameters and parameter not in TASK_ARGS:
            arguments.append(parameter)
        elif parameter in task:
            arguments.append(TASK_ARGS[task.index(parameter)])
        else:
            served = f"an argument of task {kind.name} {task}" if kind is not None else "a task argument"
            raise TypeError(
                f"{python.__module__}.{own}: parameter {parameter!r} is neither one of {parameters} nor {served}"
            )
    return f"{own}({', '.join(arguments)})"
