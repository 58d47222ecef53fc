"""Behaviour is unchanged: games, observations, saved games and agents' choices match the golden traces.

The traces (``tests/golden/traces.json.gz``, recorded by ``tests/golden_traces.py``) were
taken before the architecture was rewritten; any difference is a change of behaviour.
"""

from __future__ import annotations

import pytest

from tests.golden_traces import ISMCTS_SPEC, choices, digest, load, new_game


@pytest.fixture(scope="module")
def traces():
    return load()


def test_the_traces_cover_every_setting(traces):
    plans = [g["plan"] for g in traces["games"]]
    assert len(plans) >= 200
    assert {p["config"]["num_players"] for p in plans} == {2, 3, 4, 5}
    assert {p["config"].get("victory_card") for p in plans} >= {
        "alea-iacta-est-short",
        "alea-iacta-est-long",
        "cursus-honorum",
        "panem-et-circenses",
        "pax-romana",
        "quinque-viri",
        "ave-caesar",
        None,
    }
    assert any(p["config"].get("point_variant") for p in plans)
    assert {p["auto_forced"] for p in plans} == {True, False}
    assert {a for p in plans for a in p["agents"]} == {"random", "heuristic"}
    assert len(traces["heuristic"]["positions"]) >= 2000 and len(traces["ismcts"]["positions"]) >= 200


@pytest.mark.parametrize("part", range(8))
def test_games_replay_identically(traces, part):
    """Every action stays legal, and every observation, mask and final saved game is the same."""
    for g, trace in enumerate(traces["games"]):
        if g % 8 != part:
            continue
        game = new_game(trace["plan"])
        for t, action in enumerate(trace["actions"]):
            assert digest(game) == trace["digests"][t], f"game {g}: observations or mask differ at decision {t}"
            game.step(action)
        assert game.is_over, f"game {g} did not end after its recorded actions"
        assert digest(game) == trace["digests"][-1], f"game {g}: final observations differ"
        assert game.to_dict() == trace["final"], f"game {g}: final saved game differs"


def test_the_heuristic_chooses_as_before(traces):
    recorded = traces["heuristic"]
    assert choices("heuristic", traces["games"], recorded["positions"]) == recorded["choices"]


def test_ismcts_chooses_as_before(traces):
    recorded = traces["ismcts"]
    assert recorded["spec"] == ISMCTS_SPEC
    assert choices(ISMCTS_SPEC, traces["games"], recorded["positions"]) == recorded["choices"]
