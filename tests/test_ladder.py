"""The ladder: a Plackett-Luce strength from finishing places, pinned ratings, and the command's files."""

from __future__ import annotations

import math

import numpy as np
import pytest
from click.testing import CliRunner

pytest.importorskip("matplotlib")

from training.arena.ladder import place_probabilities, strength, write  # noqa: E402
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
    assert (tmp_path / "docs" / "images" / "ladder-2p.png").stat().st_size > 1000
    refused = CliRunner().invoke(main, ["ladder", "--agents", "heuristic", "--out", str(out)])
    assert refused.exit_code != 0 and "pinned to 'random'" in refused.output
