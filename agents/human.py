"""A person choosing in the terminal among the labelled legal actions.

The agent only asks for the choice; whoever runs the game shows the table first, as the
seat may see it (``game.render(seat)``), since the agent itself never sees the game.
Bad input is explained and asked again; ``quit`` or the end of input raises :class:`Quit`.
"""

from __future__ import annotations

import sys

import numpy as np

from .base import Agent

WIDTH = 100  # characters per line of the numbered action list


class Quit(Exception):
    """The person left the game."""


def choice(text: str, labels: list) -> int:
    """The index in `labels` that `text` names: its number in the list (from 1) or its label.

    Raises ValueError with a message for the person.
    """
    text = text.strip()
    if not text:
        raise ValueError("type the number of an action, or its label")
    if text.isdecimal():
        if not 1 <= int(text) <= len(labels):
            raise ValueError(f"{text} is not in the list: choose 1 to {len(labels)}")
        return int(text) - 1
    lowered = [label.lower() for label in labels]
    if text.lower() not in lowered:
        raise ValueError(f"{text!r} is neither a number from 1 to {len(labels)} nor a legal action's label")
    return lowered.index(text.lower())


def numbered(labels: list, width: int = WIDTH) -> str:
    """The labels numbered from 1, in as many columns as fit `width`."""
    cells = [f"{i:>3}. {label}" for i, label in enumerate(labels, 1)]
    cell = max(map(len, cells)) + 2
    per_line = max(1, width // cell)
    return "\n".join(
        "".join(c.ljust(cell) for c in cells[i : i + per_line]).rstrip() for i in range(0, len(cells), per_line)
    )


def _bid_note(observation, action_mask, view) -> str:
    """What the next digit is worth, while the person enters a sealed bid digit by digit."""
    bids = view.actions.ranges["bid"]
    if not action_mask[bids.start : bids.stop].any():
        return ""
    slices = view.observation_layout.slices
    marked = np.flatnonzero(observation[slices["context_index"]])  # the digit, from the units
    place = len(bids) ** (int(marked[0]) + 1) if len(marked) else 1
    so_far = int(observation[slices["own_bid"]][0])
    return (
        f"Your sealed bid so far: {so_far} denarii. This digit counts {place} "
        f"denari{'us' if place == 1 else 'i'} a unit: 'bid digit 3' adds {3 * place}."
    )


class HumanAgent(Agent):
    """Reads choices from `stdin`, writes the list and prompts to `stdout` (default: the process's)."""

    name = "human"

    def __init__(self, seed: int | None = None, stdin=None, stdout=None):
        super().__init__(seed)
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout

    def act(self, observation, action_mask, view) -> int:
        legal = np.flatnonzero(action_mask)
        labels = [view.actions.labels[a] for a in legal]
        print(numbered(labels), file=self.stdout)
        bid_note = _bid_note(observation, action_mask, view)
        if bid_note:
            print(bid_note, file=self.stdout)
        while True:
            print(
                f"player_{view.seat}, your choice (1-{len(labels)}, a label, or quit): ",
                end="",
                file=self.stdout,
                flush=True,
            )
            line = self.stdin.readline()
            if not line or line.strip().lower() == "quit":
                raise Quit
            try:
                return int(legal[choice(line, labels)])
            except ValueError as exc:
                print(f"  {exc}", file=self.stdout)
