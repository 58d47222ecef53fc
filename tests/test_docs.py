"""The documentation says what the code does: its generated tables are current, and every
example runs as written, each as a script of its own."""

import re
import subprocess
import sys
import tempfile
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


def examples(name: str) -> list[str]:
    """The Python examples of a document, in order."""
    return re.findall(r"```python\n(.*?)```", (ROOT / name).read_text(), re.S)


def run_script(code: str, label: str) -> str:
    """Run `code` as a user who pasted it into a file would: a script of its own, in a fresh
    interpreter, from the current directory (so worker processes it spawns import it again,
    and it can use nothing an earlier example defined). Returns what it printed."""
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "example.py"
        script.write_text(code)
        done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, f"{label} failed:\n{done.stderr[-4000:]}"
    return done.stdout


def run_examples(name: str) -> int:
    """Run every Python example of a document as a script of its own, printing what each
    printed; return how many there were."""
    blocks = examples(name)
    for i, block in enumerate(blocks):
        print(run_script(block, f"{name} example {i + 1}"), end="")
    return len(blocks)


def test_readme_examples_run(capsys):
    assert run_examples("README.md") == 2
    assert "Game over:" in capsys.readouterr().out


def test_environment_guide_examples_run(capsys):
    assert run_examples("docs/environments.md") == 5
    out = capsys.readouterr().out
    assert "player_0" in out and "learner's reward:" in out and "sharded: 4096" in out


def test_training_guide_example_runs(capsys, tmp_path, monkeypatch):
    pytest.importorskip("sb3_contrib")
    monkeypatch.chdir(tmp_path)
    assert run_examples("docs/training.md") == 1
    assert "win rate [95% CI]" in capsys.readouterr().out
    assert (tmp_path / "runs/mine/best_model.zip").exists()


def test_agents_guide_example_rates_an_agent_of_ones_own(capsys):
    assert run_examples("docs/agents.md") == 1
    out = capsys.readouterr().out
    assert "random" in out and "heuristic" in out and "win rate [95% CI]" in out


def test_rules_and_saving_examples_run(capsys):
    assert run_examples("docs/rules.md") == run_examples("docs/state-format.md") == 1


def test_an_example_that_leans_on_an_earlier_one_fails():
    """What the runner is for: each example stands alone, as a file of its own."""
    with pytest.raises(AssertionError, match="NameError: name 'game' is not defined"):
        run_script("text = game.to_json()\n", "a continued example")


# where each document's examples run; a document with new examples needs its test
EXAMPLE_TESTS = {
    "README.md": "test_docs.py",
    "docs/environments.md": "test_docs.py",
    "docs/agents.md": "test_docs.py",
    "docs/training.md": "test_docs.py",
    "docs/rules.md": "test_docs.py",
    "docs/state-format.md": "test_docs.py",
    "docs/frameworks.md": "test_frameworks.py",
    "docs/scaling.md": "test_ray.py",
    "docs/openspiel.md": "test_openspiel.py",
    "docs/text-seat.md": "test_text_seat.py",
}


def test_every_documents_examples_are_run():
    with_examples = {name for name in DOCUMENTS if examples(name)}
    assert with_examples == set(EXAMPLE_TESTS)
    for name, test in EXAMPLE_TESTS.items():
        assert name in (ROOT / "tests" / test).read_text(), f"{test} does not run {name}"


DOCUMENTS = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("name", DOCUMENTS)
def test_documents_hold_no_issue_numbers_or_commit_hashes(name):
    text = (ROOT / name).read_text()
    assert not re.findall(r"\bissues? #?\d+|(?<![\w/&`])#\d+\b", text, re.I)
    assert not re.findall(r"`[0-9a-f]{7,40}`", text)


@pytest.mark.parametrize("name", DOCUMENTS)
def test_documents_link_only_to_files_and_headings_in_the_repository(name):
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
