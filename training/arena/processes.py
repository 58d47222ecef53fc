"""Mapping a function over jobs in worker processes, the same way for every caller."""

from __future__ import annotations

import multiprocessing
from collections import deque
from concurrent.futures import ProcessPoolExecutor

AHEAD = 2  # jobs submitted per worker ahead of the results taken


def parallel_map(fn, jobs, workers: int, initializer=None, initargs=()):
    """``map(fn, jobs)`` in order, over `workers` processes (in this one when `workers` is 1).

    `jobs` may be a lazy iterable: a few jobs per worker are taken from it ahead of the
    results, so memory does not grow with their number (``Executor.map`` would take them all).
    Workers are spawned, not forked: a forked child of a process that has run torch can
    deadlock in its threads. So `fn` and `initializer` must be importable module functions.
    """
    if workers == 1:
        yield from map(fn, jobs)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=context, initializer=initializer, initargs=initargs) as pool:
        pending = deque()
        try:
            for job in jobs:
                pending.append(pool.submit(fn, job))
                if len(pending) >= AHEAD * workers:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:  # stopped early: the jobs not started are dropped
            for future in pending:
                future.cancel()
