"""Information-set Monte Carlo tree search (single-observer IS-MCTS, Cowling et al. 2012).

Each iteration plays in one *determinisation*: a full game consistent with what the
searching seat knows (:meth:`tribune_env.PlayerView.determinize`), so hidden cards and
sealed bids are sampled rather than peeked at. The search runs in *sweeps*: each sweep
samples a fresh determinisation and tries every root move in it, so the root's moves are
compared on the same worlds (common random numbers: the luck of the deal cancels out of
their differences). It plays the heuristic's move unless another beats it on those worlds
by ``confidence`` standard errors of the difference: the best of twenty noisy means is
flattered by its noise, and a search that trusts it can lose to the very heuristic it
refines (see the README's measurements).

Below a root move the tree grows for ``depth - 1`` more decisions, keyed by action
sequences; a node's statistics hold one value per seat, and the seat to act picks by UCB
on its own value, counting a child as available only in the determinisations where it is
legal. A leaf is valued by a rollout (by default every seat plays the
:class:`~agents.heuristic.HeuristicAgent`'s moves, in compiled code, to the end of the
next round; or random moves) and then the position evaluation of
:mod:`agents.evaluation`, or by the final rewards if the game has ended. By default the
other seats are modelled as playing the heuristic's moves, so the tree branches only on
the searching seat's own decisions.

Why a flat root by default (``depth=1``): at 0.25 s a decision the search affords some
ten sweeps; a deeper tree spends part of them exploring the seat's own later moves, whose
values then mix into the root's (with ``depth=3`` it chose worse moves outside the
placements in ``benchmarks/search_accuracy.py regret``).
"""

from __future__ import annotations

import math
import numbers
import time

import numpy as np

from tribune_env.envs.rewards import final_rewards
from tribune_env.errors import ConfigError, brief
from tribune_env.player import random_action

from .base import Agent
from .evaluation import evaluate_position
from .heuristic import best_placements, heuristic_rollout

POLICIES = ("random", "heuristic")
HORIZONS = ("moves", "round")
ROUND_ROLLOUT = 2000  # moves at most in a rollout to the end of the round
ALL = object()  # a node's candidates when it is not narrowed: every legal move


# Each numeric option: its type and range. Beyond them a search never ends (seconds=inf or nan)
# or its numbers overflow the compiled rollouts.
OPTIONS = {
    "iterations": (int, 0, 10**7),
    "seconds": (float, 0, 3600),
    "depth": (int, 1, 100),
    "width": (int, 0, 1000),
    "exploration": (float, 0, 100),
    "rollout": (int, 0, 100_000),
    "rounds": (int, 1, 1000),
    "confidence": (float, 0, 100),
}


def _check_numbers(**options) -> None:
    """ConfigError naming the first option that is not a number of its type and range (nan and inf never are)."""
    for name, value in options.items():
        kind, low, high = OPTIONS[name]
        number = isinstance(value, numbers.Integral) or (kind is float and isinstance(value, numbers.Real))
        if isinstance(value, bool) or not number or not low <= value <= high:
            raise ConfigError(
                f"ismcts: {name} must be {'an int' if kind is int else 'a number'} from {low} to "
                f"{high:,}, got {brief(value)}"
            )


class Node:
    """Statistics of one action sequence: visits, availability and summed values per seat."""

    __slots__ = ("available", "candidates", "children", "total", "visits")

    def __init__(self, num_players: int):
        self.candidates = None  # the moves searched (ALL: the legal ones), once visited
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 0
        self.total = np.zeros(num_players)


class ISMCTSAgent(Agent):
    """IS-MCTS with a budget of `iterations` and/or `seconds` per decision.

    Options:

    - ``iterations`` (rollouts at most, default 0: no limit), ``seconds`` (default 0.25; 0
      for no limit): after its first sweep a decision stops before a sweep that would
      overrun either budget (the longest sweep so far is its estimate); a sweep the deadline
      cuts short is dropped, and if none completes the heuristic's move is played (the first
      root move when ``confidence=0``);
    - ``confidence``: standard errors by which a move must beat the heuristic's (default 2;
      0 plays the best mean);
    - ``width``: at the searching seat's placements, search only the heuristic's `width`
      best spaces and its move (default 6; 0: all);
    - ``horizon``: ``round`` (the default) rolls out to the end of the ``rounds``-th round
      from now (default 2: placements have paid off, and a lead says more about the
      winner); ``moves`` rolls out ``rollout`` moves (default 8);
    - ``policy``: who plays the rollout moves, ``heuristic`` (the default) or ``random``;
    - ``opponents``: ``heuristic`` (the default) models the other seats as playing the
      heuristic's moves; ``search`` lets them choose by UCB on their own values;
    - ``depth``: the decisions the tree branches on, the root's included (default 1);
      below the root, ``exploration`` (UCB constant, default 0.7) and ``guide``
      (``heuristic``, the default, expands the heuristic's move first; or ``none``).

    Each number must lie in its range in ``OPTIONS`` (nan and infinities never do).
    """

    name = "ismcts"

    def __init__(
        self,
        seed=None,
        iterations: int = 0,
        seconds: float = 0.25,
        depth: int = 1,
        width: int = 6,
        exploration: float = 0.7,
        rollout: int = 8,
        policy: str = "heuristic",
        guide: str = "heuristic",
        opponents: str = "heuristic",
        horizon: str = "round",
        rounds: int = 2,
        confidence: float = 2.0,
    ):
        super().__init__(seed)
        _check_numbers(
            iterations=iterations,
            seconds=seconds,
            depth=depth,
            width=width,
            exploration=exploration,
            rollout=rollout,
            rounds=rounds,
            confidence=confidence,
        )
        if not (iterations or seconds):
            raise ConfigError("ismcts needs a budget: iterations > 0 and/or seconds > 0")
        if policy not in POLICIES or guide not in ("none", "heuristic"):
            raise ConfigError(
                f"ismcts: policy must be one of {POLICIES} and guide 'none' or 'heuristic', "
                f"got {policy!r} and {guide!r}"
            )
        if horizon not in HORIZONS:
            raise ConfigError(f"ismcts: horizon must be one of {HORIZONS}, got {horizon!r}")
        if opponents not in ("search", "heuristic"):
            raise ConfigError(f"ismcts: opponents must be 'search' or 'heuristic', got {opponents!r}")
        self.iterations, self.seconds = int(iterations), float(seconds)
        self.depth, self.width = int(depth), int(width)
        self.exploration, self.rollout, self.rounds = float(exploration), int(rollout), int(rounds)
        self.policy, self.guide, self.horizon = policy, guide, horizon
        self.model_opponents = opponents == "heuristic"
        self.confidence = float(confidence)
        self.heuristic = None
        if policy == "heuristic" or guide == "heuristic" or self.model_opponents or self.confidence:
            from .heuristic import HeuristicAgent

            self.heuristic = HeuristicAgent(seed=seed)
        self.last_iterations = 0  # rollouts of the last decision searched
        self.last_values: dict[int, float] = {}  # its root moves' mean values for the seat

    def reset(self, seed=None) -> None:
        super().reset(seed)
        if self.heuristic is not None:
            self.heuristic.reset(seed)

    def act(self, observation, action_mask, view) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 1:
            return int(legal[0])
        self._seat = view.seat
        deadline = time.perf_counter() + self.seconds if self.seconds else math.inf
        default = self._kept(observation, action_mask, view) if self.confidence else None
        moves, sweeps, longest = None, [], 0.0
        while True:
            started = time.perf_counter()
            world = self._world(view)
            if moves is None:
                moves = self._root_moves(world, legal, default)
                children = [Node(view.num_players) for _ in moves]  # the subtrees below the root moves
            sweep = self._sweep(world, moves, children, deadline)
            if sweep is None:  # out of time inside a sweep: it is dropped
                break
            sweeps.append(sweep)
            now = time.perf_counter()
            longest = max(longest, now - started)
            done = len(sweeps) * len(moves)
            if (self.iterations and done + len(moves) > self.iterations) or now + longest > deadline:
                break
        self.last_iterations = len(sweeps) * len(moves)
        if not sweeps:  # not one world in the time: nothing to compare
            self.last_values = {}
            return int(moves[0] if default is None else default)
        values = np.array(sweeps).T  # (moves, sweeps): the seat's value of each move per world
        self.last_values = dict(zip(moves.tolist(), values.mean(axis=1).tolist()))
        return self._choice(moves, values, default)

    def _kept(self, observation, action_mask, view) -> int:
        """The move played unless another beats it on the sampled worlds: the heuristic's."""
        return self.heuristic.act(observation, action_mask, view)

    def _sweep(self, world, moves, children, deadline) -> np.ndarray | None:
        """The seat's value of each root move in one world; None if the deadline passes first.
        Its leaves are valued together, so that a network values a whole sweep in one pass."""
        leaves = []
        for action, child in zip(moves, children):
            if time.perf_counter() > deadline:
                return None
            game = world.clone()
            game.step(int(action))
            leaves.append(self._descend(child, game, self.depth - 1))
        values = self._values([game for _, game in leaves])
        for (path, _), value in zip(leaves, values):
            for visited in path:  # each root move has a subtree of its own: no order to keep
                visited.visits += 1
                visited.total += value
        return values[:, self._seat]

    def _choice(self, moves: np.ndarray, values: np.ndarray, default) -> int:
        """The best mean; with a confidence, the heuristic's move unless another beats it on the
        same worlds by `confidence` standard errors (the best of many noisy means is flattered)."""
        if default is None:
            return int(moves[np.argmax(values.mean(axis=1))])
        sweeps = values.shape[1]
        if sweeps < 2:
            return int(default)
        gain = values - values[np.flatnonzero(moves == default)[0]]
        bound = gain.mean(axis=1) - self.confidence * gain.std(axis=1, ddof=1) / math.sqrt(sweeps)
        best = int(np.argmax(bound))
        return int(moves[best]) if bound[best] > 0 else int(default)

    def _world(self, view):
        game = view.determinize(self.rng)
        game.log = None  # a search copy keeps no readable log
        return game

    def _root_moves(self, world, legal: np.ndarray, default) -> np.ndarray:
        """The root's moves: all legal ones, or at a placement the heuristic's `width` best
        (and its move in the real view, `default`, if given)."""
        if self.width and len(legal) > self.width:
            best = best_placements(world, self.width)
            if best is not None:
                return np.unique(np.append(best, [] if default is None else [default]).astype(np.int64))
        return legal

    def _descend(self, node: Node, game, depth: int) -> tuple[list[Node], object]:
        """Select and expand below `node` in `game` (a world) for `depth` more decisions, then
        roll out: the nodes passed and the rolled-out world, whose value they are owed."""
        path = [node]
        while depth and not game.is_over:
            player = game.current_player
            if self.model_opponents and player != self._seat:
                action = self._heuristic_move(game)  # the opponent model answers; no branching
                node = node.children.setdefault(action, Node(len(node.total)))
                game.step(action)
                path.append(node)
                continue
            depth -= 1
            legal = self._candidates(node, game, player)
            untried = [a for a in legal if a not in node.children]
            for a in legal:
                child = node.children.get(a)
                if child is not None:
                    child.available += 1
            if untried:
                action = self._expansion(game, untried)
                child = node.children[action] = Node(len(node.total))
                child.available = 1
                game.step(action)
                path.append(child)
                break
            action = self._select(node, legal, player)
            game.step(action)
            node = node.children[action]
            path.append(node)
        self._rollout(game)
        return path, game

    def _candidates(self, node: Node, game, player: int) -> np.ndarray:
        """The legal moves searched at a node: at the searching seat's placements, only the
        heuristic's `width` best (chosen at the node's first visit, in its first world);
        elsewhere all those legal in this world."""
        legal = np.flatnonzero(game.legal_mask())
        if not self.width or player != self._seat or len(legal) <= self.width:
            return legal
        if node.candidates is None:
            best = best_placements(game, self.width)
            node.candidates = ALL if best is None else np.sort(best)
        if node.candidates is ALL:
            return legal
        kept = node.candidates[game.legal_mask()[node.candidates] > 0]
        return kept if len(kept) else legal

    def _expansion(self, game, untried: list) -> int:
        """The heuristic's move if it is untried and guiding, else a random untried one."""
        if self.guide == "heuristic":
            action = self._heuristic_move(game)
            if action in untried:
                return action
        return int(untried[self.rng.integers(len(untried))])

    def _heuristic_move(self, game) -> int:
        """The heuristic's move in a determinised world (already a sample: no re-deal)."""
        return self.heuristic.choose(game)

    def _select(self, node: Node, legal, player: int) -> int:
        """UCB over the legal children, on the value of the seat to act."""
        best, best_score = -1, -math.inf
        for a in legal:
            child = node.children[a]
            score = child.total[player] / child.visits + self.exploration * math.sqrt(
                math.log(child.available) / child.visits
            )
            if score > best_score:
                best, best_score = int(a), score
        return best

    def _values(self, games: list) -> np.ndarray:
        """(games, seats): the final rewards of a game that is over, else the estimate of every seat's value."""
        running = [game for game in games if not game.is_over]
        estimates = iter(self._estimates(running) if running else ())
        return np.array([final_rewards(game, "win") if game.is_over else next(estimates) for game in games])

    def _estimates(self, games: list) -> np.ndarray:
        """(games, seats): each seat's value of each running game, by the position evaluation."""
        return np.array([[evaluate_position(game, p) for p in range(game.n)] for game in games])

    def _rollout(self, game) -> None:
        """Play on by the rollout policy to the horizon."""
        rounds, moves = (
            (self.rounds, ROUND_ROLLOUT * self.rounds) if self.horizon == "round" else (game.round_limit, self.rollout)
        )
        if self.policy == "heuristic":  # compiled: no return to Python per move
            heuristic_rollout(game, rounds, moves)
        else:
            end = game.round + rounds
            for _ in range(moves):
                if game.is_over or game.round >= end:
                    break
                game.step(random_action(game.legal_mask(), self.rng))


class GuidedAgent(ISMCTSAgent):
    """IS-MCTS guided by a trained network (a policy file, ``agents/policy.py``): ``guided:net=PATH.pt``.

    At the seat's placements the root searches the network's ``width`` most probable moves
    and the kept move, instead of the heuristic's best; a rolled-out world is valued by the
    network's value head from each seat's observation (``leaf=network``, the default) or by
    the mean of that and the position evaluation (``leaf=both``). Its budget is ``iterations``
    alone (default 192), never time, so every game replays exactly from its seed. Its
    rollouts end with the current round (``rounds=1``): the value head judges the position
    from there, and the rollouts saved buy more worlds, whose number decides how often the
    search dares to leave the kept move. ``keep`` names that move: the network's most
    probable one (``network``, the default: the shipped networks beat the heuristic, so the
    search leaves their move only where the worlds show it loses) or the heuristic's
    (``heuristic``, for a network weaker than the heuristic). Other options as ``ismcts``.
    """

    name = "guided"

    def __init__(
        self,
        seed=None,
        net: str = "",
        iterations: int = 192,
        rounds: int = 1,
        leaf: str = "network",
        keep: str = "network",
        **options,
    ):
        if "seconds" in options:
            raise ConfigError("guided: its budget is iterations alone (no seconds), so that games replay exactly")
        if not net:
            raise ConfigError("guided needs net=PATH.pt: a policy file (tribune train writes best_policy.pt)")
        if leaf not in ("network", "both"):
            raise ConfigError(f"guided: leaf must be 'network' or 'both', got {leaf!r}")
        if keep not in ("heuristic", "network"):
            raise ConfigError(f"guided: keep must be 'heuristic' or 'network', got {keep!r}")
        super().__init__(seed, iterations=iterations, seconds=0, rounds=rounds, **options)
        if not self.iterations:
            raise ConfigError("guided needs iterations > 0")
        from .policy import PolicyAgent

        self.network, self.leaf, self.keep = PolicyAgent(path=net), leaf, keep

    def _kept(self, observation, action_mask, view) -> int:
        if self.keep == "network":
            return self.network.act(observation, action_mask)
        return super()._kept(observation, action_mask, view)

    def _root_moves(self, world, legal: np.ndarray, default) -> np.ndarray:
        if not self.width or len(legal) <= self.width:
            return legal
        seat = world.current_player
        probs = self.network.probabilities(world.observe(seat)[None], world.legal_mask()[None])[0]
        best = np.argsort(-probs, kind="stable")[: self.width]
        return np.unique(np.append(best[probs[best] > 0], [] if default is None else [default]).astype(np.int64))

    def _estimates(self, games: list) -> np.ndarray:
        n = games[0].n
        observations = np.stack([game.observe(p) for game in games for p in range(n)])
        values = self.network.value(observations).reshape(len(games), n)
        if self.leaf == "both":
            return (values + super()._estimates(games)) / 2
        return values
