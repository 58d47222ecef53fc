"""Mapping a function over jobs in worker processes, the same way for every caller."""
from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor


def parallel_map(fn, jobs: list, workers: int, initializer=None, initargs=()):
    """``map(fn, jobs)`` in order, over `workers` processes (in this one when `workers` is 1).

    Workers are spawned, not forked: a forked child of a process that has run torch can
    deadlock in its threads. So `fn` and `initializer` must be importable module functions.
    """
    if workers == 1:
        yield from map(fn, jobs)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=context, initializer=initializer, initargs=initargs) as pool:
        yield from pool.map(fn, jobs)
