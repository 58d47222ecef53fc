"""The victory-card curriculum: per-card win rates of the learner, and the deal weights they give."""

import pytest

from training.learning.curriculum import DECAY, PRIOR, CardCurriculum, valid_counts

CARDS = ["alea-iacta-est-short", "pax-romana", "panem-et-circenses"]


def test_rates_start_at_parity_and_follow_the_games_pulled_by_the_prior():
    curriculum = CardCurriculum(0.5)
    assert curriculum.rates(CARDS, 0.25) == {card: 0.25 for card in CARDS}
    for won in (True, True, False, True):
        curriculum.record("pax-romana", won)
    curriculum.record(None, True)  # the point variant has no card: nothing counted
    assert curriculum.counts == {"pax-romana": [3.0, 4.0]}
    assert curriculum.rates(CARDS, 0.25)["pax-romana"] == pytest.approx((3 + PRIOR * 0.25) / (4 + PRIOR))


def test_the_weakest_card_gets_the_focus_on_top_of_an_even_share():
    curriculum = CardCurriculum(0.4)
    for _ in range(50):
        curriculum.record("pax-romana", True)
        curriculum.record("panem-et-circenses", False)
        curriculum.record("alea-iacta-est-short", True)
    weights = curriculum.weights(CARDS, 1 / 3)
    assert weights == pytest.approx({"alea-iacta-est-short": 0.2, "pax-romana": 0.2, "panem-et-circenses": 0.6})
    assert sum(weights.values()) == pytest.approx(1.0)


def test_no_focus_leaves_every_game_to_draw_its_card():
    curriculum = CardCurriculum(0.0)
    curriculum.record("pax-romana", False)
    assert curriculum.weights(CARDS, 0.5) is None


def test_older_games_weigh_less_so_a_card_that_improved_stops_being_the_weakest():
    curriculum = CardCurriculum(1.0)
    for _ in range(40):
        curriculum.record("pax-romana", False)
        curriculum.record("panem-et-circenses", True)
    assert curriculum.weights(CARDS, 0.5)["pax-romana"] == 1.0
    for _ in range(30):
        curriculum.decay()
    assert curriculum.counts["pax-romana"] == pytest.approx([0.0, 40 * DECAY**30])
    for _ in range(40):
        curriculum.record("pax-romana", True)
        curriculum.record("panem-et-circenses", False)
    assert curriculum.weights(CARDS, 0.5)["panem-et-circenses"] == 1.0


def test_counts_resume_and_malformed_counts_are_told_apart():
    counts = {"pax-romana": [1.5, 4.0], "ave-caesar": [0, 0]}
    assert valid_counts(counts) and CardCurriculum(0.3, counts).counts == counts
    for bad in ([], {"pax-romana": [2, 1]}, {"pax-romana": [1, float("nan")]}, {"pax-romana": [-1, 2]},
                {3: [0, 1]}, {"pax-romana": [0, 1, 2]}, {"pax-romana": ["0", 1]}, {"pax-romana": [True, 1]}):  # fmt: skip
        assert not valid_counts(bad), bad
