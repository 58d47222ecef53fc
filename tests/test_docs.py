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
    assert run_examples("README.md") == 2
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


DOCUMENTS = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("name", DOCUMENTS)
def test_documents_hold_no_issue_numbers_or_commit_hashes(name):
    import re

    text = (ROOT / name).read_text()
    assert not re.findall(r"\bissues? #?\d+|(?<![\w/&`])#\d+\b", text, re.I)
    assert not re.findall(r"`[0-9a-f]{7,40}`", text)


@pytest.mark.parametrize("name", DOCUMENTS)
def test_documents_link_only_to_files_and_headings_in_the_repository(name):
    import re

    path = ROOT / name
    for target in re.findall(r"\]\(([^)\s]+)\)", path.read_text()):
        assert not target.startswith(("http:", "https:")), f"{name} links outside: {target}"
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        assert linked.is_relative_to(ROOT) and linked.exists(), f"{name} links to {target}, not in the repository"
        if anchor:
            headings = re.findall(r"^#+ (.+)$", linked.read_text(), re.M)
            slugs = {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}
            assert anchor in slugs, f"{name} links to {target}: no such heading"


def test_readme_commands_name_real_commands_and_options():
    """Every `tribune ...` line of the README's command blocks parses as the command line would."""
    import re
    import shlex

    import click

    from training.cli import main

    blocks = re.findall(r"```bash\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    lines = [line.split("  #")[0] for block in blocks for line in block.splitlines() if line.startswith("tribune ")]
    assert len(lines) >= 10
    for line in lines:
        name, *arguments = shlex.split(line)[1:]
        command = main.get_command(click.Context(main), name)
        assert command is not None, line
        for option in (a.split("=")[0] for a in arguments if a.startswith("--")):
            assert any(option in p.opts for p in command.params), f"{line}: no option {option}"
