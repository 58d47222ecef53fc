"""How fast the web app opens and steps through a whole 5-player replay, in a real browser.

Starts ``tribune serve`` on a free port, writes the record of the longest of a few
5-player games between random agents, and drives Debian's headless Chromium with
Playwright, timing inside the page (``performance.now()``, so Playwright's own overhead is
left out): from pressing Open to the board of step 0 drawn, and from pressing "next" to
the next board drawn (the median and the slowest, over every step of the game). The
server is warmed by one open first, as any later open finds it.

    python benchmarks/web_speed.py [--opens 5] [--seeds 5]
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from agents import RandomAgent
from training.arena import records as saved
from training.arena.games import play_game, reset_agents
from tribune_env import Game, saving
from tribune_env.errors import install_hint

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
OPEN = """path => new Promise(resolve => {
  const start = performance.now();
  new MutationObserver((_, observer) => {
    if (document.querySelector('#replay-board .board-inner')) { observer.disconnect(); resolve(performance.now() - start); }
  }).observe(document.getElementById('replay-board'), { childList: true, subtree: true });
  document.getElementById('path').value = path;
  document.querySelector('#open-path button').click();
})"""
STEP = """step => new Promise(resolve => {
  const start = performance.now();
  const label = document.getElementById('step-label');
  new MutationObserver((_, observer) => {
    if (label.textContent.startsWith(`step ${step} `)) { observer.disconnect(); resolve(performance.now() - start); }
  }).observe(label, { childList: true, characterData: true, subtree: true });
  document.getElementById('forward').click();
})"""


def longest_record(seeds: int) -> dict:
    records = []
    for seed in range(seeds):
        game = Game(5, seed=seed)
        agents = [RandomAgent() for _ in range(5)]
        reset_agents(agents, seed)
        play_game(game, agents, ["random"] * 5)
        records.append(saving.record(game, ["random"] * 5))
    return max(records, key=lambda r: len(r["actions"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opens", type=int, default=5, help="times the replay is opened")
    parser.add_argument("--seeds", type=int, default=5, help="games played to pick the longest")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    try:  # the test extra's, not the core's: --help works without it
        from playwright.sync_api import sync_playwright
    except ImportError:
        sys.exit(f"web_speed.py drives the browser with Playwright, {install_hint('test')}")
    folder = Path(tempfile.mkdtemp())
    record = longest_record(args.seeds)
    saved.write(folder / "game.jsonl", [record])
    steps = len(record["actions"])
    server = subprocess.Popen(
        [Path(sys.executable).parent / "tribune", "serve", "--port", "0", "--records", str(folder / "played.jsonl")],
        stdout=subprocess.PIPE,
        text=True,
    )
    url = re.search(r"http://\S+/", server.stdout.readline())[0]
    opens, moves = [], []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium, args=FLAGS)
            page = browser.new_page(viewport={"width": 1500, "height": 1100})
            for _ in range(args.opens + 1):
                page.goto(url)
                page.wait_for_selector("body[data-ready=true]")
                opens.append(page.evaluate(OPEN, str(folder / "game.jsonl")) / 1000)
            opens = opens[1:]  # the first warms the server
            for step in range(1, steps + 1):
                moves.append(page.evaluate(STEP, step) / 1000)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"a 5-player game of {steps} steps ({record['outcome']['rounds']} rounds), {args.opens} opens")
    print("| | median | slowest |")
    print("|---|---|---|")
    print(f"| open the replay, board drawn | {statistics.median(opens) * 1000:.0f} ms | {max(opens) * 1000:.0f} ms |")
    print(f"| one step forward, board drawn | {statistics.median(moves) * 1000:.1f} ms | {max(moves) * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
