"""The documentation's generated tables say what the code does."""
from pathlib import Path

import pytest

from tribune_env.docs import TABLES, render

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", sorted(TABLES))
def test_generated_tables_are_current(name):
    path = ROOT / name
    assert render(path, TABLES[name]()) == path.read_text(), \
        f"{name} is out of date: run python -m tribune_env.docs"


def test_readme_sizes_match_the_code():
    from tribune_env import Game
    g = Game(2, seed=0)
    readme = (ROOT / "README.md").read_text()
    assert f"{g.A.size} actions" in readme
    assert f"{g.obs_layout.size} float32" in readme


def test_readme_examples_run(capsys):
    """Every Python example of the README runs as written."""
    import re
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert len(blocks) >= 2
    for i, block in enumerate(blocks):
        exec(compile(block, f"README.md example {i + 1}", "exec"), {})
    assert "Game over:" in capsys.readouterr().out
