"""Tribune as an OpenSpiel Python game, registered as ``python_tribune`` when imported.

``pyspiel.load_game("python_tribune", {"players": 4})`` then works as for OpenSpiel's own
games. Parameters: the game's settings (:class:`~tribune_env.GameConfig`'s, but ``players``
for ``num_players`` as OpenSpiel names it, ``victory_card`` an id or "" to draw one as the rules
do, and the standard components, which no parameter changes), ``reward`` (``win``, ``rank``,
``score``: see :mod:`tribune_env.envs.rewards`), ``deals`` and ``rng_seed``.

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
matter (cards seen going into hands, the Catacombs looked at, bids). The engine keeps no log
until an information state string asks for one.

A state is saved as its game's parameters and its history (the deal and the moves), and
loading plays the history again through the engine's legal mask. OpenSpiel's own loader,
``pyspiel.deserialize_game_and_state``, unpickles a part of the text before any of tribune's
code runs, so a crafted text runs code there: :func:`load_state` reads the same text and
unpickles nothing.
"""

from __future__ import annotations

import base64
import functools
import pickle
import re
from dataclasses import fields

import numpy as np

from ..errors import ConfigError, IllegalActionError, StateFormatError, brief, install_hint

try:
    import pyspiel
except ImportError as error:
    raise ImportError(f"{error}; python_tribune needs OpenSpiel, {install_hint('openspiel')}") from None

from ..data import DEFAULT_DATA, MAX_PLAYERS, MIN_PLAYERS, VICTORY_CARDS
from ..engine import Game
from ..game_config import GameConfig
from ..saving.limits import MAX_TEXT, fail
from ..saving.replay import refusal
from .rewards import check_scheme, final_rewards

NAME = "python_tribune"
TURNS_PER_PLAYER_ROUND = 40  # far above what any game has taken (random play: about 12)


def parameters(config: GameConfig) -> dict:
    """A config's settings as python_tribune's parameters, OpenSpiel's plain values: ``players``
    for ``num_players``, the victory card by id ("" draws one), the data left out."""
    settings = config.to_dict()
    card = config.victory_card
    return {"players": settings.pop("num_players"), **settings, "victory_card": "" if card is None else card.id}


def config_of(settings: dict) -> GameConfig:
    """The config of python_tribune's parameters (`settings`, every one given)."""
    given = {f.name: settings[f.name] for f in fields(GameConfig) if f.name not in ("num_players", "data")}
    return GameConfig(settings["players"], **{**given, "victory_card": given["victory_card"] or None})


_PARAMETERS = {**parameters(GameConfig()), "reward": "win", "deals": 2**16, "rng_seed": 0}
_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
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
        self.config = config = config_of(settings)  # refuses a bad setting here, with a ConfigError
        info = pyspiel.GameInfo(
            num_distinct_actions=config.actions.size,
            max_chance_outcomes=self.deals,
            num_players=config.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=config.round_limit * TURNS_PER_PLAYER_ROUND * config.num_players,
        )
        super().__init__(_GAME_TYPE, info, settings)
        self.observation_size = config.obs_layout.size
        self.labels = config.actions.labels
        self._outcomes = None

    def new_initial_state(self):
        return TribuneState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"the Tribune observer takes no parameters, got {params}")
        return TribuneObserver(self.observation_size, iig_obs_type)

    def chance_outcomes(self) -> list:
        """The deal's outcomes, made once per game (a fresh list of the same tuples for each caller)."""
        if self._outcomes is None:
            chance = 1.0 / self.deals
            self._outcomes = [(deal, chance) for deal in range(self.deals)]
        return list(self._outcomes)

    def check_deal(self, deal: int) -> int:
        """`deal` if it is one of this game's chance outcomes, else IllegalActionError naming it."""
        if not 0 <= deal < self.deals:
            raise IllegalActionError(f"chance outcome {brief(deal)} is outside the deals 0..{self.deals - 1}")
        return deal

    def deal(self, deal: int) -> Game:
        """The engine's game of chance outcome `deal`, without a log (see :meth:`_World.logged`)."""
        return Game.from_config(self.config, seed=deal_seed(self.rng_seed, self.check_deal(deal)), log=False)


def deal_seed(rng_seed: int, deal: int) -> int:
    """The engine's seed for chance outcome `deal` of a game loaded with `rng_seed`."""
    return int(np.random.SeedSequence([rng_seed, deal]).generate_state(1, np.uint64)[0] >> np.uint64(1))


class _World:
    """What a state stands for: its game's settings, the engine's game once dealt (None before),
    whether the state's history makes that game (not so for a resampled world, nor for a game
    given to :func:`state_of`), the strings asked of this position, and the last observation
    tensor made for each seat.

    A clone copies it; a save writes none of it (:meth:`__reduce__`): a state is saved as its
    game's parameters and its history, which loading plays again."""

    __slots__ = ("game", "table", "replayable", "strings", "tensors")

    def __init__(self, game, table: Game | None = None, replayable: bool = True, strings: dict | None = None):
        self.game, self.table, self.replayable = game, table, replayable
        self.strings = {} if strings is None else strings  # (player, perfect recall) -> string; player None: str()
        self.tensors: dict[int, tuple[np.ndarray, list]] = {}  # seat -> its last observation, as array and list

    @classmethod
    def replayed(cls, game, entries: list, move_number: int) -> _World:
        """The world a saved history makes, every entry checked (:func:`_replay`)."""
        world = cls(game)
        _replay(world, entries, move_number, world.play)
        return world

    def play(self, action: int) -> None:
        """Deal (chance outcome `action`) or play `action`; IllegalActionError, and nothing changed, if it cannot be."""
        if self.table is None:
            self.table = self.game.deal(action)
        else:
            self.table.step(action)
        if self.strings:
            self.strings = {}

    def refusal(self, index: int, player: int, action: int) -> str | None:
        """Why entry `index` of a history, `player`'s `action`, is not the move this world waits for; None if it is."""
        table = self.table
        if table is None:
            if player != _CHANCE:
                return f"action {index} is player_{brief(player)}'s, before the deal"
            try:
                self.game.check_deal(action)
            except IllegalActionError as error:
                return f"action {index}: {error}"
            return None
        if player == _CHANCE:
            return f"action {index} is a chance outcome, after the deal"
        if table.is_over or not 0 <= action < table.A.size or not table.legal_mask()[action]:
            return refusal(table, index, action)
        if player != table.current_player:
            return f"action {index} is player_{brief(player)}'s, but player_{table.current_player} is to act"
        return None

    def tensor(self, player: int) -> list:
        """`player`'s observation as a new list of floats, made from the last one made for that seat
        here by changing only the numbers that differ: a float made for each of some 1,700 numbers
        costs more than finding the few that changed."""
        observation = self.table.observe(player)
        if player not in self.tensors:
            self.tensors[player] = (np.zeros_like(observation), [0.0] * observation.size)
        last, numbers = self.tensors[player]
        changed = (observation != last).nonzero()[0]
        for at, value in zip(changed.tolist(), observation[changed].tolist()):
            numbers[at] = value
        self.tensors[player] = (observation, numbers)
        return numbers.copy()

    def logged(self) -> Game:
        """The table with its log: a table its history makes and that kept none is played again
        once with one (a log slows every step, so none is kept until a string needs it)."""
        table = self.table
        if table.log is None and self.replayable:
            self.table = Game.from_config(self.game.config, seed=table.seed, log=True)
            for action in table.moves():
                self.table.step(action)
        return self.table

    def __deepcopy__(self, memo):
        table = None if self.table is None else self.table.clone()
        return _World(self.game, table, self.replayable, dict(self.strings))

    def __reduce__(self):
        """Saved as None: OpenSpiel's save writes the history beside it, and loading replays that."""
        if not self.replayable:
            raise StateFormatError(
                "a resampled world, or a state over a game given to state_of, is not the game its "
                "history makes, so it cannot be saved: save the state it was resampled from, or "
                "the engine's game (Game.to_json)"
            )
        return type(None), ()


class TribuneState(pyspiel.State):
    """One game: a deal (the chance outcome) and the moves played since, over the engine's game.

    Its one attribute, ``_world``, is also set by OpenSpiel: by a clone, to a copy, before
    the clone's history, and by OpenSpiel's loader, to what the text unpickles to (None, as a
    save writes it), after the history, which is then played again through the engine's
    legal mask. Anything else a loader sets is refused."""

    def __init__(self, game: TribuneGame):
        super().__init__(game)
        self._world = _World(game)

    def __setattr__(self, name, value):
        if name != "_world":
            raise StateFormatError(f"a python_tribune state has no attribute {brief(name)}: it is its game and history")
        if value is None:
            value = _World.replayed(self.get_game(), _entries(self), self.move_number())
        elif type(value) is not _World or self.move_number():  # a clone sets its copy before its history
            raise StateFormatError(f"a saved python_tribune state is its game and history, not {brief(value)}")
        super().__setattr__(name, value)

    @property
    def table(self) -> Game | None:
        """The engine's game (None before the deal)."""
        return self._world.table

    def current_player(self):
        table = self._world.table
        if table is None:
            return _CHANCE
        player = table.current_player
        return _TERMINAL if player is None else player

    def chance_outcomes(self):
        return self._world.game.chance_outcomes() if self._world.table is None else []

    def legal_actions(self, player=None):
        """OpenSpiel's, answered without its round trip through C++ at a chance node and for
        the player to act, the calls algorithms make (C++ callers reach :meth:`_legal_actions`)."""
        table = self._world.table
        if table is None:
            return list(range(self._world.game.deals))  # a chance node's, whoever asks, as in OpenSpiel
        if not table.is_over and (player is None or player == table.current_player):
            return _legal(table)
        return super().legal_actions() if player is None else super().legal_actions(player)

    def _legal_actions(self, player):
        return _legal(self._world.table)

    def observation_tensor(self, player=None):
        """OpenSpiel's, answered without its round trip through C++, which deals a new state to
        learn the tensor's size at every call (C++ callers reach :class:`TribuneObserver`)."""
        player = self.current_player() if player is None else player
        game = self._world.game
        if not 0 <= player < game.num_players():
            raise pyspiel.SpielError(f"player {brief(player)} is outside 0..{game.num_players() - 1}")
        return [0.0] * game.observation_size if self._world.table is None else self._world.tensor(player)

    information_state_tensor = observation_tensor  # the observation carries every memory that matters (module doc)

    def _apply_action(self, action):
        self._world.play(action)

    def _action_to_string(self, player, action):
        game = self._world.game
        if player == _CHANCE:
            return f"deal {game.check_deal(action)}"
        if not 0 <= player < game.num_players():
            raise IllegalActionError(f"player {brief(player)} is outside 0..{game.num_players() - 1}")
        if not 0 <= action < len(game.labels):
            raise IllegalActionError(f"action {brief(action)} is out of range 0..{len(game.labels) - 1}")
        return f"player_{player}: {game.labels[action]}"

    def is_terminal(self):
        table = self._world.table
        return table is not None and table.is_over

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self.num_players()
        return final_rewards(self._world.table, self._world.game.reward_scheme).tolist()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one: everything it could not see re-dealt
        (``Game.determinize``), drawn with the caller's sampler. Its history is this state's,
        which does not make its game, so it cannot be saved."""
        source, world = self._world, self.clone()
        if source.table is None:
            return world  # nothing dealt, nothing hidden
        seed = int(probability_sampler() * 2**63)
        table = source.logged().determinize(player_id, np.random.default_rng(seed))
        strings = {key: text for key, text in source.strings.items() if key[0] == player_id}
        world._world.table, world._world.replayable, world._world.strings = table, False, strings
        return world

    def __reduce__(self):
        """pickle and copy save a state as OpenSpiel serialises it, and load it with :func:`load_state`."""
        return load_state, (pyspiel.serialize_game_and_state(self.get_game(), self),)

    def __str__(self):
        """The whole table (OpenSpiel's checks ask for it at every state, beside every seat's strings)."""
        world = self._world
        if (None, False) not in world.strings:
            world.strings[None, False] = "before the deal" if world.table is None else world.table.render()
        return world.strings[None, False]


def _legal(table: Game) -> list:
    return table.legal_mask().nonzero()[0].tolist()  # np.flatnonzero's checks take longer than the search


def state_of(table: Game) -> TribuneState:
    """An OpenSpiel state over a game of the engine's (a determinisation, say), under the
    ``python_tribune`` settings of that game. Its OpenSpiel history is empty: only its
    game says what happened, and its information state strings hold that game's log only
    if it keeps one (``Game(log=True)``; the table as the seat sees it otherwise). It cannot
    be saved (save the engine's game, ``Game.to_json``)."""
    card = table.victory_card
    if table.data is not DEFAULT_DATA or (card is not None and VICTORY_CARDS.get(card.id) != card):
        raise ConfigError("state_of takes games of the standard components (docs/rules.md)")
    state = pyspiel.load_game(NAME, parameters(table.played_config)).new_initial_state()
    state._world = _World(state._world.game, table, replayable=False)
    return state


def load_state(text: str) -> TribuneState:
    """The state a ``pyspiel.serialize_game_and_state`` text of ``python_tribune`` saves, made
    again from its game's parameters and its history alone: nothing in the text is unpickled,
    and every action is checked by the engine's legal mask. StateFormatError names what a bad
    text gets wrong. (``pyspiel.deserialize_game_and_state`` unpickles part of the text
    before tribune's code runs: never give it a text you did not write.)"""
    game_line, history, move_number, saved = _state_parts(text)
    game = _game_of(game_line)
    if saved not in _saved_worlds():
        fail(
            "the [State] line __dict__= is not the one python_tribune writes: a saved state is its "
            "game and history alone, and this text carries pickled Python objects (never unpickled here)"
        )
    entries = _entries_of(history, game)
    state = game.new_initial_state()
    _replay(state._world, entries, _count_of(move_number), state.apply_action)
    return state


def _replay(world: _World, entries: list, move_number: int, apply) -> None:
    """Play a saved history's (player, action) entries through `apply`, each checked against
    `world` first: StateFormatError names the first that is not the move the game waits for."""
    _check_length(world.game, len(entries))
    if move_number != len(entries):
        fail(f"python_tribune move_number is {brief(move_number)}, but the history has {len(entries)} actions")
    for index, (player, action) in enumerate(entries):
        problem = world.refusal(index, player, action)
        if problem is not None:
            fail(f"python_tribune history: {problem}")
        apply(action)


def _check_length(game: TribuneGame, count: int) -> None:
    limit = game.max_game_length() + 1  # the deal, then at most the game's length in moves
    if count > limit:
        fail(f"python_tribune history has {count:,} actions; a game of these settings has at most {limit:,}")


def _entries(state: TribuneState) -> list:
    return [(entry.player, entry.action) for entry in state.full_history()]


_SECTIONS = ("[Meta]", "[Game]", "[State]")
_STATE_KEYS = ("history=", "move_number=", "__dict__=")
_ENTRY = re.compile(r"(-?[0-9]{1,10}):(-?[0-9]{1,19})")


def _state_parts(text) -> tuple[str, str, str, str]:
    """The game line and the [State] lines' values (history, move number, pickled attributes) of a
    saved state, read as OpenSpiel reads them: blank lines and # comments skipped."""
    if not isinstance(text, str):
        fail(f"a saved OpenSpiel state is text, got {brief(text)}")
    if len(text) > MAX_TEXT:
        fail(f"the text is {len(text):,} characters long, more than the limit of {MAX_TEXT:,}")
    sections: dict[str, list[str]] = {}
    for line in text.split("\n"):
        if line in _SECTIONS:
            if line in sections or line != _SECTIONS[len(sections)]:
                fail(f"the section {line} is out of place: a saved state has {', '.join(_SECTIONS)}, in that order")
            sections[line] = []
        elif line and not line.startswith("#"):
            if not sections:
                fail(f"the text starts with {brief(line)}, not the section [Meta]")
            sections[_SECTIONS[len(sections) - 1]].append(line)
    if len(sections) < len(_SECTIONS):
        fail(f"the text has no section {_SECTIONS[len(sections)]}")
    game, state = sections["[Game]"], sections["[State]"]
    if len(game) != 1:
        fail(f"the section [Game] must be one line, the game's name and parameters; it has {len(game)}")
    if len(state) != len(_STATE_KEYS) or not all(map(str.startswith, state, _STATE_KEYS)):
        fail("the section [State] must be three lines, history=, move_number= and __dict__=")
    return game[0], *(line[len(key) :] for line, key in zip(state, _STATE_KEYS))


def _game_of(line: str) -> TribuneGame:
    """The game a saved state's [Game] line loads: python_tribune's, its parameters checked."""
    if line.split("(")[0] != NAME:
        fail(f"the game is {brief(line)}, not {NAME}")
    try:
        return pyspiel.load_game(line)
    except pyspiel.SpielError as error:
        fail(f"the game {brief(line)}: {str(error)[:200]}")
    except ConfigError as error:
        fail(f"the game: {error}")


@functools.cache
def _saved_worlds() -> frozenset:
    """The __dict__= value python_tribune writes, under each pickle protocol: compared, never unpickled."""
    saved = {"_world": _World(None)}
    return frozenset(base64.b64encode(pickle.dumps(saved, p)).decode() for p in range(pickle.HIGHEST_PROTOCOL + 1))


def _entries_of(history: str, game: TribuneGame) -> list:
    """The (player, action) entries of a saved history=, refused unread when the game could not hold as many."""
    pieces = history.split(",") if history else []
    _check_length(game, len(pieces))
    entries = []
    for index, piece in enumerate(pieces):
        match = _ENTRY.fullmatch(piece)
        if match is None:
            fail(f"python_tribune history: action {index} is {brief(piece)}, not player:action")
        entries.append((int(match[1]), int(match[2])))
    return entries


def _count_of(text: str) -> int:
    if not re.fullmatch(r"[0-9]{1,10}", text):
        fail(f"python_tribune move_number must be a count, got {brief(text)}")
    return int(text)


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
        table = state._world.table
        if table is None:
            self.tensor[:] = 0.0
        else:
            table.observe(player, self.tensor)

    def string_from(self, state: TribuneState, player: int) -> str:
        """Kept with the state until it moves on: search asks for the same strings often."""
        strings, key = state._world.strings, (player, self.perfect_recall)
        if key not in strings:
            strings[key] = self._string(state._world, player)
        return strings[key]

    def _string(self, world: _World, player: int) -> str:
        if world.table is None:
            return "before the deal"
        if not self.perfect_recall:
            return world.table.render(player)
        table = world.logged()
        log = table.seat_log(player)
        view = table.render(player)
        return view if log is None else "\n".join(log) + "\n\n" + view  # a game kept without a log: the table


pyspiel.register_game(_GAME_TYPE, TribuneGame)
