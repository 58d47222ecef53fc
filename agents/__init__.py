"""Baseline agents for Tribune, and ``make_agent`` to build one from a short text spec.

Specs, as the command line takes them: ``random``, ``heuristic``, ``ismcts`` with options
(``ismcts:seconds=0.25``, ``ismcts:iterations=400``), ``model:PATH`` for a trained
stable-baselines3 / sb3-contrib policy saved as a .zip, ``rllib:PATH`` for a policy
trained with RLlib (``tribune train --backend rllib``), saved as a .pt, ``policy:PATH.pt``
and ``guided:net=PATH.pt`` for policy files, and ``openspiel-ismcts`` for OpenSpiel's
IS-MCTS bot (the ``openspiel`` extra).
"""

from __future__ import annotations

import importlib
from pathlib import Path

from tribune_env.errors import ConfigError

from .base import Agent, RandomAgent

# name -> (module, class); modules are imported on demand
REGISTRY = {
    "random": ("agents.base", "RandomAgent"),
    "heuristic": ("agents.heuristic", "HeuristicAgent"),
    "ismcts": ("agents.ismcts", "ISMCTSAgent"),
    "guided": ("agents.ismcts", "GuidedAgent"),
    "model": ("agents.model", "ModelAgent"),
    "policy": ("agents.policy", "PolicyAgent"),
    "rllib": ("agents.rllib", "RLlibAgent"),
    "openspiel-ismcts": ("agents.openspiel_ismcts", "OpenSpielISMCTSAgent"),
}

# Agents whose spec is their file: everything after the colon is the path.
FILE_AGENTS = {"model": ".zip", "policy": ".pt", "rllib": ".pt"}

# How the agents that take options are written; every other agent is its bare name.
OPTION_FORMS = {
    "ismcts": "ismcts[:key=value,...]",
    "guided": "guided:net=PATH.pt[,key=value,...]",
    "openspiel-ismcts": "openspiel-ismcts[:key=value,...]",
}


def spec_forms() -> list[str]:
    """Every registered agent's spec as the command line takes it: help texts list these, so
    they name each agent the registry knows and no other."""
    file_forms = {name: f"{name}:PATH{suffix}" for name, suffix in FILE_AGENTS.items()}
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
    """``"ismcts:seconds=0.25,iterations=100"`` -> ("ismcts", {"seconds": 0.25, "iterations": 100})."""
    name, _, rest = spec.strip().partition(":")
    if name not in REGISTRY:
        raise ConfigError(f"unknown agent {name!r} in {spec!r}; known: {sorted(REGISTRY)}")
    if name in FILE_AGENTS:
        if not rest:
            raise ConfigError(f"a {name} agent needs a path: {name}:PATH{FILE_AGENTS[name]}")
        return name, {"path": rest}
    options = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ConfigError(f"agent option {item!r} in {spec!r} is not key=value")
        options[key.strip()] = _value(value.strip())
    return name, options


def locate(spec: str) -> str:
    """The spec with its file, if it names one, as an absolute path: for workers that run
    elsewhere (a Ray worker does not share this process's working directory)."""
    name, _, rest = spec.strip().partition(":")
    return f"{name}:{Path(rest).resolve()}" if name in FILE_AGENTS and rest else spec


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Build an agent from its spec; unknown names or options raise ConfigError."""
    name, options = parse_spec(spec)
    module, cls = REGISTRY[name]
    agent_class = getattr(importlib.import_module(module), cls)
    try:
        return agent_class(seed=seed, **options)
    except TypeError as exc:
        raise ConfigError(f"bad options for agent {name!r} in {spec!r}: {exc}") from None


__all__ = ["Agent", "FILE_AGENTS", "RandomAgent", "REGISTRY", "locate", "make_agent", "parse_spec", "spec_forms"]
