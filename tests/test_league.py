"""tribune league: exploiters found and trained against, round after round, resumable."""

import json

import pytest
from click.testing import CliRunner
from conftest import csv_rows, tribune, written

pytest.importorskip("sb3_contrib")

from training.cli import main  # noqa: E402
from training.learning import config as configs  # noqa: E402
from training.learning.league import LeagueConfig  # noqa: E402
from tribune_env import ConfigError, Game  # noqa: E402

TINY = """
steps = 128
num_envs = 4
n_steps = 32
batch_size = 64
net_arch = "16"
baselines = "random=1"
snapshot_every = 0
eval_every = 0
eval_games = 2
eval_opponents = "random"
checkpoint_every = 64
workers = 1
"""
EXPLOITERS = "num_envs = 4\nn_steps = 32\nbatch_size = 64\n"
LEAGUE = ["--exploit-decisions", "128", "--exploit-games", "2", "--league-share", "0.8"]


def tiny_network(path):
    from agents.policy import Network

    game = Game(2, seed=0, log=False)
    Network([16], game.obs_layout.size, game.A.size, players=(2,)).save(path)
    return path


def write_recipes(root):
    """A tiny main recipe starting from a tiny network, and tiny exploiters: each step a rollout of 128 decisions."""
    start = tiny_network(root / "start.pt")
    (root / "main.toml").write_text(TINY + f'init_policy = "{start}"\n')
    (root / "exploit.toml").write_text(EXPLOITERS)
    return ["--config", str(root / "main.toml"), "--exploit-config", str(root / "exploit.toml")]


@pytest.fixture
def recipes(tmp_path):
    return write_recipes(tmp_path)


def league(*args):
    return tribune("league", *args)


def rounds(out):
    return csv_rows(out / "rounds.csv")


def done_files(out):
    """Each finished step's file, and when it was written."""
    return written(out, "round-*/exploiter/exploit.json", "round-*/main/policy.pt")


@pytest.fixture(scope="module")
def leagues(tmp_path_factory):
    """One round, then resumed to two rounds, then resumed after a main and an exploiter stopped
    before their ends: what each of the three commands said, and the files each found done."""
    root = tmp_path_factory.mktemp("league")
    out, recipes = root / "league", write_recipes(root)
    said, done = [league(*recipes, *LEAGUE, "--out", str(out))], [done_files(out)]
    first = {"network": (out / "policy.pt").read_bytes(), "rounds": rounds(out)}
    said.append(league("--out", str(out), "--resume", "--rounds", "2"))
    done.append(done_files(out))
    (out / "round-2/main/policy.pt").unlink()
    (out / "round-3/exploiter/exploit.json").unlink()
    said.append(league("--out", str(out), "--resume"))
    return root, out, said, done, first


@pytest.mark.full
def test_a_league_runs_its_rounds_then_measures_its_last_network(leagues):
    _, out, said, done, first = leagues
    assert sorted(done[0]) == ["round-1/exploiter/exploit.json", "round-1/main/policy.pt",
                               "round-2/exploiter/exploit.json"]  # fmt: skip
    assert first["network"] == (out / "round-1/main/policy.pt").read_bytes()  # the league's latest network
    assert [row["round"] for row in first["rounds"]] == ["1", "2"]
    assert "parity 50.0%" in said[0] and "then the last network's exploiter" in said[0]


@pytest.mark.full
def test_a_resumed_league_goes_on_at_its_first_unfinished_step(leagues):
    _, out, said, done, _ = leagues
    assert {k: v for k, v in done[1].items() if k in done[0]} == done[0]  # nothing of round 1 done again
    assert "round 1:" not in said[1] and "round 2: a best response" not in said[1]  # the measurement is round 2's
    assert "round 2: training" in said[1] and "round 3: a best response" in said[1]
    # a main stopped before its end resumes from its checkpoint; a stopped exploiter starts again
    assert "round 2: resuming" in said[2] and "round 3: a best response" in said[2] and "round 1" not in said[2]
    assert [row["round"] for row in rounds(out)] == ["1", "2", "3"]
    for row in rounds(out):
        assert float(row["vs_network_low"]) <= float(row["vs_network"]) <= float(row["vs_network_high"])
        assert 0 <= float(row["vs_heuristic"]) <= 1 and float(row["minutes"]) >= 0
    assert (out / "curve.png").stat().st_size > 0
    assert (out / "policy.pt").read_bytes() == (out / "round-2/main/policy.pt").read_bytes()
    assert json.loads((out / "league.json").read_text())["rounds"] == 2


@pytest.mark.full
def test_each_main_trains_from_the_last_network_against_every_exploiter_and_every_network(leagues):
    root, out, *_ = leagues
    start, one, two = root / "start.pt", out / "round-1/main/policy.pt", out / "round-2/main/policy.pt"
    exploiters = [out / f"round-{n}/exploiter/policy.pt" for n in (1, 2, 3)]
    second = configs.read(out / "round-2/main/config.toml")
    assert second.init_policy == str(one) and second.seed == 1  # new games each round
    # the members hold 0.8 of the pool's weight in every round: 4 to the baseline's 1, split among them
    assert second.baselines == (
        f"random=1,policy:{exploiters[0]}=1,policy:{exploiters[1]}=1,policy:{start}=1,policy:{one}=1"
    )
    assert configs.read(out / "round-1/main/config.toml").baselines == (
        f"random=1,policy:{exploiters[0]}=2,policy:{start}=2"
    )
    for number, target in ((1, start), (2, one), (3, two)):  # each exploiter attacks the network before it
        found = json.loads((out / f"round-{number}/exploiter/exploit.json").read_text())
        assert found["target"] == f"policy:{target}" and found["start"] == str(target)
        assert found["config"]["net_arch"] == "16" and found["config"]["num_envs"] == 4  # --exploit-config's
        assert [row["games"] for row in found["rows"]] == [2, 2]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--rounds", "0"], "rounds must be 1 to 1,000"),
        (["--league-share", "1"], "league_share must be above 0 up to 0.99"),
        (["--league-share", "0"], "league_share must be above 0"),
        (["--exploit-games", "0"], "exploit_games must be"),
    ],
)
def test_bad_league_settings_are_refused_by_name_before_anything_is_written(tmp_path, recipes, args, message):
    result = CliRunner().invoke(main, ["league", *recipes, *args, "--out", str(tmp_path / "out")])
    assert result.exit_code != 0 and message in result.output, result.output
    assert not (tmp_path / "out").exists()


def test_a_league_needs_a_start_network_and_paths_a_pool_can_name(tmp_path, recipes):
    (tmp_path / "scratch.toml").write_text(TINY)
    for args, message in [
        (["--config", str(tmp_path / "scratch.toml"), "--out", str(tmp_path / "out")], "init_policy"),
        ([*recipes, "--out", str(tmp_path / "a,b")], "cannot hold ',' or '='"),
        ([*recipes, "--out", str(tmp_path / "lr=1")], "cannot hold ',' or '='"),
        (["--out", str(tmp_path / "out"), "--resume"], "nothing to resume"),
        ([*recipes, "--out", str(tmp_path / "out"), "--resume"], "leave out --config"),
        ([*recipes, "--out", str(tmp_path)], "is not empty"),
    ]:
        result = CliRunner().invoke(main, ["league", *args])
        assert result.exit_code != 0 and message in result.output, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["exploit.toml", "main.toml", "scratch.toml", "start.pt"]


def test_league_settings_are_checked_and_named():
    assert LeagueConfig(league_share=0.5).league_share == 0.5
    with pytest.raises(ConfigError, match="unknown setting.*rouns"):
        LeagueConfig.from_dict({"rouns": 2})
    with pytest.raises(ConfigError, match="rounds must be int"):
        LeagueConfig(rounds=1.5)
    with pytest.raises(ConfigError, match="not a table"):
        LeagueConfig.from_dict([1])


def test_the_recipe_starts_from_its_network_saved_by_its_absolute_path(tmp_path, monkeypatch):
    import shutil

    from agents.trained import POLICIES
    from training.learning import league

    monkeypatch.chdir(tmp_path)  # the recipe names its start relative to where it runs
    start = tmp_path / "runs/win-4p/policy.pt"
    start.parent.mkdir(parents=True)
    shutil.copy(POLICIES[4], start)
    start = start.resolve()
    (tmp_path / "league-4p.toml").write_text(
        'players = 4\ninit_policy = "runs/win-4p/policy.pt"\nsteps = 1572864\nnum_envs = 256\nbatch_size = 4096\n'
        'baselines = "heuristic=2"\nlearning_rate = 0.00003\nworkers = 1\n'
    )
    recipe = configs.read(tmp_path / "league-4p.toml")
    made = league.start(recipe, configs.TrainConfig(), LeagueConfig(), tmp_path / "out", echo=lambda *_: None)
    saved = configs.read(tmp_path / "out/config.toml")
    assert saved.init_policy == str(start) and saved.baselines == "heuristic=2"
    assert (saved.steps, saved.num_envs, saved.batch_size, saved.learning_rate) == (1_572_864, 256, 4096, 3e-5)
    exploiters = configs.read(tmp_path / "out/exploit.toml")
    assert (exploiters.net_arch, exploiters.workers, exploiters.num_envs) == ("256,256", 1, 32)  # tribune exploit's
    assert made.settings.rounds == 1 and made.network(0) == start


def started(tmp_path, monkeypatch, rounds: int = 1, baselines: str = "random=1"):
    """A league set up in tmp_path/out from a tiny network, nothing run yet."""
    from training.learning import league

    monkeypatch.chdir(tmp_path)
    start = tiny_network(tmp_path / "start.pt")
    main = configs.from_dict({"init_policy": "start.pt", "baselines": baselines, "net_arch": "16"})
    made = league.start(
        main, configs.TrainConfig(), LeagueConfig(rounds=rounds), tmp_path / "out", echo=lambda *_: None
    )
    return made, start


def test_the_exploiters_play_with_the_main_networks_shape_workers_and_precision(tmp_path, monkeypatch):
    from training.learning import league

    monkeypatch.chdir(tmp_path)
    tiny_network(tmp_path / "start.pt")
    main = configs.from_dict({"init_policy": "start.pt", "net_arch": "16", "workers": 1, "precision": "bfloat16"})
    league.start(main, configs.TrainConfig(), LeagueConfig(), tmp_path / "out", echo=lambda *_: None)
    exploiters = configs.read(tmp_path / "out/exploit.toml")
    assert (exploiters.net_arch, exploiters.workers, exploiters.precision) == ("16", 1, "bfloat16")


def test_the_pools_files_are_saved_by_their_absolute_paths(tmp_path, monkeypatch):
    """So that the league resumes from any directory."""
    _, start = started(tmp_path, monkeypatch, baselines="heuristic=2,policy:start.pt=1")
    saved = configs.read(tmp_path / "out/config.toml")
    assert saved.baselines == f"heuristic=2,policy:{start}=1" and saved.init_policy == str(start)


def test_a_resumed_league_keeps_at_least_its_rounds(tmp_path, monkeypatch):
    from training.learning import league

    started(tmp_path, monkeypatch, rounds=2)
    with pytest.raises(ConfigError, match="rounds cannot go below the league's 2"):
        league.resume(tmp_path / "out", {"rounds": 1})
    assert league.resume(tmp_path / "out", {"rounds": 3}).settings.rounds == 3


@pytest.mark.parametrize("summary", [{"rows": []}, {"rows": [{}, {}], "minutes": 1}, [1, 2]])
def test_a_damaged_exploiter_summary_is_refused_by_name(tmp_path, monkeypatch, summary):
    made, _ = started(tmp_path, monkeypatch)
    (tmp_path / "out/round-1/exploiter").mkdir(parents=True)
    (tmp_path / "out/round-1/exploiter/exploit.json").write_text(json.dumps(summary))
    with pytest.raises(ConfigError, match="exploit.json is not an exploiter's summary"):
        made.report()
