"""tribune serve's API, with FastAPI's test client: replays, games against agents, bad input, secrecy.

The page in a real browser is tested in tests/test_web_browser.py.
"""

from __future__ import annotations

import json
import logging
import re
import socket
import subprocess
import sys
import threading
import tracemalloc
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from agents import REGISTRY, RandomAgent
from training.arena import records as saved
from training.arena.games import play_game, reset_agents
from training.cli import main
from training.web.app import STATIC, NotFound, Store, create_app
from training.web.replays import Replay
from training.web.server import make_server, throttled_logs
from tribune_env import VICTORY_CARDS, Game, saving

HIDDEN_KINDS = ("add", "take", "bid")  # another player's move of these kinds is told without its card or amount


def record_of(players: int, seed: int, **settings) -> dict:
    """A finished game between random agents, as a record."""
    game = Game(players, seed=seed, **settings)
    agents = [RandomAgent() for _ in range(players)]
    reset_agents(agents, seed)
    play_game(game, agents, ["random"] * players)
    return saving.record(game, ["random"] * players)


@pytest.fixture(scope="module")
def records_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("web") / "games.jsonl"
    saved.write(path, [record_of(5, 11), record_of(2, 3, point_variant=True), record_of(3, 4)])
    return path


@pytest.fixture
def client(tmp_path):
    return TestClient(create_app(tmp_path / "played.jsonl"), base_url="http://127.0.0.1")


def ok(response):
    assert response.status_code == 200, response.text
    return response.json()


def refused(response, status: int, *words):
    assert response.status_code == status, response.text
    error = response.json()["error"]
    for word in words:
        assert word in error, error
    return error


def replayed_games(record: dict) -> list[Game]:
    """Clones of the game at every step of a record, replayed without the web app."""
    return [game.clone() for game, _, _ in saved.replay(record)]


def open_replay(client, path, index=0) -> dict:
    opened = ok(client.post("/api/records/path", json={"path": str(path)}))
    return ok(client.post(f"/api/records/{opened['id']}/games/{index}"))


# ---------------------------------------------------------------------------- replays
def test_a_records_file_lists_its_games(client, records_file):
    opened = ok(client.post("/api/records/path", json={"path": str(records_file)}))
    records = [saved.read(records_file, i) for i in range(3)]
    assert [len(g["agents"]) for g in opened["games"]] == [5, 2, 3]
    assert [g["steps"] for g in opened["games"]] == [len(r["actions"]) for r in records]
    assert [g["winners"] for g in opened["games"]] == [r["outcome"]["winners"] for r in records]


def test_an_uploaded_file_opens_as_the_same_games(client, records_file):
    by_path = ok(client.post("/api/records/path", json={"path": str(records_file)}))
    uploaded = ok(client.post("/api/records/upload", files={"file": ("games.jsonl", records_file.read_bytes())}))
    assert uploaded["games"] == by_path["games"] and uploaded["name"] == "games.jsonl"


@pytest.mark.parametrize("index", [0, 1, 2])
def test_the_replay_tables_are_the_saved_states(client, records_file, index):
    """Every step's table in the full view is the table of the game replayed to that step."""
    record = saved.read(records_file, index)
    games = replayed_games(record)
    replay = open_replay(client, records_file, index)
    assert replay["steps"] == len(record["actions"]) and replay["ends_as_recorded"]
    tables = []
    while len(tables) < len(games):
        tables += ok(client.get(f"/api/replays/{replay['id']}/tables", params={"start": len(tables)}))["tables"]
    assert tables == [g.table() for g in games]
    moves = ok(client.get(f"/api/replays/{replay['id']}/moves"))["moves"]
    assert [m["round"] for m in moves] == [g.round for g in games]
    assert [m["phase"] for m in moves] == [g.phase for g in games]
    for m, action, before in zip(moves[1:], record["actions"], games):
        assert m["player"] == before.current_player
        assert m["move"] == in_full(before, action)
    assert [line for m in moves for line in m["lines"]] == games[-1].log


SECRET = {"take": "takes a card", "bid": "bids", "discard": "discards a card"}  # how another's secret move is told


def in_full(game: Game, action: int) -> str:
    """The log line of `action` by the player to act in `game`, as everyone would read it."""
    return f"player_{game.current_player}: {game.A.labels[action]}"


def untold(game: Game, action: int, seat: int) -> bool:
    """Whether `seat` does not learn of another player's `action` at all: a card added to a set or pair."""
    return game.current_player != seat and game.A.decode(action)[0] == "add"


def told_secretly(game: Game, action: int, seat: int) -> bool:
    """Whether `seat` learns of another player's `action` without its card or amount."""
    kind = game.A.decode(action)[0]
    return game.current_player != seat and (kind in ("take", "bid") or (kind == "discard" and game.round == 0))


@pytest.mark.parametrize("seat", range(5))
def test_a_seat_view_shows_the_tables_and_log_that_seat_knew(client, records_file, seat):
    record = saved.read(records_file, 0)
    games = replayed_games(record)
    replay = open_replay(client, records_file, 0)
    tables = []
    while len(tables) < len(games):
        params = {"start": len(tables), "view": seat}
        tables += ok(client.get(f"/api/replays/{replay['id']}/tables", params=params))["tables"]
    assert tables == [g.table(seat) for g in games]
    assert all(t["players"][q]["hand"] is None for t in tables for q in range(5) if q != seat)
    moves = ok(client.get(f"/api/replays/{replay['id']}/moves", params={"view": seat}))["moves"]
    steps = [0] + [k for k, (a, g) in enumerate(zip(record["actions"], games), 1) if not untold(g, a, seat)]
    assert [m["step"] for m in moves] == steps and len(steps) < len(games)
    secret = 0
    for m in moves[1:]:
        before, action = games[m["step"] - 1], record["actions"][m["step"] - 1]
        told = in_full(before, action)
        if told_secretly(before, action, seat):
            secret += 1
            assert m["move"] == f"player_{before.current_player} {SECRET[before.A.decode(action)[0]]}"
            assert told not in m["lines"]
        else:
            assert m["move"] == told and told in m["lines"]
    assert secret > 10


def test_a_replay_steps_are_served_in_chunks(client, records_file):
    replay = open_replay(client, records_file, 0)
    got = ok(client.get(f"/api/replays/{replay['id']}/tables", params={"start": 100, "count": 7, "view": 1}))
    assert got["start"] == 100 and len(got["tables"]) == 7
    past = ok(client.get(f"/api/replays/{replay['id']}/tables", params={"start": replay["steps"], "count": 50}))
    assert len(past["tables"]) == 1  # the last step only


def test_chunks_fetched_at_once_are_each_right(records_file):
    """The page fetches the next chunk while it reads one: the server's threads share one replay."""
    record = saved.read(records_file, 0)
    expected = [g.table(1) for g in replayed_games(record)]
    replay = Replay(record)
    starts = list(range(0, len(expected), 16)) * 3
    with ThreadPoolExecutor(8) as pool:
        chunks = list(pool.map(lambda start: (start, replay.tables(1, start, 16)), starts))
    for start, tables in chunks:
        assert tables == expected[start : start + 16]


def long_record(players: int, rounds: int) -> dict:
    """A game played to its round limit: each player takes its first legal action."""
    game = Game(players, seed=1, round_limit=rounds)
    while not game.is_over:
        game.step(int(game.legal_actions()[0]))
    return saving.record(game, ["first"] * players)


def test_a_long_replay_holds_little_memory_per_step():
    """A replay keeps numbers per step, the log once and compressed states, not a table or dict a step."""
    record = long_record(2, 200)
    tracemalloc.start()
    try:
        replay = Replay(record)
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert replay.steps == len(record["actions"]) > 3000
    assert held < 250 * replay.steps, held / replay.steps
    assert held / 2 < replay.nbytes() < held * 2  # what the server budgets replays by


def test_replays_held_are_bounded_by_their_size_not_their_number():
    store = Store("replay", 100, size=len)
    first, second = store.add("a" * 40), store.add("b" * 30)
    assert store.get(second) and store.get(first)  # the first used last
    third = store.add("c" * 50)  # 120 > 100: the least recently used goes
    assert store.get(third) and store.get(first)
    with pytest.raises(NotFound, match="no replay"):
        store.get(second)
    huge = store.add("d" * 500)  # over the limit alone: kept, the others dropped
    assert store.get(huge)
    for key in (first, third):
        with pytest.raises(NotFound):
            store.get(key)


# ---------------------------------------------------------------------------- bad records
BAD_RECORDS = {
    b"not json at all\n": "is not valid JSON",
    b'{"format": "something-else"}\n': "not a saved Tribune game",
    b'{"format": "tribune-record", "version": 99}\n': "version 99: this engine reads",
    b"\xff\xfe\x00garbage\n": "UTF-8",
    b"": "holds no game records",
    b"[1, 2, 3]\n": "not a saved Tribune game",
    b"[" * 100_000 + b"\n": "nest",
}


@pytest.mark.parametrize("data", list(BAD_RECORDS), ids=range(len(BAD_RECORDS)))
def test_a_malformed_records_file_is_a_clear_error_and_the_server_goes_on(client, records_file, data):
    refused(client.post("/api/records/upload", files={"file": ("bad.jsonl", data)}), 400, BAD_RECORDS[data])
    assert ok(client.post("/api/records/path", json={"path": str(records_file)}))["games"]


@pytest.mark.parametrize("escaped", [True, False], ids=["escaped", "raw"])
def test_an_agent_name_with_a_lone_surrogate_is_refused_by_name(client, escaped):
    """A lone surrogate is no character: written as a JSON escape or as its UTF-8 bytes, the file is refused."""
    record = {**record_of(2, 5), "agents": ["random\ud800", "random"]}
    data = json.dumps(record, ensure_ascii=escaped).encode("utf-8", "surrogatepass")
    refused(client.post("/api/records/upload", files={"file": ("odd.jsonl", data)}), 400, "lone surrogate", "agents")


def test_records_that_cannot_be_played_are_refused_by_name(client, tmp_path):
    good = record_of(2, 5)
    malformed = {  # refused as the file is read
        "players": ({**good, "config": {**good["config"], "num_players": 9}}, "num_players must be an int from 2 to 5"),
        "seed": ({**good, "config": {**good["config"], "seed": -1}}, "seed must be an int"),
    }
    for name, (record, words) in malformed.items():
        data = (json.dumps(record) + "\n").encode()
        refused(client.post("/api/records/upload", files={"file": (f"{name}.jsonl", data)}), 400, words)
    bad_card = {**good["config"]["victory_card"], "laurels": -1}  # of the right shape, refused by VictoryCard
    unplayable = {  # refused as the game is played
        "illegal": ({**good, "actions": [9999] + good["actions"]}, "action 0 is 9999, outside the actions"),
        "victory card": (
            {**good, "config": {**good["config"], "victory_card_drawn": False, "victory_card": bad_card}},
            "laurels must be an int from 0",
        ),
    }
    for name, (record, words) in unplayable.items():
        data = (json.dumps(record) + "\n").encode()
        opened = ok(client.post("/api/records/upload", files={"file": (f"{name}.jsonl", data)}))
        refused(client.post(f"/api/records/{opened['id']}/games/0"), 400, words)
    changed = {**good, "actions": good["actions"][:-1]}  # plays, but does not end as recorded
    opened = ok(client.post("/api/records/upload", files={"file": ("short.jsonl", json.dumps(changed).encode())}))
    assert ok(client.post(f"/api/records/{opened['id']}/games/0"))["ends_as_recorded"] is False


def test_a_record_of_no_moves_shows_its_deal(client):
    record = {**record_of(3, 6), "actions": []}
    opened = ok(client.post("/api/records/upload", files={"file": ("deal.jsonl", json.dumps(record).encode())}))
    replay = ok(client.post(f"/api/records/{opened['id']}/games/0"))
    assert replay["steps"] == 0 and replay["ends_as_recorded"] is False
    assert len(ok(client.get(f"/api/replays/{replay['id']}/moves"))["moves"]) == 1
    tables = ok(client.get(f"/api/replays/{replay['id']}/tables", params={"view": 2}))["tables"]
    assert tables == [replayed_games(record)[0].table(2)]


def test_paths_games_views_and_ids_that_do_not_exist(client, records_file, tmp_path):
    refused(client.post("/api/records/path", json={"path": str(tmp_path / "none.jsonl")}), 400, "is not a file")
    refused(client.post("/api/records/path", json={"path": str(tmp_path)}), 400, "is not a file")
    opened = ok(client.post("/api/records/path", json={"path": str(records_file)}))
    refused(client.post(f"/api/records/{opened['id']}/games/3"), 400, "holds 3 game(s); there is no game 3")
    replay = ok(client.post(f"/api/records/{opened['id']}/games/1"))
    refused(client.get(f"/api/replays/{replay['id']}/moves", params={"view": 2}), 400, "seats of this game are 0..1")
    refused(client.get(f"/api/replays/{replay['id']}/tables", params={"view": -1}), 400, "view -1")
    refused(client.get("/api/replays/nope/moves"), 404, "no replay 'nope'")
    refused(client.post("/api/records/nope/games/0"), 404, "no records file")
    refused(client.post("/api/records/path", json={}), 400, "path")


# ---------------------------------------------------------------------------- playing
def new_match(client, **settings) -> dict:
    return ok(client.post("/api/matches", json={"players": 3, "seat": 1, "seed": 7} | settings))


def play_to_the_end(client, view, rng) -> list[dict]:
    """Random legal choices for the person until the game ends; every view the server sent."""
    views = [view]
    while view["ending"] is None:
        assert view["legal"], "the person's turn offers no choice"
        choice = view["legal"][rng.integers(len(view["legal"]))]
        view = ok(client.post(f"/api/matches/{view['id']}/actions", json={"action": choice["action"]}))
        views.append(view)
    return views


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_whole_game_against_agents_is_saved_as_a_record_that_replays(client, tmp_path, players):
    seat = players - 1
    views = play_to_the_end(client, new_match(client, players=players, seat=seat), np.random.default_rng(players))
    end = views[-1]
    record = saved.read(tmp_path / "played.jsonl", 0)
    assert record == end["record"] and record["agents"][seat] == "human"
    assert record["config"]["num_players"] == players and record["config"]["seed"] == 7
    game = replayed_games(record)[-1]
    assert saved.matches(game, record)
    assert end["ending"]["winners"] == record["outcome"]["winners"] == game.winners()
    assert end["table"] == game.table(seat)
    result = CliRunner().invoke(main, ["replay", str(tmp_path / "played.jsonl"), "--auto"])
    assert result.exit_code == 0 and "The replay ends as recorded" in result.output
    opened = ok(client.post(f"/api/matches/{end['id']}/replay"))
    assert ok(client.post(f"/api/records/{opened['id']}/games/0"))["ends_as_recorded"]


def test_a_game_whose_record_cannot_be_saved_still_ends_and_says_so(tmp_path, caplog):
    """The records file's directory is a file: every move is answered, the game ends, the page is
    told and can still replay it, and the failure is logged once."""
    (tmp_path / "taken").write_text("a file, not a directory")
    client = TestClient(create_app(tmp_path / "taken" / "played.jsonl"), base_url="http://127.0.0.1")
    with caplog.at_level(logging.WARNING, logger="training.web"):
        views = play_to_the_end(client, new_match(client, players=2, round_limit=3), np.random.default_rng(1))
    end = views[-1]
    assert end["warning"].startswith(f"the game could not be added to {tmp_path / 'taken' / 'played.jsonl'}: ")
    assert all(v["warning"] is None for v in views[:-1]) and end["record"]["outcome"] is not None
    assert ok(client.get(f"/api/matches/{end['id']}"))["warning"] == end["warning"]
    opened = ok(client.post(f"/api/matches/{end['id']}/replay"))
    assert ok(client.post(f"/api/records/{opened['id']}/games/0"))["ends_as_recorded"]
    assert [r.getMessage() for r in caplog.records] == [f"tribune serve: {end['warning']}"]


def test_the_person_receives_only_what_their_seat_may_know(client):
    """Replaying the person's game, the frames are the seat's tables after each move it may know of,
    and no other seat's card, bid or set in the making, nor the seed, reaches the page before the end."""
    seat = 0
    view = ok(client.post("/api/matches", json={"players": 4, "seat": seat}))  # a seed drawn by the server
    views = play_to_the_end(client, view, np.random.default_rng(3))
    record = views[-1]["record"]
    games = replayed_games(record)
    expected = [games[0].table(seat)] + [
        after.table(seat)
        for action, before, after in zip(record["actions"], games, games[1:])
        if not untold(before, action, seat)
    ]
    frames = [f for v in views for f in v["frames"]]
    assert [f["table"] for f in frames] == expected
    assert all("seed" not in v for v in views) and views[-1]["record"]["config"]["seed"] == record["config"]["seed"]
    known = [(a, g) for a, g in zip(record["actions"], games) if not untold(g, a, seat)]
    secret = 0
    for frame, (action, before) in zip(frames[1:], known):
        told = in_full(before, action)
        if told_secretly(before, action, seat):
            secret += 1
            assert told not in frame["lines"] and frame["move"] != told
        else:
            assert frame["move"] == told
    # both kinds of move were seen; the seed is the server's, so a game may run 200 or 2,500 moves
    assert secret > 0 and len(known) < len(games) - 1
    for view in views:  # choices are offered on the person's turn only
        if view["legal"]:
            assert view["table"]["decision"]["player"] == seat


def test_a_failing_agent_is_named_and_asked_again(client, monkeypatch):
    monkeypatch.setitem(REGISTRY, "stubborn", ("test_web", "StubbornAgent"))
    view = ok(client.post("/api/matches", json={"players": 2, "seat": 0, "opponents": ["stubborn"], "seed": 4}))
    while view["table"]["decision"]["player"] == 0:
        choice = view["legal"][0]["action"]
        response = client.post(f"/api/matches/{view['id']}/actions", json={"action": choice})
        if response.status_code != 200:
            break
        view = response.json()
    refused(response, 400, "agent 'stubborn' in seat 1 chose an illegal action")
    refused(client.post(f"/api/matches/{view['id']}/actions", json={"action": choice}), 400, "agent 'stubborn'")


class StubbornAgent(RandomAgent):
    """Plays at random for its first five moves, then insists on an illegal one."""

    moves = 0

    def act(self, observation, action_mask, view=None):
        self.moves += 1
        return super().act(observation, action_mask) if self.moves <= 5 else int(np.flatnonzero(action_mask == 0)[0])


def test_an_illegal_action_is_refused_and_the_game_is_unchanged(client):
    view = new_match(client)
    before = ok(client.get(f"/api/matches/{view['id']}"))
    legal = {c["action"] for c in view["legal"]}
    illegal = next(a for a in range(400) if a not in legal)
    refused(client.post(f"/api/matches/{view['id']}/actions", json={"action": illegal}), 400, "is not legal")
    refused(client.post(f"/api/matches/{view['id']}/actions", json={"action": 10**9}), 400, "out of range")
    refused(client.post(f"/api/matches/{view['id']}/actions", json={"action": "two"}), 400, "action")
    refused(client.post(f"/api/matches/{view['id']}/actions", json={"action": -1}), 400, "action")
    after = ok(client.get(f"/api/matches/{view['id']}"))
    assert after["table"] == before["table"] and after["legal"] == before["legal"]


def test_two_games_in_two_tabs_do_not_see_each_other(client):
    one, two = new_match(client), new_match(client)
    assert one["id"] != two["id"] and one["table"] == two["table"]  # the same seed
    ok(client.post(f"/api/matches/{one['id']}/actions", json={"action": one["legal"][0]["action"]}))
    assert ok(client.get(f"/api/matches/{two['id']}"))["table"] == two["table"]
    assert ok(client.get(f"/api/matches/{one['id']}"))["table"] != one["table"]


@pytest.mark.parametrize(
    "settings, words",
    [
        ({"players": 6}, "players"),
        ({"players": 3, "seat": 3}, "seat 3 is outside 0..2"),
        ({"opponents": ["random", "random", "random"]}, "3 players need 2 opponents"),
        ({"opponents": ["chess-master"]}, "unknown agent 'chess-master'"),
        ({"opponents": ["x" * 5000]}, "opponents.0"),
        ({"opponents": ["ismcts:colour=red"]}, "agent 'ismcts' has no option 'colour'"),
        ({"victory_card": "no-such-card"}, "no-such-card"),
        ({"seed": -5}, "seed"),
        ({"round_limit": 0}, "round_limit"),
    ],
)
def test_bad_game_settings_are_refused_by_name(client, settings, words):
    refused(client.post("/api/matches", json={"players": 3, "seat": 1} | settings), 400, words)


def test_every_victory_card_and_player_count_and_the_point_variant_play_to_the_end(client):
    settings = [{"players": n, "victory_card": card.id} for card in VICTORY_CARDS.values() for n in card.need] + [
        {"players": n, "point_variant": True} for n in range(2, 6)
    ]
    assert {s["players"] for s in settings} == {2, 3, 4, 5}
    for k, setting in enumerate(settings):
        view = new_match(client, seat=0, seed=k, round_limit=3, **setting)
        expected = setting.get("victory_card") or "point variant"
        assert view["table"]["victory"].get("id", "point variant") == expected
        end = play_to_the_end(client, view, np.random.default_rng(k))[-1]
        assert end["record"]["config"]["num_players"] == setting["players"]
    refused(client.post("/api/matches", json={"players": 4, "victory_card": "ave-caesar"}), 400, "not for 4 players")


def test_board_targets_name_the_element_each_choice_acts_on(client):
    """Placements point at their follower space, discards and additions at a card of the hand."""
    view = new_match(client, players=2, seat=0, seed=2)
    assert {c["target"].split(":")[0] for c in view["legal"]} == {"hand"}  # the setup discard
    hand = view["table"]["players"][0]["hand"]
    assert {int(c["target"].split(":")[1]) for c in view["legal"]} == set(hand)
    while view["table"]["decision"]["kind"] != "place":
        view = ok(client.post(f"/api/matches/{view['id']}/actions", json={"action": view["legal"][0]["action"]}))
    regions = view["table"]["regions"]
    spaces = [s["label"] for r in regions for s in r["spaces"]]
    factions = [f["name"] for f in view["table"]["factions"]]
    for choice in view["legal"]:
        where = choice["label"].removeprefix("place follower: ")
        if where == "coin bowl":
            expected = "bowl"
        elif where.endswith(" field"):
            expected = f"field:{factions.index(where.removesuffix(' field'))}"
        elif where in spaces:
            expected = f"space:{spaces.index(where)}"
        else:  # a region whose spaces are taken in order
            expected = f"region:{[r['name'] for r in regions].index(where)}"
        assert choice["target"] == expected, choice
    assert {c["target"].split(":")[0] for c in view["legal"]} >= {"space", "region", "field", "bowl"}


# ---------------------------------------------------------------------------- the server and its page
def test_the_page_needs_no_network():
    for asset in STATIC.iterdir():
        text = asset.read_text()
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.I), f"{asset.name} loads from the network"


def test_the_page_and_its_assets_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and '<script type="module" src="/static/app.js">' in page.text
    for name in ("app.js", "board.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_only_the_apps_own_page_on_this_machine_is_answered(client, records_file):
    """No other web page can drive the server: not by another Origin, nor by a name rebound to 127.0.0.1."""
    path = {"path": str(records_file)}
    for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000"):
        ok(client.post("/api/records/path", json=path, headers={"host": host}))
    refused(client.get("/api/catalogue", headers={"host": "evil.example"}), 403, "not this machine")
    refused(client.post("/api/records/path", json=path, headers={"host": "evil.example:8000"}), 403, "not this machine")
    refused(
        client.post("/api/records/path", json=path, headers={"origin": "http://evil.example"}),
        403,
        "only this app's page",
    )
    ok(client.post("/api/records/path", json=path, headers={"origin": "http://127.0.0.1"}))


def test_a_server_reachable_from_elsewhere_opens_no_path_and_loads_no_agent_file(tmp_path, records_file):
    client = TestClient(create_app(tmp_path / "played.jsonl", local=False))
    assert ok(client.get("/api/catalogue"))["local"] is False
    refused(client.post("/api/records/path", json={"path": str(records_file)}), 400, "upload the records file")
    assert ok(client.post("/api/records/upload", files={"file": ("g.jsonl", records_file.read_bytes())}))["games"]
    for spec in (
        "model:runs/x/model.zip",
        "rllib:policy.pt",
        "program:cmd=python bot.py",
        "guided:net=/etc/passwd",  # agents that load a policy file by a net=PATH option
        "expert:net=policy.pt",
        "openspiel-ismcts:net=policy.pt",
    ):
        refused(client.post("/api/matches", json={"opponents": [spec]}), 400, "loads no agent from a file")
    assert ok(client.post("/api/matches", json={"opponents": ["heuristic"], "seed": 1}))["legal"]


@pytest.mark.parametrize("host, local", [(None, True), ("0.0.0.0", False)])
def test_tribune_serve_listens_where_it_is_told_and_prints_its_address(tmp_path, host, local):
    """By default on this machine only; on an address others reach, without paths and agent files."""
    where = [] if host is None else ["--host", host]
    server = subprocess.Popen(
        [
            Path(sys.executable).parent / "tribune",
            "serve",
            *where,
            "--port",
            "0",
            "--records",
            str(tmp_path / "g.jsonl"),
        ],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parents[1],
    )
    try:
        line = server.stdout.readline()
        address = re.search(rf"http://({re.escape(host or '127.0.0.1')}):(\d+)/", line)
        assert address, line
        with urllib.request.urlopen(f"http://127.0.0.1:{address[2]}/api/catalogue", timeout=30) as response:
            catalogue = json.load(response)
        assert catalogue["records_path"] == str(tmp_path / "g.jsonl") and catalogue["local"] is local
        if not local:
            assert "reachable from other machines" in server.stdout.readline()
    finally:
        server.terminate()
        server.wait(timeout=30)


HALF_REQUESTS = (  # a head never ended, a body never sent
    b"GET /api/catalogue HTTP/1.1\r\nHost: 127.0.0.1\r\n",
    b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 99\r\n\r\n{",
)


def test_connections_that_send_half_a_request_do_not_shut_out_a_new_client(tmp_path, caplog):
    """Three hundred connections sending half a request against a server holding 16: the ones
    waiting longest are closed, a new client is answered, the rest are closed when their time is
    up, and the log tells it in a few lines."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = make_server(create_app(tmp_path / "g.jsonl"), limit=16, timeout=1.0)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    idle = []
    with throttled_logs(), caplog.at_level(logging.WARNING):
        thread.start()
        try:
            for k in range(300):
                idle.append(socket.create_connection(("127.0.0.1", port), timeout=10))
                idle[-1].sendall(HALF_REQUESTS[k % 2])
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/catalogue", timeout=10) as response:
                assert response.status == 200 and json.load(response)["chunk"] == 64
            assert idle[-1].recv(1) == idle[-2].recv(1) == b""  # closed after the timeout (bounding the wait)
        finally:
            server.should_exit = True
            thread.join(timeout=30)
            for connection in idle:
                connection.close()
    lines = [r.getMessage() for r in caplog.records]
    assert any("over 16 connections" in line for line in lines) and any("no whole request" in line for line in lines)
    assert len(lines) <= 4, lines


def test_the_server_raises_its_limit_of_open_files_to_the_hard_limit():
    """Run in a process whose soft limit was lowered to 256, so as to leave this one's alone."""
    script = (
        "import resource; from training.web.server import connection_limit, raise_open_files_limit as up; "
        "hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]; resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard)); "
        "print(up(), resource.getrlimit(resource.RLIMIT_NOFILE)[0], hard, connection_limit(1024))"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    raised, soft, hard, limit = map(int, run.stdout.split())
    assert raised == soft == hard > 256 and limit == 384


def test_tables_past_the_last_step_are_none_at_any_start(client, records_file):
    """Past the end of a replay, however far, the answer is an empty list."""
    replay = open_replay(client, records_file)
    for start in (replay["steps"] + 1, 64 * (replay["steps"] // 64 + 1), 10**6, 10**30):
        assert ok(client.get(f"/api/replays/{replay['id']}/tables", params={"start": start}))["tables"] == []


@pytest.mark.parametrize(
    "request_kwargs",
    [
        {"content": b"[" * 5000 + b"]" * 5000},  # nested very deeply
        {"content": b'{"seed": ' + b"9" * 5000 + b"}"},  # a number of 5,000 digits
        {"content": b'{"players": "\xff\xfe"}'},  # not UTF-8
    ],
    ids=["deep", "digits", "utf-8"],
)
def test_a_body_the_parser_refuses_has_the_documented_shape(client, request_kwargs):
    refused(client.post("/api/matches", headers={"content-type": "application/json"}, **request_kwargs), 400, "body")


def test_every_refusal_has_the_documented_shape(client):
    refused(client.post("/api/records/upload", files={"file": ("x" * 10000, b"{}")}), 400)  # the form parser's
    refused(client.get("/api/nowhere"), 404)  # the router's
    refused(client.put("/api/matches"), 405)


def test_an_oversized_body_is_refused_before_it_is_read(client):
    huge = b'{"path": "' + b"a" * (50 * 2**20) + b'"}'
    refused(client.post("/api/records/path", content=huge, headers={"content-type": "application/json"}), 413, "65,536")

    def streamed():  # no Content-Length: counted as it comes
        for _ in range(64):
            yield b"a" * 2**20

    refused(client.post("/api/matches", content=streamed(), headers={"content-type": "application/json"}), 413)


def test_unknown_keys_are_refused(client):
    refused(client.post("/api/matches", json={"players": 2, "opponent": "heuristic"}), 400, "opponent")
    refused(client.post("/api/records/path", json={"path": "x", "mode": "r"}), 400, "mode")


@pytest.mark.parametrize("action", ["28", 28.0, True, None])
def test_an_action_is_a_json_integer_not_something_read_as_one(client, action):
    match = ok(client.post("/api/matches", json={"players": 2, "opponents": ["random"], "seed": 1}))
    refused(client.post(f"/api/matches/{match['id']}/actions", json={"action": action}), 400, "action")
    assert ok(client.get(f"/api/matches/{match['id']}"))["table"] == match["table"]  # nothing was played


def test_settings_are_not_coerced_either(client):
    refused(client.post("/api/matches", json={"players": "3"}), 400, "players")
    refused(client.post("/api/matches", json={"players": 3, "point_variant": 1}), 400, "point_variant")


def test_matches_share_one_copy_of_a_policy_and_let_it_go_when_they_end(client):
    """Every seat of every match playing one file plays one loaded network; a finished match
    keeps no agent."""
    import gc

    from agents.shared import _loaded
    from agents.trained import POLICIES

    spec, name = "policy:shipped-4p", POLICIES[4].name  # the shipped 4-player network's file
    ids = [ok(client.post("/api/matches", json={"players": 4, "opponents": [spec], "seed": s}))["id"] for s in (1, 2)]
    assert sum(name in key[1] for key in _loaded.keys()) == 1
    for match_id in ids:
        match = ok(client.get(f"/api/matches/{match_id}"))
        while match["ending"] is None:
            match = ok(client.post(f"/api/matches/{match_id}/actions", json={"action": match["legal"][0]["action"]}))
    gc.collect()
    assert not any(name in key[1] for key in _loaded.keys())
