"""The networks shipped with the package, one per table size (weights only, :mod:`agents.policy`).

``POLICIES`` holds the policy file for each player count: ``2p.pt`` to ``5p.pt``; play one with
``make_agent(f"policy:{POLICIES[4]}")``. Each is made by its recipe, ``training/configs/2p.toml`` to
``5p.toml`` (``tribune make 2p``, then ``3p``, ``4p`` and ``5p``, each from the network before).
Their measured strength is in docs/ladder.md.
"""

from pathlib import Path

# The shipped networks: for each table size, its file and the table sizes its recipe trained it at.
MANIFEST = {
    2: ("2p.pt", (2,)),
    3: ("3p.pt", (3,)),
    4: ("4p.pt", (4,)),
    5: ("5p.pt", (5,)),
}
POLICIES = {n: Path(__file__).with_name(name) for n, (name, _) in MANIFEST.items()}
TRAINED_AT = {POLICIES[n]: sizes for n, (_, sizes) in MANIFEST.items()}
