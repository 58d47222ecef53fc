"""native.step: the engine's step called from compiled code through its machine code."""

import subprocess
import sys

import numpy as np
import pytest
from numba.core.errors import TypingError

from tribune_env import Game
from tribune_env.core import dispatch, native
from tribune_env.core.events import CAPACITY, WIDTH
from tribune_env.jit import Compiler


@pytest.fixture
def compiler(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    return Compiler("test", "key")


@pytest.mark.parametrize("players", [2, 5])
def test_native_step_plays_as_the_engine_step_that_python_calls(compiler, players):
    @compiler.entry
    def through_native(buf, k, ev, m, action):
        native.step(buf, k, ev, m, action)

    native.ready()
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
    def wrong(buf, k, ev, m):
        native.step(buf.astype(np.float64), k, ev, m, 0)

    game = Game(3, seed=0)
    with pytest.raises(TypingError, match="native.step takes"):
        wrong(*game.handle[:2], np.zeros((CAPACITY, WIDTH), dtype=np.int32), game.handle.mask)


def test_compiled_code_calling_native_step_before_ready_raises_instead_of_jumping_to_null():
    script = (
        "from tribune_env import Game\n"
        "from agents.heuristic import _heuristic_rollout\n"
        "game = Game(3, seed=0)\n"
        "try:\n"
        "    _heuristic_rollout(*game.handle, game.deck_counts, 1, 5)\n"
        "except RuntimeError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "dispatch.step has no address yet: call tribune_env.core.native.ready() first" in done.stdout
