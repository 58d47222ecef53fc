"""A game record played back for the browser: its moves, and the table at any step, whole or as one seat saw it.

Loading replays the record once, keeping the moves and the state every :data:`CHUNK` steps,
so that memory grows by a few hundred bytes a step; the tables of a chunk are one copy and
a few steps away. The page fetches them a chunk at a time and steps without waiting. A
seat's view shows the table as that seat knew it (:mod:`tribune_env.table`) and the log as
it could read it (:class:`tribune_env.log.SeatLog`).
"""

from __future__ import annotations

import threading

from tribune_env import StateFormatError
from tribune_env.log import SeatLog

from ..arena import records as saved

CHUNK = 64  # steps between kept states, and tables in one answer


class Replay:
    """One record, replayed: the moves (who played what, the log lines it caused) and states along the way."""

    def __init__(self, record: dict):
        self.record = record
        self.checkpoints, self.steps = [], []
        actions = record["actions"]
        mover = None
        for game, step, lines in saved.replay(record):
            if step % CHUNK == 0:  # the state and its legal actions, to step on from
                self.checkpoints.append((game.handle.buffer.copy(), game.handle.mask.copy()))
            action = None if step == 0 else int(actions[step - 1])
            self.steps.append(
                {
                    "step": step,
                    "round": game.round,
                    "phase": game.phase,
                    "player": mover,
                    "action": action,
                    "lines": lines,
                }
            )
            mover = game.current_player
        self.game = game  # left at the end of the record
        self.ends_as_recorded = saved.matches(game, record)
        self._scratch = game.clone()  # a kept state is copied into it and played forward
        self._scratch.log = None
        self._lock = threading.Lock()  # the page fetches a chunk ahead while it reads one
        self.n = game.n

    def info(self) -> dict:
        """What the page shows before any step: the seats, the settings, how the record says it ended."""
        return {
            "players": self.n,
            "agents": [str(a) for a in self.record["agents"]],
            "config": self.record["config"],
            "outcome": self.record["outcome"],
            "ends_as_recorded": self.ends_as_recorded,
            "steps": len(self.steps) - 1,
            "victory": self.game.table()["victory"],
        }

    def _check_view(self, viewer: int | None) -> None:
        """StateFormatError unless `viewer` is None (everything) or a seat of this game."""
        if viewer is not None and not 0 <= viewer < self.n:
            raise StateFormatError(f"view {viewer}: seats of this game are 0..{self.n - 1}")

    def moves(self, viewer: int | None) -> list[dict]:
        """Each step's number, round, phase, mover, move and log lines, as `viewer` could read
        them (None: all). A seat's view leaves out the steps it could not know of (another
        player's card added to a set), as it did not see them at the table.
        """
        self._check_view(viewer)
        log = None if viewer is None else SeatLog(viewer)
        labels = self.game.A.labels
        out = []
        for s in self.steps:
            move = None if s["action"] is None else f"player_{s['player']}: {labels[s['action']]}"
            lines = s["lines"]
            if log is not None:  # the move before the lines it caused: a "round " line ends the setup
                move = None if move is None else log.visible(self.game, move)
                lines = [line for line in (log.visible(self.game, line) for line in lines) if line is not None]
            if move is not None or s["step"] == 0:
                out.append({k: s[k] for k in ("step", "round", "phase", "player")} | {"move": move, "lines": lines})
        return out

    def tables(self, viewer: int | None, start: int, count: int) -> list[dict]:
        """The tables of steps start .. start + count - 1 (as many as there are, at most a chunk's),
        as `viewer` saw them."""
        self._check_view(viewer)
        start = max(start, 0)
        if start >= len(self.steps):
            return []
        stop = min(start + min(count, CHUNK), len(self.steps))
        with self._lock:
            game = self._scratch
            step = start - start % CHUNK
            game.handle.buffer[:], game.handle.mask[:] = self.checkpoints[step // CHUNK]
            out = []
            while step < stop:
                if step >= start:
                    out.append(game.table(viewer))
                step += 1
                if step < stop:
                    game.step(self.steps[step]["action"])
            return out
