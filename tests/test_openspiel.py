"""Tribune as an OpenSpiel game: OpenSpiel's own checks, its algorithms, and the examples of
docs/openspiel.md, for every player count and victory card."""

import base64
import pickle
import re
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import tribune_env.envs.openspiel  # noqa: E402,F401  (registers python_tribune)
from tests.test_conformance import IDS, SETTINGS  # noqa: E402
from tribune_env import Game, IllegalActionError, StateFormatError  # noqa: E402
from tribune_env.envs.openspiel import NAME, _World, deal_seed, load_state, state_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def params(n, kw) -> dict:
    return {"players": n, "victory_card": kw.get("victory_card", ""), "point_variant": kw.get("point_variant", False)}


def dealt(game, deal=0, moves=0, seed=0):
    """A state after the chance node and `moves` random legal moves."""
    state = game.new_initial_state()
    state.apply_action(deal)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_the_examples_run(capsys):
    namespace = {}
    for i, block in enumerate(re.findall(r"```python\n(.*?)```", (ROOT / "docs/openspiel.md").read_text(), re.S)):
        exec(compile(block, f"docs/openspiel.md example {i + 1}", "exec"), namespace)
    out = capsys.readouterr().out
    assert "[1659]" in out and "IS-MCTS plays player_" in out and "reloaded: True 3" in out
    assert re.search(r"NFSP: a game of \d+ moves, returns \[", out)


def test_the_game_declares_what_it_is():
    game = pyspiel.load_game(NAME, {"players": 3})
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()) == (3, 400, 2**16)
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 2**16


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_openspiels_random_simulation_test_passes(n):
    """OpenSpiel's own check: whole random games, serialisation round trips at every state,
    clones, observation and information-state tensors and strings of every seat."""
    pyspiel.random_sim_test(pyspiel.load_game(NAME, {"players": n}), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("n, kw", SETTINGS, ids=IDS)
def test_worlds_resampled_for_a_seat_are_the_same_to_it(n, kw):
    """Along a random game, for the seat to act: every resampled world gives it the same
    information state and observation, and the same legal actions; another seat's private
    cards differ in some world."""
    game = pyspiel.load_game(NAME, params(n, kw))
    state = dealt(game, deal=n, moves=60, seed=n)
    sampler = np.random.RandomState(n).uniform
    others_differ = False
    for _ in range(8):
        player = state.current_player()
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_string(player) == state.observation_string(player)
        assert np.array_equal(world.observation_tensor(player), state.observation_tensor(player))
        assert world.legal_actions() == state.legal_actions()
        hands = world.table.state.hand, state.table.state.hand
        others_differ |= any(not np.array_equal(hands[0][q], hands[1][q]) for q in range(n) if q != player)
        assert np.array_equal(hands[0][player], hands[1][player])
        state.apply_action(int(np.random.default_rng(len(state.history())).choice(state.legal_actions())))
    assert others_differ


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_a_resampled_world_is_no_closer_to_the_truth_than_chance_allows(n):
    """A resampler that leaked would deal the true hands back more often than an equally
    likely world does. Overlap with the true hidden hands is compared with overlap with an
    independent resampled world: the same distribution if nothing leaks."""
    game = pyspiel.load_game(NAME, {"players": n})
    state = dealt(game, deal=7 * n, moves=40, seed=n)
    player, sampler = state.current_player(), np.random.RandomState(0).uniform

    def overlap(world, reference):
        a, b = world.table.state.hand, reference.table.state.hand
        return sum(int(np.minimum(a[q], b[q]).sum()) for q in range(n) if q != player)

    truth, chance = [], []
    for _ in range(200):
        world, other = state.resample_from_infostate(player, sampler), state.resample_from_infostate(player, sampler)
        truth.append(overlap(world, state))
        chance.append(overlap(world, other))
    spread = np.sqrt(np.var(truth) / len(truth) + np.var(chance) / len(chance))
    assert np.mean(truth) <= np.mean(chance) + 4 * spread + 1e-9


def test_a_state_is_serialised_as_its_deal_and_moves_and_replays():
    game = pyspiel.load_game(NAME, {"players": 4, "victory_card": "cursus-honorum"})
    state = dealt(game, deal=99, moves=300, seed=1)
    text = pyspiel.serialize_game_and_state(game, state)
    assert len(text) < 4000  # the moves, not the engine's state
    again_game, again = pyspiel.deserialize_game_and_state(text)
    assert again.table.state_equals(state.table) and again.history() == state.history()
    assert str(again) == str(state) and again_game.get_parameters() == game.get_parameters()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert not clone.table.state_equals(state.table)  # a clone plays on alone


def test_a_resampled_world_cannot_be_saved():
    """Its history is the original's, which makes another game: saved, it would load as the
    true game. A clone keeps the world."""
    game = pyspiel.load_game(NAME, {"players": 3})
    state = dealt(game, deal=5, moves=120, seed=2)
    world = state.resample_from_infostate(state.current_player(), np.random.RandomState(1).uniform)
    for save in (lambda: pyspiel.serialize_game_and_state(game, world), lambda: pickle.dumps(world)):
        with pytest.raises(StateFormatError, match="resampled world"):
            save()
    assert world.clone().table.state_equals(world.table) and not world.table.state_equals(state.table)
    with pytest.raises(StateFormatError, match="state_of"):
        pickle.dumps(state_of(Game(3, seed=4)))


def saved(state) -> str:
    return pyspiel.serialize_game_and_state(state.get_game(), state)


def entries(state) -> list:
    return [(entry.player, entry.action) for entry in state.full_history()]


def with_history(text: str, history) -> str:
    """`text` saving `history`, a list of (player, action), instead of its own."""
    line = ",".join(f"{player}:{action}" for player, action in history)
    return re.sub(r"history=.*\nmove_number=\d+", f"history={line}\nmove_number={len(history)}", text)


def with_attributes(text: str, attributes: dict) -> str:
    """`text` with its pickled Python attributes (the [State] line __dict__=) replaced."""
    return re.sub(r"__dict__=.*", "__dict__=" + base64.b64encode(pickle.dumps(attributes)).decode(), text)


def two_players(moves=30, **params):
    return dealt(pyspiel.load_game(NAME, {"players": 2, **params}), deal=3, moves=moves, seed=3)


def played_past(state, round_: int):
    """`state` played on at random until its game is in round `round_` (or over)."""
    rng = np.random.default_rng(0)
    while not state.is_terminal() and state.table.round < round_:
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def illegal_move(state) -> tuple:
    return state.current_player(), next(a for a in range(400) if a not in state.legal_actions())


def two_players_under_five():
    return saved(two_players(moves=60)).replace("players=2", "players=5")


def past_the_round_limit():
    state = played_past(two_players(moves=0), 2)
    state.apply_action(state.legal_actions()[0])  # a move of round 2
    return saved(state).replace("round_limit=50", "round_limit=1")


def after_the_end():
    state = played_past(two_players(moves=0, round_limit=1), 2)
    assert state.is_terminal()
    return with_history(saved(state), entries(state) + [(0, 0)])


BAD_HISTORIES = {
    "deal 65,536": (
        lambda: with_history(saved(two_players()), [(-1, 2**16)]),
        "action 0: chance outcome 65536 is outside the deals 0..65535",
    ),
    "deal -1": (lambda: with_history(saved(two_players()), [(-1, -1)]), "action 0: chance outcome -1 is outside"),
    "deal 5,000 of 10": (
        lambda: with_history(saved(two_players(deals=10)), [(-1, 5000)]),
        r"action 0: chance outcome 5000 is outside the deals 0\.\.9",
    ),
    "action 400": (lambda: with_history(saved(two_players()), [*entries(two_players()), (1, 400)]), "action 31 is 400"),
    "action -7": (lambda: with_history(saved(two_players()), [*entries(two_players()), (1, -7)]), "action 31 is -7"),
    "an illegal move": (
        lambda: with_history(saved(two_players()), [*entries(two_players()), illegal_move(two_players())]),
        "action 31, '.*', is not legal here",
    ),
    "a move before the deal": (
        lambda: with_history(saved(two_players()), [(0, 12), *entries(two_players())]),
        "action 0 is player_0's, before the deal",
    ),
    "a second deal": (
        lambda: with_history(saved(two_players()), [(-1, 3), (-1, 4)]),
        "action 1 is a chance outcome, after the deal",
    ),
    "moves after the end": (after_the_end, r"action \d+, '.*', comes after the end of the game"),
    "200,000 entries": (
        lambda: with_history(saved(two_players()), [(-1, 3)] + [(0, 0)] * 199_999),
        "history has 200,000 actions; a game of these settings has at most 4,001",
    ),
    "2 players' history under 5": (two_players_under_five, r"python_tribune history: action \d+"),
    "past the round limit": (past_the_round_limit, r"action \d+, '.*', comes after the end of the game"),
}
LOADERS = {"load_state": load_state, "pyspiel": lambda text: pyspiel.deserialize_game_and_state(text)[1]}


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize("case", BAD_HISTORIES)
def test_a_history_the_engine_would_not_play_is_refused_naming_the_action(case, loader):
    make, named = BAD_HISTORIES[case]
    text = make()
    with pytest.raises(StateFormatError, match=named) as refused:
        LOADERS[loader](text)
    assert len(str(refused.value)) < 200


@pytest.mark.parametrize("loader", LOADERS)
def test_a_saved_state_loads_as_its_history_plays(loader):
    state = two_players(moves=80)
    again = LOADERS[loader](saved(state))
    assert again.history() == state.history() and again.table.state_equals(state.table)
    assert again.information_state_string(1) == state.information_state_string(1)
    assert pickle.loads(pickle.dumps(state)).table.state_equals(state.table)  # pickle goes through load_state


class Touch:
    """A crafted pickle: unpickled, it creates the file `path`."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return Path.touch, (self.path,)


def test_load_state_never_unpickles_what_the_text_carries(tmp_path):
    marker = tmp_path / "ran"
    with pytest.raises(StateFormatError, match="pickled Python objects"):
        load_state(with_attributes(saved(two_players()), {"_world": Touch(marker)}))
    assert not marker.exists()


def test_openspiels_own_loader_runs_a_crafted_pickle_as_the_docs_warn(tmp_path):
    """pyspiel.deserialize_game_and_state unpickles before tribune's code can run; the day it
    stops, docs/openspiel.md's warning should go."""
    marker = tmp_path / "ran"
    pyspiel.deserialize_game_and_state(with_attributes(saved(two_players()), {"_world": Touch(marker)}))
    assert marker.exists()


class Forged:
    """A pickle of tribune's own world over another game."""

    def __init__(self, table):
        self.table = table

    def __reduce__(self):
        return _World, (None, self.table)


@pytest.mark.parametrize(
    "attributes, named",
    [  # made when the test runs: a Game at collection would compile the engine in every worker
        (lambda: {"_world": Game(2, seed=1)}, "history, not a Game"),
        (lambda: {"_world": Forged(Game(2, seed=1))}, "history, not a _World"),
        (lambda: {"_table": Game(2, seed=1)}, "no attribute '_table'"),
    ],
)
def test_a_pickled_table_never_overrides_the_history(attributes, named):
    text = with_attributes(saved(two_players()), attributes())
    with pytest.raises(StateFormatError, match=named):
        pyspiel.deserialize_game_and_state(text)
    with pytest.raises(StateFormatError, match="__dict__="):
        load_state(text)


@pytest.mark.parametrize(
    "text, named",
    [
        (b"[Meta]", "is text, got a bytes"),
        ("history=-1:3", "starts with 'history=-1:3', not the section"),
        ("[Meta]\n[State]\n[Game]", "section .State. is out of place"),
        ("[Meta]\n[Game]\npython_tribune()\n[State]\nhistory=\n", "three lines"),
    ],
)
def test_load_state_refuses_what_is_not_a_saved_state(text, named):
    with pytest.raises(StateFormatError, match=named):
        load_state(text)


@pytest.mark.parametrize(
    "game, named",
    [
        ("tic_tac_toe()", "the game is 'tic_tac_toe..', not python_tribune"),
        ("python_tribune(players=six)", "the game 'python_tribune.players=six.': Wrong type for parameter players"),
        ("python_tribune(players=6)", "the game: num_players must be an int from 2 to 5, got 6"),
    ],
)
def test_load_state_refuses_a_game_other_than_python_tribunes(game, named):
    text = re.sub(r"\[Game\]\n.*", f"[Game]\n{game}", saved(two_players()))
    with pytest.raises(StateFormatError, match=named):
        load_state(text)


@pytest.mark.parametrize(
    "history, move_number, named",
    [
        ("-1:3,0;5", "2", "action 1 is '0;5', not player:action"),
        ("-1:3", "2", "move_number is 2, but the history has 1"),
    ],
)
def test_load_state_refuses_a_malformed_history(history, move_number, named):
    text = re.sub(r"history=.*\nmove_number=\d+", f"history={history}\nmove_number={move_number}", saved(two_players()))
    with pytest.raises(StateFormatError, match=named):
        load_state(text)


def test_action_to_string_refuses_what_is_no_action():
    state = pyspiel.load_game(NAME, {"players": 2}).new_initial_state()
    assert state.action_to_string(0, 0).startswith("player_0: ")  # before the deal: no game dealt for it
    for player, action, named in [
        (0, -1, "action -1"),
        (0, 400, "action 400"),
        (2, 0, "player 2"),
        (-1, 2**16, "65536"),
    ]:
        with pytest.raises(IllegalActionError, match=named):
            state.action_to_string(player, action)


def test_a_deal_out_of_range_changes_nothing():
    state = pyspiel.load_game(NAME, {"players": 2, "deals": 10}).new_initial_state()
    with pytest.raises(IllegalActionError, match="chance outcome 10 is outside the deals 0..9"):
        state.apply_action(10)
    assert state.is_chance_node() and state.history() == []


def test_chance_and_legal_actions_answer_as_openspiels_own():
    """Answered in Python for speed, they must agree with OpenSpiel's C++ path."""
    state = pyspiel.load_game(NAME, {"players": 3, "deals": 10}).new_initial_state()
    outcomes = state.chance_outcomes()
    outcomes.clear()  # a caller's own list
    assert state.chance_outcomes() == [(deal, 0.1) for deal in range(10)]
    rng = np.random.default_rng(0)
    while True:
        for player in (None, -1, 0, 1, 2):
            if player == -1 and not state.is_chance_node():
                continue  # OpenSpiel asks no pseudo-player's actions at a decision
            ours = state.legal_actions() if player is None else state.legal_actions(player)
            theirs = (
                pyspiel.State.legal_actions(state) if player is None else pyspiel.State.legal_actions(state, player)
            )
            assert ours == theirs
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_tensors_answer_as_openspiels_own(n):
    """Answered in Python for speed, they must agree with OpenSpiel's C++ path: the same
    numbers, and the same refusal of a player outside the game (at the chance node and at the
    end, for the player to act too)."""
    state = pyspiel.load_game(NAME, {"players": n, "deals": 10}).new_initial_state()
    rng = np.random.default_rng(n)
    while True:
        for name in ("observation_tensor", "information_state_tensor"):
            ours, theirs = getattr(state, name), getattr(pyspiel.State, name)
            for player in (None, *range(-1, n + 1)):
                args = () if player is None else (player,)
                try:
                    expected = theirs(state, *args)
                except pyspiel.SpielError:
                    with pytest.raises(pyspiel.SpielError):
                        ours(*args)
                    continue
                assert ours(*args) == expected and len(expected) == 1659
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert pyspiel.State.observation_tensor(state, 0) != [0.0] * 1659  # the walk saw more than the chance node


def test_the_log_is_kept_only_once_a_string_asks_for_it():
    state = two_players(moves=50)
    assert state.table.log is None
    logged = Game(2, seed=deal_seed(0, 3))
    for action in state.history()[1:]:
        logged.step(action)
    assert state.information_state_string(0) == "\n".join(logged.seat_log(0)) + "\n\n" + logged.render(0)
    assert state.table.log == logged.log and state.table.state_equals(logged)


@pytest.mark.parametrize(
    "settings, words",
    [
        ({"players": 6}, "num_players"),
        ({"victory_card": "imperator"}, "victory_card"),
        ({"reward": "points"}, "reward"),
        ({"deals": 0}, "deals"),
    ],
)
def test_bad_parameters_are_refused_by_name(settings, words):
    with pytest.raises(Exception, match=words):
        pyspiel.load_game(NAME, settings)


def test_state_of_wraps_a_game_of_the_engine():
    from tribune_env import Game

    table = Game(3, seed=4)
    state = state_of(table)
    assert state.current_player() == table.current_player and state.legal_actions() == table.legal_actions().tolist()
    assert state.get_game().num_players() == 3
    assert state.information_state_string(1).endswith(table.render(1)) and "setup:" in state.information_state_string(1)
    quiet = state_of(Game(3, seed=4, log=False))  # no log kept: the table as the seat sees it
    assert quiet.information_state_string(1) == table.render(1)


def test_openspiels_ismcts_agent_plays_a_whole_game_and_replays_it():
    """The openspiel-ismcts spec in a tournament game (a tiny budget), twice from one seed."""
    from agents import make_agent
    from training.arena.games import play_game, reset_agents
    from tribune_env import Game

    def play():
        agents = [make_agent("openspiel-ismcts:simulations=2")] + [make_agent("random") for _ in range(3)]
        reset_agents(agents, seed=8)
        game = Game(4, seed=8)
        return play_game(game, agents, ["openspiel-ismcts", "random", "random", "random"]).actions, game

    (first, game), (second, _) = play(), play()
    assert game.is_over and first == second


def test_openspiels_evaluate_bots_plays_a_whole_game_of_random_bots():
    """What docs/openspiel.md says runs: OpenSpiel's own bot loop, to the end of a game."""
    from open_spiel.python.algorithms import evaluate_bots

    game = pyspiel.load_game(NAME, {"players": 3})
    bots = [pyspiel.make_uniform_random_bot(p, 7 + p) for p in range(3)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert len(returns) == 3 and sorted(returns)[-1] > 0 and abs(sum(returns)) < 1e-9
