"""The same games whichever way numba runs the rules: on its internals, on its public API alone, or as Python.

Each mode needs a fresh process (it is decided at import): a subprocess replays golden
games for 2 to 5 players (``tests/golden_traces.py``, recorded with the compiled engine)
and, as Python, asks the heuristic at a few of their positions, and the test compares all of
it with the traces. With numba's internals off, the engine compiles from scratch into a
temporary cache: about 130 s of processor time; as Python, about 20 s.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.golden_traces import load

ROOT = Path(__file__).resolve().parent.parent
# The first recorded game of each player count played by these agents: the random 2-player game is
# long enough to reach the caesura and the Field of Mars, the heuristic games meet Varus's penalty and
# the other leaders; together they call every rules function that any kind of recorded game calls, in
# a fifth of the time of four random games (as Python, 18 s against 88 s).
PLAYED_BY = {2: "random", 3: "heuristic", 4: "heuristic", 5: "heuristic"}

REPLAY = """
import json, sys
from tests.golden_traces import choices, digest, load, new_game
from tribune_env._compiler import internals
from tribune_env.core import dispatch

traces = load()
wanted = json.loads(sys.argv[1])
called = set()


def note(frame, event, arg):
    if event == "call" and "/tribune_env/core/" in frame.f_code.co_filename:
        called.add(frame.f_code.co_name)


games = {}
for g in wanted["games"]:
    trace = traces["games"][g]
    game = new_game(trace["plan"])
    digests = []
    sys.setprofile(note)
    for action in trace["actions"]:
        digests.append(digest(game))
        game.step(action)
    sys.setprofile(None)
    digests.append(digest(game))
    games[g] = {"digests": digests, "final": game.to_dict()}
heuristic = choices("heuristic", traces["games"], wanted["positions"])
print(json.dumps({"on": internals.ON, "step": type(dispatch.step).__name__, "called": sorted(called),
                  "games": games, "heuristic": heuristic}))
"""


@pytest.fixture(scope="module")
def traces():
    return load()


@pytest.fixture(scope="module")
def public_cache(tmp_path_factory):
    """One cache for the processes on numba's public API: the first compiles, the others load."""
    return tmp_path_factory.mktemp("public-cache")


def wanted(traces, heuristic_positions: int) -> dict:
    """The games of ``PLAYED_BY``, and the heuristic's first `heuristic_positions` recorded positions in each."""
    plans = [trace["plan"] for trace in traces["games"]]
    chosen = [next(g for g, plan in enumerate(plans)
                   if plan["config"]["num_players"] == count and set(plan["agents"]) == {agent})
              for count, agent in PLAYED_BY.items()]  # fmt: skip
    positions = [[g, t] for g, t in traces["heuristic"]["positions"] if g in chosen]
    per_game = [p for g in chosen for p in [q for q in positions if q[0] == g][:heuristic_positions]]
    return {"games": chosen, "positions": per_game}


def replay(traces, heuristic_positions: int, **environment) -> dict:
    """The replay in a fresh process with `environment`, checked against the traces; what it says of its mode."""
    plan = wanted(traces, heuristic_positions)
    done = subprocess.run(
        [sys.executable, "-c", REPLAY, json.dumps(plan)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=1200,
        env={**os.environ, "PYTHONPATH": str(ROOT), **environment},
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert sorted(map(int, result["games"])) == plan["games"] and len(plan["games"]) == 4  # 2 to 5 players
    for g, game in result["games"].items():
        trace = traces["games"][int(g)]
        assert game["digests"] == trace["digests"], f"game {g}: observations or masks differ"
        assert game["final"] == trace["final"], f"game {g}: final saved game differs"
    recorded = dict(zip(map(tuple, traces["heuristic"]["positions"]), traces["heuristic"]["choices"]))
    assert result["heuristic"] == [recorded[tuple(p)] for p in plan["positions"]]
    return result


def test_numba_public_api_alone_plays_the_same_games(traces, public_cache):
    """The engine alone: on numba's public API every compiled caller of ``dispatch.step`` compiles
    the whole engine again into its own code, so the heuristic would double this test's time. Its
    choices are checked as Python below, and compiled with the internals by ``tests/test_golden.py``."""
    result = replay(traces, 0, TRIBUNE_NUMBA_INTERNALS="0", NUMBA_CACHE_DIR=str(public_cache))
    assert not result["on"] and result["step"] == "CPUDispatcher"


def test_internals_that_fail_to_import_fall_back_to_the_public_api_with_a_warning(public_cache):
    """As when a numba release has moved a private name: tribune warns, then plays on numba's public API."""
    script = (
        "import warnings, numba.core.codegen\n"
        "del numba.core.codegen.remove_redundant_nrt_refct\n"  # numba's own code calls it only with an option off
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    from tribune_env import Game\n    from tribune_env._compiler import internals\n"
        "g = Game(3, seed=1)\n"
        "while not g.is_over:\n"
        "    g.step(int(g.legal_actions()[-1]))\n"
        "print(internals.ON, g.round, [str(w.message) for w in caught if w.category is RuntimeWarning])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=1200,
        env={**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(public_cache)},
    )
    assert done.returncode == 0, done.stderr
    on, rounds, warned = done.stdout.split(" ", 2)
    assert on == "False" and int(rounds) >= 2
    assert "numba's public API alone" in warned and "remove_redundant_nrt_refct" in warned


def test_numba_disable_jit_runs_the_rules_as_python_and_plays_the_same_games(traces):
    """NUMBA_DISABLE_JIT=1, numba's way to step through compiled code in a debugger: every handler is a Python
    frame a breakpoint can stop in."""
    result = replay(traces, 1, NUMBA_DISABLE_JIT="1")
    assert not result["on"] and result["step"] == "function"
    assert {"step", "top_task", "mask_of_top"} <= set(result["called"])  # dispatch.step and what it calls
    assert {"start_cesura", "mars_pair", "varus", "penalty", "cato_the_elder"} <= set(result["called"])
