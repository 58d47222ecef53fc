"""Confidence intervals and skill ratings for tournament results."""

from __future__ import annotations

import math

from openskill.models import PlackettLuce

Z95 = 1.959964  # two-sided 95% normal quantile


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion: sound near 0 and 1 and for few trials, unlike p ± z·se.

    `successes` may be fractional (a shared win counts 1/w).
    """
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials))
    # the interval always holds p; min/max keep rounding from putting p just outside it
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def ratings(num_entrants: int, games) -> list[dict]:
    """OpenSkill (Plackett-Luce) rating of each entrant after the given games, in their order.

    `games` yields (entrant per seat, rank per seat) with rank 1 the best and ties equal.
    Updating in a fixed order makes the ratings reproducible.
    """
    model = PlackettLuce()
    current = [model.rating() for _ in range(num_entrants)]
    for seating, ranks in games:
        rated = model.rate([[current[e]] for e in seating], ranks=list(ranks))
        for e, (rating,) in zip(seating, rated):
            current[e] = rating
    return [{"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for r in current]
