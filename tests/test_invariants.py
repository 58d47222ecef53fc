"""Invariants that must hold after every step of every game (rulebook + clarifications).

Random legal play with 2-5 players, every victory card, a custom card, the point-value
variant, ``auto_forced=False`` and small round limits. After each step the whole state is
checked: all 100 cards accounted for, resources and tiles in range and never lost, the
temporary favor only with the Vestal Virgins controller, follower counts, face-down
cards, the chariot block, declarations, and at the end who won.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import NUM_CARDS, card_counts, play, random_action, total_cards
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.scenario import bid_digits
from tribune_env import DEFAULT_DATA, VICTORY_CARDS, Game, VictoryCard
from tribune_env.data import FACTIONS, PATRICIANS, VESTALS
from tribune_env.state import ETERNAL, LAURELS, LEGIONS, MARKERS, MONEY, TILE, Meta
from tribune_env.tasks import Task

VALUES = np.arange(11)
SCORE = DEFAULT_DATA.scoring


def meets_victory(g: Game, p: int, r, temp: int) -> bool:
    """Whether player p (resources r) meets the victory card (or the marker goal), from the rules."""
    card = g.victory_card
    if card is None:
        return r[MARKERS] >= DEFAULT_DATA.point_variant_markers[g.n]
    met = {
        "tribune": r[TILE] == 2,
        "favor": bool(r[ETERNAL]) or temp == p,
        "laurels": r[LAURELS] >= card.laurels,
        "legions": r[LEGIONS] >= card.legions,
        "denarii": r[MONEY] >= card.denarii,
        "markers": r[MARKERS] >= card.markers,
    }
    if card.obligatory is not None and not met[card.obligatory]:
        return False
    return sum(bool(v) for v in met.values()) >= card.need[g.n]


def rule_scores(g: Game) -> list[int]:
    """The scoring table of 'The End of Play', computed independently of the engine."""
    out = []
    temp = int(g.state.meta[Meta.TEMP_FAVOR])
    for p in range(g.n):
        r = [int(x) for x in g.state.res[p]]
        s = {0: 0, 1: SCORE["scroll"], 2: SCORE["tribune"]}[r[TILE]]
        s += 5 * r[ETERNAL] + 2 * r[LEGIONS] + r[LAURELS] + r[MONEY] // 10 + r[MARKERS]
        s += 2 if temp == p else 0
        s += 2 if g.state.declared[p] == 0 else 0
        out.append(s)
    return out


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
    """Checks every invariant after each step and remembers what must never decrease."""

    def __init__(self, g: Game):
        self.prev = None
        self.first_declaration_round = None
        self.steps = 0
        self.curia_checked = -1
        self.check(g)

    def __call__(self, g: Game, action=None):
        self.steps += 1
        self.check(g)

    def check(self, g: Game):
        n = g.n
        meta, res = g.state.meta, g.state.res
        phase = int(meta[Meta.PHASE])
        over = g.is_over
        decision = g.decision()

        # ---- cards: all 100 accounted for, in the engine's and in our own count
        assert np.array_equal(card_counts(g), g.deck_counts), "card accounting broken"
        assert total_cards(g) == NUM_CARDS, "hands plus everything else must be 100 cards"
        n_draw = int(meta[Meta.DRAW_N])
        assert g.state.draw[:n_draw].min(initial=0) >= 0 and g.state.draw[n_draw:].max(initial=-1) == -1
        assert g.state.hand.min() >= 0 and not g.state.hand[n:].any()
        for a in (
            g.state.discard_public,
            g.state.discard_hidden,
            g.state.catacombs,
            g.state.curia,
            g.state.mars_pairs,
            g.state.sets,
            g.state.challenger,
            g.state.build,
        ):
            assert a.min() >= 0
        if not over:
            assert (g.state.build <= g.state.hand[decision[1]]).all(), (
                "the set being built must come from the actor's hand"
            )

        # ---- resources
        r = res[:n].tolist()
        assert res.min() >= 0, f"negative money or resources {r}"
        assert not res[n:].any() and not g.state.markers[n:].any()
        assert g.state.markers.min() >= 0 and g.state.markers.max() <= 1
        marker_sums = g.state.markers[:n].sum(axis=1).tolist()
        temp = int(meta[Meta.TEMP_FAVOR])
        controller = g.state.controller.tolist()
        for p in range(n):
            assert r[p][MARKERS] == marker_sums[p]
            assert r[p][TILE] in (0, 1, 2) and r[p][ETERNAL] in (0, 1)
        assert temp == -1 or temp == controller[VESTALS], (
            f"temporary favor with player_{temp}, Vestal Virgins controlled by {controller[VESTALS]}"
        )
        if temp >= 0:
            assert r[temp][ETERNAL] == 0, "a holder of eternal favor returns the temporary favor"

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
        assert 0 <= phase <= 6
        assert 0 <= g.round <= g.round_limit
        if chariot >= 0 and phase in (2, 3, 4):
            assert fo[chariot] == [-1, -1], "a follower on the faction blocked by the chariot"
        if phase == 2:
            self._check_phase2(g, decision)
        else:
            assert not g.state.followers.any()

        # ---- legal actions
        mask = g.legal_mask()
        assert mask.dtype == np.int8 and mask.shape == (g.A.size,)
        assert mask.min() >= 0 and mask.max() <= 1
        if over:
            assert not mask.any(), "a finished game offers actions"
            assert g.current_player is None and decision is None
        else:
            assert mask.any(), "a running game offers no action"
            assert g.current_player == decision[1] and 0 <= decision[1] < n
            check_mask(g, decision, mask)

        # ---- declarations: whoever meets the card has declared, and never withdraws
        declared = g.state.declared[:n].tolist()
        assert (g.state.declared[n:] == -1).all()
        order = sorted(x for x in declared if x >= 0)
        assert order == list(range(len(order))), f"declaration order {declared}"
        assert int(meta[Meta.N_DECLARED]) == len(order)
        for p in range(n):
            if declared[p] < 0:
                assert not meets_victory(g, p, r[p], temp), (
                    f"player_{p} meets the victory condition but has not declared"
                )
        if order and self.first_declaration_round is None:
            self.first_declaration_round = g.round

        # ---- things that are never lost
        markers = g.state.markers[:n].tolist()
        if self.prev is not None:
            pr, pmarkers, pdeclared = self.prev
            for p in range(n):
                assert all(x >= y for x, y in zip(markers[p], pmarkers[p])), "a faction marker was lost"
                for col, name in (
                    (LAURELS, "laurels"),
                    (LEGIONS, "legions"),
                    (TILE, "tile"),
                    (ETERNAL, "eternal favor"),
                ):
                    assert r[p][col] >= pr[p][col], f"player_{p}: {name} decreased"
                if pdeclared[p] >= 0:
                    assert declared[p] == pdeclared[p], "a declaration was withdrawn or reordered"
        self.prev = (r, markers, declared)

    def _check_phase2(self, g, decision):
        n, meta = g.n, g.state.meta
        board = g.board
        # every follower is either placed or still to place
        proconsul = int(meta[Meta.PROCONSUL])
        owners = g.state.space_owner.tolist() + g.state.field_owner.ravel().tolist()
        bowl, left = g.state.coin_bowl.tolist(), g.state.followers.tolist()
        for p in range(n):
            placed = owners.count(p) + bowl[p]
            allot = g.data.followers[n] + (
                g.data.proconsul_followers if proconsul == p and g.state.controller[PATRICIANS] == p else 0
            )
            assert placed + left[p] == allot, f"player_{p}: {placed} placed + {left[p]} left != {allot}"
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
        """At the end: terminated or truncated as the rules say, and the right winner."""
        n = g.n
        assert g.is_over and g.terminated != g.truncated
        assert g.phase == 6, "a game ends at the end of a round"
        declared = g.state.declared[:n]
        if g.truncated:
            assert g.round == g.round_limit
            assert (declared < 0).all() and g.winners() == []
            return
        assert (declared >= 0).any(), "a terminated game has a declaration"
        assert g.round == self.first_declaration_round, "the game ends with the round of the first declaration"
        scores = rule_scores(g)
        assert g.scores().tolist() == scores
        if g.victory_card is None:
            best = max(scores)
            assert g.winners() == [p for p in range(n) if scores[p] == best]
        else:
            declarers = [p for p in range(n) if declared[p] >= 0]
            best = min(declarers, key=lambda p: (-scores[p], declared[p]))
            assert g.winners() == [best], f"scores {scores}, declared {declared.tolist()}"
            assert all(declared[p] >= 0 for p in g.winners())


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


def _bulk_games(n: int, count: int, round_limit: int | None, first_seed: int):
    """Play `count` random games; cheap checks every step, full accounting every 64 steps and at the end."""
    ended = {"terminated": 0, "truncated": 0}
    for seed in range(first_seed, first_seed + count):
        g = Game(n, seed=seed, round_limit=round_limit, log=False)
        rng = np.random.default_rng(seed)
        steps = 0
        while not g.is_over:
            mask = g.legal_mask()
            assert mask.any(), f"seed {seed}: empty mask for player_{g.current_player}"
            legal = np.flatnonzero(mask)
            g.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            assert g.state.res.min() >= 0, f"seed {seed}: a negative money, laurel or legion count"
            if steps % 64 == 0:
                assert (card_counts(g) == g.deck_counts).all(), f"seed {seed}: cards lost at step {steps}"
        assert not g.legal_mask().any()
        assert (card_counts(g) == g.deck_counts).all(), f"seed {seed}: cards lost"
        assert ((g.state.markers == 0) | (g.state.markers == 1)).all()
        assert (g.state.res[:, MARKERS] == g.state.markers.sum(axis=1)).all()
        assert set(np.unique(g.state.res[:, TILE]).tolist()) <= {0, 1, 2}
        assert g.round <= g.round_limit
        if g.terminated:
            assert g.winners() and all(g.state.declared[p] >= 0 for p in g.winners())
        ended["terminated" if g.terminated else "truncated"] += 1
    return ended


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_thousands_of_games_keep_invariants(n):
    """2,200 games in all: 500 short (6-round limit) and 50 full-length games per player count."""
    short = _bulk_games(n, 500, round_limit=6, first_seed=10_000)
    full = _bulk_games(n, 50, round_limit=None, first_seed=20_000)
    assert short["truncated"] > 0 and full["terminated"] > 0
    assert sum(short.values()) + sum(full.values()) == 550
