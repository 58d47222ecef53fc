"""A game record played back for the browser: its moves, and the table at any step, whole or as one seat saw it.

Loading replays the record once and keeps the state buffer of every step (a few kilobytes
each), so that the table at any step, in any view, is one copy and one :meth:`Game.table`
away: the page fetches them a chunk at a time and steps without waiting. A seat's view
shows the table as that seat knew it (:mod:`tribune_env.table`) and the log as it could
read it (:class:`training.arena.play.SeatLog`).
"""

from __future__ import annotations

import threading

from tribune_env import StateFormatError

from ..arena import records as saved
from ..arena.play import SeatLog

MAX_CHUNK = 256  # tables in one response


class Replay:
    """One record, replayed: the moves (who played what, the log lines it caused) and the states between them."""

    def __init__(self, record: dict):
        self.record = record
        self.snapshots, self.steps = [], []
        actions = record["actions"]
        for game, step, lines in saved.replay(record):
            self.snapshots.append(game.state.buffer.copy())
            actor = None if step == 0 else self.steps[-1]["next"]
            self.steps.append(
                {
                    "step": step,
                    "round": game.round,
                    "phase": game.phase,
                    "player": actor,
                    "action": None if step == 0 else int(actions[step - 1]),
                    "lines": lines,
                    "next": game.current_player,
                }
            )
        self.game = game  # left at the end of the record
        self.ends_as_recorded = saved.matches(game, record)
        self._scratch = game.clone()  # any step's state is copied into it to be read
        self._scratch.log = None
        self._lock = threading.Lock()  # the page fetches a chunk ahead while it reads one
        self.n = game.n

    def info(self) -> dict:
        """What the page shows before any step: the seats, the settings, how the record says it ended."""
        return {
            "players": self.n,
            "agents": self.record["agents"],
            "config": self.record["config"],
            "outcome": self.record["outcome"],
            "ends_as_recorded": self.ends_as_recorded,
            "steps": len(self.steps) - 1,
            "victory": self.game.table()["victory"],
        }

    def moves(self, viewer: int | None) -> list[dict]:
        """Every step's round, phase, mover, move and log lines, as `viewer` could read them (None: all)."""
        log = None if viewer is None else SeatLog(viewer)
        labels = self.game.A.labels
        out = []
        for s in self.steps:
            label = None if s["action"] is None else f"player_{s['player']}: {labels[s['action']]}"
            lines = s["lines"]
            if log is not None:
                lines = [log.visible(self.game, line) for line in lines]
                label = None if label is None else log.visible(self.game, label)
            out.append({k: s[k] for k in ("step", "round", "phase", "player")} | {"move": label, "lines": lines})
        return out

    def tables(self, viewer: int | None, start: int, count: int) -> list[dict]:
        """The tables of steps start .. start + count - 1 (as many as there are), as `viewer` saw them."""
        if viewer is not None and not 0 <= viewer < self.n:
            raise StateFormatError(f"seat {viewer} is outside 0..{self.n - 1} of this {self.n}-player game")
        stop = min(start + min(count, MAX_CHUNK), len(self.snapshots))
        with self._lock:
            out = []
            for step in range(max(start, 0), stop):
                self._scratch.state.buffer[:] = self.snapshots[step]
                out.append(self._scratch.table(viewer))
            return out
