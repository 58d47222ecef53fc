"""The documentation's generated tables say what the code does."""

from pathlib import Path

import pytest

from tribune_env.docs import TABLES, render

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", sorted(TABLES))
def test_generated_tables_are_current(name):
    path = ROOT / name
    assert render(path, TABLES[name]()) == path.read_text(), f"{name} is out of date: run python -m tribune_env.docs"


def test_readme_sizes_match_the_code():
    from tribune_env import Game

    g = Game(2, seed=0)
    readme = (ROOT / "README.md").read_text()
    assert f"{g.A.size} actions" in readme
    assert f"{g.obs_layout.size} float32" in readme


def run_examples(name: str) -> int:
    """Run every Python example of a document as written; return how many there were."""
    import re

    blocks = re.findall(r"```python\n(.*?)```", (ROOT / name).read_text(), re.S)
    for i, block in enumerate(blocks):
        exec(compile(block, f"{name} example {i + 1}", "exec"), {})
    return len(blocks)


def test_readme_examples_run(capsys):
    assert run_examples("README.md") >= 3
    assert "Game over:" in capsys.readouterr().out


def test_environment_guide_examples_run(capsys):
    assert run_examples("docs/environments.md") == 5
    out = capsys.readouterr().out
    assert "player_0" in out and "learner's reward:" in out


def test_training_guide_example_runs(capsys, tmp_path, monkeypatch):
    pytest.importorskip("sb3_contrib")
    monkeypatch.chdir(tmp_path)
    assert run_examples("docs/training.md") == 1
    assert "win rate [95% CI]" in capsys.readouterr().out
    assert (tmp_path / "runs/mine/best_model.zip").exists()
