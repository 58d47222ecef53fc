"""A text rendering of the table, for people (the `ansi` and `human` render modes)."""

from __future__ import annotations

import numpy as np

from .actions import card_name
from .data import FACTIONS, NUM_VALUES
from .state import ETERNAL, LAURELS, LEGIONS, MONEY, SCROLL, TILE, TRIBUNE, Meta
from .tasks import named_args

PHASE_NAMES = (
    "Setup",
    "Card Placement",
    "Placement of Followers",
    "Region Evaluation",
    "Faction Take-overs",
    "Faction Benefits",
    "Chariot Auction",
)


def _cards(counts) -> str:
    names = [card_name(c) for c in np.flatnonzero(counts) for _ in range(int(counts[c]))]
    return ", ".join(names) if names else "-"


def render(g, viewer: int | None = None) -> str:
    """The table; hands and face-down cards only as `viewer` may see them (None: all)."""
    meta = g.state.meta
    card = g.victory_card
    goal = (
        f"point-value variant: game ends at {g.marker_goal} faction markers"
        if card is None
        else f"{card.id}: {g.need} of tribune, favor, {card.laurels} laurels, {card.legions} legions, "
        f"{card.denarii} denarii, {card.markers} markers"
        + (f" ({card.obligatory} obligatory)" if card.obligatory else "")
    )
    lines = [f"Round {g.round} of at most {g.round_limit}, phase {g.phase}: {PHASE_NAMES[g.phase]}", f"Victory: {goal}"]
    chariot = int(meta[Meta.CHARIOT])
    lines.append(
        f"Colosseum: {int(meta[Meta.COLOSSEUM])} denarii   Draw pile: {int(meta[Meta.DRAW_N])}"
        f"   Discards: {int(g.state.discard_public.sum() + g.state.discard_hidden.sum())}"
        f"   Chariot: {FACTIONS[chariot] if chariot >= 0 else 'off the board'}"
    )
    lines.append("")
    scores = g.scores()
    for p in range(g.n):
        r = g.state.res[p]
        tile = {SCROLL: "scroll", TRIBUNE: "tribune"}.get(int(r[TILE]), "-")
        favor = "eternal" if r[ETERNAL] else ("temporary" if meta[Meta.TEMP_FAVOR] == p else "-")
        marks = [FACTIONS[f] for f in np.flatnonzero(g.state.markers[p])]
        tags = [
            t
            for t, on in (
                ("start", meta[Meta.START_PLAYER] == p),
                ("proconsul", meta[Meta.PROCONSUL] == p),
                ("declared", g.state.declared[p] >= 0),
            )
            if on
        ]
        lines.append(
            f"player_{p}{' [' + ', '.join(tags) + ']' if tags else ''}: {int(r[MONEY])} denarii, "
            f"{int(r[LAURELS])} laurels, {int(r[LEGIONS])} legions, tile {tile}, favor {favor}, "
            f"markers {', '.join(marks) or '-'}; score {int(scores[p])}"
        )
        hand = f"{int(g.state.hand[p].sum())} cards" if viewer is not None and viewer != p else _cards(g.state.hand[p])
        lines.append(f"    hand: {hand}; followers to place: {int(g.state.followers[p])}")
    lines.append("")
    for f, name in enumerate(FACTIONS):
        q = int(g.state.controller[f])
        field = ", ".join(f"{i + 1}: player_{int(o)}" for i, o in enumerate(g.state.field_owner[f]) if o >= 0)
        codes = np.zeros(len(FACTIONS) * NUM_VALUES, dtype=np.int64)
        codes[f * NUM_VALUES : (f + 1) * NUM_VALUES] = g.state.sets[f]
        lines.append(
            f"{name:15s} controller {'player_' + str(q) if q >= 0 else '-':9s} set {_cards(codes)}"
            + (f"   field {field}" if field else "")
            + ("   (first laurel waiting)" if g.state.first_laurel[f] else "")
        )
    lines.append("")
    pantheon = g.board.slots["Pantheon"].start
    for region in g.board.region_names:
        parts = []
        slots = g.board.slots.get(region, range(0))
        for slot in slots:
            c = int(g.state.slot_card[slot])
            if c < 0:
                parts.append("(empty)")
            elif g.state.slot_up[slot] or viewer is None or (slot == pantheon and g.state.pantheon_seen[viewer]):
                parts.append(card_name(c) + ("" if g.state.slot_up[slot] else " (face down)"))
            else:
                parts.append("face-down card")
        if region == "Curia":
            parts = [f"stack {k + 1}: {_cards(g.state.curia[k])}" for k in range(len(g.state.curia))]
        if region == "Catacombs":
            seen = g.state.catacombs if viewer is None else g.state.catacombs_seen[viewer]
            parts = [
                f"{int(g.state.catacombs.sum())} face-down cards" + (f" (seen: {_cards(seen)})" if seen.any() else "")
            ]
        owners = [f"player_{int(o)}" if o >= 0 else "." for o in g.state.space_owner[g.board.spaces[region]]]
        lines.append(f"{region:19s} cards: {'; '.join(parts) or '-'}   followers: {' '.join(owners)}")
    bowl = ", ".join(f"player_{p} x{int(k)}" for p, k in enumerate(g.state.coin_bowl[: g.n]) if k)
    lines.append(f"Coin bowl: {bowl or '-'}")
    lines.append("")
    if g.is_over:
        outcome = (
            "truncated at the round limit" if g.truncated else "won by " + ", ".join(f"player_{p}" for p in g.winners())
        )
        lines.append(f"Game over: {outcome}. Scores: {scores.tolist()}")
    else:
        kind, p, b, c = g.decision()
        context = "".join(
            f", {name.replace('_', ' ')} {value}"
            for name, value in named_args(kind, p, b, c).items()
            if name != "player"
        )
        lines.append(f"To act: player_{p} ({kind.name.lower().replace('_', ' ')}{context})")
    return "\n".join(lines)
