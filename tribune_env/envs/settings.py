"""What the adapters check of their own settings and do with them (a game's settings are
:class:`~tribune_env.GameConfig`'s, which checks them itself)."""

from __future__ import annotations

import numpy as np

from ..errors import ConfigError, brief
from ..player import PlayerView
from ..text_seat import TextSeat, prompt

ILLEGAL_ACTION = ("raise", "lose")
RENDER_MODES = ["ansi", "human", "rgb_array"]


def check_render_mode(mode: str | None, metadata: dict) -> str | None:
    if mode is not None and mode not in metadata["render_modes"]:
        raise ConfigError(f"render_mode must be one of {metadata['render_modes']} or None, got {mode!r}")
    return mode


def check_illegal_action(choice: str) -> str:
    """``raise`` (an illegal action raises and changes nothing) or ``lose`` (it ends the game
    with a loss for the seat that played it, as PettingZoo's classic games do), for learners
    and tools that sample actions without the mask."""
    if choice not in ILLEGAL_ACTION:
        raise ConfigError(f"illegal_action must be one of {ILLEGAL_ACTION}, got {choice!r}")
    return choice


def rendered(text: str, mode: str | None):
    """The table `text` as `mode` delivers it: printed (``human``), returned (``ansi``) or drawn
    into an RGB array (``rgb_array``, what video recorders and stable-baselines3 ask for)."""
    if mode == "human":
        print(text)
        return None
    if mode == "rgb_array":
        from .picture import text_picture

        return text_picture(text)
    return text


def check_text_view(choice) -> bool:
    """Whether the acting seat's info holds its view in words, for language models: ``prompt``
    (text) and ``view`` (data for JSON), by :mod:`tribune_env.text_seat`. Off by default, so
    that numeric users pay nothing for it (its games keep a log, for the news)."""
    if not isinstance(choice, (bool, np.bool_)):
        raise ConfigError(f"text_view must be True or False, got {brief(choice)}")
    return bool(choice)


def text_seats(on: bool, seats) -> dict:
    """A fresh :class:`TextSeat` for each of `seats` in a new game with ``text_view``; none without."""
    return {seat: TextSeat(seat) for seat in seats} if on else {}


def text_info(seats: dict, game, seat: int) -> dict:
    """The ``prompt`` and ``view`` entries of the info of `seat`, about to decide (none without ``text_view``)."""
    if seat not in seats:
        return {}
    view = seats[seat].view(PlayerView(game, seat))
    return {"prompt": prompt(view), "view": view}
