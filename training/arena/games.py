"""One game between agents: the decision loop, derived seeds, and how the game ended.

The tournament, the terminal game and the tests all drive games through :func:`play_game`,
so that every agent is asked the same way and an illegal choice is always reported with
the agent's name.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from tribune_env import Game, IllegalActionError, PlayerView
from tribune_env.data import OBJECTIVES


def derive_seed(*keys: int) -> int:
    """A 32-bit seed from non-negative integers, so that each (deal, seat, ...) has its own stream."""
    return int(np.random.SeedSequence([int(k) for k in keys]).generate_state(1)[0])


@dataclass
class Played:
    """What happened at the decisions of one game."""

    actions: list  # every action, in order
    decisions: list  # decisions per seat
    think: list  # seconds each seat spent choosing


def reset_agents(agents: list, seed: int) -> None:
    """Start a game: each seat's agent reseeded from the game seed and the seat, so games replay exactly."""
    for seat, agent in enumerate(agents):
        agent.reset(seed=derive_seed(seed, seat))


def play_game(game: Game, agents: list, names: list, before=None) -> Played:
    """Play `game` to its end, asking the agent of the acting seat at every decision.

    `before(game, seat)`, if given, is called before each decision (the terminal game
    shows the table there). An illegal choice raises IllegalActionError naming the agent.
    At the end each agent is told (``end``), with its seat's view.
    """
    played = Played([], [0] * game.n, [0.0] * game.n)
    while not game.is_over:
        seat = game.current_player
        if before is not None:
            before(game, seat)
        start = time.perf_counter()
        action = agents[seat].act(game.observe(seat), game.legal_mask(), PlayerView(game, seat))
        played.think[seat] += time.perf_counter() - start
        try:
            game.step(action)
        except IllegalActionError as exc:
            raise IllegalActionError(f"agent {names[seat]!r} in seat {seat} chose an illegal action: {exc}") from None
        played.actions.append(int(action))
        played.decisions[seat] += 1
    for seat, agent in enumerate(agents):
        agent.end(PlayerView(game, seat))
    return played


def ending(game: Game) -> dict:
    """How a finished game ended, per seat and overall.

    A seat's rank is 1 + the number of seats that did better, by win then final score
    (as the ``rank`` reward orders them); a shared win gives each winner 1/w of a win.
    ``objectives`` are those the winners meet at the end (none in the point-value variant);
    ``victory_card`` is the id of the card played (None in the point-value variant).
    """
    scores = [int(s) for s in game.scores()]
    winners = game.winners()
    key = [(p in winners, scores[p]) for p in range(game.n)]
    met = game.objectives()
    objectives = (
        []
        if game.victory_card is None
        else [name for j, name in enumerate(OBJECTIVES) if any(met[p, j] for p in winners)]
    )
    how = "truncated" if game.truncated else "point variant" if game.victory_card is None else "victory card"
    return {
        "rounds": game.round,
        "ending": how,
        "winners": winners,
        "scores": scores,
        "wins": [1 / len(winners) if p in winners else 0.0 for p in range(game.n)],
        "ranks": [1 + sum(k > key[p] for k in key) for p in range(game.n)],
        "objectives": objectives,
        "victory_card": None if game.victory_card is None else game.victory_card.id,
    }
