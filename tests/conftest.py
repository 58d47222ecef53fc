"""Shared helpers for the invariant, hidden-information, saving, interface and command tests.

The helpers only use the public API of :class:`tribune_env.Game` plus the state arrays
it exposes as attributes; they never change the engine.
"""

from __future__ import annotations

import csv
import os

import numpy as np
import pytest
from numba.core import event

from tribune_env import Game
from tribune_env._compiler import Compiler
from tribune_env.data import NUM_CARD_TYPES, NUM_VALUES
from tribune_env.state import Meta

NUM_CARDS = 100


@pytest.fixture(autouse=True, scope="session")
def sb3_logs_under_the_sessions_tmp(tmp_path_factory):
    """stable-baselines3 makes a log directory at every ``learn()`` without a logger of the caller's:
    under $SB3_LOGDIR, else a new one in /tmp each time, which the suite would leave behind."""
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3"))


@pytest.fixture
def compiler(tmp_path, monkeypatch):
    """A compiled package of its own, caching in a fresh directory (so this process compiles what it calls)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    return Compiler("test", "key")


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False, help="also run tests marked slow")


# The full tier: what needs the learning frameworks, Ray, OpenSpiel, a browser, the notebooks,
# every numba mode or a fresh process per docs example. The rest is the core tier
# (engine, environments, agents, arena, command line): ``pytest -m "not full"``.
FULL_TIER = {
    "test_frameworks", "test_rllib", "test_ray", "test_openspiel", "test_information_state", "test_web_browser",
    "test_notebooks", "test_numba_modes", "test_docs", "test_examples", "test_training", "test_learner",
    "test_shards", "test_exploit", "test_expert", "test_extras", "test_packaging",
    "test_compile_cache",
}  # fmt: skip


# The longest test files, longest first: the suite's workers take whole files in collection order
# (``--no-loadscope-reorder``: xdist would otherwise order files by their number of tests), so these
# start first and the short ones fill in beside them (longest processing time first).
LONGEST_FIRST = ("test_numba_modes", "test_ray", "test_training", "test_docs", "test_frameworks")
# Test files that run no compiled code. They come right after the first of the other files, which
# compiles the engine on a cold cache (a changed rule compiles everything afresh): the other worker
# takes them and runs them during that compile, where it would otherwise wait for it.
COMPILE_FREE = ("test_recipe", "test_benchmarks", "test_inputs", "test_style", "test_card_rates", "test_task_switch")


def module_name(item) -> str:
    return item.module.__name__.rsplit(".", 1)[-1]


class CompiledWhileCollecting(event.Listener):
    """What numba compiled while the test files were imported: every worker imports them all, so
    a compile there (a ``Game`` in a parametrisation, say) is done once per worker, on a cold cache."""

    def __init__(self):
        self.names = []

    def on_start(self, happening):
        function = happening.data["dispatcher"].py_func
        self.names.append(f"{function.__module__}.{function.__qualname__}")

    def on_end(self, happening):
        pass


COLLECTING = CompiledWhileCollecting()
event.register("numba:compile", COLLECTING)  # before pytest imports a test file


def pytest_collection_finish(session):
    event.unregister("numba:compile", COLLECTING)


@pytest.fixture
def compiled_while_collecting() -> list[str]:
    """The functions numba compiled while this process collected the tests (none on a warm cache)."""
    return COLLECTING.names


def pytest_collection_modifyitems(config, items):
    """The longest files go first, then one that compiles and those that need no compiling; tests of
    the full tier's modules are marked ``full``; tests marked slow run only with --runslow or when
    -m names them."""
    first = next((module_name(i) for i in items if module_name(i) not in LONGEST_FIRST + COMPILE_FREE), None)
    rank = {name: i for i, name in enumerate((*LONGEST_FIRST, first, *COMPILE_FREE))}
    items.sort(key=lambda item: rank.get(module_name(item), len(rank)))  # stable: files keep their order
    for item in items:
        if module_name(item) in FULL_TIER:
            item.add_marker(pytest.mark.full)
    if config.getoption("--runslow") or "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow or -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def random_action(g: Game, rng: np.random.Generator) -> int:
    """A uniformly random legal action of the player to act."""
    legal = g.legal_actions()
    assert len(legal) > 0, "a running game offers no legal action"
    return int(legal[rng.integers(len(legal))])


def play(g: Game, rng: np.random.Generator, on_step=None, max_steps: int = 200_000) -> list[int]:
    """Play random legal actions until the game is over; return the actions played.

    ``on_step(g, action)`` is called after every step.
    """
    actions = []
    while not g.is_over:
        a = random_action(g, rng)
        g.step(a)
        actions.append(a)
        if on_step is not None:
            on_step(g, a)
        assert len(actions) < max_steps, "the game did not end"
    return actions


def decision_kind(g: Game):
    d = g.decision()
    return None if d is None else d[0]


def total_cards(g: Game) -> int:
    """Every card wherever it lies, counted without the engine's helper."""
    n_draw = int(g.state.meta[Meta.DRAW_N])
    return int(
        g.state.hand.sum()
        + n_draw
        + g.state.discard_public.sum()
        + g.state.discard_hidden.sum()
        + g.state.catacombs.sum()
        + g.state.curia.sum()
        + g.state.mars_pairs.sum()
        + (g.state.slot_card >= 0).sum()
        + g.state.sets.sum()
        + g.state.challenger.sum()
    )


def card_counts(g: Game) -> np.ndarray:
    """Where every card is, summed by card: must equal the deck's counts."""
    s = g.state
    total = s.hand.sum(axis=0).astype(np.int64)
    total += np.bincount(s.draw[: int(s.meta[Meta.DRAW_N])], minlength=NUM_CARD_TYPES)
    total += s.discard_public + s.discard_hidden + s.catacombs + s.curia.sum(axis=0) + s.mars_pairs.sum(axis=0)
    total += np.bincount(s.slot_card[s.slot_card >= 0], minlength=NUM_CARD_TYPES)
    total += s.sets.reshape(-1)
    if int(s.meta[Meta.CHALLENGER]) >= 0:  # the set played against the contested faction's
        decision = g.decision()
        f = decision[2] if decision is not None else 0
        total[f * NUM_VALUES : (f + 1) * NUM_VALUES] += s.challenger
    return total


def collect_states(seeds, predicates: dict, per_predicate: int = 3, players=(2, 3, 4, 5), **game_kw) -> dict:
    """Play random games and keep clones of decision states matching each predicate.

    ``predicates`` maps a name to ``pred(g) -> bool``; returns name -> list of games.
    Stops early once every predicate has ``per_predicate`` states.
    """
    found = {name: [] for name in predicates}
    for seed in seeds:
        if all(len(v) >= per_predicate for v in found.values()):
            break
        g = Game(players[seed % len(players)], seed=seed, **game_kw)
        rng = np.random.default_rng(10_000 + seed)
        taken_this_game = {name: 0 for name in predicates}
        while not g.is_over:
            for name, pred in predicates.items():
                # at most one state per predicate per game keeps the sample varied
                if len(found[name]) < per_predicate and not taken_this_game[name] and pred(g):
                    found[name].append(g.clone())
                    taken_this_game[name] = 1
            g.step(random_action(g, rng))
    return found


def assert_same_determinisations(g, h, p, seeds=range(3)):
    """Two games that `p` cannot tell apart give `p` the same sampled worlds, field by field and log."""
    for seed in seeds:
        a, b = g.determinize(p, np.random.default_rng(seed)), h.determinize(p, np.random.default_rng(seed))
        differ = [name for name in a.state.arrays if not np.array_equal(a.state.arrays[name], b.state.arrays[name])]
        assert not differ, f"player_{p}'s determinisation shows a hidden change in {differ}"
        assert a.log == b.log, f"player_{p}'s determinisation carries a hidden change in its log"


def tribune(*args) -> str:
    """What ``tribune ARGS`` prints; the test fails unless the command succeeds."""
    from click.testing import CliRunner

    from training.cli import main

    result = CliRunner().invoke(main, [str(arg) for arg in args])
    assert result.exit_code == 0, result.output
    return result.output


def csv_rows(path) -> list[dict]:
    """A CSV file's rows, by column name."""
    with open(path, newline="") as file:
        return list(csv.DictReader(file))


def written(out, *patterns) -> dict:
    """Each file under `out` that a glob of `patterns` finds, and when it was written."""
    found = [path for pattern in patterns for path in out.glob(pattern)]
    return {str(path.relative_to(out)): path.stat().st_mtime_ns for path in found}
