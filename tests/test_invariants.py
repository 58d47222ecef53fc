"""Invariants that must hold after every step of every game (rulebook + clarifications).

Random legal play with 2-5 players, every victory card, a custom card, the point-value
variant, ``auto_forced=False`` and small round limits. After each step the state goes
through the invariants ``tribune gate`` checks over a million games
(:mod:`tribune_env.invariants`: cards and followers conserved, resources in range and never
lost, legal actions, declarations, the round limit; at the end the scores and the winner),
then through the finer rules of this file: the options offered at each decision, the
factions' sets and spaces, face-down cards, the chariot block, the Curia's stacks.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import play, random_action
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.scenario import bid_digits
from tribune_env import DEFAULT_DATA, VICTORY_CARDS, Game, VictoryCard
from tribune_env.data import FACTIONS, PATRICIANS, VESTALS
from tribune_env.invariants import Invariant, check_end, end_of_play, violation
from tribune_env.state import ETERNAL, LAURELS, MARKERS, MONEY, TILE, Meta
from tribune_env.tasks import Task

VALUES = np.arange(11)


def check_mask(g: Game, decision, mask):
    """The options offered follow the rules' conditions for this decision."""
    A = g.A
    kind, p, b, c = decision
    res = g.state.res[p]
    legal = np.flatnonzero(mask)
    if kind == Task.PLACE:
        fo, chariot = g.state.field_owner, int(g.state.meta[Meta.CHARIOT])
        for f in range(len(FACTIONS)):
            ok = g.state.controller[f] != p and chariot != f and (fo[f, 0] < 0 or (fo[f, 1] < 0 and fo[f, 0] != p))
            assert mask[A.FIELD + f] == ok, f"placement on the {FACTIONS[f]} field: offered {mask[A.FIELD + f]}"
        assert mask[A.COIN_BOWL] == 1, "the coin bowl is always open"
        if not g.state.markers[p, VESTALS]:
            assert not mask[A.action("place follower: Pantheon")], "Pantheon without a Vestal marker"
    elif kind in (Task.ATRIUM_BID, Task.CHARIOT_BID):
        money, base = int(res[MONEY]), g.data.bid_base
        place = base ** (bid_digits(g, money) - 1 - b)
        room = (money - int(g.state.bids[p])) // place  # never more than the bidder holds
        assert [a - A.BID for a in legal] == list(range(min(base - 1, room) + 1)), "bid digits"
    elif kind == Task.SACRIFICE:
        assert res[ETERNAL] == 0, "a holder of eternal favor may not sacrifice"
        f = int(g.state.slot_card[g.board.slots["Pantheon"].start]) // 11
        for a in legal:
            if a != A.DECLINE:
                code = a - A.DISCARD
                assert code // 11 == f and g.state.hand[p, code] > 0
    elif kind == Task.TEMP_FAVOR:
        assert res[ETERNAL] == 0 and g.state.controller[VESTALS] == p
    elif kind == Task.BUY_LEGION:
        price = int(g.state.sets[1] @ VALUES)
        assert mask[A.BUY_LEGION] == (res[MONEY] >= price) and g.state.controller[1] == p
    elif kind == Task.BENEFIT_CHOICE:
        assert g.state.controller[b] == p, "benefits go to the controller"
        options = {
            "Legates: take a scroll": res[TILE] == 0,
            "Senators: take a scroll": res[TILE] == 0,
            "Plebeians: take a tribune": res[TILE] == 1 and g.state.controller[PATRICIANS] == p,
            "Vestal Virgins: take a tribune": res[TILE] == 1 and g.state.controller[6] == p,
        }
        for label, ok in options.items():
            a = A.action(label)
            if A.labels[a].startswith(FACTIONS[b]):
                assert mask[a] == ok, f"{label}: offered {mask[a]}"
    elif kind == Task.AGRIPPA:
        assert mask[A.AGRIPPA] == (res[TILE] == 0)
    elif kind == Task.CATO:
        assert all(g.state.markers[p, a - A.MARKER] == 0 for a in legal), "Cato gives a marker not yet held"
    elif kind == Task.ASSASSIN:
        assert all(g.state.sets[a - A.ASSASSIN].sum() >= 3 for a in legal if a != A.DECLINE), (
            "the assassin targets sets of three or more"
        )
    elif kind == Task.CHARIOT_PLACE:
        assert all(g.state.controller[a - A.CHARIOT] == p for a in legal if a != A.DECLINE), (
            "the chariot goes on a faction its winner controls"
        )
    elif kind == Task.CATACOMBS_CHOICE:
        price = g.data.catacomb_prices[b]
        for a in legal:
            if a != A.DECLINE:
                assert res[MONEY] >= price and g.state.catacombs[a - A.TAKE] > 0
    elif kind == Task.LATRINE_CHOICE:
        value = int(g.state.slot_card[g.board.slots["Latrine"].start]) % 11
        assert mask[A.LATRINE + 1] == (res[MONEY] >= value)
    elif kind == Task.TAKEOVER_SET and mask[A.COMMIT]:
        f, role = b, c
        build = g.state.build[f * 11 : (f + 1) * 11]
        count, total = int(build.sum()), int(build @ VALUES)
        assert count >= 2 and build.sum() == g.state.build.sum(), "a set is two or more cards of the faction"
        targets = []
        if g.state.controller[f] >= 0:
            targets.append((int(g.state.sets[f].sum()), int(g.state.sets[f] @ VALUES)))
        if role == 1 and g.state.meta[Meta.CHALLENGER] >= 0:
            targets.append((int(g.state.challenger.sum()), int(g.state.challenger @ VALUES)))
        for tc, tt in targets:
            assert count > tc or total > tt, "a committed set beats every set it must beat"
    elif kind == Task.MARS_PAIR and mask[A.COMMIT]:
        cards = np.flatnonzero(g.state.build)
        assert g.state.build.sum() == 2 and len(set(cards // 11)) == 1, "a pair is two cards of one faction"


class Tracker:
    """Checks every invariant after each step: the product's (tribune_env.invariants), then this file's rules."""

    def __init__(self, g: Game):
        self.before = None  # the state buffer before the last step
        self.declared_in = -1  # the round of the first declaration
        self.steps = 0
        self.curia_checked = -1
        self.check(g)

    def __call__(self, g: Game, action=None):
        self.steps += 1
        self.check(g)

    def check(self, g: Game):
        broken = violation(g, self.before)
        assert broken is None, f"step {self.steps}: {broken}"
        self.before = g.state.buffer.copy()
        if self.declared_in < 0 and g.state.meta[Meta.N_DECLARED] > 0:
            self.declared_in = g.round
        n = g.n
        meta, res = g.state.meta, g.state.res
        phase = int(meta[Meta.PHASE])
        decision = g.decision()
        assert g.state.build.min() >= 0
        if not g.is_over:
            assert (g.state.build <= g.state.hand[decision[1]]).all(), (
                "the set being built must come from the actor's hand"
            )
        r = res[:n].tolist()
        controller = g.state.controller.tolist()

        # ---- factions
        sizes = g.state.sets.sum(axis=1).tolist()
        first_laurel = g.state.first_laurel.tolist()
        for f in range(len(FACTIONS)):
            if controller[f] < 0:
                assert sizes[f] == 0, f"{FACTIONS[f]}: a set without a controller"
            else:
                assert sizes[f] >= 2, f"{FACTIONS[f]}: a controlled set of {sizes[f]} card(s)"
            if first_laurel[f] and phase != 4:  # (taken during the take-over sequence)
                assert controller[f] < 0, f"{FACTIONS[f]}: controlled but its first laurel is still there"
        if meta[Meta.CHALLENGER] < 0:
            assert not g.state.challenger.any()
        else:
            assert g.state.challenger.sum() >= 2
        chariot = int(meta[Meta.CHARIOT])
        assert -1 <= chariot < len(FACTIONS)
        for a in (g.state.controller, g.state.space_owner, g.state.field_owner):
            assert a.min() >= -1 and a.max() < n
        fo = g.state.field_owner.tolist()
        for f, (one, two) in enumerate(fo):
            assert one >= 0 or two < 0, "faction space 2 filled before space 1"
            assert one < 0 or one != two, "one player on both spaces of a faction"
            if phase in (2, 3):
                c = controller[f]
                assert c < 0 or c not in (one, two), f"a follower on the field of {FACTIONS[f]}, which it controls"
        owner = g.state.space_owner.tolist()
        for region in ("Atrium Auctionorum", "Pantheon"):
            a, b = (owner[s] for s in g.board.spaces[region])
            assert a < 0 or a != b, f"one player on both {region} spaces"
        for s in g.board.spaces["Pantheon"]:
            if owner[s] >= 0:
                assert g.state.markers[owner[s], VESTALS], "a Pantheon follower without a Vestal Virgins marker"
        if decision is not None and decision[0] in (Task.ATRIUM_BID, Task.CHARIOT_BID):
            for p in range(n):
                if g.state.committed[p]:
                    assert 0 <= g.state.bids[p] <= r[p][MONEY]

        # ---- phase-specific rules
        if chariot >= 0 and phase in (2, 3, 4):
            assert fo[chariot] == [-1, -1], "a follower on the faction blocked by the chariot"
        if phase == 2:
            self._check_phase2(g, decision)

        # ---- legal actions
        mask = g.legal_mask()
        assert mask.dtype == np.int8 and mask.shape == (g.A.size,)
        assert mask.min() >= 0 and mask.max() <= 1
        if g.is_over:
            assert g.current_player is None and decision is None
        else:
            assert g.current_player == decision[1] and 0 <= decision[1] < n
            check_mask(g, decision, mask)

    def _check_phase2(self, g, decision):
        board = g.board
        # Thermae and Forum face up; Latrine and Pantheon face down
        for region in ("Thermae", "Forum Romanum"):
            for slot in board.slots[region]:
                if g.state.slot_card[slot] >= 0:
                    assert g.state.slot_up[slot] == 1, f"{region} card face down"
        for region in ("Latrine", "Pantheon"):
            assert (g.state.slot_up[board.slots[region]] == 0).all(), f"{region} card face up in Phase 2"
        # Atrium: none up, two up after "1." chose, all up once "2." is filled
        atrium = board.slots["Atrium Auctionorum"]
        if (g.state.slot_card[atrium] >= 0).all():
            first, second = (int(x) for x in g.state.space_owner[board.spaces["Atrium Auctionorum"]])
            up = int(g.state.slot_up[atrium].sum())
            if first < 0 or decision[0] == Task.ATRIUM_FLIP:
                assert up == 0
            elif second < 0:
                assert up == len(atrium) - 1
            else:
                assert up == len(atrium)
        # Curia stacks: filled until the sum reaches 5 or a leader lies on it, never beyond
        if self.curia_checked == g.round:
            return
        self.curia_checked = g.round
        for k in range(len(g.state.curia)):
            stack = g.state.curia[k].reshape(len(FACTIONS), 11).sum(axis=0)
            total = int(stack @ VALUES)
            if stack[0]:
                assert stack[0] == 1 and total < g.data.curia_sum, f"Curia stack {k} goes on after a leader"
            elif total >= g.data.curia_sum:
                top = int(np.flatnonzero(stack)[-1])
                assert total - top < g.data.curia_sum, f"Curia stack {k} overfilled: {total}"
        assert g.state.catacombs.sum() <= g.data.catacomb_cards

    def finish(self, g: Game):
        """At the end: terminated or truncated as the rules say, with the right scores and winner."""
        assert g.is_over
        broken = end_of_play(g, self.declared_in)
        assert broken is None, f"at the end: {broken}"


def run_checked(g: Game, seed: int) -> Tracker:
    t = Tracker(g)
    play(g, np.random.default_rng(seed), on_step=t)
    t.finish(g)
    return t


# ------------------------------------------------------------------------------ tests
@settings(max_examples=20, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), n=st.sampled_from([2, 3, 4, 5]))
def test_random_games_keep_invariants(seed, n):
    g = Game(n, seed=seed, log=False)
    run_checked(g, seed)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_seeded_games_keep_invariants(n):
    outcomes = []
    for seed in range(4):
        g = Game(n, seed=1000 * n + seed, log=False)
        run_checked(g, seed)
        outcomes.append(g.terminated)
    assert any(outcomes), "at least one random game in four ends by a victory"


@pytest.mark.parametrize("card_id", sorted(VICTORY_CARDS))
def test_every_victory_card(card_id):
    card = VICTORY_CARDS[card_id]
    for n in sorted(card.need):
        for seed in range(1 if len(card.need) > 1 else 3):
            g = Game(n, card_id, seed=seed, log=False)
            assert g.victory_card.id == card_id
            run_checked(g, seed)


def test_custom_victory_card():
    card = VictoryCard(
        "test-easy",
        laurels=4,
        legions=1,
        denarii=20,
        markers=2,
        need={2: 3, 3: 3, 4: 2, 5: 2},
        obligatory="markers",
        length="short",
    )
    ended = 0
    for n in (2, 3, 4, 5):
        for seed in range(2):
            g = Game(n, card, seed=seed, log=False)
            assert g.victory_card is card
            run_checked(g, seed)
            ended += g.terminated
            for p in g.winners():
                assert g.state.res[p, MARKERS] >= 2, "the obligatory objective is met by the winner"
    assert ended >= 4, "an easy custom card ends most games"


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_point_value_variant(n):
    for seed in range(2):
        g = Game(n, point_variant=True, seed=seed, log=False)
        assert g.victory_card is None
        run_checked(g, seed)
        if g.terminated:
            goal = DEFAULT_DATA.point_variant_markers[n]
            assert (g.state.res[:n, MARKERS] >= goal).any()


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_without_auto_forced(n):
    single = 0

    def count_single(g, a):
        nonlocal single
        if not g.is_over and len(g.legal_actions()) == 1:
            single += 1

    for seed in range(2):
        g = Game(n, seed=seed, auto_forced=False, log=False)
        t = Tracker(g)
        play(g, np.random.default_rng(seed), on_step=lambda g, a: (t(g, a), count_single(g, a)))
        t.finish(g)
    # setup: after discarding two of six cards only "commit" is left
    assert single > 0


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_small_round_limit_truncates(limit):
    for n in (2, 3, 4, 5):
        for seed in range(3):
            g = Game(n, seed=seed, round_limit=limit, log=False)
            assert g.round_limit == limit
            run_checked(g, seed)
            assert g.round <= limit
            if g.truncated:
                assert g.round == limit and not g.terminated
            else:
                assert g.terminated and g.winners()


def test_round_limit_three_is_truncated():
    """Nobody can meet the long Alea Iacta Est card in three rounds: always truncated."""
    for n in (2, 3, 4):
        for seed in range(3):
            g = Game(n, "alea-iacta-est-long", seed=seed, round_limit=3, log=False)
            run_checked(g, seed)
            assert g.truncated and not g.terminated and g.round == 3
            assert g.winners() == []


def test_random_victory_card_fits_player_count():
    for n in (2, 3, 4, 5):
        ids = {Game(n, seed=s, log=False).victory_card.id for s in range(40)}
        fitting = {k for k, c in VICTORY_CARDS.items() if n in c.need}
        assert ids == fitting, f"{n} players: drawn {sorted(ids)}, fitting {sorted(fitting)}"


def test_setup_follows_the_rulebook():
    for n in (2, 3, 4, 5):
        for seed in range(5):
            g = Game(n, seed=seed, auto_forced=False, log=False)
            start = int(g.state.meta[Meta.START_PLAYER])
            assert 0 <= start < n
            for i in range(n):
                assert g.state.res[(start + i) % n, MONEY] == 12 + i
            assert (g.state.hand[:n].sum(axis=1) == 6).all()
            assert g.decision()[0] == Task.SETUP_DISCARD and g.current_player == start
            # after the setup discards every hand holds four cards
            rng = np.random.default_rng(seed)
            while g.round == 0:
                g.step(random_action(g, rng))
            assert (g.state.hand[:n].sum(axis=1) == 4).all()
            assert g.state.discard_hidden.sum() == 0 and g.state.discard_public.sum() == 0


# ------------------------------------------------------------------------------ the checks can fail
def _running_game() -> Game:
    g = Game(3, seed=5, log=False)
    rng = np.random.default_rng(5)
    for _ in range(200):
        g.step(random_action(g, rng))
    return g


def _lose_a_card(g, before):
    p, card = np.argwhere(g.state.hand > 0)[0]
    g.state.hand[p, card] -= 1


def _deal_to_an_absent_seat(g, before):
    p, card = np.argwhere(g.state.hand > 0)[0]
    g.state.hand[p, card] -= 1
    g.state.hand[g.n, card] += 1


def _idle_follower(g, before):
    g.state.followers[0] += 1


def _owe_a_denarius(g, before):
    g.state.res[0, MONEY] = -1


def _lose_a_laurel(g, before):
    before[g.state.layout.offsets["res"][0] + LAURELS] = g.state.res[0, LAURELS] + 1


def _offer_nothing(g, before):
    g.legal_mask()[:] = 0


def _declare_out_of_turn(g, before):
    g.state.declared[0] = g.state.meta[Meta.N_DECLARED] + 1


def _pass_the_round_limit(g, before):
    g.state.meta[Meta.ROUND] = g.round_limit + 1


@pytest.mark.parametrize(
    "corrupt, invariant",
    [
        (_lose_a_card, Invariant.CARDS_CONSERVED),
        (_deal_to_an_absent_seat, Invariant.CARDS_CONSERVED),
        (_idle_follower, Invariant.FOLLOWERS_CONSERVED),
        (_owe_a_denarius, Invariant.RESOURCES_IN_RANGE),
        (_lose_a_laurel, Invariant.NEVER_LOST),
        (_offer_nothing, Invariant.LEGAL_ACTIONS),
        (_declare_out_of_turn, Invariant.DECLARATIONS),
        (_pass_the_round_limit, Invariant.ROUND_LIMIT),
    ],
)
def test_a_corrupted_state_breaks_its_invariant(corrupt, invariant):
    g = _running_game()
    before = g.state.buffer.copy()
    assert violation(g, before) is None
    corrupt(g, before)
    assert violation(g, before) == invariant


def test_a_corrupted_end_breaks_its_invariant():
    g = Game(2, "pax-romana", seed=3, log=False)
    t = run_checked(g, 3)
    assert g.terminated, "this seed's game ends by a declaration"
    buf, k, _ = g.handle
    assert Invariant(check_end(buf, k, g.scores() + 1, t.declared_in)) == Invariant.SCORES
    assert end_of_play(g, t.declared_in - 1) == Invariant.END_OF_PLAY  # not the round of the first declaration
    g.state.winner[: g.n] = 1 - g.state.winner[: g.n]
    assert end_of_play(g, t.declared_in) == Invariant.WINNER
    g.state.meta[Meta.PHASE] = 5
    assert end_of_play(g, t.declared_in) == Invariant.END_OF_PLAY


def test_every_invariant_names_its_meaning():
    for invariant in Invariant:
        assert str(invariant).startswith(invariant.name.lower() + ": ") and invariant.meaning
