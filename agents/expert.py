"""A root search guided by a network, for many games at once: ``expert:net=PATH.pt``.

The search of expert iteration (:mod:`training.learning.expert`), and an agent of its own.
At each root the network's policy proposes `candidates` moves (its most probable, or, when
exploring, the top of its logits plus Gumbel noise, as Gumbel AlphaZero samples without
replacement); each is played in the same `worlds` determinisations for the seat to act,
the heuristic plays on to the end of the round (:mod:`agents.leaves`), and the network's
value of the seat's observation there (or the rules' final reward, if the game ended) is
the move's value. The values improve the policy as Gumbel MuZero's planning does
(Danihelka et al. 2022): ``softmax(logits + sigma(q))``, the values of moves not searched
completed by the mixed value of the root, less the least of them and weighted by
``(50 + worlds) * 20/54`` (20 at 4 worlds). That distribution is what the network learns
from; the move played is the candidate best by ``noise + logits + sigma(q)``.

The values stay in the reward's units (a win is 1), not rescaled to [0, 1] as Gumbel MuZero
does: from a few worlds a move's value errs by about as much as the candidates' values
differ (at 4 players, 0.08 against a median spread of 0.07), and the rescaling stretched
that noise over the whole scale, so that every target strongly favoured a move picked
largely by chance.

All roots' leaves go through the network in one forward pass, and their worlds and rollouts
are made in compiled code on two threads; a search replays exactly from its generator.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from tribune_env.determinize import sampler_words
from tribune_env.envs.rewards import final_rewards
from tribune_env.errors import ConfigError, brief
from tribune_env.tasks import DECISIONS, Task

from .base import Agent
from .leaves import EMPTY, ENDED, RUNNING, Leaves, leaves

# sigma = (50 + visits) * 20/54 * (q - least q), q in the reward's units: 20 a unit of reward at 4 worlds
VISIT_SCALE, VALUE_SCALE = 50.0, 20 / 54


@dataclass
class Searched:
    """What a search found at each root: the move to play, the improved policy and the network's
    (both zero off the legal moves), the network's value of the root, the moves searched (-1
    past the last) and their values."""

    actions: np.ndarray
    policy: np.ndarray
    prior: np.ndarray
    values: np.ndarray
    candidates: np.ndarray
    q: np.ndarray


class RootSearch:
    """The search of the module's docstring over a network (:class:`agents.policy.Network`)."""

    def __init__(self, network, candidates: int = 6, worlds: int = 4, rounds: int = 1, threads: int | None = None):
        for name, value, high in (("candidates", candidates, 64), ("worlds", worlds, 256), ("rounds", rounds, 100)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= high:
                raise ConfigError(f"expert: {name} must be an int from 1 to {high}, got {brief(value)}")
        self.network = network
        self.candidates, self.worlds, self.rounds = int(candidates), int(worlds), int(rounds)
        self.threads = threads or min(2, os.cpu_count() or 1)
        self._pool = ThreadPoolExecutor(self.threads) if self.threads > 1 else None
        self._leaves: Leaves | None = None
        self.leaves = 0  # leaves made so far (a benchmark's count)

    def search(self, batch, roots, seats, observations, rng, explore: bool = False) -> Searched:
        """Search the roots in rows `roots` of `batch` (a :class:`SearchBatch`), their seats to act
        `seats`, whose observations are `observations`; Gumbel noise from `rng` when `explore`."""
        import torch

        roots = np.asarray(roots, dtype=np.int64)
        count = len(roots)
        masks = batch.masks[roots].astype(bool)
        with torch.no_grad():
            inputs = torch.as_tensor(np.asarray(observations, dtype=np.float32))
            logits = self.network.logits(inputs).double().numpy()
            values = self.network.values(inputs).double().numpy()
        logits = np.where(masks, logits - np.where(masks, logits, -np.inf).max(axis=1, keepdims=True), -np.inf)
        noise = rng.gumbel(size=logits.shape) if explore else np.zeros_like(logits)
        order = np.argsort(-(logits + noise), axis=1, kind="stable")[:, : self.candidates]
        candidates = np.where(np.take_along_axis(masks, order, axis=1), order, -1)
        words = sampler_words(rng, count * self.worlds).reshape(count, self.worlds, 4)
        leaf = self._fill(batch, roots, seats, candidates, words)
        q = self._values(batch, roots, seats, leaf).mean(axis=1)  # (roots, candidates)
        prior = softmax(logits)
        improved = logits + completed_sigma(logits, prior, values, candidates, q, self.worlds)
        score = np.take_along_axis(improved + noise, np.maximum(candidates, 0), axis=1)
        score[candidates < 0] = -np.inf
        actions = candidates[np.arange(count), score.argmax(axis=1)]
        return Searched(actions, softmax(improved), prior, values, candidates, q)

    def _fill(self, batch, roots, seats, candidates, words) -> Leaves:
        """Every leaf of the roots, in compiled code split over the threads."""
        shape = (len(roots), self.worlds, self.candidates)
        if self._leaves is None or self._leaves.shape[0] < len(roots):
            self._leaves = Leaves(len(roots), self.worlds, self.candidates, batch.buffers.shape[1],
                                  batch.masks.shape[1], batch.obs_size)  # fmt: skip
        out = self._leaves
        per_root = self.worlds * self.candidates
        seats = np.asarray(seats, dtype=np.int64)

        def run(a: int, b: int):
            part = LeafSlice(out, a * per_root, b * per_root)
            leaves(batch.buffers, batch.params, roots[a:b], seats[a:b], candidates[a:b], words[a:b],
                   self.rounds, batch.deck_counts, batch.offsets, part)  # fmt: skip

        bounds = np.linspace(0, len(roots), self.threads + 1).astype(int)
        if self._pool is None or len(roots) < 2 * self.threads:
            run(0, len(roots))
        else:
            jobs = [self._pool.submit(run, a, b) for a, b in zip(bounds[:-1], bounds[1:])]
            for job in jobs:
                job.result()
        return LeafSlice(out, 0, len(roots) * per_root, shape)

    def _values(self, batch, roots, seats, leaf) -> np.ndarray:
        """(roots, worlds, candidates): each leaf's value for its root's seat (nan where no candidate)."""
        import torch

        values = np.full(leaf.status.shape, np.nan)
        self.leaves += int(np.count_nonzero(leaf.status != EMPTY))
        running = np.flatnonzero(leaf.status == RUNNING)
        if running.size:
            with torch.no_grad():
                values[running] = self.network.values(torch.as_tensor(leaf.observations[running])).double().numpy()
        per_root = self.worlds * self.candidates
        for j in np.flatnonzero(leaf.status == ENDED):
            g = j // per_root
            game = batch.kind(roots[g]).bound_to(leaf.buffers[j], batch.params[roots[g]], leaf.masks[j])
            values[j] = final_rewards(game, "win")[seats[g]]
        return values.reshape(leaf.shape)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None


class LeafSlice:
    """Rows `a` to `b` of a :class:`Leaves` (a thread's share, or the leaves of one search)."""

    def __init__(self, leaves_: Leaves, a: int, b: int, shape=None):
        self.buffers, self.masks = leaves_.buffers[a:b], leaves_.masks[a:b]
        self.observations, self.status = leaves_.observations[a:b], leaves_.status[a:b]
        self.shape = shape


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax of logits that are -inf off the legal moves."""
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True)


def completed_sigma(logits, prior, values, candidates, q, visits: int) -> np.ndarray:
    """Gumbel MuZero's sigma of the completed values (mctx's ``qtransform_completed_by_mix_value``
    without its rescaling, see the module): the searched moves' values, the others' the mixed
    value of the root (the network's value mixed with the prior-weighted mean of the searched
    values), less their least over the legal moves and weighted by ``(50 + visits) * 20/54``.
    -inf off the legal moves, as `logits`; `prior` is ``softmax(logits)``."""
    legal = np.isfinite(logits)
    searched = candidates >= 0
    rows = np.arange(len(logits))[:, None]
    weights = np.where(searched, prior[rows, np.maximum(candidates, 0)], 0.0)
    q_searched = np.where(searched, q, 0.0)
    weighted = (weights * q_searched).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-12)
    total = visits * searched.sum(axis=1)
    mixed = (values + total * weighted) / (1 + total)
    completed = np.where(legal, mixed[:, None], np.nan)
    cols = np.where(searched, candidates, 0)
    completed[rows.repeat(candidates.shape[1], axis=1)[searched], cols[searched]] = q[searched]
    low = np.nanmin(completed, axis=1, keepdims=True)
    return np.where(legal, (VISIT_SCALE + visits) * VALUE_SCALE * (completed - low), -np.inf)


class SearchBatch:
    """The rows a search reads: state buffers, parameters, masks, the observation's size and
    offsets, the deck, and the game of each row's kind (to score a leaf that ended)."""

    def __init__(self, buffers, params, masks, obs_size, offsets, deck_counts, kind):
        self.buffers, self.params, self.masks, self.obs_size = buffers, params, masks, obs_size
        self.offsets, self.deck_counts, self.kind = offsets, deck_counts, kind

    @classmethod
    def of_vector(cls, games) -> SearchBatch:
        """The rows of a :class:`tribune_env.envs.VectorGames`."""
        return cls(*games.handle, games.obs_layout.size, games.obs_layout.offsets, games.deck_counts, games.kind)

    @classmethod
    def of_game(cls, game) -> SearchBatch:
        """One game, as a batch of one row."""
        buffer, params, mask = game.handle
        return cls(buffer[None], params[None], mask[None], game.obs_layout.size, game.obs_layout.offsets,
                   game.deck_counts, lambda i: game)  # fmt: skip


class ExpertAgent(Agent):
    """The search as a player: ``expert:net=PATH.pt[,candidates=6,worlds=4,rounds=1,kinds=place]``.

    It plays the searched candidate best by ``logits + sigma(q)``, without noise, so the same
    seed gives the same game. With ``kinds`` (decision kinds joined by ``+``, ``place+atrium_bid``)
    it searches only those decisions and plays the network's most probable move at the others.
    """

    name = "expert"

    def __init__(self, seed=None, net: str = "", candidates: int = 6, worlds: int = 4, rounds: int = 1,
                 kinds: str = ""):  # fmt: skip
        super().__init__(seed)
        if not net:
            raise ConfigError("expert needs net=PATH.pt: a policy file")
        from .policy import PolicyAgent

        self.kinds = searched_kinds(kinds)
        self.policy = PolicyAgent(path=net)
        self.search = RootSearch(self.policy.network, candidates, worlds, rounds, threads=1)

    def act(self, observation, action_mask, view) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 1:
            return int(legal[0])
        if self.kinds and decision_of(observation, view.observation_layout) not in self.kinds:
            return self.policy.act(observation, action_mask, view)
        world = view.determinize(self.rng)  # the seat's information is all a search may use
        found = self.search.search(SearchBatch.of_game(world), [0], [view.seat], observation[None], self.rng)
        return int(found.actions[0])


def searched_kinds(text: str) -> frozenset:
    """The decision kinds named in `text` (``place+atrium_bid``, any case); empty for all of them."""
    if not isinstance(text, str):
        raise ConfigError(f"expert: kinds must be decision kinds joined by +, got {brief(text)}")
    names = {t.name for t in DECISIONS}
    kinds = [name.strip() for name in text.split("+")] if text else []
    unknown = [name for name in kinds if name.upper() not in names]
    if unknown:
        raise ConfigError(f"expert: unknown decision kind(s) {', '.join(map(brief, unknown))}; known: "
                          f"{', '.join(sorted(n.lower() for n in names))}")  # fmt: skip
    return frozenset(Task[name.upper()] for name in kinds)


def decision_of(observation, layout) -> Task:
    """The kind of decision an observation asks for (its ``decision`` segment)."""
    return Task(Task.SETUP_DISCARD + int(observation[layout.slices["decision"]].argmax()))
