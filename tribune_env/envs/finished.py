"""The games that ended in a batch's step: their results as arrays, each game a ``Game`` on demand.

A batch deals a new game into a row as soon as the old one ends, so the old one's state is
copied out first. Most users of a batch want only its results (points, winners, the final
observation of one seat), which compiled loops read from the copies for all of them at once;
a :class:`~tribune_env.engine.Game` is made for a row only when someone asks for it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import numpy as np

from .._compiler import native
from ..core.batched import observe_batch, results
from ..data import MAX_PLAYERS
from ..engine import Game
from ..state import Meta, Status
from .rewards import rewards_of


class FinishedGames(Mapping):
    """``finished[row]``: the game that ended in `row`, as a :class:`Game` with arrays of its own.

    ``rows`` are the rows in ascending order; per row (the same order): ``status`` (a
    :class:`~tribune_env.state.Status`), ``points`` and ``won`` (a seat a column, as
    ``Game.scores()`` and ``Game.winners()``), ``victory_cards`` (the card's id, or None) and
    :meth:`observe`. `shells` are the games someone already holds for these rows: they become
    the finished games, so a ``Game`` taken from a row before its end is the one found here.
    """

    def __init__(self, rows: np.ndarray, kinds: list[Game], handle: tuple, meta_at: int, obs_layout, shells: dict):
        self.rows = rows
        self._kinds, self._obs_layout = kinds, obs_layout
        self._buffers, self._params, self._masks = handle
        self.status = self._buffers[:, meta_at + Meta.STATUS].astype(np.int8)
        self.points = np.zeros((len(rows), MAX_PLAYERS), dtype=np.int64)
        self.won = np.zeros((len(rows), MAX_PLAYERS), dtype=np.bool_)
        if len(rows):
            native.ready()
            results(self._buffers, self._params, self.points, self.won)
        self._games: dict[int, Game] = {}
        for j, row in enumerate(rows.tolist()):
            shell = shells.get(row)
            if shell is not None:  # its arrays are the row's: it moves to the copy
                shell.move_to(self._buffers[j], self._params[j], self._masks[j])
                self._games[row] = shell

    @property
    def victory_cards(self) -> list[str | None]:
        return [None if kind.victory_card is None else kind.victory_card.id for kind in self._kinds]

    def rewards(self, scheme: str) -> np.ndarray:
        """(games, 5) float32: each seat's final reward by `scheme` (:func:`~tribune_env.envs.rewards.final_rewards`)."""
        out = np.zeros((len(self.rows), MAX_PLAYERS), dtype=np.float32)
        for j, kind in enumerate(self._kinds):
            n = kind.n
            out[j, :n] = rewards_of(self.points[j, :n], self.won[j, :n], self.status[j] == Status.TRUNCATED, scheme)
        return out

    def observe(self, seats: np.ndarray) -> np.ndarray:
        """(games, observation size) float32: the final observation of ``seats[j]`` in the j-th game."""
        given = np.asarray(seats)
        n = self._kinds[0].n if self._kinds else 0
        inside = given.size == 0 or bool(((given >= 0) & (given < n)).all())
        if given.shape != self.rows.shape or not np.issubdtype(given.dtype, np.integer) or not inside:
            raise ValueError(f"seats must be {len(self.rows)} ints in 0..{n - 1}, one per game, got {seats!r}")
        out = np.zeros((len(self.rows), self._obs_layout.size), dtype=np.float32)
        native.ready()
        observe_batch(self._buffers, self._params, self._obs_layout.offsets, given.astype(np.int64), out)
        return out

    def __getitem__(self, row) -> Game:
        game = self._games.get(row)
        if game is None:
            j = self._index(row)
            game = self._games[row] = self._kinds[j].bound_to(self._buffers[j], self._params[j], self._masks[j])
        return game

    def _index(self, row) -> int:
        j = int(np.searchsorted(self.rows, row))
        if j == len(self.rows) or self.rows[j] != row:
            raise KeyError(row)
        return j

    def __contains__(self, row) -> bool:
        return bool(np.any(self.rows == row))

    def __iter__(self) -> Iterator[int]:
        return iter(self.rows.tolist())

    def __len__(self) -> int:
        return len(self.rows)
