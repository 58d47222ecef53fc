"""VectorGames (N games as arrays) and VectorEnv (the SB3 VecEnv of learner seats)."""

import numpy as np
import pytest

from tribune_env import ConfigError, Game, IllegalActionError
from tribune_env.data import MAX_PLAYERS
from tribune_env.envs import VectorGames
from tribune_env.envs.opponents import RandomPolicy
from tribune_env.envs.rewards import final_rewards
from tribune_env.envs.vector import VectorEnv
from tribune_env.player import random_legal
from tribune_env.state import Status


def test_every_game_is_seen_by_its_acting_player():
    v = VectorGames(6, seed=1, num_players=3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        for i, game in enumerate(v.games):
            assert v.players[i] == game.current_player
            assert np.array_equal(v.observations[i], game.observe(game.current_player))
            assert np.array_equal(v.masks[i], game.legal_mask())
        v.step(random_legal(v.masks, rng))


def test_a_game_in_the_batch_plays_exactly_like_a_lone_game():
    v = VectorGames(4, seed=9, num_players=4)
    lone = [Game.from_dict(g.to_dict()) for g in v.games]
    rng = np.random.default_rng(2)
    for _ in range(150):
        actions = random_legal(v.masks, rng)
        actions[1] = -1  # game 1 sits this step out
        v.step(actions)
        for i, game in enumerate(lone):
            if actions[i] >= 0 and i not in v.finished:
                game.step(int(actions[i]))
            if i not in v.finished:
                assert game.state_equals(v.games[i])
            else:
                lone[i] = Game.from_dict(v.games[i].to_dict())


def test_same_seed_same_batch():
    def run():
        v = VectorGames(5, seed=4, num_players=2)
        rng = np.random.default_rng(4)
        for _ in range(100):
            v.step(random_legal(v.masks, rng))
        return v._buffers.copy()

    assert np.array_equal(run(), run())


CONFIGS = [
    {"num_players": 2},
    {"num_players": 3, "victory_card": "pax-romana"},
    {"num_players": 4, "point_variant": True},
    {"num_players": 5, "round_limit": 2},
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_the_thread_count_changes_nothing(config):
    def run(threads):
        v = VectorGames(7, seed=3, threads=threads, **config)
        rng = np.random.default_rng(5)
        seen = []
        for _ in range(300):
            _, _, _, rewards, ended = v.step(random_legal(v.masks, rng))
            seen.append((v._buffers.copy(), v.observations.copy(), v.masks.copy(), v.players.copy(), rewards, ended))
        return v.threads, seen

    (one, lone), (three, split) = run(1), run(3)
    assert (one, three) == (1, 3)
    for a, b in zip(lone, split):
        for x, y in zip(a, b):
            assert np.array_equal(x, y)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_every_game_dealt_is_the_lone_game_of_its_seed(config):
    """New deals, at the reset and after a game ends, are Game(seed) of the seed they report,
    victory card drawn included."""
    v = VectorGames(6, seed=8, threads=2, **{**config, "round_limit": 1})
    rng = np.random.default_rng(1)
    checked, cards = set(), set()
    for _ in range(3000):
        for i in range(6):
            if (i, int(v.seeds[i])) not in checked:
                lone = Game(seed=int(v.seeds[i]), **{**config, "round_limit": 1})
                assert lone.state_equals(v.games[i]) and np.array_equal(lone.legal_mask(), v.masks[i])
                assert lone.victory_card == v.games[i].victory_card
                checked.add((i, int(v.seeds[i])))
                cards.add(None if lone.victory_card is None else lone.victory_card.id)
        if len(checked) >= 30:
            break
        v.step(random_legal(v.masks, rng))
    assert len(checked) >= 30
    drawn = "victory_card" not in config and not config.get("point_variant")
    assert len(cards) > 1 if drawn else len(cards) == 1


def test_card_weights_choose_each_new_games_card_and_the_game_is_the_lone_game_of_that_card():
    """With card weights the batch deals each card in their proportion (a card of weight 0
    never), and each game is Game(seed, victory_card=card) of the seed it reports."""
    v = VectorGames(6, seed=8, threads=2, num_players=3, round_limit=1)
    v.card_weights = {"panem-et-circenses": 3, "pax-romana": 1}
    assert v.card_weights == {"panem-et-circenses": 3, "pax-romana": 1}
    v.reset(4)
    rng = np.random.default_rng(1)
    checked, counts = set(), {}
    for _ in range(5000):
        for i in range(6):
            if (i, int(v.seeds[i])) not in checked:
                card = v.games[i].victory_card.id
                lone = Game(3, victory_card=card, seed=int(v.seeds[i]), round_limit=1)
                assert lone.state_equals(v.games[i]) and np.array_equal(lone.legal_mask(), v.masks[i])
                assert v.games[i].played_config == lone.played_config and not v.games[i].victory_card_drawn
                checked.add((i, int(v.seeds[i])))
                counts[card] = counts.get(card, 0) + 1
        if len(checked) >= 200:
            break
        v.step(random_legal(v.masks, rng))
    assert set(counts) == {"panem-et-circenses", "pax-romana"}
    assert 0.65 < counts["panem-et-circenses"] / len(checked) < 0.85  # 3 in 4, 200 deals
    v.card_weights = None  # back to each game drawing its card, as Game(seed) does
    v.reset(4)
    assert all(Game(3, seed=int(v.seeds[i]), round_limit=1).state_equals(v.games[i]) for i in range(6))


@pytest.mark.parametrize(
    ("settings", "weights", "message"),
    [
        ({"num_players": 3, "victory_card": "pax-romana"}, {"pax-romana": 1}, "card is fixed"),
        ({"num_players": 3, "point_variant": True}, {"pax-romana": 1}, "card is fixed"),
        ({"num_players": 5}, {"pax-romana": 1}, "among"),
        ({"num_players": 3}, ["pax-romana"], "dict"),
        ({"num_players": 3}, {"pax-romana": -1}, "pax-romana must be a finite number"),
        ({"num_players": 3}, {"pax-romana": float("nan")}, "pax-romana must be a finite number"),
        ({"num_players": 3}, {"pax-romana": True}, "pax-romana must be a finite number"),
        ({"num_players": 3}, {"pax-romana": 0}, "positive weight"),
    ],
)
def test_bad_card_weights_are_refused_by_name_and_change_nothing(settings, weights, message):
    v = VectorGames(2, seed=0, **settings)
    with pytest.raises(ConfigError, match=message):
        v.card_weights = weights
    assert v.card_weights is None


def test_finished_games_report_their_rewards_and_are_replaced():
    v = VectorGames(8, seed=0, num_players=2, round_limit=3)
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(2000):
        old = list(v.games)
        _, _, _, rewards, ended = v.step(random_legal(v.masks, rng))
        for i in range(8):
            if ended[i]:
                game = v.finished[i]
                assert game is old[i] and game.is_over and ended[i] == game.status
                assert np.allclose(rewards[i, :2], final_rewards(game, "win"))
                assert v.games[i] is not game and not v.games[i].is_over and v.games[i].round <= 1
                ends += 1
            else:
                assert not rewards[i].any() and i not in v.finished
        if ends >= 10:
            break
    assert ends >= 10


@pytest.mark.parametrize("config,reward", zip(CONFIGS, ["rank", "win", "score", "rank"]), ids=lambda c: str(c))
def test_what_a_batch_reports_of_its_finished_games_is_the_lone_games(config, reward):
    """Points, winners, rewards, status, card and every seat's last observation, read from the
    finished rows in one call, are those of the lone game played with the same moves."""
    v = VectorGames(6, seed=2, reward=reward, **config)
    lone = [Game(seed=int(s), **config) for s in v.seeds]
    rng = np.random.default_rng(3)
    statuses = []
    while len(statuses) < 8:
        actions = random_legal(v.masks, rng)
        _, _, _, rewards, ended = v.step(actions)
        finished = v.finished
        assert list(finished) == finished.rows.tolist() == np.flatnonzero(ended).tolist()
        for j, i in enumerate(finished.rows):
            game = lone[i]
            game.step(int(actions[i]))
            n = game.n
            assert game.is_over and ended[i] == game.status == finished.status[j]
            assert np.array_equal(finished.points[j, :n], game.scores()) and not finished.points[j, n:].any()
            assert np.flatnonzero(finished.won[j]).tolist() == game.winners()
            assert np.allclose(rewards[i, :n], final_rewards(game, reward)) and not rewards[i, n:].any()
            assert finished.victory_cards[j] == (None if game.victory_card is None else game.victory_card.id)
            for seat in range(n):
                seats = np.full(len(finished), seat)
                assert np.array_equal(finished.observe(seats)[j], game.observe(seat))
            assert finished[i].state_equals(game) and i in finished
            statuses.append(game.status)
            lone[i] = Game(seed=int(v.seeds[i]), **config)
        for i in np.flatnonzero(~ended.astype(bool)):
            lone[i].step(int(actions[i]))
    assert 6 not in v.finished and -1 not in v.finished
    finished = v.finished
    for seats in (
        np.full(len(finished) + 1, 0),
        np.full(len(finished), config["num_players"]),
        np.full(len(finished), 0.5),
    ):
        with pytest.raises(ValueError, match="seats must be"):
            finished.observe(seats)
    assert (set(statuses) == {Status.TRUNCATED}) if "round_limit" in config else Status.TERMINATED in statuses


def test_an_illegal_action_raises_naming_the_game_and_changes_nothing():
    v = VectorGames(3, seed=0, num_players=2)
    before = v._buffers.copy()
    actions = random_legal(v.masks, np.random.default_rng(0))
    actions[2] = int(np.flatnonzero(v.masks[2] == 0)[0])
    with pytest.raises(IllegalActionError, match="game 2"):
        v.step(actions)
    for bad in (np.array([0, 0]), np.array([0.5, 1.0, 2.0]), np.array([400, 0, 0]), np.array([-2, 0, 0])):
        with pytest.raises(IllegalActionError):
            v.step(bad)
    assert np.array_equal(before, v._buffers)


def test_the_actions_an_opponents_call_applies_are_checked_first_and_change_nothing():
    """play_rows applies the learners' actions in the opponents' own call: an illegal one, or one
    in a game outside the rows it plays, is refused before any game moves."""
    from agents.heuristic import HeuristicAgent

    v, heuristic = VectorGames(3, seed=0, num_players=2), HeuristicAgent(seed=0)
    seats, samplers = np.zeros((3, MAX_PLAYERS), dtype=bool), np.ones((3, MAX_PLAYERS, 4), dtype=np.int32)
    before, decisions = v._buffers.copy(), v.decisions
    actions = random_legal(v.masks, np.random.default_rng(0))
    illegal = actions.copy()
    illegal[1] = int(np.flatnonzero(v.masks[1] == 0)[0])
    with pytest.raises(IllegalActionError, match="game 1"):
        heuristic.play_rows(v, [0, 1, 2], seats, samplers, None, actions=illegal)
    with pytest.raises(ConfigError, match="outside"):
        heuristic.play_rows(v, [0, 1], seats, samplers, None, actions=actions)
    assert np.array_equal(before, v._buffers) and v.decisions == decisions
    heuristic.play_rows(v, [0, 1, 2], seats, samplers, None, actions=actions)
    assert v.decisions == decisions + 3 and not np.array_equal(before, v._buffers)


@pytest.mark.parametrize(
    "config, message",
    [
        ({"num_envs": 0}, "num_envs"),
        ({"num_envs": 2, "num_players": 1}, "num_players"),
        ({"num_envs": 2, "reward": "gold"}, "reward scheme"),
        ({"num_envs": 2, "log": True}, "log"),
        ({"num_envs": 2, "threads": 0}, "threads"),
        ({"num_envs": 2, "threads": 1.5}, "threads"),
    ],
)
def test_bad_configuration(config, message):
    with pytest.raises(ConfigError, match=message):
        VectorGames(**config)


# ----------------------------------------------------------------- VectorEnv
def test_vector_env_is_an_sb3_vec_env_with_masks():
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import VecEnv

    env = VectorEnv(5, num_players=3, seed=0)
    assert isinstance(env, VecEnv) and is_masking_supported(env)
    obs = env.reset()
    assert obs.shape == (5, env.observation_space.shape[0])
    masks = get_action_masks(env)
    assert masks.shape == (5, 400) and masks.dtype == bool and masks.any(axis=1).all()


def test_learners_spread_over_seats_and_always_act():
    env = VectorEnv(6, num_players=3, seed=2)
    obs = env.reset()
    assert list(env._learner) == [0, 1, 2, 0, 1, 2]
    rng = np.random.default_rng(0)
    for _ in range(200):
        assert np.array_equal(env.games.players, env._learner)
        for i, game in enumerate(env.games.games):
            assert np.array_equal(obs[i], game.observe(int(env._learner[i])))
        obs, *_ = env.step(random_legal(env.games.masks, rng))


def test_learner_receives_its_own_final_reward():
    env = VectorEnv(8, num_players=4, seed=3, reward="win")
    env.reset()
    ended, settle = {}, env.games._settle

    def settle_and_keep():  # a step makes several batch calls: keep each call's finished games
        out = settle()
        ended.update((i, env.games.finished[i]) for i in env.games.finished)
        return out

    env.games._settle = settle_and_keep
    rng = np.random.default_rng(1)
    done_games = []
    while len(done_games) < 12:
        obs, rewards, dones, infos = env.step(random_legal(env.games.masks, rng))
        for i in np.flatnonzero(dones):
            done_games.append((rewards[i], infos[i]))
            game = ended.pop(i)  # the game that ended, as a Game
            assert np.array_equal(infos[i]["terminal_observation"], game.observe(infos[i]["learner_seat"]))
            assert np.array_equal(infos[i]["scores"], game.scores()) and infos[i]["winners"] == game.winners()
        assert not rewards[~dones].any()
    for reward, info in done_games:
        if info["TimeLimit.truncated"]:
            continue
        expected = 1.0 if info["learner_seat"] in info["winners"] else -1.0 / 3
        assert reward == pytest.approx(expected)
        assert info["victory_card"] in env.games.config.fitting_cards()
        assert info["terminal_observation"].shape == env.observation_space.shape
    assert {r > 0 for r, _ in done_games} == {True, False}


def test_seeded_reset_repeats_the_games():
    env = VectorEnv(3, num_players=2)
    env.seed(7)
    first = env.reset()
    env.seed(7)
    assert np.array_equal(first, env.reset())


def test_batched_and_single_decision_opponents():
    calls = {"batch": 0, "single": 0}

    class Batched:
        def act(self, observation, action_mask, view):
            raise AssertionError("act_batch should be used")

        def act_batch(self, observations, action_masks):
            calls["batch"] += 1
            return random_legal(action_masks, np.random.default_rng(calls["batch"]))

    class Single:
        def act(self, observation, action_mask, view):
            calls["single"] += 1
            assert view.num_players == 3 and action_mask[view.legal_actions()].all()
            return int(np.flatnonzero(action_mask)[-1])

    env = VectorEnv(4, num_players=3, opponents=[Batched(), Single()], seed=0)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(30):
        env.step(random_legal(env.games.masks, rng))
    assert calls["batch"] and calls["single"]


def test_vec_monitor_and_maskable_ppo_train_on_it():
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    env = VecMonitor(VectorEnv(4, num_players=2, seed=0))
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(512)  # an illegal action would raise
    assert model.num_timesteps >= 512


def test_vector_env_draws_pool_opponents_per_game():
    from tribune_env.envs import OpponentPool

    seen = {"first": 0, "second": 0}

    def counted(name):
        def act(observation, action_mask):
            seen[name] += 1
            return int(np.flatnonzero(action_mask)[0])

        return act

    env = VectorEnv(6, num_players=3, opponents=OpponentPool([counted("first"), counted("second")]), seed=1)
    env.reset()
    assert set(env._who[env._who >= 0].tolist()) == {0, 1}
    rng = np.random.default_rng(0)
    for _ in range(20):
        env.step(random_legal(env.games.masks, rng))
    assert seen["first"] and seen["second"]


def test_opponents_can_be_replaced_between_steps_but_not_by_fewer():
    from tribune_env import ConfigError
    from tribune_env.envs import OpponentPool

    env = VectorEnv(4, num_players=3, opponents=OpponentPool(["random", "random"]), seed=2)
    env.reset()
    rng = np.random.default_rng(0)
    env.set_opponents(OpponentPool(["random", "random", "random"]))  # as large or larger: fine
    for _ in range(10):
        env.step(random_legal(env.games.masks, rng))
    assert env._who.max() >= 1  # some game seats a second member
    with pytest.raises(ConfigError, match="opponent members"):
        env.set_opponents(OpponentPool(["random"]))
    env.add_opponent("random")
    assert len(env._lineup.members) == 4


@pytest.mark.parametrize("dtype", [np.uint64, np.uint32, np.uint8])
def test_an_unsigned_action_past_the_space_is_named_not_wrapped(dtype):
    """2**64-1 as uint64 is not -1 (a game sitting out): it is an illegal action, named."""
    env = VectorEnv(num_envs=2, num_players=2, seed=0)
    env.reset()
    before = env.games.masks.copy()
    with pytest.raises(IllegalActionError, match=f"action {np.iinfo(dtype).max} is not legal"):
        env.step(np.array([np.iinfo(dtype).max, 0], dtype=dtype))
    assert np.array_equal(env.games.masks, before)


def test_only_the_observations_someone_reads_are_written():
    """A game whose next player reads nothing keeps its old observation row; the others are as a full step's."""
    full, lazy = VectorGames(6, seed=2, num_players=3), VectorGames(6, seed=2, num_players=3)
    readers = np.zeros((6, MAX_PLAYERS), dtype=bool)
    readers[:, 0] = True  # only seat 0's observations are read
    rng = np.random.default_rng(3)
    for _ in range(200):
        actions = random_legal(full.masks, rng)
        before = lazy.observations.copy()
        full.step(actions)
        lazy.step(actions, readers)
        for i in range(6):
            if full.players[i] == 0 or i in lazy.finished:
                assert np.array_equal(full.observations[i], lazy.observations[i])
            else:
                assert np.array_equal(before[i], lazy.observations[i])
        assert np.array_equal(full.masks, lazy.masks) and np.array_equal(full._buffers, lazy._buffers)
    with pytest.raises(ConfigError, match="readers"):
        lazy.step(random_legal(lazy.masks, rng), readers[:, :3])


def test_vector_env_plays_the_same_whether_opponents_read_observations_or_not():
    """Random opponents read no observation, so none is encoded for them; the learner's are unchanged."""

    class Reading(RandomPolicy):  # a random opponent that says it reads its observations
        reads_observations = True

    runs = []
    for kind in (Reading, RandomPolicy):
        generator = np.random.default_rng(7)
        env = VectorEnv(4, num_players=3, opponents=kind(lambda generator=generator: generator), seed=5)
        obs, rng = [env.reset()], np.random.default_rng(1)
        for _ in range(60):
            obs.append(env.step(random_legal(env.games.masks, rng))[0])
        runs.append((np.array(obs), env._readers.copy()))
    (read_obs, read_who), (blind_obs, blind_who) = runs
    assert np.array_equal(read_obs, blind_obs)
    assert read_who.sum() == 4 * 3 and blind_who.sum() == 4  # every seat / the learners only


def test_heuristic_opponents_play_their_turns_in_one_call_as_move_by_move():
    """VectorEnv lets the heuristic play its seats' moves in one compiled call (``play_rows``).
    The games are those of a reference that chooses each move alone (``choose_batch``, in a
    world sampled with the seat's own generator) and steps it through ``Game``; the seats'
    generators end in the same state, and no observation is encoded for the heuristic."""
    from agents.heuristic import HeuristicAgent, choose_batch

    class MoveByMove(HeuristicAgent):
        def play_rows(self, games, rows, seats, samplers, readers, actions=None):
            def play(buffers, params, events, masks, rows, actions, meta_at, tasks_at, players, *args):
                for i in rows:
                    game, move = games.games[i], np.empty(1, dtype=np.int64)
                    if actions[i] >= 0:  # the learner's move first
                        game.step(int(actions[i]))
                    while not game.is_over and seats[i, game.current_player]:
                        words = samplers[i, game.current_player][None]  # a view: the seat's generator advances
                        choose_batch(buffers, params, masks, np.array([i]), games.deck_counts, words, move)
                        game.step(int(move[0]))
                    players[i] = -1 if game.is_over else game.current_player

            return games.play_rows(play, rows, readers, actions=actions)

    runs = []
    for opponent in (HeuristicAgent(seed=3), MoveByMove(seed=3)):
        env = VectorEnv(5, num_players=4, opponents=opponent, seed=11)
        obs, rng = [env.reset()], np.random.default_rng(4)
        first = env._samplers.copy()
        for _ in range(150):
            obs.append(env.step(random_legal(env.games.masks, rng))[0])
        runs.append((np.array(obs), env.games._buffers.copy(), env._samplers.copy(), env._readers.sum()))
    (batched, batched_state, samplers, readers), (single, single_state, single_samplers, _) = runs
    assert np.array_equal(batched, single) and np.array_equal(batched_state, single_state)
    assert np.array_equal(samplers, single_samplers) and not np.array_equal(samplers, first)
    assert readers == 5  # the learners only


def test_heuristic_opponents_over_two_threads_play_the_games_of_one():
    from agents import make_agent

    runs = []
    for threads in (1, 2):
        env = VectorEnv(96, num_players=4, opponents=make_agent("heuristic", seed=3), seed=11, threads=threads)
        obs, rng = [env.reset()], np.random.default_rng(4)
        for _ in range(30):
            obs.append(env.step(random_legal(env.games.masks, rng))[0])
        runs.append((env.games.threads, np.array(obs), env.games._buffers.copy()))
    (one, one_obs, one_state), (two, two_obs, two_state) = runs
    assert (one, two) == (1, 2)
    assert np.array_equal(one_obs, two_obs) and np.array_equal(one_state, two_state)


def test_new_opponents_get_the_observations_they_read_in_the_games_under_way():
    env = VectorEnv(4, num_players=3, seed=1)  # random opponents read no observation
    env.reset()
    assert env._readers.sum() == 4

    class Reading(RandomPolicy):
        reads_observations = True

    generator = np.random.default_rng(0)
    env.set_opponents(Reading(lambda: generator))
    assert env._readers.sum() == 4 * 3
    env.close()
    env.step(random_legal(env.games.masks, np.random.default_rng(2)))  # a closed batch steps in this thread
