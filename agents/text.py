"""Agents that play by text: a language model, a person or a script answers each decision in words.

At each decision the agent shows its seat's view (:mod:`tribune_env.text_seat`: the news, the
table as the seat may see it, the legal moves numbered) and reads the answer back as a move
(:func:`~tribune_env.text_seat.read_move`: exactly, then tolerantly). A malformed or illegal
answer is asked again with what was wrong, up to `retries` times; then the seat forfeits that
decision: it plays a random legal move from its own seeded generator, so the game goes on and
replays from its seed given the same answers. Exceptions and timeouts of the answerer are
failed answers, never a crash. The agent counts decisions, retries and forfeits per game
(:meth:`TextSeatAgent.tally`, which tournaments add up) and logs them when a game ends, as a
warning if it forfeited. A :class:`TextAgent` may sit in several seats of a game (the opponents
of ``Tribune-v0`` given as one agent): it follows each seat's view apart, its counts shared.

:class:`TextAgent` asks a Python function ``answer(prompt) -> str``; :class:`agents.program.ProgramAgent`
asks another program over JSON lines (docs/text-seat.md).
"""

from __future__ import annotations

import logging
import threading
from collections import Counter

from tribune_env.errors import AnswerError, ConfigError, brief
from tribune_env.player import random_action
from tribune_env.text_seat import TextSeat, prompt, read_move

from .base import Agent

log = logging.getLogger(__name__)

MAX_RETRIES = 100


class Unanswered(Exception):
    """No answer will come in this game (the answering program has stopped): forfeit at once."""


class TextSeatAgent(Agent):
    """The decision loop of the text agents: a subclass says how to ask (:meth:`ask`)."""

    reads_log = True  # for the news
    COUNTS = ("decisions", "retries", "forfeits")  # what tally() reports, from 0

    def __init__(self, seed: int | None = None, retries: int = 2, timeout: float | None = None):
        super().__init__(seed)
        self.retries = _retries(retries)
        self.timeout = _timeout(timeout)
        self.totals = Counter()  # every game's counts, added up
        self._new_game()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._new_game()

    def _new_game(self) -> None:
        self._counts = Counter(dict.fromkeys(self.COUNTS, 0))
        self._seats = {}  # seat -> its TextSeat, from its first decision (an agent may sit in several)

    def tally(self) -> dict:
        return dict(self._counts)

    def act(self, observation, action_mask, view) -> int:
        if view.seat not in self._seats:
            self.begin(view)
            self._seats[view.seat] = TextSeat(view.seat)
        seen = self._seats[view.seat].view(view)
        self._count("decisions")
        problem = None
        for attempt in range(1 + self.retries):
            if attempt:
                self._count("retries")
            try:
                return read_move(self.ask(seen, problem), seen)
            except AnswerError as exc:
                problem = str(exc)
            except Unanswered as exc:
                problem = str(exc)
                break
        self._count("forfeits")
        action = random_action(action_mask, self.rng)
        self.forfeited(next(move for move in seen["legal"] if move["action"] == action), seen, problem)
        return action

    def end(self, view) -> None:
        counts = self._counts
        log.log(
            logging.WARNING if counts["forfeits"] else logging.INFO,
            "%s in seat %d forfeited %d of %d decisions (%d retries)",
            self,
            view.seat,
            counts["forfeits"],
            counts["decisions"],
            counts["retries"],
        )

    def begin(self, view) -> None:
        """The first decision of the seat of `view` in this game is coming (a subclass may tell its answerer)."""

    def ask(self, view: dict, problem: str | None):
        """The answer to the decision `view` (:meth:`TextSeat.view`); `problem` says what was
        wrong with the previous answer, None for the first. AnswerError or Unanswered if none."""
        raise NotImplementedError

    def forfeited(self, move: dict, view: dict, problem: str | None) -> None:
        """The seat forfeited the decision `view`, and `move` (of ``view["legal"]``) was played for
        it; `problem` is what was wrong with the last answer."""
        log.info("%s in seat %d forfeits a decision (%s): plays %r", self, view["seat"], problem, move["label"])

    def _count(self, key: str) -> None:
        self._counts[key] += 1
        self.totals[key] += 1


class TextAgent(TextSeatAgent):
    """Plays by text through `answer(prompt) -> str`: a language model, a person, a script.

    The prompt is the seat's view in words (:func:`tribune_env.text_seat.prompt`); after a bad
    answer, the same prompt with what was wrong. With `timeout` (seconds), an answer that takes
    longer fails; the call runs on in its thread, its late answer dropped.
    """

    name = "text"

    def __init__(self, seed: int | None = None, answer=None, retries: int = 2, timeout: float | None = None):
        super().__init__(seed, retries, timeout)
        if not callable(answer):
            raise ConfigError(
                f"a text agent needs answer, a function from a prompt to a move's label; got {brief(answer)}"
            )
        self.answer = answer

    def ask(self, view: dict, problem: str | None):
        question = prompt(view)
        if problem is not None:
            question += f"\n\nYour last answer was not accepted: {problem}."
        try:
            return self.answer(question) if self.timeout is None else _within(self.timeout, self.answer, question)
        except Exception as exc:  # the answerer's failure is a failed answer, not the game's
            raise AnswerError(f"the answer failed: {type(exc).__name__}: {str(exc)[:200]}") from None


def _within(seconds: float, function, *args):
    """``function(*args)``, or TimeoutError after `seconds` (the call runs on in a daemon thread,
    its result dropped: Python cannot stop it)."""
    outcome = []

    def call():
        try:
            outcome.append((True, function(*args)))
        except Exception as exc:
            outcome.append((False, exc))

    thread = threading.Thread(target=call, daemon=True, name="text answer")
    thread.start()
    thread.join(seconds)
    if not outcome:
        raise TimeoutError(f"no answer within {seconds:g} s")
    answered, value = outcome[0]
    if not answered:
        raise value
    return value


def _retries(retries) -> int:
    if isinstance(retries, bool) or not isinstance(retries, int) or not 0 <= retries <= MAX_RETRIES:
        raise ConfigError(f"retries must be an integer from 0 to {MAX_RETRIES}, got {brief(retries)}")
    return retries


def _timeout(timeout) -> float | None:
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= 86_400:  # nan too
        raise ConfigError(f"timeout must be a number of seconds above 0 and at most a day, got {brief(timeout)}")
    return float(timeout)
