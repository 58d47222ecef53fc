"""A person's game against agents in the browser: one seat is the page's, the others are agents.

Everything a match hands to the page goes through :meth:`Match.view`, built from the
person's seat only: the table as that seat sees it (:mod:`tribune_env.table`), the log as
it may read it (:class:`tribune_env.log.SeatLog`) and its own legal actions. The other
seats' moves come as frames, one per move the seat may know of, for the page to show one
after another. The seed, which would tell every card, is given with the record once the
game is over.
"""

from __future__ import annotations

import threading

from agents import Agent, make_agent
from tribune_env import FACTIONS, ConfigError, Game, IllegalActionError, PlayerView, TribuneError, saving
from tribune_env.log import SeatLog
from tribune_env.tasks import Task

from ..arena.games import ending, reset_agents


class AgentError(TribuneError):
    """An agent failed to move: the person's move, if any, stands, and the agent is asked again at the next."""


class Match:
    """A game between a person in `seat` and agents (one spec per other seat, in seat order);
    `on_end(record)` is called once, with the game's record, when it ends, and what it returns
    (None, or why the record could not be kept) is the view's ``warning``."""

    def __init__(self, settings: dict, seat: int, specs: list[str], seed: int, on_end):
        self.game = Game(**settings, seed=seed)
        if not 0 <= seat < self.game.n:
            raise ConfigError(f"seat {seat} is outside 0..{self.game.n - 1} of this {self.game.n}-player game")
        if len(specs) != self.game.n - 1:
            raise ConfigError(f"{self.game.n} players need {self.game.n - 1} opponents, got {len(specs)}")
        self.seat = seat
        self.specs = specs[:seat] + ["human"] + specs[seat:]
        # the person's seat holds an agent never asked, so that all are seeded as a tournament seeds them
        self.agents = [Agent() if p == seat else make_agent(spec) for p, spec in enumerate(self.specs)]
        reset_agents(self.agents, seed)
        self.log = SeatLog(seat)
        self.lock = threading.Lock()
        self.record = self.warning = None
        self.on_end = on_end
        self._frames = [self._frame(None)]
        self._agents_move()

    def play(self, action) -> None:
        """The person's move; IllegalActionError (the game unchanged) if it is not theirs to make or not legal."""
        self._agents_move()  # again, if an agent failed before
        if self.game.is_over:
            raise IllegalActionError("the game is over")
        self._step(action)
        self._agents_move()

    def view(self) -> dict:
        """What the page gets now: the frames since the last view, then the table, the choices and the end."""
        frames, self._frames = self._frames, []
        game = self.game
        mine = not game.is_over and game.current_player == self.seat
        return {
            "seat": self.seat,
            "agents": self.specs,
            "frames": frames,
            "table": game.table(self.seat),
            "legal": [self._choice(int(a)) for a in game.legal_actions()] if mine else [],
            "ending": ending(game) if game.is_over else None,
            "record": self.record,
            "warning": self.warning,
        }

    def _agents_move(self):
        """Let the agents play until the person has to decide or the game ends."""
        game = self.game
        while not game.is_over and game.current_player != self.seat:
            p = game.current_player
            try:
                self._step(self.agents[p].act(game.observe(p), game.legal_mask(), PlayerView(game, p)))
            except IllegalActionError as exc:
                raise AgentError(f"agent {self.specs[p]!r} in seat {p} chose an illegal action: {exc}") from None
        if game.is_over and self.record is None:
            self.record = saving.record(game, self.specs)
            for p, agent in enumerate(self.agents):  # as play_game tells them (a program seat's end message)
                agent.end(PlayerView(game, p))
            self.agents = []  # let their networks go: a finished match holds only its game and record
            self.warning = self.on_end(self.record)

    def _step(self, action):
        game = self.game
        mover = game.current_player
        game.step(action)
        frame = self._frame(mover, int(action))
        if mover == self.seat or frame["move"] is not None:  # else a move the seat may not know of
            self._frames.append(frame)

    def _frame(self, mover, action=None) -> dict:
        """The move just made and the log lines it caused, as the person's seat may read them, and the table after it."""
        move = None if mover is None else self.log.visible(self.game, f"player_{mover}: {self.game.A.labels[action]}")
        return {"player": mover, "move": move, "lines": self.log.news(self.game), "table": self.game.table(self.seat)}

    def _choice(self, action: int) -> dict:
        """A legal action as the page offers it: its label, and the thing on the board it acts on, if any."""
        return {"action": action, "label": self.game.A.labels[action], "target": target(self.game, action)}


def target(game: Game, action: int) -> str | None:
    """The board element an action acts on, as the page names them: ``space:3`` (a follower space),
    ``region:6``, ``field:2``, ``bowl``, ``hand:25`` (a card of the hand), ``take:25`` (a card of
    the Catacombs), ``challenger:25``, ``faction:4``; None for actions offered only as buttons."""
    A, board = game.A, game.board
    kind, index = A.decode(action)
    if kind == "place":
        if action >= A.COIN_BOWL:
            return "bowl"
        if action >= A.FIELD:
            return f"field:{action - A.FIELD}"
        region, space = board.place_targets[index]
        return f"space:{space}" if space is not None else f"region:{board.region_names.index(region)}"
    if kind in ("add", "discard"):
        return f"{'challenger' if game.decision()[0] == Task.PENALTY else 'hand'}:{index}"
    if kind == "take":
        return f"take:{index}"
    if kind in ("chariot", "marker", "assassin"):
        return f"faction:{index % len(FACTIONS)}"
    return None
