"""``tribune gate``: a small run of the invariant gate, and the gate reporting what it finds."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from training.cli import main
from training.tools import gate
from tribune_env import VICTORY_CARDS
from tribune_env.invariants import Invariant
from tribune_env.state import Meta

GAMES = 400


@pytest.fixture(scope="module")
def tally():
    return gate.run(GAMES, first_seed=7, progress=False)


def test_a_small_gate_finds_no_violation_over_every_configuration(tally):
    assert tally.broken == 0, gate.report(tally)
    assert tally.games == GAMES and tally.decisions > 100 * GAMES
    assert set(tally.by["players"]) == {2, 3, 4, 5}
    assert set(tally.by["victory card"]) == {*VICTORY_CARDS, gate.POINT_VARIANT}
    assert set(tally.by["agent"]) == set(gate.AGENTS)
    assert set(tally.by["end"]) == {"terminated", "truncated"}


def test_the_report_gives_the_figures(tally):
    text = gate.report(tally)
    assert f"{GAMES} games (seeds 7-{6 + GAMES})" in text and "violations: 0" in text
    assert "games a processor-second" in text and "by victory card: " in text


def test_a_configuration_follows_from_its_seed():
    shares = gate.Shares(heuristic=0.5)
    assert [gate.config_of(s, shares) for s in range(50)] == [gate.config_of(s, shares) for s in range(50)]
    config = gate.config_of(3, gate.Shares(heuristic=1.0, short=1.0, unforced=1.0))
    assert config.agent == "heuristic" and config.round_limit <= gate.SHORT_LIMITS[1] and not config.auto_forced
    game = config.game(3)
    assert game.n == config.players and game.round_limit == config.round_limit and game.seed == 3


def test_replay_plays_the_gates_game_again():
    for seed in (1, 2):
        game, broken = gate.replay(seed)
        assert broken is None and game.is_over and len(game.moves()) > 10


def _corrupted(corrupt):
    """Config.game with `corrupt` applied to every game dealt."""
    deal = gate.Config.game

    def game(config, seed):
        g = deal(config, seed)
        corrupt(g)
        return g

    return game


def _lose_a_card(g):
    p, card = np.argwhere(g.state.hand > 0)[0]
    g.state.hand[p, card] -= 1


def _empty_the_task_stack(g):
    g.state.meta[Meta.N_TASKS] = 0  # the engine raises at the next step


@pytest.mark.parametrize(
    "corrupt, invariant", [(_lose_a_card, Invariant.CARDS_CONSERVED), (_empty_the_task_stack, Invariant.NO_ERROR)]
)
def test_the_gate_names_each_broken_game_and_exits_1(monkeypatch, corrupt, invariant):
    monkeypatch.setattr(gate.Config, "game", _corrupted(corrupt))
    result = CliRunner().invoke(main, ["gate", "--games", "3", "--seed", "40"])
    assert result.exit_code == 1, result.output
    assert "violations: 3" in result.output
    for seed in (40, 41, 42):
        config = gate.config_of(seed)
        assert f"seed {seed} ({config}), after 0 decisions: {invariant}" in result.output
