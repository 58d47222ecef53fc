"""`tribune bench`: runs every environment and reports the table and the targets (no timing asserted)."""

import json

from click.testing import CliRunner

from training.cli import main


def test_bench_reports_every_environment(tmp_path):
    out = tmp_path / "bench.json"
    result = CliRunner().invoke(
        main,
        [
            "bench",
            "--seconds",
            "0.2",
            "--repeats",
            "1",
            "--players",
            "3",
            "--num-envs",
            "8",
            "--json",
            str(out),
            "--plot",
            str(tmp_path / "bench.png"),
        ],
    )
    assert result.exit_code == 0, result.output
    names = [
        "connect_four_v3 (AEC)",
        "texas_holdem_v4 (AEC)",
        "tribune AEC, 3 players",
        "tribune one game, 3 players",
        "tribune VectorGames, N=8",
        "tribune VectorGames, N=1024",
        "tribune VectorEnv, N=8",
        "tribune VectorEnv against the heuristic, N=8 (learner)",
    ]
    for name in names:
        assert f"| {name} |" in result.output
    for target in ("tribune AEC / connect_four_v3", "N=1024: ", "one game: ", "against the heuristic (learner): "):
        assert target in result.output
    figures = json.loads(out.read_text())
    assert [r["name"] for r in figures["results"]] == names
    assert all(r["median"] > 0 and len(r["rates"]) == 1 for r in figures["results"])
    assert (tmp_path / "bench.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bench_rejects_bad_options():
    result = CliRunner().invoke(main, ["bench", "--players", "7"])
    assert result.exit_code != 0 and "players" in result.output
