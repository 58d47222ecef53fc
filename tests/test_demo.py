"""The demo game (`tribune demo`) plays a whole game and shows the result."""

from training.tools import demo


def test_demo_plays_to_the_end(capsys):
    demo.show(3, 2, quiet=False)
    out = capsys.readouterr().out
    assert "Game over:" in out
    assert "round 1: player_" in out  # the log was printed
    assert out.count("player_0") > 1


def test_demo_game_is_seeded():
    a, b = demo.random_game(2, 5), demo.random_game(2, 5)
    assert a.state_equals(b) and a.log == b.log
