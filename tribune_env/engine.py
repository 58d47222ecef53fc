"""The rules engine: a :class:`Game` driven by one flat action at a time.

The game is a stack of tasks (:mod:`tribune_env.tasks`) held, like everything else, in
one int32 buffer (:mod:`tribune_env.state`). The rules run compiled (:mod:`tribune_env.core`,
numba): ``step`` applies the player's action to the decision on top of the stack, then
runs automatic tasks until the next decision, whose legal-action mask it leaves ready.
This class checks input, keeps the readable log and offers the views people and agents
use: observations, rendering, saving, determinisation. ``game.state`` holds the state
arrays by name; ``game.handle`` is what compiled callers pass to the engine's entry points.
"""

from __future__ import annotations

import json
import secrets
from collections import namedtuple
from dataclasses import replace

import numpy as np

from .actions import Board, card_name
from .core import dispatch
from .core.events import CAPACITY, WIDTH
from .core.observe import observe
from .core.rounds import setup
from .data import DEFAULT_DATA, FACTIONS, NUM_CARD_TYPES, NUM_VALUES, GameData
from .errors import ConfigError, IllegalActionError, as_integer, brief
from .game_config import GameConfig, per_data
from .kernel import MAX_SEED, below, params, seed_words
from .log import SeatLog, describe
from .state import Layout, Meta, State, Status, fields
from .tasks import Task

Handle = namedtuple("Handle", "buffer params mask")
Handle.__doc__ = """What compiled code takes of a game: its state buffer, parameter array and legal mask.

Compiled callers (the heuristic, determinisation, the vector environment) pass these to
entry points such as ``dispatch.legal_mask(buffer, params, mask)``. The arrays are the
game's own: writing to them changes the game.
"""


DUMP, DUMP_VERSION = "tribune-state", 2  # the state dump's tag (Game.to_dict): not a saved game
# The event buffer of every game without a log: the engine records events only for a log (``say``),
# so none is ever written here, and a game spares the 112 KB of a buffer of its own.
UNLOGGED_EVENTS = np.zeros((1, WIDTH), dtype=np.int32)
# plain ints for the hot properties: numpy indexes by an IntEnum, and compares with one, slowly
_STATUS, _N_TASKS, _RUNNING = int(Meta.STATUS), int(Meta.N_TASKS), int(Status.RUNNING)


def _seed(seed) -> int:
    """The game's seed as an int (drawn from the OS's entropy for None), so that every game can be saved."""
    if seed is None:
        return secrets.randbelow(MAX_SEED + 1)
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise ConfigError(f"seed must be None or an int from 0 to {MAX_SEED}, got {brief(seed)}")
    return int(seed)


class Game:
    """One game of Tribune for 2-5 players.

    Parameters
    ----------
    num_players, victory_card and any other setting of :class:`GameConfig` by name: the game's
        configuration, which GameConfig describes and checks; ``game.config`` keeps it.
        :meth:`from_config` deals a game of a config made once.
    seed: an int from 0 to ``MAX_SEED`` (2**63 - 1), or None to draw one from the OS's
        entropy; the same seed gives the same game. ``game.seed`` keeps it, and the game
        keeps the actions played (:meth:`moves`), which is how it is saved (:meth:`to_json`).
    log: keep a readable log of what happened (``game.log``); off is faster.
    """

    def __init__(self, num_players: int = 4, victory_card=None, *, seed=None, log: bool = True, **settings):
        self._deal(GameConfig(num_players, victory_card=victory_card, **settings), seed, log)

    @classmethod
    def from_config(cls, config: GameConfig, seed=None, log: bool = True) -> Game:
        """The game of `config` dealt from `seed`, as ``Game(**settings, seed=seed)`` deals it:
        how the adapters deal game after game from a config checked once."""
        game = cls.__new__(cls)
        game._deal(GameConfig.of(config), seed, log)
        return game

    def _deal(self, config: GameConfig, seed, log: bool):
        """Rulebook setup from `seed`, after drawing the victory card if the config leaves it to chance."""
        self._configure(config)
        seed = _seed(seed)
        state = State.empty(self.state_layout(config.data))
        rng = state.rng
        rng[:] = seed_words(seed)
        drawn = config.victory_card is None and not config.point_variant
        if drawn:
            cards = config.fitting_cards()
            self.victory_card = config.data.victory_cards[cards[below(rng, len(cards))]]
        self._finish_init(state, log)
        self._setup()
        self._run(dispatch.step, dispatch.RUN)
        self.seed, self.victory_card_drawn = seed, drawn
        # The actions played: those since the game was last cloned in `_moves`, the earlier
        # ones in `_moves_before`, a chain of (earlier chain, tuple of actions) that clones
        # share, so a step appends to a list and a clone copies no action twice.
        self._moves_before, self._moves = None, []

    @classmethod
    def from_state(cls, state: State, config: GameConfig, log: list | None = None) -> Game:
        """A game of `config` (its victory card given, or none) in `state` (laid out by
        :meth:`state_layout`), with `log` if given.

        Trusted: nothing checks that play can reach the state, nor runs (the caller computes
        the mask, e.g. with ``dispatch.legal_mask``). For tests and debugging only. The game
        has no seed and no moves, so it cannot be saved as moves (:meth:`to_json`).
        """
        game = cls.__new__(cls)
        game._configure(config)
        if state.layout.offsets != cls.state_layout(config.data).offsets:
            raise ConfigError("the state is not laid out for this game's data")
        game._finish_init(state, log is not None)
        game.log = None if log is None else list(log)
        game.victory_card_drawn = None  # the state does not tell
        game._moves_before, game._moves = None, []
        game.edited()
        return game

    @classmethod
    def from_dict(cls, dump: dict, data: GameData = DEFAULT_DATA) -> Game:
        """The game of a state dump (:meth:`to_dict`), legal mask included.

        Trusted, like :meth:`from_state`: for tests and debugging, never for a file from
        elsewhere (:meth:`from_json` loads those, checked by replaying their moves).
        """
        layout = cls.state_layout(data)
        buffer = np.empty(layout.size, dtype=np.int32)
        for name, (offset, size, _) in layout.offsets.items():
            buffer[offset : offset + size] = np.ravel(dump["arrays"][name])
        config = GameConfig.from_dict(dump["config"], data)
        game = cls.from_state(State(layout, buffer), config, log=dump.get("log"))
        dispatch.legal_mask(*game.handle)
        return game

    @staticmethod
    @per_data
    def state_layout(data: GameData) -> Layout:
        """The layout of the state buffer of a game with these numbers (the board's size)."""
        board = Board(data)
        return Layout(
            fields(
                board.num_spaces,
                board.num_slots,
                data.curia_stacks,
                len(data.catacomb_prices),
                data.field_of_mars_spaces,
                data.deck_size(),
            )
        )

    # ----------------------------------------------------------------- configuration
    def _configure(self, config: GameConfig):
        """Hold `config` and what follows from it before the deal."""
        data = config.data
        self.config = config
        self.n = config.num_players
        self.data = data
        self.point_variant = config.point_variant
        self.victory_card = config.victory_card
        self.round_limit = config.round_limit
        self.auto_forced = config.auto_forced
        self.A = config.actions
        self.board = self.A.board
        deck = [f * NUM_VALUES + v for f, name in enumerate(FACTIONS) for v in data.deck[name]]
        self.deck = np.array(deck, dtype=np.int32)
        self.deck_counts = np.bincount(self.deck, minlength=NUM_CARD_TYPES)
        self.obs_layout = config.obs_layout

    def _finish_init(self, state: State, log: bool):
        """Parameters, buffers and views once the victory card is known."""
        self.need = None if self.victory_card is None else self.victory_card.need[self.n]
        self.marker_goal = self.data.point_variant_markers[self.n]
        self._events = np.zeros((CAPACITY, WIDTH), dtype=np.int32) if log else UNLOGGED_EVENTS
        self._size = self.A.size
        self.log = [] if log else None
        self._seat_logs = {}  # seat -> (the log it reads, its SeatLog), read on as the game goes
        self.state = state  # params() reads its layout
        self._bind(state, params(self, log), np.zeros(self.A.size, dtype=np.int8))

    def _setup(self):
        """Rulebook setup 5-8, compiled (:func:`tribune_env.core.rounds.setup`), and its line of the log."""
        start = setup(self._buffer, self._params, self.deck)
        if self.log is not None:
            self.log.append(
                f"setup: player_{start} starts; "
                + ("point-value variant" if self.victory_card is None else f"victory card {self.victory_card.id}")
            )

    @property
    def played_config(self) -> GameConfig:
        """:attr:`config` with the victory card in play, drawn or given: what the saved formats write."""
        return replace(self.config, victory_card=self.victory_card)

    def _bind(self, state: State, params: np.ndarray, mask: np.ndarray):
        """Hold this state, parameter array and mask: the arrays of :attr:`handle`."""
        self.state = state
        self._buffer, self._params, self._mask = state.buffer, params, mask
        self._meta, self._tasks = state.meta, state.tasks  # read at every step
        self._handle = Handle(state.buffer, params, mask)

    @property
    def handle(self) -> Handle:
        """The arrays compiled code takes of this game (see :class:`Handle`)."""
        return self._handle

    def move_to(self, buffer: np.ndarray, params: np.ndarray, mask: np.ndarray):
        """Move this game's state, parameters and mask into the given arrays and keep them there.

        A batch of games lives in the rows of 2-D arrays (:mod:`tribune_env.envs.vector_games`) so that
        compiled loops step them all at once; ``move_to(copies)`` gives a game its own again.
        Those loops keep no moves, so a game moved cannot be saved as moves.
        """
        buffer[:], params[:], mask[:] = self._handle
        self._bind(State(self.state.layout, buffer), params, mask)
        self.edited()

    def bound_to(self, buffer: np.ndarray, params: np.ndarray, mask: np.ndarray) -> Game:
        """A game of this one's configuration whose state, parameters and mask are the given arrays
        (a row of a batch, :mod:`tribune_env.envs.vector_games`): reading or stepping it reads and
        writes them. It has no seed or moves of its own, and no log."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)  # the configuration is shared, never changed
        other._moves_before, other._moves = None, []
        other._events = self._copy_events()
        other.log, other._seat_logs = None, {}
        other._bind(State(self.state.layout, buffer), params, mask)
        other.edited()
        return other

    def _run(self, fn, *args):
        """Call a compiled entry point on this game, then put its events into the log."""
        fn(self._buffer, self._params, self._events, self._mask, *args)
        if self.log is not None:
            rows = self._events[1 : self._events[0, 0] + 1]
            self.log.extend(text for text in (describe(self, row) for row in rows) if text)
            self._events[0, 0] = 0

    # ----------------------------------------------------------------- public queries
    @property
    def status(self) -> Status:
        return Status(self._meta[Meta.STATUS])

    @property
    def terminated(self) -> bool:
        return self.status == Status.TERMINATED

    @property
    def truncated(self) -> bool:
        return self.status == Status.TRUNCATED

    @property
    def is_over(self) -> bool:
        return int(self._meta[_STATUS]) != _RUNNING

    @property
    def round(self) -> int:
        return int(self._meta[Meta.ROUND])

    @property
    def phase(self) -> int:
        return int(self._meta[Meta.PHASE])

    def decision(self):
        """(Task kind, player, b, c) of the decision waiting, or None once the game is over."""
        if self.is_over:
            return None
        kind, a, b, c = self._tasks[self._meta[Meta.N_TASKS] - 1].tolist()
        return Task(kind), a, b, c

    @property
    def current_player(self):
        """The player to act, or None once the game is over."""
        meta = self._meta
        if meta[_STATUS] != _RUNNING:
            return None
        return self._tasks.item(int(meta[_N_TASKS]) - 1, 1)

    def legal_mask(self) -> np.ndarray:
        """int8 mask over the action space for the player to act (all zero once over).

        The array is the engine's own and changes with the game: copy it to keep it.
        """
        return self._mask

    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self._mask)

    def seat(self, player) -> int:
        """`player` as a seat number of this game, or IllegalActionError naming the problem.

        Every query about one seat's view (observe, render, determinize) goes through
        here, so -1 never means the last seat.
        """
        if type(player) is int and 0 <= player < self.n:
            return player
        seat = as_integer(player, "a seat")
        if not 0 <= seat < self.n:
            raise IllegalActionError(f"seat {seat} is outside 0..{self.n - 1} of this {self.n}-player game")
        return seat

    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """Player `player`'s observation (see :mod:`tribune_env.observation`)."""
        player = self.seat(player)
        if out is None:
            out = np.empty(self.obs_layout.size, dtype=np.float32)
        observe(self._buffer, self._params, self.obs_layout.offsets, player, out)
        return out

    def objectives(self) -> np.ndarray:
        """(players, 6) bool: which objectives of the victory card each player meets now."""
        return dispatch.objectives(self._buffer, self._params)

    def meets_victory(self) -> np.ndarray:
        """(players,) bool: who now meets the victory card (or the point variant's marker goal)."""
        return dispatch.victory_met(self._buffer, self._params)

    def scores(self) -> np.ndarray:
        """Points of the scoring table for each player (the first declarer's 2 included)."""
        return dispatch.final_scores(self._buffer, self._params)

    def winners(self) -> list[int]:
        """Players who won (several only on a shared win of the point-value variant)."""
        return [int(p) for p in np.flatnonzero(self.state.winner[: self.n])]

    # ----------------------------------------------------------------- acting
    def step(self, action) -> None:
        """Apply the acting player's action; raise IllegalActionError and change nothing if illegal."""
        if type(action) is not int or not 0 <= action < self._size or not self._mask[action]:
            action = self._check_action(action)
        if self.log is None:
            dispatch.step(self._buffer, self._params, self._events, self._mask, action)
        else:
            self._run(dispatch.step, action)
        self._moves.append(action)

    def _check_action(self, action) -> int:
        """The slow path of step: accept every integer form, or raise naming the problem."""
        action = as_integer(action, "an action")
        if self.is_over:
            raise IllegalActionError(f"the game is over; action {action} cannot be played")
        if not 0 <= action < self.A.size:
            raise IllegalActionError(f"action {action} is out of range 0..{self.A.size - 1}")
        if not self._mask[action]:
            kind, p = self.decision()[:2]
            raise IllegalActionError(
                f"action {action} ({self.A.labels[action]!r}) is not legal for player_{p} in decision {kind.name}"
            )
        return action

    def step_label(self, label: str) -> None:
        """Play the action labelled `label` (case-insensitive), e.g. ``"place follower: Curia 2"``."""
        self.step(self.A.action(label))

    # ----------------------------------------------------------------- editing by hand
    def edited(self):
        """Say that the state was changed other than by :meth:`step` (tasks pushed, arrays
        written, a world re-dealt): its seed and moves no longer make it, so they are dropped
        and the game can no longer be saved as moves (its state still dumps, :meth:`to_dict`)."""
        self.seed = None

    def seat_log(self, player: int) -> list[str] | None:
        """The log as `player` may read it at the table (None for a game that keeps no log).

        Another player's sealed bid, setup discards, Catacombs card and set in the making are
        told without the card or amount, or not at all (:class:`tribune_env.log.SeatLog`).
        The seat's reading is kept and carried on, so each call reads only the new lines.
        """
        player = self.seat(player)
        if self.log is None:
            return None
        source, reader = self._seat_logs.get(player, (None, None))
        if source is not self.log:  # none yet, or a log set anew (a load, a determinisation)
            reader = SeatLog(player)
            self._seat_logs[player] = (self.log, reader)
        reader.news(self)
        return list(reader.lines)

    # ----------------------------------------------------------------- copies and saving
    def clone(self) -> Game:
        """An independent copy: state (generator included), mask and log; the moves so far are shared."""
        if self._moves:  # this game's latest moves join the chain both games share
            self._moves_before, self._moves = (self._moves_before, tuple(self._moves)), []
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)  # the configuration is shared, never changed
        other._moves = []
        other._events = self._copy_events()
        other.log = None if self.log is None else list(self.log)
        other._seat_logs = {}
        other._bind(self.state.clone(), self._params, self._mask.copy())
        return other

    def _copy_events(self) -> np.ndarray:
        """The event buffer of a copy of this game: its own if the game keeps a log, else the one
        games without a log share, which none writes."""
        return self._events if self.log is None else np.zeros_like(self._events)

    def __getstate__(self):
        """Copies and pickles (``copy.deepcopy``, ``pickle``) leave out the views into the state
        buffer, which :meth:`__setstate__` takes again from the copied buffer, and hold the
        moves as one list (a chain thousands deep would be pickled by recursion)."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("_meta", "_tasks")}
        return {**state, "_moves_before": None, "_moves": self._played()}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._bind(self.state, self._params, self._mask)

    def state_equals(self, other: Game) -> bool:
        return self.played_config == other.played_config and self.state.equals(other.state)

    def moves(self) -> list[int] | None:
        """The actions played through :meth:`step` since the deal (not those the engine played
        itself, which a replay plays again), or None for a game they do not make (:meth:`edited`)."""
        return None if self.seed is None else self._played()

    def _played(self) -> list[int]:
        chunks, node = [self._moves], self._moves_before
        while node is not None:
            node, chunk = node
            chunks.append(chunk)
        return [action for chunk in reversed(chunks) for action in chunk]

    def to_json(self) -> str:
        """The game saved as its configuration, seed and moves (docs/state-format.md)."""
        from .saving import record

        return json.dumps(record(self), separators=(",", ":"))

    @staticmethod
    def from_json(text, data: GameData = DEFAULT_DATA, *, log: bool = True) -> Game:
        """The game saved by :meth:`to_json` (text, bytes or its parsed data), its moves
        replayed through the engine with `data`, the numbers it was played with; with `log`,
        the game's log as play wrote it. StateFormatError names what a bad file gets wrong."""
        from .saving import load

        return load(text, data, log)

    def to_dict(self) -> dict:
        """The state dump: configuration, state arrays and log as plain data (docs/state-format.md).

        A trusted format for tests and debugging (:meth:`from_dict`); a game is saved with :meth:`to_json`.
        """
        return {
            "format": DUMP,
            "version": DUMP_VERSION,
            "config": self.played_config.to_dict(),
            **self.state.to_dict(),
            "log": self.log,
        }

    def determinize(self, player: int, rng: np.random.Generator | None = None) -> Game:
        """A copy with what `player` cannot know re-dealt at random (for IS-MCTS)."""
        from .determinize import determinize

        return determinize(self, player, rng)

    def render(self, player: int | None = None) -> str:
        """The table as text; with `player`, only what that player may see."""
        from .render import render

        return render(self, None if player is None else self.seat(player))

    def table(self, player: int | None = None) -> dict:
        """The table as plain data for a drawing of the board; with `player`, only what that player may see."""
        from .table import table

        return table(self, None if player is None else self.seat(player))

    def card_name(self, code: int) -> str:
        return card_name(code)

    def __repr__(self):
        where = "over" if self.is_over else f"player_{self.current_player} to act"
        return f"<Game {self.n} players, round {self.round}, phase {self.phase}, {where}>"
