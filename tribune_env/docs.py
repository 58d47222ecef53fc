"""Markdown tables of the action space and the observation, generated from the code.

``python -m tribune_env.docs`` rewrites the tables in docs/; a test checks they match.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from .actions import ActionSpace
from .data import DEFAULT_DATA
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
