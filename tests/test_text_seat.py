"""Text seats: the view in words and as data, answers read back as moves, and the agents that
play by text, through a Python function and through another program over JSON lines.

Every answerer here is a script (no network): well-formed ones must play whole games without a
forfeit, broken ones (garbage, empty answers, illegal moves, exceptions, silence, a program that
dies) must forfeit while the game goes on with legal moves. docs/text-seat.md's examples run as
pasted, its client as the program of a seat.
"""

from __future__ import annotations

import json
import logging
import os
import shlex
import sys
import textwrap
import time

import numpy as np
import pytest
from click.testing import CliRunner
from test_docs import examples, run_script

from agents import make_agent
from agents.program import MAX_LINE, TOO_LONG, ProgramAgent, read_line
from agents.text import TextAgent
from training.arena import report
from training.arena import tournament as t
from training.arena.games import play_game, reset_agents
from training.cli import main
from tribune_env import DEFAULT_DATA, ActionSpace, ConfigError, Game, IllegalActionError, PlayerView
from tribune_env.errors import AnswerError
from tribune_env.text_seat import TextSeat, prompt, read_move

LABELS = ActionSpace(DEFAULT_DATA).labels
DOCUMENT = "docs/text-seat.md"
PLAYERS = [2, 3, 4, 5]
PYTHON = shlex.quote(sys.executable)


def listed(text: str) -> list[str]:
    """The labels a prompt lists, in order."""
    return [line.split(". ", 1)[1] for line in text.split("Your legal moves:\n")[1].split("\n\n")[0].splitlines()]


class Scripted:
    """A well-formed answerer: a seeded random move of the list, written in one of the forms an
    answer may take; it keeps the labels it chose and the prompts it saw."""

    FORMS = {
        "exact": lambda label, number: label,
        "loose": lambda label, number: f'  "{label.upper()}."  ',
        "number": lambda label, number: f"{number}.",
        "sentence": lambda label, number: f"After some thought, my move is {label}. Thanks!",
    }

    def __init__(self, seed: int, forms=tuple(FORMS)):
        self.rng = np.random.default_rng(seed)
        self.forms = forms
        self.chosen, self.prompts = [], []

    def __call__(self, text: str) -> str:
        self.prompts.append(text)
        moves = listed(text)
        k = int(self.rng.integers(len(moves)))
        self.chosen.append(moves[k])
        return self.FORMS[self.forms[len(self.chosen) % len(self.forms)]](moves[k], k + 1)


def play(players: int, seed: int, agent, seat: int = 0):
    """A game of `agent` in `seat` against random players, as a tournament plays it."""
    agents = [make_agent("random") for _ in range(players)]
    agents[seat] = agent
    game = Game(players, seed=seed)
    reset_agents(agents, seed)
    return game, play_game(game, agents, [f"seat {p}" for p in range(players)])


def moves_of(seat: int, game: Game, actions: list) -> list[str]:
    """The labels of the moves `seat` made in `game`, dealt again from its seed."""
    replay, labels = Game(game.n, seed=game.seed, log=False), []
    for action in actions:
        if replay.current_player == seat:
            labels.append(replay.A.labels[action])
        replay.step(action)
    return labels


# ----------------------------------------------------------------- the view, the prompt, the answer
def test_the_view_is_the_seats_table_news_and_moves_as_json():
    game = Game(3, seed=4)
    seats = [TextSeat(p) for p in range(3)]
    rng = np.random.default_rng(0)
    read = {p: 0 for p in range(3)}
    for _ in range(60):
        acting = game.current_player
        for p, seat in enumerate(seats):
            view = seat.view(PlayerView(game, p))
            assert json.loads(json.dumps(view)) == view
            log = game.seat_log(p)
            assert view["news"] == log[read[p] :] and view["table"] == game.table(p)
            read[p] = len(log)
            assert (view["seat"], view["players"], view["round"]) == (p, 3, game.round)
            if p == acting:
                assert [m["action"] for m in view["legal"]] == game.legal_actions().tolist()
                assert [m["label"] for m in view["legal"]] == [game.A.labels[a] for a in game.legal_actions()]
                assert listed(prompt(view)) == [m["label"] for m in view["legal"]]
            else:
                assert view["legal"] == [] and "Your legal moves" not in prompt(view)
        assert seats[acting].view(PlayerView(game, acting))["news"] == []  # read already
        game.step(int(rng.choice(game.legal_actions())))
    text = prompt(seats[0].view(PlayerView(game, 0)))
    assert text.startswith("You are player_0 in a 3-player game") and game.render(0) in text


def test_a_text_seat_is_one_seats():
    with pytest.raises(IllegalActionError, match="player_1's, not player_2's"):
        TextSeat(1).view(PlayerView(Game(3, seed=0), 2))


def test_a_game_without_a_log_has_no_news():
    game = Game(2, seed=0, log=False)
    view = TextSeat(game.current_player).view(PlayerView(game, game.current_player))
    assert view["news"] == [] and view["legal"]


VIEW = {
    "legal": [
        {"action": 5, "label": "take Senators 1"},
        {"action": 6, "label": "take Senators 10"},
        {"action": 7, "label": "place follower: Curia 2"},
        {"action": 9, "label": "decline"},
    ]
}


@pytest.mark.parametrize(
    "answer, action",
    [
        ("take Senators 10", 6),  # exact
        ("TAKE   senators 1", 5),  # case and spacing
        ('"Place follower: Curia 2."', 7),  # quotes and punctuation
        ("**decline**", 9),
        ("`take Senators 10`!", 6),
        ("3", 7),  # the number in the list
        ("#4.", 9),
        ("I will take Senators 10, I think.", 6),  # one label among words, not "take Senators 1" within it
        ("My move: take senators 1", 5),
    ],
)
def test_an_answer_names_a_move_exactly_then_tolerantly(answer, action):
    assert read_move(answer, VIEW) == action


@pytest.mark.parametrize(
    "answer, problem",
    [
        ("", "the answer is empty"),
        ("  ...  ", "the answer is empty"),
        ("xyzzy", "'xyzzy' is none of the 4 legal moves"),
        ("take Senators 2", "is none of the 4 legal moves"),  # a move, not legal now
        ("0", "'0' is not the number of a legal move: they go from 1 to 4"),
        ("5", "not the number of a legal move"),
        ("decline, or take Senators 1", "names 2 legal moves"),
        (None, "an answer must be text, got NoneType"),
        (3, "an answer must be text, got int"),
        ("x" * 500, "'xxxxxxxx"),  # quoted, cut short
        ("1" * 5000, "'1111111111.*' is not the number of a legal move"),  # past what int() reads
        ("0" * 7 + "1", "is not the number of a legal move"),
    ],
)
def test_an_answer_naming_no_legal_move_says_why(answer, problem):
    with pytest.raises(AnswerError, match=problem) as raised:
        read_move(answer, VIEW)
    assert len(str(raised.value)) < 200


def test_no_answer_is_read_when_the_seat_is_not_to_act():
    with pytest.raises(AnswerError, match="no move is asked"):
        read_move("decline", {"legal": []})


def test_the_prompt_is_compact():
    """Every decision's prompt of a game at 2 and at 5 players: a few thousand characters (docs/text-seat.md)."""
    for players in (2, 5):
        answerer = Scripted(players)
        play(players, 11, TextAgent(answer=answerer))
        lengths = [len(text) for text in answerer.prompts]
        assert np.median(lengths) < 5_000 and max(lengths) < 10_000, (players, np.median(lengths), max(lengths))


# ----------------------------------------------------------------- a Python function as a seat
@pytest.mark.parametrize("players", PLAYERS)
def test_a_well_formed_answerer_plays_whole_games_without_forfeits(players):
    seat = players - 1
    answerer = Scripted(players)
    agent = TextAgent(answer=answerer)
    game, played = play(players, 20 + players, agent, seat)
    assert game.is_over
    assert agent.tally() == {"decisions": played.decisions[seat], "retries": 0, "forfeits": 0}
    assert moves_of(seat, game, played.actions) == answerer.chosen  # in every form, the move it named
    assert f"News since your last decision:\nplayer_{seat}: {answerer.chosen[0]}\n" in answerer.prompts[1]


def garbage(text):
    return "xyzzy"


def nothing(text):
    return None


def raises(text):
    raise RuntimeError("the model is down")


def off_the_list(text):
    return "999"


def not_legal_now(text):
    return next(label for label in LABELS if label not in listed(text))


def many_digits(text):
    return "1" * 5000


@pytest.mark.parametrize(
    "answer, problem",
    [
        (garbage, "'xyzzy' is none of the"),
        (lambda text: "", "the answer is empty"),
        (nothing, "an answer must be text, got NoneType"),
        (raises, "the answer failed: RuntimeError: the model is down"),
        (off_the_list, "'999' is not the number of a legal move"),
        (not_legal_now, "is none of the"),
        (many_digits, "is not the number of a legal move"),
    ],
)
def test_a_bad_answer_is_asked_again_then_forfeited(answer, problem):
    prompts = []

    def asked(text):
        prompts.append(text)
        return answer(text)

    agent = TextAgent(answer=asked, retries=2)
    game, played = play(2, 3, agent)
    decisions = played.decisions[0]
    assert game.is_over and decisions > 5
    assert agent.tally() == {"decisions": decisions, "retries": 2 * decisions, "forfeits": decisions}
    assert len(prompts) == 3 * decisions
    first, again = prompts[0], prompts[1]
    assert again.startswith(first) and problem in again.split("\n\nYour last answer was not accepted: ")[1]


def test_a_slow_answer_times_out_and_is_asked_again():
    calls = []

    def slow_once(text):
        calls.append(text)
        if len(calls) == 1:
            time.sleep(2)
        return listed(text)[0]

    agent = TextAgent(answer=slow_once, timeout=0.2)
    start = time.perf_counter()
    game, played = play(2, 5, agent)
    assert game.is_over and time.perf_counter() - start < 30
    assert agent.tally() == {"decisions": played.decisions[0], "retries": 1, "forfeits": 0}
    assert "the answer failed: TimeoutError: no answer within 0.2 s" in calls[1]


def test_a_game_replays_from_its_seed_given_the_same_answers():
    """Given the same answers, the forfeits' random moves come from the game's seed alone."""

    def actions(seed, answer):
        return play(3, seed, TextAgent(answer=answer))[1].actions

    assert actions(7, garbage) == actions(7, garbage)
    assert actions(7, garbage) != actions(8, garbage)
    assert actions(7, Scripted(1)) == actions(7, Scripted(1))


def test_one_text_agent_plays_several_seats_each_with_its_own_view():
    """Tribune-v0's opponents given as one agent: the agent sits in every other seat."""
    import gymnasium as gym

    answerer = Scripted(3)
    agent = TextAgent(answer=answerer)
    env = gym.make("Tribune-v0", num_players=3, opponents=agent)
    observation, info = env.reset(seed=0)
    while True:
        observation, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated or truncated:
            break
    assert {text.split(" in a ")[0] for text in answerer.prompts} == {"You are player_1", "You are player_2"}
    agents_seats = [make_agent("random"), agent, agent]
    game = Game(3, seed=4)
    reset_agents(agents_seats, 4)
    played = play_game(game, agents_seats, ["random", "text", "text"])
    assert game.is_over
    assert agent.tally() == {"decisions": played.decisions[1] + played.decisions[2], "retries": 0, "forfeits": 0}


@pytest.mark.parametrize(
    "options, problem",
    [
        ({"answer": None}, "needs answer"),
        ({"answer": "model"}, "needs answer"),
        ({"answer": garbage, "retries": -1}, "retries must be an integer from 0 to 100"),
        ({"answer": garbage, "retries": 1.5}, "retries"),
        ({"answer": garbage, "timeout": 0}, "timeout must be a number of seconds"),
        ({"answer": garbage, "timeout": float("nan")}, "timeout"),
    ],
)
def test_a_text_agent_refuses_bad_options(options, problem):
    with pytest.raises(ConfigError, match=problem):
        TextAgent(**options)


# ----------------------------------------------------------------- in the environments
def test_the_aec_environment_gives_the_acting_agent_its_text_view_when_asked():
    import tribune_env.envs as envs

    env = envs.env(num_players=3, text_view=True)
    env.reset(seed=2)
    decisions = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        others = [env.unwrapped.infos[a] for a in env.agents if a != agent]
        assert all("prompt" not in i and "view" not in i for i in others)
        assert info["view"]["seat"] == int(agent[-1]) and info["prompt"] == prompt(info["view"])
        assert [m["action"] for m in info["view"]["legal"]] == np.flatnonzero(observation["action_mask"]).tolist()
        env.step(read_move(listed(info["prompt"])[-1], info["view"]))
        decisions += 1
    assert decisions > 50
    plain = envs.env(num_players=3)
    plain.reset(seed=2)
    assert set(plain.last()[4]) == {"action_mask"} and plain.unwrapped.game.log is None


def test_the_gymnasium_environment_gives_the_learner_its_text_view_when_asked():
    from tribune_env.envs import SingleAgentEnv

    env = SingleAgentEnv(num_players=4, text_view=True)
    observation, info = env.reset(seed=1)
    steps = 0
    while True:
        assert info["view"]["seat"] == info["learner_seat"] and info["view"]["legal"]
        observation, reward, terminated, truncated, info = env.step(read_move("1", info["view"]))
        steps += 1
        if terminated or truncated:
            break
    assert "prompt" not in info and steps > 10
    assert "prompt" not in SingleAgentEnv(num_players=4).reset(seed=1)[1]


@pytest.mark.parametrize("make", ["aec", "single"])
def test_text_view_must_be_a_bool(make):
    import tribune_env.envs as envs

    with pytest.raises(ConfigError, match="text_view must be True or False, got 'yes'"):
        envs.env(text_view="yes") if make == "aec" else envs.SingleAgentEnv(text_view="yes")


# ----------------------------------------------------------------- another program as a seat
def client() -> str:
    """docs/text-seat.md's client: the one example that reads its standard input."""
    (code,) = [block for block in examples(DOCUMENT) if "sys.stdin" in block]
    return code


def program(tmp_path, code: str, name: str = "bot.py", **options) -> ProgramAgent:
    path = tmp_path / name
    path.write_text(textwrap.dedent(code))
    return ProgramAgent(cmd=[sys.executable, str(path)], **options)


@pytest.fixture
def programs():
    """Program agents made by a test, their programs stopped at its end."""
    made = []
    yield made
    for agent in made:
        agent.close()


GARBAGE = """
import sys
for line in sys.stdin:
    if '"decision"' in line or '"error"' in line:
        print("hello", flush=True)
"""

WRONG_FIRST = """
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "decision":
        legal = message["legal"]
        print(json.dumps({"action": -1}), flush=True)
    elif message["type"] == "error":
        print(json.dumps({"action": legal[0]["action"], "reason": "the first"}), flush=True)
"""

DIES = """
import json, sys
decisions = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "decision":
        decisions += 1
        if decisions == 3:
            sys.exit(3)
        print(json.dumps({"move": message["legal"][0]["label"]}), flush=True)
"""

SILENT = """
import sys
for line in sys.stdin:
    pass
"""

VIEW_KEYS = ("seat", "players", "round", "news", "table", "legal")

RECORDS = """
import json, sys
answers = 0
with open(sys.argv[1], "w") as record:
    for line in sys.stdin:
        message = json.loads(line)
        record.write(line)
        record.flush()
        if message["type"] in ("decision", "error"):
            answers += 1
            print("garbage" if answers <= 3 else json.dumps({"move": message["legal"][-1]["label"]}), flush=True)
"""


@pytest.mark.parametrize("players", PLAYERS)
def test_the_documented_client_plays_whole_games_without_forfeits(tmp_path, programs, players):
    agent = program(tmp_path, client())
    programs.append(agent)
    game, played = play(players, 30 + players, agent, seat=1)
    assert game.is_over
    assert agent.tally() == {"decisions": played.decisions[1], "retries": 0, "forfeits": 0, "failures": 0}


@pytest.mark.parametrize("players", PLAYERS)
def test_a_program_answering_garbage_forfeits_and_the_game_goes_on(tmp_path, programs, players):
    agent = program(tmp_path, GARBAGE, retries=1)
    programs.append(agent)
    game, played = play(players, 40 + players, agent)
    decisions = played.decisions[0]
    assert game.is_over and decisions > 0  # every move legal: play_game raises on an illegal one
    assert agent.tally() == {"decisions": decisions, "retries": decisions, "forfeits": decisions, "failures": 0}


def test_a_refused_answer_is_answered_with_an_error_and_given_again(tmp_path, programs):
    agent = program(tmp_path, WRONG_FIRST)
    programs.append(agent)
    game, played = play(3, 1, agent)
    decisions = played.decisions[0]
    assert agent.tally() == {"decisions": decisions, "retries": decisions, "forfeits": 0, "failures": 0}


def test_a_program_that_dies_forfeits_the_rest_of_the_game_and_starts_again_at_the_next(tmp_path, programs, caplog):
    agent = program(tmp_path, DIES)
    programs.append(agent)
    for seed in (1, 2):
        game, played = play(2, seed, agent)
        decisions = played.decisions[0]
        assert game.is_over
        assert agent.tally() == {"decisions": decisions, "retries": 0, "forfeits": decisions - 2, "failures": 1}
    assert agent.totals["failures"] == 2
    assert "the program exited with code 3; the seat forfeits the rest of the game" in caplog.text


def test_a_silent_program_times_out_and_is_stopped(tmp_path, programs, caplog):
    agent = program(tmp_path, SILENT, timeout=0.5)
    programs.append(agent)
    start = time.perf_counter()
    game, played = play(2, 3, agent)
    assert game.is_over and time.perf_counter() - start < 30
    decisions = played.decisions[0]
    assert agent.tally() == {"decisions": decisions, "retries": 0, "forfeits": decisions, "failures": 1}
    assert "gave no answer within 0.5 s" in caplog.text
    assert agent._program is None  # stopped


def test_a_program_is_told_of_the_game_its_errors_its_forfeits_and_the_end(tmp_path, programs):
    record = tmp_path / "messages.jsonl"
    agent = program(tmp_path, RECORDS)
    agent.argv.append(str(record))
    programs.append(agent)
    game, played = play(3, 6, agent)
    agent.close()
    messages = [json.loads(line) for line in record.read_text().splitlines()]
    kinds = [m["type"] for m in messages]
    assert kinds[:6] == ["start", "decision", "error", "error", "forfeit", "decision"]
    assert kinds.count("decision") == played.decisions[0] and kinds[-1] == "end" and kinds.count("end") == 1
    start, decision, error, _, forfeit = messages[:5]
    assert start == {"type": "start", "protocol": 1, "seat": 0, "players": 3}
    assert decision["attempts"] == 3 and decision["prompt"] == prompt({k: decision[k] for k in VIEW_KEYS})
    assert error == {"type": "error", "message": "not a line of JSON: 'garbage'"}
    assert forfeit["label"] == LABELS[forfeit["action"]] == moves_of(0, game, played.actions)[0]
    end = messages[-1]
    assert end["outcome"] == {"winners": game.winners(), "truncated": False, "scores": game.scores().tolist()}
    assert end["legal"] == [] and end["counts"] == agent.tally()
    assert (agent.tally()["retries"], agent.tally()["forfeits"]) == (2, 1)


def test_the_start_message_tells_nothing_of_the_deal(tmp_path, programs):
    """No seed, nor anything else that differs between games of other seeds: the program could deal them again."""
    record = tmp_path / "messages.jsonl"
    agent = program(tmp_path, RECORDS)
    agent.argv.append(str(record))
    programs.append(agent)
    for seed in (6, 7, 8):
        play(3, seed, agent)
    starts = [m for m in map(json.loads, record.read_text().splitlines()) if m["type"] == "start"]
    assert len(starts) == 3 and "seed" not in starts[0]
    assert starts[0] == starts[1] == starts[2] == {"type": "start", "protocol": 1, "seat": 0, "players": 3}


def test_a_program_seat_replays_from_its_seed(tmp_path, programs):
    """The documented client seeds its moves alike at every game, so the game's seed decides the rest."""

    def actions(seed):
        agent = program(tmp_path, client())
        programs.append(agent)
        return play(2, seed, agent)[1].actions

    assert actions(9) == actions(9) != actions(10)


@pytest.mark.parametrize(
    "line, problem",
    [
        (b"hello\n", "not a line of JSON: 'hello'"),
        (b"\n", "not a line of JSON: ''"),
        (b"\xff\xfe\n", "not a line of JSON"),
        (b"[" * 100_000 + b"\n", "not a line of JSON"),  # nested too deep
        (b"[1]\n", 'an object with "move" \\(a label\\) or "action" \\(an id\\)'),
        (b'{"move": "decline", "action": 9}\n', 'an object with "move"'),
        (b'{"reason": "none"}\n', 'an object with "move"'),
        (b'{"move": 3}\n', '"move" must be a legal move\'s label, got 3'),
        (b'{"action": "9"}\n', "\"action\" '9' is not the id of a legal move now"),
        (b'{"action": true}\n', '"action" True is not the id'),
        (b'{"action": 9.0}\n', '"action" 9.0 is not the id'),
        (b'{"action": 8}\n', '"action" 8 is not the id'),
        (TOO_LONG, f"a line of over {MAX_LINE} bytes"),
    ],
)
def test_a_line_naming_no_move_says_why(line, problem):
    with pytest.raises(AnswerError, match=problem):
        read_line(line, VIEW)


def test_a_line_names_a_move_by_label_or_id():
    assert read_line(b'{"move": "Decline."}\n', VIEW) == "Decline."  # read_move takes it tolerantly
    assert read_line(b'{"action": 7, "reason": "the Curia"}\n', VIEW) == "place follower: Curia 2"


def test_a_program_over_a_long_line_is_refused_and_asked_again(tmp_path, programs):
    agent = program(
        tmp_path,
        f"""
        import json, sys
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] == "decision":
                sys.stdout.write("x" * {MAX_LINE + 10} + "\\n")
                sys.stdout.flush()
            elif message["type"] == "error":
                print(json.dumps({{"move": "1"}}), flush=True)
        """,
    )
    programs.append(agent)
    game, played = play(2, 2, agent)
    assert agent.tally() == {
        "decisions": played.decisions[0],
        "retries": played.decisions[0],
        "forfeits": 0,
        "failures": 0,
    }


def test_a_program_agent_refuses_a_second_seat(tmp_path, programs):
    """One program holds one seat's conversation: Tribune-v0 with one program agent as every opponent stops at once."""
    import gymnasium as gym

    agent = program(tmp_path, client())
    programs.append(agent)
    env = gym.make("Tribune-v0", num_players=3, opponents=agent)
    with pytest.raises(
        ConfigError, match=r"plays one seat, player_\d, and is given player_\d too: give each seat its own"
    ):
        for seed in range(20):  # until a game reaches the second seat before the learner's first move
            env.reset(seed=seed)


SPAWNS = """
import subprocess, sys
helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])  # holds the output too
with open(sys.argv[1], "w") as record:
    record.write(str(helper.pid))
sys.stdin.readline()  # the start
"""


def running(pid: int) -> bool:
    """Whether process `pid` runs (a zombie, killed and not yet reaped by its new parent, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_a_program_that_exits_is_noticed_at_once_and_the_processes_it_started_are_stopped(tmp_path, programs, caplog):
    """Its helper keeps the output open, so only the exit itself tells that no answer will come."""
    pid_file = tmp_path / "helper.pid"
    agent = program(tmp_path, SPAWNS, timeout=30)
    agent.argv.append(str(pid_file))
    programs.append(agent)
    start = time.perf_counter()
    game, played = play(2, 3, agent)
    assert time.perf_counter() - start < 10 and game.is_over
    assert agent.tally()["failures"] == 1 and agent.tally()["forfeits"] == played.decisions[0]
    assert "the program exited with code 0; the seat forfeits the rest of the game" in caplog.text
    helper = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while running(helper) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(helper)


CHATTERS = """
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "decision":
        print(json.dumps({"move": message["legal"][0]["label"]}), flush=True)
    elif message["type"] == "end":
        for k in range(50):
            print(json.dumps({"chatter": k}), flush=True)
"""


def test_lines_written_unasked_are_dropped_with_one_warning(tmp_path, programs, caplog):
    agent = program(tmp_path, CHATTERS)
    programs.append(agent)
    play(2, 1, agent)
    time.sleep(1)  # the 50 lines written at the end are read
    with caplog.at_level(logging.WARNING, logger="agents.program"):
        game, played = play(2, 2, agent)
    dropped = [r.getMessage() for r in caplog.records if "unasked" in r.getMessage()]
    assert dropped == [
        f"{agent} in seat 0: dropped 50 line(s) the program wrote unasked, the first '{{\"chatter\": 0}}'"
    ]
    assert agent.tally() == {"decisions": played.decisions[0], "retries": 0, "forfeits": 0, "failures": 0}


CLOSES_INPUT = """
import json, os, sys
sys.stdin.readline()  # the start
os.close(0)
while True:  # answers blindly, the first move listed, without reading a question
    print(json.dumps({"move": "1"}), flush=True)
"""


def test_a_program_that_closes_its_input_fails_the_game(tmp_path, programs, caplog):
    """Else the messages for it would pile up unread, however long it answers blindly."""
    agent = program(tmp_path, CLOSES_INPUT)
    programs.append(agent)
    game, played = play(2, 4, agent)
    assert game.is_over and agent.tally()["failures"] == 1
    # All but the first few: the questions written before it closed, and on a loaded machine a few more
    # before a write to the closed pipe fails (5 of 600 answered in one run).
    assert agent.tally()["forfeits"] >= played.decisions[0] - 10
    assert "the program closed its input; the seat forfeits the rest of the game" in caplog.text


def test_a_web_match_tells_a_program_its_end(tmp_path, programs):
    from training.web.matches import Match

    record = tmp_path / "messages.jsonl"
    spec = f"program:cmd={shlex.join([sys.executable, str(tmp_path / 'bot.py'), str(record)])}"
    (tmp_path / "bot.py").write_text(RECORDS)
    settings = {"num_players": 2, "victory_card": None, "point_variant": False, "round_limit": 3}
    match = Match(settings, 0, [spec], 5, on_end=lambda record: None)
    programs.append(match.agents[1])
    while not match.game.is_over:
        match.play(int(match.game.legal_actions()[0]))
    programs[0].close()  # the program writes down what it was sent before it exits
    ends = [m for m in map(json.loads, record.read_text().splitlines()) if m["type"] == "end"]
    assert len(ends) == 1 and ends[0]["outcome"]["truncated"] is True


@pytest.mark.parametrize(
    "spec, problem",
    [
        ("program", "needs cmd"),
        ("program:cmd=", "names no program"),
        (f"program:cmd={PYTHON} 'unclosed", "is not a command line"),
        ("program:cmd=no-such-program-anywhere --flag", "'no-such-program-anywhere' is not found"),
        (f"program:cmd={PYTHON} bot.py,retries=101", "retries must be"),
        (f"program:cmd={PYTHON} bot.py,timeout=-1", "timeout must be"),
        (f"program:cmd={PYTHON} bot.py,seconds=3", "has no option 'seconds'"),
    ],
)
def test_a_bad_program_spec_is_refused_before_any_game(spec, problem):
    with pytest.raises(ConfigError, match=problem):
        make_agent(spec)


def test_a_program_spec_starts_nothing_until_its_first_decision():
    agent = make_agent(f"program:cmd={PYTHON} -c pass,timeout=2.5,retries=0")
    assert isinstance(agent, ProgramAgent) and agent._program is None
    assert (agent.timeout, agent.retries) == (2.5, 0)


# ----------------------------------------------------------------- tournaments
def test_a_tournament_reports_what_a_program_counted(tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text(GARBAGE)
    specs = [f"program:cmd={shlex.join([sys.executable, str(bot)])},retries=0", "random"]
    settings = {"num_players": 2, "victory_card": None, "point_variant": False, "round_limit": 5}
    results = t.run(specs, 2, 0, settings, workers=1, progress_bar=False)
    summary = t.summarize(results, specs, 0, settings)
    program_entrant, random_entrant = summary["entrants"]
    decisions = sum(r["seat_decisions"][r["seating"].index(0)] for r in results)
    assert program_entrant["tally"] == {"decisions": decisions, "retries": 0, "forfeits": decisions, "failures": 0}
    assert random_entrant["tally"] == {}
    assert f"#0 {specs[0]} counted: decisions {decisions}, retries 0, forfeits {decisions}, failures 0" in report.text(
        summary
    )


def test_the_tournament_command_seats_the_documented_client(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "client.py").write_text(client())
    spec = f"program:cmd={PYTHON} client.py"
    result = CliRunner().invoke(main, ["tournament", spec, "random", "--games", "2", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert f"#0 {spec} counted: decisions" in result.output and "forfeits 0, failures 0" in result.output


# ----------------------------------------------------------------- the documentation
@pytest.mark.full  # a fresh process per example, as the full tier runs docs examples (conftest.py)
def test_the_documents_examples_run_as_pasted():
    """Each Python example as a script of its own; the client is the program of the games above."""
    blocks = examples(DOCUMENT)
    assert len(blocks) == 3
    out = "".join(run_script(block, f"{DOCUMENT} example") for block in blocks if block != client())
    assert "game over, the longest prompt" in out and "'forfeits': 0" in out
