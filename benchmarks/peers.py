"""Tribune's batched engine against fastCatan's ``BatchedEnv``, per CPU-second, timed in alternation.

fastCatan (4-player Catan with hidden cards, a compiled batched engine) needs Python 3.12 or
later, so it lives in an environment of its own; point ``--peer-python`` at that
environment's interpreter (``python3.12 -m venv peers && peers/bin/pip install fastcatan``).
Both play uniformly random legal moves with the legal masks read at every step (fastCatan's
``write_masks``; tribune's ``VectorGames`` also writes every observation), each in a fresh
process, alternating, and the median of the repeats is compared per CPU-second, so the
threads each uses do not count.

    python benchmarks/peers.py --peer-python peers/bin/python --games 64 1024 --seconds 3 --repeats 3
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

TRIBUNE = """
import json, sys, time
import numpy as np
from tribune_env.core.batched import pick_legal
from tribune_env.envs import VectorGames
n, seconds = int(sys.argv[1]), float(sys.argv[2])
games = VectorGames(n, seed=0, num_players=4)
rng, actions = np.random.default_rng(0), np.zeros(n, dtype=np.int64)
def play(until):
    wall = time.perf_counter()
    while time.perf_counter() - wall < until:
        pick_legal(games.masks, rng.random(n), actions)
        games.step(actions)
play(0.5)  # compile or load, and fill the batch with games under way
start, cpu = games.decisions, time.process_time()
play(seconds)
print(json.dumps({"decisions": games.decisions - start, "cpu": time.process_time() - cpu}))
"""

FASTCATAN = """
import json, sys, time
import numpy as np
import fastcatan
n, seconds = int(sys.argv[1]), float(sys.argv[2])
env = fastcatan.BatchedEnv(n, seed=0)
env.reset()
words = np.zeros((n, fastcatan.MASK_WORDS), dtype=np.uint64)
dones = np.zeros(n, dtype=np.uint8)
rng = np.random.default_rng(0)
def play(until):
    steps, wall = 0, time.perf_counter()
    while time.perf_counter() - wall < until:
        env.write_masks(words)
        legal = np.unpackbits(words.view(np.uint8), axis=1, bitorder="little")[:, : fastcatan.NUM_ACTIONS]
        actions = np.argmax(legal * rng.random(legal.shape), axis=1).astype(np.uint32)
        env.step_autoreset(actions, dones)
        steps += n
    return steps
play(0.5)
cpu = time.process_time()
decisions = play(seconds)
print(json.dumps({"decisions": decisions, "cpu": time.process_time() - cpu}))
"""


def measure(python: str, code: str, games: int, seconds: float) -> float:
    """Decisions per CPU-second of one fresh process running `code`."""
    out = subprocess.run([python, "-c", code, str(games), str(seconds)], capture_output=True, text=True, check=True)
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    return figures["decisions"] / figures["cpu"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer-python", required=True, help="an interpreter with fastcatan installed")
    parser.add_argument("--games", type=int, nargs="+", default=[64, 1024])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print("| games | tribune decisions per CPU-s | fastCatan decisions per CPU-s | fastCatan / tribune |")
    print("|---:|---:|---:|---:|")
    for n in args.games:
        ours, theirs = [], []
        for _ in range(args.repeats):
            ours.append(measure(sys.executable, TRIBUNE, n, args.seconds))
            theirs.append(measure(args.peer_python, FASTCATAN, n, args.seconds))
        a, b = statistics.median(ours), statistics.median(theirs)
        print(f"| {n:,} | {a:,.0f} | {b:,.0f} | {b / a:.1f}x |", flush=True)


if __name__ == "__main__":
    main()
