"""A person at the table: choosing by number or label, bad input asked again, quitting,
the log without the other players' secrets, and `tribune play` fed scripted input."""

from __future__ import annotations

import io
import json
import re

import numpy as np
import pytest
from click.testing import CliRunner

from agents import split_specs
from agents.human import HumanAgent, Quit, choice, numbered
from training.cli import main
from tribune_env import Game, IllegalActionError, PlayerView
from tribune_env.log import SeatLog

LABELS = ["place follower: Thermae 1", "place follower: Curia 2", "decline"]


def test_choice_by_number_or_label():
    assert choice("2\n", LABELS) == 1
    assert choice("  Decline ", LABELS) == 2
    assert choice("place follower: thermae 1", LABELS) == 0


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "type the number"),
        ("   \n", "type the number"),
        ("0", "choose 1 to 3"),
        ("4", "choose 1 to 3"),
        ("-1", "neither a number from 1 to 3 nor"),
        ("bid 7", "neither a number from 1 to 3 nor"),
    ],
)
def test_choice_explains_bad_input(text, message):
    with pytest.raises(ValueError, match=message):
        choice(text, LABELS)


def test_numbered_list_fits_the_width():
    text = numbered([f"bid {n}" for n in range(30)], width=40)
    assert all(len(line) <= 40 for line in text.splitlines())
    assert " 1. bid 0" in text and "30. bid 29" in text and len(text.splitlines()) < 30


def human_at_first_decision(lines: str):
    game = Game(2, seed=1, log=False)
    seat = game.current_player
    out = io.StringIO()
    return game, seat, HumanAgent(stdin=io.StringIO(lines), stdout=out), out


def test_human_agent_asks_again_until_the_input_is_good():
    game, seat, human, out = human_at_first_decision("\nnonsense\n99\n2\n")
    action = human.act(game.observe(seat), game.legal_mask(), PlayerView(game, seat))
    assert action == game.legal_actions()[1]
    text = out.getvalue()
    assert text.count("your choice") == 4
    assert "type the number" in text and "'nonsense' is neither" in text and "99 is not in the list" in text


@pytest.mark.parametrize("lines", ["", "quit\n", "\nQUIT\n"])
def test_human_agent_quits_on_quit_or_end_of_input(lines):
    game, seat, human, _ = human_at_first_decision(lines)
    with pytest.raises(Quit):
        human.act(game.observe(seat), game.legal_mask(), PlayerView(game, seat))


def played_game(seed=1, players=3):
    game = Game(players, seed=seed, round_limit=3)
    rng = np.random.default_rng(seed)
    while not game.is_over:
        legal = game.legal_actions()
        game.step(int(legal[rng.integers(len(legal))]))
    return game


def test_seat_log_hides_only_the_other_players_secrets():
    game = played_game()
    seat, log = 0, SeatLog(0)
    visible = log.news(game)
    assert log.news(game) == []
    expected, hidden, setup = [], set(), True
    for full in game.log:
        setup = setup and not full.startswith("round ")
        who, sep, label = full.partition(": ")
        try:
            kind = game.A.decode(game.A.action(label))[0]
        except IllegalActionError:  # not an action
            kind = None
        if not sep or who == f"player_{seat}" or not (kind in ("add", "take", "bid") or (kind == "discard" and setup)):
            expected.append(full)
            continue
        hidden.add(kind)
        if kind != "add":  # another player's set in the making is not told at all
            expected.append(f"{who} {({'discard': 'discards a card', 'take': 'takes a card', 'bid': 'bids'})[kind]}")
    assert visible == expected
    assert hidden == {"add", "take", "bid", "discard"}  # this game has each kind


def play(args, lines):
    return CliRunner().invoke(main, ["play", *args], input=lines)


def test_play_a_whole_game_with_bad_lines_in_the_input(tmp_path):
    saved = tmp_path / "mine.jsonl"
    lines = "\nhello\n0\n1000\n" + "1\n" * 3000
    result = play(
        [
            "--players",
            "3",
            "--seat",
            "1",
            "--opponents",
            "random,random",
            "--seed",
            "1",
            "--round-limit",
            "2",
            "--record",
            str(saved),
        ],
        lines,
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Seed 1; you are player_1; player_0: random, player_2: random." in out
    assert "type the number" in out and "'hello' is neither" in out and "1000 is not in the list" in out
    assert "Game over:" in out and ("You won!" in out or "You finished with" in out)
    assert "To act: player_1" in out and "To act: player_0" not in out  # the table only at your turns
    # the other seats' hands and hidden choices never show
    assert re.search(r"^player_[02]: (bid|add|take) ", out, re.MULTILINE) is None
    assert re.search(r"^player_[02] discards a card$", out, re.MULTILINE)
    assert re.search(r"^    hand: \d+ cards", out, re.MULTILINE)
    replay = CliRunner().invoke(main, ["replay", str(saved), "--auto"])
    assert replay.exit_code == 0 and "The replay ends as recorded" in replay.output
    assert "player_1: human" in replay.output


def test_play_adds_its_game_to_a_records_file_and_keeps_those_there(tmp_path):
    saved = tmp_path / "mine.jsonl"
    for seed in ("1", "2"):
        result = play(["--players", "2", "--seed", seed, "--round-limit", "1", "--record", str(saved)], "1\n" * 3000)
        assert result.exit_code == 0 and f"added the game to {saved}" in result.output
    lines = saved.read_text().splitlines()
    assert [json.loads(line)["config"]["seed"] for line in lines] == [1, 2]
    replay = CliRunner().invoke(main, ["replay", str(saved), "--game", "1", "--auto"])
    assert replay.exit_code == 0 and "The replay ends as recorded" in replay.output


def test_play_stops_cleanly_at_the_end_of_input():
    result = play(["--players", "2", "--seed", "3"], "1\n")
    assert result.exit_code == 0 and "You left the game." in result.output


def test_play_by_label():
    game = Game(2, seed=3, log=False)
    seat = game.current_player
    first = game.A.labels[game.legal_actions()[0]]
    result = play(["--players", "2", "--seat", str(seat), "--seed", "3"], f"{first}\nquit\n")
    assert result.exit_code == 0 and f"player_{seat}: {first}" in result.output


def test_opponent_specs_keep_their_options():
    assert split_specs("heuristic,ismcts:seconds=1,iterations=50,random") == [
        "heuristic",
        "ismcts:seconds=1,iterations=50",
        "random",
    ]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", "3", "--seat", "3"], "--seat must be 0 to 2"),
        (["--players", "4", "--opponents", "random,random"], "4 players need 3 opponents"),
        (["--opponents", "nobody"], "unknown agent 'nobody'"),
        (["--players", "6"], "players"),
        (["--victory-card", "nope"], "unknown victory card 'nope'"),
    ],
)
def test_play_rejects_bad_options(args, message):
    result = play(args, "")
    assert result.exit_code != 0 and message in result.output
    assert isinstance(result.exception, SystemExit)
