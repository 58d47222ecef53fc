"""tribune serve in a real browser: Debian's headless Chromium, driven by Playwright.

The server is started as a user starts it (``tribune serve --port 0``). Screenshots are kept
in ``test-artifacts/web/`` (or ``$TRIBUNE_ARTIFACTS/web``). The browser is ``$TRIBUNE_CHROMIUM``,
else ``chromium`` on the PATH. Without one these tests skip, saying how to get one, except
under CI (``CI=true``), where they fail: CI must run them (the README's test command installs
Debian's ``chromium`` when it can).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright  # the test extra: the full tier

from test_web import record_of, replayed_games, untold  # noqa: E402

from training.arena import records as saved  # noqa: E402
from training.web.replays import Replay  # noqa: E402

ROOT = Path(__file__).parents[1]
ARTIFACTS = Path(os.environ.get("TRIBUNE_ARTIFACTS", ROOT / "test-artifacts")) / "web"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-background-networking",  # the machine has no network: no update checks
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str:
    path = os.environ.get("TRIBUNE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        reason = (
            "no Chromium: install Debian's (apt-get install chromium, as the README's test command does as root) "
            "or set TRIBUNE_CHROMIUM to a Chromium executable"
        )
        (pytest.fail if os.environ.get("CI") else pytest.skip)(reason)
    return path


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """tribune serve on a free port of this machine, with a records file of three games."""
    folder = tmp_path_factory.mktemp("serve")
    saved.write(folder / "games.jsonl", [record_of(4, 21), record_of(2, 8), record_of(5, 2)])
    process = subprocess.Popen(
        [Path(sys.executable).parent / "tribune", "serve", "--port", "0", "--records", str(folder / "played.jsonl")],
        stdout=subprocess.PIPE,
        text=True,
        cwd=folder,
    )
    line = process.stdout.readline()
    address = re.search(r"http://127\.0\.0\.1:\d+/", line)
    assert address, f"tribune serve printed {line!r}"
    yield address[0], folder
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, server):
    page = browser.new_page(viewport={"width": 1500, "height": 1100})
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server[0])
    page.wait_for_selector("body[data-ready=true]")
    yield page
    page.close()
    assert not errors, f"the page raised {errors}"


def screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"{name}.png", full_page=True)


def board_shows(page, game, viewer=None) -> None:
    """The drawn board holds the game's money, laurels, hands, board cards, followers and faction sets."""
    table = game.table(viewer)
    board = page.locator("#replay-board")
    for p in table["players"]:
        box = board.locator(f".player[data-player='{p['seat']}']")
        assert box.locator(".stat.denarii b").inner_text() == str(p["denarii"])
        assert box.locator(".stat.laurels b").inner_text() == str(p["laurels"])
        assert box.locator(".stat.legions b").inner_text() == str(p["legions"])
        assert box.locator(".hand-size").inner_text() == f"hand: {p['hand_size']} card(s)"
        shown = box.locator(".hand .card").evaluate_all("cards => cards.map(c => Number(c.dataset.code))")
        assert shown == (p["hand"] or [])
        known = box.locator(".known .card").evaluate_all("cards => cards.map(c => Number(c.dataset.code))")
        assert known == ([] if p["hand"] else p["known"])  # what every seat saw go into a hidden hand
    for r, region in enumerate(table["regions"]):
        codes = board.locator(f".region[data-region='{r}'] .slots .card").evaluate_all(
            "cards => cards.map(c => c.dataset.code ?? null)"
        )
        assert codes == [None if c is None else "hidden" if c["card"] < 0 else str(c["card"]) for c in region["cards"]]
    owners = board.locator(".space[data-space]").evaluate_all("spaces => spaces.map(s => s.dataset.owner)")
    assert owners == [str(int(o)) if o >= 0 else "" for o in game.state.space_owner]
    for f, faction in enumerate(table["factions"]):
        shown = board.locator(f".faction[data-faction='{f}'] > .cards .card").evaluate_all(
            "cards => cards.map(c => Number(c.dataset.code))"
        )
        assert shown == faction["set"]


def test_a_replay_steps_through_the_saved_states(page, server):
    games = replayed_games(saved.read(server[1] / "games.jsonl", 0))
    page.fill("#path", str(server[1] / "games.jsonl"))
    page.click("#open-path button")
    page.wait_for_selector("#replay-board .board-inner")
    assert page.locator("#game-select option").count() == 3
    assert page.inner_text("#step-label") == f"step 0 of {len(games) - 1}"
    board_shows(page, games[0])

    def at(step):
        page.wait_for_function(f"document.getElementById('step-label').textContent.startsWith('step {step} ')")
        board_shows(page, games[step])

    for _ in range(37):
        page.click("#forward")
    at(37)
    page.click("#back")
    at(36)
    screenshot(page, "replay-step-36")
    page.keyboard.press("ArrowRight")
    at(37)
    page.click("#last")
    at(len(games) - 1)
    assert page.inner_text(".decision").startswith("Game over")
    page.click("#first")
    at(0)

    round_three = next(i for i, g in enumerate(games) if g.round == 3)
    page.select_option("#round-select", "3")
    at(round_three)
    phase = next(i for i, g in enumerate(games) if g.round == 3 and g.phase == 4)
    page.select_option("#phase-select", "4")
    at(phase)
    assert page.inner_text("#replay-log li.current") in games[phase].log

    page.select_option("#speed", "40")
    page.click("#auto")
    page.wait_for_function(f"Number(document.getElementById('step-label').textContent.split(' ')[1]) >= {phase + 20}")
    page.click("#auto")
    step = int(page.inner_text("#step-label").split()[1])
    page.wait_for_timeout(200)
    assert int(page.inner_text("#step-label").split()[1]) == step, "pause stops the replay"
    at(step)


def test_a_seat_view_shows_what_that_seat_knew(page, server):
    record = saved.read(server[1] / "games.jsonl", 2)
    games = replayed_games(record)
    page.fill("#path", str(server[1] / "games.jsonl"))
    page.click("#open-path button")
    page.wait_for_selector("#game-select:not([hidden])")
    page.select_option("#game-select", "2")
    page.wait_for_function(f"document.getElementById('step-label').textContent === 'step 0 of {len(games) - 1}'")
    page.select_option("#view-select", "3")
    page.wait_for_selector(".player[data-player='3'] .name:has-text('this view')")
    # the seat steps through the moves it knew of: not the other players' cards added to sets
    known = [0] + [k for k, (a, g) in enumerate(zip(record["actions"], games), 1) if not untold(g, a, 3)]
    page.wait_for_function(f"document.getElementById('step-label').textContent === 'step 0 of {len(known) - 1}'")
    position = next(i for i, k in enumerate(known) if games[k].round == 2 and games[k].phase == 3)
    page.select_option("#round-select", "2")
    page.select_option("#phase-select", "3")
    page.wait_for_function(f"document.getElementById('step-label').textContent.startsWith('step {position} ')")
    game = games[known[position]]
    board_shows(page, game, viewer=3)
    seen = list(Replay(record).moves(3))[position]
    assert page.inner_text("#replay-move") == seen["move"]
    assert page.locator("#replay-log li.current").all_inner_texts() == seen["lines"]
    for q in (0, 1, 2, 4):
        assert page.locator(f".player[data-player='{q}'] .hand .card").count() == 0
    assert page.locator(".player[data-player='3'] .hand .card").count() == game.state.hand[3].sum()
    screenshot(page, "replay-seat-view")


def test_a_malformed_file_shows_an_error_and_the_page_goes_on(page, server):
    bad = server[1] / "bad.jsonl"
    bad.write_bytes(b'{"format": "tribune-record", "version": 1}\n')
    page.fill("#path", str(bad))
    page.click("#open-path button")
    page.wait_for_selector("#error:not([hidden])")
    assert "the record has no 'config'" in page.inner_text("#error")
    screenshot(page, "replay-error")
    unplayable = server[1] / "unplayable.jsonl"
    record = saved.read(server[1] / "games.jsonl", 1)
    saved.write(unplayable, [{**record, "actions": [10_000, *record["actions"]]}])
    page.set_input_files("#upload", str(unplayable))
    page.wait_for_function(
        "document.getElementById('error').textContent.includes('action 0 is 10000, outside the actions')"
    )
    page.set_input_files("#upload", str(server[1] / "games.jsonl"))
    page.wait_for_selector("#replay-board .board-inner")
    assert page.locator("#error").is_hidden()


def test_a_person_plays_a_whole_game_by_clicking(page, server):
    page.click("#tab-play")
    page.select_option("#players", "2")
    page.select_option("#seat", "1")
    page.fill("#opponents", "random")
    page.fill("#seed", "12")
    page.select_option("#opponent-speed", "0")
    page.click("#start")
    rng = np.random.default_rng(0)
    board_clicks = button_clicks = 0
    while True:
        page.wait_for_selector("#choices .choice, #result")
        page.wait_for_function("!document.body.classList.contains('busy')")
        if page.locator("#result").count():
            break
        on_board = page.locator("#play-board .choosable")
        if on_board.count() and rng.random() < 0.8:
            on_board.nth(int(rng.integers(on_board.count()))).click()
            board_clicks += 1
        else:
            buttons = page.locator("#choices .choice")
            buttons.nth(int(rng.integers(buttons.count()))).click()
            button_clicks += 1
        if board_clicks + button_clicks == 30:
            screenshot(page, "play-mid-game")
        assert page.locator("#error").is_hidden(), page.inner_text("#error")
    screenshot(page, "play-end")
    assert board_clicks > 20 and button_clicks > 0
    record = saved.read(server[1] / "played.jsonl", 0)
    assert record["agents"] == ["random", "human"]
    game = replayed_games(record)[-1]
    assert saved.matches(game, record)
    result = page.inner_text("#result")
    assert result.startswith("You won!" if 1 in game.winners() else f"You finished with {game.scores()[1]} points")
    page.click("#choices button:has-text('Watch the replay')")
    page.wait_for_function(
        f"document.getElementById('step-label').textContent === 'step 0 of {len(record['actions'])}'"
    )
    assert page.locator("#replay-page").is_visible()


def test_two_games_in_two_tabs_do_not_see_each_other(browser, server):
    context = browser.new_context(viewport={"width": 1500, "height": 1100})
    tabs = [context.new_page(), context.new_page()]
    for tab in tabs:
        tab.goto(server[0])
        tab.wait_for_selector("body[data-ready=true]")
        tab.click("#tab-play")
        tab.select_option("#players", "2")
        tab.fill("#seed", "3")
        tab.select_option("#opponent-speed", "0")
        tab.click("#start")
        tab.wait_for_selector("#choices .choice")
    one, two = tabs
    dealt = two.inner_html("#play-board")
    assert one.inner_html("#play-board") == dealt, "the same seed deals the same game"
    one.locator("#choices .choice").first.click()
    one.wait_for_function("!document.body.classList.contains('busy')")
    assert one.inner_html("#play-board") != dealt
    assert two.inner_html("#play-board") == dealt
    two.locator("#choices .choice").last.click()
    two.wait_for_function("!document.body.classList.contains('busy')")
    assert two.locator("#error").is_hidden() and one.inner_html("#play-board") != two.inner_html("#play-board")
    context.close()
