"""The demo game (`tribune demo`) plays a whole game and shows the result."""
from tribune_env import demo


def test_demo_plays_to_the_end(capsys):
    demo.main(["--players", "3", "--seed", "2"])
    out = capsys.readouterr().out
    assert "Game over:" in out
    assert "round 1: player_" in out               # the log was printed
    assert out.count("player_0") > 1


def test_demo_game_is_seeded():
    a, b = demo.play(2, 5), demo.play(2, 5)
    assert a.state_equals(b) and a.log == b.log
