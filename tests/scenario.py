"""Stage exact table situations for rule tests.

``fresh`` gives a game with every card back in the draw pile and an empty task stack;
``give``/``place_card``/``display``/``to_top`` move named cards out of the draw pile, so
all 100 cards stay accounted for; ``run`` pushes the tasks under test above a sentinel
decision (player_0 placing a follower), where the scenario stops.
"""

import numpy as np

from tribune_env import FACTIONS, Game, staging
from tribune_env.data import NUM_VALUES
from tribune_env.state import MONEY, Meta
from tribune_env.tasks import Task


def C(faction: str, value: int) -> int:
    """Card code of (faction, value); faction by name or unique prefix."""
    matches = [i for i, f in enumerate(FACTIONS) if f.lower().startswith(faction.lower())]
    assert len(matches) == 1, faction
    return matches[0] * NUM_VALUES + value


def fresh(n=3, money=20, seed=0, **kw) -> Game:
    kw.setdefault("log", True)
    g = Game(n, seed=seed, **kw)
    g.state.hand[:] = 0
    g.state.draw[: len(g.deck)] = g.deck
    g.state.meta[Meta.DRAW_N] = len(g.deck)
    g.state.discard_public[:] = 0
    g.state.discard_hidden[:] = 0
    g.state.meta[Meta.N_TASKS] = 0
    g.state.meta[Meta.ROUND] = 1
    g.state.meta[Meta.START_PLAYER] = 0
    g.state.res[:n, MONEY] = money
    return g


def _pull(g, code):
    n = int(g.state.meta[Meta.DRAW_N])
    where = np.flatnonzero(g.state.draw[:n] == code)
    assert len(where), f"{g.card_name(code)} is not in the draw pile"
    i = int(where[-1])
    g.state.draw[i : n - 1] = g.state.draw[i + 1 : n].copy()
    g.state.draw[n - 1] = -1
    g.state.meta[Meta.DRAW_N] = n - 1
    return code


def give(g, p, *codes):
    for code in codes:
        g.state.hand[p, _pull(g, code)] += 1


def to_top(g, *codes):
    """Put these cards on top of the draw pile; the first is drawn first."""
    for code in reversed(codes):
        _pull(g, code)
        n = int(g.state.meta[Meta.DRAW_N])
        g.state.draw[n] = code
        g.state.meta[Meta.DRAW_N] = n + 1


def place_card(g, region, index, code, up=None):
    slot = g.board.slots[region][index]
    g.state.slot_card[slot] = _pull(g, code)
    g.state.slot_up[slot] = (region in ("Thermae", "Forum Romanum")) if up is None else up


def display(g, p, faction, *values):
    f = C(faction, 0) // NUM_VALUES
    for v in values:
        _pull(g, f * NUM_VALUES + v)
        g.state.sets[f, v] += 1
    g.state.controller[f] = p
    g.state.first_laurel[f] = 0


def occupy(g, region, index, p):
    g.state.space_owner[g.board.spaces[region][index]] = p


def run(g, *tasks):
    """Run `tasks` (first on top) until a decision; the sentinel PLACE(0) marks the end."""
    staging.push(g, Task.PLACE, 0)
    staging.push_seq(g, *tasks)
    staging.resume(g)


def done(g) -> bool:
    return g.decision()[0] == Task.PLACE and int(g.state.meta[Meta.N_TASKS]) == 1


def money(g, p):
    return int(g.state.res[p, MONEY])


def step(g, *labels):
    for label in labels:
        g.step_label(label)


def legal(g):
    """Labels of the legal actions."""
    return {g.A.labels[a] for a in g.legal_actions()}


def waiting(g):
    """(decision kind, player) waiting."""
    kind, p = g.decision()[:2]
    return kind, p


def to_curia(g, k, *codes):
    for code in codes:
        g.state.curia[k, _pull(g, code)] += 1


def to_catacombs(g, *codes):
    for code in codes:
        g.state.catacombs[_pull(g, code)] += 1


def hand_of(g, p):
    """Hand as a sorted list of card names."""
    return sorted(g.card_name(c) for c in np.repeat(np.arange(len(g.state.hand[p])), g.state.hand[p]))


def set_values(g, f):
    """Displayed set of faction f as a sorted list of values."""
    return sorted(np.repeat(np.arange(NUM_VALUES), g.state.sets[f]).tolist())


def bid_digits(g, money: int) -> int:
    """Digits of a bid by a holder of `money` denarii, from the rule "any number of denarii"
    (computed here apart from the engine's core/bids.py)."""
    digits = 1
    while g.data.bid_base**digits <= money:
        digits += 1
    return digits
