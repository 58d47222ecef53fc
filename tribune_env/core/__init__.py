"""The compiled rules (numba): one module per part of the round, dispatched by task kind."""
