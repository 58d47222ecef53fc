"""N games of Tribune stepped together, as arrays: the core of the vector environment.

Every game keeps its state, mask and parameters in one row of shared 2-D arrays, so one
compiled call steps the games and writes their observations (:mod:`tribune_env.core.batched`).
The rows are split among threads, each stepping its own slice with the GIL released; a
game depends on its row alone, so the thread count changes nothing in the games. Each game
is seen from its *acting* player: ``observations[i]`` and ``masks[i]`` belong to
``players[i]``. A game that ends is replaced at once by a new one, dealt in compiled code as
``Game(seed)`` deals it (automatic reset), or with the victory card the batch chose for it
(:attr:`VectorGames.card_weights`); its final rewards, one per seat, are returned by the step
that ended it. No :class:`~tribune_env.engine.Game` object is kept per row: ``games[i]``
makes one that reads and writes row i when someone asks.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import replace

import numpy as np

from .._compiler import native
from ..core.batched import actors, deal, observe_batch, observe_rows, step_observe
from ..core.events import CAPACITY, WIDTH
from ..data import MAX_PLAYERS
from ..engine import Game, Handle
from ..errors import ConfigError, IllegalActionError
from ..game_config import GameConfig
from ..kernel import seed_words
from ..state import State
from .finished import FinishedGames
from .rewards import check_scheme

ROWS_PER_THREAD = 32  # below this many games a thread costs more than it saves
PARTS_PER_THREAD = 4  # games differ in their work: threads that take parts as they come finish together


class VectorGames:
    """`num_envs` games with the same configuration, each seen by its player to act.

    Parameters: ``num_envs``, ``seed``, ``reward`` (scheme of the final rewards), ``threads``
    (how many threads step the games: by default one per core, at most one per 32 games),
    and the games, as ``config`` (a :class:`~tribune_env.GameConfig`) or as its settings by
    name. Games in a batch keep no log.
    """

    def __init__(
        self,
        num_envs: int,
        seed=None,
        reward: str = "win",
        threads: int | None = None,
        config: GameConfig | None = None,
        **settings,
    ):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ConfigError(f"num_envs must be a positive int, got {num_envs!r}")
        self.num_envs = n = int(num_envs)
        self.threads = check_threads(threads, n)
        self.reward_scheme = check_scheme(reward)
        self.config = GameConfig.of(config, **settings)
        self._kinds, self._drawn = kinds_of(self.config)
        self._card_weights, self._card_p = None, None
        first = self._kinds[0]
        self.num_players = first.n
        self.obs_layout = first.obs_layout
        self.action_size = first.A.size
        self._offsets = first.obs_layout.offsets
        offsets = first.state.layout.offsets
        self._meta_at, self._tasks_at, self._rng_at = (offsets[name][0] for name in ("meta", "tasks", "rng"))
        self._fresh = State.empty(first.state.layout).buffer
        self._kinds_params = np.stack([kind.handle.params for kind in self._kinds])
        self._deck, self.deck_counts = first.deck, first.deck_counts
        self._buffers = np.zeros((n, first.handle.buffer.size), dtype=np.int32)
        self._params = np.zeros((n, first.handle.params.size), dtype=np.int64)
        self._events = np.zeros((self.threads, CAPACITY, WIDTH), dtype=np.int32)  # one per thread
        self._kind = np.zeros(n, dtype=np.int64)  # which of _kinds each row's game is
        self._shells: dict[int, Game] = {}
        self._pool = ThreadPoolExecutor(self.threads - 1) if self.threads > 1 else None
        self._slices = self._parts(n, ROWS_PER_THREAD)
        self.masks = np.zeros((n, self.action_size), dtype=np.int8)
        self.observations = np.zeros((n, first.obs_layout.size), dtype=np.float32)
        self.players = np.zeros(n, dtype=np.int64)
        # the seed each row's game was dealt from: Game.from_config(kind(i).config, seed=...) plays it
        self.seeds = np.zeros(n, dtype=np.int64)
        self.games = GameRows(self)
        self._all_read = np.ones((n, MAX_PLAYERS), dtype=np.bool_)
        self._no_actions = np.full(n, -1, dtype=np.int64)
        self.decisions = 0  # actions applied, for throughput figures
        self._none_finished = self._finished(np.zeros(0, dtype=np.int64))
        self.reset(seed)

    def reset(self, seed=None):
        """New games for every slot; returns (observations, masks, players)."""
        self._seeds = np.random.default_rng(seed)
        self.finished = self._none_finished
        self._deal(np.arange(self.num_envs))
        return self.observations, self.masks, self.players

    def _deal(self, rows: np.ndarray):
        """New games in `rows`, seeded in row order from the batch's generator, observed by their first player."""
        seeds = self._seeds.integers(2**63, size=len(rows)).tolist()  # the draws one at a time would give
        words = np.array([seed_words(s) for s in seeds], dtype=np.int32).reshape(len(rows), 4)
        if self._card_p is None:  # each game draws its card, as Game(seed) does
            self._kind[rows] = -1
        else:  # the card chosen by the batch: the game is Game(seed, victory_card=card)
            self._kind[rows] = self._drawn + self._seeds.choice(self._drawn, size=len(rows), p=self._card_p)
        native.ready()
        deal(self._buffers, self._params, self._events[0], self.masks, rows, words, self._fresh,
             self._kinds_params, self._drawn, self._deck, self._rng_at, self._kind)  # fmt: skip
        self.seeds[rows] = seeds
        for i in rows:
            self._shells.pop(int(i), None)
        actors(self._buffers, self._meta_at, self._tasks_at, self.players)
        observers = np.full(self.num_envs, -1, dtype=np.int64)
        observers[rows] = self.players[rows]
        observe_batch(self._buffers, self._params, self._offsets, observers, self.observations)

    @property
    def card_weights(self) -> dict | None:
        """How the games dealt from now on get their victory card: ``None`` (the default), each
        draws it as ``Game(seed)`` does; or ``{card id: weight}``, the batch chooses it from its
        generator in proportion to the weights (a card left out: weight 0), and the row's game is
        ``Game(seed, victory_card=card)``. For curricula over the cards; needs games that draw
        their card (no victory card or point variant configured)."""
        return None if self._card_weights is None else dict(self._card_weights)

    @card_weights.setter
    def card_weights(self, weights: dict | None):
        if weights is None:
            self._card_weights, self._card_p = None, None
            return
        if not self._drawn:
            raise ConfigError("card weights need games that draw their victory card; these games' card is fixed")
        cards = self.config.fitting_cards()
        if not isinstance(weights, dict) or set(weights) - set(cards):
            raise ConfigError(f"card weights must be a dict of victory cards among {cards}, got {weights!r}")
        p = np.zeros(len(cards))
        for k, card in enumerate(cards):
            w = weights.get(card, 0.0)
            if isinstance(w, bool) or not isinstance(w, (int, float, np.integer, np.floating)) or not 0 <= w < np.inf:
                raise ConfigError(f"the weight of {card} must be a finite number at least 0, got {w!r}")
            p[k] = w
        if p.sum() <= 0:
            raise ConfigError(f"card weights must give some card a positive weight, got {weights!r}")
        self._card_weights, self._card_p = dict(weights), p / p.sum()

    def step(self, actions, readers=None):
        """Apply one action per game (-1 leaves a game as it is); replace the games that end.

        Returns ``(observations, masks, players, rewards, ended)``: ``rewards`` is
        (num_envs, 5) float32, each seat's final reward in the games that ended in this
        step and zero elsewhere; ``ended`` holds, per game, 0 (going on), 1 (terminated) or
        2 (truncated at the round limit). The games that ended are in ``finished[i]``
        (:class:`~tribune_env.envs.finished.FinishedGames`: their results as arrays too).
        ``readers``, (num_envs, 5) bool, says whose observations anyone reads: a game whose
        next player is not a reader keeps its old observation row, unwritten (a new deal's
        first observation is always written). By default every seat's is written.
        """
        actions = self._check(actions)
        readers = self._all_read if readers is None else check_readers(readers, self.num_envs)
        native.ready()
        self._each_slice(actions, readers)
        self.decisions += int((actions >= 0).sum())
        return self._settle()

    def play_rows(self, play, rows, readers=None, *args, actions=None, min_rows: int = ROWS_PER_THREAD):
        """Let an opponent move the games of `rows` on for as long as it is to act in them: its
        compiled ``play(buffers, params, events, masks, rows, actions, meta_at, tasks_at, players,
        *args)`` first applies ``actions[row]`` where it is not -1 (the learners' moves, checked
        as :meth:`step` checks them, so that a step and its opponents' turns are one call), then
        steps the games of the rows it is given, writes who acts next in ``players`` (-1: the
        game ended) and releases the GIL; the rows are split over the batch's threads when each
        gets `min_rows` or more. Then as :meth:`step`: the next players' observations where
        `readers`, the games that ended replaced, and the same tuple returned.
        """
        rows = np.asarray(rows, dtype=np.int64)
        readers = self._all_read if readers is None else check_readers(readers, self.num_envs)
        if actions is None:
            actions = self._no_actions
        else:
            actions = self._check(actions)
            outside = actions.copy()
            outside[rows] = -1
            if (outside >= 0).any():
                raise ConfigError("play_rows applies actions only in the rows it plays; an action is outside them")
            self.decisions += int((actions >= 0).sum())
        native.ready()

        def work(t: int, part: slice):
            play(self._buffers, self._params, self._events[t], self.masks, rows[part], actions, self._meta_at,
                 self._tasks_at, self.players, *args)  # fmt: skip
            observe_rows(self._buffers, self._params, self._offsets, rows[part], self.players, readers,
                         self.observations)  # fmt: skip

        self._in_parts(self._parts(len(rows), min_rows), work, len(rows), min_rows)
        return self._settle()

    def _settle(self):
        """After a step: the final rewards of the games that ended, and new games in their rows."""
        rewards = np.zeros((self.num_envs, MAX_PLAYERS), dtype=np.float32)
        ended = np.zeros(self.num_envs, dtype=np.int8)
        done = np.flatnonzero(self.players < 0)
        self.finished = self._none_finished
        if done.size:
            self.finished = self._finished(done)
            ended[done] = self.finished.status
            rewards[done] = self.finished.rewards(self.reward_scheme)
            self._deal(done)
        return self.observations, self.masks, self.players, rewards, ended

    def _finished(self, rows: np.ndarray) -> FinishedGames:
        """The games of `rows`, over, copied out of their rows (which are then dealt anew)."""
        handle = (self._buffers[rows], self._params[rows], self.masks[rows])  # copies
        shells = {int(i): self._shells.pop(int(i)) for i in rows if int(i) in self._shells}
        kinds = [self.kind(i) for i in rows]
        return FinishedGames(rows, kinds, handle, self._meta_at, self.obs_layout, shells)

    def _each_slice(self, actions: np.ndarray, readers: np.ndarray):
        """Step and observe every slice of rows, one per thread (the last in this one); a step
        that moves few games (an opponent's turn in a few of them) runs in this thread alone."""

        def run(t: int, rows: slice):
            step_observe(self._buffers[rows], self._params[rows], self._events[t], self.masks[rows],
                         actions[rows], self._meta_at, self._tasks_at, self._offsets, readers[rows],
                         self.players[rows], self.observations[rows])  # fmt: skip

        self._in_parts(self._slices, run, np.count_nonzero(actions >= 0))

    def _parts(self, count: int, min_rows: int) -> list[slice]:
        """``range(count)`` in up to PARTS_PER_THREAD slices per thread of `min_rows` or more, as even as can be."""
        pieces = max(1, min(PARTS_PER_THREAD * self.threads, count // min_rows))
        return [slice(count * k // pieces, count * (k + 1) // pieces) for k in range(pieces)]

    def _in_parts(self, parts: list[slice], work, busy: int, min_rows: int = ROWS_PER_THREAD) -> None:
        """``work(t, part)`` for every part, each thread t (this one the last) taking the next part
        as it becomes free; with one thread, or fewer than `min_rows` busy items a thread,
        ``work(0, slice(None))`` here."""
        if self._pool is None or busy < min_rows * self.threads:
            work(0, slice(None))
            return
        queue = iter(parts)  # shared: taking the next part is one step under the GIL

        def worker(t: int):
            for part in queue:
                work(t, part)

        others = [self._pool.submit(worker, t) for t in range(self.threads - 1)]
        try:
            worker(self.threads - 1)
        finally:  # no thread may still write when this returns or raises
            wait(others)
        for job in others:
            job.result()

    def close(self) -> None:
        """Stop the threads (a batch is then stepped in the caller's thread alone)."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def _check(self, actions) -> np.ndarray:
        return check_actions(actions, self.masks, self.players)

    @property
    def handle(self) -> Handle:
        """The batch's state buffers, parameters and masks, a game a row, as compiled code takes them
        (an agent with ``act_rows`` decides from them for many games in one call)."""
        return Handle(self._buffers, self._params, self.masks)

    def kind(self, i: int) -> Game:
        """A game of row i's configuration (its victory card), to bind to a copy of the row's state."""
        return self._kinds[self._kind[i]]

    def game(self, i: int) -> Game:
        """The game in row i, as a :class:`Game` that reads and writes that row (made on first use)."""
        game = self._shells.get(i)
        if game is None:
            game = self._shells[i] = self.kind(i).bound_to(self._buffers[i], self._params[i], self.masks[i])
        return game


class GameRows(Sequence):
    """``games[i]``: the game in row i of a :class:`VectorGames`, as a :class:`Game` (made on first use)."""

    def __init__(self, games: VectorGames):
        self._games = games

    def __len__(self) -> int:
        return self._games.num_envs

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"games are indexed by row numbers, got {i!r}")
        if not -len(self) <= i < len(self):
            raise IndexError(f"row {i} is outside the {len(self)} games")
        return self._games.game(int(i) % len(self))


def kinds_of(config: GameConfig) -> tuple[list[Game], int]:
    """A game for each kind of game in the batch, and how many of them a deal draws its card
    among. The kind is the one configured card (or none, in the point-value variant), drawing
    nothing; or, when each game draws its card, every card that fits the player count as drawn,
    in the order ``Game`` draws from, then each as given (chosen by the batch). Their deals are
    never played: each gives the row games of its kind their parameters."""
    if config.victory_card is not None or config.point_variant:
        return [Game.from_config(config, seed=0, log=False)], 0
    cards = config.fitting_cards()
    drawn = [Game.from_config(replace(config, victory_card=key), seed=0, log=False) for key in cards]
    for kind in drawn:  # as if dealt from the batch's config, the card drawn
        kind.config, kind.victory_card_drawn = config, True
    given = [Game.from_config(replace(config, victory_card=key), seed=0, log=False) for key in cards]
    return drawn + given, len(cards)


def check_threads(threads, num_envs: int) -> int:
    """The thread count: as given (a positive int), or one per core and at most one per ROWS_PER_THREAD games."""
    if threads is None:
        return max(1, min(os.cpu_count() or 1, num_envs // ROWS_PER_THREAD))
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise ConfigError(f"threads must be a positive int, got {threads!r}")
    return min(int(threads), num_envs)


def check_readers(readers, num_envs: int) -> np.ndarray:
    """`readers` as a (num_envs, 5) bool array, or ConfigError naming its shape or type."""
    readers = np.asarray(readers)
    if readers.shape != (num_envs, MAX_PLAYERS) or readers.dtype != np.bool_:
        raise ConfigError(
            f"readers must be a ({num_envs}, {MAX_PLAYERS}) bool array, got {readers.dtype} {readers.shape}"
        )
    return readers


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
