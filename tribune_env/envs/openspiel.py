"""Tribune as an OpenSpiel Python game, registered as ``python_tribune`` when imported.

``pyspiel.load_game("python_tribune", {"players": 4})`` then works as for OpenSpiel's own
games. Parameters: ``players`` (2-5), ``victory_card`` (an id; "" draws one as the rules
do), ``point_variant``, ``round_limit``, ``reward`` (``win``, ``rank``, ``score``: see
:mod:`tribune_env.envs.rewards`) and ``rng_seed``.

Chance is one explicit chance node, first: it picks the deal among ``deals`` equally likely
ones (65,536 by default). A deal is a seed of the engine's generator, so it settles the
order of the deck and every later shuffle, which the players learn only as cards come out,
as a deck shuffled once at the start would. Algorithms that enumerate chance see ``deals``
branches at the root: sampling algorithms apply as they are (IS-MCTS, outcome- and
external-sampling MCCFR, NFSP, PSRO with sampled payoffs, R-NaD); exact tree walks (CFR,
best responses and exploitability, expectiminimax, sequence-form LPs) would have to walk
every deal and the game tree behind it, out of reach for a game of this size. The chance
node is explicit rather than "sampled stochastic" because OpenSpiel serialises a sampled
stochastic game with its generator, which a Python game cannot expose.

Every reward scheme sums to zero over the seats, so the game is declared zero-sum, with
utilities in [-1, 1], paid at the end only. Observation tensors are the seat's observation
(docs/observation.md); the observation string is the table as the seat sees it. The
information state string is the seat's perfect-recall view: the game's log as the seat read
it at the table (``Game.seat_log``) followed by the table as it sees it now; the
information state tensor is the observation, which carries every memory the rules let
matter (cards seen going into hands, the Catacombs looked at, bids). A state is serialised
as its deal and its moves (OpenSpiel's history), and loading replays the moves through the
engine.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from ..data import DEFAULT_DATA, MAX_PLAYERS, MIN_PLAYERS, VICTORY_CARDS
from ..engine import Game
from ..errors import ConfigError
from .rewards import check_scheme, final_rewards

NAME = "python_tribune"
TURNS_PER_PLAYER_ROUND = 40  # far above what any game has taken (random play: about 12)
_PARAMETERS = {
    "players": 4,
    "victory_card": "",
    "point_variant": False,
    "round_limit": DEFAULT_DATA.round_limit,
    "reward": "win",
    "deals": 2**16,
    "rng_seed": 0,
}
_GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Python Tribune: Primus Inter Pares",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


class TribuneGame(pyspiel.Game):
    """The game's settings, checked when it is loaded."""

    def __init__(self, params=None):
        settings = {**_PARAMETERS, **(params or {})}
        self.reward_scheme = check_scheme(settings["reward"])
        card = settings["victory_card"] or None
        if card is not None and card not in VICTORY_CARDS:
            raise ConfigError(f"unknown victory_card {card!r}; choose one of {sorted(VICTORY_CARDS)} or ''")
        self.deals, self.rng_seed = settings["deals"], settings["rng_seed"]
        if not 1 <= self.deals <= 2**31 - 1 or self.rng_seed < 0:
            raise ConfigError(
                f"deals must be 1 to 2**31-1 and rng_seed at least 0, got {self.deals} and {self.rng_seed}"
            )
        self.config = {
            "num_players": settings["players"],
            "victory_card": card,
            "point_variant": bool(settings["point_variant"]),
            "round_limit": settings["round_limit"],
            "log": True,
        }
        probe = Game(seed=0, **self.config)  # refuses a bad setting here, with a ConfigError
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.A.size,
            max_chance_outcomes=self.deals,
            num_players=probe.n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=probe.round_limit * TURNS_PER_PLAYER_ROUND * probe.n,
        )
        super().__init__(_GAME_TYPE, info, settings)
        self.observation_size = probe.obs_layout.size

    def new_initial_state(self):
        return TribuneState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"the Tribune observer takes no parameters, got {params}")
        return TribuneObserver(self.observation_size, iig_obs_type)


def deal_seed(rng_seed: int, deal: int) -> int:
    """The engine's seed for chance outcome `deal` of a game loaded with `rng_seed`."""
    return int(np.random.SeedSequence([rng_seed, deal]).generate_state(1, np.uint64)[0] >> np.uint64(1))


class _Table:
    """The engine's game behind a state: copied as a clone, pickled as nothing (the state then
    deals it again and replays its moves) unless it was resampled, when it is pickled whole."""

    __slots__ = ("game", "replayable")

    def __init__(self, game: Game | None = None, replayable: bool = True):
        self.game, self.replayable = game, replayable

    def __deepcopy__(self, memo):
        return _Table(None if self.game is None else self.game.clone(), self.replayable)

    def __reduce__(self):
        if self.replayable or self.game is None:
            return _Table, ()
        return _Table, (self.game, False)  # a resampled world has no moves to replay: pickled whole


class TribuneState(pyspiel.State):
    """One game: a deal (the chance outcome) and the moves played since, over the engine's game."""

    def __init__(self, game: TribuneGame):
        super().__init__(game)
        self._config = game.config
        self._scheme = game.reward_scheme
        self._deals = game.deals
        self._seed = None  # the engine's seed, once chance has dealt
        self._rng_seed = game.rng_seed
        self._moves: list[int] = []
        self._table = _Table()
        self._strings: dict = {}  # (player, perfect recall) -> string, for this position

    @property
    def dealt(self) -> bool:
        return self._seed is not None or self._table.game is not None

    @property
    def table(self) -> Game:
        """The engine's game, dealt (and its moves replayed) when first needed."""
        if self._table.game is None:
            table = Game(seed=self._seed, **self._config)
            for action in self._moves:
                table.step(action)
            self._table.game = table
        return self._table.game

    def current_player(self):
        if not self.dealt:
            return pyspiel.PlayerId.CHANCE
        table = self.table
        return pyspiel.PlayerId.TERMINAL if table.is_over else table.current_player

    def chance_outcomes(self):
        return [(deal, 1.0 / self._deals) for deal in range(self._deals)] if not self.dealt else []

    def _legal_actions(self, player):
        return [] if self.table.is_over else self.table.legal_actions().tolist()

    def _apply_action(self, action):
        self._strings = {}
        if not self.dealt:
            self._seed = deal_seed(self._rng_seed, int(action))
        else:
            self.table.step(action)
            self._moves.append(int(action))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return f"player_{player}: {self.table.A.labels[action]}"

    def is_terminal(self):
        return self.dealt and self.table.is_over

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self.num_players()
        return final_rewards(self.table, self._scheme).tolist()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one: everything it could not see re-dealt
        (``Game.determinize``), drawn with the caller's sampler."""
        state = self.clone()
        seed = int(probability_sampler() * 2**63)
        state._table = _Table(self.table.determinize(player_id, np.random.default_rng(seed)), replayable=False)
        state._strings = {key: text for key, text in self._strings.items() if key[0] == player_id}
        return state

    def __str__(self):
        return self.table.render() if self.dealt else "before the deal"


def state_of(table: Game) -> TribuneState:
    """An OpenSpiel state over a game of the engine's (a determinisation, say), under the
    ``python_tribune`` settings of that game. Its OpenSpiel history is empty: only its
    game says what happened, and its information state strings hold that game's log only
    if it keeps one (``Game(log=True)``; the table as the seat sees it otherwise)."""
    card = table.victory_card
    if table.data is not DEFAULT_DATA or (card is not None and VICTORY_CARDS.get(card.id) != card):
        raise ConfigError("state_of takes games of the standard components (docs/rules.md)")
    params = {"players": table.n, "point_variant": table.point_variant, "round_limit": table.round_limit}
    state = pyspiel.load_game(NAME, {**params, "victory_card": card.id if card else ""}).new_initial_state()
    state._table = _Table(table, replayable=False)
    return state


class TribuneObserver:
    """The observation (or information state) of one seat, as tensor and string."""

    def __init__(self, size: int, iig_obs_type=None):
        if iig_obs_type is not None and not (
            iig_obs_type.public_info and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError("Tribune observes for one seat: public information and that seat's private information")
        self.perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TribuneState, player: int):
        if state.dealt:
            state.table.observe(player, self.tensor)
        else:
            self.tensor[:] = 0.0

    def string_from(self, state: TribuneState, player: int) -> str:
        """Kept with the state until it moves on: search asks for the same strings often."""
        key = (player, self.perfect_recall)
        if key not in state._strings:
            state._strings[key] = self._string(state, player)
        return state._strings[key]

    def _string(self, state: TribuneState, player: int) -> str:
        if not state.dealt:
            return "before the deal"
        view = state.table.render(player)
        log = state.table.seat_log(player) if self.perfect_recall else None
        return view if log is None else "\n".join(log) + "\n\n" + view  # a game kept without a log: the table


pyspiel.register_game(_GAME_TYPE, TribuneGame)
