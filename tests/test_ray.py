"""Training and tournaments on Ray: a local Ray, a killed worker, and a cluster of two nodes.

Ray is started by the tests themselves (a local Ray per module, a two-node cluster for
the last tests), and shut down after them. Worker processes load the compiled engine and
heuristic from the compile cache (``training.cluster`` passes it on), which this module
fills first in its own process: the suite starts this file at once (``LONGEST_FIRST``), and
with the cache empty every worker would compile both at once, twice the processor time of one
compile.
"""

import json
import os
import signal
import subprocess
import threading
import time

import numpy as np
import pytest
from click.testing import CliRunner

ray = pytest.importorskip("ray")  # the ray extra: the full tier

from training.arena import tournament  # noqa: E402
from training.cli import main  # noqa: E402
from training.learning import config as configs  # noqa: E402
from training.learning.baselines import settings  # noqa: E402
from training.rllib import trainer  # noqa: E402

DETERMINED = ("seat_think", "node")  # what a game's result holds beyond what its seed decides


def outcome(results: list) -> list:
    return [{k: v for k, v in r.items() if k not in DETERMINED} for r in results]


# A few PPO iterations: 2 players, one env runner, a short evaluation.
TINY = dict(
    backend="rllib",
    players=2,
    steps=1200,
    num_envs=2,
    n_steps=256,
    batch_size=128,
    n_epochs=1,
    net_arch="32",
    env_runners=1,
    baselines="random=1,heuristic=1",
    snapshot_every=600,
    eval_every=1000,
    eval_games=4,
    checkpoint_every=1000,
    workers=1,
)


def tiny(**changes) -> configs.TrainConfig:
    return configs.TrainConfig(**{**TINY, **changes})


@pytest.fixture(scope="module", autouse=True)
def compiled_here():
    """The engine and the heuristic compiled (or loaded) in this process, before any worker starts."""
    tournament.run(["heuristic", "random"], 1, 0, settings(2), workers=1, progress_bar=False)


@pytest.fixture(scope="module")
def local_ray():
    from training.cluster import connect

    ray.shutdown()
    yield connect("local")
    ray.shutdown()


def running_game_workers() -> list[int]:
    """Pids of the Ray worker processes playing a game now (their title is ``ray::_call``)."""
    listing = subprocess.run(["ps", "-eo", "pid=,args="], capture_output=True, text=True).stdout
    return [int(line.split()[0]) for line in listing.splitlines() if "ray::_call" in line]


def test_a_tournament_on_ray_gives_the_process_pools_results(local_ray):
    specs, game = ["heuristic", "random", "random"], settings(3)
    local = tournament.run(specs, 6, 5, game, workers=2)
    on_ray = tournament.run(specs, 6, 5, game, ray_address="local")
    assert outcome(on_ray) == outcome(local)
    assert all(r["node"] == ray.get_runtime_context().get_node_id() for r in on_ray)
    summary = tournament.summarize(on_ray, specs, 5, game)
    assert summary["timing"]["games_per_node"] == {on_ray[0]["node"]: 6}


def test_a_killed_tournament_worker_loses_nothing(local_ray):
    """A worker process is killed while it plays; its game is played again, and the
    tournament ends with the same results as one without the fault."""
    specs, game = ["heuristic", "heuristic"], settings(2)
    killed = []

    def kill_one():
        deadline = time.monotonic() + 120
        while not killed and time.monotonic() < deadline:
            for pid in running_game_workers():
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                break
            time.sleep(0.05)

    killer = threading.Thread(target=kill_one)
    killer.start()
    faulty = tournament.run(specs, 48, 9, game, ray_address="local")  # enough games to be caught playing one
    killer.join()
    assert killed, "no game was running to kill"
    assert outcome(faulty) == outcome(tournament.run(specs, 48, 9, game, workers=2))


def test_tiny_rllib_training_resumes_and_its_policy_plays_everywhere(local_ray, tmp_path):
    out = tmp_path / "run"
    runner = CliRunner()
    flags = [item for key, value in TINY.items() for item in (f"--{key.replace('_', '-')}", str(value))]
    warm = ["--imitation-games", "2", "--imitation-epochs", "1"]
    result = runner.invoke(main, ["train", *flags, *warm, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "win rate [95% CI]" in result.output and "best policy" in result.output
    assert "imitation: held-out accuracy" in result.output
    state = json.loads((out / "state.json").read_text())
    assert state["steps"] >= 1200 and state["best"] is not None
    assert len(state["snapshots"]) >= 2 and all((out / p).exists() for p in state["snapshots"])
    for name in (
        "best_policy.pt",
        "policy.pt",
        "learning_curve.png",
        "evaluations.csv",
        "training.csv",
        "progress.csv",
    ):
        assert (out / name).exists(), name
    assert (out / "checkpoint" / "rllib_checkpoint.json").exists()
    evaluations = (out / "evaluations.csv").read_text().splitlines()
    assert evaluations[0].startswith("steps,opponent,games,win_rate,low,high")

    resumed = runner.invoke(main, ["train", "--out", str(out), "--resume", "--steps", "2400"])
    assert resumed.exit_code == 0, resumed.output
    state = json.loads((out / "state.json").read_text())
    assert state["steps"] >= 2400 and state["segments"] == 1
    assert "imitation" not in resumed.output  # a resumed run keeps its weights
    assert len((out / "imitation.csv").read_text().splitlines()) == 2

    policy = str(out / "best_policy.pt")
    played = runner.invoke(main, ["tournament", f"rllib:{policy}", "random", "--games", "2", "--workers", "1"])
    assert played.exit_code == 0, played.output
    evaluated = runner.invoke(main, ["evaluate", policy, "--opponents", "random", "--games", "2", "--workers", "1"])
    assert evaluated.exit_code == 0 and "random" in evaluated.output, evaluated.output
    lines = "1\n" * 3000
    person = runner.invoke(
        main,
        ["play", "--players", "2", "--opponents", f"rllib:{policy}", "--round-limit", "2", "--seed", "1"],
        input=lines,
    )
    assert person.exit_code == 0 and f"player_1: rllib:{policy}" in person.output, person.output
    assert "Game over:" in person.output
    on_ray = runner.invoke(
        main, ["evaluate", policy, "--opponents", "random", "--games", "2", "--ray-address", "local"]
    )
    table = [line for line in evaluated.output.splitlines() if line.startswith(("opponent", "random"))]
    assert on_ray.exit_code == 0 and len(table) == 2
    assert [line for line in on_ray.output.splitlines() if line.startswith(("opponent", "random"))] == table


def test_the_scaling_guide_example_runs(local_ray, capsys):
    from test_docs import run_examples

    assert run_examples("docs/scaling.md") == 1
    assert "sampled:" in capsys.readouterr().out


def test_the_rllib_backend_refuses_what_it_does_not_do(tmp_path):
    with pytest.raises(configs.ConfigError, match="backend"):
        tiny(backend="tensorflow")
    result = CliRunner().invoke(main, ["train", "--ray-address", "auto", "--out", str(tmp_path / "x")])
    assert result.exit_code != 0 and "--backend rllib" in result.output


def test_a_killed_env_runner_is_restarted_and_the_run_finishes(local_ray, tmp_path, monkeypatch):
    """Once the league holds a snapshot, the env runner's process is killed while it samples;
    RLlib restarts it, the restarted runner seats the league as it is (the snapshot included),
    and the run trains to its end."""
    killed, seen = [], {}
    log = trainer.RLlibTrainer._log

    def runners(self, probe):
        return self.algorithm.env_runner_group.foreach_env_runner(probe, local_env_runner=False)

    def log_and_kill(self, result, seconds):
        if self.state["snapshots"] and not killed:
            pid = runners(self, lambda r: os.getpid())[0]
            killed.append(pid)
            threading.Timer(0.2, os.kill, (pid, signal.SIGKILL)).start()  # in the next iteration's sampling
        elif killed:  # the last iterations run on the restarted runner (nothing else samples)
            seen["pids"] = runners(self, lambda r: os.getpid())
            seen["league"] = runners(self, lambda r: r.config.policy_mapping_fn)
            seen["driver"] = self.algorithm.config.policy_mapping_fn
        return log(self, result, seconds)

    monkeypatch.setattr(trainer.RLlibTrainer, "_log", log_and_kill)
    run = trainer.RLlibTrainer(tiny(steps=4000, eval_every=0, snapshot_every=600), tmp_path / "run", progress=False)
    finished = []
    worker = threading.Thread(target=lambda: finished.append(run.run()))
    worker.start()
    worker.join(timeout=600)
    assert finished, "the run did not finish after its env runner was killed"
    assert killed and finished[0]["steps"] >= 4000
    assert seen["pids"] and killed[0] not in seen["pids"]  # a new process
    assert seen["league"] == [seen["driver"]]
    assert any(member.startswith("snapshot_") for member, _ in seen["driver"].members)


# ----------------------------------------------------------------- two nodes on this machine
@pytest.fixture(scope="module")
def two_nodes():
    from ray.cluster_utils import Cluster

    ray.shutdown()
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    yield cluster
    ray.shutdown()
    cluster.shutdown()


def test_a_tournament_and_a_training_run_use_both_nodes(two_nodes, tmp_path):
    nodes = {node.node_id for node in two_nodes.list_all_nodes()}
    assert len(nodes) == 2
    specs, game = ["heuristic", "random"], settings(2)
    results = tournament.run(specs, 8, 3, game, ray_address=two_nodes.address)
    assert {r["node"] for r in results} == nodes
    assert outcome(results) == outcome(tournament.run(specs, 8, 3, game, workers=2))

    run = trainer.RLlibTrainer(
        tiny(env_runners=2, steps=600, eval_every=0, snapshot_every=0),
        tmp_path / "run",
        progress=False,
        ray_address=two_nodes.address,
    )
    placed = []
    log = run._log

    def log_and_place(result, seconds):
        if not placed:
            placed.extend(
                run.algorithm.env_runner_group.foreach_env_runner(
                    lambda r: ray.get_runtime_context().get_node_id(), local_env_runner=False
                )
            )
        return log(result, seconds)

    run._log = log_and_place
    assert run.run()["steps"] >= 600
    assert set(placed) == nodes


def test_the_rllib_warm_start_reaches_the_learner_and_every_env_runner(local_ray, tmp_path, monkeypatch):
    """After imitation, ``main`` learns from the imitated weights on the learner and samples
    with its imitated policy on every env runner (which computes no values: the learner does)."""
    fitted = []
    outputs = trainer.module_outputs
    monkeypatch.setattr(trainer, "module_outputs", lambda module: fitted.append(module) or outputs(module))
    run = trainer.RLlibTrainer(tiny(imitation_games=2, imitation_epochs=1), tmp_path / "run", progress=False)
    run.algorithm = run.algorithm_config().build_algo()
    try:
        run._warm_start()
        imitated = {name: tensor.detach().clone() for name, tensor in fitted[0].state_dict().items()}
        learner = run.algorithm.learner_group.get_state()["learner"]["rl_module"][trainer.MAIN]
        runners = run.algorithm.env_runner_group.foreach_env_runner(
            lambda runner: runner.module[trainer.MAIN].get_state(), local_env_runner=False
        )
    finally:
        run.algorithm.stop()
    assert set(learner) == set(imitated)
    assert all(np.array_equal(np.asarray(learner[name]), imitated[name].numpy()) for name in imitated)
    acting = [
        name for name in imitated if name.startswith(("encoder.actor_encoder", "pi."))
    ]  # what a runner samples with
    assert runners and acting
    for state in runners:
        assert all(np.array_equal(np.asarray(state[name]), imitated[name].numpy()) for name in acting)
    assert len((tmp_path / "run" / "imitation.csv").read_text().splitlines()) == 2
