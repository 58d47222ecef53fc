"""Self-play training: a tiny run end to end, resume, evaluation, configuration, reward attribution."""

import json
import re

import numpy as np
import pytest
import tomllib
from click.testing import CliRunner
from conftest import csv_rows

pytest.importorskip("sb3_contrib")

from agents import make_agent  # noqa: E402
from agents.trained import POLICIES  # noqa: E402
from training.cli import main  # noqa: E402
from training.learning import config as configs  # noqa: E402
from training.learning import recipe  # noqa: E402
from training.learning.imitation import demonstrations, imitate, sb3_outputs  # noqa: E402
from tribune_env import ConfigError, Game, PlayerView  # noqa: E402
from tribune_env.envs import OpponentPool, VectorEnv  # noqa: E402

TINY = """
players = 2
steps = 100000
num_envs = 4
n_steps = 32
batch_size = 64
net_arch = "16"
imitation_games = 2
imitation_epochs = 1
snapshot_every = 256
eval_every = 256
eval_games = 2
checkpoint_every = 128
workers = 1
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A tiny run through the command line: file settings, a flag overriding the file's steps."""
    root = tmp_path_factory.mktemp("training")
    (root / "tiny.toml").write_text(TINY)
    out = root / "run"
    result = CliRunner().invoke(
        main, ["train", "--config", str(root / "tiny.toml"), "--out", str(out), "--steps", "512"]
    )
    assert result.exit_code == 0, result.output
    return out, result.output


def test_a_tiny_run_trains_checkpoints_evaluates_and_reports(run):
    out, output = run
    state = json.loads((out / "state.json").read_text())
    assert state["steps"] == 512
    assert state["snapshots"] == ["snapshots/step_256.zip", "snapshots/step_512.zip"]
    assert configs.read(out / "config.toml") == configs.from_dict(tomllib.loads(TINY)).replace(steps=512)
    evaluations = csv_rows(out / "evaluations.csv")
    assert [(r["steps"], r["opponent"]) for r in evaluations] == [
        ("256", "random"),
        ("256", "heuristic"),
        ("512", "random"),
        ("512", "heuristic"),
    ]
    assert all(int(r["games"]) == 2 for r in evaluations)
    assert [int(r["steps"]) for r in csv_rows(out / "training.csv")] == [128, 256, 384, 512]
    assert len(csv_rows(out / "imitation.csv")) == 1
    for name in ("checkpoint.zip", "best_model.zip", "model.zip", "learning_curve.png", "progress.csv"):
        assert (out / name).stat().st_size > 0, name
    assert any((out / "tensorboard").rglob("events.out.tfevents.*"))
    assert "win rate [95% CI]" in output and "learning curve" in output


def test_scheduled_events_come_after_the_update_so_a_step_labels_the_model_trained_on_it(run):
    """The snapshot and evaluation at step 512 fall after the last rollout's update, as the final model."""
    from sb3_contrib import MaskablePPO

    out, _ = run
    final = MaskablePPO.load(out / "model.zip").policy.state_dict()
    snapshot = MaskablePPO.load(out / "snapshots" / "step_512.zip").policy.state_dict()
    assert all(np.array_equal(final[k], snapshot[k]) for k in final)
    assert json.loads((out / "state.json").read_text())["evaluated"] == 512


def test_the_trained_model_plays_as_an_agent_and_in_a_tournament(run):
    out, _ = run
    agent = make_agent(f"model:{out / 'best_model.zip'},trust=true")
    game = Game(2, seed=3, log=False)
    while not game.is_over:
        seat = game.current_player
        game.step(agent.act(game.observe(seat), game.legal_mask(), PlayerView(game, seat)))
    result = CliRunner().invoke(
        main, ["tournament", f"model:{out / 'model.zip'},trust=true", "random", "--games", "2", "--workers", "1"]
    )
    assert result.exit_code == 0, result.output


def test_a_model_agent_travels_to_a_worker_process_as_its_file(run):
    import pickle

    out, _ = run
    agent = make_agent(f"model:{out / 'model.zip'},trust=true", seed=5)
    copy = pickle.loads(pickle.dumps(agent))
    game = Game(2, seed=1, log=False)
    obs, mask = game.observe(game.current_player)[None], game.legal_mask()[None]
    assert np.array_equal(copy.probabilities(obs, mask), agent.probabilities(obs, mask))
    assert copy.rng.random() == agent.rng.random()  # its generator travels too
    from agents.model import ModelAgent

    with pytest.raises(TypeError, match="give it a path"):
        pickle.dumps(ModelAgent(model=agent.model))


def test_a_run_on_two_processes_trains_against_its_snapshots(run, tmp_path):
    """workers = 2 splits the learner's games over two processes; snapshots reach both. It evaluates
    once, against one opponent: each evaluation on two processes starts them anew."""
    (tmp_path / "two.toml").write_text(
        TINY.replace("workers = 1", "workers = 2")
        .replace("imitation_games = 2", "imitation_games = 0")
        .replace("eval_every = 256", 'eval_every = 0\neval_opponents = "random"')
    )
    result = CliRunner().invoke(
        main,
        [
            "train",
            "--config",
            str(tmp_path / "two.toml"),
            "--out",
            str(tmp_path / "run"),
            "--steps",
            "768",
            "--baselines",
            "random=0.001",
        ],
    )
    assert result.exit_code == 0, result.output
    state = json.loads((tmp_path / "run" / "state.json").read_text())
    assert state["steps"] == 768 and len(state["snapshots"]) == 3
    assert [int(r["steps"]) for r in csv_rows(tmp_path / "run" / "training.csv")] == [128 * k for k in range(1, 7)]
    from training.learning.selfplay import Trainer
    from training.learning.shards import ShardedVectorEnv

    env = Trainer(configs.read(tmp_path / "two.toml"), tmp_path / "probe")._env(steps=0)
    try:  # the run's games were on two processes
        assert isinstance(env, ShardedVectorEnv) and len(env._workers) == 2 and env.num_envs == 4
    finally:
        env.close()


@pytest.mark.parametrize("net_arch", ["16", "40"])
def test_a_run_starts_from_a_policy_file_trained_at_another_table_size(run, tmp_path, net_arch):
    """init_policy: the 3-player run's network is the 2-player run's policy file, before any step;
    a wider network plays as the file's (its extra units silent) and learns from there."""
    from agents.policy import PolicyAgent
    from training.learning.selfplay import Trainer

    policy = run[0] / "policy.pt"
    assert PolicyAgent(path=str(policy)).players == (2,)  # the table size it was trained at
    config = configs.from_dict(tomllib.loads(TINY)).replace(
        players=3, init_policy=str(policy), imitation_games=0, net_arch=net_arch
    )
    env = VectorEnv(num_envs=2, num_players=3, opponents="random", seed=0)
    model = Trainer(config, tmp_path / "from-2p")._model(env)
    game, rng, agent = Game(3, seed=5), np.random.default_rng(5), PolicyAgent(path=str(policy))
    for _ in range(60):
        obs, mask = game.observe(game.current_player)[None], game.legal_mask()[None].astype(bool)
        ours = model.policy.get_distribution(model.policy.obs_to_tensor(obs)[0], action_masks=mask)
        np.testing.assert_allclose(ours.distribution.probs.detach().numpy(), agent.probabilities(obs, mask), atol=1e-6)
        values = model.policy.predict_values(model.policy.obs_to_tensor(obs)[0]).detach().numpy().ravel()
        np.testing.assert_allclose(values, agent.value(obs), atol=1e-6)
        game.step(int(rng.choice(game.legal_actions())))
    if net_arch == "40":
        assert model.policy.mlp_extractor.policy_net[0].weight.detach()[16:].abs().min() > 0  # trainable units
        assert not model.policy.action_net.weight.detach()[:, 16:].any()
        model.learn(64)
        assert model.policy.action_net.weight.detach()[:, 16:].abs().max() > 0  # their outgoing weights move


@pytest.mark.parametrize("net_arch", ["8", "16,16"])
def test_a_policy_file_starts_no_narrower_or_deeper_network(run, tmp_path, net_arch):
    from training.learning.selfplay import Trainer

    config = configs.from_dict(tomllib.loads(TINY)).replace(init_policy=str(run[0] / "policy.pt"), net_arch=net_arch)
    env = VectorEnv(num_envs=2, num_players=2, opponents="random", seed=0)
    message = r"has layers \[16\], the run's network \[.*\] \(net_arch\): it needs as many layers, none narrower"
    with pytest.raises(ConfigError, match=message):
        Trainer(config, tmp_path / "other")._model(env)


def test_a_run_starts_from_its_policy_file_before_imitating_and_resumes_without_it(run, tmp_path, monkeypatch):
    """The imitation of the heuristic fine-tunes the file's network (at imitation_learning_rate, in
    minibatches of imitation_batch_size); a resumed run needs only its checkpoint."""
    import shutil

    from training.learning import imitation, selfplay

    start = tmp_path / "start.pt"
    shutil.copy(run[0] / "policy.pt", start)
    (tmp_path / "from.toml").write_text(
        TINY + f'init_policy = "{start}"\nimitation_learning_rate = 2e-4\nimitation_batch_size = 64\n'
    )
    order, fitted = [], []
    model, warm_start, imitate = selfplay.Trainer._model, selfplay.Trainer.warm_start, imitation.imitate
    monkeypatch.setattr(selfplay.Trainer, "_model", lambda self, env: order.append("start") or model(self, env))
    monkeypatch.setattr(
        selfplay.Trainer, "warm_start", lambda self, *a: order.append("imitate") or warm_start(self, *a)
    )
    monkeypatch.setattr(imitation, "imitate", lambda *a: fitted.append(a[4:6]) or imitate(*a))
    command = ["train", "--config", str(tmp_path / "from.toml"), "--out", str(tmp_path / "run"), "--steps", "128"]
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 0, result.output
    assert "the network starts from" in result.output and order == ["start", "imitate"]
    assert "recording 2 heuristic self-play games" in result.output and fitted == [(64, 2e-4)]
    start.unlink()
    resumed = CliRunner().invoke(main, ["train", "--out", str(tmp_path / "run"), "--resume", "--steps", "256"])
    assert resumed.exit_code == 0, resumed.output
    assert json.loads((tmp_path / "run" / "state.json").read_text())["steps"] == 256
    other = CliRunner().invoke(main, ["train", "--out", str(tmp_path / "run"), "--resume", "--init-policy", "x.pt"])
    assert other.exit_code != 0 and "cannot change init_policy" in other.output


def test_a_run_at_several_table_sizes_plays_each_stage_at_its_size_and_resumes_mid_cycle(tmp_path, monkeypatch):
    """table_sizes '3,4' with stage_steps 128 (one rollout): 3, 4, 3, 4 players; a resumed run at 256 plays 3."""
    from training.learning import selfplay

    played = []
    make_env = selfplay.Trainer._env

    def recording(self, steps):
        env = make_env(self, steps)
        played.append((steps, env.num_players))
        return env

    monkeypatch.setattr(selfplay.Trainer, "_env", recording)
    (tmp_path / "tables.toml").write_text(TINY.replace("imitation_games = 2", 'table_sizes = "3,4"\nstage_steps = 128'))
    out = str(tmp_path / "run")
    first = CliRunner().invoke(
        main, ["train", "--config", str(tmp_path / "tables.toml"), "--out", out, "--steps", "256"]
    )
    assert first.exit_code == 0, first.output
    assert "games at 3,4 players in turn, 128 steps each" in first.output and "4 players from step 128" in first.output
    resumed = CliRunner().invoke(main, ["train", "--out", out, "--resume", "--steps", "512"])
    assert resumed.exit_code == 0, resumed.output
    assert played == [(0, 3), (128, 4), (256, 3), (384, 4)]
    assert re.search(r"^heuristic +2 +2 ", resumed.output, re.M)  # evaluated at players (TINY's 2), not at a stage's
    changed = CliRunner().invoke(main, ["train", "--out", out, "--resume", "--table-sizes", "4,3"])
    assert changed.exit_code != 0 and "cannot change table_sizes ('3,4' -> '4,3')" in changed.output


def test_an_annealed_learning_rate_falls_linearly_over_the_run_and_over_its_extension(tmp_path):
    """learning_rate 0.001, anneal 0.5: after each rollout of 128 decisions the rate is
    0.001 x (1 - 0.5 x done / steps); a resume to 768 steps stretches the fall over them. (sb3
    logs an update's rate with the next rollout, so a segment's last update is not in its log.)"""
    (tmp_path / "anneal.toml").write_text(TINY.replace("imitation_games = 2", "learning_rate = 0.001\nanneal = 0.5"))
    out = tmp_path / "run"
    first = CliRunner().invoke(
        main, ["train", "--config", str(tmp_path / "anneal.toml"), "--out", str(out), "--steps", "384"]
    )
    assert first.exit_code == 0, first.output
    resumed = CliRunner().invoke(main, ["train", "--out", str(out), "--resume", "--steps", "768"])
    assert resumed.exit_code == 0, resumed.output
    rates = [float(row["train/learning_rate"]) for name in ("progress.csv", "progress-resumed-1.csv")
             for row in csv_rows(out / name) if row["train/learning_rate"]]  # fmt: skip
    assert rates == pytest.approx([0.001 * (1 - 0.5 * d) for d in (1 / 3, 2 / 3, 2 / 3, 5 / 6)])


def test_a_bfloat16_run_updates_in_bfloat16_resumes_so_and_writes_a_policy_file_that_plays(tmp_path, monkeypatch):
    """precision = "bfloat16": every update runs with the towers in bfloat16, in the first segment
    and the resumed one (whose checkpoint, like a float32 run's, names MaskablePPO's policy class
    where runs before this setting did: it still loads); the policy file plays a legal game."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from agents import make_agent
    from training.learning.learner import Learner, Towers

    seen = []
    train = Learner.train

    def update(self):
        seen.append(isinstance(self.policy.mlp_extractor, Towers) and self.policy.mlp_extractor.bfloat16)
        return train(self)

    monkeypatch.setattr(Learner, "train", update)
    (tmp_path / "bf16.toml").write_text(TINY.replace("imitation_games = 2", 'precision = "bfloat16"'))
    out = tmp_path / "run"
    first = CliRunner().invoke(
        main, ["train", "--config", str(tmp_path / "bf16.toml"), "--out", str(out), "--steps", "256"]
    )
    assert first.exit_code == 0, first.output
    earlier = Learner.load(out / "checkpoint.zip", custom_objects={"policy_class": MaskableActorCriticPolicy})
    earlier.save(out / "checkpoint.zip")  # as a run before the Towers wrote it
    resumed = CliRunner().invoke(main, ["train", "--out", str(out), "--resume", "--steps", "512"])
    assert resumed.exit_code == 0, resumed.output
    assert seen == [True] * 4
    agent, game = make_agent(f"policy:{out / 'policy.pt'}"), Game(2, seed=3)
    while not game.is_over:
        game.step(
            agent.act(game.observe(game.current_player), game.legal_mask(), PlayerView(game, game.current_player))
        )


def test_the_per_card_win_rates_are_logged_and_their_counts_resume(tmp_path):
    """At 3 players: the per-card rates go to the log, their counts to state.json, and a resumed
    run goes on from them."""
    (tmp_path / "cards.toml").write_text(
        TINY.replace("players = 2", "players = 3").replace("imitation_games = 2", "imitation_games = 0")
    )
    out = tmp_path / "run"
    first = CliRunner().invoke(
        main, ["train", "--config", str(tmp_path / "cards.toml"), "--out", str(out), "--steps", "384"]
    )
    assert first.exit_code == 0, first.output
    counts = json.loads((out / "state.json").read_text())["cards"]
    assert counts and all(0 <= wins <= games for wins, games in counts.values())
    assert set(counts) <= set(Game(3).config.fitting_cards())
    logged = {name for name in csv_rows(out / "progress.csv")[0] if name.startswith("cards/")}
    assert logged == {f"cards/{card}" for card in Game(3).config.fitting_cards()}
    resumed = CliRunner().invoke(main, ["train", "--out", str(out), "--resume", "--steps", "512"])
    assert resumed.exit_code == 0, resumed.output
    again = json.loads((out / "state.json").read_text())["cards"]
    assert sum(games for _, games in again.values()) > sum(games for _, games in counts.values()) * 0.9 - 1e-9


def test_a_new_run_from_a_missing_policy_file_is_refused_before_writing(tmp_path):
    from training.learning.selfplay import Trainer

    config = configs.from_dict(tomllib.loads(TINY)).replace(init_policy=str(tmp_path / "missing.pt"))
    with pytest.raises(ConfigError, match="init_policy '.*missing.pt' names no file"):
        Trainer(config, tmp_path / "run")
    assert not (tmp_path / "run").exists()


def test_a_run_resumes_from_its_checkpoint_and_continues_its_logs(run, tmp_path):
    import shutil

    out = tmp_path / "run"
    shutil.copytree(run[0], out)
    with open(out / "training.csv", "a") as log:  # a rollout past the checkpoint, lost in a crash
        log.write("640,1,0.0,-1.0,100.0\n")
    result = CliRunner().invoke(
        main, ["train", "--out", str(out), "--resume", "--steps", "768", "--learning-rate", "0.0002"]
    )
    assert result.exit_code == 0, result.output
    state = json.loads((out / "state.json").read_text())
    assert state["steps"] == 768 and state["segments"] == 1
    assert state["snapshots"][-1] == "snapshots/step_768.zip"
    assert [int(r["steps"]) for r in csv_rows(out / "training.csv")] == [128, 256, 384, 512, 640, 768]
    assert (out / "progress-resumed-1.csv").exists()
    from sb3_contrib import MaskablePPO

    resumed = MaskablePPO.load(out / "checkpoint.zip")
    assert resumed.num_timesteps == 768 and resumed.learning_rate == 0.0002  # flags apply on resume
    assert configs.read(out / "config.toml").steps == 768


@pytest.mark.parametrize("snapshot", ["../../elsewhere/step_1.zip", "/tmp/step_1.zip", "snapshots/link.zip"])
def test_a_resumed_run_loads_no_snapshot_outside_its_directory(run, tmp_path, snapshot):
    """state.json may name only files of the run: a model file runs code when loaded."""
    import shutil

    from training.learning.selfplay import Trainer

    out = tmp_path / "run"
    shutil.copytree(run[0], out)
    (out / "snapshots" / "link.zip").symlink_to(out / ".." / "elsewhere.zip")
    state = json.loads((out / "state.json").read_text())
    state["snapshots"].append(snapshot)
    (out / "state.json").write_text(json.dumps(state))
    with pytest.raises(ConfigError, match=f"snapshot '{snapshot}' lies outside the run's directory"):
        Trainer(configs.read(out / "config.toml"), out, resume=True)


@pytest.mark.parametrize(
    "text, problem",
    [
        ("[" * 100_000, "nested more than 32 levels deep"),
        (
            '{"steps": -1, "segments": 0, "seconds": 1.0, "snapshots": [], "best": null}',
            "steps is missing or malformed",
        ),
        ('{"steps": 1, "segments": 0, "seconds": 1.0, "snapshots": [3], "best": null}', "snapshots is missing"),
        ('{"steps": 1, "segments": 0, "seconds": 1.0, "snapshots": [], "best": {"steps": 1}}', "best is missing"),
        (
            '{"steps": 1, "segments": 0, "seconds": 1.0, "snapshots": [], "best": null, "cards": {"pax-romana": [2, 1]}}',
            "cards is missing or malformed",
        ),
    ],
)
def test_a_bad_run_state_is_refused_naming_the_problem(run, tmp_path, text, problem):
    import shutil

    from training.learning.selfplay import Trainer

    out = tmp_path / "run"
    shutil.copytree(run[0], out)
    (out / "state.json").write_text(text)
    with pytest.raises(ConfigError, match=problem):
        Trainer(configs.read(out / "config.toml"), out, resume=True)


def test_evaluate_reports_win_rates_with_intervals(run, tmp_path):
    out, _ = run
    result = CliRunner().invoke(
        main,
        [
            "evaluate",
            str(out / "model.zip"),
            "--trust-model-files",
            "--opponents",
            "random,heuristic",
            "--games",
            "4",
            "--workers",
            "1",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    saved = json.loads((tmp_path / "evaluation.json").read_text())
    assert [r["opponent"] for r in saved["rows"]] == ["random", "heuristic"]
    for r in saved["rows"]:
        assert r["games"] == 4 and r["win_ci"][0] <= r["win_rate"] <= r["win_ci"][1]
    assert (tmp_path / "evaluation.png").stat().st_size > 0


def test_evaluate_takes_opponents_with_several_options(run):
    out, _ = run
    result = CliRunner().invoke(
        main,
        [
            "evaluate",
            str(out / "model.zip"),
            "--trust-model-files",
            "--opponents",
            "ismcts:iterations=4,seconds=0",
            "--games",
            "2",
            "--workers",
            "1",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "ismcts:iterations=4,seconds=0" in result.output


def test_evaluate_plays_a_policy_file_as_the_agent_its_format_names(run, tmp_path):
    out, _ = run
    arguments = ["--opponents", "random", "--games", "2", "--workers", "1"]
    result = CliRunner().invoke(main, ["evaluate", str(out / "policy.pt"), *arguments])
    assert result.exit_code == 0, result.output
    assert "random" in result.output and "win rate" in result.output
    (tmp_path / "other.pt").write_bytes((out / "model.zip").read_bytes())
    refused = CliRunner().invoke(main, ["evaluate", str(tmp_path / "other.pt"), *arguments])
    assert refused.exit_code == 1 and "is not a Tribune or RLlib policy file" in refused.output


def test_a_run_that_stopped_before_its_first_checkpoint_does_not_block_the_same_command(tmp_path, monkeypatch):
    """What a failed start left (its config.toml, an empty snapshots/) is cleared by the next start."""
    from training.learning import selfplay

    out = tmp_path / "run"

    def fail(self, model, start):
        raise RuntimeError("the machine ran out of something")

    monkeypatch.setattr(selfplay.Trainer, "_before_learning", fail)
    args = ["train", "--out", str(out), "--steps", "64", "--num-envs", "2", "--eval-games", "1", "--workers", "1"]
    assert CliRunner().invoke(main, args).exit_code != 0
    assert (out / "config.toml").exists() and not (out / "state.json").exists()
    monkeypatch.undo()
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "clearing a run that stopped before its first checkpoint" in result.output
    assert (out / "state.json").exists()


def test_a_run_is_not_overwritten_and_nothing_is_resumed_from_nowhere(run, tmp_path):
    out, _ = run
    result = CliRunner().invoke(main, ["train", "--out", str(out), "--steps", "64"])
    assert result.exit_code != 0 and "already holds a run" in result.output
    result = CliRunner().invoke(main, ["train", "--out", str(tmp_path / "none"), "--resume"])
    assert result.exit_code != 0 and "nothing to resume" in result.output


def test_a_resumed_run_keeps_its_network_games_and_evaluation_and_a_refusal_changes_nothing(run):
    out, _ = run
    files = {path: path.read_bytes() for path in out.iterdir() if path.is_file()}
    result = CliRunner().invoke(main, ["train", "--out", str(out), "--resume", "--net-arch", "8,8"])
    assert result.exit_code != 0 and "cannot change net_arch ('16' -> '8,8')" in result.output
    result = CliRunner().invoke(main, ["train", "--out", str(out), "--resume", "--eval-games", "4", "--seed", "1"])
    assert result.exit_code != 0 and "cannot change seed (0 -> 1), eval_games (2 -> 4)" in result.output
    assert {path: path.read_bytes() for path in out.iterdir() if path.is_file()} == files


@pytest.mark.parametrize(
    "text, problem",
    [
        ("players = 6", "players must be 2 to 5"),
        ("stepz = 10", "unknown setting(s) stepz"),
        ("steps = '10'", "steps must be int"),
        ("reward = 'points'", "reward must be one of"),
        ("baselines = 'heuristic=0'", "needs a spec and a positive finite weight"),
        ("baselines = 'heuristic'", "is not spec=weight"),
        ("net_arch = '64,x'", "net_arch '64,x'"),
        ("baselines = 'heurstic=1'", "unknown agent 'heurstic'"),
        ("eval_opponents = 'random,ismcts:depth'", "not key=value"),
        ("advisor = 'heuristic'", "unknown setting(s) advisor"),
        ("players = ", "not valid TOML"),
        ("table_sizes = '3,6'", "table_sizes '3,6' is not player counts from 2 to 5 like '5,3,4'"),
        ("table_sizes = '3;4'", "table_sizes '3;4' is not player counts"),
        ("table_sizes = '4'\nbackend = 'rllib'", "the rllib backend trains at one table size"),
        ("stage_steps = 0", "stage_steps must be 1 to 10,000,000,000"),
        ("a = " + "[" * 100_000 + "]" * 100_000, "nested more than 32 levels deep"),
        (
            'net_arch = "[[[["  # [[[[\nplayers = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
            "nested more than 32 levels deep",
        ),
        (b"seed = 1  # \xff", "is not UTF-8 text (byte 0xff at offset 12)"),
        ("seed = -1", "seed must be 0 to 4,294,967,295, got -1"),
        (f"eval_every = {2**63}", "eval_every must be 0 to 10,000,000,000, got 9223372036854775808"),
        (f"checkpoint_every = {2**63}", "checkpoint_every must be 1 to 10,000,000,000"),
        (f"learning_rate = {10**400}", "learning_rate is out of range"),
        ("learning_rate = nan", "learning_rate must be above 0 up to 1, got nan"),
        ("learning_rate = inf", "learning_rate must be above 0 up to 1, got inf"),
        ("snapshot_weight = inf", "snapshot_weight must be above 0 up to 1,000,000, got inf"),
        ("gamma = nan", "gamma must be 0 to 1, got nan"),
        ("num_envs = 100000000", "num_envs must be 1 to 1,024"),
        ("workers = 100000", "workers must be 0 to 64"),
        ("imitation_games = 1000000", "imitation_games must be 0 to 10,000"),
        ("eval_games = 1000000000", "eval_games must be 1 to 100,000"),
        ("num_envs = 1024\nn_steps = 1024", "n_steps x num_envs must be at most 65,536"),
        ("net_arch = '100000'", "net_arch '100000' must have 1 to 4 layers of at most 512"),
        ("net_arch = '8,8,8,8,8'", "must have 1 to 4 layers"),
        ("baselines = 'heuristic=inf'", "needs a spec and a positive finite weight"),
        ("eval_opponents = 'ismcts:seconds=nan'", "ismcts: seconds must be a number from 0 to 3,600, got nan"),
        ("eval_opponents = 'heuristic:depth=2'", "agent 'heuristic' has no option 'depth'"),
        ("baselines = 'policy:missing.pt=1'", "'policy:missing.pt' names no file"),
        (
            f"init_policy = '{POLICIES[4]}'\nbackend = 'rllib'",
            "init_policy starts a MaskablePPO network (backend = .sb3.)",
        ),
        ("imitation_learning_rate = 0", "imitation_learning_rate must be above 0 up to 1, got 0"),
        ("card_focus = 0.5", "unknown setting(s) card_focus"),
        ("anneal = 1.5", "anneal must be 0 to 1, got 1.5"),
        ("anneal = 0.5\nbackend = 'rllib'", "the rllib backend keeps learning_rate constant"),
        ("precision = 'float16'", "precision must be one of ('float32', 'bfloat16'), got 'float16'"),
        ("precision = 'bfloat16'\nbackend = 'rllib'", "the rllib backend multiplies in float32"),
    ],
)
def test_bad_config_files_are_refused_naming_the_problem(tmp_path, text, problem):
    path = tmp_path / "bad.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(ConfigError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        configs.read(path)


def test_a_config_file_too_large_is_refused_unread():
    with pytest.raises(ConfigError, match="/dev/zero is larger than 1 MB"):
        configs.read("/dev/zero")


def test_a_bad_flag_value_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(main, ["train", "--out", str(tmp_path / "r"), "--players", "1"])
    assert result.exit_code != 0 and "players must be 2 to 5" in result.output
    assert not (tmp_path / "r").exists()


def test_a_run_saved_with_retired_settings_at_their_idle_values_still_reads(tmp_path):
    """Runs saved while the settings had an advisor and a card focus say advisor = "" and
    card_focus = 0.0: read as if they were not there."""
    (tmp_path / "old.toml").write_text(TINY + 'advisor = ""\ncard_focus = 0.0\n')
    (tmp_path / "new.toml").write_text(TINY)
    assert configs.read(tmp_path / "old.toml") == configs.read(tmp_path / "new.toml")


def test_config_files_round_trip(tmp_path):
    weird = tmp_path / 'C:\\runs\\"a".zip'  # backslashes and quotes in a file name, escaped in TOML
    weird.write_bytes(b"")  # the config finds the file; what it holds is read when it is loaded
    config = configs.TrainConfig(
        players=3,
        learning_rate=1e-5,
        baselines="random=0.5,ismcts:iterations=8=1",
        eval_opponents=f"model:{weird}",
    )
    configs.write(config, tmp_path / "c.toml")
    assert configs.read(tmp_path / "c.toml") == config
    assert config.pool() == [("random", 0.5), ("ismcts:iterations=8", 1.0)]


def test_evaluation_opponents_keep_their_options():
    config = configs.TrainConfig(eval_opponents="random, ismcts:iterations=8,seconds=0,heuristic")
    assert config.evaluation_specs() == ["random", "ismcts:iterations=8,seconds=0", "heuristic"]


def test_the_learner_receives_its_own_final_reward_losses_included():
    """Every finished game pays the learner +1 if it won and -1 if it lost (2 players, 'win'); one cut at
    the round limit has no winner and pays by the score."""
    env = VectorEnv(
        num_envs=6,
        num_players=2,
        opponents=OpponentPool(["random", make_agent("heuristic", seed=0)]),
        reward="win",
        seed=5,
    )
    env.reset()
    rng = np.random.default_rng(0)
    paid = []
    while len(paid) < 40:
        masks = env.action_masks()
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        _, rewards, dones, infos = env.step(np.array(actions))
        for reward, done, info in zip(rewards, dones, infos):
            if not done:
                assert reward == 0
                continue
            if info["TimeLimit.truncated"]:  # no winner: paid by the score, whatever the scheme
                points = np.asarray(info["scores"], dtype=float)
                by_score = (points - points.mean()) / max(1.0, points.max() - points.min())
                assert reward == pytest.approx(by_score[info["learner_seat"]])
                continue
            won = info["learner_seat"] in info["winners"]
            assert reward == (1.0 if won else -1.0)
            paid.append(reward)
    assert min(paid) == -1.0 and max(paid) == 1.0  # losses and wins both reached the learner


def test_imitation_fits_the_heuristic_choices():
    """After imitation the network picks the heuristic's choice far more often than chance."""
    from sb3_contrib import MaskablePPO

    data = demonstrations(12, players=2, reward="win", seed=1)
    assert set(np.unique(data.returns)) == {-1.0, 1.0}
    assert all(m[a] for m, a in zip(data.masks, data.actions))
    model = MaskablePPO(
        "MlpPolicy", VectorEnv(num_envs=1, num_players=2, seed=0), seed=0, policy_kwargs={"net_arch": [64]}
    )
    history = imitate(
        model.policy, sb3_outputs(model.policy), data, epochs=8, batch_size=64, learning_rate=3e-3, seed=0
    )
    chance = float(np.mean(1.0 / data.masks.sum(axis=1)))
    assert history[-1]["accuracy"] > 1.5 * chance


def test_imitation_loss_is_maskableppo_own_log_likelihood():
    """The policy loss is exactly minus the mean log-probability MaskablePPO's distribution gives the choices."""
    import torch
    from sb3_contrib import MaskablePPO

    from training.learning.imitation import _losses

    data = demonstrations(1, players=2, reward="win", seed=3)
    model = MaskablePPO("MlpPolicy", VectorEnv(num_envs=1, num_players=2, seed=0), seed=0)
    rows = np.arange(len(data))
    tensors = {k: torch.as_tensor(getattr(data, k)) for k in ("observations", "actions", "returns")}
    with torch.no_grad():
        _, parts = _losses(sb3_outputs(model.policy), tensors, data.masks, rows)
        distribution = model.policy.get_distribution(tensors["observations"], action_masks=data.masks)
        expected = -distribution.log_prob(tensors["actions"]).mean().item()
    assert parts["policy_loss"] == expected


def test_demonstrations_do_not_depend_on_the_number_of_workers():
    one = demonstrations(3, players=3, reward="rank", seed=2, workers=1)
    two = demonstrations(3, players=3, reward="rank", seed=2, workers=2)
    assert np.array_equal(one.actions, two.actions) and np.array_equal(one.returns, two.returns)


def test_every_recipe_in_training_configs_is_a_valid_config(monkeypatch):
    """training/configs holds the shipped networks' recipes, the quick one and the RLlib ones; each
    reads as its comment says to run it (from the repository's root) and starts from a shipped
    network or from nothing, never from a run that another recipe would have to make first."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    monkeypatch.chdir(root)
    recipes = sorted((root / "training" / "configs").glob("*.toml"))
    assert {path.stem for path in recipes} == {"2p", "3p", "4p", "5p", "quick", "rllib-2p", "rllib-4p"}
    shipped = {str(path.relative_to(root)) for path in POLICIES.values()}
    for path in recipes:
        if "[[stage]]" in path.read_text():  # a recipe of stages (tests/test_recipe.py)
            recipe.read(path)
            continue
        start = configs.read(path).init_policy  # a ConfigError names the recipe and its problem
        assert start in shipped | {""}, f"{path.name} starts from {start}"


def test_the_readme_commands_are_the_main_job_and_ci():
    """The first README command trains from a valid config; the second is what .ci/run runs."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text()
    first, second = re.findall(r"```bash\n((?:\(command -v chromium .*?\) && )?python3 -m venv .*?)\n```", readme)[:2]
    config = re.search(r"tribune train --config (\S+)", first).group(1)
    assert configs.read(root / config).steps > 0
    assert second in (root / ".ci/run").read_text()
