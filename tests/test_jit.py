"""How the compiled packages compile on numba's internals: Python entries, compiled-only functions, plain types."""

import os
import pickle
import subprocess
import sys

import numpy as np
import pytest
from numba.core import types

from tribune_env import Game
from tribune_env._compiler import internals
from tribune_env.core import common, dispatch

pytestmark = pytest.mark.skipif(
    not internals.ON, reason="numba's internals are off (tribune_env/_compiler/internals.py)"
)


def test_a_function_only_compiled_code_calls_refuses_a_python_call_by_name():
    game = Game(3, seed=0)
    with pytest.raises(TypeError, match=r"tribune_env\.core\.common\.top_task is called only from compiled code"):
        common.top_task(game.state.tasks)
    legal = game.legal_mask().copy()
    game.handle.mask[:] = 0
    dispatch.legal_mask(*game.handle)  # an entry: Python calls it as ever
    assert legal.any() and (game.legal_mask() == legal).all()


def test_copy_row_copies_into_the_slice_in_its_type_and_refuses_a_row_past_the_end(compiler):
    @compiler.entry
    def copy(out, at, row):
        common.copy_row(out, at, row)

    out = np.zeros(6, dtype=np.float32)
    copy(out, 2, np.array([3, 4, 5], dtype=np.int32))
    assert out.tolist() == [0, 0, 3, 4, 5, 0]
    with pytest.raises(IndexError):  # the slice ends at out's end: the row's last entry has no place
        copy(out, 4, np.array([7, 8, 9], dtype=np.int32))


def test_a_compiled_only_function_pickled_is_rebuilt_in_another_process():
    script = "import pickle, sys; f = pickle.load(sys.stdin.buffer); print(type(f).__name__, f.py_func.__qualname__)"
    done = subprocess.run([sys.executable, "-c", script], input=pickle.dumps(common.top_task), capture_output=True)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().split() == ["_CompiledOnly", "top_task"]


def test_a_call_from_compiled_code_is_compiled_once_whatever_constant_or_width(compiler):
    @compiler.compiled
    def double(x):
        return 2 * x

    @compiler.entry
    def calls(a):
        return double(3) + double(a[0]) + double(np.int32(5)) + double(True)

    assert calls(np.array([4], dtype=np.int32)) == 2 * (3 + 4 + 5 + 1)
    assert [str(sig) for sig in double.signatures] == ["(int64,)", "(bool,)"]


def test_a_compiled_only_function_is_linked_into_its_callers_without_machine_code_of_its_own(compiler):
    @compiler.compiled
    def half(x):
        if x < 0:
            raise IndexError("a negative number:", x)  # its value at run time: numba needs the function's environment
        return x // 2

    @compiler.entry
    def calls(x):
        return half(x) + 1

    half.compile((types.int64,))
    result = half.overloads[(types.int64,)]
    assert result.library.get_pointer_to_function(result.fndesc.llvm_func_name) == 0  # no machine code
    assert calls(10) == 6
    with pytest.raises(IndexError, match="a negative number:.*-3"):
        calls(-3)


LINKED = """
from tribune_env._compiler import Compiler

compiler = Compiler("test", "key")


@compiler.compiled
def half(x):
    if x < 0:
        raise IndexError("a negative number:", x)
    return x // 2


@compiler.entry
def first(x):
    return half(x) + 1


@compiler.entry
def second(x):
    return half(x) * 3
"""


def test_a_compiled_only_function_from_the_cache_links_into_a_new_caller(tmp_path):
    (tmp_path / "linked.py").write_text(LINKED)
    environment = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(tmp_path))

    def run(code):
        done = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert run("import linked; print(linked.first(10))") == ["6"]
    second = (
        "import linked, pytest\n"
        "print(linked.second(10), dict(linked.half.stats.cache_hits))\n"
        "with pytest.raises(IndexError, match='a negative number:.*-3'):\n"
        "    linked.second(-3)\n"
    )
    assert run(second) == ["15", "{(int64,):", "1}"]  # half loaded from the cache, not compiled again


WAITS_THEN_LOADS = """
import sys
from numba.core import event

compiles = []


class Count(event.Listener):
    def on_start(self, happening):
        compiles.append(happening.data["dispatcher"].py_func.__name__)

    def on_end(self, happening):
        pass


event.register("numba:compile", Count())
import locked_twice

print(locked_twice.twice(21), compiles)
"""
TWICE = """from tribune_env._compiler import Compiler


@Compiler("lock-test", "key").entry
def twice(x):
    return 2 * x
"""


def test_a_process_waits_for_another_compiling_the_same_cache_then_loads_what_it_wrote(tmp_path, monkeypatch):
    from tribune_env._compiler.compile_lock import CompileLock

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "locked_twice.py").write_text(TWICE)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    with CompileLock(str(tmp_path / "cache" / "lock-test-key")):  # this process compiles, as if it had come first
        other = subprocess.Popen(
            [sys.executable, "-c", WAITS_THEN_LOADS], env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        assert "waiting for another process compiling into" in other.stderr.readline()
        import locked_twice

        assert locked_twice.twice(21) == 42  # compiled here, into the cache, while the other waits
    out, err = other.communicate(timeout=120)
    assert other.returncode == 0, err
    assert out.split(maxsplit=1) == ["42", "[]\n"]  # loaded from the cache: nothing compiled there
