"""Fuzzing the saved-game loader (issue 16): whatever a file holds, loading it cannot break the engine.

Mutations of real saved games (2-5 players, every decision kind, several victory cards,
the point variant, finished games) are each either rejected with StateFormatError or
loaded as exactly what the file says, then played to the end with every invariant of
tests/test_invariants.py holding. See tests/saving_fuzz.py; benchmarks/fuzz_saving.py
runs more.
"""

from __future__ import annotations

import json

import pytest
from saving_fuzz import base_states, decision_kinds, fuzz
from test_invariants import Tracker

from tribune_env.state import Meta
from tribune_env.tasks import DECISIONS


@pytest.fixture(scope="module")
def pool():
    return base_states()


def test_base_states_are_varied_real_games(pool):
    docs = [json.loads(t) for t in pool]
    assert decision_kinds(pool) == set(DECISIONS), "every decision kind is fuzzed"
    assert {d["config"]["num_players"] for d in docs} == {2, 3, 4, 5}
    assert any(d["config"]["point_variant"] for d in docs)
    assert len({d["config"]["victory_card"]["id"] for d in docs if d["config"]["victory_card"]}) >= 5
    assert {d["arrays"]["meta"][Meta.STATUS] for d in docs} == {0, 1, 2}, "running, won and truncated games"
    assert {d["arrays"]["meta"][Meta.PHASE] for d in docs} == set(range(7))


def _check(report):
    assert not report.crashes, f"{report.summary()}; first crashes: {report.crashes[:5]}"
    assert not report.breaches, f"{report.summary()}; first breaches: {report.breaches[:5]}"
    assert report.rejected > report.tried // 2 and report.accepted > report.tried // 50, report.summary()
    for name, (rejected, accepted) in report.by_mutation.items():
        assert rejected + accepted > 0, name


def test_fuzzed_saves_are_rejected_or_load_sound_games(pool):
    """Four thousand inputs (about 30 s): no crash, no accepted state that breaks an invariant."""
    report = fuzz(4000, seed=16, pool=pool, extra=Tracker)
    print(report.summary())
    _check(report)


@pytest.mark.slow
def test_fuzzed_saves_long_run(pool):
    """30,000 inputs, the rule invariants checked after every step of play."""
    report = fuzz(30_000, seed=1616, pool=pool, extra=Tracker, extra_every=1)
    print(report.summary())
    _check(report)
