"""A fast evaluation of a Tribune position for one seat: leaf values for search, lookahead for agents.

``evaluate(game, seat)`` reads a full :class:`tribune_env.Game` (for an agent, a determinised
copy: ``view.determinize(rng)``) and says how good it is for `seat`, higher is better:

- a finished game: +1 won (1/k for a win shared by k players of the point-value variant),
  -1 lost; a truncated game is valued like a running one;
- a running game: ``tanh(lead / LEAD_SCALE)``, in (-1, 1), where `lead` is the seat's
  *potential* less the best potential among its opponents: about +-0.46 for a lead of 5
  points, +-0.76 for 10, +-0.96 for 20.

A player's potential is in points of the scoring table (rulebook, "The End of Play"):

- ``VICTORY_WEIGHT`` times its progress towards the victory card, from 0 to 1. Each of the
  six objectives gets a fraction: laurels, legions, denarii and markers held over those
  needed; the tribune objective counts a scroll as a step (more with control of a faction
  that turns it into a tribune); the favor of the gods counts control of the Vestal
  Virgins (the temporary favor comes with their benefit) or their marker (the Pantheon).
  An objective not yet met counts ``UNMET`` of its fraction. The best `need` objectives
  count fully (the obligatory one always among them, ``OBLIGATORY`` times), the others
  ``SPARE``; a player who has declared "Veni, vidi, vici" has progress 1. In the
  point-value variant ``RACE_WEIGHT`` times the share of the ending number of faction
  markers held stands instead for the race to end the game (its ender scores 2 more).
- its score (what decides between declarers, and the point-value variant);
- ``CARD_POINTS`` per card in hand and ``CONTROL_POINTS`` per faction it controls: the
  means of future take-overs and benefits.

It is cheap: a few small array reads, then plain Python over the players. On one core of
the 2-core development machine a call takes about 10-25 microseconds in a loop over
positions (2 to 5 players) and about 40 called once between decisions of a game
(``benchmarks/heuristic_vs_random.py`` reports it).

:func:`potential` gives one player's potential, optionally after a hypothetical change
(:func:`changed`), for agents that weigh resources against one another.
"""
from __future__ import annotations

import math

from tribune_env.data import LEGATES, OBJECTIVES, PATRICIANS, PLEBEIANS, SENATORS, VESTALS
from tribune_env.state import SCROLL, STATUS_TERMINATED, TRIBUNE, M

VICTORY_WEIGHT = 30.0       # points for the whole way from nothing to meeting the victory card
LEAD_SCALE = 10.0           # points of lead that make tanh(1) = 0.76
UNMET = 0.8                 # an objective half-way counts 0.4: meeting it is worth a jump
SPARE = 0.2                 # weight of the objectives beyond the best `need`
OBLIGATORY = 2.0            # the obligatory objective counts twice: no win without it
CARD_POINTS = 0.5
CONTROL_POINTS = 1.0
RACE_WEIGHT = 5.0           # point-value variant: markers bring the end (and its 2 points) nearer

SCROLL_STEP = 0.5           # tribune objective with a scroll
SCROLL_AND_ONE = 0.65       # ... and control of one faction of a pair that turns it into a tribune
SCROLL_AND_PAIR = 0.85      # ... and control of both (the tribune comes in the next Phase 5)
SCROLL_SOURCE = 0.2         # no tile yet, but control of the Legates or Senators (a scroll)
FAVOR_BY_CONTROL = 0.6      # control of the Vestal Virgins: the temporary favor in Phase 5
FAVOR_BY_MARKER = 0.35      # a Vestal Virgins marker opens the Pantheon

# A player's row: the resource columns of the state (money .. markers), then the rest.
ROW = ("money", "laurels", "legions", "tile", "eternal", "markers", "temp", "cards", "declared",
       "controls", "vestal_marker")
_FIELD = {name: i for i, name in enumerate(ROW)}
TILE_, ETERNAL_, MARKERS_, TEMP_, CARDS_, DECLARED_, CONTROLS_ = (
    _FIELD[k] for k in ("tile", "eternal", "markers", "temp", "cards", "declared", "controls"))

# factions as bits of a control mask; joint control of a pair turns a scroll into a tribune
_PLEBEIAN_TRIBUNE = (1 << PATRICIANS) | (1 << PLEBEIANS)
_VESTAL_TRIBUNE = (1 << SENATORS) | (1 << VESTALS)
_TRIBUNE_FACTIONS = _PLEBEIAN_TRIBUNE | _VESTAL_TRIBUNE
_SCROLL_SOURCES = (1 << LEGATES) | (1 << SENATORS)
_VESTALS = 1 << VESTALS
_TEMP_FAVOR, _STATUS = M["temp_favor"], M["status"]
_GOALS: dict = {}           # (victory card, data, players) ids -> (card, data, Goal)


def evaluate(game, seat: int) -> float:
    """How good `game` is for `seat`, in [-1, 1] (see the module docstring for the scale)."""
    if game.meta[_STATUS] == STATUS_TERMINATED:
        winners = game.winners()
        return 1.0 / len(winners) if seat in winners else -1.0
    goal = Goal.of(game)
    values = [goal.potential(row) for row in rows(game)]
    mine = values.pop(seat)
    return math.tanh((mine - max(values)) / LEAD_SCALE)


def potential(game, player: int, **change) -> float:
    """Player's potential in points, optionally after a hypothetical change (see :func:`changed`)."""
    return Goal.of(game).potential(changed(rows(game)[player], **change))


def changed(row: list, **change) -> list:
    """A copy of a player's row after a hypothetical change: agents price what an action brings.

    `change` may add to ``money``, ``laurels``, ``legions``, ``markers`` and ``cards``, set
    ``tile`` (SCROLL or TRIBUNE), ``eternal`` or ``temp_favor`` (True), and give
    ``control`` of a faction.
    """
    row = list(row)
    for key in ("money", "laurels", "legions", "markers", "cards"):
        row[_FIELD[key]] += change.get(key, 0)
    row[TILE_] = max(row[TILE_], change.get("tile", 0))
    row[ETERNAL_] |= change.get("eternal", False)
    row[TEMP_] = (row[TEMP_] or change.get("temp_favor", False)) and not row[ETERNAL_]
    if "control" in change:
        row[CONTROLS_] |= 1 << change["control"]
    return row


def rows(game) -> list[list]:
    """Each player's row (see ROW; ``controls`` is a bit mask of factions) from a few array reads."""
    n = game.n
    temp = int(game.meta[_TEMP_FAVOR])
    controls = [0] * n
    for f, p in enumerate(game.controller.tolist()):
        if p >= 0:
            controls[p] |= 1 << f
    out = game.res[:n].tolist()
    for p, (row, cards, declared, vestal) in enumerate(zip(
            out, game.hand[:n].sum(axis=1).tolist(), game.declared[:n].tolist(),
            game.markers[:n, VESTALS].tolist())):
        row += (temp == p, cards, declared, controls[p], vestal)
    return out


class Goal:
    """The victory card (or the point-value variant) and the scoring table of one game."""

    __slots__ = ("thresholds", "need", "obligatory", "weights", "marker_goal", "scoring")

    def __init__(self, card, need, marker_goal, scoring):
        self.thresholds = None if card is None else (card.laurels, card.legions, card.denarii, card.markers)
        self.need = need
        self.obligatory = -1 if card is None or card.obligatory is None else OBJECTIVES.index(card.obligatory)
        extra = OBLIGATORY - 1 if self.obligatory >= 0 else 0
        self.weights = None if need is None else need + extra + SPARE * (len(OBJECTIVES) - need)
        self.marker_goal = marker_goal
        self.scoring = tuple(scoring[k] for k in ("tribune", "scroll", "eternal_favor", "temporary_favor",
                                                   "legion", "laurel", "denarii_per_point", "marker",
                                                   "first_declarer"))

    @classmethod
    def of(cls, game) -> Goal:
        """The game's goal, made once per victory card, rules data and player count."""
        key = (id(game.victory_card), id(game.data), game.n)
        known = _GOALS.get(key)
        if known is None:
            if len(_GOALS) >= 64:
                _GOALS.clear()
            goal = cls(game.victory_card, game.need, game.marker_goal, game.data.scoring)
            known = _GOALS[key] = (game.victory_card, game.data, goal)   # holding them keeps the ids unique
        return known[2]

    def potential(self, row) -> float:
        """Points: progress (or the race to the marker goal), score, cards and control."""
        extra = CARD_POINTS * row[CARDS_] + CONTROL_POINTS * row[CONTROLS_].bit_count()
        if self.thresholds is None:
            race = RACE_WEIGHT * min(row[MARKERS_] / self.marker_goal, 1.0)
            return race + self.score(row) + extra
        progress = 1.0 if row[DECLARED_] >= 0 else self.progress(row)
        return VICTORY_WEIGHT * progress + self.score(row) + extra

    def score(self, row) -> int:
        """Points of the scoring table (rulebook, "The End of Play"), the first declarer's included."""
        money, laurels, legions, tile, eternal, markers, temp, _, declared, _, _ = row
        tribune, scroll, eternal_pts, temp_pts, legion, laurel, per_point, marker, first = self.scoring
        return ((tribune if tile == TRIBUNE else scroll if tile == SCROLL else 0)
                + eternal_pts * eternal + temp_pts * temp + legion * legions + laurel * laurels
                + marker * markers + money // per_point + first * (declared == 0))

    def credits(self, row) -> list[float]:
        """Per objective of the victory card: 1 if met, else UNMET times how far the player is."""
        money, laurels, legions, tile, eternal, markers, temp, _, _, controls, vestal = row
        need_l, need_g, need_d, need_m = self.thresholds
        return [_tribune_credit(tile, controls), _favor_credit(eternal or temp, controls, vestal),
                _credit(laurels, need_l), _credit(legions, need_g), _credit(money, need_d),
                _credit(markers, need_m)]

    def progress(self, row) -> float:
        """Weighted share of the victory card met: the best `need` objectives count fully."""
        credit = self.credits(row)
        need = self.need
        counted = 0.0
        if self.obligatory >= 0:
            counted = OBLIGATORY * credit.pop(self.obligatory)
            need -= 1
        credit.sort(reverse=True)
        return (counted + sum(credit[:need]) + SPARE * sum(credit[need:])) / self.weights


def _credit(have: int, needed: int) -> float:
    return 1.0 if have >= needed else UNMET * have / needed


def _tribune_credit(tile: int, controls: int) -> float:
    if tile == TRIBUNE:
        return 1.0
    if tile == SCROLL:
        if controls & _PLEBEIAN_TRIBUNE == _PLEBEIAN_TRIBUNE or controls & _VESTAL_TRIBUNE == _VESTAL_TRIBUNE:
            return UNMET * SCROLL_AND_PAIR
        return UNMET * (SCROLL_AND_ONE if controls & _TRIBUNE_FACTIONS else SCROLL_STEP)
    return UNMET * SCROLL_SOURCE if controls & _SCROLL_SOURCES else 0.0


def _favor_credit(favored: bool, controls: int, vestal_marker: int) -> float:
    if favored:
        return 1.0
    if controls & _VESTALS:
        return UNMET * FAVOR_BY_CONTROL
    return UNMET * FAVOR_BY_MARKER if vestal_marker else 0.0
