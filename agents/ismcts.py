"""Information-set Monte Carlo tree search (single-observer IS-MCTS, Cowling et al. 2012).

Each iteration plays in one *determinisation*: a full game consistent with what the
searching seat knows (:meth:`tribune_env.PlayerView.determinize`), so hidden cards and
sealed bids are sampled rather than peeked at. The tree is keyed by action sequences
from the current decision; a node's statistics hold one value per seat, and the seat to
act at a node picks by UCB on its own value, counting a child as available only in the
determinisations where it is legal. A leaf is valued by a rollout (by default every seat
plays the :class:`~agents.heuristic.HeuristicAgent`'s moves to the end of the round, in
compiled code; or random moves) and then the position evaluation of :mod:`agents.evaluation`,
or by the final rewards if the game has ended. With ``guide="heuristic"`` a node first
expands the move the heuristic would play there, so the search spends its first visits on
sensible lines. By default the other seats are modelled as playing the heuristic's moves, so
the tree branches only on the searching seat's own decisions. The most visited action at the
root is played.

Determinising costs about ten times a clone, so a decision samples a pool of
determinisations once and iterations cycle through clones of them.
"""
from __future__ import annotations

import math
import time

import numpy as np

from tribune_env.errors import ConfigError
from tribune_env.policy import random_action
from tribune_env.rewards import final_rewards

from .base import Agent
from .evaluation import evaluate
from .heuristic import best_placements, play_out

POLICIES = ("random", "heuristic")
HORIZONS = ("moves", "round")
ROUND_ROLLOUT = 2000        # moves at most in a rollout to the end of the round
ALL = object()              # a node's candidates when it is not narrowed: every legal move


class Node:
    """Statistics of one action sequence: visits, availability and summed values per seat."""

    __slots__ = ("children", "visits", "available", "total", "candidates")

    def __init__(self, num_players: int):
        self.candidates = None          # the moves searched (ALL: the legal ones), once visited
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 0
        self.total = np.zeros(num_players)


class ISMCTSAgent(Agent):
    """IS-MCTS with a budget of `iterations` and/or `seconds` per decision.

    Options: ``iterations`` (default 0: no limit), ``seconds`` (default 0.25; 0 for no
    limit), ``exploration`` (UCB constant, default 0.7), ``horizon`` (``round``, the
    default: roll out to the end of the round, where placements have paid off; ``moves``:
    ``rollout`` moves, default 8), ``policy`` (who plays the rollout moves: ``heuristic``,
    the default, or ``random``), ``guide`` (``heuristic``, the default, to expand the
    heuristic's move first, or ``none``), ``prior`` (weight of a PUCT-style bonus for the
    heuristic's move at the root, default 1; 0 for none), ``opponents`` (``heuristic``, the
    default: other seats are modelled as playing the heuristic's moves; ``search``: they
    choose by UCB on their own values), ``determinizations`` (size of the pool, default 16),
    ``width`` (at the searching seat's placements, search only the heuristic's `width`
    best spaces, default 5; 0 for all: 0.25 s buys some 150 iterations, too few to share
    among 20-odd spaces).
    """

    name = "ismcts"

    def __init__(self, seed=None, iterations: int = 0, seconds: float = 0.25,
                 exploration: float = 0.7, rollout: int = 8, policy: str = "heuristic",
                 guide: str = "heuristic", prior: float = 1.0, opponents: str = "heuristic",
                 horizon: str = "round", determinizations: int = 16, width: int = 5):
        super().__init__(seed)
        if iterations < 0 or seconds < 0 or not (iterations or seconds):
            raise ConfigError("ismcts needs a budget: iterations > 0 and/or seconds > 0, neither negative")
        if rollout < 0 or determinizations < 1 or exploration < 0 or width < 0:
            raise ConfigError("ismcts: rollout >= 0, determinizations >= 1, exploration >= 0 and width >= 0 "
                              "are needed")
        self.width = int(width)
        if policy not in POLICIES or guide not in ("none", "heuristic"):
            raise ConfigError(f"ismcts: policy must be one of {POLICIES} and guide 'none' or 'heuristic', "
                              f"got {policy!r} and {guide!r}")
        self.iterations, self.seconds = int(iterations), float(seconds)
        self.exploration, self.rollout, self.pool = float(exploration), int(rollout), int(determinizations)
        self.heuristic = None
        if horizon not in HORIZONS:
            raise ConfigError(f"ismcts: horizon must be one of {HORIZONS}, got {horizon!r}")
        self.horizon = horizon
        if opponents not in ("search", "heuristic"):
            raise ConfigError(f"ismcts: opponents must be 'search' or 'heuristic', got {opponents!r}")
        self.prior = float(prior)
        self.model_opponents = opponents == "heuristic"
        if policy == "heuristic" or guide == "heuristic" or self.prior or self.model_opponents:
            from .heuristic import HeuristicAgent
            self.heuristic = HeuristicAgent(seed=seed)
        self.policy, self.guide = policy, guide
        self.last_iterations = 0

    def reset(self, seed=None) -> None:
        super().reset(seed)
        if self.heuristic is not None:
            self.heuristic.reset(seed)

    def act(self, observation, action_mask, view) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 1:
            return int(legal[0])
        deadline = time.perf_counter() + 0.9 * self.seconds if self.seconds else math.inf  # margin: one iteration
        root = self._root = Node(view.num_players)
        self._seat = view.seat
        self._favourite = -1
        if self.prior:          # the heuristic's move now, from the real view: a bonus at the root
            self._favourite = self.heuristic.act(observation, action_mask, view)
        worlds = [self._world(view) for _ in range(self.pool)]
        done = 0
        while (not self.iterations or done < self.iterations) and time.perf_counter() < deadline:
            self._iterate(root, worlds[done % self.pool].clone())
            done += 1
        self.last_iterations = done
        best = max(root.children.items(), key=lambda item: (item[1].visits, item[1].total[view.seat]))[0] \
            if root.children else None
        return int(best) if best is not None and action_mask[best] else int(legal[0])

    def _world(self, view):
        game = view.determinize(self.rng)
        game.log = None                  # a search copy keeps no readable log
        return game

    def _iterate(self, root: Node, game) -> None:
        """Select and expand in `game` (a clone of one world), evaluate, back up."""
        path = [root]
        node = root
        while not game.is_over:
            player = game.current_player
            if self.model_opponents and player != self._seat:
                action = self._heuristic_move(game)     # the opponent model answers; no branching
                node = node.children.setdefault(action, Node(len(root.total)))
                game.step(action)
                path.append(node)
                continue
            legal = self._candidates(node, game, player)
            untried = [a for a in legal if a not in node.children]
            for a in legal:
                child = node.children.get(a)
                if child is not None:
                    child.available += 1
            if untried:
                action = self._expansion(game, untried)
                child = node.children[action] = Node(len(root.total))
                child.available = 1
                game.step(action)
                path.append(child)
                break
            action = self._select(node, legal, player)
            game.step(action)
            node = node.children[action]
            path.append(node)
        value = self._value(game)
        for visited in path:
            visited.visits += 1
            visited.total += value

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
        """UCB over the legal children, on the value of the seat to act (plus the root's prior)."""
        best, best_score = -1, -math.inf
        for a in legal:
            child = node.children[a]
            score = child.total[player] / child.visits + \
                self.exploration * math.sqrt(math.log(child.available) / child.visits)
            if node is self._root and a == self._favourite:
                score += self.prior * math.sqrt(node.visits) / (1 + child.visits)
            if score > best_score:
                best, best_score = int(a), score
        return best

    def _value(self, game) -> np.ndarray:
        """Final rewards if the game is over, else a short rollout and the evaluation."""
        rounds, moves = (1, ROUND_ROLLOUT) if self.horizon == "round" else (game.round_limit, self.rollout)
        if self.policy == "heuristic":       # compiled: no return to Python per move
            play_out(game, rounds, moves)
        else:
            end = game.round + rounds
            for _ in range(moves):
                if game.is_over or game.round >= end:
                    break
                game.step(random_action(game.legal_mask(), self.rng))
        if game.is_over:
            return final_rewards(game, "win")
        return np.array([evaluate(game, p) for p in range(game.n)])
