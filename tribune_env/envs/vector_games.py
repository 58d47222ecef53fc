"""N games of Tribune stepped together, as arrays: the core of the vector environment.

Every game keeps its state, mask and parameters in one row of shared 2-D arrays, so one
compiled call steps all games and one fills all observations (:mod:`tribune_env.core.batch`).
Each game is seen from its *acting* player: ``observations[i]`` and ``masks[i]`` belong to
``players[i]``. A game that ends is replaced at once by a new one (automatic reset); its
final rewards, one per seat, are returned by the step that ended it.
"""

from __future__ import annotations

import numpy as np

from ..core import native
from ..core.batched import actors, observe_batch, step_batch
from ..core.events import CAPACITY, WIDTH
from ..data import MAX_PLAYERS
from ..engine import Game
from ..errors import ConfigError, IllegalActionError
from .rewards import check_scheme, final_rewards
from .settings import game_settings


class VectorGames:
    """`num_envs` games with the same configuration, each seen by its player to act.

    Parameters: ``num_envs``, ``seed``, ``reward`` (scheme of the final rewards) and the
    game configuration of :class:`~tribune_env.engine.Game` (``num_players``,
    ``victory_card``, ``point_variant``, ``round_limit``, ``auto_forced``, ``data``).
    """

    def __init__(self, num_envs: int, seed=None, reward: str = "win", **config):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ConfigError(f"num_envs must be a positive int, got {num_envs!r}")
        if "seed" in config or "log" in config:
            raise ConfigError("seed is an argument of VectorGames itself, and games in a batch keep no log")
        self.num_envs = int(num_envs)
        self.reward_scheme = check_scheme(reward)
        self._config, first = game_settings(**config)
        self.num_players = first.n
        self.obs_layout = first.obs_layout
        self.action_size = first.A.size
        self._offsets = first.obs_layout.offsets
        self._meta_at = first.state.layout.offsets["meta"][0]
        self._tasks_at = first.state.layout.offsets["tasks"][0]
        n = self.num_envs
        self._buffers = np.zeros((n, first.handle.buffer.size), dtype=np.int32)
        self._params = np.zeros((n, first.handle.params.size), dtype=np.int64)
        self._templates = np.zeros((n, first.obs_layout.size), dtype=np.float32)
        self._events = np.zeros((CAPACITY, WIDTH), dtype=np.int32)
        self.masks = np.zeros((n, self.action_size), dtype=np.int8)
        self.observations = np.zeros((n, first.obs_layout.size), dtype=np.float32)
        self.players = np.zeros(n, dtype=np.int64)
        self.games: list[Game] = [first] * n
        self.decisions = 0  # actions applied, for throughput figures
        self.reset(seed)

    def reset(self, seed=None):
        """New games for every slot; returns (observations, masks, players)."""
        self._seeds = np.random.default_rng(seed)
        self.finished: dict[int, Game] = {}
        for i in range(self.num_envs):
            self._new_game(i)
        actors(self._buffers, self._meta_at, self._tasks_at, self.players)
        self._observe(np.ones(self.num_envs, dtype=bool))
        return self.observations, self.masks, self.players

    def _new_game(self, i: int):
        game = Game(seed=int(self._seeds.integers(2**63)), **self._config)
        self._templates[i] = game.obs_template
        game.move_to(self._buffers[i], self._params[i], self.masks[i])
        self.games[i] = game

    def _observe(self, rows: np.ndarray):
        """The acting player's observation of each game in `rows`."""
        observe_batch(
            self._buffers,
            self._params,
            self._offsets,
            self._templates,
            np.where(rows, self.players, -1),
            self.observations,
        )

    def step(self, actions):
        """Apply one action per game (-1 leaves a game as it is); replace the games that end.

        Returns ``(observations, masks, players, rewards, ended)``: ``rewards`` is
        (num_envs, 5) float32, each seat's final reward in the games that ended in this
        step and zero elsewhere; ``ended`` holds, per game, 0 (going on), 1 (terminated) or
        2 (truncated at the round limit). The games that ended are in ``finished[i]``.
        """
        actions = self._check(actions)
        native.ready()
        step_batch(self._buffers, self._params, self._events, self.masks, actions)
        self.decisions += int((actions >= 0).sum())
        rewards = np.zeros((self.num_envs, MAX_PLAYERS), dtype=np.float32)
        ended = np.zeros(self.num_envs, dtype=np.int8)
        actors(self._buffers, self._meta_at, self._tasks_at, self.players)
        self.finished = {}
        for i in np.flatnonzero(self.players < 0):
            game = self.games[i]
            ended[i] = game.status
            rewards[i, : game.n] = final_rewards(game, self.reward_scheme)
            game.move_to(*(a.copy() for a in game.handle))
            self.finished[int(i)] = game
            self._new_game(i)
            self.players[i] = self.games[i].current_player
        self._observe(actions >= 0)
        return self.observations, self.masks, self.players, rewards, ended

    def _check(self, actions) -> np.ndarray:
        return check_actions(actions, self.masks, self.players)


def check_actions(actions, masks: np.ndarray, players: np.ndarray | None = None) -> np.ndarray:
    """The actions as int64 (-1: the game sits out), or IllegalActionError naming the first bad game."""
    actions = np.asarray(actions)
    num_envs, action_size = masks.shape
    if actions.shape != (num_envs,) or not np.issubdtype(actions.dtype, np.integer):
        raise IllegalActionError(f"actions must be {num_envs} ints, got {actions.dtype} array of shape {actions.shape}")
    if actions.dtype.kind == "u" and (actions >= action_size).any():  # before the cast: 2**64-1 is not -1
        i = int(np.flatnonzero(actions >= action_size)[0])
        raise IllegalActionError(f"game {i}: action {int(actions[i])} is not legal (actions are 0..{action_size - 1})")
    actions = actions.astype(np.int64)
    rows = np.flatnonzero(actions >= 0)
    bad = actions[rows] >= action_size
    bad[~bad] = masks[rows[~bad], actions[rows[~bad]]] == 0
    if bad.any() or (actions < -1).any():
        i = int(rows[bad][0]) if bad.any() else int(np.flatnonzero(actions < -1)[0])
        who = "" if players is None else f" for player_{int(players[i])}"
        raise IllegalActionError(f"game {i}: action {int(actions[i])} is not legal{who}")
    return actions
