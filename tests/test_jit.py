"""How the compiled packages compile: Python entries, compiled-only functions, plain argument types."""

import numpy as np
import pytest

from tribune_env import Game
from tribune_env.core import common, dispatch
from tribune_env.jit import Compiler


@pytest.fixture
def compiler(tmp_path, monkeypatch):
    """A package of its own, caching in a fresh directory (so this process compiles what it calls)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    return Compiler("test", "key")


def test_a_function_only_compiled_code_calls_refuses_a_python_call_by_name():
    game = Game(3, seed=0)
    with pytest.raises(TypeError, match=r"tribune_env\.core\.common\.top_task is called only from compiled code"):
        common.top_task(game.state.tasks)
    legal = game.legal_mask().copy()
    game.handle.mask[:] = 0
    dispatch.legal_mask(*game.handle)  # an entry: Python calls it as ever
    assert legal.any() and (game.legal_mask() == legal).all()


def test_a_call_from_compiled_code_is_compiled_once_whatever_constant_or_width(compiler):
    @compiler.compiled
    def double(x):
        return 2 * x

    @compiler.entry
    def calls(a):
        return double(3) + double(a[0]) + double(np.int32(5)) + double(True)

    assert calls(np.array([4], dtype=np.int32)) == 2 * (3 + 4 + 5 + 1)
    assert [str(sig) for sig in double.signatures] == ["(int64,)", "(bool,)"]
