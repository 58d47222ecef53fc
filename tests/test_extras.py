"""A missing optional package is a message naming the extra that brings it, in the form a
user of the wheel types (``pip install 'tribune-rl[train]'``), not a traceback.

Each case runs in a fresh interpreter where the package cannot be imported
(``sys.modules[name] = None`` makes its import raise ImportError, as if it were absent).
"""

import subprocess
import sys

import pytest


def run_without(module: str, code: str, cwd) -> subprocess.CompletedProcess:
    hidden = f"import sys\nsys.modules[{module!r}] = None\n"
    return subprocess.run([sys.executable, "-c", hidden + code], capture_output=True, text=True, cwd=cwd, timeout=600)


def command(*arguments: str) -> str:
    return f"from training.cli import main\nmain({list(arguments)!r})\n"


@pytest.mark.parametrize(
    "module, arguments, extra",
    [
        ("matplotlib", ("tournament", "random", "random", "--games", "2"), "train"),
        ("openskill", ("tournament", "random", "random", "--games", "2"), "train"),
        ("openskill", ("ladder", "--players", "2", "--agents", "random,heuristic", "--games", "2"), "train"),
        ("matplotlib", ("ladder", "--players", "2", "--agents", "random,heuristic", "--games", "2"), "train"),
        ("fastapi", ("serve", "--port", "0"), "web"),
        ("torch", ("expert", "--out", "run"), "train"),
        ("matplotlib", ("expert", "--out", "run"), "train"),
    ],
)
def test_a_command_names_the_extra_it_needs(module, arguments, extra, tmp_path):
    done = run_without(module, command(*arguments), tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"needs the {extra} extra: pip install 'tribune-rl[{extra}]'" in done.stderr
    assert module in done.stderr  # what is missing, named
    assert not any(tmp_path.iterdir())  # nothing written before the message


def test_the_rllib_environment_names_the_ray_extra(tmp_path):
    done = run_without("ray", "from tribune_env.envs import TribuneMultiAgentEnv\n", tmp_path)
    assert done.returncode == 1
    assert "TribuneMultiAgentEnv needs Ray's RLlib, the ray extra: pip install 'tribune-rl[ray]'" in done.stderr


def test_the_openspiel_game_names_the_openspiel_extra(tmp_path):
    done = run_without("pyspiel", "import tribune_env.envs.openspiel\n", tmp_path)
    assert done.returncode == 1
    assert "python_tribune needs OpenSpiel, the openspiel extra: pip install 'tribune-rl[openspiel]'" in done.stderr


def test_a_policy_file_without_torch_names_the_train_extra(tmp_path):
    code = (
        "from agents import make_agent\nfrom tribune_env import ConfigError\n"
        "try:\n    make_agent('policy:x.pt')\nexcept ConfigError as e:\n    print(e)\n"
    )
    done = run_without("torch", code, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "policy files need PyTorch, the train extra: pip install 'tribune-rl[train]'" in done.stdout


def test_an_rllib_policy_file_without_ray_names_the_ray_extra(tmp_path):
    """The file is read first (a missing one is named as such), then Ray is asked for by its extra."""
    code = (
        "import torch\nfrom agents import make_agent\nfrom agents.rllib import FORMAT\nfrom tribune_env import ConfigError\n"
        "torch.save({'format': FORMAT.tag, 'version': FORMAT.version, 'layers': [8], 'state': {}}, 'r.pt')\n"
        "for spec in ('rllib:r.pt', 'rllib:missing.pt'):\n"
        "    try:\n        make_agent(spec)\n    except ConfigError as e:\n        print(e)\n"
    )
    done = run_without("ray", code, tmp_path)
    assert done.returncode == 0, done.stderr
    needs_ray, missing = done.stdout.splitlines()
    assert needs_ray == "RLlib policies need the ray extra: pip install 'tribune-rl[ray]'"
    assert missing.startswith("no such file") and "missing.pt" in missing
