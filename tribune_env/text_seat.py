"""A seat in words: what a language model, a person or another program is shown at a decision.

:class:`TextSeat` follows one seat through one game. At each of the seat's decisions its
:meth:`~TextSeat.view` is what the seat knows, as data ready for JSON: the news (the log since
the seat last looked, as :class:`tribune_env.log.SeatLog` lets the seat read it), the table as
the seat may see it (:mod:`tribune_env.table`) and its legal moves by label. :func:`prompt`
writes a view as text (the table as :mod:`tribune_env.render` writes it, the moves numbered),
and :func:`read_move` takes an answer back to one of the view's moves, or says what is wrong
with it. Both read the view alone, so neither can tell more than the seat may know
(``tests/test_hidden_information.py`` checks the view and the prompt).
"""

from __future__ import annotations

import re

from .errors import AnswerError, IllegalActionError
from .render import written

INSTRUCTION = "Answer with one legal move: its label as written above, or its number."
AROUND = " \t\r\n\"'`*#[]“”‘’«».,;:!?"  # quotes, emphasis and punctuation an answer may wrap a move in
DIGITS = 6  # a longer number is no move's: not read at all (int() refuses a few thousand digits)


class TextSeat:
    """One seat of one game in words; it remembers how much of the log the seat has read."""

    def __init__(self, seat: int):
        self.seat = seat
        self._read = 0

    def view(self, player) -> dict:
        """What the seat knows now, `player` being its :class:`~tribune_env.PlayerView`: seat,
        player count, round, the news since the last view, the table and the legal moves (its
        own, while it is to act: another seat's would tell that seat's hand)."""
        if player.seat != self.seat:
            raise IllegalActionError(f"this text seat is player_{self.seat}'s, not player_{player.seat}'s")
        log = player.seat_log() or []  # a game without a log has no news
        news, self._read = log[self._read :], len(log)
        table = player.table()
        acting = table["decision"] is not None and table["decision"]["player"] == self.seat
        labels = player.actions.labels
        return {
            "seat": self.seat,
            "players": player.num_players,
            "round": table["round"],
            "news": news,
            "table": table,
            "legal": [{"action": int(a), "label": labels[a]} for a in player.legal_actions()] if acting else [],
        }


def prompt(view: dict) -> str:
    """A view as text: the news, the table, and the legal moves numbered from 1 with what to answer."""
    lines = [f"You are player_{view['seat']} in a {view['players']}-player game of Tribune: Primus Inter Pares."]
    if view["news"]:
        lines += ["", "News since your last decision:", *view["news"]]
    lines += ["", written(view["table"])]
    if view["legal"]:
        lines += ["", "Your legal moves:", *(f"{i}. {move['label']}" for i, move in enumerate(view["legal"], 1))]
        lines += ["", INSTRUCTION]
    return "\n".join(lines)


def read_move(answer, view: dict) -> int:
    """The action of the legal move of `view` that `answer` names, or AnswerError saying why none.

    An answer names a move by its label exactly; failing that, by its label in any case and
    spacing, wrapped in quotes or punctuation; by its number in the prompt's list; or by holding
    the label of one legal move among its words (not a part of a longer one: "take Senators 1"
    is not in "take Senators 10").
    """
    moves = view["legal"]
    if not moves:
        raise AnswerError("no move is asked of this seat now")
    if not isinstance(answer, str):
        raise AnswerError(f"an answer must be text, got {type(answer).__name__}")
    exact = {move["label"]: move["action"] for move in moves}
    if answer in exact:
        return exact[answer]
    text = _plain(answer)
    if not text:
        raise AnswerError("the answer is empty: answer with one legal move's label, or its number")
    plain = {_plain(label): action for label, action in exact.items()}
    if text in plain:
        return plain[text]
    if text.isdecimal():
        if len(text) <= DIGITS and 1 <= int(text) <= len(moves):
            return moves[int(text) - 1]["action"]
        raise AnswerError(f"{_shown(text)} is not the number of a legal move: they go from 1 to {len(moves)}")
    named = [label for label in plain if re.search(rf"(?<!\w){re.escape(label)}(?!\w)", text)]
    named = [label for label in named if not any(label != other and label in other for other in named)]
    if len(named) == 1:
        return plain[named[0]]
    if named:
        raise AnswerError(f"{_shown(answer)} names {len(named)} legal moves ({', '.join(named[:4])}): answer with one")
    raise AnswerError(f"{_shown(answer)} is none of the {len(moves)} legal moves: answer with one's label or number")


def _plain(text: str) -> str:
    """Lower case, single spaces, without what an answer may wrap a move in: how answers meet labels."""
    return " ".join(text.casefold().split()).strip(AROUND)


def _shown(text: str) -> str:
    """An answer, quoted and cut short for a message."""
    return repr(text) if len(text) <= 60 else repr(text[:57] + "...")
