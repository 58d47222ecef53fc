"""The invariant gate's compiled loop: games played to their end, every state checked.

A batch of games lies in the rows of 2-D arrays, as in the vector games. Each is played to
its end by random legal moves or by the compiled heuristic on the full state (every seat;
it sees the hidden cards, which changes its moves but no rule), and after every step its
state goes through :func:`tribune_env.invariants.state_violation`, at the end through
:func:`~tribune_env.invariants.end_violation`. A game stops at the first invariant it
breaks, so its row holds the state that broke it. No return to Python per move: the
loop runs without the GIL, so threads play batches side by side.

The loop links the invariants (engine layer) and the heuristic (agents), so it is a
compiled package of its own, keyed by its file, the invariants' and the agents' key
(:mod:`tribune_env._compiler`).
"""

from pathlib import Path

import numpy as np

from agents.compiled import KEY as AGENTS_KEY
from agents.heuristic import choose
from tribune_env._compiler import Compiler, native, source_key
from tribune_env.core.events import CAPACITY, WIDTH
from tribune_env.core.scoring import scores
from tribune_env.invariants import end_violation, remember, state_violation
from tribune_env.kernel import views
from tribune_env.state import Meta, Status

ROOT = Path(__file__).resolve().parents[2]
_GATE = Compiler("gate", source_key(ROOT, ("tribune_env/invariants.py", "training/tools/gate_play.py"), AGENTS_KEY))
MAX_DECISIONS = 100_000  # far beyond any game's (some 2,000 at 5 players and the round limit of 50)
RANDOM, HEURISTIC = 0, 1  # who plays every seat of a game


@_GATE.entry
def play_batch(bufs, ks, masks, deck_counts, agents, seeds, moves, results):
    """Play each game of the rows to its end; results[i] = (the invariant it broke or 0, its decisions).

    ``agents[i]``: RANDOM or HEURISTIC; ``seeds[i]`` seeds the random moves. The first
    ``len(moves)`` moves of the batch's last game are written to `moves` (a replay passes
    one game). Call ``native.ready()`` first.
    """
    events = np.zeros((CAPACITY, WIDTH), dtype=np.int32)
    before = np.empty(bufs.shape[1], dtype=np.int32)
    counts = np.zeros(deck_counts.shape[0], dtype=np.int64)
    for i in range(bufs.shape[0]):
        np.random.seed(seeds[i] & 0xFFFFFFFF)
        broken, decisions = play_game(bufs[i], ks[i], masks[i], deck_counts, agents[i], events, before, counts, moves)
        results[i, 0], results[i, 1] = broken, decisions


@_GATE.compiled
def play_game(buf, params, mask, deck_counts, agent, events, before, counts, moves):
    """(the first invariant broken or 0, the decisions played) of one game played from its row."""
    before[:] = buf
    state, earlier = views(buf, params), views(before, params)  # earlier: the state before the step
    declared_in, decisions = -1, 0
    broken = state_violation(state, earlier, params, mask, deck_counts, counts)
    while broken == 0 and state.meta[Meta.STATUS] == Status.RUNNING and decisions < MAX_DECISIONS:
        action = choose(buf, params, mask, deck_counts) if agent == HEURISTIC else random_legal(mask)
        if decisions < moves.shape[0]:
            moves[decisions] = action
        events[0, 0] = 0
        native.step(buf, params, events, mask, action)
        decisions += 1
        if declared_in < 0 and state.meta[Meta.N_DECLARED] > 0:
            declared_in = state.meta[Meta.ROUND]
        broken = state_violation(state, earlier, params, mask, deck_counts, counts)
        remember(earlier, state)
    if broken == 0:
        broken = end_violation(state, params, scores(state, params), declared_in)
    return broken, decisions


@_GATE.compiled
def random_legal(mask):
    """A legal action drawn uniformly (numba's generator, seeded per game)."""
    count = 0
    for a in range(mask.shape[0]):
        count += mask[a] != 0
    left = np.random.randint(count)
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            if left == 0:
                return a
            left -= 1
    return -1
