"""Bounds on the numbers the commands, configs and records accept, in one place so they agree.

Beyond them a value is a mistake, or would exhaust the machine: every game's result of a
tournament is kept for its summary, and each worker is a process with its own engine and
agents.
"""

from tribune_env.data import MAX_ROUND_LIMIT  # noqa: F401  (the engine's own bound, for the commands too)

MAX_SEED = 2**32 - 1  # seeds are 32-bit: derived seeds, dealt seeds, numpy's legacy seeding in training
MAX_GAMES = 100_000  # games of one tournament or evaluation: their results are kept
MAX_WORKERS = 64  # worker processes
