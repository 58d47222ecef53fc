"""A :class:`~tribune_env.envs.vector.VectorEnv` whose games are split over worker processes.

The opponents' moves (a heuristic's, a snapshot's) are most of a training step's time and
run inside the environment, in one process. ``ShardedVectorEnv`` gives each of `shards`
worker processes its own ``VectorEnv`` of a share of the games and steps them all at once,
so those moves use every core; the learner's policy stays in the calling process.

Each shard has its own seed, drawn from `seed`, so a run is the same for the same seed
and number of shards (and different for another number of shards). Opponents, and those
added later with ``add_opponent``, are pickled to every shard: a
:class:`~agents.model.ModelAgent` travels as its file path and is loaded again there.
Workers are spawned, not forked (a fork of a process that has run torch can deadlock).
"""

from __future__ import annotations

import multiprocessing
import os
from contextlib import contextmanager

import numpy as np

from tribune_env.envs.vector import VectorEnv
from tribune_env.envs.vector_games import check_actions
from tribune_env.errors import ConfigError

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def _serve(connection, settings: dict) -> None:
    """A shard: build its VectorEnv, then answer (command, argument) messages until "close"."""
    env = None
    while True:
        command, argument = connection.recv()
        if command == "close":
            connection.close()
            return
        try:
            if command == "start":
                env = VectorEnv(**{"threads": 1, **settings})  # the shards are the parallelism
                reply = (env.num_players, env.observation_space, env.action_space)
            elif command == "reset":
                reply = (env.reset(), env.action_masks(), env.reset_infos)
            elif command == "step":
                reply = (*env.step(argument), env.action_masks())
            else:  # ("call", (method, args, kwargs))
                name, args, kwargs = argument
                reply = getattr(env, name)(*args, **kwargs)
            connection.send((True, reply))
        except Exception as exc:  # noqa: BLE001  (any error goes back; the caller re-raises it)
            connection.send((False, exc))


@contextmanager
def _one_thread_each():
    """Spawn workers whose numerical libraries run one thread each.

    Each of their small matrix operations would otherwise wake a pool of threads per
    process, which compete for the cores the shards are meant to share (measured: 1.17x
    the games' speed on 2 shards instead of 1.5x).
    """
    saved = {name: os.environ.get(name) for name in THREAD_VARIABLES}
    os.environ.update(dict.fromkeys(THREAD_VARIABLES, "1"))
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value


def shard_sizes(num_envs: int, shards: int) -> list[int]:
    """Games per shard, as even as can be: 10 games on 3 shards are 4, 3, 3."""
    if not 1 <= shards <= num_envs:
        raise ConfigError(f"shards must be 1 to num_envs ({num_envs}), got {shards}")
    return [num_envs // shards + (k < num_envs % shards) for k in range(shards)]


def shard_seeds(seed, shards: int) -> list:
    """Independent seeds for the shards, derived from `seed` (None: unseeded)."""
    if seed is None:
        return [None] * shards
    return [int(s.generate_state(1, np.uint64)[0] >> 1) for s in np.random.SeedSequence(seed).spawn(shards)]


class ShardedVectorEnv(VectorEnv):
    """`num_envs` games on `shards` worker processes; otherwise as :class:`VectorEnv`.

    ``reset``, ``step``, ``action_masks``, ``seed``, ``set_opponents``, ``add_opponent`` and
    ``set_card_weights`` reach every shard; the arrays and infos come back in game order. Call
    ``close`` (or use it as a context manager) to stop the workers.
    """

    def __init__(self, num_envs: int = 8, shards: int = 2, seed=None, **settings):
        sizes = shard_sizes(num_envs, shards)
        context = multiprocessing.get_context("spawn")
        self._connections, self._workers = [], []
        with _one_thread_each():
            for size, shard_seed in zip(sizes, shard_seeds(seed, shards)):
                ours, theirs = context.Pipe()
                worker = context.Process(
                    target=_serve, daemon=True, args=(theirs, {**settings, "num_envs": size, "seed": shard_seed})
                )
                worker.start()
                theirs.close()
                self._connections.append(ours)
                self._workers.append(worker)
        self._bounds = np.cumsum([0] + sizes)
        try:
            self.num_players, observation_space, action_space = self._ask_all("start")[0]
        except BaseException:
            self.close()
            raise
        self._masks = None
        self._init_spaces(num_envs, observation_space, action_space)

    # ----------------------------------------------------------------- messages
    def _send_all(self, command: str, arguments) -> None:
        for connection, argument in zip(self._connections, arguments):
            connection.send((command, argument))

    def _receive_all(self) -> list:
        return [self._receive(k) for k in range(len(self._connections))]

    def _receive(self, k: int):
        try:
            ok, payload = self._connections[k].recv()
        except (EOFError, ConnectionError):
            raise RuntimeError("a shard's worker process has died; see its error above") from None
        if not ok:
            raise payload
        return payload

    def _ask_all(self, command: str, argument=None) -> list:
        self._send_all(command, [argument] * len(self._connections))
        return self._receive_all()

    def _call_all(self, name: str, *args, **kwargs) -> list:
        return self._ask_all("call", (name, args, kwargs))

    # ----------------------------------------------------------------- VecEnv interface
    def set_opponents(self, opponents):
        self._call_all("set_opponents", opponents)

    def add_opponent(self, member, weight: float = 1.0):
        self._call_all("add_opponent", member, weight)

    def set_card_weights(self, weights: dict | None) -> None:
        self._call_all("set_card_weights", weights)

    def seed(self, seed=None):
        """Seed the next reset: each shard with its own seed drawn from `seed`."""
        self._send_all("call", [("seed", (s,), {}) for s in shard_seeds(seed, len(self._connections))])
        return [s for seeds in self._receive_all() for s in seeds]

    def reset(self) -> np.ndarray:
        replies = self._ask_all("reset")
        self._masks = np.concatenate([masks for _, masks, _ in replies])
        self.reset_infos = [info for _, _, infos in replies for info in infos]
        return np.concatenate([obs for obs, _, _ in replies])

    def step_async(self, actions) -> None:
        """Check every game's action here, so that a bad one steps no shard at all."""
        actions = check_actions(actions, self.action_masks())
        self._send_all("step", [actions[a:b] for a, b in zip(self._bounds[:-1], self._bounds[1:])])

    def step_wait(self):
        replies = self._receive_all()
        self._masks = np.concatenate([r[4] for r in replies])
        return (
            np.concatenate([r[0] for r in replies]),
            np.concatenate([r[1] for r in replies]),
            np.concatenate([r[2] for r in replies]),
            [info for r in replies for info in r[3]],
        )

    # ----------------------------------------------------------------- one shard at a time
    @property
    def shards(self) -> list[slice]:
        """The rows of each shard's games, in game order."""
        return [slice(a, b) for a, b in zip(self._bounds[:-1], self._bounds[1:])]

    def step_shard_async(self, k: int, actions) -> None:
        """Step shard k's games with their actions (rows ``shards[k]``), without waiting.

        A learner can compute the next actions of one shard while the other shards play.
        """
        rows = self.shards[k]
        self._connections[k].send(("step", check_actions(actions, self.action_masks()[rows])))

    def step_shard_wait(self, k: int):
        """Shard k's (observations, rewards, dones, infos) for its step; its masks are kept."""
        observations, rewards, dones, infos, masks = self._receive(k)
        self._masks[self.shards[k]] = masks
        return observations, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        if self._masks is None:
            raise ConfigError("no games yet: reset the environment first")
        return self._masks

    def close(self) -> None:
        for connection in self._connections:
            try:
                connection.send(("close", None))
            except (BrokenPipeError, OSError):
                pass
        for worker in self._workers:
            worker.join(timeout=10)
        self._connections, self._workers = [], []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
