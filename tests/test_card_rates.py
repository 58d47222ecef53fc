"""The learner's per-card win rates: counted over its games, older rollouts weighing less."""

import pytest

from training.learning.card_rates import DECAY, PRIOR, CardRates, valid_counts

CARDS = ["alea-iacta-est-short", "pax-romana", "panem-et-circenses"]


def test_rates_start_at_parity_and_follow_the_games_pulled_by_the_prior():
    cards = CardRates()
    assert cards.rates(CARDS, 0.25) == {card: 0.25 for card in CARDS}
    for won in (True, True, False, True):
        cards.record("pax-romana", won)
    cards.record(None, True)  # the point variant has no card: nothing counted
    assert cards.counts == {"pax-romana": [3.0, 4.0]}
    assert cards.rates(CARDS, 0.25)["pax-romana"] == pytest.approx((3 + PRIOR * 0.25) / (4 + PRIOR))


def test_older_games_weigh_less_so_a_card_that_improved_rises_above_one_that_fell():
    cards = CardRates()
    for _ in range(40):
        cards.record("pax-romana", False)
        cards.record("panem-et-circenses", True)
    for _ in range(30):
        cards.decay()
    assert cards.counts["pax-romana"] == pytest.approx([0.0, 40 * DECAY**30])
    for _ in range(40):
        cards.record("pax-romana", True)
        cards.record("panem-et-circenses", False)
    rates = cards.rates(CARDS, 0.5)
    assert rates["pax-romana"] > 0.5 > rates["panem-et-circenses"]


def test_counts_resume_and_malformed_counts_are_told_apart():
    counts = {"pax-romana": [1.5, 4.0], "ave-caesar": [0, 0]}
    assert valid_counts(counts) and CardRates(counts).counts == counts
    for bad in ([], {"pax-romana": [2, 1]}, {"pax-romana": [1, float("nan")]}, {"pax-romana": [-1, 2]},
                {3: [0, 1]}, {"pax-romana": [0, 1, 2]}, {"pax-romana": ["0", 1]}, {"pax-romana": [True, 1]}):  # fmt: skip
        assert not valid_counts(bad), bad
