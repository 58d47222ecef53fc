"""HeuristicAgent and the position evaluation.

Legality across player counts, victory cards, the point-value variant and unforced
decisions; reproducibility; independence from what the agent cannot see; and staged
positions where the sensible choice is clear (the coin bowl when broke, a take-over the
hand can win, bids no higher than the offer is worth, ...).
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import collect_states, decision_kind

from agents import make_agent
from agents.base import RandomAgent
from agents.evaluation import evaluate_position, potential
from agents.heuristic import RULES_OF_THUMB, HeuristicAgent, best_placements, heuristic_rollout
from tests.scenario import C, display, done, fresh, give, hand_of, occupy, place_card, run, set_values
from tribune_env import ConfigError, Game, PlayerView
from tribune_env.data import LEGATES, PATRICIANS, PLEBEIANS, SENATORS
from tribune_env.state import ETERNAL, LAURELS, MONEY, SCROLL, TILE, TRIBUNE, Meta
from tribune_env.tasks import DECISIONS, Task

AGENT = 0  # the agent's seat in staged positions


class SeatView:
    """Only what a PlayerView offers an agent: no way to the game behind it."""

    def __init__(self, game, seat):
        view = PlayerView(game, seat)
        self.seat, self.num_players, self.actions = seat, view.num_players, view.actions
        self.legal_actions, self.determinize = view.legal_actions, view.determinize


def choose(agent, g, seat=AGENT) -> int:
    """The agent's action at the decision waiting (which must be its own)."""
    assert g.current_player == seat
    mask = g.legal_mask().copy()
    action = agent.act(g.observe(seat), mask, SeatView(g, seat))
    assert mask[action], f"illegal {g.A.labels[action]!r}"
    return action


def label(agent, g, seat=AGENT) -> str:
    return g.A.labels[choose(agent, g, seat)]


def play_out(agent, g, seat=AGENT):
    """Let the agent act while the decision waiting is its own (and the scenario not done)."""
    while not done(g) and g.current_player == seat:
        g.step(choose(agent, g, seat))


def play_game(g, agents) -> list[int]:
    actions = []
    while not g.is_over:
        p = g.current_player
        actions.append(choose(agents[p], g, p))
        g.step(actions[-1])
    return actions


# ------------------------------------------------------------------ legality
CONFIGS = [  # players, victory card, point variant, auto_forced, heuristic seats
    (2, "cursus-honorum", False, False, (0, 1)),
    (2, None, True, True, (1,)),
    (3, "panem-et-circenses", False, True, (0, 2)),
    (3, "alea-iacta-est-long", False, False, (1,)),
    (4, "pax-romana", False, True, (0, 1, 2, 3)),
    (4, "alea-iacta-est-short", False, False, (2, 3)),
    (4, None, True, False, (0,)),
    (5, "quinque-viri", False, False, (0, 3)),
    (5, None, True, True, (1, 2, 4)),
]


@pytest.mark.parametrize("players,card,point_variant,auto_forced,seats", CONFIGS)
def test_plays_only_legal_actions_to_the_end(players, card, point_variant, auto_forced, seats):
    """Whole games with heuristic and random seats: every action is legal and the game ends."""
    for seed in range(3):
        g = Game(players, victory_card=card, point_variant=point_variant, auto_forced=auto_forced, seed=seed, log=False)
        agents = [HeuristicAgent(seed=seed) if p in seats else RandomAgent(seed=seed + p) for p in range(players)]
        play_game(g, agents)
        assert g.terminated


def test_every_kind_of_decision_gets_a_legal_answer():
    """All 21 kinds of decision, met in random unforced games, in every player count.

    Through ``act`` (with a determinisation) and ``choose`` (on the full game, left unchanged).
    """
    wanted = {k.name: (lambda g, k=k: decision_kind(g) == k and len(g.legal_actions()) > 1) for k in DECISIONS}
    found = collect_states(range(80), wanted, per_predicate=2, auto_forced=False, log=False)
    assert all(found.values()), [k for k, v in found.items() if not v]
    agent = HeuristicAgent(seed=0)
    for states in found.values():
        for g in states:
            choose(agent, g, g.current_player)
            before = g.clone()
            assert g.legal_mask()[agent.choose(g)]  # on the full game, as a search would
            assert g.state_equals(before)


def test_choose_plays_whole_games_on_the_full_state():
    """As a search would use it: every seat by ``choose``, forced decisions included."""
    agent = HeuristicAgent(seed=0)
    for players in (2, 5):
        g = Game(players, seed=players, auto_forced=False, log=False)
        while not g.is_over:
            action = agent.choose(g)
            assert g.legal_mask()[action]
            g.step(action)
        assert g.terminated


@pytest.mark.parametrize("players,point_variant", [(2, False), (4, False), (5, True)])
def test_play_out_is_the_heuristic_move_by_move(players, point_variant):
    """A search's compiled rollout plays what ``choose`` plays, and stops where it is told."""
    agent = HeuristicAgent(seed=0)
    g = Game(players, point_variant=point_variant, seed=players, log=False)
    for _ in range(30):
        g.step(agent.choose(g))
    start = g.round

    def by_hand(rounds, moves):
        copy = g.clone()
        for _ in range(moves):
            if copy.is_over or copy.round >= start + rounds:
                break
            copy.step(agent.choose(copy))
        return copy

    for rounds, moves in ((1, 10_000), (1, 7), (100, 10_000)):
        rolled = g.clone()
        heuristic_rollout(rolled, rounds, moves)
        expected = by_hand(rounds, moves)
        assert rolled.state_equals(expected)
        assert np.array_equal(rolled.legal_mask(), expected.legal_mask())
    assert rolled.terminated and not g.is_over


def test_best_placements_rank_the_legal_placements_by_the_heuristic():
    """What a search narrows its placements to: legal, best first, headed by the heuristic's move."""
    agent = HeuristicAgent(seed=0)
    g = Game(3, seed=4, log=False)
    while decision_kind(g) != Task.PLACE:
        assert best_placements(g, 3) is None
        g.step(agent.choose(g))
    best = best_placements(g, 4)
    assert len(best) == len(set(best.tolist())) == 4
    assert g.legal_mask()[best].all() and best[0] == agent.choose(g)
    assert np.array_equal(best_placements(g, 2), best[:2])
    everything = best_placements(g, 1000)
    assert sorted(everything.tolist()) == g.legal_actions().tolist()


# ------------------------------------------------------------------ determinism and information
def test_same_seed_same_play():
    def actions(agent_seed):
        g = Game(4, seed=11, log=False)
        return play_game(g, [HeuristicAgent(seed=agent_seed + p) for p in range(4)])

    first = actions(3)
    assert actions(3) == first
    agent = HeuristicAgent(seed=99)
    agent.reset(seed=3)
    g = Game(4, seed=11, log=False)
    assert play_game(g, [agent] + [HeuristicAgent(seed=3 + p) for p in range(1, 4)]) == first


def test_choices_ignore_what_the_agent_cannot_see():
    """Swapping cards between opponents' hands and the draw pile never changes its choice."""
    mine = {
        k.name: (lambda g, k=k: decision_kind(g) == k and g.current_player == 0 and len(g.legal_actions()) > 1)
        for k in (Task.PLACE, Task.TAKEOVER_SET, Task.ATRIUM_BID, Task.BENEFIT_CHOICE, Task.CURIA_CHOICE)
    }
    found = collect_states(range(60), mine, per_predicate=2, log=False)
    checked = 0
    for g in (g for states in found.values() for g in states):
        other = g.clone()
        n_draw = int(other.state.meta[Meta.DRAW_N])
        pile = other.state.draw[:n_draw]
        opponent = 1 + int(np.argmax(other.state.hand[1 : other.n].sum(axis=1)))
        held = np.flatnonzero(other.state.hand[opponent])
        swap = [(int(h), i) for h in held for i in range(n_draw) if pile[i] != h]
        if not swap:
            continue
        card, i = swap[0]
        other.state.hand[opponent, card] -= 1
        other.state.hand[opponent, pile[i]] += 1
        pile[i] = card
        assert choose(HeuristicAgent(seed=5), g) == choose(HeuristicAgent(seed=5), other)
        checked += 1
    assert checked >= 6


def test_the_rules_of_thumb_read_only_what_the_seat_knows():
    """Every rule of thumb makes the same move in the game as in each world sampled for its seat,
    at every player count: so a batch decides on the game itself and samples a world only for a
    lookahead (``choose_sampled``)."""
    wanted = {
        kind.name: (lambda g, k=kind: decision_kind(g) == k and len(g.legal_actions()) > 1) for kind in RULES_OF_THUMB
    }
    found = collect_states(range(300), wanted, per_predicate=8, log=False)
    agent = HeuristicAgent(seed=0)
    for kind, games in found.items():
        for g in games:
            move, p = agent.choose(g), g.current_player
            in_worlds = [agent.choose(g.determinize(p, np.random.default_rng(seed))) for seed in range(3)]
            assert in_worlds == [move] * 3, f"{kind} at {g.n} players: {move} in the game, {in_worlds} in worlds"
    assert all(len(games) == 8 for games in found.values()), {kind: len(games) for kind, games in found.items()}
    assert {g.n for games in found.values() for g in games} == {2, 3, 4, 5}


def test_a_batch_is_chosen_as_one_game_at_a_time():
    """act_rows, the batched choice of the vector environments, plays in each row what act plays
    on that game, in the order of the rows given, drawing the same from the agent's generator
    (forced moves draw nothing); the games are left as they were."""
    wanted = {
        k.name: (lambda g, k=k: decision_kind(g) == k)
        for k in (Task.PLACE, Task.CATACOMBS_CHOICE, Task.ATRIUM_BID, Task.TAKEOVER_SET, Task.BENEFIT_CHOICE)
    }
    wanted["forced"] = lambda g: len(g.legal_actions()) == 1
    found = collect_states(range(60), wanted, per_predicate=3, players=(3,), auto_forced=False, log=False)
    games = [g for states in found.values() for g in states]
    assert len(games) >= 12 and any(len(g.legal_actions()) == 1 for g in games)
    buffers, params, masks = (np.stack([g.handle[i] for g in games]) for i in range(3))
    before = buffers.copy()
    rows = np.random.default_rng(0).permutation(len(games))[:-2]
    single, batched = HeuristicAgent(seed=5), HeuristicAgent(seed=5)
    expected = [choose(single, games[i], games[i].current_player) for i in rows]
    assert batched.act_rows(buffers, params, masks, rows, games[0].deck_counts).tolist() == expected
    assert np.array_equal(buffers, before)
    assert single.rng.integers(2**63) == batched.rng.integers(2**63)


def test_a_batch_refuses_a_finished_game():
    g = Game(2, seed=0, log=False)
    play_game(g, [HeuristicAgent(seed=0), RandomAgent(seed=1)])
    with pytest.raises(ValueError, match="no legal action"):
        HeuristicAgent(seed=0).act_rows(*(a[None] for a in g.handle), [0], g.deck_counts)


def test_make_agent_builds_it_and_rejects_unknown_options():
    assert isinstance(make_agent("heuristic", seed=1), HeuristicAgent)
    with pytest.raises(ConfigError):
        make_agent("heuristic:depth=2")


# ------------------------------------------------------------------ staged positions
def at_placement(money_each=20, n=4):
    g = fresh(n, money=money_each, log=False)
    g.state.followers[:n] = 3
    return g


def test_goes_to_the_coin_bowl_when_broke():
    g = at_placement(money_each=0)
    give(g, AGENT, C("Gladiators", 3), C("Legates", 2), C("Plebeians", 4))
    for k, card in enumerate((C("Senators", 8), C("Vestal", 5), C("Patricians", 6))):
        place_card(g, "Thermae", k, card)
    for k, card in enumerate((C("Senators", 7), C("Vestal", 4), C("Patricians", 5))):
        place_card(g, "Forum Romanum", k, card)
    run(g)
    assert label(HeuristicAgent(seed=0), g) == "place follower: coin bowl"


def test_does_not_pay_for_cards_it_cannot_use():
    """The Forum offers only Gladiators, which it controls already: it takes the coin bowl's 7 instead."""
    g = at_placement(money_each=20)
    display(g, AGENT, "Gladiators", 5, 6)
    give(g, AGENT, C("Legates", 2))
    for k, value in enumerate((1, 2, 3, 4)):
        place_card(g, "Forum Romanum", k, C("Gladiators", value))
    for region, spaces in (("Latrine", 1), ("Atrium Auctionorum", 2), ("Catacombs", 3)):
        for k in range(spaces):
            occupy(g, region, k, 1)
    run(g)
    assert label(HeuristicAgent(seed=0), g) == "place follower: coin bowl"


def test_buys_the_card_that_completes_a_take_over_when_it_has_money():
    """With the other regions taken, it pays 3 for the Senator that makes a winning pair."""
    g = at_placement(money_each=20)
    give(g, AGENT, C("Senators", 8), C("Gladiators", 3), C("Legates", 2))
    for k, card in enumerate((C("Patricians", 2), C("Vestal", 3), C("Senators", 7))):
        place_card(g, "Forum Romanum", k, card)
    for region, spaces in (("Latrine", 1), ("Atrium Auctionorum", 2), ("Catacombs", 3)):
        for k in range(spaces):
            occupy(g, region, k, 1)
    run(g)
    assert label(HeuristicAgent(seed=0), g) == "place follower: Forum Romanum 3"


def test_claims_the_faction_its_hand_can_take_over():
    """Three Senators beat the displayed pair of Senators: it goes to their field, space 1."""
    g = at_placement()
    display(g, 1, "Senators", 5, 6)
    give(g, AGENT, C("Senators", 7), C("Senators", 8), C("Senators", 3), C("Gladiators", 1))
    run(g)
    assert label(HeuristicAgent(seed=0), g) == "place follower: Senators field"


def test_does_not_claim_a_faction_it_cannot_beat():
    g = at_placement()
    display(g, 1, "Senators", 8, 8, 10)
    give(g, AGENT, C("Senators", 7), C("Senators", 6))
    run(g)
    assert label(HeuristicAgent(seed=0), g) != "place follower: Senators field"


def test_takes_over_with_the_leader_and_the_fewest_cards_that_win():
    """Legates shown 3 + 4: Varus, 5 and 6 win on count (3 cards); 1 and 2 stay in hand."""
    g = fresh(4, money=10, log=False)
    display(g, 1, "Legates", 3, 4)
    give(g, AGENT, C("Legates", 0), C("Legates", 1), C("Legates", 2), C("Legates", 5), C("Legates", 6))
    g.state.field_owner[LEGATES, 0] = AGENT
    run(g, (Task.TAKEOVER, LEGATES))
    laurels = int(g.state.res[AGENT, LAURELS])
    play_out(HeuristicAgent(seed=0), g)
    assert done(g)
    assert g.state.controller[LEGATES] == AGENT
    assert set_values(g, LEGATES) == [0, 5, 6]
    assert hand_of(g, AGENT) == ["Legates 1", "Legates 2"]
    assert g.state.res[AGENT, LAURELS] == laurels + g.data.legate_laurels + g.data.varus_laurels


def test_beats_the_challenger_from_space_1():
    """Space 2 played Senators 7 + 8 (15); from space 1 it plays a set beating that too."""
    g = fresh(4, money=10, log=False)
    give(g, 1, C("Senators", 7), C("Senators", 8))
    give(g, AGENT, C("Senators", 10), C("Senators", 6), C("Senators", 3))
    g.state.field_owner[SENATORS] = (AGENT, 1)
    run(g, (Task.TAKEOVER, SENATORS))
    for card in ("add Senators 7 to set", "add Senators 8 to set", "commit set"):
        g.step_label(card)
    play_out(HeuristicAgent(seed=0), g)
    assert g.state.controller[SENATORS] == AGENT
    assert set_values(g, SENATORS) == [6, 10]


def atrium_bid(cards, agent_hand=(), controls=None, rival_money=30):
    """The agent's bid from "1." of the Atrium, with 30 denarii."""
    g = fresh(3, money=30, log=False)
    g.state.res[1, MONEY] = rival_money
    if controls:
        display(g, AGENT, *controls)
    give(g, AGENT, *agent_hand)
    for k, card in enumerate(cards):
        place_card(g, "Atrium Auctionorum", k, card, up=True)
    occupy(g, "Atrium Auctionorum", 0, AGENT)
    occupy(g, "Atrium Auctionorum", 1, 1)
    run(g, (Task.ATRIUM,))
    return int(label(HeuristicAgent(seed=0), g).split()[2])


USEFUL = [C("Senators", 7), C("Senators", 8), C("Patricians", 5)]


def test_bids_by_what_the_atrium_cards_are_worth():
    """Little for cards of a faction it already controls; more for cards that win take-overs."""
    junk = atrium_bid([C("Gladiators", 1), C("Gladiators", 2), C("Gladiators", 3)], controls=("Gladiators", 5, 6))
    useful = atrium_bid(USEFUL, agent_hand=[C("Patricians", 6)])
    assert junk <= 5
    assert useful > 2 * junk


def test_never_bids_more_than_the_rival_can():
    """From "1." a tie wins, so the rival's 8 denarii are enough however much the cards are worth."""
    assert atrium_bid(USEFUL, agent_hand=[C("Patricians", 6)], rival_money=8) == 8


def test_pays_nothing_for_a_chariot_it_cannot_use():
    g = fresh(3, money=25, log=False)
    run(g, (Task.CHARIOT_BID, AGENT))
    assert label(HeuristicAgent(seed=0), g) == "bid digit 0"


def test_bids_a_little_for_the_chariot_to_protect_a_faction_and_blocks_it():
    g = fresh(3, money=25, log=False)
    display(g, AGENT, "Praetorians", 4, 5)
    run(g, (Task.CHARIOT_BID, AGENT))
    bid = int(label(HeuristicAgent(seed=0), g).split()[2])
    assert 0 < bid <= 5
    g = fresh(3, money=25, log=False)
    display(g, AGENT, "Praetorians", 4, 5)
    display(g, AGENT, "Gladiators", 2, 3, 4)
    run(g, (Task.CHARIOT_PLACE, AGENT))
    assert label(HeuristicAgent(seed=0), g) == "place chariot on Praetorians"


def test_buys_a_free_leader_at_the_latrine_and_cashes_in_junk():
    for card, expected in ((C("Senators", 0), "Latrine: buy card"), (C("Gladiators", 6), "Latrine: take denarii")):
        g = fresh(3, money=10, log=False)
        display(g, AGENT, "Gladiators", 4, 5)
        place_card(g, "Latrine", 0, card, up=False)
        occupy(g, "Latrine", 0, AGENT)
        run(g, (Task.LATRINE,))
        assert label(HeuristicAgent(seed=0), g) == expected


def test_sacrifices_its_cheapest_matching_card_for_eternal_favor():
    g = fresh(3, money=10, log=False)
    give(g, AGENT, C("Praetorians", 2), C("Praetorians", 6), C("Praetorians", 7), C("Senators", 8))
    place_card(g, "Pantheon", 0, C("Praetorians", 4), up=False)
    occupy(g, "Pantheon", 0, AGENT)
    run(g, (Task.PANTHEON,))
    play_out(HeuristicAgent(seed=0), g)
    assert done(g)
    assert g.state.res[AGENT, ETERNAL] == 1
    assert hand_of(g, AGENT) == ["Praetorians 6", "Praetorians 7", "Senators 8"]


def test_lays_a_spare_pair_on_the_field_of_mars_but_keeps_a_winning_set():
    """Gladiators it controls are spare: a pair for 2 laurels; Senators that win a take-over stay."""
    g = fresh(3, money=10, log=False)
    display(g, AGENT, "Gladiators", 5, 6)
    give(g, AGENT, C("Gladiators", 1), C("Gladiators", 2))
    occupy(g, "Field of Mars", 0, AGENT)
    run(g, (Task.MARS,))
    play_out(HeuristicAgent(seed=0), g)
    assert done(g)
    assert g.state.res[AGENT, LAURELS] == 2 and g.state.hand[AGENT].sum() == 0

    g = fresh(3, money=10, log=False)
    display(g, 1, "Senators", 4, 5)
    give(g, AGENT, C("Senators", 7), C("Senators", 8))
    occupy(g, "Field of Mars", 0, AGENT)
    run(g, (Task.MARS,))
    play_out(HeuristicAgent(seed=0), g)
    assert g.state.res[AGENT, LAURELS] == 0 and g.state.hand[AGENT].sum() == 2


def test_turns_its_scroll_into_a_tribune():
    """Cursus honorum (tribune obligatory): with a scroll and the Patricians, the Plebeians give a tribune."""
    g = fresh(3, money=10, log=False, victory_card="cursus-honorum")
    g.state.res[AGENT, TILE] = SCROLL
    display(g, AGENT, "Patricians", 3, 4)
    display(g, AGENT, "Plebeians", 2, 5)
    run(g, (Task.FACTION_BENEFIT, PLEBEIANS))
    play_out(HeuristicAgent(seed=0), g)
    assert g.state.res[AGENT, TILE] == TRIBUNE


# ------------------------------------------------------------------ evaluation
def running_states(players, seeds=range(6), **kw):
    rng = np.random.default_rng(0)
    for seed in seeds:
        g = Game(players, seed=seed, log=False, **kw)
        for _ in range(int(rng.integers(50, 400))):
            if g.is_over:
                break
            legal = g.legal_actions()
            g.step(int(legal[rng.integers(len(legal))]))
        yield g


@pytest.mark.parametrize("players,point_variant", [(2, False), (3, True), (4, False), (5, False)])
def test_evaluation_is_bounded_and_leaves_the_game_untouched(players, point_variant):
    for g in running_states(players, point_variant=point_variant):
        before = g.clone()
        values = [evaluate_position(g, p) for p in range(players)]
        assert all(-1.0 <= v <= 1.0 for v in values)
        assert g.state_equals(before)
        if players == 2 and not g.is_over:
            assert values[0] == pytest.approx(-values[1])


def test_evaluation_of_a_finished_game_is_the_result():
    g = Game(3, seed=4, log=False)
    play_game(g, [HeuristicAgent(seed=0), RandomAgent(seed=1), RandomAgent(seed=2)])
    winner = g.winners()[0]
    assert [evaluate_position(g, p) for p in range(3)] == [1.0 if p == winner else -1.0 for p in range(3)]


def test_evaluation_rewards_progress_towards_the_victory_card():
    """More laurels, a tribune, control of a faction: each raises the seat's value."""
    g = fresh(3, money=10, log=False, victory_card="cursus-honorum")
    base = evaluate_position(g, AGENT)
    assert base == pytest.approx(0.0)
    for change in ({"laurels": 3}, {"tile": TRIBUNE}, {"control": PATRICIANS}, {"markers": 1}):
        assert potential(g, AGENT, **change) > potential(g, AGENT)
    g.state.res[AGENT, LAURELS] = 6
    assert evaluate_position(g, AGENT) > base
    assert evaluate_position(g, 1) < base
    g.state.res[1, TILE] = TRIBUNE
    display(g, 1, "Gladiators", 2, 3)
    assert evaluate_position(g, 1) > evaluate_position(g, AGENT)


def test_point_value_variant_values_the_race_to_the_marker_goal():
    """A marker is worth its scoring point and more: it brings the end of the game nearer."""
    g = fresh(3, money=10, log=False, point_variant=True)
    assert potential(g, AGENT, markers=1) - potential(g, AGENT) > g.data.scoring["marker"]


def test_evaluation_values_the_obligatory_objective():
    """Panem et circenses needs the favor of the gods: eternal favor outweighs legions worth more points."""
    g = fresh(3, money=10, log=False, victory_card="panem-et-circenses")
    assert potential(g, AGENT, eternal=True) > potential(g, AGENT, legions=3)
