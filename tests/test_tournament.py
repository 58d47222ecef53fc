"""Tournaments: seeded and worker-independent results, fair seating, intervals, ratings,
records that replay exactly, and the `tribune tournament` / `tribune replay` commands."""

from __future__ import annotations

import csv
import importlib.util
import itertools
import json

import numpy as np
import pytest
from click.testing import CliRunner
from openskill.models import PlackettLuce

import agents
from agents import Agent
from training.arena import records
from training.arena import tournament as t
from training.arena.games import ending
from training.arena.processes import parallel_map
from training.arena.stats import ratings, wilson
from training.cli import main
from tribune_env import VICTORY_CARDS, ConfigError, Game, IllegalActionError, StateFormatError

SHORT = {"num_players": 3, "victory_card": None, "point_variant": False, "round_limit": 4}


class FirstLegal(Agent):
    """Always the lowest legal action: deterministic, and unlike a random player."""

    name = "first"

    def act(self, observation, action_mask, view):
        return int(np.flatnonzero(action_mask)[0])


class Illegal(Agent):
    """Always an action that is not legal."""

    def act(self, observation, action_mask, view):
        return int(np.flatnonzero(action_mask == 0)[0])


@pytest.fixture(autouse=True)
def test_agents(monkeypatch):
    """Specs ``first`` and ``illegal`` for the agents above (worker processes are given the registry)."""
    monkeypatch.setitem(agents.REGISTRY, "first", (__name__, "FirstLegal"))
    monkeypatch.setitem(agents.REGISTRY, "illegal", (__name__, "Illegal"))


def reproducible(summary: dict) -> dict:
    """A summary without its wall-clock timing."""
    return {k: v for k, v in summary.items() if k != "timing"}


def tournament(specs, games=6, seed=0, workers=1, settings=SHORT, **kw):
    results = t.run(specs, games, seed, settings, workers, **kw)
    return results, t.summarize(results, specs, seed, settings)


def recorded(specs, games=3):
    """The records of a short tournament, as the games came in."""
    kept = []
    tournament(specs, games=games, on_record=kept.append)
    return kept


# ----------------------------------------------------------------- statistics
def test_wilson_interval_known_values():
    assert wilson(8, 10) == pytest.approx((0.4902, 0.9433), abs=5e-5)
    low, high = wilson(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=5e-5)
    assert wilson(10, 10) == pytest.approx((1 - 0.2775, 1.0), abs=5e-5)
    low, high = wilson(2.5, 5)  # shared wins count fractionally
    assert low + high == pytest.approx(1.0)


@pytest.mark.parametrize("wins, games", [(200, 200), (0, 200), (7, 7), (1, 3)])
def test_wilson_interval_holds_the_observed_rate(wins, games):
    """Even where rounding bites (all or no wins), so error bars are never negative."""
    low, high = wilson(wins, games)
    assert 0 <= low <= wins / games <= high <= 1


def test_ratings_match_openskill_and_reward_the_winner():
    [[a], [b]] = PlackettLuce().rate([[PlackettLuce().rating()], [PlackettLuce().rating()]], ranks=[1, 2])
    winner, loser = ratings(2, [([1, 0], [1, 2])])[::-1]  # entrant 1 in seat 0 wins
    assert winner["mu"] > 25 > loser["mu"]
    assert (winner["mu"], winner["sigma"], loser["mu"]) == pytest.approx((a.mu, a.sigma, b.mu))
    assert winner["ordinal"] == pytest.approx(a.ordinal())
    tied = ratings(3, [([0, 1, 2], [1, 1, 3])])
    assert tied[0]["mu"] == pytest.approx(tied[1]["mu"]) and tied[1]["mu"] > tied[2]["mu"]


def test_ratings_follow_the_games_in_order():
    model = PlackettLuce()
    x, y, z = (model.rating() for _ in range(3))
    [[x], [y], [z]] = model.rate([[x], [y], [z]], ranks=[2, 1, 3])
    [[z], [x], [y]] = model.rate([[z], [x], [y]], ranks=[1, 2, 2])
    ours = ratings(3, [([0, 1, 2], [2, 1, 3]), ([2, 0, 1], [1, 2, 2])])
    assert [r["mu"] for r in ours] == pytest.approx([x.mu, y.mu, z.mu])
    assert [r["sigma"] for r in ours] == pytest.approx([x.sigma, y.sigma, z.sigma])


def test_ending_counts_wins_ranks_and_objectives():
    game = Game(3, seed=4, log=False)
    rng = np.random.default_rng(0)
    while not game.is_over:
        legal = game.legal_actions()
        game.step(int(legal[rng.integers(len(legal))]))
    end = ending(game)
    assert end["ending"] == "victory card" and len(end["winners"]) == 1
    w = end["winners"][0]
    assert end["wins"][w] == 1 and sum(end["wins"]) == 1 and end["ranks"][w] == 1
    losers = [p for p in range(3) if p != w]  # after the winner, by score
    for p in losers:
        assert end["ranks"][p] == 2 + sum(end["scores"][q] > end["scores"][p] for q in losers)
    met = game.objectives()[w]
    assert len(end["objectives"]) == met.sum() and end["rounds"] == game.round


# ----------------------------------------------------------------- scheduling and fairness
def test_every_deal_is_played_in_every_rotation():
    jobs = list(t.schedule(3, 7, seed=5))  # rounded up to whole deals
    assert len(jobs) == 9 and [j.index for j in jobs] == list(range(9))
    for deal in range(3):
        block = [j for j in jobs if j.deal == deal]
        assert len({j.seed for j in block}) == 1
        for entrant in range(3):  # each entrant in each seat once per deal
            assert sorted(j.seating.index(entrant) for j in block) == [0, 1, 2]
    assert len({j.seed for j in jobs}) == 3
    assert list(t.schedule(3, 7, seed=5)) == jobs and next(t.schedule(3, 7, seed=6)).seed != jobs[0].seed


def test_the_schedule_is_made_as_the_games_are_played():
    """A trillion games are scheduled one at a time, not built whole before the first game."""
    first = list(itertools.islice(t.schedule(2, 10**12, seed=0), 3))
    assert [(j.index, j.deal, j.rotation) for j in first] == [(0, 0, 0), (1, 0, 1), (2, 1, 0)]


def test_worker_processes_take_jobs_a_few_at_a_time():
    taken = []

    def jobs():
        for number in range(1000):
            taken.append(number)
            yield -number

    results = parallel_map(abs, jobs(), workers=2)
    assert next(results) == 0 and len(taken) <= 2 * 2 + 1
    results.close()


def test_a_tournament_too_long_to_summarise_is_refused():
    with pytest.raises(ConfigError, match="at most 100,000 games"):
        t.run(["random", "random"], 10**9, 0, {**SHORT, "num_players": 2})


def test_seats_are_shared_equally_and_identical_agents_score_identically():
    _, summary = tournament(["random", "random", "random"], games=9)
    for entrant in summary["entrants"]:
        assert entrant["seats"] == [3, 3, 3]
    # same deal and same seat seeds in every rotation: identical agents meet identical luck
    first = summary["entrants"][0]
    for other in summary["entrants"][1:]:
        assert (other["wins"], other["mean_score"], other["mean_rank"]) == (
            first["wins"],
            first["mean_score"],
            first["mean_rank"],
        )


def test_results_depend_on_the_seed_alone_not_on_the_worker_count():
    specs = ["first", "random", "random"]
    one, summary_one = tournament(specs, workers=1)
    two, summary_two = tournament(specs, workers=2)
    _, summary_again = tournament(specs, workers=1)
    assert reproducible(summary_one) == reproducible(summary_two) == reproducible(summary_again)
    strip = [{k: v for k, v in r.items() if k != "seat_think"} for r in one]
    assert strip == [{k: v for k, v in r.items() if k != "seat_think"} for r in two]
    _, other_seed = tournament(specs, seed=1)
    assert reproducible(other_seed)["entrants"] != reproducible(summary_one)["entrants"]


def test_summary_groups_entrants_and_specs_and_counts_endings():
    results, summary = tournament(["first", "random", "random"], games=6)
    assert [e["label"] for e in summary["entrants"]] == ["#0 first", "#1 random", "#2 random"]
    by_spec = {s["spec"]: s for s in summary["specs"]}
    assert by_spec["first"]["games"] == 6 and by_spec["random"]["games"] == 12
    assert by_spec["random"]["wins"] == summary["entrants"][1]["wins"] + summary["entrants"][2]["wins"]
    assert sum(e["wins"] for e in summary["entrants"]) == sum(1 for r in results if r["winners"])
    assert sum(summary["games"]["endings"].values()) == 6
    assert summary["games"]["endings"].get("truncated", 0) == sum(r["ending"] == "truncated" for r in results)
    for e in summary["entrants"]:
        assert e["win_ci"] == list(wilson(e["wins"], e["games"]))
        assert 1 <= e["mean_rank"] <= 3
    assert set(summary["timing"]["seconds_per_decision"]) == {"#0 first", "#1 random", "#2 random"}


def test_an_illegal_action_is_reported_with_the_agent():
    with pytest.raises(IllegalActionError, match=r"game 0 .*agent '#1 illegal' in seat 1"):
        tournament(["random", "illegal"], games=2, settings={**SHORT, "num_players": 2})


# ----------------------------------------------------------------- records
@pytest.mark.parametrize("card", [None, "cursus-honorum"])
def test_records_replay_to_the_same_final_state(card):
    settings = {**SHORT, "victory_card": card}
    kept = []
    results, _ = tournament(["first", "random", "random"], settings=settings, on_record=kept.append)
    assert len(kept) == len(results) and all("record" not in result for result in results)
    for result, record in zip(results, kept):
        record = json.loads(json.dumps(record))  # as read back from a file
        assert record["game"] == result["game"]
        assert record["config"]["victory_card_drawn"] == (card is None)
        game, step, _ = list(records.replay(record))[-1]
        assert step == len(record["actions"]) == result["decisions"]
        assert records.matches(game, record)
        assert game.scores().tolist() == result["scores"] and game.winners() == result["winners"]


# ----------------------------------------------------------------- the commands
def test_tournament_command_writes_every_output(tmp_path):
    out, saved = tmp_path / "out", tmp_path / "games.jsonl"
    result = CliRunner().invoke(
        main,
        [
            "tournament",
            "first",
            "random",
            "--games",
            "4",
            "--round-limit",
            "3",
            "--workers",
            "1",
            "--seed",
            "2",
            "--out",
            str(out),
            "--records",
            str(saved),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "#0 first" in result.output and "win rate [95% CI]" in result.output
    assert "4 games (2 deals x 2 seatings), seed 2" in result.output
    summary = json.loads((out / "results.json").read_text())
    assert summary["settings"]["round_limit"] == 3 and summary["games"]["count"] == 4
    rows = list(csv.DictReader((out / "games.csv").open()))
    assert [int(r["game"]) for r in rows] == [0, 1, 2, 3]
    assert rows[1]["seat_0"] == "#1 random" and rows[1]["seat_1"] == "#0 first"
    assert (out / "tournament.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(saved.read_text().splitlines()) == 4
    replay = CliRunner().invoke(main, ["replay", str(saved), "--game", "3", "--auto"])
    assert replay.exit_code == 0, replay.output
    assert "The replay ends as recorded" in replay.output and "Game over" in replay.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["random"], "2 to 5"),
        (["random"] * 6, "2 to 5"),
        (["random", "nobody"], "unknown agent 'nobody'"),
        (["random", "random:speed=2"], "agent 'random' has no option 'speed'"),
        (["random", "random", "--victory-card", "quinque-viri"], "not for 2 players"),
        (["random", "illegal", "--games", "2", "--round-limit", "2", "--workers", "1"], "agent '#1 illegal'"),
        (["random", "random", "--games", "1000000000"], "1<=x<=100000"),
        (["random", "random", "--workers", "100000"], "1<=x<=64"),
        (["random", "random", "--seed", str(2**32)], "0<=x<=4294967295"),
        (["random", "random", "--round-limit", str(2**63)], "1<=x<=10000"),
        (["random", "ismcts:seconds=nan"], "ismcts: seconds must be a number from 0 to 3,600, got nan"),
    ],
)
def test_tournament_command_rejects_bad_input(args, message):
    result = CliRunner().invoke(main, ["tournament", *args])
    assert result.exit_code != 0 and message in result.output
    assert isinstance(result.exception, SystemExit)  # a message, not a traceback


def test_replay_waits_for_enter_and_stops_on_q(tmp_path):
    saved = tmp_path / "games.jsonl"
    records.write(saved, recorded(["random", "random", "random"]))
    result = CliRunner().invoke(main, ["replay", str(saved), "--game", "1"], input="\n\nq\n")
    assert result.exit_code == 0, result.output
    assert "--- step 2 of" in result.output and "--- step 3 of" not in result.output
    assert "Replay stopped at step 2" in result.output


def test_replay_detects_a_record_that_does_not_end_as_stored(tmp_path):
    record = recorded(["random", "random", "random"])[0]
    record["outcome"]["scores"][0] += 1
    saved = tmp_path / "games.jsonl"
    records.write(saved, [record])
    result = CliRunner().invoke(main, ["replay", str(saved), "--auto"])
    assert result.exit_code == 1 and "does NOT end as recorded" in result.output


@pytest.mark.parametrize(
    "content, message",
    [
        ("not json\n", "line 1: saved game is not valid JSON: Expecting value at character 0"),
        ("[" * 100_000 + "]" * 100_000 + "\n", "line 1: saved game nests arrays or objects more than 8 deep"),
        (b'{"format": "tribune-record\xff"}\n', "line 1: saved game is not valid JSON: not UTF-8/16/32 text"),
        ("1" * 5000 + "\n", "line 1: saved game holds a number literal of more than 40 digits"),
        ('{"format": "something else"}\n', "not a saved Tribune game (expected format 'tribune-record')"),
        ('{"format": "tribune-record", "version": 9}\n', "version 9: this engine reads versions 1, 2"),
        ('{"format": "tribune-record", "version": true}\n', "version True: this engine reads"),  # true is not 1
        ('{"format": "tribune-record", "version": 1.0}\n', "version 1.0: this engine reads"),
        (
            '{"format": "tribune-record", "version": 1, "config": {}, "agents": [], "actions": 3, "outcome": {}}\n',
            "config has no 'num_players'",
        ),
        ("\n", "holds 0 game record(s)"),
    ],
)
def test_replay_reports_bad_files_clearly(tmp_path, content, message):
    saved = tmp_path / "bad.jsonl"
    saved.write_bytes(content if isinstance(content, bytes) else content.encode())
    result = CliRunner().invoke(main, ["replay", str(saved), "--auto"])
    assert result.exit_code == 1 and message in result.output
    assert isinstance(result.exception, SystemExit)


def test_replay_reports_an_unplayable_action(tmp_path):
    record = recorded(["random", "random", "random"])[0]
    record["actions"][5] = 9999
    saved = tmp_path / "games.jsonl"
    records.write(saved, [record])
    result = CliRunner().invoke(main, ["replay", str(saved), "--auto"])
    assert result.exit_code == 1 and "action 5 is 9999, outside the actions 0..399" in result.output


@pytest.mark.parametrize(
    "key, value, message",
    [
        ("seed", -1, "seed must be an int from 0 to 9223372036854775807, got -1"),
        ("seed", 2**64, "seed must be an int from 0 to 9223372036854775807, got a huge integer"),
        ("round_limit", 2**63, "round_limit must be an int from 1 to 10000, got a huge integer"),
        ("round_limit", "50", "round_limit must be an int from 1 to 10000, got '50'"),
        ("point_variant", "no", "point_variant must be true or false, got 'no'"),
    ],
)
def test_replay_refuses_a_record_config_out_of_range(tmp_path, key, value, message):
    record = recorded(["random", "random", "random"])[0]
    record["config"][key] = value
    saved = tmp_path / "games.jsonl"
    records.write(saved, [record])
    result = CliRunner().invoke(main, ["replay", str(saved), "--auto"])
    assert result.exit_code == 1 and f"config {message}" in result.output
    assert isinstance(result.exception, SystemExit)


def test_replay_refuses_a_line_too_long_without_reading_it_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(records, "MAX_LINE", 100)
    saved = tmp_path / "games.jsonl"
    saved.write_text("x" * 50 + "\n" + "y" * 101)
    with pytest.raises(StateFormatError, match="line 2 is larger than"):
        records.read(saved, 5)


def test_each_record_is_handed_on_as_its_game_ends(monkeypatch):
    """Records are written as the games end, not held until the tournament's end."""
    events, play_job = [], t.play_job
    monkeypatch.setattr(t, "play_job", lambda job, **kw: events.append("play") or play_job(job, **kw))
    tournament(
        ["random", "random"],
        games=2,
        settings={**SHORT, "num_players": 2},
        on_record=lambda record: events.append("record"),
    )
    assert events == ["play", "record", "play", "record"]


def test_replay_refuses_a_victory_card_past_the_bound_by_name(tmp_path):
    record = recorded(["random", "random", "random"])[0]
    card = dict(VICTORY_CARDS["cursus-honorum"].to_dict(), laurels=2**63)
    record["config"].update(victory_card=card, victory_card_drawn=False)
    saved = tmp_path / "games.jsonl"
    records.write(saved, [record])
    result = CliRunner().invoke(main, ["replay", str(saved), "--auto"])
    assert result.exit_code == 1 and "laurels must be an int from 0 to 100,000,000" in result.output


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="needs the ray extra")
@pytest.mark.parametrize(
    "address, message",
    [
        ("127.0.0.1:1", "cannot reach the Ray cluster at '127.0.0.1:1': Connection refused"),
        ("ray://127.0.0.1:1", "cannot reach the Ray cluster at 'ray://127.0.0.1:1'"),
        ("head-node", "a Ray address is 'auto', 'local' or HOST:PORT, not 'head-node'"),
        ("127.0.0.1:99999", "a Ray address is 'auto', 'local' or HOST:PORT, not '127.0.0.1:99999'"),
    ],
)
def test_an_unreachable_ray_cluster_is_refused_at_once_and_the_records_kept(tmp_path, address, message):
    """Nothing listens at the address: refused before ray.init (which would try it for minutes)."""
    saved = tmp_path / "games.jsonl"
    saved.write_text("kept\n")
    args = ["tournament", "random", "random", "--ray-address", address, "--records", str(saved)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1 and message in result.output
    assert saved.read_text() == "kept\n"
