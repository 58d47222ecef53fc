"""The networks shipped with the package, one per table size (weights only, :mod:`agents.policy`).

``POLICIES`` holds the policy file for each player count: ``2p.pt``, ``3p.pt``, ``4p.pt`` and
``large2-5p.pt``; play one with ``make_agent(f"policy:{POLICIES[4]}")``. ``2p.pt``, ``3p.pt`` and
``4p.pt`` are made by the recipes ``training/configs/2p.toml``, ``3p.toml`` and ``4p.toml``
(``tribune make 2p``, then ``3p``, then ``4p``); ``large2-5p.pt`` is the network of the last recipe of
a chain in ``training/configs/`` whose intermediate networks are in git history (docs/training.md,
"The shipped networks"). Their measured strength is in docs/ladder.md.
"""

from pathlib import Path

# The shipped networks: for each table size, its file and the table sizes its recipe trained it at.
MANIFEST = {
    2: ("2p.pt", (2,)),
    3: ("3p.pt", (3,)),
    4: ("4p.pt", (4,)),
    5: ("large2-5p.pt", (5,)),
}
POLICIES = {n: Path(__file__).with_name(name) for n, (name, _) in MANIFEST.items()}
TRAINED_AT = {POLICIES[n]: sizes for n, (_, sizes) in MANIFEST.items()}
