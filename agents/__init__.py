"""Baseline agents for Tribune, and ``make_agent`` to build one from a short text spec.

Specs, as the command line takes them: ``random``, ``heuristic``, ``ismcts`` with options
(``ismcts:seconds=0.25``, ``ismcts:iterations=400``), ``model:PATH.zip,trust=true`` for a
trained stable-baselines3 / sb3-contrib policy saved as a .zip (loading one runs its code,
so it must be said to be trusted), ``rllib:PATH`` for a policy trained with RLlib
(``tribune train --backend rllib``), saved as a .pt, ``policy:PATH.pt`` and
``guided:net=PATH.pt`` for policy files, ``openspiel-ismcts`` for OpenSpiel's IS-MCTS
bot (the ``openspiel`` extra), and ``program:cmd=COMMAND`` for another program playing over JSON
lines (docs/text-seat.md). A file's path may be followed by the agent's options
(``policy:PATH.pt,deterministic=false``).
"""

from __future__ import annotations

import importlib
import inspect
import os
import re

from tribune_env.errors import ConfigError

from .base import Agent, RandomAgent
from .shared import resolved

# name -> (module, class); modules are imported on demand
REGISTRY = {
    "random": ("agents.base", "RandomAgent"),
    "heuristic": ("agents.heuristic", "HeuristicAgent"),
    "ismcts": ("agents.ismcts", "ISMCTSAgent"),
    "guided": ("agents.ismcts", "GuidedAgent"),
    "expert": ("agents.expert", "ExpertAgent"),
    "model": ("agents.model", "ModelAgent"),
    "policy": ("agents.policy", "PolicyAgent"),
    "rllib": ("agents.rllib", "RLlibAgent"),
    "openspiel-ismcts": ("agents.openspiel_ismcts", "OpenSpielISMCTSAgent"),
    "program": ("agents.program", "ProgramAgent"),
}

# Agents whose spec is their file: after the colon the path, then any options (",key=value").
FILE_AGENTS = {"model": ".zip", "policy": ".pt", "rllib": ".pt"}
FILE_OPTION = re.compile(r"\w+=[^/]*")
SHIPPED_NAME = re.compile(r"shipped-([2-5])p")  # policy:shipped-4p, the shipped network for 4 players

# How the agents that take options are written; every other agent is its bare name.
OPTION_FORMS = {
    "ismcts": "ismcts[:key=value,...]",
    "guided": "guided:net=PATH.pt[,key=value,...]",
    "expert": "expert:net=PATH.pt[,key=value,...]",
    "openspiel-ismcts": "openspiel-ismcts[:key=value,...]",
    "program": "program:cmd=COMMAND[,key=value,...]",
}

# Agents that reach this machine's files (by a path, or a net=PATH option) or run its programs:
# a server others reach refuses them.
LOCAL_ONLY = {*FILE_AGENTS, "guided", "expert", "openspiel-ismcts", "program"}


def spec_forms() -> list[str]:
    """Every registered agent's spec as the command line takes it: help texts list these, so
    they name each agent the registry knows and no other."""
    file_forms = {name: f"{name}:PATH{suffix}" for name, suffix in FILE_AGENTS.items()}
    file_forms["model"] += ",trust=true"
    return [file_forms.get(name) or OPTION_FORMS.get(name, name) for name in REGISTRY]


def _value(text: str):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def split_specs(text: str) -> list[str]:
    """``heuristic,ismcts:seconds=1,iterations=50,random`` -> three specs: an item ``key=value``
    continues the options of the spec before it."""
    specs = []
    for item in text.split(","):
        if specs and "=" in item and ":" not in item:
            specs[-1] += "," + item
        else:
            specs.append(item.strip())
    return specs


def parse_spec(spec: str) -> tuple[str, dict]:
    """``"ismcts:seconds=0.25,iterations=100"`` -> ("ismcts", {"seconds": 0.25, "iterations": 100});
    ``"model:runs/m.zip,trust=true"`` -> ("model", {"path": "runs/m.zip", "trust": "true"})."""
    name, _, rest = spec.strip().partition(":")
    if name not in REGISTRY:
        raise ConfigError(f"unknown agent {_shown(name)} in {_shown(spec)}; known: {sorted(REGISTRY)}")
    if name not in FILE_AGENTS:
        return name, _options(rest, spec)
    path, options = _file_parts(rest)
    if not path:
        raise ConfigError(f"a {name} agent needs a path: {name}:PATH{FILE_AGENTS[name]}")
    return name, {"path": path, **_options(options, spec)}


def _file_parts(rest: str) -> tuple[str, str]:
    """A file agent's spec after the colon, split into the path and its options (",key=value,...")."""
    items = rest.split(",")
    path = len(items)
    while path > 1 and FILE_OPTION.fullmatch(items[path - 1]):
        path -= 1
    return ",".join(items[:path]), "".join("," + item for item in items[path:])


def _options(text: str, spec: str) -> dict:
    """``"seconds=0.25,iterations=100"`` as a dict, each value a number if it reads as one."""
    options = {}
    for item in filter(None, text.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ConfigError(f"agent option {_shown(item)} in {_shown(spec)} is not key=value")
        options[key.strip()] = _value(value.strip())
    return options


def _shown(text: str) -> str:
    """Part of a spec, quoted and cut short for a message."""
    return repr(text) if len(text) <= 80 else repr(text[:77] + "...")


def trusting(spec: str) -> str:
    """`spec`, saying that its model file is trusted if it names one and does not say already
    (``--trust-model-files`` on the command line)."""
    name, _, rest = spec.strip().partition(":")
    return f"{spec},trust=true" if name == "model" and "trust=" not in _file_parts(rest)[1] else spec


def shipped(path):
    """`path` as given, or, for ``shipped-Np`` where no such file is, the shipped network for N
    players (``agents.trained.POLICIES``): ``policy:shipped-4p`` works outside a checkout too."""
    match = SHIPPED_NAME.fullmatch(path) if isinstance(path, str) else None
    if match is None or os.path.exists(path):
        return path
    from .trained import POLICIES

    return str(POLICIES[int(match[1])])


def locate(spec: str) -> str:
    """The spec with its file, if it names one, as an absolute path: for workers that run
    elsewhere (a Ray worker does not share this process's working directory)."""
    name, _, rest = spec.strip().partition(":")
    path, options = _file_parts(rest)
    file = resolved(shipped(path) if name == "policy" else path) if name in FILE_AGENTS and path else None
    return f"{name}:{file}{options}" if file is not None else spec


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Build an agent from its spec; unknown names or options raise ConfigError."""
    name, options = parse_spec(spec)
    module, cls = REGISTRY[name]
    agent_class = getattr(importlib.import_module(module), cls)
    unknown = sorted(set(options) - set(option_names(agent_class)))
    if unknown:
        raise ConfigError(
            f"agent {name!r} has no option {', '.join(map(repr, unknown))} in {_shown(spec)}; "
            f"its options: {', '.join(option_names(agent_class)) or 'none'}"
        )
    try:
        return agent_class(seed=seed, **options)
    except TypeError as exc:
        raise ConfigError(f"bad options for agent {name!r} in {_shown(spec)}: {str(exc)[:200]}") from None


def option_names(agent_class) -> list[str]:
    """The options an agent class takes (its constructor's keywords, those it passes on to its
    base class's included), the seed aside."""
    names = []
    for klass in agent_class.__mro__:
        if "__init__" not in vars(klass) or klass is object:
            continue
        parameters = inspect.signature(klass.__init__).parameters.values()
        names += [p.name for p in parameters if p.kind is p.POSITIONAL_OR_KEYWORD and p.name not in ("self", "seed")]
        if not any(p.kind is p.VAR_KEYWORD for p in parameters):
            break
    return list(dict.fromkeys(names))


__all__ = [
    "Agent",
    "FILE_AGENTS",
    "LOCAL_ONLY",
    "RandomAgent",
    "REGISTRY",
    "locate",
    "make_agent",
    "parse_spec",
    "spec_forms",
    "trusting",
]
