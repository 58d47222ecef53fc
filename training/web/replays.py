"""A game record played back for the browser: its moves, and the table at any step, whole or as one seat saw it.

Loading replays the record once, keeping per step only a few numbers (round, phase, mover,
action, where its log lines end), and for every :data:`CHUNK` steps the state at its start
and the log lines of its steps, compressed: some 45 bytes a step in all, so that a record of
10,000 rounds holds some 10 MB. The tables of a chunk are computed from its kept state, a
few steps away; the moves are produced one at a time, never all at once in memory. The page
fetches the tables a chunk at a time and steps without waiting. A seat's view shows the
table as that seat knew it (:mod:`tribune_env.table`) and the log as it could read it
(:class:`tribune_env.log.SeatLog`).
"""

from __future__ import annotations

import json
import zlib
from array import array
from collections.abc import Iterator

import numpy as np

from tribune_env import StateFormatError, saving
from tribune_env.log import SeatLog

from ..arena import records as saved

CHUNK = 64  # steps between kept states, and tables in one answer
GAME_BYTES = 16 * 2**10  # what the game each replay steps from holds (its arrays; no log, so no event buffer)
COLUMNS = ("round", "phase", "player", "action", "log_end")  # a step's numbers; player and action -1 at the deal


class Replay:
    """One record, replayed: per step who played what and the log lines it caused, and states along the way."""

    def __init__(self, record: dict):
        self._blank = saving.build(record["config"], log=False)  # a game with no log nor moves, to step from
        self.columns = {name: array("i") for name in COLUMNS}
        self.states: list[bytes] = []  # the state at the start of each chunk
        self.steps = len(record["actions"])
        game = self._play(record)
        self.n = game.n
        self.logs = [
            pack_lines(game.log[self._log_start(start) : self._log_start(stop)]) for start, stop in self._chunks()
        ]
        self._info = {
            "players": self.n,
            "agents": [str(a) for a in record["agents"]],
            "config": record["config"],
            "outcome": record["outcome"],
            "ends_as_recorded": saved.matches(game, record),
            "steps": self.steps,
            "victory": game.table()["victory"],
        }

    def _play(self, record: dict):
        """Replay the record, keeping each step's numbers and each chunk's first state; the game at its end."""
        mover, actions = -1, record["actions"]
        for game, step, _ in saved.replay(record):
            if step % CHUNK == 0:
                self.states.append(pack(game))
            numbers = (game.round, game.phase, mover, -1 if step == 0 else actions[step - 1], len(game.log))
            for name, value in zip(COLUMNS, numbers):
                self.columns[name].append(value)
            mover = game.current_player
        return game

    def info(self) -> dict:
        """What the page shows before any step: the seats, the settings, how the record says it ended."""
        return self._info

    def nbytes(self) -> int:
        """About what the replay holds in memory, to budget the replays a server keeps."""
        numbers = sum(column.itemsize * len(column) for column in self.columns.values())
        return GAME_BYTES + numbers + sum(map(len, self.states)) + sum(map(len, self.logs))

    def _chunks(self) -> Iterator[tuple[int, int]]:
        """(first step, step after the last) of each chunk."""
        return ((start, min(start + CHUNK, self.steps + 1)) for start in range(0, self.steps + 1, CHUNK))

    def _log_start(self, step: int) -> int:
        """Where the log lines of `step` begin in the whole log (those of the step before end there)."""
        return self.columns["log_end"][step - 1] if step else 0

    def _check_view(self, viewer: int | None) -> None:
        """StateFormatError unless `viewer` is None (everything) or a seat of this game."""
        if viewer is not None and not 0 <= viewer < self.n:
            raise StateFormatError(f"view {viewer}: seats of this game are 0..{self.n - 1}")

    def moves(self, viewer: int | None) -> Iterator[dict]:
        """Each step's number, round, phase, mover, move and log lines, as `viewer` could read
        them (None: all), one at a time. A seat's view leaves out the steps it could not know of
        (another player's card added to a set), as it did not see them at the table.
        """
        self._check_view(viewer)  # now, not when the first move is asked for
        return self._moves(None if viewer is None else SeatLog(viewer))

    def _moves(self, log: SeatLog | None) -> Iterator[dict]:
        for (start, stop), packed in zip(self._chunks(), self.logs):
            lines, base = unpack_lines(packed), self._log_start(start)
            for step in range(start, stop):
                move = self._move(step, lines[self._log_start(step) - base : self._log_start(step + 1) - base], log)
                if move is not None:
                    yield move

    def _move(self, step: int, lines: list[str], log: SeatLog | None) -> dict | None:
        """One step as `log`'s seat could read it (None: all), None if it could not know of it."""
        player = None if step == 0 else self.columns["player"][step]
        move = None if step == 0 else f"player_{player}: {self._blank.A.labels[self.columns['action'][step]]}"
        if log is not None:  # the move before the lines it caused: a "round " line ends the setup
            move = None if move is None else log.visible(self._blank, move)
            lines = [line for line in (log.visible(self._blank, line) for line in lines) if line is not None]
            if move is None and step > 0:
                return None
        numbers = {name: self.columns[name][step] for name in ("round", "phase")}
        return {"step": step, **numbers, "player": player, "move": move, "lines": lines}

    def tables(self, viewer: int | None, start: int, count: int) -> list[dict]:
        """The tables of steps start .. start + count - 1 (as many as there are, at most a chunk's),
        as `viewer` saw them."""
        self._check_view(viewer)
        start = max(start, 0)
        if start > self.steps:
            return []
        stop = min(start + min(count, CHUNK), self.steps + 1)
        step = start - start % CHUNK
        game = unpack(self._blank, self.states[step // CHUNK])
        out = []
        while step < stop:
            if step >= start:
                out.append(game.table(viewer))
            step += 1
            if step < stop:
                game.step(self.columns["action"][step])
        return out


def pack_lines(lines: list[str]) -> bytes:
    """Log lines, compressed (a chunk's are alike: some ten times smaller)."""
    return zlib.compress(json.dumps(lines).encode(), 1)


def unpack_lines(packed: bytes) -> list[str]:
    return json.loads(zlib.decompress(packed))


def pack(game) -> bytes:
    """A game's state and legal actions, compressed (a state is some 11 kB, mostly zeros)."""
    buffer, mask = game.handle.buffer, game.handle.mask
    return zlib.compress(buffer.tobytes() + mask.tobytes(), 1)


def unpack(blank, packed: bytes):
    """A copy of `blank` (a game of the replay) put in the state :func:`pack` kept."""
    game = blank.clone()
    buffer, mask = game.handle.buffer, game.handle.mask
    data = zlib.decompress(packed)
    buffer[:] = np.frombuffer(data, buffer.dtype, len(buffer))
    mask[:] = np.frombuffer(data, mask.dtype, len(mask), buffer.nbytes)
    return game
