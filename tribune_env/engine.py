"""The rules engine: a :class:`Game` driven by one flat action at a time.

The game is a stack of tasks (:mod:`tribune_env.tasks`). ``step`` applies the player's
action to the decision on top of the stack, then runs automatic tasks until the next
decision. Phase handlers live in :mod:`.phases` (one small function per task), the
observation in :mod:`.observation`, hidden-information sampling in :mod:`.determinize`.
"""
from __future__ import annotations

import json

import numpy as np

from . import phases
from .observation import ObservationLayout, observe
from .actions import ActionSpace, card_name
from .data import (DEFAULT_DATA, FACTIONS, MAX_PLAYERS, MIN_PLAYERS, NUM_CARD_TYPES, NUM_VALUES,
                   GameData, VictoryCard)
from .kernel import below, seed_words, shuffle
from .errors import ConfigError, IllegalActionError, StateFormatError
from .state import (ETERNAL, LAURELS, LEGIONS, M, MARKERS, MONEY, STATUS_RUNNING,
                    STATUS_TERMINATED, STATUS_TRUNCATED, TILE, TRIBUNE, Layout, State, fields)
from .tasks import FIRST_DECISION, Task



class Game:
    """One game of Tribune for 2-5 players.

    Parameters
    ----------
    num_players: 2 to 5.
    victory_card: an id of ``data.victory_cards``, a :class:`VictoryCard`, or None to draw
        one at random (seeded) among those that fit the player count.
    point_variant: play the point-value variant instead (no victory card).
    seed: seed of the game's generator; the same seed gives the same game.
    data: the game's numbers (:class:`GameData`).
    round_limit: rounds after which a running game is truncated (default ``data.round_limit``).
    auto_forced: resolve a decision with exactly one legal action automatically.
    log: keep a readable log of what happened (``game.log``).
    """

    def __init__(self, num_players: int = 4, victory_card=None, *, point_variant: bool = False,
                 seed=None, data: GameData = DEFAULT_DATA, round_limit: int | None = None,
                 auto_forced: bool = True, log: bool = True):
        self._configure(num_players, victory_card, point_variant, data, round_limit, auto_forced)
        state = State.empty(self._layout)
        state.arrays["rng"][:] = seed_words(seed)
        if self.victory_card is None and not point_variant:
            fitting = sorted(k for k, c in data.victory_cards.items() if num_players in c.need)
            if not fitting:
                raise ConfigError(f"no victory card fits {num_players} players")
            self.victory_card = data.victory_cards[fitting[below(state.arrays["rng"], len(fitting))]]
            self._derive_victory()
        self.obs_template = self.obs_layout.template(self)
        self._bind(state)
        self.log = [] if log else None
        phases.setup(self)
        self._advance()

    # ----------------------------------------------------------------- configuration
    def _configure(self, num_players, victory_card, point_variant, data, round_limit, auto_forced):
        if not isinstance(data, GameData):
            raise ConfigError(f"data must be a GameData, got {type(data).__name__}")
        data.validate()
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)) \
                or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
            raise ConfigError(f"num_players must be an int from {MIN_PLAYERS} to {MAX_PLAYERS}, "
                              f"got {num_players!r}")
        if point_variant and victory_card is not None:
            raise ConfigError("the point-value variant uses no victory card; pass one or the other")
        if isinstance(victory_card, str):
            if victory_card not in data.victory_cards:
                raise ConfigError(f"unknown victory card {victory_card!r}; known: "
                                  f"{sorted(data.victory_cards)}")
            victory_card = data.victory_cards[victory_card]
        elif victory_card is not None and not isinstance(victory_card, VictoryCard):
            raise ConfigError(f"victory_card must be an id, a VictoryCard or None, got {victory_card!r}")
        if victory_card is not None:
            victory_card.validate()
            if int(num_players) not in victory_card.need:
                raise ConfigError(f"victory card {victory_card.id!r} is not for {num_players} players "
                                  f"(it is for {sorted(victory_card.need)})")
        round_limit = data.round_limit if round_limit is None else round_limit
        if isinstance(round_limit, bool) or not isinstance(round_limit, (int, np.integer)) or round_limit < 1:
            raise ConfigError(f"round_limit must be a positive int, got {round_limit!r}")
        self.n = int(num_players)
        self.data = data
        self.point_variant = bool(point_variant)
        self.victory_card = victory_card
        self.round_limit = int(round_limit)
        self.auto_forced = bool(auto_forced)
        self.A = ActionSpace(data)
        self.board = self.A.board
        self._layout = Layout(fields(self.board.num_spaces, self.board.num_slots, data.curia_stacks,
                                     data.field_of_mars_spaces, data.deck_size()))
        deck = [f * NUM_VALUES + v for f, name in enumerate(FACTIONS) for v in data.deck[name]]
        self.deck = np.array(deck, dtype=np.int32)
        self.deck_counts = np.bincount(self.deck, minlength=NUM_CARD_TYPES).astype(np.int32)
        self._derive_victory()
        self._mask = np.zeros(self.A.size, dtype=np.int8)
        self.obs_layout = ObservationLayout(self.board, data, self._layout)

    def _derive_victory(self):
        """Thresholds as arrays, so that checking every player is a few numpy operations."""
        card = self.victory_card
        if card is None:
            self.need = None
            self.marker_goal = self.data.point_variant_markers[self.n]
            return
        self.need = card.need[self.n]
        self.thresholds = np.array([card.denarii, card.laurels, card.legions, card.markers])

    def config(self) -> dict:
        """Everything needed to make this game again (without its state)."""
        return {"num_players": self.n, "point_variant": self.point_variant,
                "victory_card": None if self.victory_card is None else self.victory_card.to_dict(),
                "round_limit": self.round_limit, "auto_forced": self.auto_forced}

    def _bind(self, state: State):
        """Expose each state array as an attribute, for short handler code."""
        self._state = state
        for name, array in state.arrays.items():
            setattr(self, name, array)
        self._mask_ok = False
        self._dirty = False

    # ----------------------------------------------------------------- public queries
    @property
    def status(self) -> int:
        return int(self.meta[M["status"]])

    @property
    def terminated(self) -> bool:
        return self.status == STATUS_TERMINATED

    @property
    def truncated(self) -> bool:
        return self.status == STATUS_TRUNCATED

    @property
    def is_over(self) -> bool:
        return self.status != STATUS_RUNNING

    @property
    def round(self) -> int:
        return int(self.meta[M["round"]])

    @property
    def phase(self) -> int:
        return int(self.meta[M["phase"]])

    def decision(self):
        """(Task kind, a, b, c) of the decision waiting for a player, or None when over."""
        if self.is_over:
            return None
        kind, a, b, c = self.tasks[self.meta[M["n_tasks"]] - 1].tolist()
        return Task(kind), a, b, c

    @property
    def current_player(self):
        """The player to act, or None once the game is over."""
        if self.is_over:
            return None
        return int(self.tasks[self.meta[M["n_tasks"]] - 1, 1])

    def legal_mask(self) -> np.ndarray:
        """int8 mask over the action space (read-only; all zero once the game is over)."""
        if not self._mask_ok:
            self._compute_mask()
        return self._mask

    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.legal_mask())

    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """Player `player`'s observation (see :mod:`tribune_env.observation`)."""
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 0 <= player < self.n:
            raise IllegalActionError(f"player must be an int in 0..{self.n - 1}, got {player!r}")
        return observe(self, int(player), out)

    def winners(self) -> list[int]:
        """Players who won (several only on a shared win of the point-value variant)."""
        return [int(p) for p in np.flatnonzero(self.winner[: self.n])]

    # ----------------------------------------------------------------- acting
    def step(self, action) -> None:
        """Apply the acting player's action; raise IllegalActionError and change nothing if illegal."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"an action must be an int, got {action!r}")
        action = int(action)
        if self.is_over:
            raise IllegalActionError(f"the game is over; action {action} cannot be played")
        if not 0 <= action < self.A.size:
            raise IllegalActionError(f"action {action} is out of range 0..{self.A.size - 1}")
        if not self.legal_mask()[action]:
            kind, p = self.decision()[:2]
            raise IllegalActionError(f"action {action} ({self.A.labels[action]!r}) is not legal for "
                                     f"player_{p} in decision {kind.name}")
        self._apply(action)
        self._advance()

    def step_label(self, label: str) -> None:
        self.step(self.A.action(label))

    def _apply(self, action: int):
        n = self.meta[M["n_tasks"]] - 1
        kind, a, b, c = self.tasks[n].tolist()
        self.meta[M["n_tasks"]] = n
        self._mask_ok = False
        if self.log is not None:
            self.log.append(f"player_{a}: {self.A.labels[action]}")
        phases.DECIDE[kind][1](self, action, a, b, c)
        if self._dirty:
            self._check_declarations()

    def _compute_mask(self):
        m = self._mask
        m.fill(0)
        if not self.is_over:
            kind, a, b, c = self.tasks[self.meta[M["n_tasks"]] - 1].tolist()
            phases.DECIDE[kind][0](self, m, a, b, c)
        self._mask_ok = True

    def _advance(self):
        """Run automatic tasks (and forced decisions) until a real decision or the end."""
        meta, tasks, n_tasks = self.meta, self.tasks, M["n_tasks"]
        auto = phases.AUTO
        while meta[M["status"]] == STATUS_RUNNING:
            n = meta[n_tasks] - 1
            kind, a, b, c = tasks[n].tolist()
            if kind >= FIRST_DECISION:
                self._compute_mask()
                if not self.auto_forced:
                    return
                legal = np.flatnonzero(self._mask)
                if len(legal) != 1:
                    return
                self._apply(int(legal[0]))
                continue
            meta[n_tasks] = n
            auto[kind](self, a, b, c)
            if self._dirty:
                self._check_declarations()
        self._mask_ok = False

    # ----------------------------------------------------------------- stack helpers
    def push(self, kind, a=0, b=0, c=0):
        n = self.meta[M["n_tasks"]]
        self.tasks[n] = (kind, a, b, c)
        self.meta[M["n_tasks"]] = n + 1

    def push_seq(self, *tasks):
        """Push tasks so that the first given runs first."""
        for task in reversed(tasks):
            self.push(*task)

    def say(self, message: str):
        if self.log is not None:
            self.log.append(message)

    # ----------------------------------------------------------------- cards
    def draw_card(self, kind, a=0, b=0, retry=0):
        """Pop the draw pile, reshuffling the discards when it is empty.

        With both piles empty a cesura magna runs first and the calling task is retried;
        if a retried draw still finds nothing, it returns None and the draw is skipped.
        """
        meta = self.meta
        if meta[M["draw_n"]] == 0:
            self.reshuffle()
        if meta[M["draw_n"]] == 0:
            if not retry:
                self.push(kind, a, b, 1)
                phases.start_cesura(self)
            return None
        n = meta[M["draw_n"]] - 1
        meta[M["draw_n"]] = n
        card = int(self.draw[n])
        self.draw[n] = -1
        return card

    def reshuffle(self):
        """Shuffle the whole discard pile into a new draw pile (below any cards still there)."""
        pile = self.discard_public + self.discard_hidden
        if not pile.any():
            return
        cards = np.repeat(np.arange(NUM_CARD_TYPES, dtype=np.int32), pile)
        shuffle(self.rng, cards)
        n = int(self.meta[M["draw_n"]])
        self.draw[len(cards): len(cards) + n] = self.draw[:n].copy()
        self.draw[: len(cards)] = cards
        self.meta[M["draw_n"]] = n + len(cards)
        self.meta[M["reshuffles"]] += 1
        self.discard_public[:] = 0
        self.discard_hidden[:] = 0
        self.say(f"the discard pile ({len(cards)} cards) is shuffled into a new draw pile")

    def discard_cards(self, counts, public=True):
        (self.discard_public if public else self.discard_hidden)[:] += counts

    def discard_card(self, code, public=True):
        (self.discard_public if public else self.discard_hidden)[code] += 1

    # ----------------------------------------------------------------- resources
    def gain(self, p, column, amount):
        self.res[p, column] += amount
        self._dirty = True

    def gain_marker(self, p, f):
        if not self.markers[p, f]:
            self.markers[p, f] = 1
            self.gain(p, MARKERS, 1)
            self.say(f"player_{p} takes a {FACTIONS[f]} marker")

    def gain_eternal_favor(self, p):
        if not self.res[p, ETERNAL]:
            self.gain(p, ETERNAL, 1)
            self.say(f"player_{p} takes the eternal favor of the gods")
            if self.meta[M["temp_favor"]] == p:
                self.meta[M["temp_favor"]] = -1
                self.say(f"player_{p} returns the temporary favor")

    def set_temp_favor(self, p):
        self.meta[M["temp_favor"]] = p
        self._dirty = True

    # ----------------------------------------------------------------- winning
    def objectives(self) -> np.ndarray:
        """(players, 6) bool: which objectives of the victory card each player meets now."""
        res = self.res[: self.n]
        favor = res[:, ETERNAL] > 0
        t = int(self.meta[M["temp_favor"]])
        if t >= 0:
            favor[t] = True
        if self.victory_card is None:
            thresholds = np.zeros(4, dtype=np.int64)
        else:
            thresholds = self.thresholds
        return np.column_stack([res[:, TILE] == TRIBUNE, favor,
                                res[:, [LAURELS, LEGIONS, MONEY, MARKERS]] >= thresholds[[1, 2, 0, 3]]])

    def _check_declarations(self):
        """Record, in order, each player who now meets the victory card (or the marker goal)."""
        self._dirty = False
        if self.victory_card is None:
            meets = self.res[: self.n, MARKERS] >= self.marker_goal
        else:
            met = self.objectives()
            meets = met.sum(axis=1) >= self.need
            if self.victory_card.obligatory is not None:
                from .data import OBJECTIVES
                meets &= met[:, OBJECTIVES.index(self.victory_card.obligatory)]
        for p in np.flatnonzero(meets & (self.declared[: self.n] < 0)):
            order = self.meta[M["n_declared"]]
            self.declared[p] = order
            self.meta[M["n_declared"]] = order + 1
            self.say(f"player_{p}: Veni, vidi, vici!" if self.victory_card is not None
                     else f"player_{p} holds {self.marker_goal} faction markers: this is the last round")

    def scores(self) -> np.ndarray:
        """Points of the scoring table for each player (the first declarer's 2 included)."""
        s = self.data.scoring
        res = self.res[: self.n].astype(np.int64)
        tile = res[:, TILE]
        points = (np.where(tile == TRIBUNE, s["tribune"], np.where(tile > 0, s["scroll"], 0))
                  + res[:, ETERNAL] * s["eternal_favor"] + res[:, LEGIONS] * s["legion"]
                  + res[:, LAURELS] * s["laurel"] + res[:, MONEY] // s["denarii_per_point"]
                  + res[:, MARKERS] * s["marker"])
        t = int(self.meta[M["temp_favor"]])
        if t >= 0:
            points[t] += s["temporary_favor"]
        points[self.declared[: self.n] == 0] += s["first_declarer"]
        return points

    def finish(self):
        """End of the round in which someone declared: decide the winners."""
        scores = self.scores()
        declared = self.declared[: self.n]
        if self.victory_card is None:
            best = scores.max()
            winners = scores == best
        else:
            candidates = np.flatnonzero(declared >= 0)
            best = max(candidates, key=lambda p: (scores[p], -declared[p]))
            winners = np.zeros(self.n, dtype=bool)
            winners[best] = True
        self.winner[: self.n] = winners
        self.meta[M["status"]] = STATUS_TERMINATED
        self.say(f"game over after round {self.round}: scores {scores.tolist()}, "
                 f"winner(s) {[f'player_{p}' for p in np.flatnonzero(winners)]}")

    def truncate(self):
        self.meta[M["status"]] = STATUS_TRUNCATED
        self.say(f"round limit {self.round_limit} reached: the game is truncated")

    # ----------------------------------------------------------------- copies and saving
    def clone(self) -> "Game":
        """An independent copy (state, generator and log)."""
        other = object.__new__(Game)
        other.__dict__.update({k: v for k, v in self.__dict__.items()
                               if k not in self._state.arrays})
        other._mask = np.zeros(self.A.size, dtype=np.int8)
        other._bind(self._state.clone())
        other.log = None if self.log is None else list(self.log)
        return other

    def state_equals(self, other: "Game") -> bool:
        return self.config() == other.config() and self._state.equals(other._state)

    def to_dict(self) -> dict:
        """The whole game as plain data; see docs/state-format.md for the schema."""
        from .saving import FORMAT, FORMAT_VERSION
        return {"format": FORMAT, "version": FORMAT_VERSION, "config": self.config(),
                **self._state.to_dict(), "log": self.log}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text, data: GameData = DEFAULT_DATA) -> "Game":
        """Load a game saved by :meth:`to_json`; raise StateFormatError if it is malformed."""
        try:
            d = json.loads(text) if isinstance(text, (str, bytes)) else text
        except json.JSONDecodeError as exc:
            raise StateFormatError(f"saved state is not valid JSON: {exc}") from None
        from .saving import load
        return load(cls, d, data)

    def determinize(self, player: int, rng: np.random.Generator | None = None) -> "Game":
        """A copy with what `player` cannot know re-dealt at random (for IS-MCTS)."""
        from .determinize import determinize
        return determinize(self, player, rng)

    def render(self, player: int | None = None) -> str:
        """The table as text; with `player`, only what that player may see."""
        from .render import render
        return render(self, player)

    def __repr__(self):
        where = "over" if self.is_over else f"player_{self.current_player} to act"
        return f"<Game {self.n} players, round {self.round}, phase {self.phase}, {where}>"

    def card_name(self, code: int) -> str:
        return card_name(code)
