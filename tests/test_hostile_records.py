"""Records written to harm the person replaying them: whatever a file holds reaches the terminal
escaped (no control character, bidirectional override or lone surrogate), and paths holding a
NUL byte are refused as usage errors."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from training.arena import records
from training.arena import tournament as t
from training.arena.terminal import printable
from training.cli import main
from tribune_env import VICTORY_CARDS

SHORT = {"num_players": 2, "victory_card": None, "point_variant": False, "round_limit": 2}
HOSTILE = [
    "\x1b]0;new title\x07",  # sets the window's title
    "\x1b[2J\x1b[H",  # clears the screen
    "\x9b31m",  # C1 control sequence introducer
    "\x7f\x00\r",
    "name\nplayer_1: forged line",
    "\u202eevil\u202c \u2066isolated\u2069 \u202a\u202b\u202d\u2067\u2068",
    "lone \ud800 surrogate",
]
UNSAFE = {chr(c) for c in [*range(0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A)]}


def unsafe(text: str) -> set:
    """The characters of `text`, a command's output, that a terminal could act on (newlines aside)."""
    return {c for c in text if c in UNSAFE - {"\n"} or "\ud800" <= c <= "\udfff"}


@pytest.fixture(scope="module")
def record():
    """A real 2-player record, of a game cut short by the round limit."""
    kept = []
    t.run(["random", "random"], 2, 0, SHORT, 1, on_record=kept.append)
    return kept[0]


def replay(tmp_path, record) -> object:
    path = tmp_path / "games.jsonl"
    records.write(path, [record])
    return CliRunner().invoke(main, ["replay", str(path), "--auto"])


@pytest.mark.parametrize("text", HOSTILE)
def test_printable_escapes_what_a_terminal_acts_on_as_a_repr_does(text):
    shown = printable(text)
    assert shown.isprintable() and not unsafe(shown)
    assert shown == "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def test_printable_keeps_printable_text_and_backslashes_as_they_are():
    for text in ("player_0: policy:runs/4p/policy.pt", "Ünïcødé ≥ 1", "already escaped: '\\x1b'", ""):
        assert printable(text) == text


def test_replay_shows_hostile_agent_names_escaped(tmp_path, record):
    result = replay(tmp_path, dict(record, agents=HOSTILE[:2]))
    assert result.exit_code == 0, result.output
    assert not unsafe(result.output)
    first = result.output.split("\n")[0]
    assert first == r"player_0: \x1b]0;new title\x07, player_1: \x1b[2J\x1b[H"


def test_replay_of_a_lone_surrogate_or_a_newline_in_a_name_does_not_crash_or_forge_a_line(tmp_path, record):
    result = replay(tmp_path, dict(record, agents=HOSTILE[-3:-1]))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("player_0: name\\nplayer_1: forged line, player_1: \\u202eevil")
    result = replay(tmp_path, dict(record, agents=["random", HOSTILE[-1]]))  # shown, or refused by name
    assert result.exit_code in (0, 1) and isinstance(result.exception, (SystemExit, type(None))), result.output
    assert "lone \\ud800 surrogate" in result.output and not unsafe(result.output)


@pytest.mark.parametrize("card_id", HOSTILE)
def test_replay_refuses_a_victory_card_id_that_would_reach_the_terminal_raw(tmp_path, record, card_id):
    card = dict(VICTORY_CARDS["pax-romana"].to_dict(), id=card_id)
    config = dict(record["config"], victory_card=card, victory_card_drawn=False)
    result = replay(tmp_path, dict(record, config=config))
    assert result.exit_code == 1 and "victory_card id must be 1 to 100 printable characters" in result.output
    assert not unsafe(result.output)


def test_an_error_quoting_the_file_is_shown_escaped(tmp_path):
    """A JSON key holding escapes, named in the message about the NaN under it."""
    path = tmp_path / "games.jsonl"
    path.write_text('{"\\u001b[2J\\u202e": NaN}\n')
    result = CliRunner().invoke(main, ["replay", str(path), "--auto"])
    assert result.exit_code == 1 and "saved game holds NaN at \\x1b[2J\\u202e" in result.output
    assert not unsafe(result.output)


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "games\0.jsonl"],
        ["tournament", "random", "random", "--records", "games\0.jsonl"],
        ["tournament", "random", "random", "--out", "out\0"],
        ["play", "--record", "games\0.jsonl"],
        ["ladder", "--out", "ladder\0.md"],
        ["ladder", "--plot", "ladder\0.png"],
    ],
)
def test_a_path_with_a_nul_byte_is_a_usage_error(args):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "a path cannot hold a NUL byte" in result.output
