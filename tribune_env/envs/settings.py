"""What every adapter does with its settings: check them when it is made, then deal games from them."""

from __future__ import annotations

from ..data import DEFAULT_DATA
from ..engine import Game
from ..errors import ConfigError

ILLEGAL_ACTION = ("raise", "lose")
RENDER_MODES = ["ansi", "human", "rgb_array"]


def game_settings(**settings) -> tuple[dict, Game]:
    """The settings of the adapter's games (with no log: an adapter deals game after game), and
    a game dealt from them, so that a bad setting is refused when the adapter is made."""
    config = {"data": DEFAULT_DATA, **settings, "log": False}
    return config, Game(seed=0, **config)


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
