"""Tribune as a single-agent Gymnasium environment: one learner against opponent policies.

Each step is one decision of the learner; the opponents' decisions in between are played
by their policies (:mod:`tribune_env.envs.opponents`) inside ``step``, so every transition is seen
from the learner's side. The reward is 0 until the game ends, then the learner's final
reward under the chosen scheme (:mod:`tribune_env.envs.rewards`), whoever made the last move;
a game cut at the round limit ends ``truncated`` with the ``score`` reward.
"""

from __future__ import annotations

import copy

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import batch_space, iterate

from ..engine import Game
from ..errors import IllegalActionError
from ..game_config import GameConfig
from ..player import PlayerView
from .observation_space import observation_space
from .opponents import LearnerSeats, Lineup, seat_policies
from .rewards import check_scheme, final_rewards
from .settings import (
    RENDER_MODES,
    check_illegal_action,
    check_render_mode,
    check_text_view,
    rendered,
    text_info,
    text_seats,
)


class SampledAction(int):
    """A random legal move drawn by :class:`LegalDiscrete`: the action, and the draw behind it.

    Generic checkers (Gymnasium's ``check_env``) draw a sample, then reset, then step it:
    the sample was legal in a decision that no longer waits. Played in another decision,
    a sample stands for that decision's legal action at the same random position, so
    "a random legal move" stays one, and the same sample in the same state is the same
    move. Plain integers get no such help: an illegal one is refused.
    """

    def __new__(cls, action: int, position: float):
        sample = super().__new__(cls, action)
        sample.position = position
        return sample

    def resolve(self, mask: np.ndarray) -> int:
        """This sample as a legal action of the decision whose mask is `mask`."""
        if mask[self]:
            return int(self)
        legal = np.flatnonzero(mask)
        return int(legal[int(self.position * len(legal))]) if len(legal) else int(self)

    def __reduce__(self):
        return SampledAction, (int(self), self.position)


class LegalDiscrete(spaces.Discrete):
    """``Discrete(n)`` whose ``sample()`` draws a legal action of the decision waiting.

    So ``env.action_space.sample()`` is a random legal move (a :class:`SampledAction`),
    and Gymnasium's and SB3's environment checkers, which step with samples, play real
    games. An explicit mask is honoured as usual. The space pickled on its own (as
    stable-baselines3 saves it in a model) leaves its environment behind and samples over
    all n actions; an environment copied or pickled whole binds its copy again
    (:meth:`bind`).
    """

    def __init__(self, n: int, legal, seed=None):
        super().__init__(n, seed=seed)
        self._legal = legal

    def sample(self, mask=None, probability=None):
        if mask is None and probability is None and self._legal is not None:
            legal = np.flatnonzero(self._legal())
            if len(legal):
                position = float(self.np_random.random())
                return SampledAction(self.start + legal[int(position * len(legal))], position)
        return super().sample(mask=mask, probability=probability)

    def bind(self, legal) -> None:
        """Sample the legal actions `legal()` gives (an environment rebinding its copy)."""
        self._legal = legal

    def __getstate__(self):
        return {**self.__dict__, "_legal": None}


class SampledActions(np.ndarray):
    """A batch of :class:`SampledAction`: what :class:`LegalBatch` samples for a vector of games."""

    def __array_finalize__(self, obj):
        self.positions = getattr(obj, "positions", None)


class LegalBatch(spaces.MultiDiscrete):
    """Gymnasium's batch of :class:`LegalDiscrete` spaces, for its vector environments.

    ``sample()`` cannot see the games (they may run in other processes), so it draws one
    action and one position per game; each game plays its own as a :class:`SampledAction`,
    which stands for that game's legal action at the position when the drawn action is
    illegal there. Every legal action of a game is then equally likely (1/n drawn directly,
    plus the illegal share spread evenly), as with the single space's sample.
    """

    def sample(self, mask=None, probability=None):
        actions = super().sample(mask=mask, probability=probability)
        if mask is not None or probability is not None:
            return actions
        batch = actions.view(SampledActions)
        batch.positions = self.np_random.random(len(actions))
        return batch


@batch_space.register(LegalDiscrete)
def _batch_legal(space: LegalDiscrete, n: int = 1) -> LegalBatch:
    return LegalBatch(np.full((n,), space.n, dtype=space.dtype), dtype=space.dtype, seed=copy.deepcopy(space.np_random))


@iterate.register(LegalBatch)
def _iterate_legal(space: LegalBatch, items):
    if isinstance(items, SampledActions) and items.positions is not None:
        return (SampledAction(int(a), float(u)) for a, u in zip(items, items.positions))
    return iter(items)


class SingleAgentEnv(gym.Env):
    """One learning seat against opponent policies; registered as ``Tribune-v0``.

    Parameters: the game, as ``config`` (a :class:`~tribune_env.GameConfig`) or as its settings
    by name; ``opponents`` (a policy for every other seat, a list of n-1 policies in seat order
    after the learner, or an :class:`OpponentPool` drawn from anew for every game; see
    :mod:`tribune_env.envs.opponents`), ``learner_seat`` (``rotate``, ``random`` or a seat
    number), ``reward`` (``win``, ``rank``, ``score``), ``render_mode`` (``ansi``, ``human``,
    ``rgb_array``), ``illegal_action`` and ``text_view`` (the learner's view in words in its
    info, as ``prompt`` and ``view``: :mod:`tribune_env.text_seat`, docs/text-seat.md).

    The observation is the learner's (float32, see docs/observation.md); its legal actions
    come from ``action_masks()`` and ``info["action_mask"]``. With ``illegal_action="raise"``
    (the default) an illegal action raises :class:`~tribune_env.errors.IllegalActionError`
    and changes nothing. With ``"lose"``, for learners without masks, it ends the game at
    once with reward -1, below every reward a played game can give, and
    ``info["illegal_action"]`` set.
    """

    metadata = {"render_modes": RENDER_MODES}

    def __init__(
        self,
        *,
        opponents="random",
        learner_seat="rotate",
        reward: str = "win",
        render_mode: str | None = None,
        illegal_action: str = "raise",
        text_view: bool = False,
        config: GameConfig | None = None,
        **settings,
    ):
        self.illegal_action = check_illegal_action(illegal_action)
        self.text_view = check_text_view(text_view)
        self.render_mode = check_render_mode(render_mode, self.metadata)
        self.reward_scheme = check_scheme(reward)
        self.config = GameConfig.of(config, **settings)
        self.num_players = self.config.num_players
        self._seats = LearnerSeats(learner_seat, self.num_players)
        self.set_opponents(opponents)
        self.observation_space = observation_space(self.config.obs_layout)
        self.action_space = LegalDiscrete(self.config.actions.size, self._legal_now)
        self.learner = 0
        self._forfeited = False
        self._has_reset = False

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.action_space.bind(self._legal_now)  # a copy samples its own game's legal moves

    def set_opponents(self, opponents):
        """Replace the opponents from the next game on (e.g. with a newer self-play snapshot)."""
        self._lineup = Lineup(opponents, self.num_players, self._generator)

    def add_opponent(self, member, weight: float = 1.0):
        """Add a member to the opponent pool (the opponents must be an OpponentPool)."""
        self._lineup.add(member, weight)

    def _generator(self) -> np.random.Generator:
        return self.np_random

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self._has_reset = True
        self._forfeited = False  # set by an illegal action under illegal_action="lose"
        if seed is not None:
            self._seats.restart()
        while True:  # a game the opponents finish alone is replayed
            self.game = Game.from_config(self.config, seed=int(self.np_random.integers(2**63)), log=self.text_view)
            self.learner = self._seats.draw(self.np_random)
            self._text = text_seats(self.text_view, [self.learner])
            drawn = [self._lineup.members[k] for k in self._lineup.draw()]
            self._by_seat = seat_policies(drawn, self.learner)
            for policy in {id(p): p for p in drawn}.values():  # once each per game
                if hasattr(policy, "reset"):
                    policy.reset()
            self._play_opponents()
            if not self.game.is_over:
                return self._observation(), self._info()

    def step(self, action):
        if not self._has_reset:
            raise gym.error.ResetNeeded("call reset() before step()")
        if self.game.is_over or self._forfeited:
            raise gym.error.ResetNeeded("the game is over: call reset() before step()")
        if isinstance(action, SampledAction):
            action = action.resolve(self.game.legal_mask())
        try:
            self.game.step(action)  # an illegal action raises, changing nothing
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._forfeited = True
            return self._observation(), -1.0, True, False, {**self._info(), "illegal_action": True}
        self._play_opponents()
        reward, terminated, truncated = 0.0, False, False
        if self.game.is_over:
            reward = float(final_rewards(self.game, self.reward_scheme)[self.learner])
            terminated, truncated = self.game.terminated, self.game.truncated
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, self._info()

    def _play_opponents(self):
        game = self.game
        while not game.is_over and game.current_player != self.learner:
            seat = game.current_player
            view = PlayerView(game, seat)
            game.step(self._by_seat[seat].act(game.observe(seat), game.legal_mask(), view))

    def _legal_now(self) -> np.ndarray:
        """The learner's legal actions now (none before the first game, once it is over or forfeited)."""
        if self._forfeited or not self._has_reset:
            return np.zeros(self.config.actions.size, dtype=np.int8)
        return self.game.legal_mask()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as bools (all False once the game is over)."""
        return self._legal_now().astype(bool)

    def _observation(self) -> np.ndarray:
        return self.game.observe(self.learner)

    def _info(self) -> dict:
        info = {"action_mask": self._legal_now().copy(), "learner_seat": self.learner}
        if not (self.game.is_over or self._forfeited):
            info.update(text_info(self._text, self.game, self.learner))
        if self.game.is_over:
            info["scores"] = self.game.scores()
            info["winners"] = self.game.winners()
        return info

    def render(self):
        """The table as the learner sees it."""
        if self.render_mode is None:
            return None
        if not self._has_reset:
            raise gym.error.ResetNeeded("call reset() before render()")
        return rendered(self.game.render(self.learner), self.render_mode)
