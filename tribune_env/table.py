"""The table as plain data, whole or as one seat may see it: what a board drawing needs.

:mod:`tribune_env.render` writes this table out as text. With a
``viewer`` it holds only what that seat may know at the table (clarifications, "Secrecy and
simultaneous acts"): its own hand, bids and Field of Mars pairs, the board cards it may see
(:mod:`tribune_env.core.visibility`) and the Catacombs as it last examined them. Every value is
a plain int, str, bool, list, dict or None, ready for JSON; a card is its code
(``faction * 11 + value``) and a card the viewer cannot see is :data:`HIDDEN`.
``tests/test_hidden_information.py`` checks that a seat's table is the same in every
determinisation of the game, which re-deals exactly what the seat cannot know, and under
every hidden edit the observation is tested with.
"""

from __future__ import annotations

import numpy as np

from .core.visibility import pairs_hidden_from, sees_slot
from .data import CATACOMBS, CURIA, FACTIONS, LEADERS, MARS, NUM_VALUES, OBJECTIVES, REGIONS
from .state import ETERNAL, LAURELS, LEGIONS, MONEY, SCROLL, TILE, TRIBUNE, Meta
from .tasks import BIDS, named_args

HIDDEN = -1  # a card the viewer cannot see


def cards(counts) -> list[int]:
    """Card codes, one per copy, from counts by code (mostly zeros: a table has dozens of these rows)."""
    counts, codes = np.asarray(counts), []
    for code in counts.nonzero()[0].tolist():
        codes += [code] * int(counts[code])
    return codes


def table(game, viewer: int | None = None) -> dict:
    """The table of `game` as data; with `viewer`, only what that seat may know."""
    decision = game.decision()
    scores, met = game.scores(), game.objectives()
    hidden = () if viewer is None else set(pairs_hidden_from(game.handle.buffer, game.handle.params, viewer).tolist())
    return {
        "round": game.round,
        "round_limit": game.round_limit,
        "phase": game.phase,
        "victory": _victory(game),
        "colosseum": int(game.state.meta[Meta.COLOSSEUM]),
        "draw_pile": int(game.state.meta[Meta.DRAW_N]),
        "discards": {"face_up": cards(game.state.discard_public), "face_down": int(game.state.discard_hidden.sum())},
        "coin_bowl": [int(k) for k in game.state.coin_bowl[: game.n]],
        "players": [_player(game, p, viewer, decision, scores, met, hidden) for p in range(game.n)],
        "factions": [_faction(game, f) for f in range(len(FACTIONS))],
        "regions": [_region(game, r, viewer) for r in range(len(REGIONS))],
        "build": _build(game, viewer, decision),
        "challenger": _challenger(game, decision),
        "decision": None if decision is None else _decision(decision),
        "over": _over(game, scores),
    }


def _victory(game) -> dict:
    card = game.victory_card
    if card is None:
        return {"point_variant": True, "markers": game.marker_goal}
    return {
        "point_variant": False,
        "id": card.id,
        "need": game.need,
        "laurels": card.laurels,
        "legions": card.legions,
        "denarii": card.denarii,
        "markers": card.markers,
        "obligatory": card.obligatory,
    }


def _player(game, p: int, viewer, decision, scores, met, hidden_pairs) -> dict:
    s, meta = game.state, game.state.meta
    r = s.res[p]
    sees = viewer is None or viewer == p
    bidding = decision is not None and decision[0] in BIDS
    pairs = [
        cards(s.mars_pairs[i]) if i not in hidden_pairs else [HIDDEN] * int(s.mars_pairs[i].sum())
        for i, space in enumerate(game.board.spaces["Field of Mars"])
        if s.space_owner[space] == p and s.mars_pairs[i].any()
    ]
    return {
        "seat": p,
        "denarii": int(r[MONEY]),
        "laurels": int(r[LAURELS]),
        "legions": int(r[LEGIONS]),
        "tile": {SCROLL: "scroll", TRIBUNE: "tribune"}.get(int(r[TILE])),
        "favor": "eternal" if r[ETERNAL] else ("temporary" if meta[Meta.TEMP_FAVOR] == p else None),
        "markers": [int(f) for f in np.flatnonzero(s.markers[p])],
        "start": bool(meta[Meta.START_PLAYER] == p),
        "proconsul": bool(meta[Meta.PROCONSUL] == p),
        "declared": bool(s.declared[p] >= 0),
        "score": int(scores[p]),
        "objectives": [OBJECTIVES[j] for j in np.flatnonzero(met[p])],
        "hand_size": int(s.hand[p].sum()),
        "hand": cards(s.hand[p]) if sees else None,
        "known": cards(s.known[p]),  # seen going into the hand face up, by every player
        "followers": int(s.followers[p]),
        "bid": int(s.bids[p]) if sees and bidding else None,
        "committed": bool(s.committed[p]) if bidding else False,
        "pairs": pairs,
    }


def _faction(game, f: int) -> dict:
    s = game.state
    controller = int(s.controller[f])
    return {
        "name": FACTIONS[f],
        "leader": LEADERS[f],
        "controller": controller if controller >= 0 else None,
        "set": [f * NUM_VALUES + v for v in cards(s.sets[f])],
        "field": [int(o) if o >= 0 else None for o in s.field_owner[f]],
        "first_laurel": bool(s.first_laurel[f]),
        "chariot": bool(s.meta[Meta.CHARIOT] == f),
    }


def _region(game, r: int, viewer) -> dict:
    s, board = game.state, game.board
    name = REGIONS[r]
    spaces = board.spaces[name]
    out = {
        "name": name,
        "spaces": [
            {"label": label, "owner": o if o >= 0 else None}
            for label, o in zip(board.space_labels[name], s.space_owner[spaces.start : spaces.stop].tolist())
        ],
        "cards": [],
    }
    k = game.handle.params
    for slot in board.slots.get(name, ()):
        code = int(s.slot_card[slot])
        if code < 0:
            out["cards"].append(None)
        else:
            up = bool(s.slot_up[slot])
            seen = viewer is None or sees_slot(k, s.slot_up, s.pantheon_seen, viewer, slot)
            out["cards"].append({"card": code if seen else HIDDEN, "face_up": up})
    if r == CURIA:
        out["stacks"] = [cards(stack) for stack in s.curia]
    if r == CATACOMBS:
        out["pile"] = {
            "size": int(s.catacombs.sum()),
            "seen": cards(s.catacombs if viewer is None else s.catacombs_seen[viewer]),
        }
    if r == MARS:
        out["pairs_laid"] = int(sum(s.mars_pairs[i].any() for i in range(len(s.mars_pairs))))
    return out


def _build(game, viewer, decision):
    """The set under construction: its maker's alone to see."""
    if decision is None or not game.state.build.any() or viewer not in (None, decision[1]):
        return None
    return {"player": decision[1], "cards": cards(game.state.build)}


def _challenger(game, decision):
    """The set played from space 2 of a contested faction, laid open until the take-over is settled."""
    if decision is None or not game.state.challenger.any():
        return None
    f = named_args(*decision)["faction"]  # a TAKEOVER_SET or PENALTY decision on that faction
    values = cards(game.state.challenger)
    return {"player": int(game.state.meta[Meta.CHALLENGER]), "cards": [f * NUM_VALUES + v for v in values]}


def _decision(decision) -> dict:
    kind, a, b, c = decision
    return {"kind": kind.name.lower(), **named_args(kind, a, b, c)}


def _over(game, scores):
    if not game.is_over:
        return None
    return {"winners": game.winners(), "truncated": game.truncated, "scores": [int(x) for x in scores]}
