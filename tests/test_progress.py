"""Progress bars speak into a log file as lines, and not at all into a buffer with no file behind it."""

import io
import sys

from training.progress import progress


def test_into_a_log_file_a_bar_writes_whole_lines(tmp_path, monkeypatch):
    with open(tmp_path / "log", "w") as log:
        monkeypatch.setattr(sys, "stderr", log)
        with progress(total=3, unit="game") as bar:
            for _ in progress(range(2), unit="inner"):  # a nested bar, as an evaluation's within training
                pass
            bar.update(3)
    text = (tmp_path / "log").read_text()
    assert "\r" not in text and "\x1b" not in text and text.endswith("\n")
    assert any("2/2" in line and "inner" in line for line in text.splitlines())
    assert "3/3" in text.splitlines()[-1] and "game" in text


def test_into_a_buffer_or_when_not_shown_a_bar_says_nothing(tmp_path, monkeypatch):
    buffer = io.StringIO()
    monkeypatch.setattr(sys, "stderr", buffer)
    with progress(total=3) as bar:
        bar.update(3)
    assert buffer.getvalue() == ""
    with open(tmp_path / "log", "w") as log:
        monkeypatch.setattr(sys, "stderr", log)
        assert list(progress(range(3), show=False)) == [0, 1, 2]
    assert (tmp_path / "log").read_text() == ""


def test_a_tournament_shows_its_bar_in_a_log_unless_told_not_to(tmp_path, monkeypatch):
    from training.arena import tournament
    from training.learning.baselines import settings

    for shown in (True, False):
        with open(tmp_path / f"{shown}.log", "w") as log:
            monkeypatch.setattr(sys, "stderr", log)
            results = tournament.run(["random", "random"], 2, 0, settings(2), workers=1, progress_bar=shown)
        assert len(results) == 2
    assert "2/2" in (tmp_path / "True.log").read_text()
    assert (tmp_path / "False.log").read_text() == ""
