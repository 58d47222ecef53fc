"""A text rendering of the table, for people (the `ansi` and `human` render modes).

It writes out :func:`tribune_env.table.table`, so the text shows exactly what the board
drawing shows, and hides what that hides.
"""

from __future__ import annotations

from .actions import card_name
from .data import FACTIONS, PHASE_NAMES
from .table import HIDDEN, table


def _cards(codes) -> str:
    return ", ".join(card_name(c) for c in codes) if codes else "-"


def _player(p: dict) -> list[str]:
    tags = [
        tag for tag, on in (("start", p["start"]), ("proconsul", p["proconsul"]), ("declared", p["declared"])) if on
    ]
    hand = f"{p['hand_size']} cards" if p["hand"] is None else _cards(p["hand"])
    if p["hand"] is None and p["known"]:
        hand += f", known among them: {_cards(p['known'])}"
    return [
        f"player_{p['seat']}{' [' + ', '.join(tags) + ']' if tags else ''}: {p['denarii']} denarii, "
        f"{p['laurels']} laurels, {p['legions']} legions, tile {p['tile'] or '-'}, favor {p['favor'] or '-'}, "
        f"markers {', '.join(FACTIONS[f] for f in p['markers']) or '-'}; score {p['score']}",
        f"    hand: {hand}; followers to place: {p['followers']}",
    ]


def _slot(slot) -> str:
    if slot is None:
        return "(empty)"
    if slot["card"] == HIDDEN:
        return "face-down card"
    return card_name(slot["card"]) + ("" if slot["face_up"] else " (face down)")


def _region(r: dict) -> str:
    parts = [_slot(slot) for slot in r["cards"]]
    if "stacks" in r:
        parts = [f"stack {k + 1}: {_cards(stack)}" for k, stack in enumerate(r["stacks"])]
    if "pile" in r:
        seen = r["pile"]["seen"]
        parts = [f"{r['pile']['size']} face-down cards" + (f" (seen: {_cards(seen)})" if seen else "")]
    owners = " ".join(f"player_{s['owner']}" if s["owner"] is not None else "." for s in r["spaces"])
    return f"{r['name']:19s} cards: {'; '.join(parts) or '-'}   followers: {owners}"


def render(g, viewer: int | None = None) -> str:
    """The table; hands and face-down cards only as `viewer` may see them (None: all)."""
    return written(table(g, viewer))


def written(t: dict) -> str:
    """A table of :func:`tribune_env.table.table` as text: what it holds, nothing more."""
    v = t["victory"]
    goal = (
        f"point-value variant: game ends at {v['markers']} faction markers"
        if v["point_variant"]
        else f"{v['id']}: {v['need']} of tribune, favor, {v['laurels']} laurels, {v['legions']} legions, "
        f"{v['denarii']} denarii, {v['markers']} markers"
        + (f" ({v['obligatory']} obligatory)" if v["obligatory"] else "")
    )
    chariot = next((f["name"] for f in t["factions"] if f["chariot"]), "off the board")
    lines = [
        f"Round {t['round']} of at most {t['round_limit']}, phase {t['phase']}: {PHASE_NAMES[t['phase']]}",
        f"Victory: {goal}",
        f"Colosseum: {t['colosseum']} denarii   Draw pile: {t['draw_pile']}"
        f"   Discards: {len(t['discards']['face_up']) + t['discards']['face_down']}   Chariot: {chariot}",
        "",
    ]
    for p in t["players"]:
        lines += _player(p)
    lines.append("")
    for f in t["factions"]:
        q = f["controller"]
        field = ", ".join(f"{i + 1}: player_{o}" for i, o in enumerate(f["field"]) if o is not None)
        lines.append(
            f"{f['name']:15s} controller {'player_' + str(q) if q is not None else '-':9s} set {_cards(f['set'])}"
            + (f"   field {field}" if field else "")
            + ("   (first laurel waiting)" if f["first_laurel"] else "")
        )
    lines.append("")
    lines += [_region(r) for r in t["regions"]]
    bowl = ", ".join(f"player_{p} x{k}" for p, k in enumerate(t["coin_bowl"]) if k)
    lines += [f"Coin bowl: {bowl or '-'}", ""]
    if t["over"]:
        over = t["over"]
        outcome = (
            "truncated at the round limit"
            if over["truncated"]
            else "won by " + ", ".join(f"player_{p}" for p in over["winners"])
        )
        lines.append(f"Game over: {outcome}. Scores: {over['scores']}")
    else:
        d = dict(t["decision"])
        kind, p = d.pop("kind"), d.pop("player")
        context = "".join(f", {name.replace('_', ' ')} {value}" for name, value in d.items())
        lines.append(f"To act: player_{p} ({kind.replace('_', ' ')}{context})")
    return "\n".join(lines)
