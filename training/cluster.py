"""Ray: joining a cluster or starting a local one, and mapping jobs over it as Ray tasks.

``address`` is what ``ray.init`` takes: ``None`` or ``"local"`` starts a Ray for this run
alone (never a cluster found on the machine), ``"auto"`` joins the cluster running on this machine, ``"host:port"`` (a head's
GCS address, as ``ray start --head`` prints it) joins that one, once a connection to it
opens within PROBE_SECONDS (ray.init alone keeps trying for minutes). The workers get this
process's numba cache directory, so that they load the compiled engine instead of
compiling it again. Importing this module does not import Ray.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections import deque

from tribune_env.errors import ConfigError, install_hint

AHEAD = 2  # tasks in flight per CPU of the cluster, ahead of the results taken
RETRIES = 5  # times a task is run again when its worker process dies (a task is a seeded game: same result)
PASSED_ON = ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")
PROBE_SECONDS = 5  # to open a connection to a cluster's head before ray.init tries it for minutes


def require_ray() -> None:
    """ConfigError, saying what to install, when Ray's RLlib is missing."""
    import importlib.util

    if importlib.util.find_spec("ray") is None or importlib.util.find_spec("ray.rllib") is None:
        raise ConfigError(f"this needs Ray's RLlib, {install_hint('ray')}")


def connect(address: str | None):
    """Ray, initialised for this process (once); ConfigError if the cluster cannot be reached."""
    require_ray()
    import ray

    if not ray.is_initialized():
        probe(address)
        env_vars = {name: os.environ[name] for name in PASSED_ON if name in os.environ}
        try:
            ray.init(
                address=address or "local",
                runtime_env={"env_vars": env_vars} if env_vars else None,
                include_dashboard=False,
                logging_level="ERROR",
                log_to_driver=False,
            )
        except (ConnectionError, ValueError, RuntimeError) as exc:
            raise ConfigError(f"cannot join the Ray cluster at {address!r}: {exc}") from None
    return ray


def probe(address: str | None) -> None:
    """ConfigError at once when nothing answers at a HOST:PORT address (``ray://`` too): given
    an address where nothing listens, ray.init keeps trying for minutes before it gives up."""
    if address in (None, "local", "auto"):
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdecimal() or not 0 < int(port) < 2**16:
        raise ConfigError(f"a Ray address is 'auto', 'local' or HOST:PORT, not {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_SECONDS).close()
    except OSError as exc:
        raise ConfigError(f"cannot reach the Ray cluster at {address!r}: {exc.strerror or exc}") from None


# Initialisers run in this worker process, by run: a worker serves many runs, and each
# starts afresh (its agents made again) once.
_started: set = set()


def _call(fn, job, initializer, initargs, run: str):
    """A job in a worker: its result, and the node that ran it."""
    if initializer is not None and run not in _started:
        initializer(*initargs)
        _started.add(run)
    import ray

    return fn(job), ray.get_runtime_context().get_node_id()


def ray_map(fn, jobs, address: str | None, initializer=None, initargs=(), nodes: list | None = None):
    """``map(fn, jobs)`` in order, each job a Ray task on the cluster at `address`.

    Like :func:`training.arena.processes.parallel_map`: `jobs` may be lazy (a few per CPU
    are in flight), and ``initializer(*initargs)`` runs once per worker before its first
    job of this map. A task whose worker process dies is run again, up to RETRIES times;
    a job that raises is not (its error is raised here, as the process pool raises it).
    `nodes`, if given, receives the id of the node that ran each job, in order.
    """
    ray = connect(address)
    task = ray.remote(num_cpus=1, max_retries=RETRIES, retry_exceptions=False)(_call)
    shared = ray.put(fn), ray.put(initargs)
    run = uuid.uuid4().hex
    window = AHEAD * max(1, int(ray.cluster_resources().get("CPU", 1)))
    pending = deque()
    try:
        for job in jobs:
            pending.append(task.remote(shared[0], job, initializer, shared[1], run))
            if len(pending) >= window:
                yield _result(ray, pending.popleft(), nodes)
        while pending:
            yield _result(ray, pending.popleft(), nodes)
    finally:  # stopped early: the tasks not finished are cancelled
        for ref in pending:
            ray.cancel(ref)


def _result(ray, ref, nodes):
    """A task's value; a job's own error comes out as itself, as from a process pool."""
    try:
        value, node = ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        raise exc.as_instanceof_cause() from None
    if nodes is not None:
        nodes.append(node)
    return value
