"""A vector of single-agent games for training: a stable-baselines3 ``VecEnv``.

``VectorEnv`` steps N games at once on :class:`~tribune_env.envs.vector_games.VectorGames`. In every
game one seat is the learner, as in :class:`~tribune_env.envs.single.SingleAgentEnv`: ``step``
takes one learner action per game, lets the opponents play (a policy with ``act_batch``
decides for all its games in one call; the heuristic plays all its moves in one compiled call
with ``play_rows``) until each game waits on its learner again, and
returns batched observations, rewards and dones. A game that ends is replaced at once
(automatic reset); its last observation is in ``infos[i]["terminal_observation"]``, with
``infos[i]["TimeLimit.truncated"]`` for a game cut at the round limit, and its victory card in
``infos[i]["victory_card"]`` (``set_card_weights`` chooses the cards of the games to come).

With stable-baselines3 installed this class *is* an SB3 ``VecEnv``, so SB3 and
sb3-contrib's MaskablePPO take it as it is; ``action_masks()`` gives the (N, actions)
masks. Without it the same methods work; only the base class is missing.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from ..data import MAX_PLAYERS
from ..errors import ConfigError
from ..player import PlayerView
from ..state import Status
from .observation_space import observation_space
from .opponents import LearnerSeats, Lineup
from .vector_games import VectorGames

try:
    from stable_baselines3.common.vec_env import VecEnv as _Base
except ImportError:  # stable-baselines3 belongs to the 'train' extra
    _Base = object


class VectorEnv(_Base):
    """`num_envs` games, each with one learner seat against the opponents.

    Parameters as :class:`~tribune_env.envs.single.SingleAgentEnv` (``opponents``,
    ``learner_seat``, ``reward``, the game as ``config`` or its settings by name, ``num_players``
    among them also second by position), plus ``num_envs``, ``seed``, ``threads`` (as
    :class:`~tribune_env.envs.vector_games.VectorGames` takes it). An
    :class:`~tribune_env.envs.opponents.OpponentPool` is drawn from anew for each game.
    With ``learner_seat="rotate"`` game slot i starts at seat i mod n, so the
    learners are spread over the seats at every moment. A policy object serves all games
    at once, so opponents must not keep per-game state.
    """

    def __init__(
        self,
        num_envs: int = 8,
        num_players: int | None = None,
        opponents="random",
        learner_seat="rotate",
        reward: str = "win",
        seed=None,
        **settings,
    ):
        if num_players is not None:  # given by position or name; else the config's
            settings["num_players"] = num_players
        self.games = VectorGames(num_envs, seed=seed, reward=reward, **settings)
        self.num_players = n = self.games.num_players
        self._rng = np.random.default_rng(seed)
        self._seats = [LearnerSeats(learner_seat, n, first=i) for i in range(num_envs)]
        self.set_opponents(opponents)
        space = observation_space(self.games.obs_layout)
        self._init_spaces(num_envs, space, spaces.Discrete(self.games.action_size))
        self._seeds = [None] * num_envs
        self._learner = np.zeros(num_envs, dtype=np.int64)
        self._who = np.full((num_envs, MAX_PLAYERS), -1, dtype=np.int64)  # policy index per seat
        self._readers = np.zeros((num_envs, MAX_PLAYERS), dtype=bool)  # seats whose observations are read
        self._samplers = np.ones((num_envs, MAX_PLAYERS, 4), dtype=np.int32)  # per seat, for play_rows opponents
        self._actions = None

    def _init_spaces(self, num_envs: int, observation_space, action_space) -> None:
        """What SB3's ``VecEnv.__init__`` sets, and the same without stable-baselines3."""
        self.render_mode = None
        if _Base is object:
            self.num_envs, self.observation_space, self.action_space = num_envs, observation_space, action_space
            self.reset_infos = [{} for _ in range(num_envs)]
            self._options = [{} for _ in range(num_envs)]
        else:
            _Base.__init__(self, num_envs, observation_space, action_space)

    def _generator(self) -> np.random.Generator:
        return self._rng

    def set_opponents(self, opponents):
        """Replace the opponents for every game in progress and to come.

        The games in progress keep their seats' indices into the members, so the new
        opponents must have at least as many: as many fixed ones, or a pool as large.
        """
        lineup = Lineup(opponents, self.num_players, self._generator)
        if hasattr(self, "_who") and self._who.max() >= len(lineup.members):
            raise ConfigError(
                f"games in progress seat {self._who.max() + 1} opponent members; "
                f"the new opponents have only {len(lineup.members)}"
            )
        self._lineup, self._kinds_of = lineup, None
        if hasattr(self, "_who"):  # the games in progress: the new members' seats
            for i, seat in zip(*np.nonzero(self._who >= 0)):
                self._seat(i, seat, self._who[i, seat])

    def add_opponent(self, member, weight: float = 1.0):
        """Add a member to the opponent pool, drawn from in the games to come."""
        self._lineup.add(member, weight)

    def set_card_weights(self, weights: dict | None) -> None:
        """How the games to come get their victory card (:attr:`VectorGames.card_weights`)."""
        self.games.card_weights = weights

    # ----------------------------------------------------------------- VecEnv interface
    def seed(self, seed=None):
        """Seed the next reset (the games' generator is seeded with seed)."""
        self._seeds = [None if seed is None else seed + i for i in range(self.num_envs)]
        return self._seeds

    def reset(self) -> np.ndarray:
        seed = self._seeds[0]
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            for seats in self._seats:
                seats.restart()
        self.games.reset(seed if seed is not None else int(self._rng.integers(2**63)))
        self._seeds = [None] * self.num_envs
        for i in range(self.num_envs):
            self._seat_learner(i)
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=bool)
        infos = [{} for _ in range(self.num_envs)]
        self._play_opponents(rewards, dones, infos)
        self.reset_infos = [{"learner_seat": int(s)} for s in self._learner]
        return self._observations()

    def step_async(self, actions) -> None:
        self._actions = actions

    def step_wait(self):
        actions, self._actions = self._actions, None
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=bool)
        infos = [{} for _ in range(self.num_envs)]
        groups = self._kinds()[0]
        if groups:  # the learners' moves go into the call of the opponents that play their own
            self._play_group(groups[0], np.arange(self.num_envs), rewards, dones, infos, actions)
        else:
            self._advance(actions, rewards, dones, infos)
        self._play_opponents(rewards, dones, infos)
        return self._observations(), rewards, dones, infos

    def step(self, actions):
        self.step_async(actions)
        return self.step_wait()

    def action_masks(self) -> np.ndarray:
        """(num_envs, actions) bool: each learner's legal actions now."""
        return self.games.masks.astype(bool)

    def close(self) -> None:
        self.games.close()

    def get_attr(self, attr_name, indices=None):
        """The attribute of this environment once per game (the games share configuration)."""
        return [getattr(self, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name, value, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        """``action_masks`` per game; any other method is called once, its result given per game."""
        rows = self._indices(indices)
        if method_name == "action_masks":
            return list(self.action_masks()[rows])
        return [getattr(self, method_name)(*method_args, **method_kwargs)] * len(rows)

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False] * len(self._indices(indices))

    def get_images(self):
        raise NotImplementedError("VectorEnv has no image rendering; render games with Game.render")

    def _indices(self, indices) -> list:
        if indices is None:
            return list(range(self.num_envs))
        return [indices] if isinstance(indices, (int, np.integer)) else list(indices)

    # ----------------------------------------------------------------- the games
    def _observations(self) -> np.ndarray:
        """Every learner's observation now (each game waits on its learner)."""
        return self.games.observations.copy()

    def _views(self, idx) -> list:
        g = self.games
        return [PlayerView(g.games[i], int(g.players[i])) for i in idx]

    def _seat_learner(self, i: int):
        n = self.num_players
        learner = self._seats[i].draw(self._rng)
        self._learner[i] = learner
        self._who[i] = -1
        self._readers[i] = False
        self._readers[i, learner] = True
        for j, member in enumerate(self._lineup.draw(), start=1):
            self._seat(i, (learner + j) % n, member)

    def _seat(self, i: int, seat: int, member: int):
        """Member `member` of the lineup plays `seat` in game i: whether it reads its observations,
        and its generator there if it plays its moves itself (``play_rows``)."""
        policy = self._lineup.members[member]
        self._who[i, seat] = member
        self._readers[i, seat] = getattr(policy, "reads_observations", True)
        if hasattr(policy, "play_rows"):
            self._samplers[i, seat] = policy.sampler()

    def _play_opponents(self, rewards, dones, infos):
        """Step every game whose opponent is to act until all wait on their learner.

        Opponents whose class has ``play_rows`` (the heuristic) play on in their games for as
        long as one of them is to act, all the seats of that class in one call, each seat with
        its own generator; the others decide one move a game at a time."""
        rows = np.arange(self.num_envs)
        members = self._lineup.members
        while True:
            acting = self._who[rows, self.games.players]
            if (acting < 0).all():
                return
            groups, deciders = self._kinds()
            for group in groups:
                idx = np.flatnonzero(self._in_group(acting, group))
                if idx.size:
                    self._play_group(group, idx, rewards, dones, infos)
            actions = np.full(self.num_envs, -1, dtype=np.int64)
            for j in deciders:
                idx = np.flatnonzero(acting == j)
                if idx.size:
                    actions[idx] = self._decide(members[j], idx)
            if (actions >= 0).any():
                self._advance(actions, rewards, dones, infos)

    def _play_group(self, group, idx, rewards, dones, infos, actions=None):
        """The seats of the lineup's members `group` (of one class) play on in the games `idx`,
        after the learners' `actions` there if given: one ``play_rows`` call."""
        seats = self._in_group(self._who, group)
        member = self._lineup.members[group[0]]
        played = member.play_rows(self.games, idx, seats, self._samplers, self._readers, actions=actions)
        self._record(*played[3:], rewards, dones, infos)

    def _in_group(self, who: np.ndarray, group: list[int]) -> np.ndarray:
        """Where the member indices `who` (-1: a learner) are among `group`: ``np.isin`` at a
        fraction of its cost on arrays this small."""
        lookup = np.zeros(len(self._lineup.members) + 1, dtype=bool)  # the last entry stands for -1
        lookup[group] = True
        return lookup[who]

    def _kinds(self) -> tuple[list[list[int]], list[int]]:
        """The lineup's members that play their moves themselves, grouped by the class whose
        ``play_rows`` plays them, and those that decide one move at a time (kept until the
        lineup grows)."""
        members = self._lineup.members
        if self._kinds_of is None or self._kinds_of[0] != len(members):
            groups, deciders = {}, []
            for j, member in enumerate(members):
                if hasattr(member, "play_rows"):
                    groups.setdefault(type(member), []).append(j)
                else:
                    deciders.append(j)
            self._kinds_of = (len(members), (list(groups.values()), deciders))
        return self._kinds_of[1]

    def _decide(self, policy, idx: np.ndarray) -> np.ndarray:
        g = self.games
        if hasattr(policy, "act_rows"):  # decides from the batch's arrays, in one call (the heuristic)
            return policy.act_rows(*g.handle, idx, g.deck_counts)
        if not hasattr(policy, "act_batch"):
            return [policy.act(g.observations[i], g.masks[i], view) for i, view in zip(idx, self._views(idx))]
        return policy.act_batch(g.observations[idx], g.masks[idx])

    def _advance(self, actions, rewards, dones, infos):
        """One VectorGames step; record the learner's end of every game that finished."""
        self._record(*self.games.step(actions, self._readers)[3:], rewards, dones, infos)

    def _record(self, final, ended, rewards, dones, infos):
        """The learner's end of every game that finished in the last step, and its next seating."""
        finished = self.games.finished
        if not len(finished):
            return
        learners = self._learner[finished.rows]
        last = finished.observe(learners)
        for j, (i, learner, card) in enumerate(zip(finished.rows.tolist(), learners.tolist(), finished.victory_cards)):
            rewards[i] = final[i, learner]
            dones[i] = True
            infos[i] = {
                "terminal_observation": last[j],
                "TimeLimit.truncated": int(ended[i]) == Status.TRUNCATED,
                "learner_seat": learner,
                "scores": finished.points[j, : self.num_players].copy(),
                "winners": np.flatnonzero(finished.won[j]).tolist(),
                "victory_card": card,
            }
            self._seat_learner(i)
