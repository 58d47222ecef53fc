"""A seat played by another program (a bot in any language, a model's server) over JSON lines.

Tribune starts the program (an argument list, no shell) and writes one JSON object a line to
its standard input: ``start`` at a game's first decision, ``decision`` at each of the seat's
decisions (its view, :meth:`tribune_env.text_seat.TextSeat.view`, and the prompt), ``error``
after an answer it could not take, ``forfeit`` when it played a move for the seat, and ``end``.
The program answers each ``decision`` and ``error`` with one line, ``{"move": "<label>"}`` or
``{"action": <id>}``, within `timeout` seconds. docs/text-seat.md has every message.

Nothing the program does stops the game: a malformed line or an illegal move is a failed
answer (asked again, then forfeited, as for every text agent); a program that exits, closes
its input or output or keeps silent past the timeout is stopped, reported (a warning, and
``failures`` in the agent's tally), and forfeits the rest of the game; the next game starts it
again. Its input and output are served by threads, so neither a program that stops reading nor
one that floods its output can block tribune; a line over 1 MiB is refused. The program runs in
a session of its own, and stopping it kills every process it started. What it writes to its
standard error goes to tribune's.

One agent plays one seat (a program holds one seat's conversation): a game that seats it twice
(``Tribune-v0`` with one agent as all the opponents) is refused with a ConfigError.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import shlex
import shutil
import signal
import subprocess
import threading
import time
import weakref

from tribune_env.errors import AnswerError, ConfigError, brief
from tribune_env.text_seat import prompt

from .text import TextSeatAgent, Unanswered

log = logging.getLogger(__name__)

PROTOCOL = 1  # the version in every start message
MAX_LINE = 2**20  # bytes of one line from the program
UNREAD = 100  # lines held from the program before its writes wait
GRACE = 2.0  # seconds a program has to exit once its input is closed
POLL = 0.05  # seconds between looks at whether a program awaited has exited or closed its input
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
        self._open = False  # a start was sent, and no end yet
        self._failure = None  # why the program gave no answer this game

    def __repr__(self):
        return f"ProgramAgent({shlex.join(self.argv)!r})"

    def reset(self, seed: int | None = None) -> None:
        if self._open:  # the last game stopped before its end
            self._send({"type": "end", "outcome": None, "counts": self.tally()}, next(iter(self._seats)))
            self._open = False
        super().reset(seed)
        self._failure = None

    def close(self) -> None:
        """Stop the program (closing its input, then, 2 s later, killing it and every process it started)."""
        if self._program is not None:
            self._program.stop()
            self._program = None

    def begin(self, view) -> None:
        if self._seats:
            raise ConfigError(
                f"{self} plays one seat, player_{next(iter(self._seats))}, and is given player_{view.seat} too: "
                "give each seat its own program agent (for Tribune-v0, a list of opponents)"
            )
        if self._program is None or self._program.process.poll() is not None:  # none yet, or it exited between games
            self.close()
            try:
                self._program = Program(self.argv)
            except OSError as exc:
                self._fail(view.seat, f"could not start: {exc}")
                return
        self._send({"type": "start", "protocol": PROTOCOL, "seat": view.seat, "players": view.num_players}, view.seat)
        self._open = True

    def ask(self, view: dict, problem: str | None) -> str:
        if self._failure is None:
            try:
                if problem is None:
                    self._drop_unasked(view["seat"])
                    self._program.send(
                        {"type": "decision", **view, "prompt": prompt(view), "attempts": 1 + self.retries}
                    )
                else:
                    self._program.send({"type": "error", "message": problem})
                return read_line(self._program.receive(self.timeout), view)
            except Unanswered as exc:
                self._fail(view["seat"], str(exc))
        raise Unanswered(self._failure)

    def forfeited(self, move: dict, view: dict, problem: str | None) -> None:
        super().forfeited(move, view, problem)
        self._send({"type": "forfeit", "message": problem, **move}, view["seat"])

    def end(self, view) -> None:
        if self._open:
            seen = self._seats[view.seat].view(view)
            self._send({"type": "end", **seen, "outcome": seen["table"]["over"], "counts": self.tally()}, view.seat)
            self._open = False
        super().end(view)

    def _send(self, message: dict, seat: int) -> None:
        if self._failure is None and self._program is not None:
            try:
                self._program.send(message)
            except Unanswered as exc:
                self._fail(seat, str(exc))

    def _drop_unasked(self, seat: int) -> None:
        """Drop what the program wrote unasked (it would answer the wrong question), with one warning for all."""
        dropped = self._program.drop_unasked()
        if dropped:
            log.warning(
                "%s in seat %d: dropped %d line(s) the program wrote unasked, the first %s",
                self,
                seat,
                len(dropped),
                _shown(dropped[0]),
            )

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
        # a session of its own, so that stopping it reaches the processes it starts (they hold its pipes)
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True)
        self._outbox = queue.Queue()  # lines to write, then None to close its input
        self._inbox = queue.Queue(UNREAD)  # lines read (TOO_LONG for one over MAX_LINE), then None
        self._writer = threading.Thread(target=_write, args=(self.process.stdin, self._outbox), daemon=True)
        self._writer.start()
        threading.Thread(target=_read, args=(self.process.stdout, self._inbox), daemon=True).start()
        self.stop = weakref.finalize(self, _stop, self.process, self._outbox)  # also when dropped, or at exit

    def send(self, message: dict) -> None:
        """Queue `message` for the program; Unanswered if it has closed its input (nothing would reach it)."""
        if not self._writer.is_alive():
            raise Unanswered(self._gone())
        self._outbox.put((json.dumps(message) + "\n").encode())

    def receive(self, timeout: float) -> bytes:
        """The program's next line; Unanswered saying why if it exits, closes its input or output, or
        writes none within `timeout` seconds."""
        deadline, gone = time.monotonic() + timeout, None
        while True:
            try:
                line = self._inbox.get(timeout=POLL if gone else min(POLL, max(0.0, deadline - time.monotonic())))
            except queue.Empty:
                if gone:  # a look later, nothing it wrote before going is left to read
                    raise Unanswered(gone) from None
                if time.monotonic() >= deadline:
                    raise Unanswered(f"gave no answer within {timeout:g} s") from None
                gone = self._gone()
                continue
            if line is None:
                self._inbox.put(None)  # for every later call
                raise Unanswered(self._ended())
            return line

    def drop_unasked(self) -> list[bytes]:
        """Take out and return the lines the program wrote when no answer was asked."""
        dropped = []
        try:
            while (line := self._inbox.get_nowait()) is not None:
                dropped.append(line)
            self._inbox.put(None)
        except queue.Empty:
            pass
        return dropped

    def _gone(self) -> str | None:
        """Why the program can answer no more though its output is open (a process it started may
        hold that): it exited, or closed its input; None while it is running and reading."""
        code = self.process.poll()
        if code is not None:
            return f"exited with code {code}"
        return None if self._writer.is_alive() else "closed its input"

    def _ended(self) -> str:
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
    """Close the program's input, give it GRACE seconds to exit, then kill it and every process it started."""
    outbox.put(None)
    try:
        process.wait(GRACE)
    except subprocess.TimeoutExpired:
        pass
    if os.name == "nt":  # no process groups: the program alone
        process.kill()
    else:
        try:
            os.killpg(process.pid, signal.SIGKILL)  # its session's group: the id is kept while a member lives
        except ProcessLookupError:  # none left
            pass
    process.wait()
