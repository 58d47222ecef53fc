"""Everything above the agents: learning (``learning/``), contests between agents (``arena/``),
the tools (``tools/``) and, at the very top, the ``tribune`` command (``cli/``), which
nothing imports. ``bounds.py`` bounds the numbers all of them accept."""
