"""One or more tests for every rule clarification of clarifications.md §4."""

import numpy as np
import pytest

from tests.scenario import (
    C,
    bid_digits,
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
from tribune_env import Game
from tribune_env.data import GLADIATORS, LEGATES, PATRICIANS, PLEBEIANS, SENATORS, VESTALS, VictoryCard
from tribune_env.state import ETERNAL, LAURELS, LEGIONS, MARKERS, MONEY, SCROLL, TILE, TRIBUNE, Meta
from tribune_env.tasks import Task

LONG = "alea-iacta-est-long"  # hard to meet by accident: keeps staged games running


# ------------------------------------------------------------------ helpers
def slot_view(g, observer, region, index=0):
    """(faction one-hot, value) of a board slot as `observer` sees it."""
    slots = g.observe(observer)[g.obs_layout.slices["slots"]].reshape(g.board.num_slots, -1)
    row = slots[g.board.slots[region].start + index]
    return row[1:8].tolist(), float(row[8])


def seg(g, observer, name):
    return g.observe(observer)[g.obs_layout.slices[name]]


def empty_draw_pile(g):
    """Take every card out of the draw pile (those cards leave the staged game)."""
    g.state.draw[:] = -1
    g.state.meta[Meta.DRAW_N] = 0


def default_action(g):
    """A neutral move, for playing through rounds: coin bowl, bid 0, first benefit, decline."""
    kind = g.decision()[0]
    options = legal(g)
    if kind == Task.PLACE:
        return "place follower: coin bowl"
    if kind == Task.CHARIOT_BID:
        return "bid digit 0"
    if "decline" in options:
        return "decline"
    return g.A.labels[g.legal_actions()[0]]


# ================================================================== Tiles
@pytest.mark.parametrize("tile", [SCROLL, TRIBUNE])
def test_tile_holder_is_not_offered_a_scroll(tile):
    """Tiles: a scroll or tribune holder cannot take a (second) scroll from Legates or Senators."""
    for f, other in ((LEGATES, "Legates: draw a card and buy a legion"), (SENATORS, "Senators: draw two cards")):
        g = fresh(3, auto_forced=False)
        display(g, 0, "Legates" if f == LEGATES else "Senators", 3, 4)
        g.state.res[0, TILE] = tile
        run(g, (Task.FACTION_BENEFIT, f))
        assert waiting(g) == (Task.BENEFIT_CHOICE, 0)
        assert legal(g) == {other}


def test_player_without_tile_takes_a_scroll():
    """Tiles: without a tile the Legates controller may take a scroll (one tile)."""
    g = fresh(3)
    display(g, 0, "Legates", 3, 4)
    run(g, (Task.FACTION_BENEFIT, LEGATES))
    assert legal(g) == {"Legates: take a scroll", "Legates: draw a card and buy a legion"}
    step(g, "Legates: take a scroll")
    assert done(g)
    assert g.state.res[0, TILE] == SCROLL


def test_scroll_turns_into_tribune():
    """Tiles: the Plebeian tribune option turns the player's scroll into a tribune."""
    g = fresh(3)
    display(g, 0, "Plebeians", 3, 4)
    display(g, 0, "Patricians", 5, 6)
    g.state.res[0, TILE] = SCROLL
    run(g, (Task.FACTION_BENEFIT, PLEBEIANS))
    step(g, "Plebeians: take a tribune")
    assert done(g)
    assert g.state.res[0, TILE] == TRIBUNE


def test_tribune_needs_a_scroll():
    """Tiles: without a scroll there is no tribune option (Plebeians)."""
    g = fresh(3, auto_forced=False)
    display(g, 0, "Plebeians", 3, 4)
    display(g, 0, "Patricians", 5, 6)
    run(g, (Task.FACTION_BENEFIT, PLEBEIANS))
    assert legal(g) == {"Plebeians: draw a card and take 2 denarii"}


def test_tribune_holder_cannot_take_agrippa_scroll():
    """Tiles: a tribune holder taking over with Agrippa is offered only the card."""
    g = fresh(3, auto_forced=False)
    g.state.res[0, TILE] = TRIBUNE
    give(g, 0, C("Plebeians", 0), C("Plebeians", 5))
    g.state.field_owner[PLEBEIANS, 0] = 0
    run(g, (Task.TAKEOVER, PLEBEIANS))
    step(g, "add Agrippa (Plebeians 0) to set", "add Plebeians 5 to set", "commit set")
    assert waiting(g) == (Task.ASSASSIN, 0)
    step(g, "decline")
    assert waiting(g) == (Task.AGRIPPA, 0)
    assert legal(g) == {"Agrippa: draw a card"}


def test_temporary_favor_taken_by_vestal_controller():
    """Tiles: the Vestal controller takes a laurel and may take the temporary favor."""
    g = fresh(3)
    display(g, 1, "Vestal", 3, 4)
    run(g, (Task.FACTION_BENEFIT, VESTALS))  # the tribune option is closed: the laurel one is forced
    assert waiting(g) == (Task.TEMP_FAVOR, 1)
    assert legal(g) == {"take the temporary favor", "decline"}
    step(g, "take the temporary favor")
    assert done(g)
    assert g.state.meta[Meta.TEMP_FAVOR] == 1
    assert g.state.res[1, LAURELS] == 1


def test_temporary_favor_not_for_eternal_favor_holder():
    """Tiles: a holder of eternal favor gets the laurel but not the temporary favor."""
    g = fresh(3)
    display(g, 1, "Vestal", 3, 4)
    g.state.res[1, ETERNAL] = 1
    run(g, (Task.FACTION_BENEFIT, VESTALS))  # the laurel option is forced (no scroll)
    assert done(g)
    assert g.state.meta[Meta.TEMP_FAVOR] == -1
    assert g.state.res[1, LAURELS] == 1


def test_temporary_favor_returned_on_losing_vestals():
    """Tiles: the temporary favor returns to the stock when its holder loses the Vestals."""
    g = fresh(3)
    display(g, 0, "Vestal", 3, 4)
    g.state.meta[Meta.TEMP_FAVOR] = 0
    give(g, 1, C("Vestal", 5), C("Vestal", 6))
    g.state.field_owner[VESTALS, 0] = 1
    run(g, (Task.TAKEOVER, VESTALS))
    step(g, "add Vestal Virgins 5 to set", "add Vestal Virgins 6 to set", "commit set")
    assert done(g)
    assert g.state.controller[VESTALS] == 1
    assert g.state.meta[Meta.TEMP_FAVOR] == -1


def test_temporary_favor_returned_on_gaining_eternal_favor():
    """Tiles: a player who gains eternal favor (Pantheon) returns the temporary favor."""
    g = fresh(3)
    display(g, 0, "Vestal", 3, 4)
    g.state.meta[Meta.TEMP_FAVOR] = 0
    place_card(g, "Pantheon", 0, C("Praetorians", 5), up=False)
    give(g, 0, C("Praetorians", 2))
    occupy(g, "Pantheon", 0, 0)
    run(g, (Task.PANTHEON,))
    step(g, "discard Praetorians 2")
    assert done(g)
    assert g.state.res[0, ETERNAL] == 1
    assert g.state.meta[Meta.TEMP_FAVOR] == -1


def test_at_most_one_eternal_favor():
    """Tiles: Aquilia Severa gives no second eternal favor tile."""
    g = fresh(3)
    g.state.res[0, ETERNAL] = 1
    give(g, 0, C("Vestal", 0), C("Vestal", 8))
    g.state.field_owner[VESTALS, 0] = 0
    run(g, (Task.TAKEOVER, VESTALS))
    step(g, "add Aquilia Severa (Vestal Virgins 0) to set", "add Vestal Virgins 8 to set", "commit set")
    assert done(g)
    assert g.state.res[0, ETERNAL] == 1


def test_aquilia_severa_gives_eternal_favor_and_returns_temporary():
    """Tiles: Aquilia Severa gives eternal favor; the temporary favor goes back."""
    g = fresh(3)
    g.state.meta[Meta.TEMP_FAVOR] = 0  # staged: p0 held it before (e.g. lost the Vestals later)
    give(g, 0, C("Vestal", 0), C("Vestal", 8))
    g.state.field_owner[VESTALS, 0] = 0
    run(g, (Task.TAKEOVER, VESTALS))
    step(g, "add Aquilia Severa (Vestal Virgins 0) to set", "add Vestal Virgins 8 to set", "commit set")
    assert g.state.res[0, ETERNAL] == 1
    assert g.state.meta[Meta.TEMP_FAVOR] == -1


# ================================================================== Forced and free choices
def test_thermae_payment_is_compulsory():
    """Forced: Thermae cards are paid (1 each) with no decision; an unaffordable card is discarded."""
    g = fresh(3, money=1)
    place_card(g, "Thermae", 0, C("Senators", 10))
    place_card(g, "Thermae", 1, C("Legates", 6))
    occupy(g, "Thermae", 0, 0)
    occupy(g, "Thermae", 1, 0)
    run(g, (Task.THERMAE,))
    assert done(g)  # nobody was asked anything
    assert money(g, 0) == 0
    assert hand_of(g, 0) == ["Senators 10"]
    assert g.state.discard_public[C("Legates", 6)] == 1


def test_forum_pays_left_to_right_until_money_runs_out():
    """Forced: Forum cards cost 3 each, left to right; the one the player cannot pay is discarded."""
    g = fresh(3, money=5)
    place_card(g, "Forum Romanum", 0, C("Senators", 3))
    place_card(g, "Forum Romanum", 1, C("Senators", 4))
    place_card(g, "Forum Romanum", 2, C("Gladiators", 2))
    occupy(g, "Forum Romanum", 0, 0)
    occupy(g, "Forum Romanum", 1, 0)
    run(g, (Task.FORUM,))
    assert done(g)
    assert money(g, 0) == 2
    assert hand_of(g, 0) == ["Senators 3"]
    assert g.state.discard_public[C("Senators", 4)] == 1
    assert g.state.discard_public[C("Gladiators", 2)] == 1  # unoccupied space


def _at_curia(g):
    to_curia(g, 0, C("Senators", 5))
    give(g, 0, C("Legates", 2))
    occupy(g, "Curia", 0, 0)
    run(g, (Task.CURIA, 0))


def _at_catacombs(g):
    to_catacombs(g, C("Senators", 5), C("Legates", 2), C("Gladiators", 1), C("Gladiators", 2), C("Patricians", 3))
    occupy(g, "Catacombs", 0, 0)
    run(g, (Task.CATACOMBS, 0))


def _at_sacrifice(g):
    g.state.markers[0, VESTALS] = 1
    place_card(g, "Pantheon", 0, C("Praetorians", 5), up=False)
    give(g, 0, C("Praetorians", 2))
    occupy(g, "Pantheon", 0, 0)
    run(g, (Task.PANTHEON,))


def _at_mars(g):
    give(g, 0, C("Senators", 4), C("Senators", 6))
    occupy(g, "Field of Mars", 0, 0)
    run(g, (Task.MARS,))


def _at_takeover(g):
    give(g, 0, C("Senators", 4), C("Senators", 6))
    g.state.field_owner[SENATORS, 0] = 0
    run(g, (Task.TAKEOVER, SENATORS))


def _at_assassin(g):
    display(g, 1, "Senators", 3, 4, 5)
    run(g, (Task.ASSASSIN, 0))


def _at_tigellinus(g):
    give(g, 0, C("Senators", 4))
    run(g, (Task.TIGELLINUS, 0))


def _at_temp_favor(g):
    display(g, 0, "Vestal", 3, 4)
    run(g, (Task.FACTION_BENEFIT, VESTALS))  # laurel option forced; then the favor choice


def _at_buy_legion(g):
    display(g, 0, "Legates", 2, 3)
    run(g, (Task.FACTION_BENEFIT, LEGATES))
    step(g, "Legates: draw a card and buy a legion")


def _at_chariot_place(g):
    display(g, 0, "Senators", 5, 6)
    run(g, (Task.CHARIOT_PLACE, 0))


@pytest.mark.parametrize(
    "stage, kind",
    [
        (_at_curia, Task.CURIA_CHOICE),
        (_at_catacombs, Task.CATACOMBS_CHOICE),
        (_at_sacrifice, Task.SACRIFICE),
        (_at_mars, Task.MARS_PAIR),
        (_at_takeover, Task.TAKEOVER_SET),
        (_at_assassin, Task.ASSASSIN),
        (_at_tigellinus, Task.TIGELLINUS),
        (_at_temp_favor, Task.TEMP_FAVOR),
        (_at_buy_legion, Task.BUY_LEGION),
        (_at_chariot_place, Task.CHARIOT_PLACE),
    ],
    ids=lambda x: getattr(x, "name", None),
)
def test_optional_choice_offers_decline(stage, kind):
    """Free choices: every optional act is a decision offering a real option and "decline"."""
    g = fresh(3, money=20)
    stage(g)
    assert waiting(g) == (kind, 0)
    options = legal(g)
    assert "decline" in options and len(options) >= 2


def test_curia_decline_discards_the_stack():
    """Free choices: a Curia occupant who declines keeps its hand; the stack is discarded."""
    g = fresh(3)
    _at_curia(g)
    step(g, "decline")
    assert done(g)
    assert hand_of(g, 0) == ["Legates 2"]
    assert g.state.discard_public[C("Senators", 5)] == 1 and g.state.curia.sum() == 0


def test_benefit_options_are_choices():
    """Free choices: the Gladiator benefit offers both of its options."""
    g = fresh(3)
    display(g, 0, "Gladiators", 3, 4)
    run(g, (Task.FACTION_BENEFIT, GLADIATORS))
    assert legal(g) == {"Gladiators: take the Colosseum denarii", "Gladiators: draw a card and dispatch an assassin"}


# ================================================================== Secrecy
def _same_view(g1, g2, observer):
    return np.array_equal(g1.observe(observer), g2.observe(observer))


def test_chariot_bids_are_sealed():
    """Secrecy: a committed chariot bid changes nothing in the other players' observations."""
    g = fresh(3, money=20, victory_card=LONG)
    run(g, (Task.PHASE6,))
    assert waiting(g) == (Task.CHARIOT_BID, 0)
    g2 = g.clone()
    step(g, "bid digit 3")
    step(g2, "bid digit 8")
    assert waiting(g) == waiting(g2) == (Task.CHARIOT_BID, 1)
    assert _same_view(g, g2, 1) and _same_view(g, g2, 2)
    assert not _same_view(g, g2, 0)  # the bidder sees its own bid


def test_atrium_bids_are_sealed():
    """Secrecy: the Atrium bid of "1." is not visible to "2." before it bids."""
    g = fresh(3, money=20)
    for k, card in enumerate((C("Senators", 8), C("Vestal", 5), C("Legates", 4))):
        place_card(g, "Atrium Auctionorum", k, card, up=True)
    occupy(g, "Atrium Auctionorum", 0, 0)
    occupy(g, "Atrium Auctionorum", 1, 1)
    run(g, (Task.ATRIUM,))
    g2 = g.clone()
    step(g, "bid digit 2")
    step(g2, "bid digit 11")
    assert waiting(g) == (Task.ATRIUM_BID, 1)
    assert _same_view(g, g2, 1) and _same_view(g, g2, 2)
    assert not _same_view(g, g2, 0)


def test_field_of_mars_pairs_are_hidden_until_reveal():
    """Secrecy: a laid Field of Mars pair is not visible to others before all pairs are in."""
    g = fresh(3)
    give(g, 0, C("Senators", 4), C("Senators", 6), C("Legates", 2), C("Legates", 5))
    give(g, 1, C("Gladiators", 1), C("Gladiators", 2))
    occupy(g, "Field of Mars", 0, 0)
    occupy(g, "Field of Mars", 1, 1)
    run(g, (Task.MARS,))
    g2 = g.clone()
    step(g, "add Senators 4 to set", "add Senators 6 to set", "commit set")
    step(g2, "add Legates 2 to set", "add Legates 5 to set", "commit set")
    assert waiting(g) == (Task.MARS_PAIR, 1)
    assert _same_view(g, g2, 1) and _same_view(g, g2, 2)
    assert not _same_view(g, g2, 0)
    assert g.state.discard_public.sum() == 0


def test_setup_discards_are_hidden():
    """Secrecy: which two cards a player discards at setup is invisible to the others."""
    g = Game(3, seed=5, victory_card=LONG)
    kind, p = waiting(g)
    assert kind == Task.SETUP_DISCARD
    cards = [a for a in g.legal_actions() if g.A.labels[a].startswith("discard")]
    assert len(cards) >= 3
    g2 = g.clone()
    g.step(cards[0])
    g.step(cards[1])
    g2.step(cards[-1])
    g2.step(cards[-2])
    assert waiting(g) == waiting(g2) and waiting(g)[1] != p
    others = [q for q in range(3) if q != p]
    assert all(_same_view(g, g2, q) for q in others)
    assert not _same_view(g, g2, p)


def test_pantheon_look_is_private():
    """Secrecy: the Pantheon card is seen by the player who placed there, nobody else."""
    g = fresh(3)
    g.state.markers[0, VESTALS] = 1
    place_card(g, "Pantheon", 0, C("Senators", 7), up=False)
    g.state.followers[:3] = (1, 1, 1)
    run(g, (Task.PLACE, 0))
    step(g, "place follower: Pantheon")
    senators = [0, 0, 0, 0, 0, 0, 1]
    assert slot_view(g, 0, "Pantheon") == (senators, 7.0)
    assert slot_view(g, 1, "Pantheon") == ([0] * 7, 0.0)
    assert slot_view(g, 2, "Pantheon") == ([0] * 7, 0.0)


def test_catacombs_look_is_private():
    """Secrecy: only players who examined the Catacombs pile see its cards."""
    g = fresh(3)
    to_catacombs(g, C("Senators", 5), C("Legates", 2), C("Gladiators", 1), C("Gladiators", 2), C("Patricians", 3))
    occupy(g, "Catacombs", 0, 0)
    occupy(g, "Catacombs", 1, 1)
    run(g, *[(Task.CATACOMBS, i) for i in range(3)], (Task.CATACOMBS_END,))
    assert waiting(g) == (Task.CATACOMBS_CHOICE, 0)
    assert seg(g, 0, "catacombs_seen").sum() == 5
    assert seg(g, 1, "catacombs_seen").sum() == 0
    assert seg(g, 2, "catacombs_seen").sum() == 0
    step(g, "take Senators 5")
    assert waiting(g) == (Task.CATACOMBS_CHOICE, 1)
    assert seg(g, 1, "catacombs_seen").sum() == 4
    assert seg(g, 2, "catacombs_seen").sum() == 0


def test_latrine_reveal_is_public():
    """Secrecy: the Latrine card, once turned up, is visible to every player."""
    g = fresh(3)
    place_card(g, "Latrine", 0, C("Plebeians", 6), up=False)
    occupy(g, "Latrine", 0, 0)
    assert slot_view(g, 2, "Latrine") == ([0] * 7, 0.0)
    run(g, (Task.LATRINE,))
    assert waiting(g) == (Task.LATRINE_CHOICE, 0)
    assert slot_view(g, 2, "Latrine") == ([0, 0, 0, 1, 0, 0, 0], 6.0)


# ================================================================== Atrium flip
def _atrium_cards(g, up=None):
    for k, card in enumerate((C("Senators", 8), C("Vestal", 5), C("Legates", 4))):
        place_card(g, "Atrium Auctionorum", k, card, up=bool(up[k]) if up else False)


def test_atrium_first_player_chooses_which_two_turn_up():
    """Atrium flip: "1." chooses the card left face down; "2." turns the third up; never both spaces."""
    g = fresh(3)
    _atrium_cards(g)
    g.state.followers[:3] = (2, 2, 0)
    run(g, (Task.PLACE, 0))
    step(g, "place follower: Atrium Auctionorum")
    assert waiting(g) == (Task.ATRIUM_FLIP, 0)
    assert legal(g) == {f"Atrium: leave card {k} face down" for k in (1, 2, 3)}
    step(g, "Atrium: leave card 2 face down")
    atrium = g.board.slots["Atrium Auctionorum"]
    assert g.state.slot_up[atrium].tolist() == [1, 0, 1]
    assert slot_view(g, 1, "Atrium Auctionorum", 0)[1] == 8.0  # face-up cards are public
    assert waiting(g) == (Task.PLACE, 1)
    assert "place follower: Atrium Auctionorum" in legal(g)
    step(g, "place follower: coin bowl")
    assert waiting(g) == (Task.PLACE, 0)
    assert "place follower: Atrium Auctionorum" not in legal(g)  # p0 already holds "1."
    step(g, "place follower: coin bowl")
    step(g, "place follower: Atrium Auctionorum")  # p1 on "2."
    assert g.state.slot_up[atrium].tolist() == [1, 1, 1]


def test_atrium_alone_pays_one_for_the_two_face_up_cards():
    """Atrium flip: alone on "1.", the player pays 1 and takes the two face-up cards."""
    g = fresh(3, money=5)
    _atrium_cards(g, up=(1, 0, 1))
    occupy(g, "Atrium Auctionorum", 0, 0)
    run(g, (Task.ATRIUM,))
    assert done(g)
    assert money(g, 0) == 4
    assert hand_of(g, 0) == ["Legates 4", "Senators 8"]
    assert g.state.discard_hidden[C("Vestal", 5)] + g.state.discard_public[C("Vestal", 5)] == 1


def test_atrium_alone_unable_to_pay_takes_nothing():
    """Atrium flip: alone on "1." without a denarius, the player takes nothing."""
    g = fresh(3, money=0)
    _atrium_cards(g, up=(1, 0, 1))
    occupy(g, "Atrium Auctionorum", 0, 0)
    run(g, (Task.ATRIUM,))
    assert done(g)
    assert money(g, 0) == 0 and g.state.hand[0].sum() == 0
    assert (g.state.discard_public + g.state.discard_hidden).sum() == 3


# ================================================================== Take-over order and strength
def test_higher_sum_beats_more_cards():
    """Strength: a set with fewer cards but a higher sum takes over."""
    g = fresh(3)
    display(g, 0, "Senators", 3, 4, 5)  # 3 cards, 12
    give(g, 1, C("Senators", 8), C("Senators", 10))
    g.state.field_owner[SENATORS, 0] = 1
    run(g, (Task.TAKEOVER, SENATORS))
    step(g, "add Senators 8 to set", "add Senators 10 to set", "commit set")
    assert done(g)
    assert g.state.controller[SENATORS] == 1 and set_values(g, SENATORS) == [8, 10]


@pytest.mark.parametrize("cards", [(4, 6), (3, 5)], ids=["equal", "weaker"])
def test_equal_or_weaker_set_cannot_take_over(cards):
    """Strength: neither more cards nor a higher sum -- only "decline" is legal."""
    g = fresh(3, auto_forced=False)
    display(g, 0, "Senators", 4, 6)  # 2 cards, 10
    give(g, 1, *[C("Senators", v) for v in cards])
    g.state.field_owner[SENATORS, 0] = 1
    run(g, (Task.TAKEOVER, SENATORS))
    assert waiting(g) == (Task.TAKEOVER_SET, 1)
    assert legal(g) == {"decline"}
    step(g, "decline")
    assert done(g)
    assert g.state.controller[SENATORS] == 0 and set_values(g, SENATORS) == [4, 6]
    assert g.state.hand[1].sum() == 2


def test_space_2_declines_then_space_1_takes_over():
    """Order: "2" acts first; if it declines, "1" takes over normally."""
    g = fresh(3)
    give(g, 1, C("Senators", 4), C("Senators", 6))
    give(g, 2, C("Senators", 8), C("Senators", 10))
    g.state.field_owner[SENATORS] = (1, 2)
    run(g, (Task.TAKEOVER, SENATORS))
    assert g.decision()[:4] == (Task.TAKEOVER_SET, 2, SENATORS, 2)
    step(g, "decline")
    assert g.decision()[:4] == (Task.TAKEOVER_SET, 1, SENATORS, 1)
    step(g, "add Senators 4 to set", "add Senators 6 to set", "commit set")
    assert done(g)
    assert g.state.controller[SENATORS] == 1
    assert hand_of(g, 2) == ["Senators 10", "Senators 8"]


def test_space_1_must_beat_both_sets():
    """Order: "1" beating only the controller cannot play; "2" takes over and the old set is discarded."""
    g = fresh(3)
    display(g, 0, "Senators", 4, 6)  # controller: 2 cards, 10
    give(g, 2, C("Senators", 3), C("Senators", 4), C("Senators", 8))  # "2": 3 cards, 15
    give(g, 1, C("Senators", 5), C("Senators", 10))  # "1": 2 cards, 15
    g.state.field_owner[SENATORS] = (1, 2)
    run(g, (Task.TAKEOVER, SENATORS))
    step(g, "add Senators 3 to set", "add Senators 4 to set", "add Senators 8 to set", "commit set")
    # "1" cannot beat 3 cards / 15 with 2 cards / 15: declining is all it can do, though only it knows
    assert waiting(g) == (Task.TAKEOVER_SET, 1) and legal(g) == {"decline"}
    step(g, "decline")
    assert done(g)
    assert g.state.controller[SENATORS] == 2 and set_values(g, SENATORS) == [3, 4, 8]
    assert hand_of(g, 1) == ["Senators 10", "Senators 5"]
    assert g.state.discard_public[C("Senators", 4)] == 1 and g.state.discard_public[C("Senators", 6)] == 1


def test_beaten_space_2_discards_a_card_of_its_choice():
    """Order: the beaten "2" takes its set back less one card it chooses (not necessarily the highest)."""
    g = fresh(3)
    give(g, 2, C("Senators", 3), C("Senators", 4), C("Senators", 5))
    give(g, 1, C("Senators", 6), C("Senators", 7), C("Senators", 8), C("Senators", 10))
    g.state.field_owner[SENATORS] = (1, 2)
    run(g, (Task.TAKEOVER, SENATORS))
    step(g, "add Senators 3 to set", "add Senators 4 to set", "add Senators 5 to set", "commit set")
    step(g, "add Senators 6 to set", "add Senators 7 to set", "add Senators 8 to set", "commit set")
    assert waiting(g) == (Task.PENALTY, 2)
    assert legal(g) == {"discard Senators 3", "discard Senators 4", "discard Senators 5"}
    step(g, "discard Senators 4")
    assert done(g)
    assert hand_of(g, 2) == ["Senators 3", "Senators 5"]
    assert g.state.discard_public[C("Senators", 4)] == 1
    assert g.state.controller[SENATORS] == 1 and hand_of(g, 1) == ["Senators 10"]


def test_controller_cannot_place_on_its_own_faction():
    """Order: a player never adds to (or re-attempts) a faction it controls."""
    g = fresh(3)
    display(g, 0, "Senators", 4, 6)
    g.state.followers[:3] = (1, 1, 1)
    run(g, (Task.PLACE, 0))
    assert "place follower: Senators field" not in legal(g)
    step(g, "place follower: coin bowl")
    assert "place follower: Senators field" in legal(g)


def test_one_player_never_holds_both_faction_spaces():
    """Placement: "2" only after "1", and never by the player on "1"."""
    g = fresh(3)
    g.state.followers[:3] = (2, 1, 0)
    run(g, (Task.PLACE, 0))
    step(g, "place follower: Legates field")
    step(g, "place follower: Legates field")  # p1 on "2"
    assert g.state.field_owner[LEGATES].tolist() == [0, 1]
    assert waiting(g) == (Task.PLACE, 0)
    assert "place follower: Legates field" not in legal(g)


def test_blocked_faction_takes_no_followers():
    """Chariot block: nobody may place on the blocked faction's field."""
    g = fresh(3)
    display(g, 0, "Senators", 4, 6)
    g.state.meta[Meta.CHARIOT] = SENATORS
    g.state.followers[:3] = (1, 1, 1)
    run(g, (Task.PLACE, 1))
    assert "place follower: Senators field" not in legal(g)
    assert "place follower: Legates field" in legal(g)


# ================================================================== Pantheon
def test_eternal_favor_holder_may_not_sacrifice():
    """Pantheon: a holder of eternal favor is not offered a sacrifice; the other occupant is."""
    g = fresh(3)
    g.state.markers[:2, VESTALS] = 1
    g.state.res[0, ETERNAL] = 1
    place_card(g, "Pantheon", 0, C("Praetorians", 5), up=False)
    give(g, 0, C("Praetorians", 3))
    give(g, 1, C("Praetorians", 2))
    occupy(g, "Pantheon", 0, 0)
    occupy(g, "Pantheon", 1, 1)
    run(g, (Task.PANTHEON,))
    assert waiting(g) == (Task.SACRIFICE, 1)
    step(g, "discard Praetorians 2")
    assert done(g)
    assert hand_of(g, 0) == ["Praetorians 3"]
    assert g.state.res[0, ETERNAL] == 1 and g.state.res[1, ETERNAL] == 1


def test_sacrifice_must_match_the_revealed_faction():
    """Pantheon: only cards of the turned-up card's faction can be sacrificed."""
    g = fresh(3)
    g.state.markers[0, VESTALS] = 1
    place_card(g, "Pantheon", 0, C("Praetorians", 5), up=False)
    give(g, 0, C("Praetorians", 2), C("Praetorians", 7), C("Senators", 4))
    occupy(g, "Pantheon", 0, 0)
    run(g, (Task.PANTHEON,))
    assert legal(g) == {"discard Praetorians 2", "discard Praetorians 7", "decline"}


# ================================================================== Assassin
def test_assassin_removes_highest_card_owner_keeps_control():
    """Assassin: the highest card of another's 3-card set goes to the discards; the owner keeps control."""
    g = fresh(3)
    display(g, 1, "Senators", 3, 5, 10)
    run(g, (Task.ASSASSIN, 0))
    step(g, "assassin: strike the Senators set")
    assert done(g)
    assert set_values(g, SENATORS) == [3, 5]
    assert g.state.discard_public[C("Senators", 10)] == 1
    assert g.state.controller[SENATORS] == 1


def test_assassin_may_strike_own_set():
    """Assassin: the player's own set of 3+ is a legal target."""
    g = fresh(3)
    display(g, 0, "Legates", 2, 3, 4, 4)
    run(g, (Task.ASSASSIN, 0))
    step(g, "assassin: strike the Legates set")
    assert set_values(g, LEGATES) == [2, 3, 4]
    assert g.state.controller[LEGATES] == 0


def test_assassin_cannot_strike_two_card_set():
    """Assassin: a set of only two cards is not a target."""
    g = fresh(3)
    display(g, 1, "Senators", 8, 10)
    display(g, 2, "Vestal", 3, 4, 5)
    run(g, (Task.ASSASSIN, 0))
    assert legal(g) == {"assassin: strike the Vestal Virgins set", "decline"}


# ================================================================== Field of Mars bonus
def test_mars_tie_for_highest_pair_gives_no_bonus():
    """Field of Mars: two pairs with the same sum -- each 1 laurel, nobody the bonus."""
    g = fresh(3)
    give(g, 0, C("Senators", 3), C("Senators", 4))
    give(g, 1, C("Legates", 2), C("Legates", 5))
    occupy(g, "Field of Mars", 0, 0)
    occupy(g, "Field of Mars", 1, 1)
    run(g, (Task.MARS,))
    step(g, "add Senators 3 to set", "add Senators 4 to set", "commit set")
    step(g, "add Legates 2 to set", "add Legates 5 to set", "commit set")
    assert done(g)
    assert g.state.res[0, LAURELS] == 1 and g.state.res[1, LAURELS] == 1


def test_mars_lone_participant_gets_bonus():
    """Field of Mars: a lone participant gets the bonus with any legal pair."""
    g = fresh(3)
    give(g, 0, C("Gladiators", 1), C("Gladiators", 1))
    occupy(g, "Field of Mars", 0, 0)
    run(g, (Task.MARS,))
    step(g, "add Gladiators 1 to set", "add Gladiators 1 to set", "commit set")
    assert done(g)
    assert g.state.res[0, LAURELS] == 2


def test_mars_pair_must_be_one_faction():
    """Field of Mars: after a first card, only cards of its faction may complete the pair."""
    g = fresh(3)
    give(g, 0, C("Senators", 3), C("Senators", 4), C("Legates", 2))
    occupy(g, "Field of Mars", 0, 0)
    run(g, (Task.MARS,))
    assert "add Legates 2 to set" not in legal(g)  # no Legate pair in hand
    step(g, "add Senators 3 to set")
    assert legal(g) == {"add Senators 4 to set", "decline"}


# ================================================================== Bids
def bids_offered(g, kind=Task.CHARIOT_BID):
    """Every (amount, decisions taken) the bidder waiting can enter, found by trying every digit."""
    found, stack = [], [(g, 0)]
    p = waiting(g)[1]
    while stack:
        game, taken = stack.pop()
        if game.decision()[:2] != (kind, p):
            found.append((int(game.state.bids[p]), taken))
            continue
        for action in game.legal_actions():
            child = game.clone()
            child.step(int(action))
            stack.append((child, taken + 1))
    return found


def _chariot_bidder(money, auto_forced=True):
    """Phase 6 with player_0, holding `money`, to bid first; player_1 holds 5."""
    g = fresh(2, money=money, victory_card=LONG, auto_forced=auto_forced)
    g.state.res[1, MONEY] = 5
    run(g, (Task.PHASE6,))
    return g


@pytest.mark.parametrize("money", [0, 1, 99, 100, 101, 250, 10_099])
def test_any_amount_from_zero_to_all_is_biddable_once(money):
    """Bids: every amount 0..denarii held is one digit sequence, as long as the denarii alone say."""
    g = _chariot_bidder(money, auto_forced=False)
    assert waiting(g) == (Task.CHARIOT_BID, 0)
    found = bids_offered(g)
    amounts = sorted(amount for amount, _ in found)
    assert amounts == list(range(money + 1))  # every amount, each exactly once
    assert {taken for _, taken in found} == {bid_digits(g, money)}


def test_a_rich_bidder_outbids_a_rival_holding_more_than_99():
    """Bids: 137 beats 120 in the Atrium; "1." pays its 137 to "2." (no cap at 99)."""
    g = fresh(3, money=20)
    g.state.res[:2, MONEY] = (250, 150)
    for k, card in enumerate((C("Senators", 8), C("Vestal", 5), C("Legates", 4))):
        place_card(g, "Atrium Auctionorum", k, card, up=True)
    occupy(g, "Atrium Auctionorum", 0, 0)
    occupy(g, "Atrium Auctionorum", 1, 1)
    run(g, (Task.ATRIUM,))
    assert legal(g) == {"bid digit 0", "bid digit 1", "bid digit 2"}  # hundreds, up to 250
    assert seg(g, 0, "context_index").tolist() == [1, 0, 0]  # the hundreds' digit
    step(g, "bid digit 1")
    assert waiting(g) == (Task.ATRIUM_BID, 0) and len(legal(g)) == 100  # units: 0..99
    assert seg(g, 0, "own_bid")[0] == 100 and not seg(g, 0, "context_index").any()  # now the units
    assert seg(g, 1, "own_bid")[0] == 0 and seg(g, 1, "has_bid")[1] == 0  # the rival sees nothing
    step(g, "bid digit 37", "bid digit 1", "bid digit 20")
    assert done(g)
    assert (money(g, 0), money(g, 1)) == (250 - 137, 150 + 137)
    assert g.state.hand[0].sum() == 3 and g.state.hand[1].sum() == 0


def test_chariot_bid_above_99_wins_and_pays():
    """Bids: a chariot bid of 201 beats 200 and pays 201 to the stock."""
    g = fresh(3, money=20, victory_card=LONG)
    g.state.res[:3, MONEY] = (300, 250, 20)
    display(g, 0, "Senators", 4, 6)
    run(g, (Task.PHASE6,))
    step(g, "bid digit 2", "bid digit 1", "bid digit 2", "bid digit 0", "bid digit 20")
    assert waiting(g) == (Task.CHARIOT_PLACE, 0)
    assert [money(g, p) for p in range(3)] == [99, 250, 20]


# ================================================================== Chariot
@pytest.mark.parametrize("bids", [(0, 0, 0), (4, 4, 2)], ids=["all-zero", "tied-top"])
def test_chariot_tie_for_highest_nobody_wins_or_pays(bids):
    """Chariot: a tie for the highest bid (all zeros included) -- nobody wins, nobody pays."""
    g = fresh(3, money=20, victory_card=LONG)
    display(g, 0, "Senators", 4, 6)
    display(g, 1, "Legates", 4, 6)
    run(g, (Task.PHASE6,))
    for p, b in enumerate(bids):
        assert waiting(g) == (Task.CHARIOT_BID, p)
        step(g, f"bid digit {b}")
    assert g.state.meta[Meta.CHARIOT] == -1
    assert [money(g, p) for p in range(3)] == [20, 20, 20]
    assert g.decision()[0] != Task.CHARIOT_PLACE
    assert g.round == 2  # the next round has begun


def test_chariot_highest_bid_pays_and_places():
    """Chariot: the single highest bidder pays the stock and may block a faction it controls."""
    g = fresh(3, money=20, victory_card=LONG)
    display(g, 0, "Senators", 4, 6)
    display(g, 1, "Legates", 4, 6)
    run(g, (Task.PHASE6,))
    step(g, "bid digit 5", "bid digit 3", "bid digit 0")
    assert waiting(g) == (Task.CHARIOT_PLACE, 0)
    assert legal(g) == {"place chariot on Senators", "decline"}
    step(g, "place chariot on Senators")
    assert [money(g, p) for p in range(3)] == [15, 20, 20]
    assert g.state.meta[Meta.CHARIOT] == SENATORS


def test_chariot_blocks_for_the_next_round_only():
    """Chariot: the block holds in the next round's Phase 2 and is gone the round after."""
    g = fresh(3, money=20, victory_card=LONG)
    display(g, 0, "Senators", 4, 6)
    run(g, (Task.PHASE6,))
    step(g, "bid digit 5", "bid digit 0", "bid digit 0", "place chariot on Senators")
    assert g.round == 2 and waiting(g)[0] == Task.PLACE
    assert "place follower: Senators field" not in legal(g)
    while not (g.round == 3 and waiting(g)[0] == Task.PLACE):
        step(g, default_action(g))
    assert waiting(g)[1] != 0
    assert "place follower: Senators field" in legal(g)


# ================================================================== Proconsul
def test_proconsul_extra_follower_next_round():
    """Proconsul: the Patrician controller gets it in Phase 5 and places one extra follower."""
    g = fresh(3)
    display(g, 1, "Patricians", 5, 6)
    run(g, (Task.FACTION_BENEFIT, PATRICIANS))
    assert done(g)
    assert g.state.meta[Meta.PROCONSUL] == 1
    g.state.meta[Meta.N_TASKS] = 0
    run(g, (Task.PHASE2,))
    assert g.state.followers[:3].tolist() == [6, 7, 6]


def test_proconsul_lost_with_the_patricians():
    """Proconsul: no extra follower once its holder no longer controls the Patricians."""
    g = fresh(3)
    display(g, 2, "Patricians", 5, 6)
    g.state.meta[Meta.PROCONSUL] = 1  # p1 held it, then lost the Patricians
    run(g, (Task.PHASE2,))
    assert g.state.followers[:3].tolist() == [6, 6, 6]


def test_the_proconsul_legion_and_benefit_card_numbers_come_from_the_game_data():
    """Swapped in GameData, the proconsul's followers, the Legates' bought legion and the card a
    benefit draws change the game (the defaults are the rulebook's one each, tested above)."""
    from tribune_env import GameData

    data = GameData(proconsul_followers=2, bought_legions=3, benefit_cards=2)
    g = fresh(3, data=data)
    display(g, 1, "Patricians", 5, 6)
    run(g, (Task.FACTION_BENEFIT, PATRICIANS), (Task.PHASE2,))
    assert g.state.followers[:3].tolist() == [6, 8, 6]

    g = fresh(3, money=20, data=data)
    _at_buy_legion(g)
    assert int(g.state.hand[0].sum()) == 2  # the benefit's cards
    legions = int(g.state.res[0, LEGIONS])
    step(g, "buy a legion")
    assert int(g.state.res[0, LEGIONS]) == legions + 3


# ================================================================== Drawing
def test_empty_draw_pile_reshuffles_discards():
    """Drawing: with the draw pile empty the discards are reshuffled -- no cesura magna."""
    g = fresh(3)
    give(
        g, 1, *[C("Patricians", v) for v in (2, 3, 4, 5, 6, 7, 8)], C("Senators", 3), C("Senators", 4)
    )  # 9 cards: kept
    display(g, 2, "Legates", 2, 3, 4, 5)  # 4-card set: kept
    n_left = int(g.state.meta[Meta.DRAW_N])
    pile = np.bincount(g.state.draw[:n_left], minlength=len(g.state.discard_public))
    g.state.discard_public[:] = pile  # every other card is discarded
    empty_draw_pile(g)
    run(g, (Task.DRAW, 0))
    assert done(g)
    assert g.state.hand[0].sum() == 1
    assert g.state.meta[Meta.DRAW_N] == n_left - 1
    assert g.state.discard_public.sum() == 0 and g.state.discard_hidden.sum() == 0
    assert g.state.meta[Meta.RESHUFFLES] == 1
    assert g.state.hand[1].sum() == 9 and set_values(g, LEGATES) == [2, 3, 4, 5]


# ================================================================== Cesura magna
def test_cesura_magna():
    """Cesura magna: hands cut to 7 by choice, sets of 4+ lose two lowest, 3-sets one; reshuffle; draw goes on."""
    g = fresh(3)
    give(
        g, 0, *[C("Gladiators", v) for v in (1, 2, 3, 4, 5, 6)], C("Legates", 1), C("Plebeians", 1), C("Plebeians", 2)
    )  # 9 cards
    give(g, 1, *[C("Patricians", v) for v in (2, 3, 4, 5, 6, 7, 8)])  # 7 cards: keeps all
    display(g, 0, "Vestal", 5, 6)  # 2-card set: untouched
    display(g, 1, "Senators", 3, 4, 5, 10)  # loses 3 and 4
    display(g, 2, "Legates", 2, 4, 6)  # loses 2
    empty_draw_pile(g)
    run(g, (Task.DRAW, 2))
    assert waiting(g) == (Task.CESURA_DISCARD, 0)
    step(g, "discard Gladiators 6", "discard Legates 1")
    assert done(g)
    assert g.state.hand[0].sum() == 7 and g.state.hand[0, C("Gladiators", 6)] == 0
    assert g.state.hand[0, C("Legates", 1)] == 0
    assert g.state.hand[1].sum() == 7
    assert set_values(g, VESTALS) == [5, 6]
    assert set_values(g, SENATORS) == [5, 10]
    assert set_values(g, LEGATES) == [4, 6]
    # the five discarded cards were reshuffled and the interrupted draw went on
    pool = {C("Gladiators", 6), C("Legates", 1), C("Senators", 3), C("Senators", 4), C("Legates", 2)}
    assert g.state.hand[2].sum() == 1 and int(np.flatnonzero(g.state.hand[2])[0]) in pool
    assert g.state.meta[Meta.DRAW_N] == 4
    assert (g.state.discard_public + g.state.discard_hidden).sum() == 0


def test_cesura_with_nothing_to_draw_skips_the_draw():
    """Cesura magna: if there is still nothing to draw, the draw is skipped."""
    g = fresh(3)
    give(g, 0, C("Senators", 4))
    empty_draw_pile(g)
    run(g, (Task.DRAW, 0))
    assert done(g)
    assert hand_of(g, 0) == ["Senators 4"]


# ================================================================== Forced decisions and secrecy
def test_sacrifice_forced_by_the_hand_is_still_put_to_the_player():
    """Forced decisions: no card of the Pantheon card's faction in hand -- the decision still waits."""
    g = fresh(3)
    g.state.markers[1, VESTALS] = 1
    place_card(g, "Pantheon", 0, C("Praetorians", 5), up=False)
    give(g, 1, C("Senators", 4))
    occupy(g, "Pantheon", 0, 1)
    run(g, (Task.PANTHEON,))
    assert waiting(g) == (Task.SACRIFICE, 1) and legal(g) == {"decline"}


def test_sacrifice_with_an_empty_hand_is_played_for_the_player():
    """Forced decisions: everyone sees an empty hand, so that decline is played automatically."""
    g = fresh(3)
    g.state.markers[1, VESTALS] = 1
    place_card(g, "Pantheon", 0, C("Praetorians", 5), up=False)
    occupy(g, "Pantheon", 0, 1)
    run(g, (Task.PANTHEON,))
    assert done(g)


def test_takeover_that_the_hand_cannot_win_is_still_put_to_the_player():
    """Forced decisions: a hand of two that cannot beat the set still gets the take-over decision."""
    g = fresh(3, victory_card=LONG)
    display(g, 0, "Senators", 7, 8)
    give(g, 1, C("Senators", 3), C("Senators", 4))
    g.state.field_owner[SENATORS, 0] = 1
    run(g, (Task.TAKEOVER, SENATORS))
    assert waiting(g) == (Task.TAKEOVER_SET, 1) and legal(g) == {"decline"}
    g2 = fresh(3, victory_card=LONG)  # one card: no set of two, as all can see
    display(g2, 0, "Senators", 7, 8)
    give(g2, 1, C("Senators", 10))
    g2.state.field_owner[SENATORS, 0] = 1
    run(g2, (Task.TAKEOVER, SENATORS))
    assert done(g2)


def test_field_of_mars_without_a_pair_is_still_put_to_the_player():
    """Forced decisions: three cards of three factions make no pair, but only their holder knows."""
    g = fresh(3)
    give(g, 2, C("Senators", 4), C("Legates", 2), C("Gladiators", 1))
    occupy(g, "Field of Mars", 0, 2)
    run(g, (Task.MARS,))
    assert waiting(g) == (Task.MARS_PAIR, 2) and legal(g) == {"decline"}


def test_a_bid_digit_forced_by_the_digits_before_is_still_put_to_the_bidder():
    """Forced decisions: with 100 denarii, "1" for the hundreds leaves only 0 -- still asked."""
    g = _chariot_bidder(100)
    step(g, "bid digit 1")
    assert waiting(g) == (Task.CHARIOT_BID, 0) and legal(g) == {"bid digit 0"}
    broke = _chariot_bidder(0)  # no denarii, as all can see: bid 0 for it
    assert waiting(broke) == (Task.CHARIOT_BID, 1) and broke.state.committed[0] == 1


def _swap_hidden_card(g, p, q):
    """Swap one card of p's hand with a different card of q's hand (both hidden from the observer)."""
    mine, theirs = np.flatnonzero(g.state.hand[p]), np.flatnonzero(g.state.hand[q])
    x = int(mine[0])
    y = int(next(c for c in theirs if c != x))
    g.state.hand[p, x] -= 1
    g.state.hand[p, y] += 1
    g.state.hand[q, y] -= 1
    g.state.hand[q, x] += 1


@pytest.mark.parametrize("players, seed", [(3, 1), (3, 2), (4, 3), (4, 4), (5, 5), (5, 6)])
def test_a_hidden_card_changes_nothing_the_observer_sees(players, seed):
    """Forced decisions and secrecy: two games that differ only in cards hidden from seat 0 give
    seat 0 the same observations at every decision, its own and everyone else's, to the end."""
    a = Game(players, seed=seed)
    b = a.clone()
    _swap_hidden_card(b, 1, 2)
    rng = np.random.default_rng(seed)
    asked_with_one_choice = 0
    while not a.is_over:
        assert a.decision() == b.decision()
        np.testing.assert_array_equal(a.observe(0), b.observe(0))
        both = np.flatnonzero(a.legal_mask() & b.legal_mask())
        asked_with_one_choice += min(a.legal_mask().sum(), b.legal_mask().sum()) == 1
        action = int(both[rng.integers(len(both))])
        a.step(action)
        b.step(action)
    assert b.is_over and a.winners() == b.winners()
    assert asked_with_one_choice > 0  # some decision was forced by a hidden hand


# ================================================================== Winning
DENARII_25 = VictoryCard("test-denarii", laurels=99, legions=99, denarii=25, markers=99, need={3: 1})


def _declaring_round():
    """p0 reaches 25 denarii first (coin bowl), p1 second; p0 then pays 3 at the Forum."""
    g = fresh(3, victory_card=DENARII_25)
    g.state.res[:3, MONEY] = (18, 20, 10)
    place_card(g, "Forum Romanum", 0, C("Senators", 3))
    g.state.followers[:3] = (2, 1, 0)
    run(g, (Task.PLACE, 0))
    step(g, "place follower: coin bowl")  # p0: 25
    assert g.state.declared[:3].tolist() == [0, -1, -1]
    step(g, "place follower: coin bowl")  # p1: 25
    assert g.state.declared[:3].tolist() == [0, 1, -1]
    step(g, "place follower: Forum Romanum 1")  # Phase 3: p0 pays 3 -> 22
    return g


def test_declarations_in_order_and_never_withdrawn():
    """Winning: declarations are recorded in order and stay after the objective is lost."""
    g = _declaring_round()
    assert waiting(g) == (Task.CHARIOT_BID, 0)  # Phase 6 of the same round
    assert money(g, 0) == 22
    assert g.state.declared[:3].tolist() == [0, 1, -1]
    assert not g.is_over


def test_game_ends_at_end_of_declaring_round():
    """Winning: the game ends when the round of the first declaration is over; first declarer +2."""
    g = _declaring_round()
    step(g, "bid digit 0", "bid digit 0", "bid digit 0")
    assert g.terminated and not g.truncated
    assert g.round == 1
    assert g.scores()[:3].tolist() == [4, 2, 1]  # 22 -> 2 (+2 first), 25 -> 2, 10 -> 1
    assert g.winners() == [0]


def _end_with(declared, money_by_seat, **kw):
    g = fresh(3, **kw)
    g.state.res[:3, MONEY] = money_by_seat
    g.state.declared[:3] = declared
    g.state.meta[Meta.N_DECLARED] = sum(d >= 0 for d in declared)
    run(g, (Task.ROUND_END,))
    return g


def test_equal_scores_go_to_earlier_declarer():
    """Winning: p1 declared first; 20 denarii + 2 ties p0's 40 -> p1 wins; non-declarers never win."""
    g = _end_with([1, 0, -1], [40, 20, 90], victory_card=DENARII_25)
    assert g.terminated
    assert g.scores()[:3].tolist() == [4, 4, 9]
    assert g.winners() == [1]


def test_highest_score_among_declarers_wins():
    """Winning: the first declarer's +2 does not beat a higher score."""
    g = _end_with([1, 0, -1], [50, 20, 90], victory_card=DENARII_25)
    assert g.winners() == [0]


def test_simultaneous_declarations_are_recorded_clockwise_from_the_starting_player():
    """Winning: p0 and p2 meet the card in one Field of Mars evaluation; p2 starts, so p2 is first."""
    laurels = VictoryCard("test-laurels", laurels=5, legions=99, denarii=99, markers=99, need={3: 1})
    g = fresh(3, victory_card=laurels)
    g.state.meta[Meta.START_PLAYER] = 2
    g.state.res[[0, 2], LAURELS] = 4
    give(g, 0, C("Senators", 4), C("Senators", 5))
    give(g, 2, C("Legates", 2), C("Legates", 3))
    occupy(g, "Field of Mars", 0, 0)
    occupy(g, "Field of Mars", 1, 2)
    run(g, (Task.MARS,))
    step(
        g,
        "add Senators 4 to set",
        "add Senators 5 to set",
        "commit set",
        "add Legates 2 to set",
        "add Legates 3 to set",
        "commit set",
    )
    assert done(g)
    assert g.state.declared[:3].tolist() == [1, -1, 0]
    assert g.scores()[2] - g.scores()[0] == 2 - 1  # p2 has the first declarer's 2; p0 the bonus laurel


def test_point_variant_ends_at_marker_threshold_and_shares_ties():
    """Point variant: 6 markers (3 players) end the game at round end; equal scores share the win."""
    g = fresh(3, point_variant=True)
    g.state.markers[0, :5] = 1
    g.state.res[0, MARKERS] = 5
    give(g, 0, C("Senators", 4), C("Senators", 6))
    g.state.field_owner[SENATORS, 0] = 0
    g.state.res[1, LAURELS] = 10
    run(g, (Task.TAKEOVER, SENATORS), (Task.ROUND_END,))
    step(g, "add Senators 4 to set", "add Senators 6 to set", "commit set")
    assert g.terminated
    # p0: 6 markers + 2 laurels + 2 (20 denarii) + 2 (ended the game) = 12; p1: 10 + 2 = 12
    assert g.scores()[:3].tolist() == [12, 12, 2]
    assert g.winners() == [0, 1]


def test_point_variant_goes_on_below_threshold():
    """Point variant: with 5 markers (3 players) the game continues into the next round."""
    g = fresh(3, point_variant=True)
    g.state.markers[0, :5] = 1
    g.state.res[0, MARKERS] = 5
    run(g, (Task.ROUND_END,))
    assert not g.is_over and g.round == 2


# ================================================================== Round limit
def test_round_limit_truncates():
    """Round limit: a game still running after the limit is truncated, not terminated."""
    g = fresh(3, round_limit=5, victory_card=LONG)
    g.state.meta[Meta.ROUND] = 5
    run(g, (Task.ROUND_END,))
    assert g.truncated and not g.terminated
    assert g.winners() == []


def test_round_limit_default_is_50():
    """Round limit: the default limit is 50 rounds."""
    assert Game(3, seed=0).config.round_limit == 50


def test_round_before_limit_continues():
    """Round limit: before the limit the next round starts."""
    g = fresh(3, round_limit=5, victory_card=LONG)
    g.state.meta[Meta.ROUND] = 4
    run(g, (Task.ROUND_END,))
    assert not g.is_over and g.round == 5
