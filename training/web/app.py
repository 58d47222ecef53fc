"""The web app of ``tribune serve``: replays of game records and games against agents, for one person's browser.

A JSON API under ``/api`` and one static page (``static/``, no network needed). Records
files, opened replays and matches are held in memory by id, the least recently used
dropped first; the ids live in the page, so two tabs hold two games. Every bad input (a
malformed record, an illegal action, a wrong setting) is a 400 answer with an ``error``
message, and what it was aimed at is left as it was. Only the app's own page may change
anything (the Origin of a request), and a server on this machine answers only to this
machine's names (the Host), so that no other web page can drive it.
"""

from __future__ import annotations

import io
import ipaddress
import json
import logging
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import FastAPI, File, HTTPException, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware

from agents import LOCAL_ONLY, parse_spec
from tribune_env import FACTIONS, LEADERS, VICTORY_CARDS, ConfigError, StateFormatError, TribuneError, card_name
from tribune_env.data import NUM_CARD_TYPES, NUM_VALUES, OBJECTIVES, PHASE_NAMES, REGIONS
from tribune_env.table import HIDDEN

from ..arena import records as saved
from ..bounds import MAX_ROUND_LIMIT, MAX_SEED
from .matches import Match
from .replays import CHUNK, Replay

STATIC = Path(__file__).parent / "static"
MAX_RECORDS_FILE = 64 * 2**20  # bytes of a records file opened or uploaded (a file is kept as read)
MAX_REPLAYS_MEMORY = 128 * 2**20  # bytes the replays held may take, as Replay.nbytes counts them
MAX_BODY = 64 * 2**10  # bytes of any other request body: the largest a request can mean is some 17 KiB
UPLOAD = "/api/records/upload"
log = logging.getLogger("training.web")  # throttled by tribune serve (server.py)


class NotFound(Exception):
    """An id the server does not hold (never issued, or dropped as least recently used)."""


class Store:
    """Objects by random id, the least recently used dropped while their sizes add up to more
    than `limit` (each counts 1 unless `size` says otherwise); the newest is always kept."""

    def __init__(self, kind: str, limit: int, size=lambda item: 1):
        self.kind, self.limit, self.size = kind, limit, size
        self._items: OrderedDict[str, object] = OrderedDict()
        self._sizes: dict[str, int] = {}
        self._lock = threading.Lock()

    def add(self, item) -> str:
        key, size = secrets.token_urlsafe(12), self.size(item)
        with self._lock:
            self._items[key], self._sizes[key] = item, size
            while sum(self._sizes.values()) > self.limit and len(self._items) > 1:
                del self._sizes[self._items.popitem(last=False)[0]]
        return key

    def get(self, key: str):
        with self._lock:
            if key not in self._items:
                raise NotFound(f"no {self.kind} {key!r} here (it may have been closed to make room)")
            self._items.move_to_end(key)
            return self._items[key]


class RecordsFile:
    """A records file as read: its lines, parsed again when a game is opened, and its list of games."""

    def __init__(self, lines, name: str):
        self.name, self.lines = name, list(lines)
        if not self.lines:
            raise StateFormatError(f"{name} holds no game records")
        self.games = [summary(i, self.record(i)) for i in range(len(self.lines))]

    def record(self, index: int) -> dict:
        if not 0 <= index < len(self.lines):
            raise StateFormatError(f"the file holds {len(self.lines)} game(s); there is no game {index}")
        number, line = self.lines[index]
        return saved.parse(line, f"{self.name}, line {number}")


def on_this_machine(host: str | None) -> bool:
    """Whether a host name from a request names this machine (a loopback address, or localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host or "").is_loopback
    except ValueError:
        return False


class Strict(BaseModel):
    """A request body: no unknown key, and every value of its own JSON type (``"28"``, ``28.0``
    and ``true`` are not the number 28 or 1)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class PathRequest(Strict):
    path: str = Field(min_length=1, max_length=4096)


class MatchRequest(Strict):
    players: int = Field(4, ge=2, le=5)
    seat: int = Field(0, ge=0, le=4)
    opponents: list[Annotated[str, Field(max_length=4096)]] = Field(["random"], min_length=1, max_length=4)
    victory_card: str | None = Field(None, max_length=100)
    point_variant: bool = False
    seed: int | None = Field(None, ge=0, le=MAX_SEED)
    round_limit: int | None = Field(None, ge=1, le=MAX_ROUND_LIMIT)


class ActionRequest(Strict):
    action: int = Field(ge=0)


class BodyLimit:
    """Refuse a request body over its limit with 413 before reading it: by its Content-Length
    when it states one, else as it streams in. Uploads of records files may be larger."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = MAX_RECORDS_FILE + 2**20 if scope["path"] == UPLOAD else MAX_BODY  # room for the form's headers
        stated = dict(scope["headers"]).get(b"content-length", b"0")
        if not stated.isdigit() or int(stated) > limit:
            return await refusal(f"the request body is over {limit:,} bytes", 413)(scope, receive, send)
        received = 0

        async def counted():
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > limit:
                raise HTTPException(413, f"the request body is over {limit:,} bytes")
            return message

        await self.app(scope, counted, send)


def refusal(message: str, status: int) -> JSONResponse:
    """Every refusal of the app, whatever layer makes it: ``{"error": message}``."""
    return JSONResponse({"error": message}, status_code=status)


def catalogue() -> dict:
    """The names a drawing of the board needs once: factions, leaders, regions, cards, phases."""
    return {
        "factions": FACTIONS,
        "leaders": LEADERS,
        "regions": REGIONS,
        "phases": PHASE_NAMES,
        "objectives": OBJECTIVES,
        "cards": [card_name(c) for c in range(NUM_CARD_TYPES)],
        "values": NUM_VALUES,
        "hidden": HIDDEN,
        "victory_cards": sorted(VICTORY_CARDS),
    }


def create_app(records_path: Path, local: bool = True) -> FastAPI:
    """The app; finished matches are added to the records file `records_path`.

    Unless `local` (the server reachable from this machine only), the page may not open
    files of this machine by path nor load agents from files (a model file runs code): a
    page from elsewhere uploads its records and plays the built-in agents.
    """
    # no /docs page: FastAPI's loads its scripts from a CDN; the schema is at /api/openapi.json
    app = FastAPI(title="tribune", docs_url=None, redoc_url=None, openapi_url="/api/openapi.json")
    app.add_middleware(GZipMiddleware, minimum_size=2048)
    app.add_middleware(BodyLimit)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    # a records file holds at most 64 MiB; replays are counted by what they hold (Replay.nbytes)
    files, matches = Store("records file", 4), Store("match", 64)
    replays = Store("replay", MAX_REPLAYS_MEMORY, Replay.nbytes)
    file_lock = threading.Lock()

    @app.middleware("http")
    async def own_page_only(request: Request, call_next):
        """Refuse what another web page sends: a request whose Origin is not this server, and, on
        this machine, one whose Host is not this machine (DNS rebinding)."""
        host = request.headers.get("host", "")
        origin = request.headers.get("origin")
        if local and not on_this_machine(urlsplit(f"//{host}").hostname):
            return refusal(f"host {host!r} is not this machine", 403)
        if origin is not None and request.method != "GET" and urlsplit(origin).netloc != host:
            return refusal(f"a request from {origin} is refused: only this app's page may send one", 403)
        return await call_next(request)

    @app.exception_handler(TribuneError)
    def bad_input(request: Request, exc: TribuneError):
        return refusal(str(exc), 400)

    @app.exception_handler(NotFound)
    def not_found(request: Request, exc: NotFound):
        return refusal(str(exc), 404)

    @app.exception_handler(RequestValidationError)
    def invalid(request: Request, exc: RequestValidationError):
        problems = "; ".join(f"{'.'.join(map(str, e['loc'][1:])) or 'body'}: {e['msg']}" for e in exc.errors())
        return refusal(f"bad request: {problems}", 400)

    @app.exception_handler(StarletteHTTPException)
    def refused_on_the_way(request: Request, exc: StarletteHTTPException):
        """What FastAPI and Starlette refuse themselves (an unreadable body, an unknown path),
        in the app's one shape."""
        return refusal(str(exc.detail), exc.status_code)

    @app.get("/", include_in_schema=False)
    def page():
        return FileResponse(STATIC / "index.html")

    @app.get("/api/catalogue")
    def get_catalogue():
        return catalogue() | {"records_path": str(records_path), "local": local, "chunk": CHUNK}

    def opened(lines, name: str) -> dict:
        records = RecordsFile(lines, name)
        return {"id": files.add(records), "name": name, "games": records.games}

    @app.post(UPLOAD)
    def upload(file: Annotated[UploadFile, File()]):
        data = file.file.read(MAX_RECORDS_FILE + 1)
        name = file.filename or "upload"
        if len(data) > MAX_RECORDS_FILE:
            raise StateFormatError(f"{name} is over {MAX_RECORDS_FILE // 2**20} MiB")
        return opened(saved.lines(io.BytesIO(data), name), name)

    @app.post("/api/records/path")
    def open_path(request: PathRequest):
        if not local:
            raise ConfigError("this server is reachable from other machines: upload the records file instead")
        path = Path(request.path).expanduser()
        try:
            if not path.is_file():
                raise StateFormatError(f"{path} is not a file")
            if path.stat().st_size > MAX_RECORDS_FILE:
                raise StateFormatError(f"{path} is over {MAX_RECORDS_FILE // 2**20} MiB")
            with open(path, "rb") as f:
                return opened(saved.lines(f, str(path)), str(path))
        except OSError as exc:
            raise StateFormatError(f"cannot read {path}: {exc.strerror or exc}") from None

    @app.post("/api/records/{file_id}/games/{index}")
    def open_replay(file_id: str, index: int):
        replay = Replay(files.get(file_id).record(index))
        return {"id": replays.add(replay), **replay.info()}

    # The two answers a replay is made of are plain data, sent as they are: FastAPI's
    # encoder would walk every value of a few hundred kilobytes first.
    @app.get("/api/replays/{replay_id}/moves")
    def moves(replay_id: str, view: int | None = None):
        return StreamingResponse(json_list("moves", replays.get(replay_id).moves(view)), media_type="application/json")

    @app.get("/api/replays/{replay_id}/tables")
    def tables(replay_id: str, start: int = 0, count: int = CHUNK, view: int | None = None):
        return JSONResponse({"start": start, "tables": replays.get(replay_id).tables(view, start, count)})

    @app.post("/api/matches")
    def new_match(request: MatchRequest):
        specs = request.opponents * (request.players - 1) if len(request.opponents) == 1 else request.opponents
        if not local and any(parse_spec(spec)[0] in LOCAL_ONLY for spec in specs):
            raise ConfigError(
                "this server is reachable from other machines: it loads no agent from a file and runs no program"
            )
        seed = secrets.randbelow(MAX_SEED + 1) if request.seed is None else request.seed
        settings = {
            "num_players": request.players,
            "victory_card": None if request.point_variant else request.victory_card,
            "point_variant": request.point_variant,
            "round_limit": request.round_limit,
        }
        try:
            match = Match(settings, request.seat, list(specs), seed, keep)
        except ImportError as exc:
            raise StateFormatError(f"an agent is not available: {exc}") from None
        return {"id": matches.add(match), **match.view()}

    @app.get("/api/matches/{match_id}")
    def get_match(match_id: str):
        match = matches.get(match_id)
        with match.lock:
            return {"id": match_id, **match.view()}

    @app.post("/api/matches/{match_id}/actions")
    def act(match_id: str, request: ActionRequest):
        match = matches.get(match_id)
        with match.lock:
            match.play(request.action)
            return {"id": match_id, **match.view()}

    @app.post("/api/matches/{match_id}/replay")
    def replay_match(match_id: str):
        match = matches.get(match_id)
        if match.record is None:
            raise StateFormatError("the game is not over yet")
        return opened([(1, json.dumps(match.record).encode())], "this game")

    def keep(record: dict) -> str | None:
        """A finished match, added to the records file; if the file cannot be written, why, logged:
        the game stands, and its record is still in the page and can be replayed."""
        with file_lock:
            try:
                saved.write(records_path, [record], append=True)
            except OSError as exc:
                warning = f"the game could not be added to {records_path}: {exc.strerror or exc}"
                log.warning("tribune serve: %s", warning)
                return warning
        return None

    return app


def json_list(key: str, items: Iterable, batch: int = 256) -> Iterator[bytes]:
    """``{key: [items]}`` as JSON text, a batch of items at a time, so that a long list (the
    moves of 10,000 rounds) is never whole in memory, neither as objects nor as text."""
    yield b"{" + json.dumps(key).encode() + b":["
    items, comma = iter(items), b""
    while chunk := list(islice(items, batch)):
        yield comma + json.dumps(chunk, ensure_ascii=False, separators=(",", ":"))[1:-1].encode()
        comma = b","
    yield b"]}"


def summary(index: int, record: dict) -> dict:
    """One line of a records file's list of games (checked only as far as the list needs: the
    game is checked when it is opened)."""
    winners = (record["outcome"] or {}).get("winners")  # none for a game saved before its end
    return {
        "index": index,
        "agents": [str(a) for a in record["agents"]],
        "steps": len(record["actions"]),
        "winners": winners if isinstance(winners, list) and all(type(w) is int for w in winners) else [],
    }
