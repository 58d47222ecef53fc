"""Markdown tables of the action space, the observation and the component data, generated from the code.

``python -m tribune_env.docs`` rewrites the tables in docs/; a test checks they match.
"""

from __future__ import annotations

import re
import sys
from dataclasses import fields
from pathlib import Path

from .actions import ActionSpace, Board
from .data import DEFAULT_DATA, LEADERS, OBJECTIVES
from .observation import SEGMENTS, ObservationLayout


def observation_table() -> str:
    layout = ObservationLayout(ActionSpace(DEFAULT_DATA).board, DEFAULT_DATA)
    rows = ["| segment | offset | shape | meaning |", "|---|---|---|---|"]
    rows += [
        f"| `{name}` | {offset} | {shape} | {meaning} |"
        for (name, offset, shape), (_, _, meaning) in zip(layout.segments, SEGMENTS)
    ]
    rows.append(f"\nTotal size: **{layout.size}** float32 values (default data, any player count).")
    return "\n".join(rows)


def action_table() -> str:
    space = ActionSpace(DEFAULT_DATA)
    rows = ["| range | actions | first label | last label |", "|---|---|---|---|"]
    rows += [
        f"| `{name}` | {r.start}-{r.stop - 1} | {space.labels[r.start]} | {space.labels[r.stop - 1]} |"
        for name, r in space.ranges.items()
    ]
    rows.append(f"\nTotal size: **{space.size}** actions (default data, any player count).")
    return "\n".join(rows)


def component_tables() -> str:
    """The default component data (``DEFAULT_DATA``): the board, the deck, the victory cards, every number."""
    data, board = DEFAULT_DATA, Board(DEFAULT_DATA)
    rows = ["| region | follower spaces |", "|---|---:|"]
    rows += [f"| {name} | {len(spaces)} |" for name, spaces in board.spaces.items()]
    rows += ["", "| faction | leader (value 0) | cards | values |", "|---|---|---:|---|"]
    rows += [
        f"| {faction} | {leader} | {len(values)} | {', '.join(map(str, values[1:]))} |"
        for (faction, values), leader in zip(data.deck.items(), LEADERS)
    ]
    rows += [
        "",
        "| victory card | laurels | legions | denarii | markers | objectives needed, by players | obligatory | length |",
        "|---|---:|---:|---:|---:|---|---|---|",
    ]
    rows += [
        f"| `{c.id}` | {c.laurels} | {c.legions} | {c.denarii} | {c.markers} | "
        f"{', '.join(f'{n}: {k}' for n, k in sorted(c.need.items()))} | {c.obligatory or '-'} | {c.length} |"
        for c in data.victory_cards.values()
    ]
    rows += [
        "",
        f"The objectives, in the card's order: {', '.join(OBJECTIVES)}.",
        "",
        "| number | value |",
        "|---|---|",
    ]
    tables = ("deck", "victory_cards")
    rows += [f"| `{f.name}` | {getattr(data, f.name)} |" for f in fields(data) if f.name not in tables]
    return "\n".join(rows)


TABLES = {
    "docs/observation.md": observation_table,
    "docs/actions.md": action_table,
    "docs/rules.md": component_tables,
}
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
