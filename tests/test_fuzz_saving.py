"""Fuzzing the saved-game loader: whatever a file holds, loading it refuses it by name or
gives the game it records, never a crash. See tests/saving_fuzz.py;
benchmarks/fuzz_saving.py runs more.
"""

from __future__ import annotations

import json

import pytest
from saving_fuzz import base_records, check, fuzz


@pytest.fixture(scope="module")
def pool():
    return base_records()


def test_the_records_fuzzed_are_varied_real_games(pool):
    records = [json.loads(t) for t in pool]
    assert {r["config"]["num_players"] for r in records} == {2, 3, 4, 5}
    assert any(r["config"]["point_variant"] for r in records)
    assert any(r["config"]["victory_card_drawn"] is False and r["config"]["victory_card"] for r in records)
    assert any(r["outcome"] is None for r in records) and any(
        r["outcome"] and r["outcome"]["truncated"] for r in records
    )
    assert all(check(t) == "accepted" for t in pool)


def test_mutated_records_are_refused_or_load_as_the_game_they_record(pool):
    counts = fuzz(2500, seed=0, pool=pool)
    assert counts["refused"] > 1000 and counts["accepted"] > 100, counts  # both paths were exercised
