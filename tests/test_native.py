"""native.step: the engine's step called from compiled code through its machine code."""

import subprocess
import sys

import numpy as np
import pytest
from numba.core.errors import TypingError

from tribune_env import Game
from tribune_env._compiler import internals, native
from tribune_env.core import dispatch
from tribune_env.core.events import CAPACITY, WIDTH
from tribune_env.state import Meta

pytestmark = pytest.mark.skipif(
    not internals.ON, reason="numba's internals are off (tribune_env/_compiler/internals.py)"
)


@pytest.fixture
def through_native(compiler):
    """An entry point of a test package whose compiled code calls native.step, made ready."""

    @compiler.entry
    def through_native(buf, params, events, mask, action):
        native.step(buf, params, events, mask, action)

    native.ready()
    return through_native


@pytest.mark.parametrize("players", [2, 5])
def test_native_step_plays_as_the_engine_step_that_python_calls(through_native, players):
    game = Game(players, seed=players)
    buf, k, mask = game.handle
    twin_buf, twin_mask = buf.copy(), mask.copy()
    events, twin_events = (np.zeros((CAPACITY, WIDTH), dtype=np.int32) for _ in range(2))
    for decision in range(60):
        action = int(np.flatnonzero(mask)[decision % int(mask.sum())])
        dispatch.step(buf, k, events, mask, action)
        through_native(twin_buf, k, twin_events, twin_mask, action)
        assert (twin_buf == buf).all() and (twin_mask == mask).all() and (twin_events == events).all()
    assert game.round >= 2


def test_native_step_refuses_arrays_of_other_types_when_compiled(compiler):
    @compiler.entry
    def wrong(buf, params, events, mask):
        native.step(buf.astype(np.float64), params, events, mask, 0)

    game = Game(3, seed=0)
    with pytest.raises(TypingError, match="native.step takes"):
        wrong(*game.handle[:2], np.zeros((CAPACITY, WIDTH), dtype=np.int32), game.handle.mask)


def test_an_exception_in_the_engine_step_comes_back_through_native_step(through_native):
    game = Game(3, seed=0)
    action = int(np.flatnonzero(game.legal_mask())[0])
    game.state.meta[Meta.N_TASKS] = 0  # a corrupt state: the engine's stack check raises
    events = np.zeros((CAPACITY, WIDTH), dtype=np.int32)
    with pytest.raises(IndexError, match="the task stack is empty or overfull"):
        through_native(*game.handle[:2], events, game.handle.mask, action)


ROLLOUT_AFTER = """
from tribune_env import Game
from tribune_env.envs import VectorGames
from tribune_env.player import random_legal
from agents.heuristic import HeuristicAgent, _heuristic_rollout, heuristic_rollout
import numpy as np
game = Game(3, seed=0)
{first}
try:
    _heuristic_rollout(*game.clone().handle, game.deck_counts, 1, 5)  # compiled code calling native.step
    print("played")
except RuntimeError as error:
    print(error)
"""
FIRST = {
    "nothing": "",
    "HeuristicAgent.choose": "HeuristicAgent(seed=0).choose(game.clone())",
    "heuristic_rollout": "heuristic_rollout(game.clone(), 1, 5)",
    "VectorGames.step": "v = VectorGames(2, seed=0, num_players=3); v.step(random_legal(v.masks, np.random.default_rng(0)))",
}


@pytest.mark.parametrize("first", FIRST)
def test_every_python_door_to_native_step_makes_it_ready_and_compiled_code_before_that_raises(first):
    """In a fresh process: compiled code reaching native.step before ready() raises, where
    it would jump to a null address; after any of the Python functions that run such code,
    it plays."""
    script = ROLLOUT_AFTER.format(first=FIRST[first])
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    said = done.stdout.strip().splitlines()[-1]
    if first == "nothing":
        assert said == "dispatch.step has no address yet: call tribune_env._compiler.native.ready() first"
    else:
        assert said == "played"
