"""Cold start: a newcomer's first game and the heuristic's first move, with an empty compile cache.

Each repeat runs in a fresh interpreter with a fresh, empty numba cache directory and
times three steps: importing the engine, the first ``Game(...)`` (which compiles the
engine), and the heuristic's first decision (which compiles the agent). Then it times
the same steps again with the cache now full (a second start). With ``--functions`` it
also lists where the first compile spends its time: each compiled function, its own
compile time (callees excluded) and how many times it was compiled.

    python benchmarks/compile_time.py [--repeats 1] [--functions 15]

With ``TRIBUNE_NUMBA_INTERNALS=0`` it times the compile on numba's public API alone
(``tribune_env/_compiler/internals.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import json, sys, time
from collections import defaultdict
from numba.core import event

stack, own, count = [], defaultdict(float), defaultdict(int)

class Listener(event.Listener):
    def on_start(self, ev):
        stack.append([str(ev.data["dispatcher"].py_func.__module__) + "." + ev.data["dispatcher"].py_func.__qualname__,
                      time.perf_counter(), 0.0])
    def on_end(self, ev):
        name, start, inner = stack.pop()
        spent = time.perf_counter() - start
        own[name] += spent - inner
        count[name] += 1
        if stack:
            stack[-1][2] += spent

event.register("numba:compile", Listener())
t0 = time.perf_counter()
from tribune_env import Game
t1 = time.perf_counter()
game = Game(4, seed=0)
t2 = time.perf_counter()
from agents import make_agent
from tribune_env import PlayerView
agent = make_agent("heuristic", seed=0)
while len(game.legal_actions()) < 2:
    game.step(int(game.legal_actions()[0]))
seat = game.current_player
agent.act(game.observe(seat), game.legal_mask(), PlayerView(game, seat))
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "game": t2 - t1, "heuristic": t3 - t2,
                  "functions": sorted(([k, own[k], count[k]] for k in own), key=lambda r: -r[1])}))
"""


def start(cache: str) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"the timed start failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--functions", type=int, default=0, help="list the N functions that took longest to compile")
    args = parser.parse_args()
    for r in range(args.repeats):
        with tempfile.TemporaryDirectory() as cache:
            cold, warm = start(cache), start(cache)
        for label, run in (("cold", cold), ("cached", warm)):
            total = run["import"] + run["game"] + run["heuristic"]
            print(
                f"{label:6} import {run['import']:6.2f} s   first Game {run['game']:6.2f} s   "
                f"heuristic's first move {run['heuristic']:6.2f} s   total {total:6.2f} s"
            )
        if r == 0 and args.functions:
            rows = cold["functions"]
            print(
                f"{len(rows)} functions compiled, {sum(c for _, _, c in rows)} compilations; "
                f"own compile time of the slowest {args.functions}:"
            )
            for name, seconds, times in rows[: args.functions]:
                print(f"  {seconds:6.2f} s  x{times}  {name}")


if __name__ == "__main__":
    main()
