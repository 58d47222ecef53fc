"""Every worked example of the rulebook, replayed on a staged table.

Cards come from the deck of clarifications §2; names follow the examples (John, Michelle,
Mike, Zoe are seats 0-2 as noted in each test).
"""

from tests.scenario import (
    C,
    display,
    done,
    fresh,
    give,
    hand_of,
    legal,
    money,
    occupy,
    place_card,
    run,
    set_values,
    step,
    to_catacombs,
    to_curia,
    waiting,
)
from tribune_env.data import GLADIATORS, LEGATES, SENATORS, VESTALS
from tribune_env.state import ETERNAL, LAURELS, MARKERS, SCROLL, TILE, TRIBUNE, Meta
from tribune_env.tasks import Task


# ------------------------------------------------------------------ helpers
def pantheon_seen_faction(g, observer):
    """Faction one-hot of the Pantheon card in `observer`'s observation (all zero if unseen)."""
    slots = g.observe(observer)[g.obs_layout.slices["slots"]].reshape(g.board.num_slots, -1)
    return slots[g.board.slots["Pantheon"].start, 1:8]


# ------------------------------------------------------------------ Phase 2: coin bowl
def test_coin_bowl_example():
    """Coin bowl: the first follower of the round earns 7 denarii, every later one 5."""
    g = fresh(3, money=20)
    yellow, red, white = 0, 1, 2
    g.state.followers[:3] = (1, 2, 1)
    run(g, (Task.PLACE, yellow))
    step(g, "place follower: coin bowl")  # yellow, first: 7
    assert money(g, yellow) == 27
    assert waiting(g) == (Task.PLACE, red)
    step(g, "place follower: coin bowl")  # red: 5
    step(g, "place follower: coin bowl")  # white: 5
    assert waiting(g) == (Task.PLACE, red)
    step(g, "place follower: coin bowl")  # red again: 5 more
    assert (money(g, yellow), money(g, red), money(g, white)) == (27, 30, 25)


# ------------------------------------------------------------------ Phase 3: regions
def _latrine_with_plebeian_6():
    g = fresh(3, money=10)
    place_card(g, "Latrine", 0, C("Plebeians", 6), up=False)
    occupy(g, "Latrine", 0, 0)
    run(g, (Task.LATRINE,))
    assert waiting(g) == (Task.LATRINE_CHOICE, 0)
    assert legal(g) == {"Latrine: take denarii", "Latrine: buy card"}
    return g


def test_latrine_take_denarii():
    """Latrine: take the value (6) in denarii; the card is discarded."""
    g = _latrine_with_plebeian_6()
    step(g, "Latrine: take denarii")
    assert done(g)
    assert money(g, 0) == 16
    assert g.state.hand[0].sum() == 0
    assert g.state.discard_public[C("Plebeians", 6)] == 1


def test_latrine_buy_card():
    """Latrine: pay the value (6) and keep the card."""
    g = _latrine_with_plebeian_6()
    step(g, "Latrine: buy card")
    assert done(g)
    assert money(g, 0) == 4
    assert hand_of(g, 0) == ["Plebeians 6"]
    assert g.state.discard_public.sum() == 0


def test_curia_example():
    """Curia left to right: Michelle discards the Legate leader she just took from stack 1 for stack 3."""
    g = fresh(3)
    michelle, john = 0, 1
    to_curia(g, 0, C("Gladiators", 3), C("Legates", 0))  # stops at the leader
    to_curia(g, 1, C("Plebeians", 1), C("Plebeians", 2), C("Gladiators", 2))  # sum 5
    to_curia(g, 2, C("Senators", 5))
    give(g, michelle, C("Patricians", 2))
    give(g, john, C("Praetorians", 1))
    occupy(g, "Curia", 0, michelle)
    occupy(g, "Curia", 1, john)
    occupy(g, "Curia", 2, michelle)
    run(g, (Task.CURIA, 0), (Task.CURIA, 1), (Task.CURIA, 2))

    assert g.decision()[:3] == (Task.CURIA_CHOICE, michelle, 0)
    step(g, "discard Patricians 2")
    assert g.decision()[:3] == (Task.CURIA_CHOICE, john, 1)
    step(g, "discard Praetorians 1")
    assert g.decision()[:3] == (Task.CURIA_CHOICE, michelle, 2)
    assert "discard Varus (Legates 0)" in legal(g)
    step(g, "discard Varus (Legates 0)")
    assert done(g)

    assert hand_of(g, michelle) == ["Gladiators 3", "Senators 5"]
    assert hand_of(g, john) == ["Gladiators 2", "Plebeians 1", "Plebeians 2"]
    assert g.state.curia.sum() == 0
    for name in ("Patricians", 2), ("Praetorians", 1), ("Legates", 0):
        assert g.state.discard_public[C(*name)] == 1


def _atrium(first, second, bid_first, bid_second):
    g = fresh(3, money=20)
    for k, card in enumerate((C("Senators", 8), C("Vestal", 5), C("Legates", 4))):
        place_card(g, "Atrium Auctionorum", k, card, up=True)
    occupy(g, "Atrium Auctionorum", 0, first)
    occupy(g, "Atrium Auctionorum", 1, second)
    run(g, (Task.ATRIUM,))
    assert waiting(g) == (Task.ATRIUM_BID, first)
    step(g, f"bid digit {bid_first}")
    assert waiting(g) == (Task.ATRIUM_BID, second)
    step(g, f"bid digit {bid_second}")
    assert done(g)
    return g


def test_atrium_auction_example():
    """Atrium: John bids 9, Michelle 5; John takes all three cards and pays his 9 to Michelle."""
    john, michelle = 0, 1
    g = _atrium(john, michelle, 9, 5)
    assert hand_of(g, john) == ["Legates 4", "Senators 8", "Vestal Virgins 5"]
    assert g.state.hand[michelle].sum() == 0
    assert (money(g, john), money(g, michelle)) == (11, 29)  # Michelle keeps her own 5
    assert (g.state.slot_card[g.board.slots["Atrium Auctionorum"]] < 0).all()


def test_atrium_tie_goes_to_space_1():
    """Atrium: equal bids -- the player on "1." wins (and pays the loser)."""
    g = _atrium(first=1, second=0, bid_first=4, bid_second=4)
    assert g.state.hand[1].sum() == 3 and g.state.hand[0].sum() == 0
    assert (money(g, 1), money(g, 0)) == (16, 24)


def test_catacombs_example():
    """Catacombs: Mike pays 4 then 2 into the Colosseum, Zoe declines and pays nothing; the Gladiator controller takes it."""
    g = fresh(3, money=20)
    mike, zoe, _other = 0, 1, 2
    to_catacombs(g, C("Gladiators", 5), C("Senators", 10), C("Patricians", 8), C("Legates", 2), C("Plebeians", 3))
    occupy(g, "Catacombs", 0, mike)  # "4"
    occupy(g, "Catacombs", 1, zoe)  # "3"
    occupy(g, "Catacombs", 2, mike)  # "2"
    run(g, *[(Task.CATACOMBS, i) for i in range(3)], (Task.CATACOMBS_END,))

    assert g.decision()[:3] == (Task.CATACOMBS_CHOICE, mike, 0)
    step(g, "take Senators 10")
    assert (money(g, mike), int(g.state.meta[Meta.COLOSSEUM])) == (16, 4)

    assert g.decision()[:3] == (Task.CATACOMBS_CHOICE, zoe, 1)
    assert "decline" in legal(g)
    step(g, "decline")
    assert money(g, zoe) == 20 and g.state.hand[zoe].sum() == 0

    assert g.decision()[:3] == (Task.CATACOMBS_CHOICE, mike, 2)
    assert "take Senators 10" not in legal(g)
    assert "take Patricians 8" in legal(g)  # still four cards to choose from
    assert g.state.catacombs.sum() == 4
    step(g, "take Patricians 8")
    assert done(g)
    assert (money(g, mike), int(g.state.meta[Meta.COLOSSEUM])) == (14, 6)
    assert hand_of(g, mike) == ["Patricians 8", "Senators 10"]
    assert g.state.catacombs.sum() == 0 and g.state.discard_hidden.sum() == 3

    # Phase 5: Mike, controlling the Gladiators, takes back exactly what he paid
    g.state.meta[Meta.N_TASKS] = 0  # drop the finished scenario's sentinel
    display(g, mike, "Gladiators", 1, 2)
    run(g, (Task.FACTION_BENEFIT, GLADIATORS))
    step(g, "Gladiators: take the Colosseum denarii")
    assert done(g)
    assert money(g, mike) == 20 and g.state.meta[Meta.COLOSSEUM] == 0


def test_pantheon_example():
    """Pantheon: Zoe (Vestal marker) places, sees the Praetorian alone, sacrifices a Praetorian, takes eternal favor."""
    g = fresh(3, money=20)
    mike, zoe = 0, 1
    g.state.markers[zoe, VESTALS] = 1
    g.state.res[zoe, MARKERS] = 1
    place_card(g, "Pantheon", 0, C("Praetorians", 5), up=False)
    give(g, zoe, C("Praetorians", 2), C("Senators", 4))
    g.state.followers[:3] = (1, 1, 0)
    run(g, (Task.PLACE, zoe))
    assert "place follower: Pantheon" in legal(g)
    step(g, "place follower: Pantheon")

    # Mike's turn: he may not place on the Pantheon, and only Zoe has seen the card
    assert waiting(g) == (Task.PLACE, mike)
    assert "place follower: Pantheon" not in legal(g)
    assert pantheon_seen_faction(g, zoe).tolist() == [0, 0, 1, 0, 0, 0, 0]
    assert not pantheon_seen_faction(g, mike).any()
    assert not pantheon_seen_faction(g, 2).any()
    step(g, "place follower: coin bowl")

    # Phase 3: the card is turned up; Zoe sacrifices a Praetorian (any value)
    assert waiting(g) == (Task.SACRIFICE, zoe)
    assert pantheon_seen_faction(g, mike).tolist() == [0, 0, 1, 0, 0, 0, 0]
    assert legal(g) == {"discard Praetorians 2", "decline"}
    step(g, "discard Praetorians 2")
    assert g.state.res[zoe, ETERNAL] == 1
    assert hand_of(g, zoe) == ["Senators 4"]
    assert g.state.discard_public[C("Praetorians", 5)] == 1  # the turned-up card is discarded


def test_field_of_mars_example():
    """Field of Mars: John (Senators 6+4) and Michelle (Legates 4+2) each take 1 laurel, John 1 more."""
    g = fresh(3)
    john, michelle = 0, 1
    give(g, john, C("Senators", 6), C("Senators", 4))
    give(g, michelle, C("Legates", 4), C("Legates", 2))
    occupy(g, "Field of Mars", 0, john)
    occupy(g, "Field of Mars", 1, michelle)
    run(g, (Task.MARS,))
    assert waiting(g) == (Task.MARS_PAIR, john)
    step(g, "add Senators 6 to set", "add Senators 4 to set", "commit set")
    assert waiting(g) == (Task.MARS_PAIR, michelle)
    step(g, "add Legates 4 to set", "add Legates 2 to set", "commit set")
    assert done(g)
    assert g.state.res[john, LAURELS] == 2
    assert g.state.res[michelle, LAURELS] == 1
    assert g.state.hand[john].sum() == 0 and g.state.hand[michelle].sum() == 0
    assert g.state.discard_public.sum() == 4


# ------------------------------------------------------------------ Phase 4: take-overs
def test_takeover_example_1():
    """Take-over 1: John's 4 Legates summing 15 beat Zoe's set summing 11; 2 laurels and the Legate marker."""
    g = fresh(3)
    zoe, john = 0, 1
    display(g, zoe, "Legates", 1, 2, 3, 5)  # 4 cards, sum 11
    g.state.markers[zoe, LEGATES] = 1
    give(g, john, C("Legates", 2), C("Legates", 3), C("Legates", 4), C("Legates", 6))
    g.state.field_owner[LEGATES, 0] = john
    run(g, (Task.TAKEOVER, LEGATES))
    assert g.decision()[:4] == (Task.TAKEOVER_SET, john, LEGATES, 1)
    step(g, "add Legates 2 to set", "add Legates 3 to set", "add Legates 4 to set")
    assert "commit set" not in legal(g)  # 3 cards summing 9 beat nothing
    step(g, "add Legates 6 to set", "commit set")
    assert done(g)
    assert g.state.controller[LEGATES] == john
    assert set_values(g, LEGATES) == [2, 3, 4, 6]
    for v in (1, 2, 3, 5):
        assert g.state.discard_public[C("Legates", v)] == 1
    assert g.state.res[john, LAURELS] == 2
    assert g.state.markers[john, LEGATES] == 1 and g.state.res[john, MARKERS] == 1
    assert g.state.markers[zoe, LEGATES] == 1  # Zoe keeps her marker


def test_takeover_example_2_more_cards_beat_higher_sum():
    """Take-over (example 2's rule): a set with more cards wins even with a lower sum."""
    g = fresh(3)
    owner, challenger = 0, 1
    display(g, owner, "Senators", 8, 10)  # 2 cards, sum 18
    give(g, challenger, C("Senators", 3), C("Senators", 4), C("Senators", 5))  # 3 cards, sum 12
    g.state.field_owner[SENATORS, 0] = challenger
    run(g, (Task.TAKEOVER, SENATORS))
    step(g, "add Senators 3 to set", "add Senators 4 to set")
    assert "commit set" not in legal(g)  # 2 cards, sum 7: neither more nor higher
    step(g, "add Senators 5 to set", "commit set")
    assert done(g)
    assert g.state.controller[SENATORS] == challenger
    assert set_values(g, SENATORS) == [3, 4, 5]
    assert g.state.discard_public[C("Senators", 8)] == 1 and g.state.discard_public[C("Senators", 10)] == 1


def test_takeover_example_3():
    """Take-over 3: Mike ("2") plays 22, Michelle ("1") beats both with 4 cards; Mike discards his 6."""
    g = fresh(3)
    john, michelle, mike = 0, 1, 2
    display(g, john, "Senators", 4, 5, 7)  # sum 16
    g.state.markers[john, SENATORS] = 1
    give(g, mike, C("Senators", 6), C("Senators", 8), C("Senators", 8))
    give(g, michelle, C("Senators", 3), C("Senators", 4), C("Senators", 5), C("Senators", 7))
    g.state.field_owner[SENATORS] = (michelle, mike)
    run(g, (Task.TAKEOVER, SENATORS))

    assert g.decision()[:4] == (Task.TAKEOVER_SET, mike, SENATORS, 2)  # "2" goes first
    step(g, "add Senators 6 to set", "add Senators 8 to set", "add Senators 8 to set", "commit set")
    assert g.decision()[:4] == (Task.TAKEOVER_SET, michelle, SENATORS, 1)
    step(g, "add Senators 3 to set", "add Senators 4 to set", "add Senators 5 to set")
    assert "commit set" not in legal(g)  # 3 cards summing 12 beat neither set
    step(g, "add Senators 7 to set", "commit set")

    assert waiting(g) == (Task.PENALTY, mike)
    assert legal(g) == {"discard Senators 6", "discard Senators 8"}
    step(g, "discard Senators 6")
    assert done(g)

    assert g.state.controller[SENATORS] == michelle
    assert set_values(g, SENATORS) == [3, 4, 5, 7]
    assert hand_of(g, mike) == ["Senators 8", "Senators 8"]
    assert g.state.discard_public[C("Senators", 6)] == 1
    for v in (4, 5, 7):  # John's beaten set
        assert g.state.discard_public[C("Senators", v)] == 1
    assert g.state.res[michelle, LAURELS] == 1  # take-over benefit only, no first-control laurel
    assert g.state.markers[michelle, SENATORS] == 1
    assert g.state.res[mike, LAURELS] == 0 and g.state.markers[mike, SENATORS] == 0


def test_varus_leader_example():
    """Varus: a Legates take-over with Varus gives 2 laurels plus 1 more."""
    g = fresh(3)
    mike = 2
    g.state.first_laurel[LEGATES] = 0  # the Legates were controlled before
    give(g, mike, C("Legates", 0), C("Legates", 4), C("Legates", 5))
    g.state.field_owner[LEGATES, 0] = mike
    run(g, (Task.TAKEOVER, LEGATES))
    step(g, "add Varus (Legates 0) to set", "add Legates 4 to set", "add Legates 5 to set", "commit set")
    assert done(g)
    assert g.state.controller[LEGATES] == mike
    assert g.state.res[mike, LAURELS] == 3
    assert g.state.markers[mike, LEGATES] == 1


def test_cato_leader_example():
    """Cato: Mike takes the Senators marker and a chosen Vestal Virgins marker."""
    g = fresh(3)
    mike = 2
    g.state.markers[mike, GLADIATORS] = 1
    g.state.res[mike, MARKERS] = 1
    give(g, mike, C("Senators", 0), C("Senators", 8), C("Senators", 10))
    g.state.field_owner[SENATORS, 0] = mike
    run(g, (Task.TAKEOVER, SENATORS))
    step(g, "add Cato the Elder (Senators 0) to set", "add Senators 8 to set", "add Senators 10 to set", "commit set")
    assert waiting(g) == (Task.CATO, mike)
    options = legal(g)
    assert "take Vestal Virgins marker" in options
    assert "take Senators marker" not in options and "take Gladiators marker" not in options
    assert len(options) == 5
    step(g, "take Vestal Virgins marker")
    assert done(g)
    assert g.state.markers[mike].tolist() == [1, 0, 0, 0, 0, 1, 1]
    assert g.state.res[mike, MARKERS] == 3


# ------------------------------------------------------------------ Phase 5
def test_vestal_virgins_benefit_example():
    """Vestal benefit: Michelle controls Senators and Vestals and holds a scroll: she takes the tribune."""
    g = fresh(3)
    michelle = 1
    display(g, michelle, "Senators", 5, 6)
    display(g, michelle, "Vestal", 3, 4)
    g.state.res[michelle, TILE] = SCROLL
    run(g, (Task.FACTION_BENEFIT, VESTALS))
    assert waiting(g) == (Task.BENEFIT_CHOICE, michelle)
    assert legal(g) == {"Vestal Virgins: take a laurel and the temporary favor", "Vestal Virgins: take a tribune"}
    step(g, "Vestal Virgins: take a tribune")
    assert done(g)
    assert g.state.res[michelle, TILE] == TRIBUNE
    assert g.state.res[michelle, LAURELS] == 0
    assert g.state.meta[Meta.TEMP_FAVOR] == -1
