"""The ladder: a Plackett-Luce strength from finishing places, pinned ratings, and the command's files."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from click.testing import CliRunner

pytest.importorskip("matplotlib")

from training.arena import ladder  # noqa: E402
from training.arena.ladder import place_probabilities, strength, write  # noqa: E402
from training.arena.stats import wilson  # noqa: E402
from training.cli import main  # noqa: E402


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_place_probabilities_are_a_distribution_and_even_at_strength_one(n):
    for s in (0.01, 1.0, 7.0):
        p = place_probabilities(s, n)
        assert p.sum() == pytest.approx(1.0) and (p >= 0).all()
    np.testing.assert_allclose(place_probabilities(1.0, n), np.full(n, 1 / n))
    assert place_probabilities(3.0, n)[0] == pytest.approx(3 / (3 + n - 1))  # first: s over the strengths


def test_the_strength_fits_the_places():
    """Even places give strength 1; places drawn from a model of strength 3 give about 3."""
    assert strength([1, 2, 3, 4] * 50, 4) == pytest.approx(1.0, rel=1e-3)
    rng = np.random.default_rng(0)
    places = rng.choice(np.arange(1, 5), size=20_000, p=place_probabilities(3.0, 4))
    assert strength(places.tolist(), 4) == pytest.approx(3.0, rel=0.05)
    assert 0 < strength([4] * 1000, 4) < strength([4] * 10, 4) < 1 < strength([1] * 10, 4) < math.inf


def _game(seat: int, card: str | None, won: bool) -> dict:
    """A 2-player game's result with the agent (entrant 0) in `seat`, won or lost."""
    wins = [float(won == (p == seat)) for p in range(2)]
    ranks = [2 - int(w) for w in wins]
    return {"seating": [0, 1] if seat == 0 else [1, 0], "victory_card": card, "wins": wins, "ranks": ranks}


def test_the_worst_seat_and_victory_card_are_those_the_agent_won_least(monkeypatch):
    """Games of known outcome, seats alternating: 3 of 4 won on one card, 2 of 4 on another and none
    in the point variant, which counts as a card of its own; 3 of 6 won in seat 0, 2 of 6 in seat 1."""
    outcomes = {"pax-romana": [1, 1, 1, 0], "cursus-honorum": [0, 1, 1, 0], None: [0, 0, 0, 0]}
    results = [_game(i % 2, card, won) for card, wins in outcomes.items() for i, won in enumerate(wins)]
    monkeypatch.setattr(ladder, "run", lambda *args, **kwargs: results)
    result = ladder.play(2, ["policy:agent.pt"], 12, 0, {})
    [row] = result["agents"]
    zero = list(wilson(0, 4))
    assert row["worst_card"] == {"card": "point variant", "games": 4, "win_rate": 0.0, "win_ci": zero}
    assert row["worst_seat"] == {"seat": 1, "games": 6, "win_rate": 2 / 6, "win_ci": list(wilson(2, 6))}
    section = ladder.markdown(result, "tribune ladder", None)
    assert "| worst seat | worst victory card [95% CI] |" in section
    assert f"| seat 1: 33.3% | `point variant`: 0.0% [0.0%, {100 * zero[1]:.1f}%] |" in section


def test_a_section_is_replaced_and_the_others_kept(tmp_path):
    path = tmp_path / "ladder.md"
    write(path, "## 4 players\n\nfour\n", 4)
    write(path, "## 2 players\n\ntwo\n", 2)
    write(path, "## 4 players\n\nFOUR\n", 4)
    write(path, "## 2 players\n\nTWO\n", 2)
    text = path.read_text()
    assert text.startswith("# The ladder")
    assert text.index("## 2 players") < text.index("## 4 players")
    assert "FOUR" in text and "four" not in text and "TWO" in text and "\ntwo\n" not in text
    assert "TWO\n\n## 4 players" in text and text.endswith("FOUR\n")  # one blank line between sections


def test_the_ladder_command_writes_its_section_and_plot(tmp_path):
    out = tmp_path / "docs" / "ladder.md"
    args = ["ladder", "--players", "2", "--agents", "random,heuristic", "--games", "4", "--workers", "1"]
    result = CliRunner().invoke(main, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "## 2 players" in text and "| `random` | 4 |" in text and "| `heuristic` | 4 |" in text
    random_row = next(line for line in text.splitlines() if line.startswith("| `random`"))
    assert random_row.endswith("| 0 |"), "the ratings are pinned to the random agent"
    assert re.search(r"\| `[a-z-]+`: 0\.0% \[0\.0%, [\d.]+%\] \|", random_row), "its worst victory card, never won"
    assert (tmp_path / "docs" / "images" / "ladder-2p.png").stat().st_size > 1000
    refused = CliRunner().invoke(main, ["ladder", "--agents", "heuristic", "--out", str(out)])
    assert refused.exit_code != 0 and "pinned to 'random'" in refused.output


def test_by_default_the_ladder_writes_into_a_run_directory_never_over_the_shipped_docs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "ladder.md").write_text("# The ladder\n\nshipped\n")
    args = ["ladder", "--players", "2", "--agents", "random,heuristic", "--games", "2", "--workers", "1"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "docs" / "ladder.md").read_text() == "# The ladder\n\nshipped\n"
    assert not (tmp_path / "docs" / "images").exists()
    assert "## 2 players" in (tmp_path / "runs" / "ladder" / "ladder.md").read_text()
    assert (tmp_path / "runs" / "ladder" / "images" / "ladder-2p.png").stat().st_size > 1000


@pytest.fixture
def no_games(monkeypatch):
    """The ladder's games, which fail the test if any is played."""

    def play(*args, **kwargs):
        raise AssertionError("a game was played before the files were checked")

    monkeypatch.setattr(ladder, "play", play)


def test_a_ladder_file_that_cannot_be_read_back_is_refused_before_any_game(tmp_path, no_games):
    out = tmp_path / "ladder.md"
    out.write_bytes(b"# The ladder\n\xff\n")
    result = CliRunner().invoke(main, ["ladder", "--players", "2", "--agents", "random", "--out", str(out)])
    assert result.exit_code == 1 and "is not UTF-8 text (byte 0xff at offset 13)" in result.output
    assert out.read_bytes() == b"# The ladder\n\xff\n"


def test_a_plot_whose_directory_is_a_file_is_refused_before_any_game(tmp_path, no_games):
    (tmp_path / "images").write_text("a file")
    args = ["ladder", "--players", "2", "--agents", "random", "--out", str(tmp_path / "ladder.md")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1 and "images is not a directory" in result.output
    assert not (tmp_path / "ladder.md").exists()


def test_a_long_ladder_file_is_rewritten_in_one_pass_keeping_every_other_part(tmp_path):
    """32,000 blank lines inside a section: read once, line by line (a regular expression looking
    ahead for the next heading from each of them took quadratic time)."""
    path = tmp_path / "ladder.md"
    two = "## 2 players\n\nrow\n" + "\n" * 32_000 + "note"
    path.write_text(f"# The ladder\n\n{two}\n\n## 5 players\n\nfive\n\n## Notes\n\nkept\n")
    write(path, "## 3 players\n\nthree\n", 3)
    rest = "## 5 players\n\nfive\n\n## Notes\n\nkept\n"
    assert path.read_text() == f"# The ladder\n\n{two}\n\n## 3 players\n\nthree\n\n{rest}"
    write(path, "## 2 players\n\ntwo\n", 2)
    assert path.read_text() == f"# The ladder\n\n## 2 players\n\ntwo\n\n## 3 players\n\nthree\n\n{rest}"
