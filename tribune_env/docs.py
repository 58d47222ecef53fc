"""Markdown tables of the action space and the observation, generated from the code.

``python -m tribune_env.docs`` rewrites the tables in docs/; a test checks they match.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from .actions import ActionSpace
from .data import DEFAULT_DATA
from .observation import ObservationLayout

OBSERVATION_NOTES = {
    "hand": "own hand: count of each card (faction * 11 + value)",
    "money": "denarii of each seat (seat-relative: 0 = observer, then clockwise; padded to 5)",
    "laurels": "laurels of each seat", "legions": "legions of each seat",
    "tile": "0 none, 1 scroll, 2 tribune, per seat", "eternal_favor": "1 if the seat holds eternal favor",
    "marker_count": "faction markers held, per seat", "markers": "seat x faction: 1 if held",
    "followers_left": "followers still to place this round, per seat",
    "coin_bowl": "followers on the coin bowl this round, per seat",
    "has_bid": "1 if the seat has committed a sealed bid not yet revealed (never the amount)",
    "sets": "displayed set of each faction: count by faction * 11 + value",
    "first_laurel": "1 while the faction's first-control laurel is still on the board",
    "curia": "each Curia stack: card counts", "discard_public": "face-up discards since the last reshuffle",
    "challenger": "set played from space 2 of the contested faction, by value",
    "colosseum": "denarii on the Colosseum", "draw_size": "cards in the draw pile", "round": "round number",
    "space_owner": "each region follower space: one-hot seat (all zero if empty)",
    "field_owner": "faction x space 1/2: one-hot seat", "controller": "faction: one-hot controlling seat",
    "start_player": "one-hot seat holding the starting player coin",
    "proconsul": "one-hot seat holding the proconsul", "temporary_favor": "one-hot seat holding it",
    "build": "the set the observer is building (only when it is the observer's decision)",
    "own_bid": "during a sealed bid, the denarii of the observer's own bid: entered so far, or committed",
    "own_pairs": "the observer's face-down Field of Mars pairs, until the reveal",
    "catacombs_seen": "the Catacombs pile as the observer last examined it, less what it bought (cleared after Phase 3)",
    "hand_size": "cards in hand, per seat", "pairs_laid": "face-down Field of Mars pairs, per seat",
    "declared": "declaration order (1 = first), 0 if none, per seat",
    "objectives": "seat x objective (tribune, favor, laurels, legions, denarii, markers): 1 if met",
    "chariot": "one-hot faction blocked by the chariot this round",
    "slots": "each single-card field (Thermae, Forum, Latrine, Atrium, Pantheon): "
             "[card present, faction one-hot (7), value] - faction and value only if visible to the observer",
    "catacombs_size": "face-down cards on the Catacombs", "discard_hidden_size": "face-down discards",
    "phase": "one-hot: 0 setup, 1-6 the phases", "rounds_left": "rounds until the round limit",
    "decision": "one-hot kind of the decision waiting (Task order)", "actor": "one-hot seat to act",
    "context_faction": "faction contested / whose benefit / of the sacrifice",
    "context_index": ("Curia stack, Catacombs space or Field of Mars space of the decision; while the observer "
                      "enters a sealed bid, the digit it enters: none for the units, then the base's first, "
                      "second and third power (the last also marks any higher one)"),
    "context_role": "take-over set from space 2 (index 0) or space 1 (index 1)",
    "seat_present": "1 for each seat in the game", "victory": "laurels, legions, denarii, markers needed",
    "victory_need": "objectives needed", "obligatory": "one-hot obligatory objective",
    "point_variant": "1 in the point-value variant", "marker_goal": "markers that end a point-value game",
}


def observation_table() -> str:
    layout = ObservationLayout(ActionSpace(DEFAULT_DATA).board, DEFAULT_DATA)
    rows = ["| segment | offset | shape | meaning |", "|---|---|---|---|"]
    rows += [f"| `{name}` | {offset} | {shape} | {OBSERVATION_NOTES[name]} |"
             for name, offset, shape in layout.segments]
    rows.append(f"\nTotal size: **{layout.size}** float32 values (default data, any player count).")
    return "\n".join(rows)


def action_table() -> str:
    space = ActionSpace(DEFAULT_DATA)
    rows = ["| range | actions | first label | last label |", "|---|---|---|---|"]
    rows += [f"| `{name}` | {r.start}-{r.stop - 1} | {space.labels[r.start]} | {space.labels[r.stop - 1]} |"
             for name, r in space.ranges.items()]
    rows.append(f"\nTotal size: **{space.size}** actions (default data, any player count).")
    return "\n".join(rows)


TABLES = {"docs/observation.md": observation_table, "docs/actions.md": action_table}
MARK = re.compile(r"(<!-- generated -->\n).*?(<!-- end generated -->)", re.S)


def render(path: Path, table: str) -> str:
    return MARK.sub(lambda m: m.group(1) + table + "\n" + m.group(2), path.read_text())


def main(root: str = ".") -> None:
    for name, make in TABLES.items():
        path = Path(root) / name
        path.write_text(render(path, make()))
        print(f"updated {path}")


if __name__ == "__main__":
    main(*sys.argv[1:])
