"""The learner's recent win rate on each victory card, logged as training goes (``cards/<card>``).

Every seat has the same chance on every card, so a learner that wins less on one card than on
the others plays that card worse. The win rates are counted per card over the training games,
each rollout's counts weighing ``DECAY`` times the next one's, and start at the table's parity.
"""

from __future__ import annotations

import math

DECAY = 0.9  # per rollout: the rates follow roughly the last ten rollouts
PRIOR = 20  # games at parity each card starts with, so that a few games do not swing its rate


class CardRates:
    """Per-card counts of the learner's wins; ``counts`` ({card: [wins, games]}) resumes a run's."""

    def __init__(self, counts: dict | None = None):
        self.counts = {card: list(pair) for card, pair in (counts or {}).items()}

    def record(self, card: str | None, won: bool) -> None:
        """One finished game of `card` (None: the point variant, which has none)."""
        if card is not None:
            wins, games = self.counts.setdefault(card, [0.0, 0.0])
            self.counts[card] = [wins + float(won), games + 1.0]

    def rates(self, cards: list[str], parity: float) -> dict[str, float]:
        """The learner's recent win rate on each of `cards`, pulled towards `parity` by PRIOR games."""
        rates = {}
        for card in cards:
            wins, games = self.counts.get(card, (0.0, 0.0))
            rates[card] = (wins + PRIOR * parity) / (games + PRIOR)
        return rates

    def decay(self) -> None:
        """A rollout ended: older games weigh less."""
        self.counts = {card: [wins * DECAY, games * DECAY] for card, (wins, games) in self.counts.items()}


def valid_counts(value) -> bool:
    """Whether `value` is counts as a run's state.json keeps them: {card: [wins, games]}, 0 <= wins <= games."""
    if not isinstance(value, dict):
        return False
    for card, pair in value.items():
        if not (isinstance(card, str) and isinstance(pair, list) and len(pair) == 2):
            return False
        if not all(type(x) in (int, float) and math.isfinite(x) for x in pair) or not 0 <= pair[0] <= pair[1]:
            return False
    return True
