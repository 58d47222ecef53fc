"""A game's configuration is one frozen, checked GameConfig, which Game and every adapter take
alike, as an object or as its fields by name: a setting is declared in one place."""

from __future__ import annotations

import dataclasses
import inspect

import numpy as np
import pytest

from tribune_env import DEFAULT_DATA, VICTORY_CARDS, ConfigError, Game, GameConfig, GameData
from tribune_env.envs import SingleAgentEnv, VectorGames, raw_env
from tribune_env.envs.vector import VectorEnv
from tribune_env.game_config import DATA_KEPT, action_space
from tribune_env.saving.fields import CONFIG

# Every field, none at its default. A new field of GameConfig fails the test below until it is
# given here: from then on every adapter is checked to take it, untouched.
SETTINGS = {
    "num_players": 3,
    "point_variant": False,
    "victory_card": "pax-romana",
    "round_limit": 7,
    "auto_forced": False,
    "data": GameData(vestal_denarii=6),
}
# Adapters with a positional parameter for a field (kept for the callers who give it by
# position); every other field reaches each of them only through its **settings.
ADAPTERS = {
    Game: {"num_players", "victory_card"},
    raw_env: set(),
    SingleAgentEnv: set(),
    VectorGames: set(),
    VectorEnv: {"num_players"},
}
FIELDS = {f.name for f in dataclasses.fields(GameConfig)}


def test_the_settings_above_give_every_field():
    assert set(SETTINGS) == FIELDS


@pytest.mark.parametrize(
    "settings, words",
    [
        ({"num_players": 6}, "num_players must be an int from 2 to 5, got 6"),
        ({"num_players": True}, "num_players"),
        ({"victory_card": "veni"}, "unknown victory card 'veni'"),
        ({"victory_card": 3}, "victory_card must be an id"),
        ({"num_players": 2, "victory_card": "quinque-viri"}, "not for 2 players"),
        ({"victory_card": "pax-romana", "point_variant": True}, "point-value variant uses no victory card"),
        ({"round_limit": 0}, "round_limit must be an int from 1 to 10000, got 0"),
        ({"round_limit": 2.5}, "round_limit"),
        ({"data": {}}, "data must be a GameData"),
        ({"data": GameData(bid_base=1)}, "bid_base"),
        ({"data": GameData(victory_cards={})}, "no victory card fits 4 players"),
    ],
)
def test_a_bad_setting_is_refused_by_name_wherever_it_is_given(settings, words):
    for make in (lambda: GameConfig(**settings), lambda: Game(seed=0, **settings), lambda: raw_env(**settings)):
        with pytest.raises(ConfigError, match=words):
            make()


def test_a_config_is_frozen_and_settled_once():
    config = GameConfig(np.int64(3), victory_card="pax-romana", auto_forced=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.round_limit = 3
    assert config.victory_card is VICTORY_CARDS["pax-romana"] and config.round_limit == DEFAULT_DATA.round_limit
    assert type(config.num_players) is int and config.auto_forced is False
    assert config == GameConfig(3, victory_card=VICTORY_CARDS["pax-romana"], round_limit=50, auto_forced=False)
    assert config != GameConfig(3, victory_card="pax-romana") and GameConfig() == GameConfig(4)
    with pytest.raises(TypeError):
        GameConfig(3, "pax-romana")  # all but the player count by name


def test_game_takes_a_config_and_its_settings_alike():
    config = GameConfig(**SETTINGS)
    by_name, by_config = Game(seed=5, **SETTINGS), Game.from_config(config, seed=5)
    assert by_name.config == by_config.config == config and by_config.config is config
    assert by_name.to_json() == by_config.to_json() and by_name.state_equals(by_config)
    assert Game(seed=0).config == GameConfig()


def test_what_follows_from_the_numbers_is_made_once_for_each_data_and_a_few_are_kept():
    """The action space and the two layouts are the same objects for every game played with the
    same numbers, whatever its config; past DATA_KEPT other numbers, the oldest are made anew."""
    first, second = Game(3, seed=1), Game.from_config(GameConfig(5, point_variant=True), seed=2)
    assert first.A is second.A and first.obs_layout is second.obs_layout
    assert first.state.layout is second.state.layout
    other = Game(3, seed=1, data=GameData(vestal_denarii=6))
    assert other.A is not first.A and other.A.labels == first.A.labels
    copies = [dataclasses.replace(DEFAULT_DATA) for _ in range(DATA_KEPT + 1)]
    spaces = [action_space(data) for data in copies]
    assert action_space(copies[-1]) is spaces[-1]
    assert action_space(copies[0]) is not spaces[0] and action_space(copies[0]).labels == spaces[0].labels


def test_a_drawn_card_is_the_deals_not_the_configs():
    game = Game(3, seed=11)
    assert game.config.victory_card is None and game.victory_card_drawn
    assert game.played_config == dataclasses.replace(game.config, victory_card=game.victory_card)
    again = Game.from_config(game.config, seed=game.seed)  # the config and the seed make the game
    assert again.victory_card == game.victory_card and again.state_equals(game)


def test_the_saved_formats_write_every_setting():
    """A new field is saved, and the loader must learn to check it (saving/fields.py)."""
    config = GameConfig(**SETTINGS)
    assert list(config.to_dict()) == [name for name in CONFIG if name in FIELDS]
    assert set(CONFIG) - {"seed", "victory_card_drawn"} == FIELDS - {"data"}
    assert GameConfig.from_dict(config.to_dict(), SETTINGS["data"]) == config
    game = Game.from_config(config, seed=3)
    assert Game.from_json(game.to_json(), SETTINGS["data"]).config == config


@pytest.mark.parametrize("adapter", ADAPTERS, ids=lambda a: a.__name__)
def test_no_adapter_names_a_setting(adapter):
    """Each passes the settings it is given on to GameConfig unread, so a new field reaches it untouched."""
    parameters = inspect.signature(adapter).parameters
    assert set(parameters) & FIELDS == ADAPTERS[adapter]
    assert any(p.kind is p.VAR_KEYWORD for p in parameters.values())


def made(adapter, **given) -> GameConfig:
    """The GameConfig of the adapter made with the given game."""
    if adapter is VectorEnv:
        return VectorEnv(num_envs=2, seed=0, **given).games.config
    return (VectorGames(2, seed=0, **given) if adapter is VectorGames else adapter(**given)).config


@pytest.mark.parametrize("adapter", [raw_env, SingleAgentEnv, VectorGames, VectorEnv], ids=lambda a: a.__name__)
def test_every_adapter_takes_a_config_and_its_settings_alike(adapter):
    config = GameConfig(**SETTINGS)
    assert made(adapter, **SETTINGS) == config
    assert made(adapter, config=config) is config
    with pytest.raises(ConfigError, match="not both"):
        made(adapter, config=config, round_limit=3)
    with pytest.raises(ConfigError, match="unknown setting.*'rounds'"):
        made(adapter, rounds=3)


def test_an_adapter_deals_its_games_from_its_config():
    config = GameConfig(3, round_limit=9, auto_forced=False)
    env = raw_env(config=config)
    env.reset(seed=1)
    assert env.game.config is config
    single = SingleAgentEnv(config=config)
    assert not single.action_masks().any()  # no game before the first reset
    single.reset(seed=1)
    assert single.game.config is config and single.action_masks().any()


@pytest.mark.full
def test_the_rllib_environment_takes_a_config_and_its_settings_alike():
    multi_agent = pytest.importorskip("tribune_env.envs.multi_agent")
    config = GameConfig(**SETTINGS)
    assert multi_agent.TribuneMultiAgentEnv({**SETTINGS, "reward": "rank"}).config == config
    assert multi_agent.TribuneMultiAgentEnv({"config": config}).config is config
    assert multi_agent.TribuneMultiAgentEnv().config == GameConfig(2)
    assert multi_agent.TribuneMultiAgentEnv({"config": None}).config == GameConfig(2)  # None: none given


@pytest.mark.full
def test_the_openspiel_parameters_are_the_configs_fields():
    openspiel = pytest.importorskip("tribune_env.envs.openspiel")
    import pyspiel

    config = GameConfig(3, victory_card="pax-romana", round_limit=7, auto_forced=False)
    parameters = openspiel.parameters(config)
    assert set(parameters) == FIELDS - {"num_players", "data"} | {"players"}
    assert openspiel.config_of(parameters) == config
    game = pyspiel.load_game(openspiel.NAME, parameters)
    assert game.config == config and game.deal(4).config is game.config


def test_the_vector_games_are_of_its_config():
    games = VectorGames(4, seed=2, num_players=3, round_limit=9)
    assert all(game.config is games.config for game in games.games)
    again = Game.from_config(games.config, seed=int(games.seeds[1]))
    assert again.played_config == games.games[1].played_config and again.state_equals(games.games[1])
