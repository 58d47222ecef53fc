"""What every adapter does with its settings: check them when it is made, then deal games from them."""

from __future__ import annotations

from ..data import DEFAULT_DATA
from ..engine import Game
from ..errors import ConfigError


def game_settings(**settings) -> tuple[dict, Game]:
    """The settings of the adapter's games (with no log: an adapter deals game after game), and
    a game dealt from them, so that a bad setting is refused when the adapter is made."""
    config = {"data": DEFAULT_DATA, **settings, "log": False}
    return config, Game(seed=0, **config)


def check_render_mode(mode: str | None, metadata: dict) -> str | None:
    if mode is not None and mode not in metadata["render_modes"]:
        raise ConfigError(f"render_mode must be one of {metadata['render_modes']} or None, got {mode!r}")
    return mode
