"""Stage 4: the task stack, row by row and as a whole: one that play can build."""

from __future__ import annotations

import itertools

from ..core.bids import bid_digits
from ..data import (
    ATRIUM,
    CATACOMBS,
    CURIA,
    FORUM,
    GLADIATORS,
    LATRINE,
    LEGATES,
    MARS,
    NUM_FACTIONS,
    PANTHEON,
    PATRICIANS,
    PLEBEIANS,
    PRAETORIANS,
    REGIONS,
    SENATORS,
    THERMAE,
    VESTALS,
)
from ..state import ETERNAL, Meta
from ..tasks import FIRST_DECISION, Task
from .limits import ANY, BASE_PHASE, BIDS, MAX_AMOUNT, ROOT, fail


def _bid_task_args(game):
    """Arguments b, c of an ATRIUM_BID / CHARIOT_BID task: (kind, p, digits entered, 0).

    The one place that knows the bid tasks' arguments (core/bids.py): a bid of at most
    MAX_AMOUNT denarii has this many digits at the most.
    """
    return range(bid_digits(MAX_AMOUNT, game.data.bid_base)), range(1)


def _task_args(game) -> dict:
    """Task kind -> the values its arguments a, b, c can take in this game."""
    n, board, d = game.n, game.board, game.data
    seat, faction, zero, retry = range(n), range(NUM_FACTIONS), range(1), range(2)
    stack, catacomb, mars = range(d.curia_stacks), range(len(d.catacomb_prices)), range(d.field_of_mars_spaces)
    args = {kind: (zero, zero, zero) for kind in Task if kind < FIRST_DECISION}
    args.update({kind: (seat, zero, zero) for kind in Task if kind >= FIRST_DECISION})
    args.update(
        {
            Task.DEAL: (range(board.num_slots), zero, retry),
            Task.DEAL_CURIA: (stack, zero, retry),
            Task.DEAL_CATACOMBS: (zero, zero, retry),
            Task.DRAW: (seat, zero, retry),
            Task.CURIA: (stack, zero, zero),
            Task.CATACOMBS: (catacomb, zero, zero),
            Task.RETURN_FOLLOWERS: (range(len(REGIONS)), zero, zero),
            Task.TAKEOVER: (faction, zero, zero),
            Task.FACTION_BENEFIT: (faction, zero, zero),
            Task.TAKEOVER_BENEFIT: (seat, faction, zero),
            Task.MARKER_LAUREL: (seat, faction, zero),
            Task.LEADER: (seat, faction, zero),
            Task.CURIA_CHOICE: (seat, stack, zero),
            Task.CATACOMBS_CHOICE: (seat, catacomb, zero),
            Task.MARS_PAIR: (seat, mars, zero),
            Task.TAKEOVER_SET: (seat, faction, range(1, 3)),
            Task.PENALTY: (seat, faction, zero),
            Task.BENEFIT_CHOICE: (seat, (GLADIATORS, LEGATES, PLEBEIANS, VESTALS, SENATORS), zero),
        }
    )
    for kind in BIDS:
        args[kind] = (seat, *_bid_task_args(game))
    return args


def check_task_rows(game, tasks, n_tasks):
    """Every row a known task whose arguments index what exists in this game.

    Rows above n_tasks are left over from popped tasks (or unused, all zero); the engine
    overwrites them before reading, but they are checked the same way.
    """
    args = _task_args(game)
    for i, row in enumerate(tasks.tolist()):
        kind, *values = row
        if i >= n_tasks and not any(row):
            continue
        if kind not in args:
            fail(f"the task stack holds an unknown task kind {kind} (row {i})")
        for value, allowed in zip(values, args[kind]):
            if value not in allowed:
                fail(
                    f"task {Task(kind).name} (row {i}) names {value}, which this game has not "
                    f"(a seat, faction, stack or space outside the board)"
                )


def _pattern(kind, a=0, b=0, c=0):
    return int(kind), a, b, c


def start_order(g) -> list:
    start = int(g.state.meta[Meta.START_PLAYER])
    return [(start + i) % g.n for i in range(g.n)]


def space_owner(g, region: str, i: int = 0) -> int:
    return int(g.state.space_owner[g.board.spaces[region].start + i])


def pushed_by(g, task) -> list:
    """Every list of tasks (bottom first) that task (kind, a, b, c), run or decided, may push.

    Seats that cannot have changed since the push are filled in from the state (space
    owners in Phase 3, field owners in Phase 4, controllers in Phase 5, the starting
    player within a round); others are ANY.
    """
    kind, a, b, c = task
    T, P = Task, _pattern
    d, board, order = g.data, g.board, start_order(g)
    if kind == ROOT:
        return [(P(T.ROUND_START), P(T.SETUP_FINISH), *(P(T.SETUP_DISCARD, p) for p in reversed(order)))]
    if kind == T.ROUND_START:
        slots = board.slots
        return [
            (
                P(T.PHASE2),
                *(P(T.DEAL, s) for s in reversed(slots["Pantheon"])),
                *(P(T.DEAL_CATACOMBS),) * d.catacomb_cards,
                *(P(T.DEAL, s) for s in reversed(slots["Atrium Auctionorum"])),
                *(P(T.DEAL_CURIA, s) for s in reversed(range(d.curia_stacks))),
                *(P(T.DEAL, s) for s in reversed(range(slots["Atrium Auctionorum"].start))),
            )
        ]
    if kind in (T.DEAL, T.DEAL_CATACOMBS, T.DRAW, T.DEAL_CURIA):
        lists = [()]
        if kind == T.DEAL_CURIA:
            lists.append((P(T.DEAL_CURIA, a),))
        if c == 0:  # both piles empty: a cesura magna, then the draw once more
            retry = (P(kind, a, 0, 1), P(T.CESURA_SETS))
            for chosen in itertools.product((False, True), repeat=g.n):
                lists.append(retry + tuple(P(T.CESURA_DISCARD, p) for p, x in zip(reversed(order), chosen) if x))
        return lists
    if kind == T.PHASE2:
        return [(P(T.PLACE, order[0]),)]
    if kind == T.PLACE:
        return [
            (P(T.PLACE, ANY),),
            (P(T.PHASE3),),
            (P(T.PLACE, ANY), P(T.ATRIUM_FLIP, a)),
            (P(T.PHASE3), P(T.ATRIUM_FLIP, a)),
        ]
    if kind == T.PHASE3:
        back = [P(T.RETURN_FOLLOWERS, r) for r in range(len(REGIONS))]
        return [
            (
                P(T.PHASE4),
                back[MARS],
                P(T.MARS),
                back[PANTHEON],
                P(T.PANTHEON),
                back[CATACOMBS],
                P(T.CATACOMBS_END),
                *(P(T.CATACOMBS, i) for i in reversed(range(len(d.catacomb_prices)))),
                back[ATRIUM],
                P(T.ATRIUM),
                back[CURIA],
                *(P(T.CURIA, s) for s in reversed(range(d.curia_stacks))),
                back[LATRINE],
                P(T.LATRINE),
                back[FORUM],
                P(T.FORUM),
                back[THERMAE],
                P(T.THERMAE),
            )
        ]
    if kind == T.LATRINE:
        return [(), (P(T.LATRINE_CHOICE, space_owner(g, "Latrine")),)]
    if kind == T.CURIA:
        return [(), (P(T.CURIA_CHOICE, space_owner(g, "Curia", a), a),)]
    if kind == T.ATRIUM:
        first, second = space_owner(g, "Atrium Auctionorum", 0), space_owner(g, "Atrium Auctionorum", 1)
        if first < 0 or second < 0:
            return [()]
        return [(P(T.ATRIUM_RESOLVE), P(T.ATRIUM_BID, second, ANY, ANY), P(T.ATRIUM_BID, first, ANY, ANY))]
    if kind == T.CATACOMBS:
        return [(), (P(T.CATACOMBS_CHOICE, space_owner(g, "Catacombs", a), a),)]
    if kind == T.PANTHEON:
        owners = [int(g.state.space_owner[s]) for s in reversed(board.spaces["Pantheon"])]
        return [(), (P(T.PANTHEON_END), *(P(T.SACRIFICE, p) for p in owners if p >= 0 and not g.state.res[p, ETERNAL]))]
    if kind == T.MARS:
        spaces = reversed(range(d.field_of_mars_spaces))
        return [
            (
                P(T.MARS_RESOLVE),
                *(
                    P(T.MARS_PAIR, space_owner(g, "Field of Mars", i), i)
                    for i in spaces
                    if space_owner(g, "Field of Mars", i) >= 0
                ),
            )
        ]
    if kind == T.PHASE4:
        return [(P(T.PHASE5), *(P(T.TAKEOVER, f) for f in reversed(range(NUM_FACTIONS))))]
    if kind == T.TAKEOVER:
        first, second = (int(x) for x in g.state.field_owner[a])
        return (
            [()]
            if first < 0
            else [(P(T.TAKEOVER_SET, first, a, 1),) + ((P(T.TAKEOVER_SET, second, a, 2),) if second >= 0 else ())]
        )
    if kind == T.TAKEOVER_SET:
        if c != 1:
            return [()]
        second = int(g.state.field_owner[b, 1])

        def take_over(p):
            return [
                (P(T.MARKER_LAUREL, p, b), P(T.TAKEOVER_BENEFIT, p, b)),
                (P(T.LEADER, p, b), P(T.MARKER_LAUREL, p, b), P(T.TAKEOVER_BENEFIT, p, b)),
            ]

        return [()] + take_over(a) + [x + (P(T.PENALTY, second, b),) for x in take_over(a)] + take_over(second)
    if kind == T.TAKEOVER_BENEFIT:
        return {PRAETORIANS: [(P(T.DRAW, a),)], PLEBEIANS: [(P(T.ASSASSIN, a), P(T.DRAW, a))]}.get(b, [()])
    if kind == T.LEADER:
        return {
            PRAETORIANS: [(), (P(T.TIGELLINUS, a),)],
            PLEBEIANS: [(P(T.AGRIPPA, a),)],
            SENATORS: [(), (P(T.CATO, a),)],
        }.get(b, [()])
    if kind == T.AGRIPPA:
        return [(), (P(T.DRAW, a),)]
    if kind == T.PHASE5:
        return [(P(T.PHASE6), *(P(T.FACTION_BENEFIT, f) for f in reversed(range(NUM_FACTIONS))))]
    if kind == T.FACTION_BENEFIT:
        p = int(g.state.controller[a])
        return [()] if p < 0 or a in (PRAETORIANS, PATRICIANS) else [(P(T.BENEFIT_CHOICE, p, a),)]
    if kind == T.BENEFIT_CHOICE:
        return [
            (),
            {
                GLADIATORS: (P(T.ASSASSIN, a), P(T.DRAW, a)),
                LEGATES: (P(T.BUY_LEGION, a), P(T.DRAW, a)),
                PLEBEIANS: (P(T.DRAW, a),),
                VESTALS: (P(T.TEMP_FAVOR, a),),
                SENATORS: (P(T.DRAW, a), P(T.DRAW, a)),
            }[b],
        ]
    if kind == T.PHASE6:
        return [(P(T.ROUND_END), P(T.CHARIOT_RESOLVE), *(P(T.CHARIOT_BID, p, ANY, ANY) for p in reversed(order)))]
    if kind == T.CHARIOT_RESOLVE:
        return [(), (P(T.CHARIOT_PLACE, ANY),)]
    if kind == T.ROUND_END:
        return [(), (P(T.ROUND_START),)]
    return [()]  # pushes nothing (a decision that re-pushes itself stays where it was)


def _matches(row, pattern) -> bool:
    return all(want is ANY or want == got for got, want in zip(row, pattern))


def stack_can_arise(g, rows) -> bool:
    """Whether play builds this live stack (bottom first), from the setup on.

    Each task, when run, pushes one of the lists `pushed_by` gives, on top of the tasks that
    were under it. So the stack is a bottom part of one task's list, then what the next
    task of that list (now popped) pushed, and so on: a search over (row, popped task).
    """
    todo, seen = [(0, (ROOT, 0, 0, 0))], set()
    while todo:
        at, parent = todo.pop()
        if (at, parent) in seen:
            continue
        seen.add((at, parent))
        for pushed in pushed_by(g, parent):
            for i, task in enumerate(pushed, at):
                if i >= len(rows):
                    break
                todo.append((i, task))  # `task` ran; the rows from i are its doing
                if not _matches(rows[i], task):
                    break
                if i == len(rows) - 1:
                    return True  # the stack is the bottom part of this list
    return False


def check_task_stack(g):
    """A running game waits on a decision, on a stack play builds, in the phase its base says."""
    n_tasks = int(g.state.meta[Meta.N_TASKS])
    if g.is_over:
        if n_tasks:
            fail(f"a finished game has {n_tasks} tasks left on its stack (n_tasks must be 0)")
        return
    rows = [tuple(r) for r in g.state.tasks[:n_tasks].tolist()]
    if n_tasks == 0 or rows[-1][0] < FIRST_DECISION:
        fail("a running game must have a decision on top of its task stack")
    if not stack_can_arise(g, rows):
        fail(
            "the task stack (tasks, n_tasks) is not one that play builds: "
            f"bottom {Task(rows[0][0]).name}, top {Task(rows[-1][0]).name}"
        )
    phase = BASE_PHASE[rows[0][0]]
    if g.phase != phase:
        fail(f"meta phase is {g.phase}, but the task stack is that of phase {phase}")


def live_tasks(g) -> list:
    """The live task rows, bottom first, as (kind, a, b, c) tuples."""
    return [tuple(r) for r in g.state.tasks[: int(g.state.meta[Meta.N_TASKS])].tolist()]


def pending_tasks(g, kind) -> list:
    """The live rows of one task kind."""
    return [r for r in live_tasks(g) if r[0] == kind]
