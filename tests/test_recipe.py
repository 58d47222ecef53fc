"""tribune make: a recipe's stages run one after another, each from the network before, resumable."""

import random

import pytest
import tomllib
from click.testing import CliRunner
from conftest import csv_rows, tribune, written

pytest.importorskip("sb3_contrib")

from saving_fuzz import ODD_VALUES  # noqa: E402

from agents.trained import POLICIES  # noqa: E402
from training.cli import main  # noqa: E402
from training.cli.options import RECIPES  # noqa: E402
from training.learning import config as configs  # noqa: E402
from training.learning import recipe  # noqa: E402
from tribune_env import ConfigError, files  # noqa: E402

SHARED = """
players = 3
num_envs = 4
n_steps = 32
batch_size = 64
net_arch = "16"
baselines = "random=1"
snapshot_every = 0
eval_every = 0
eval_games = 3
eval_opponents = "random"
checkpoint_every = 64
workers = 1
seed = 5
"""
STAGES = """
[[stage]]
name = "imitate"
steps = 128
imitation_games = 2
imitation_epochs = 1

[[stage]]
name = "win"
steps = 128
learning_rate = 0.0001

[[stage]]
name = "league"
steps = 64
league = { rounds = 1, exploit_decisions = 64, exploit_games = 3 }
"""
NAMES = ["1-imitate", "2-win", "3-league"]


def done_files(out):
    """Each stage's network or league summary, and when it was written."""
    return written(out, "*/policy.pt", "*/round-*/exploiter/exploit.json")


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A tiny recipe made, then resumed after its second stage's network and its league's last
    measurement were lost."""
    root = tmp_path_factory.mktemp("recipe")
    (root / "tiny.toml").write_text(SHARED + STAGES)
    out = root / "out"
    said = [tribune("make", str(root / "tiny.toml"), "--out", str(out))]
    first = {
        "written": done_files(out),
        "stages": csv_rows(out / "stages.csv"),
        "network": (out / "policy.pt").read_bytes(),
    }
    (out / "2-win/policy.pt").unlink()
    (out / "3-league/round-2/exploiter/exploit.json").unlink()  # the league's last measurement
    said.append(tribune("make", "--out", str(out), "--resume"))
    return out, said, first


@pytest.mark.full
def test_each_stage_starts_from_the_network_before_with_its_own_seed(made):
    out, said, first = made
    saved = [configs.read(out / name / "config.toml") for name in NAMES[:2]]
    assert saved[0].init_policy == "" and saved[0].imitation_games == 2
    assert saved[1].init_policy == str(out / "1-imitate/policy.pt") and saved[1].imitation_games == 0
    assert [c.seed for c in saved] == [5, 6] and saved[1].learning_rate == 0.0001
    league = configs.read(out / "3-league/config.toml")
    assert league.init_policy == str(out / "2-win/policy.pt") and league.seed == 7
    assert "making a 3-player network" in said[0] and "stages imitate, win, league" in said[0]


@pytest.mark.full
def test_the_recipe_writes_each_stage_and_its_last_network(made):
    out, _, first = made
    assert [row["stage"] for row in first["stages"]] == NAMES
    assert [int(row["decisions"]) for row in first["stages"]] == [128, 128, 128]  # whole rollouts of 4 x 32
    assert all(0 <= float(row["vs_random"]) <= 1 for row in first["stages"])
    assert first["stages"][2]["best_response"] != "" and first["stages"][0]["best_response"] == ""
    assert first["network"] == (out / "3-league/round-1/main/policy.pt").read_bytes()


@pytest.mark.full
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_recipes_network_plays_a_legal_game_by_its_spec_at_every_table_size(made, players):
    from agents import make_agent
    from tribune_env import Game, PlayerView

    out, _, _ = made
    agent, game = make_agent(f"policy:{out / 'policy.pt'}"), Game(players, seed=players, log=False)
    while not game.is_over:
        seat = game.current_player
        action = agent.act(game.observe(seat), game.legal_mask(), PlayerView(game, seat))
        assert game.legal_mask()[action]
        game.step(action)


@pytest.mark.full
def test_the_curve_puts_each_stage_after_the_one_before(made, monkeypatch):
    out, _, _ = made
    drawn = {}
    monkeypatch.setattr(
        "training.learning.figures.learning_curve", lambda *args, **kwargs: drawn.update(args=args, kwargs=kwargs)
    )
    recipe.resume(out).curve([0, 1, 2])
    evaluations, training, config, path, starts = drawn["args"]
    assert starts == [(0, "imitate"), (128, "win"), (256, "league")] and config.players == 3
    assert [row["steps"] for row in training] == [128, 256, 384]
    assert [row["steps"] for row in evaluations] == [128, 256, 384]  # each run evaluated at its end
    assert (out / "curve.png").stat().st_size > 0


@pytest.mark.full
def test_a_resumed_recipe_goes_on_at_its_first_unfinished_stage(made):
    out, said, first = made
    again = done_files(out)
    assert again["1-imitate/policy.pt"] == first["written"]["1-imitate/policy.pt"]  # done: not run again
    assert again["2-win/policy.pt"] != first["written"]["2-win/policy.pt"]  # written again from its checkpoint
    assert (
        again["3-league/round-1/exploiter/exploit.json"] == first["written"]["3-league/round-1/exploiter/exploit.json"]
    )
    assert "3-league/round-2/exploiter/exploit.json" in again  # measured again
    assert "resuming" in said[1] and "stage 1 of 3" not in said[1]
    assert [row["stage"] for row in csv_rows(out / "stages.csv")] == NAMES


def test_the_shipped_recipes_make_2_players_from_imitation_and_the_other_sizes_from_a_smaller_table(
    tmp_path, monkeypatch
):
    """2p.toml fits the heuristic's moves first; 3p starts from the shipped 2-player network, 4p from
    the 3-player one and 5p from the 4-player one, which ``shipped-2p`` to ``shipped-4p`` find outside a
    checkout too."""
    monkeypatch.chdir(tmp_path)
    for players, start in ((2, ""), (3, str(POLICIES[2])), (4, str(POLICIES[3])), (5, str(POLICIES[4]))):
        _, made = recipe.read(RECIPES / f"{players}p.toml")
        assert {stage.config.players for stage in made} == {players}
        assert made[0].config.init_policy == start and (made[0].config.imitation_games > 0) == (players == 2)
        assert [stage.config.seed for stage in made] == list(range(len(made)))
        assert made[-1].league is not None  # the last stage measures the network's best response


@pytest.mark.parametrize(
    "text, message",
    [
        (SHARED, "needs [[stage]] tables"),
        (SHARED + "[[stage]]\nsteps = 64\n", "each stage needs a name"),
        (SHARED + '[[stage]]\nname = "a"\n[[stage]]\nname = "a"\n', "stage names repeat: a, a"),
        (SHARED + '[[stage]]\nname = "a"\ninit_policy = "x.pt"\n', "stage a gives init_policy"),
        (SHARED + '[[stage]]\nname = "a"\nsteeps = 64\n', "stage a: unknown setting(s) steeps"),
        (SHARED + '[[stage]]\nname = "a"\nsteps = -1\n', "stage a"),
        (SHARED + '[[stage]]\nname = "a"\nleague = { rounds = 0 }\n', "rounds must be"),
        (SHARED + '[[stage]]\nname = "a"\nleague = { rounds = 1 }\n', "a league stage needs a network to start"),
        (SHARED + 'init_policy = "missing.pt"\n[[stage]]\nname = "a"\n', "names no file"),
    ],
)
def test_bad_recipes_are_refused_by_name_before_anything_is_written(tmp_path, text, message):
    (tmp_path / "bad.toml").write_text(text)
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("(", r"\(").replace(")", r"\)")):
        recipe.start(tmp_path / "bad.toml", tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_the_command_refuses_a_recipe_with_resume_and_a_run_it_cannot_resume(tmp_path):
    (tmp_path / "tiny.toml").write_text(SHARED + STAGES)
    both = CliRunner().invoke(main, ["make", str(tmp_path / "tiny.toml"), "--resume", "--out", str(tmp_path)])
    assert both.exit_code == 2 and "not both" in both.output
    nothing = CliRunner().invoke(main, ["make", "--resume", "--out", str(tmp_path / "none")])
    assert nothing.exit_code != 0 and "nothing to resume" in nothing.output
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy/file").write_text("x")
    busy = CliRunner().invoke(main, ["make", str(tmp_path / "tiny.toml"), "--out", str(tmp_path / "busy")])
    assert busy.exit_code != 0 and "is not empty" in busy.output


def test_tribune_train_refuses_a_recipe_of_stages_and_names_tribune_make(tmp_path):
    (tmp_path / "tiny.toml").write_text(SHARED + STAGES)
    with pytest.raises(ConfigError, match="a recipe of stages.*tribune make"):
        configs.read(tmp_path / "tiny.toml")


def mutated(rng: random.Random, text: str) -> dict:
    """The recipe `text` changed as data (a value made odd, a key dropped or set) or as text (a few
    characters changed, maybe cut short), read back as a table; ConfigError if it is no TOML."""
    if rng.random() < 0.5:
        chars = list(text)
        for _ in range(rng.randint(1, 4)):
            chars[rng.randrange(len(chars))] = rng.choice("=[]{}\"'#\n 0x.,-")
        changed = "".join(chars)
        return files.parse_toml(changed[: rng.randint(0, len(text))] if rng.random() < 0.3 else changed, "fuzzed")
    table = tomllib.loads(text)
    where = table if rng.random() < 0.4 else rng.choice(table["stage"])
    key = rng.choice([*where, "league", "name", "stage", "steps", "bogus"])
    if rng.random() < 0.2:
        where.pop(key, None)
    else:
        where[key] = rng.choice([*ODD_VALUES, [{}], [{"name": 3}], {"rounds": "1"}, tomllib.loads(text)["stage"]])
    return table


def test_fuzzed_recipes_are_refused_by_name_or_read():
    """Reading each mutated recipe either raises ConfigError or gives checked stages."""
    rng, outcomes = random.Random(7), {"refused": 0, "read": 0}
    for _ in range(400):
        try:
            made = recipe.stages(mutated(rng, SHARED + STAGES), "fuzzed.toml")
        except ConfigError:
            outcomes["refused"] += 1
            continue
        assert made and all(isinstance(stage.config, configs.TrainConfig) for stage in made)
        outcomes["read"] += 1
    assert outcomes["refused"] > 100 and outcomes["read"] > 20, outcomes
