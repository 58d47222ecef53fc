"""A seat played by another program (a bot in any language, a model's server) over JSON lines.

Tribune starts the program (an argument list, no shell) and writes one JSON object a line to
its standard input: ``start`` at a game's first decision, ``decision`` at each of the seat's
decisions (its view, :meth:`tribune_env.text_seat.TextSeat.view`, and the prompt), ``error``
after an answer it could not take, ``forfeit`` when it played a move for the seat, and ``end``.
The program answers each ``decision`` and ``error`` with one line, ``{"move": "<label>"}`` or
``{"action": <id>}``, within `timeout` seconds. docs/text-seat.md has every message.

Nothing the program does stops the game: a malformed line or an illegal move is a failed
answer (asked again, then forfeited, as for every text agent); a program that exits, closes
its output or keeps silent past the timeout is stopped, reported (a warning, and ``failures``
in the agent's tally), and forfeits the rest of the game; the next game starts it again. Its
input and output are served by threads, so neither a program that stops reading nor one that
floods its output can block tribune; a line over 1 MiB is refused. What the program writes to
its standard error goes to tribune's.
"""

from __future__ import annotations

import json
import logging
import queue
import shlex
import shutil
import subprocess
import threading
import weakref

from tribune_env.errors import AnswerError, ConfigError, brief
from tribune_env.text_seat import prompt

from .text import TextSeatAgent, Unanswered

log = logging.getLogger(__name__)

PROTOCOL = 1  # the version in every start message
MAX_LINE = 2**20  # bytes of one line from the program
UNREAD = 100  # lines held from the program before its writes wait
GRACE = 2.0  # seconds a program has to exit once its input is closed
TOO_LONG = b""  # stands for a line over MAX_LINE bytes (a real line is never empty: it ends in a newline)


class ProgramAgent(TextSeatAgent):
    """Plays its seat through the program `cmd` (a command line, split as a shell would but run
    without one, or an argument list) over JSON lines; spec ``program:cmd=COMMAND``."""

    name = "program"
    COUNTS = (*TextSeatAgent.COUNTS, "failures")  # the program exited, closed its output or timed out

    def __init__(self, seed: int | None = None, cmd=None, retries: int = 2, timeout: float = 30.0):
        super().__init__(seed, retries, timeout)
        self.argv = command(cmd)
        self._program = None  # the running Program, started at a game's first decision
        self._seed = seed
        self._open = False  # a start was sent, and no end yet
        self._failure = None  # why the program gave no answer this game

    def __repr__(self):
        return f"ProgramAgent({shlex.join(self.argv)!r})"

    def reset(self, seed: int | None = None) -> None:
        if self._open:  # the last game stopped before its end
            self._send({"type": "end", "outcome": None, "counts": self.tally()})
            self._open = False
        super().reset(seed)
        self._seed, self._failure = seed, None

    def close(self) -> None:
        """Stop the program (closing its input, then killing it if it is still running after 2 s)."""
        if self._program is not None:
            self._program.stop()
            self._program = None

    def begin(self, view) -> None:
        if self._program is None or self._program.process.poll() is not None:  # none yet, or it exited between games
            self.close()
            try:
                self._program = Program(self.argv)
            except OSError as exc:
                self._fail(view.seat, f"could not start: {exc}")
                return
        self._send(
            {"type": "start", "protocol": PROTOCOL, "seat": view.seat, "players": view.num_players, "seed": self._seed}
        )
        self._open = True

    def ask(self, view: dict, problem: str | None) -> str:
        if self._failure is not None:
            raise Unanswered(self._failure)
        if problem is None:
            self._program.drop_unasked()
            self._send({"type": "decision", **view, "prompt": prompt(view), "attempts": 1 + self.retries})
        else:
            self._send({"type": "error", "message": problem})
        try:
            line = self._program.receive(self.timeout)
        except queue.Empty:
            self._fail(view["seat"], f"gave no answer within {self.timeout:g} s")
            raise Unanswered(self._failure) from None
        if line is None:
            self._fail(view["seat"], self._program.ended())
            raise Unanswered(self._failure)
        return read_line(line, view)

    def forfeited(self, move: dict, view: dict, problem: str | None) -> None:
        super().forfeited(move, view, problem)
        self._send({"type": "forfeit", "message": problem, **move})

    def end(self, view) -> None:
        if self._open:
            seen = self._seat.view(view)
            self._send({"type": "end", **seen, "outcome": seen["table"]["over"], "counts": self.tally()})
            self._open = False
        super().end(view)

    def _send(self, message: dict) -> None:
        if self._failure is None and self._program is not None:
            self._program.send(message)

    def _fail(self, seat: int, why: str) -> None:
        """The program gave up or was given up: stopped, reported, and the seat forfeits the rest of the game."""
        self._failure = f"the program {why}"
        self._count("failures")
        log.warning("%s in seat %d: %s; the seat forfeits the rest of the game", self, seat, self._failure)
        self.close()
        self._open = False


def command(cmd) -> list[str]:
    """`cmd` as an argument list whose program exists, or ConfigError naming the problem."""
    if isinstance(cmd, str):
        try:
            argv = shlex.split(cmd)
        except ValueError as exc:
            raise ConfigError(f"cmd {brief(cmd)} is not a command line: {exc}") from None
    elif isinstance(cmd, (list, tuple)) and all(isinstance(arg, str) for arg in cmd):
        argv = list(cmd)
    else:
        raise ConfigError(f"a program agent needs cmd, the program's command line; got {brief(cmd)}")
    if not argv or not argv[0]:
        raise ConfigError("a program agent's cmd names no program")
    if shutil.which(argv[0]) is None:
        raise ConfigError(f"cmd names no program to run: {argv[0]!r} is not found, or not executable")
    return argv


def read_line(line: bytes, view: dict) -> str:
    """The move a line of the program names, as text for :func:`~tribune_env.text_seat.read_move`:
    ``{"move": "<label>"}`` as it is, ``{"action": <id>}`` as the label of that legal move."""
    if line == TOO_LONG:
        raise AnswerError(f"a line of over {MAX_LINE} bytes")
    try:
        reply = json.loads(line)
    except (ValueError, RecursionError):  # not UTF-8, not JSON, nested too deep
        raise AnswerError(f"not a line of JSON: {_shown(line)}") from None
    if not isinstance(reply, dict) or ("move" in reply) == ("action" in reply):
        raise AnswerError(f'an answer is an object with "move" (a label) or "action" (an id), got {_shown(line)}')
    if "move" in reply:
        if not isinstance(reply["move"], str):
            raise AnswerError(f'"move" must be a legal move\'s label, got {brief(reply["move"])}')
        return reply["move"]
    labels = {move["action"]: move["label"] for move in view["legal"]}
    if type(reply["action"]) is not int or reply["action"] not in labels:  # not True for 1, nor 9.0 for 9
        raise AnswerError(f'"action" {brief(reply["action"])} is not the id of a legal move now')
    return labels[reply["action"]]


def _shown(line: bytes) -> str:
    text = line.decode("utf-8", "replace").strip()
    return repr(text) if len(text) <= 60 else repr(text[:57] + "...")


class Program:
    """A running program and the two threads that serve its input and output."""

    def __init__(self, argv: list[str]):
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self._outbox = queue.Queue()  # lines to write, then None to close its input
        self._inbox = queue.Queue(UNREAD)  # lines read (TOO_LONG for one over MAX_LINE), then None
        threading.Thread(target=_write, args=(self.process.stdin, self._outbox), daemon=True).start()
        threading.Thread(target=_read, args=(self.process.stdout, self._inbox), daemon=True).start()
        self.stop = weakref.finalize(self, _stop, self.process, self._outbox)  # also when dropped, or at exit

    def send(self, message: dict) -> None:
        self._outbox.put((json.dumps(message) + "\n").encode())

    def receive(self, timeout: float) -> bytes | None:
        """The next line; None once the program's output has ended; queue.Empty after `timeout` seconds."""
        line = self._inbox.get(timeout=timeout)
        if line is None:
            self._inbox.put(None)  # and every later call
        return line

    def drop_unasked(self) -> None:
        """Drop the lines the program wrote when no answer was asked (they would answer the wrong question)."""
        try:
            while True:
                line = self._inbox.get_nowait()
                if line is None:
                    self._inbox.put(None)
                    return
                log.warning("dropped a line the program wrote unasked: %s", _shown(line))
        except queue.Empty:
            pass

    def ended(self) -> str:
        """How the program's output ended, for the report."""
        try:
            code = self.process.wait(GRACE)
        except subprocess.TimeoutExpired:
            return "closed its output"
        return f"exited with code {code}"


def _write(stream, outbox: queue.Queue) -> None:
    try:
        for line in iter(outbox.get, None):
            stream.write(line)
            stream.flush()
    except OSError:  # the program has closed its input, or exited
        pass
    finally:
        try:
            stream.close()
        except OSError:
            pass


def _read(stream, inbox: queue.Queue) -> None:
    while line := stream.readline(MAX_LINE):
        if len(line) == MAX_LINE and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):  # the rest of the line
                line = stream.readline(MAX_LINE)
            line = TOO_LONG
        inbox.put(line)
    inbox.put(None)


def _stop(process: subprocess.Popen, outbox: queue.Queue) -> None:
    outbox.put(None)
    try:
        process.wait(GRACE)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
