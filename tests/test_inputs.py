"""Inputs from anyone: output paths tried before any work, files read with their size, encoding
and nesting checked first, numbers in range, and model files named as code in the help."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from agents import REGISTRY
from training.arena import records
from training.cli import main
from tribune_env import ConfigError, StateFormatError, files

WORK = {
    "bench": "training.tools.bench.run",
    "tournament": "training.arena.tournament.run",
    "evaluate": "training.learning.baselines.evaluate_agent",
    "train": "training.learning.selfplay.train",
    "play": "training.arena.play.play_human",
    "serve": "training.web.app.create_app",
}


def unwritable(tmp_path) -> dict:
    """Paths no one can write, even root: a full device, and a place under a regular file."""
    (tmp_path / "file").write_text("")
    return {"full": "/dev/full", "under a file": str(tmp_path / "file" / "out")}


@pytest.mark.parametrize("where", ["full", "under a file"])
@pytest.mark.parametrize(
    "command, option",
    [
        ("bench", "--json"),
        ("bench", "--plot"),
        ("tournament", "--records"),
        ("tournament", "--out"),
        ("evaluate", "--out"),
        ("train", "--out"),
        ("play", "--record"),
        ("serve", "--records"),
    ],
)
def test_an_output_that_cannot_be_written_fails_before_any_work(tmp_path, monkeypatch, command, option, where):
    path = unwritable(tmp_path)[where]
    module, name = WORK[command].rsplit(".", 1)
    monkeypatch.setattr(__import__(module, fromlist=[name]), name, lambda *a, **k: pytest.fail("work started"))
    arguments = {"tournament": ["random", "random"], "evaluate": ["README.md"]}.get(command, [])
    result = CliRunner().invoke(main, [command, *arguments, option, path], input="1\n")
    assert result.exit_code == 2 and f"cannot write {path}" in result.output, result.output
    assert isinstance(result.exception, SystemExit)


def test_writable_outputs_are_tried_without_a_trace(tmp_path):
    existing = tmp_path / "old.jsonl"
    existing.write_text("kept\n")
    files.check_output(existing)
    files.check_output(tmp_path / "new" / "deeper" / "file.json")
    files.check_output(tmp_path / "run", directory=True)
    assert existing.read_text() == "kept\n" and sorted(p.name for p in tmp_path.iterdir()) == ["old.jsonl"]
    with pytest.raises(ConfigError, match="it is a directory"):
        files.check_output(tmp_path)
    with pytest.raises(ConfigError, match="old.jsonl is not a directory"):
        files.check_output(existing, directory=True)


def test_a_record_appended_starts_its_own_line(tmp_path):
    saved = tmp_path / "games.jsonl"
    saved.write_text('{"first": 1}')  # its last line has no newline
    records.write(saved, [{"second": 2}], append=True)
    assert [json.loads(line) for line in saved.read_text().splitlines()] == [{"first": 1}, {"second": 2}]


@pytest.mark.parametrize("command", ["tournament", "play", "evaluate", "train"])
def test_commands_that_load_models_say_that_model_files_run_code(command):
    result = CliRunner().invoke(main, [command, "--help"], terminal_width=400)
    assert "loading one runs its code, so load only model files you trust" in result.output


@pytest.mark.parametrize("command", ["tournament", "ladder", "play", "evaluate", "serve"])
def test_commands_that_take_agents_list_every_registered_spec(command):
    result = CliRunner().invoke(main, [command, "--help"], terminal_width=1000)
    listed = result.output.split("Agent specs: ")[1].split(".\n")[0].split(", ")
    assert [form.partition(":")[0].partition("[")[0] for form in listed] == list(REGISTRY)
    assert {"ismcts[:key=value,...]", "guided:net=PATH.pt[,key=value,...]", "policy:PATH.pt"} <= set(listed)


@pytest.mark.parametrize(
    "text, deepest",
    [
        ('[1, [2, {"a": [3]}]]', 4),
        ('["[[[[", "]]"]', 1),
        ('"\\"[[["', 0),
        ("]]][[", 0),
        ("", 0),
        ('["unterminated [[[', 1),
    ],
)
def test_json_nesting_is_counted_outside_strings(text, deepest):
    assert files.depth(text, files.JSON_STRINGS) == deepest


@pytest.mark.parametrize(
    "text, deepest",
    [
        ("a = [[1], [2]]", 2),
        ("a = '[[[' # [[[\nb = \"[[\"", 0),
        ('a = """\n[[\n"""\n[[t]]', 2),
        ("a = '''[[['''", 0),
        ('a = """x\\""" [[ """', 0),
        ("a = {b = {c = [1]}}", 3),
        ('a = "unterminated [[[\nb = [[1]]', 2),
    ],
)
def test_toml_nesting_is_counted_outside_strings_and_comments(text, deepest):
    assert files.depth(text, files.TOML_STRINGS) == deepest


def test_files_are_read_within_a_limit_as_utf8(tmp_path):
    path = tmp_path / "f.json"
    path.write_bytes(b'{"a": "\xc3\xa9"}')
    assert files.read_json(path, 100) == {"a": "é"}
    with pytest.raises(StateFormatError, match="is larger than"):
        files.read_json(path, 5, StateFormatError)
    path.write_bytes(b'{"a": "\xe9"}')
    with pytest.raises(ConfigError, match=r"not UTF-8 text \(byte 0xe9 at offset 7\)"):
        files.read_json(path, 100)


@pytest.mark.parametrize(
    "args, message",
    [
        (["demo", "--seed", "-1"], "0<=x<=4294967295"),
        (["bench", "--seconds", "nan"], "nan is not a number"),
        (["bench", "--seconds", "inf"], "0.1<=x<=3600"),
        (["replay", "README.md", "--delay", "nan"], "nan is not a number"),
        (["play", "--round-limit", str(2**63)], "1<=x<=10000"),
    ],
)
def test_numbers_out_of_range_are_usage_errors(args, message):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and message in result.output


def test_rule_numbers_of_the_factions_are_game_data():
    """The take-over, assassin, cesura, leader and Atrium numbers are GameData fields, checked like the rest."""
    from tribune_env import ConfigError, GameData

    names = dict(GameData().numbers())
    assert {
        names[n]
        for n in (
            "min_set",
            "assassin_min_set",
            "cesura_set_losses",
            "tigellinus_legions",
            "praetorian_benefit_legions",
            "senator_benefit_cards",
            "atrium_spaces",
            "benefit_cards",
            "bought_legions",
            "proconsul_followers",
        )
    } == {1, 2, 3}
    for bad in (dict(atrium_spaces=3), dict(min_set=0), dict(assassin_min_set=-1)):
        with pytest.raises(ConfigError):
            GameData(**bad).validate()


def test_a_shipped_recipe_is_named_from_anywhere_and_a_file_of_that_name_comes_first(tmp_path, monkeypatch):
    import click

    from training.cli.options import Recipe

    monkeypatch.chdir(tmp_path)
    shipped = Path(Recipe().convert("quick", None, None))
    assert shipped.name == "quick.toml" and shipped.parent.name == "configs" and shipped.is_file()
    (tmp_path / "quick").write_text("players = 3\n")
    assert Recipe().convert("quick", None, None) == "quick"
    with pytest.raises(click.BadParameter, match=r"'nope' is neither a file nor a shipped recipe \(.*quick"):
        Recipe().convert("nope", None, None)
    with pytest.raises(click.BadParameter, match="NUL"):
        Recipe().convert("qu\0ick", None, None)
