"""The memory one replay of `tribune serve` takes, for a record of many rounds.

Plays a game to its round limit (each player taking its first legal action, so that no one
wins early), opens its record as the web app does (:class:`training.web.replays.Replay`),
and measures with tracemalloc what the replay holds, the peak while it is built, and the
peak above that while its moves are sent (as the server sends them, a batch at a time) and
while a chunk of tables is computed. tracemalloc slows Python down some ten times: a record
of 10,000 rounds takes minutes.

    python benchmarks/web_replay_memory.py [--players 2] [--rounds 10000]
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

from training.web.app import json_list
from training.web.replays import Replay
from tribune_env import Game, saving

MIB = 2**20


def long_record(players: int, rounds: int) -> dict:
    game = Game(players, seed=1, round_limit=rounds)
    while not game.is_over:
        game.step(int(game.legal_actions()[0]))
    return saving.record(game, ["first"] * players)


def peak_above(held: int, work, *args) -> tuple[float, object]:
    """The peak of traced memory above `held` while `work(*args)` runs, in MiB, and its result."""
    tracemalloc.reset_peak()
    result = work(*args)
    return (tracemalloc.get_traced_memory()[1] - held) / MIB, result


def moves_sent(replay: Replay, viewer: int | None) -> int:
    """Bytes of the moves as the server sends them."""
    return sum(map(len, json_list("moves", replay.moves(viewer))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=10_000)
    args = parser.parse_args()
    record = long_record(args.players, args.rounds)
    print(f"record: {args.players} players, {args.rounds:,} rounds, {len(record['actions']):,} steps")
    tracemalloc.start()
    start = time.perf_counter()
    replay = Replay(record)
    seconds = time.perf_counter() - start
    held, built = tracemalloc.get_traced_memory()
    del record
    print(f"replay held: {held / MIB:.1f} MiB (its own estimate {replay.nbytes() / MIB:.1f} MiB), ", end="")
    print(f"peak while built {built / MIB:.1f} MiB, {seconds:.0f} s under tracemalloc")
    for viewer in (None, 0):
        peak, size = peak_above(held, moves_sent, replay, viewer)
        print(f"moves, view {viewer}: {size / MIB:.1f} MiB of JSON sent, peak {peak:.1f} MiB above the replay")
    peak, _ = peak_above(held, replay.tables, 0, replay.steps // 2, 64)
    print(f"a chunk of 64 tables: peak {peak:.1f} MiB above the replay")


if __name__ == "__main__":
    main()
