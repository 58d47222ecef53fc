"""Models trained with ``tribune train`` and shipped with the package: the five files here.

``SHIPPED`` is the 2-player model advised by the heuristic (its observations carry the
heuristic's move, see :mod:`tribune_env.envs.advice`), the best model of the run made by
``tribune train --config training/configs/advised-2p.toml --out runs/advised-2p`` and
the resume given in that file; play it with ``make_agent(f"model:{SHIPPED},trust=true")`` or ``model:PATH,trust=true`` on
the command line (a model file runs code when loaded: the spec says that you trust it). ``POLICIES`` are the strongest policy files (weights only, :mod:`agents.policy`) by
player count: ``league-2p.pt``, ``tables-fine-3p.pt``, ``league-4p.pt`` and ``large2-5p.pt``;
play one with ``make_agent(f"policy:{POLICIES[4]}")``. Each is the network of the last recipe of a
chain in ``training/configs/`` whose intermediate networks are in git history (docs/training.md,
"The shipped networks"). Their measured strength is in docs/ladder.md.
"""

from pathlib import Path

SHIPPED = Path(__file__).with_name("advised-2p.zip")
# The shipped networks: for each table size, its file and the table sizes its recipe trained it at.
MANIFEST = {
    2: ("league-2p.pt", (2,)),
    3: ("tables-fine-3p.pt", (3, 4, 5)),
    4: ("league-4p.pt", (4,)),
    5: ("large2-5p.pt", (5,)),
}
POLICIES = {n: Path(__file__).with_name(name) for n, (name, _) in MANIFEST.items()}
TRAINED_AT = {POLICIES[n]: sizes for n, (_, sizes) in MANIFEST.items()}
