"""A curriculum over the victory cards: more games of the card the learner has won least lately.

Every seat has the same chance on every card, so a learner that wins less on one card than on
the others plays that card worse. Dealing it more often gives the learner more of the games it
has most to learn from, as Prioritized Level Replay (Jiang et al., 2021) replays the levels
with the most to learn. The win rates are counted per card over the training games, each
rollout's counts weighing ``DECAY`` times the next one's, and start at the table's parity.
"""

from __future__ import annotations

import math

DECAY = 0.9  # per rollout: the rates follow roughly the last ten rollouts
PRIOR = 20  # games at parity each card starts with, so that a few games do not rank it


class CardCurriculum:
    """Per-card counts of the learner's wins, and the deal weights they give.

    ``focus`` is the share of games dealt the weakest card; the rest draw their card as a
    game does, uniformly. ``counts`` ({card: [wins, games]}) resumes a run's counts.
    """

    def __init__(self, focus: float, counts: dict | None = None):
        self.focus = focus
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

    def weights(self, cards: list[str], parity: float) -> dict[str, float] | None:
        """The deal weight of each of `cards`: the weakest gets ``focus`` more than the uniform
        share of the rest. None when ``focus`` is 0: every game draws its own card."""
        if not self.focus:
            return None
        rates = self.rates(cards, parity)
        weakest = min(cards, key=lambda card: (rates[card], card))
        return {card: (1 - self.focus) / len(cards) + (self.focus if card == weakest else 0.0) for card in cards}

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
