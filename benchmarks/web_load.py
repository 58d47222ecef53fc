"""The web app under load and abuse: requests a second, latency, and the server's memory.

Starts ``tribune serve`` on a free port. Load: --clients clients at once, each playing
whole games through the API against agents (a 4-player game against the shipped policy,
``policy:`` in every other seat, and the heuristic), choosing a random legal move; the
requests a second and the median and 99th-percentile latency. Abuse: malformed and
oversized requests (bodies of 50 MB announced, deep nesting, numbers of 5,000 digits, invalid UTF-8,
unknown keys, actions as strings, bools and floats, tables past the end of a replay); every
answer must be a refusal of the documented shape. Then --half-open connections that send
half a request head and nothing more, the server limited to 1,024 open files: a new client
must still be answered, and the server's log stay short. The server's resident memory
(``/proc/PID/status``) before the load, at its peak, after the load and after the abuse.

    python benchmarks/web_load.py [--clients 20] [--games 2] [--half-open 1100]
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

OPPONENTS = (["policy:shipped-4p"], ["heuristic"])
ABUSE_MEMORY_MB = 16  # what the abuse phase may add to the server's memory at most
SERVER_FILES = 1024  # the server's limit of open files, soft and hard: a common default


def memory_mb(pid: int, field: str = "VmRSS") -> float:
    text = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(rf"{field}:\s+(\d+) kB", text)[1]) / 1024


class Client:
    """JSON requests to the server, each timed."""

    def __init__(self, url: str):
        self.url, self.times = url, []

    def send(self, method: str, path: str, body: bytes | None = None, headers=None):
        request = urllib.request.Request(self.url + path, data=body, method=method, headers=headers or {})
        if body is not None and "Content-Type" not in request.headers:
            request.add_header("Content-Type", "application/json")
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=300) as answer:
                status, text = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read()
        self.times.append(time.perf_counter() - start)
        return status, json.loads(text)

    def play(self, players: int, opponents: list, seed: int) -> int:
        """One whole game; the number of moves the client made."""
        rng = random.Random(seed)
        body = {"players": players, "opponents": opponents, "seed": seed, "seat": seed % players}
        status, match = self.send("POST", "/api/matches", json.dumps(body).encode())
        assert status == 200, match
        moves = 0
        while match["ending"] is None:
            action = rng.choice(match["legal"])["action"]
            status, match = self.send(
                "POST", f"/api/matches/{match['id']}/actions", json.dumps({"action": action}).encode()
            )
            assert status == 200, match
            moves += 1
        return moves


def oversized(url: str, size: int) -> int:
    """Announce a body of `size` bytes and wait for the answer before sending it, as a client
    would with ``Expect: 100-continue``: the server refuses it unread. Its status."""
    host, port = urlsplit(url).hostname, urlsplit(url).port
    connection = http.client.HTTPConnection(host, port, timeout=60)
    connection.putrequest("POST", "/api/matches")
    connection.putheader("Content-Type", "application/json")
    connection.putheader("Content-Length", str(size))
    connection.endheaders()
    answer = connection.getresponse()
    status, body = answer.status, json.loads(answer.read())
    connection.close()
    assert set(body) == {"error"}, body
    return status


def abuse(client: Client, replay_id: str) -> int:
    """Malformed and oversized requests; each must be refused as {"error": ...}. How many were sent."""
    json_type = {"Content-Type": "application/json"}
    cases = [
        ("POST", "/api/matches", b"[" * 5000 + b"]" * 5000, 400),
        ("POST", "/api/matches", b'{"seed": ' + b"9" * 5000 + b"}", 400),
        ("POST", "/api/matches", b'{"players": "\xff\xfe"}', 400),
        ("POST", "/api/matches", json.dumps({"players": 2, "unknown": "x" * 60000}).encode(), 400),
        ("POST", "/api/records/path", json.dumps({"path": "../../etc/shadow"}).encode(), 400),
        ("GET", f"/api/replays/{replay_id}/tables?start=512", None, 200),
        ("GET", f"/api/replays/{replay_id}/tables?start={10**30}", None, 200),
        ("GET", "/api/nowhere", None, 404),
    ]
    _, match = client.send("POST", "/api/matches", json.dumps({"players": 2, "opponents": ["random"]}).encode())
    for action in ('"28"', "28.0", "true"):
        cases.append(("POST", f"/api/matches/{match['id']}/actions", f'{{"action": {action}}}'.encode(), 400))
    for _ in range(10):
        assert oversized(client.url, 50 * 2**20) == 413
        for method, path, body, expected in cases:
            status, answer = client.send(method, path, body, json_type if body else None)
            assert status == expected, (path, status, answer)
            assert (status == 200 and answer.get("tables") == []) or set(answer) == {"error"}, (path, answer)
    return 10 * (len(cases) + 1)


def half_open(url: str, count: int) -> tuple[int, float]:
    """Open `count` connections each sending half a request head, then ask as a new client:
    its status and seconds. The connections are closed at the end."""
    host, port = urlsplit(url).hostname, urlsplit(url).port
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, count + 256)), hard))
    idle = []
    try:
        for _ in range(count):
            idle.append(socket.create_connection((host, port), timeout=30))
            idle[-1].sendall(b"GET /api/catalogue HTTP/1.1\r\nHost: " + host.encode() + b"\r\n")
        start = time.perf_counter()
        status, _ = Client(url).send("GET", "/api/catalogue")
        return status, time.perf_counter() - start
    finally:
        for connection in idle:
            connection.close()


def limit_open_files():
    resource.setrlimit(resource.RLIMIT_NOFILE, (SERVER_FILES, SERVER_FILES))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--games", type=int, default=2, help="games each client plays")
    parser.add_argument("--half-open", type=int, default=1100, help="connections that send half a request head")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    log = open(folder / "server.log", "w")
    server = subprocess.Popen(
        [Path(sys.executable).parent / "tribune", "serve", "--port", "0", "--records", str(folder / "played.jsonl")],
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
        preexec_fn=limit_open_files,
    )
    try:
        url = re.search(r"http://\S+/", server.stdout.readline())[0].rstrip("/")
        Client(url).send("GET", "/api/catalogue")
        before = memory_mb(server.pid)
        peak, done = [before], threading.Event()

        def watch():
            while not done.wait(0.2):
                peak.append(memory_mb(server.pid))

        threading.Thread(target=watch, daemon=True).start()
        clients = [Client(url) for _ in range(args.clients)]
        jobs = [
            (c, 4 if k % 2 == 0 else 3, OPPONENTS[k % 2], 100 * i + k)
            for i, c in enumerate(clients)
            for k in range(args.games)
        ]
        start = time.perf_counter()
        with ThreadPoolExecutor(args.clients) as pool:
            moves = sum(pool.map(lambda job: job[0].play(*job[1:]), jobs))
        seconds = time.perf_counter() - start
        loaded = memory_mb(server.pid)
        times = sorted(t for c in clients for t in c.times)
        p99 = times[int(0.99 * (len(times) - 1))]
        print(
            f"load: {args.clients} clients, {len(jobs)} whole games ({moves} moves), {len(times)} requests in {seconds:.1f} s"
        )
        print(
            f"  {len(times) / seconds:.0f} requests/s; latency median {1000 * statistics.median(times):.0f} ms, p99 {1000 * p99:.0f} ms"
        )
        watcher = Client(url)
        status, opened = watcher.send(
            "POST", "/api/records/path", json.dumps({"path": str(folder / "played.jsonl")}).encode()
        )
        _, replay = watcher.send("POST", f"/api/records/{opened['id']}/games/0")
        sent = abuse(watcher, replay["id"])
        done.set()
        after = memory_mb(server.pid)
        assert after - loaded <= ABUSE_MEMORY_MB, f"the abuse left {after - loaded:.0f} MB more in the server"
        print(f"abuse: {sent} malformed or oversized requests, every one refused as documented")
        print(
            f"server memory (MB): before {before:.0f}, peak {max(peak + [memory_mb(server.pid, 'VmHWM')]):.0f}, "
            f"after the load {loaded:.0f}, after the abuse {after:.0f} ({after - loaded:+.0f})"
        )
        status, seconds = half_open(url, args.half_open)
        assert status == 200, status
        print(
            f"half-open: {args.half_open} connections sending half a request head to a server of "
            f"{SERVER_FILES:,} open files; a new client answered in {1000 * seconds:.0f} ms; "
            f"the server's log holds {(folder / 'server.log').stat().st_size:,} bytes"
        )
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


if __name__ == "__main__":
    main()
