"""Writing a record: a game as its configuration, its seed and the actions played."""

from __future__ import annotations

from ..errors import TribuneError
from .limits import FORMAT, VERSION


def record(game, agents=(), index: int | None = None) -> dict:
    """The record of `game` as plain data: outcome null while it runs; `agents` names who
    played each seat (none for a plain save), `index` its number in a tournament."""
    actions = game.moves()
    if actions is None:
        raise TribuneError(
            "this game has no moves from a seed to save (it was made by determinize or from a state, "
            "or edited by hand); game.to_dict() dumps its state, a trusted format for tests and debugging"
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        **({} if index is None else {"game": index}),
        "config": saved_config(game),
        "agents": list(agents),
        "actions": actions,
        "outcome": outcome(game) if game.is_over else None,
    }


def saved_config(game) -> dict:
    """A record's config: the game's, with the seed it was dealt from and whether it drew its card."""
    return {**game.played_config.to_dict(), "seed": game.seed, "victory_card_drawn": game.victory_card_drawn}


def outcome(game) -> dict:
    """The facts of a finished game that its replay must reproduce."""
    return {
        "rounds": game.round,
        "terminated": game.terminated,
        "truncated": game.truncated,
        "winners": game.winners(),
        "scores": [int(s) for s in game.scores()],
    }
